"""Which database: ``MAGISTER_DB`` names a SQLite file (a path, or ``sqlite:///path``) or a PostgreSQL
database (``postgresql://user:password@host:port/name``). Both are a
:class:`bot.storage.protocol.Store` (docs/deploy.md). Any other ``scheme://`` (``mysql://``) is refused, never
taken for a file path.
asyncpg is imported only when the database is PostgreSQL, so a SQLite bot does not pay for it at start-up."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.protocol import Store
from bot.storage.rows import StoreOpenError, redact
from bot.storage.sqlite import SqliteStore

SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")  # a scheme, as RFC 3986 spells it, then //


def is_url(target: object) -> bool:
    """A PostgreSQL URL (anything else is a SQLite file)."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The SQLite file ``target`` names; StoreOpenError for a URL of a kind Magister cannot use."""
    text = str(target)
    if text.startswith(SQLITE_SCHEME):
        return Path(text[len(SQLITE_SCHEME) :] or "magister.sqlite3")
    scheme = URL.match(text)
    if scheme is not None:
        raise StoreOpenError(
            f"cannot open the database {redact(text)}: Magister keeps its campaigns in SQLite or PostgreSQL, not "
            f"{scheme[1]}: set MAGISTER_DB to a file path (magister.sqlite3), sqlite:///path/to/file.sqlite3 or "
            "postgresql://user:password@host:5432/name"
        )
    return Path(text)


async def open_store(target: str | Path, *, synchronous: str = "FULL") -> Store:
    """Open (creating and migrating if need be) the store ``target`` names."""
    if is_url(target):
        from bot.storage.postgres import PgStore

        return await PgStore.open(str(target), synchronous=synchronous)
    return await SqliteStore.open(sqlite_path(target), synchronous=synchronous)
