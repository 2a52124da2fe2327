"""Which database: ``MAGISTER_DB`` names a SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL
database (``postgresql://user:password@host:port/name``). Both are a
:class:`bot.storage.protocol.Store` (docs/deploy.md).
asyncpg is imported only when the database is PostgreSQL, so a SQLite bot does not pay for it at start-up."""

from __future__ import annotations

from pathlib import Path

from bot.storage.protocol import Store
from bot.storage.sqlite import SqliteStore

SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: object) -> bool:
    """A PostgreSQL URL (anything else is a SQLite file)."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def open_store(target: str | Path, *, synchronous: str = "FULL") -> Store:
    """Open (creating and migrating if need be) the store ``target`` names."""
    if is_url(target):
        from bot.storage.postgres import PgStore

        return await PgStore.open(str(target), synchronous=synchronous)
    text = str(target)
    if text.startswith(SQLITE_SCHEME):
        text = text[len(SQLITE_SCHEME) :] or "magister.sqlite3"
    return await SqliteStore.open(Path(text), synchronous=synchronous)
