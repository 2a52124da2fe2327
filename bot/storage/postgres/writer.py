"""Writes on PostgreSQL: :class:`PgWriter`, a few writer connections (:class:`Lane`), each with the SQLite writer's
group commit; the cross-process write counter (``magister_writes``); and what jobs write through:
:class:`PgWriteTx` for sync jobs, :class:`PgTransaction` for ``async with store.transaction()``.

- A group's :class:`bot.storage.action.ActionWrite` s (nearly every action) run as data, the whole group in two
  statements (:mod:`bot.storage.postgres.batch`); other jobs run statement by statement after them, in the same
  transaction.
- Sync jobs run in a greenlet on the event loop (:mod:`bot.storage.postgres.bridge`), not on a thread.
- Each lane holds its own connection; a campaign's actions always take the same lane (by its id), so they stay in
  order, while lanes commit side by side. Lanes share nothing but the server: the per-campaign advisory locks that
  keep two processes apart keep two lanes apart too. Other jobs and ``transaction()`` take the first lane.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from bot.storage.action import ActionWrite, Split, settled
from bot.storage.action import split as action_split
from bot.storage.postgres import batch
from bot.storage.postgres.bridge import await_only, run_sync
from bot.storage.postgres.errors import UNREACHABLE, again_if_dropped, unavailable
from bot.storage.postgres.statements import Statements
from bot.storage.rows import StaleCampaignError, utcnow
from bot.storage.writer import GroupCommit, Transaction, WriteTx

T = TypeVar("T")
Job = Callable[[Any], Any]
WRITES_SEEN = "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM magister_writes"
LANES = 2  # writer connections per process (measured: README "Performance")
CLOSE_TIMEOUT = 10.0

log = logging.getLogger(__name__)


WRITE_METHODS = tuple(name for name, _ in inspect.getmembers(WriteTx, inspect.isfunction) if not name.startswith("_"))


TRANSACTION_METHODS = tuple(
    name for name, _ in inspect.getmembers(Transaction, inspect.isfunction) if not name.startswith("_")
)


class PgWriteTx:
    """:class:`bot.storage.writer.WriteTx` for sync jobs: each method awaits its :class:`Statements` twin on the
    loop (:func:`~bot.storage.postgres.bridge.await_only`), inside the job's greenlet."""

    def __init__(self, lane: Lane) -> None:
        self._lane = lane


class PgTransaction:
    """:class:`bot.storage.writer.Transaction`: what ``async with store.transaction() as tx`` gives; each method is
    its :class:`Statements` twin, awaited directly."""

    def __init__(self, lane: Lane) -> None:
        self._lane = lane

    async def run(self, job: Callable[[Any], T]) -> T:
        """Any WriteTx work, inside this transaction."""
        return await run_sync(job, self._lane._tx)


def _bridged(name: str) -> Callable[..., Any]:
    def method(self: PgWriteTx, *args: Any, **kwargs: Any) -> Any:
        return await_only(getattr(self._lane._statements, name)(*args, **kwargs))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(WriteTx, name).__doc__
    return method


def _direct(name: str) -> Callable[..., Any]:
    async def method(self: PgTransaction, *args: Any, **kwargs: Any) -> Any:
        return await getattr(self._lane._statements, name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = getattr(Transaction, name).__doc__
    return method


for _name in WRITE_METHODS:
    setattr(PgWriteTx, _name, _bridged(_name))
for _name in TRANSACTION_METHODS:
    if _name != "run":
        setattr(PgTransaction, _name, _direct(_name))


class Lane(GroupCommit):
    """One writer connection, held between transactions, with its own group commit queue."""

    @property
    def clock(self) -> Callable[[], str]:
        """The store's clock (the console's virtual one at its table): every lane stamps rows with its writer's."""
        return self._writer.clock

    def __init__(self, writer: PgWriter) -> None:
        self._writer = writer
        self._lock = asyncio.Lock()
        self._queue: list[tuple[Job, asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._deliveries: set[asyncio.Task[None]] = set()  # groups committed, waiting for their count
        self._held: asyncpg.Connection | None = None  # kept between transactions: no acquire, no reset
        self._connection: asyncpg.Connection | None = None  # the open transaction's (read by Statements)
        self._locked: set[int] = set()  # campaigns advisory-locked in the open transaction
        self._statements = Statements(self)
        self._tx = PgWriteTx(self)
        self._async = PgTransaction(self)

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.shield(self._committer)
        if self._deliveries:  # the committer is done: no more will come
            await asyncio.wait(list(self._deliveries))
        async with self._lock:
            await self._let_go()

    async def _let_go(self) -> None:
        """Close the held connection (the next transaction opens another)."""
        held, self._held = self._held, None
        if held is not None and not held.is_closed():
            try:
                await held.close(timeout=CLOSE_TIMEOUT)
            except Exception:  # a broken one, or a server that does not answer: just drop it
                held.terminate()

    # ------------------------------------------------------------------ transactions

    async def _begin(self, locks: Collection[int] = ()) -> None:
        """BEGIN, and with it (one round trip) the campaigns' advisory locks, in id order."""
        sql = "BEGIN"
        if locks:
            sql += "; " + batch.locking(locks)

        async def begin() -> asyncpg.Connection:
            if self._held is None or self._held.is_closed():
                await self._let_go()
                self._held = await self._writer.connect()
            try:
                await self._held.execute(sql)
            except BaseException:
                await self._let_go()  # dropped by the server (a restart): the retry takes a new one
                raise
            return self._held

        self._connection = await again_if_dropped(begin)
        self._locked = set(locks)

    async def _end(self, commit: bool) -> None:
        """COMMIT or ROLLBACK. The caller waits for :meth:`PgWriter.counted` before it tells anyone of a commit."""
        connection, self._connection = self._connection, None
        assert connection is not None
        if not commit:
            # a connection that broke has nothing to roll back; the error that brought us here matters
            try:
                await connection.execute("ROLLBACK")
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                await self._let_go()
            return
        try:
            await connection.execute("COMMIT")
        except UNREACHABLE as error:  # sent, but no answer: it may have landed or not
            await self._let_go()
            raise unavailable(error, maybe_saved=True) from error

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
        await self._writer.counted()

    # ------------------------------------------------------------------ group commit

    async def _settle(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """The group in one transaction. Actions refused by their version check are left out and the rest run
        again in a new transaction (the first one rolled back): the others never pay for them."""
        outcomes: dict[int, tuple[bool, Any]] = {}
        pending = list(range(len(jobs)))
        while pending:
            refused = await self._transact(jobs, pending, outcomes)
            if not refused:
                break
            for index in refused:
                outcomes[index] = (False, StaleCampaignError(jobs[index].campaign.id))
            pending = [index for index in pending if index not in refused]
        return [outcomes[index] for index in range(len(jobs))]

    async def _alone(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        outcomes: list[tuple[bool, Any]] = []
        for job in jobs:
            try:
                outcomes.append((await self._settle([job]))[0])
            except Exception as error:
                outcomes.append((False, error))
        return outcomes

    async def _transact(self, jobs: list[Job], pending: list[int], outcomes: dict[int, tuple[bool, Any]]) -> set[int]:
        """``pending`` jobs in one transaction: committed, their outcomes filled in, and an empty set; or rolled
        back and the batched actions the version check refused (nothing else is done then)."""
        chosen = [jobs[index] for index in pending]
        split = action_split(chosen) if self._writer.batching else Split(others=list(range(len(chosen))))
        actions = [action for _, action in split.batch]
        await self._begin({action.campaign.id for action in actions})
        try:
            results: dict[int, Any] = {}
            if actions:
                done = await batch.run_batch(self._connection, actions, self.clock())  # type: ignore[arg-type]
                refused = {pending[i] for (i, _), d in zip(split.batch, done, strict=True) if not _ok(d)}
                if refused:
                    await self._end(commit=False)
                    return refused
                results.update({i: d for (i, _), d in zip(split.batch, done, strict=True)})
            for i in split.others:
                results[i] = await run_sync(chosen[i], self._tx)
        except BaseException as error:
            if self._connection is not None:
                await self._end(commit=False)
            if isinstance(error, UNREACHABLE):  # the connection went mid-transaction: nothing was saved
                raise unavailable(error) from error
            raise
        await self._end(commit=True)
        for _, action in split.batch:
            settled(action)
        for i, index in enumerate(pending):
            outcomes[index] = (True, results[i])
        return set()

    def _deliver(self, group: list[tuple[Job, asyncio.Future[Any]]], outcomes: list[tuple[bool, Any]]) -> None:
        """Once the commit is counted (:meth:`PgWriter.counted`): meanwhile the lane commits its next group."""
        if not any(ok for ok, _ in outcomes):  # nothing was committed: nothing to count
            super()._deliver(group, outcomes)
            return
        task = asyncio.create_task(self._counted_then(group, outcomes), name="magister-pg-deliver")
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _counted_then(
        self, group: list[tuple[Job, asyncio.Future[Any]]], outcomes: list[tuple[bool, Any]]
    ) -> None:
        await self._writer.counted()
        super()._deliver(group, outcomes)


def _ok(outcome: Any) -> bool:
    return not isinstance(outcome, StaleCampaignError)


class PgWriter:
    """The process's writer connections (:class:`Lane`), and the cross-process write counter."""

    def __init__(
        self, pool: asyncpg.Pool, connect: Callable[[], Awaitable[asyncpg.Connection]], seen: int, lanes: int = LANES
    ) -> None:
        self._pool = pool  # the readers' (and the counter's)
        self.connect = connect  # a new writer connection: each lane holds one, made at its first write
        self._loop = asyncio.get_running_loop()
        self._lanes = [Lane(self) for _ in range(lanes)]
        self._tx = self._lanes[0]._tx  # the class tests patch (tests/support/db.py write_tx_class)
        self._counter: asyncpg.Connection | None = None  # draws magister_writes numbers, one at a time
        self._next_draw: asyncio.Future[None] | None = None  # the draw the commits since the last one wait for
        self._drawing: asyncio.Task[None] | None = None
        self._seen = seen  # the highest magister_writes number seen
        self.batching = True  # False: every action statement by statement (tests that patch PgWriteTx)
        self.clock: Callable[[], str] = utcnow  # the store's clock, read by every lane
        self.generation = 0
        self.checked_at = time.monotonic()

    async def close(self) -> None:
        for lane in self._lanes:
            await lane.close()
        if self._drawing is not None:
            await asyncio.shield(self._drawing)
        if self._counter is not None and not self._counter.is_closed():
            try:
                await self._counter.close(timeout=CLOSE_TIMEOUT)
            except Exception:
                self._counter.terminate()

    def wait(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """From a worker thread (the export's snapshot): run ``coroutine`` on the loop, wait, return its result."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:  # it would wait forever on the loop it blocks
            coroutine.close()
            raise RuntimeError("PgWriter.wait was called on the event loop")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def lane(self, job: Job) -> Lane:
        """An action's lane is its campaign's, so one campaign's writes stay in order; other jobs take the first."""
        if isinstance(job, ActionWrite):
            return self._lanes[job.campaign.id % len(self._lanes)]
        return self._lanes[0]

    async def write(self, job: Callable[[Any], T]) -> T:
        return await self.lane(job).write(job)

    def transaction(self) -> Any:
        return self._lanes[0].transaction()

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

    async def counted(self) -> None:
        """After a commit: return once a magister_writes number drawn after it is seen, so whoever sees the
        number also sees what was committed. One draw at a time, on a connection of its own, so the lanes'
        numbers are seen in the order drawn (and never look like another process's); every commit made while a
        draw is out waits for the next one, so one draw counts any number of groups."""
        if self._next_draw is None:
            self._next_draw = self._loop.create_future()
            if self._drawing is None or self._drawing.done():
                self._drawing = asyncio.create_task(self._draw(), name="magister-pg-count")
        await asyncio.shield(self._next_draw)

    async def _draw(self) -> None:
        while self._next_draw is not None:
            covered, self._next_draw = self._next_draw, None
            try:
                if self._counter is None or self._counter.is_closed():
                    self._counter = await self.connect()
                self.saw(int(await self._counter.fetchval("SELECT nextval('magister_writes')")), own=True)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                # committed all the same: never report a saved action as failed. Other processes learn of
                # it at the next write's number, or when their own writes meet its version.
                log.warning("could not count a committed write in magister_writes", exc_info=True)
            covered.set_result(None)
