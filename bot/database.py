"""Which database: ``MAGISTER_DB`` names a SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL
database (``postgresql://user:password@host:port/name``). Both stores offer the same API (docs/deploy.md).
asyncpg is imported only when the database is PostgreSQL, so a SQLite bot does not pay for it at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.store import Store

if TYPE_CHECKING:
    from bot.postgres import PgStore

SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: object) -> bool:
    """A PostgreSQL URL (anything else is a SQLite file)."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def open_store(target: str | Path, *, synchronous: str = "FULL") -> Store | PgStore:
    """Open (creating and migrating if need be) the store ``target`` names."""
    if is_url(target):
        from bot.postgres import PgStore

        return await PgStore.open(str(target), synchronous=synchronous)
    text = str(target)
    if text.startswith(SQLITE_SCHEME):
        text = text[len(SQLITE_SCHEME) :] or "magister.sqlite3"
    return await Store.open(Path(text), synchronous=synchronous)
