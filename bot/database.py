"""Which database: ``MAGISTER_DB`` names a SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL
database (``postgresql://user:password@host:port/name``). Both stores offer the same API."""

from __future__ import annotations

from pathlib import Path

from bot.postgres import PgStore, is_url
from bot.store import Store

SQLITE_SCHEME = "sqlite:///"


async def open_store(target: str | Path, *, synchronous: str = "FULL") -> Store | PgStore:
    """Open (creating and migrating if need be) the store ``target`` names."""
    if is_url(target):
        return await PgStore.open(str(target), synchronous=synchronous)
    text = str(target)
    if text.startswith(SQLITE_SCHEME):
        text = text[len(SQLITE_SCHEME) :] or "magister.sqlite3"
    return await Store.open(Path(text), synchronous=synchronous)


def describe(target: str | Path) -> str:
    """The database as a log line may name it: a PostgreSQL URL without its password."""
    from bot.postgres import redact

    return redact(str(target)) if is_url(target) else str(target)
