"""What goes wrong with a PostgreSQL database: one that cannot be opened (named without its password), and a
connection the server dropped (tried once more on a new one)."""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.storage.rows import StoreOpenError

T = TypeVar("T")


class PgStoreOpenError(StoreOpenError):
    """The PostgreSQL database cannot be reached or used; the message names it (without its password)."""

    def __init__(self, url: str, error: BaseException) -> None:
        reason = str(error).strip() or type(error).__name__
        Exception.__init__(
            self,
            f"cannot open the database {redact(url)}: {reason}: check the server runs, the database exists and "
            "the user may use it, or set MAGISTER_DB to another database",
        )


def redact(url: str) -> str:
    """The URL with any password replaced, for messages and logs."""
    parts = urlsplit(url)
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


DROPPED = (asyncpg.ConnectionDoesNotExistError, asyncpg.AdminShutdownError, asyncpg.CannotConnectNowError)


async def again_if_dropped(attempt: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """A read, or a BEGIN, that met a connection the server had dropped (a restart): once more, on a new one.
    Safe because nothing was done yet; a dropped connection mid-write is not retried (the action fails)."""
    try:
        return await attempt()
    except DROPPED:
        return await attempt()
