"""What goes wrong with a PostgreSQL database: one that cannot be opened (named without its password), a
connection the server dropped (tried once more on a new one), and a server that cannot be reached now
(:class:`bot.storage.rows.DatabaseUnavailableError`, the neutral kind the adapter words for the user)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import asyncpg

from bot.storage.rows import DatabaseUnavailableError, SchemaTooNewError, StoreOpenError, redact

T = TypeVar("T")
__all__ = ["DROPPED", "UNREACHABLE", "PgStoreOpenError", "again_if_dropped", "redact", "unavailable"]


class PgStoreOpenError(StoreOpenError):
    """The PostgreSQL database cannot be reached or used; the message names it (without its password)."""

    def __init__(self, url: str, error: BaseException) -> None:
        reason = str(error).strip() or type(error).__name__
        if isinstance(error, SchemaTooNewError):
            advice = f"{reason}, or set MAGISTER_DB to another database"
        elif "pg_trgm" in reason:  # migration 8: the log's text search
            advice = (
                f"{reason}: the log's text search needs PostgreSQL's pg_trgm extension (Debian's postgresql "
                "package has it; elsewhere postgresql-contrib): from PostgreSQL 13 the database's owner may add it, "
                "before that a superuser runs CREATE EXTENSION pg_trgm in this database"
            )
        else:
            advice = (
                f"{reason}: check the server runs, the database exists and the user may use it, or set MAGISTER_DB "
                "to another database"
            )
        Exception.__init__(self, f"cannot open the database {redact(url)}: {advice}")


DROPPED = (asyncpg.ConnectionDoesNotExistError, asyncpg.AdminShutdownError, asyncpg.CannotConnectNowError)

# The server is not there for us now: it stopped or restarts (shutdown, crash, "starting up"), refuses or drops
# connections (class 08, a closed socket), has none left, or a connection attempt timed out. Nothing else: a
# refused statement (a constraint, a cancelled query) is an answer from a server that is there.
UNREACHABLE = (
    OSError,  # ConnectionRefusedError, a missing unix socket, a reset; TimeoutError (a connect or acquire timeout)
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
)


def unavailable(error: BaseException, *, maybe_saved: bool = False) -> DatabaseUnavailableError:
    """The neutral error for a driver's connection error, with the driver's words for the log."""
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return DatabaseUnavailableError(f"{type(error).__name__}: {reason}"[:300], maybe_saved=maybe_saved)


async def again_if_dropped(attempt: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """A read, or a BEGIN, that met a connection the server had dropped (a restart): once more, on a new one.
    Safe because nothing was done yet; a dropped connection mid-write is not retried (the action fails).
    A server that cannot be reached even so is :class:`DatabaseUnavailableError`."""
    try:
        try:
            return await attempt()
        except DROPPED:
            return await attempt()
    except UNREACHABLE as error:
        raise unavailable(error) from error
