"""Writes on PostgreSQL: :class:`PgWriter`, one write transaction at a time per process, with the SQLite
writer's group commit and the cross-process write counter (``magister_writes``); and the bridges to
:class:`bot.storage.postgres.statements.Statements`: :class:`PgWriteTx` for sync jobs on the worker thread,
:class:`PgTransaction` for ``async with store.transaction()``."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, TypeVar

import asyncpg

from bot.storage.postgres.errors import UNREACHABLE, again_if_dropped, unavailable
from bot.storage.postgres.statements import Statements
from bot.storage.rows import utcnow
from bot.storage.writer import GroupCommit, Transaction, WriteTx

T = TypeVar("T")
Job = Callable[[Any], Any]
WRITES_SEEN = "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM magister_writes"

log = logging.getLogger(__name__)


WRITE_METHODS = tuple(name for name, _ in inspect.getmembers(WriteTx, inspect.isfunction) if not name.startswith("_"))


TRANSACTION_METHODS = tuple(
    name for name, _ in inspect.getmembers(Transaction, inspect.isfunction) if not name.startswith("_")
)


class PgWriteTx:
    """:class:`bot.storage.writer.WriteTx` for sync jobs on the worker thread: each method runs its
    :class:`Statements` twin on the event loop and waits for it."""

    def __init__(self, writer: PgWriter) -> None:
        self._writer = writer


class PgTransaction:
    """:class:`bot.storage.writer.Transaction`: what ``async with store.transaction() as tx`` gives. Each method
    runs its :class:`PgWriteTx` twin on the worker thread, as SQLite's runs WriteTx on its writer thread."""

    def __init__(self, writer: PgWriter) -> None:
        self._writer = writer

    async def run(self, job: Callable[[Any], T]) -> T:
        """Any WriteTx work, as one hand-off, inside this transaction."""
        return await self._writer._on_thread(job, self._writer._tx)


def _bridged(name: str) -> Callable[..., Any]:
    def method(self: PgWriteTx, *args: Any, **kwargs: Any) -> Any:
        return self._writer.wait(getattr(self._writer._statements, name)(*args, **kwargs))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(WriteTx, name).__doc__
    return method


def _handed_off(name: str) -> Callable[..., Any]:
    async def method(self: PgTransaction, *args: Any, **kwargs: Any) -> Any:
        return await self.run(lambda tx: getattr(tx, name)(*args, **kwargs))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(Transaction, name).__doc__
    return method


for _name in WRITE_METHODS:
    setattr(PgWriteTx, _name, _bridged(_name))
for _name in TRANSACTION_METHODS:
    if _name != "run":
        setattr(PgTransaction, _name, _handed_off(_name))


class PgWriter(GroupCommit):
    """One write transaction at a time per process, group commit, and the cross-process write counter."""

    def __init__(self, pool: asyncpg.Pool, seen: int) -> None:
        self._pool = pool
        self._loop = asyncio.get_running_loop()
        self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="magister-pg-jobs")
        self._lock = asyncio.Lock()
        self._queue: list[tuple[Job, asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._connection: asyncpg.Connection | None = None  # the open transaction's
        self._transaction: Any = None
        self._locked: set[int] = set()  # campaigns advisory-locked in the open transaction
        self.clock: Callable[[], str] = utcnow  # the store's clock (the console's virtual one at its table)
        self._statements = Statements(self)
        self._tx = PgWriteTx(self)
        self._async = PgTransaction(self)
        self._seen = seen  # the highest magister_writes number seen
        self.generation = 0
        self.checked_at = time.monotonic()

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.shield(self._committer)
        async with self._lock:
            pass
        self._threads.shutdown(wait=False)

    def wait(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """From the worker thread: run ``coroutine`` on the event loop, wait, return its result."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:  # it would wait forever on the loop it blocks
            coroutine.close()
            raise RuntimeError("a PostgreSQL WriteTx method was called on the event loop: use store.write")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    async def _on_thread(self, function: Callable[..., T], *args: Any) -> T:
        return await self._loop.run_in_executor(self._threads, partial(function, *args))

    # ------------------------------------------------------------------ other processes

    def saw(self, number: int, *, own: bool = False) -> bool:
        """Note a magister_writes number: True (and a new generation) if another process drew one unseen."""
        self.checked_at = time.monotonic()
        changed = number > self._seen + (1 if own else 0)
        self._seen = max(self._seen, number)
        if changed:
            self.generation += 1
        return changed

    async def check_others(self) -> bool:
        return self.saw(int(await again_if_dropped(lambda: self._pool.fetchval(WRITES_SEEN))))

    # ------------------------------------------------------------------ transactions

    async def _begin(self) -> None:
        async def begin() -> tuple[asyncpg.Connection, Any]:
            connection = await self._pool.acquire()
            try:
                transaction = connection.transaction()
                await transaction.start()
            except BaseException:
                await self._pool.release(connection)
                raise
            return connection, transaction

        connection, transaction = await again_if_dropped(begin)
        self._connection, self._transaction, self._locked = connection, transaction, set()

    async def _end(self, commit: bool) -> None:
        connection, transaction = self._connection, self._transaction
        self._connection = self._transaction = None
        assert connection is not None
        try:
            if not commit:
                # a connection that broke has nothing to roll back; the error that brought us here matters
                with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    await transaction.rollback()
                return
            try:
                await transaction.commit()
            except UNREACHABLE as error:  # sent, but no answer: it may have landed or not
                raise unavailable(error, maybe_saved=True) from error
            try:  # after the commit, so whoever sees the number also sees what was committed
                self.saw(int(await connection.fetchval("SELECT nextval('magister_writes')")), own=True)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                # committed all the same: never report a saved action as failed. Other processes learn of
                # it at the next write's number, or when their own writes meet its version.
                log.warning("could not count a committed write in magister_writes", exc_info=True)
        finally:
            await self._pool.release(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTransaction]:
        async with self._lock:
            await self._begin()
            try:
                yield self._async
            except BaseException as error:
                await self._end(commit=False)
                if isinstance(error, UNREACHABLE):  # the connection went mid-transaction: nothing was saved
                    raise unavailable(error) from error
                raise
            await self._end(commit=True)

    def _group(self, jobs: list[Job]) -> list[Any]:
        """On the worker thread: every job in one transaction, or none (the exception propagates)."""
        self.wait(self._begin())
        try:
            results = [job(self._tx) for job in jobs]
        except BaseException as error:
            self.wait(self._end(commit=False))
            if isinstance(error, UNREACHABLE):  # the connection went mid-transaction: nothing was saved
                raise unavailable(error) from error
            raise
        self.wait(self._end(commit=True))
        return results
