"""The write side of the store: one thread that owns the writing SQLite connection.

Every write runs on that thread. Actions write through :meth:`Writer.write`,
which commits in groups: writes that arrive while a group is in flight go into
the next one together, and the thread takes group after group from the queue
itself (a group of plain actions as the one statement of their batch, which
commits as it ends; any other group as BEGIN IMMEDIATE, the batch, the other
jobs' statements, COMMIT), handing each group's results back as it commits. Every
action still waits for its own COMMIT, and if any job in a group fails the group
rolls back and each job is retried alone, so one action's failure never touches
another's.

Before each transaction the thread checks, cheaply, that the file at the path is
still the one it opened (a deleted or replaced database would swallow writes)
and whether another process has committed since it last looked.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, MutableSequence, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.action import ActionDone, ActionWrite, Split, settled, split
from bot.storage.imports import FINISH_IMPORT, UNFINISHED_IMPORTS, discard
from bot.storage.members import Erased, Execute, Query, Step, drive, erase
from bot.storage.rows import (
    CampaignRow,
    ConstraintError,
    DatabaseGoneError,
    DatabaseUnavailableError,
    SchemaTooNewError,
    StaleCampaignError,
    TimerClaimedError,
    dumps,
    utcnow,
)
from bot.storage.sqlite_batch import batched, encode, prepare, run_batch

T = TypeVar("T")

# What the writer runs around a run of actions whose text it indexes itself (SQLite migration 12): the marker that
# holds the trigger back, the new events indexed exactly as the trigger would index them, the marker gone.
DEFER_TEXT = "INSERT INTO events_text_deferred (id) VALUES (1)"
NEWEST_EVENT = "SELECT coalesce(max(id), 0) FROM events"
FILL_TEXT = """INSERT INTO events_text (rowid, summary, secret, private)
    SELECT (campaign_id << 32) + seq, summary, json_extract(result, '$.secret.summary'),
           json_extract(result, '$.private.summary')
    FROM events WHERE id > ? AND seq IS NOT NULL"""
UNDEFER_TEXT = "DELETE FROM events_text_deferred"
Job = Callable[["WriteTx"], Any]
MAX_BATCH = 64  # writes per group commit: enough to amortize, small enough to keep latency flat
SWITCH_INTERVAL = 0.0001  # seconds: how long a thread waiting for the GIL waits for a busy event loop to give it up
WRITER_CHECKPOINT_PAGES = 10_000  # the writer checkpoints itself only when the WAL grows this long (SQLite's: 1,000)
CHECKPOINT_EVERY = 0.02  # seconds: the checkpointer's shortest pause between two checkpoints
SQLITE_BUSY_SNAPSHOT = 517  # SQLite's extended result code: a read snapshot another connection's commit made stale

log = logging.getLogger(__name__)


class GroupCommit:
    """Group commit, the same on both backends: writes that arrive while a group is in flight go into the next
    one together; if any job of a group fails, the group rolls back and each job is retried alone, so one
    action's failure never touches another's; a database that cannot be reached (:class:`DatabaseUnavailableError`)
    fails the whole group at once, without them. A backend supplies :meth:`_settle` (every job of a group in one
    transaction) and :meth:`_alone` (each job in its own), as PostgreSQL's lanes do; SQLite's :class:`Writer`
    replaces :meth:`_commit_queued` instead, its thread taking group after group itself."""

    _lock: asyncio.Lock  # one transaction at a time: a group, or an async transaction()
    _queue: MutableSequence[tuple[Job, asyncio.Future[Any]]]
    _committer: asyncio.Task[None] | None

    async def _settle(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """Every job in one committed transaction: each job's (True, result), or (False, error) for a job the
        backend could refuse alone without failing the others; any other failure raises, and nothing is saved."""
        raise NotImplementedError

    async def _alone(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """After a failed group: each job in its own transaction, so only the faulty one fails."""
        raise NotImplementedError

    async def write(self, job: Callable[[WriteTx], T]) -> T:
        """Run ``job`` in a committed transaction, maybe shared; its result."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._prepare(job)
        self._queue.append((job, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_queued(), name="magister-group-commit")
        return await future

    async def _commit_queued(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            jobs = [job for job, _ in batch]
            async with self._lock:
                try:
                    outcomes = await self._settle(jobs)
                except DatabaseUnavailableError as error:
                    # the server is not there: each job alone would only wait for it again, and after a COMMIT
                    # that may have landed (``maybe_saved``) a second run could apply a job twice
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                except Exception:
                    outcomes = await self._alone(jobs)
            self._deliver(batch, outcomes)

    def _prepare(self, job: Job) -> None:
        """On the loop, as a job queues: a backend's chance to do its Python work there."""

    def _deliver(self, batch: list[tuple[Job, asyncio.Future[Any]]], outcomes: list[tuple[bool, Any]]) -> None:
        """Each job's result or error to its writer, once its group is done."""
        for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
            if not future.done():
                future.set_result(value) if ok else future.set_exception(value)


def share_the_gil() -> None:
    """Let the writer thread work beside a busy event loop. A thread that wants the GIL while the loop runs Python
    waits for Python's switch interval (5 ms by default) before the loop must give it up; the writer wants it to
    start each group and again after each SQLite call (which runs without it), so at 5 ms it worked only while the
    loop was idle and the two took turns (issue 23: a group waited 4.5 ms to start). At 0.1 ms it waits little;
    a forced switch happens only while another thread is waiting, so a process with nothing to write pays nothing."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


class Checkpointer:
    """Copies the write-ahead log back into the database file from a thread and a connection of its own.

    SQLite's writer checkpoints by itself after a commit leaves the log 1,000 pages long, and that commit waits for
    it: copying the pages and syncing the file. Under load that was a third of the writer thread's time (issue 23:
    one commit in six took over 3 ms). Here the writer only wakes this thread after each commit; it checkpoints
    PASSIVE (never waiting for, nor blocking, the writer or a reader) at most every ``CHECKPOINT_EVERY``. A passive
    checkpoint cannot finish while commits keep coming, and the log only starts again from its beginning once one
    has: the writer's own checkpoint at ``WRITER_CHECKPOINT_PAGES`` does that, with little left to copy (but the
    file to sync: at 4,000 pages those syncs were still a tenth of the writer's time at saturation). Durability
    is SQLite's either way: a commit is in the log (synced under FULL) before it returns."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._wanted = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.checkpoints = 0

    def wake(self) -> None:
        """After a commit, from the writer thread: a checkpoint soon. The thread starts on the first one."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="magister-checkpointer", daemon=True)
            self._thread.start()
        self._wanted.set()

    def stop(self) -> None:
        """Stop the thread (its connection closed) before the writer's connection closes, which checkpoints last."""
        self._stopping.set()
        self._wanted.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        try:  # read-write, never create: a database file deleted meanwhile must not come back empty
            connection = sqlite3.connect(f"{self._path.resolve().as_uri()}?mode=rw", uri=True, check_same_thread=False)
        except sqlite3.Error as error:  # gone already: the writer refuses writes to it, and checkpoints its own
            log.debug("no background checkpoints of %s: %s", self._path, error)
            return
        try:
            while not self._stopping.is_set():
                self._wanted.wait()
                self._wanted.clear()
                if self._stopping.is_set():
                    break
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.checkpoints += 1
                except sqlite3.Error as error:  # the writer's own checkpoint still runs: nothing is lost
                    log.debug("background checkpoint of %s failed: %s", self._path, error)
                self._stopping.wait(CHECKPOINT_EVERY)
        finally:
            connection.close()


class Writer(GroupCommit):
    """The writing connection, on its own thread. Create with :meth:`start`."""

    def __init__(self, path: Path, pool: ThreadPoolExecutor, connection: sqlite3.Connection) -> None:
        self.path = path
        self._pool = pool
        self._db = connection
        self.clock: Callable[[], str] = utcnow  # the store's clock (the console's virtual one at its table)
        self._tx = WriteTx(connection, lambda: self.clock())
        self._lock = asyncio.Lock()  # one transaction at a time: a group, or an async transaction()
        self._queue: deque[tuple[Job, asyncio.Future[Any]]] = deque()  # the loop appends, the writer thread takes
        self._committer: asyncio.Task[None] | None = None
        self._waiting_transactions = 0  # async transactions waiting for their turn: the writer thread stops draining
        self._identity = identity(path)
        self._gone: str | None = None  # why writes are refused, once the file is gone
        self._data_version: int | None = None
        self._group_version = 0  # data_version as the last group began
        self.generation = 0  # bumped whenever another connection (another process) is seen to have written
        self.checked_at = 0.0  # monotonic time of the last look for other writers
        self.batching = True  # False: every action statement by statement (tests that patch WriteTx)
        self._checkpointer = Checkpointer(path)

    @classmethod
    async def start(cls, path: Path, synchronous: str, migrations: Sequence[Sequence[str]]) -> Writer:
        share_the_gil()
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="magister-writer")
        loop = asyncio.get_running_loop()
        try:
            connection = await loop.run_in_executor(pool, _connect, path, synchronous)
            try:
                await loop.run_in_executor(pool, _migrate, connection, migrations)
                await loop.run_in_executor(pool, prepare, connection)  # the batch's TEMP view (sqlite_batch)
            except BaseException:
                await loop.run_in_executor(pool, connection.close)
                raise
        except BaseException:
            pool.shutdown(wait=False)  # the thread would keep the process alive after the error
            raise
        return cls(path, pool, connection)

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.shield(self._committer)
        async with self._lock:
            await self._call(self._checkpointer.stop)
            await self._call(self._db.close)
        self._pool.shutdown(wait=False)

    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, partial(function, *args))
        except sqlite3.IntegrityError as error:  # the neutral kind, as PostgreSQL's store raises it
            raise ConstraintError(str(error)) from None

    async def pragma(self, name: str) -> Any:
        return await self._call(lambda: self._db.execute(f"PRAGMA {name}").fetchone()[0])

    # ------------------------------------------------------------------ other writers, the file

    async def check_others(self) -> bool:
        """Look for commits by another process since the last look; True (and a new generation) if any."""
        return self._saw(await self.pragma("data_version"))

    def _saw(self, data_version: int) -> bool:
        self.checked_at = time.monotonic()
        changed = self._data_version is not None and data_version != self._data_version
        self._data_version = data_version
        if changed:
            self.generation += 1
        return changed

    def _check_file(self) -> None:
        """On the writer thread, before each write: refuse if the file at the path is no longer the one opened."""
        if self._gone is None and identity(self.path) != self._identity:
            log.critical(
                "the database file %s was deleted or replaced while Magister was running; refusing every write "
                "until a restart (writes now would go to a file nobody will read)",
                self.path,
            )
            self._gone = (
                "The campaign database was deleted or replaced while Magister was running, so nothing can be "
                "saved: this was not saved. Ask the bot's admin to restart Magister."
            )
        if self._gone is not None:
            raise DatabaseGoneError(self._gone)

    def _begin(self) -> int:
        """On the writer thread: refuse if the file is gone, BEGIN IMMEDIATE, return the data version."""
        self._check_file()
        self._db.execute("BEGIN IMMEDIATE")
        return self._db.execute("PRAGMA data_version").fetchone()[0]

    # ------------------------------------------------------------------ transactions

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One write transaction, statement by statement: committed on normal exit, rolled back on any exception."""
        self._waiting_transactions += 1
        try:
            await self._lock.acquire()
        finally:
            self._waiting_transactions -= 1
        try:
            self._saw(await self._call(self._begin))
            try:
                yield Transaction(self)
            except BaseException:
                await self._call(self._db.execute, "ROLLBACK")
                raise
            await self._call(self._db.execute, "COMMIT")
            self._checkpointer.wake()
        finally:
            self._lock.release()

    def _prepare(self, job: Job) -> None:
        """An action the batch will write is encoded here, on the loop (:func:`bot.storage.sqlite_batch.encode`)."""
        if type(job) is ActionWrite and self.batching and batched(job):
            job.encoded = encode(job)

    async def _commit_queued(self) -> None:
        """Group commit with the writer thread draining the queue itself, group after group, each group's outcomes
        handed back as it commits: the next group begins at once, not when the busy loop gets round to asking for
        it (issue 23: the writer sat idle half the time waiting for that). The loop only starts a drain, and again
        after an async transaction had its turn."""
        loop = asyncio.get_running_loop()
        while self._queue:
            async with self._lock:
                await self._call(self._drain, loop)

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the writer thread: a group of up to MAX_BATCH queued writes after another until the queue is empty or
        an async transaction waits. A failed group is rolled back and each of its jobs run alone."""
        while self._queue and not self._waiting_transactions:
            batch = [self._queue.popleft() for _ in range(min(MAX_BATCH, len(self._queue)))]
            jobs = [job for job, _ in batch]
            version: int | None = None
            try:
                try:
                    outcomes: list[tuple[bool, Any]] = [(True, result) for result in self._group(jobs)]
                    version = self._group_version
                except Exception:
                    outcomes = self._one_by_one(jobs)
            except BaseException as error:  # never leave a popped write unanswered
                loop.call_soon_threadsafe(self._deliver, batch, [(False, error)] * len(batch))
                raise
            loop.call_soon_threadsafe(self._delivered, batch, outcomes, version)

    def _delivered(self, batch: list[tuple[Job, asyncio.Future[Any]]], outcomes: list, version: int | None) -> None:
        """On the loop, in commit order: what the group's transaction saw of other processes, then each result."""
        if version is not None:
            self._saw(version)
        self._deliver(batch, outcomes)

    def _group(self, jobs: list[Job]) -> list[Any]:
        """On the writer thread: every job in one transaction, or none (the exception propagates).

        A group of actions :mod:`bot.storage.sqlite_batch` can all write (nearly every group) is that batch's one
        statement, its own transaction (:meth:`_batch_alone`). In any other group the batch goes first, then the
        other jobs, in group order, in one BEGIN IMMEDIATE ... COMMIT (:meth:`_in_transaction`)."""
        chosen = split(jobs, _encoded) if self.batching else Split(others=list(range(len(jobs))))
        if chosen.batch and not chosen.others:
            try:
                return self._batch_alone([action for _, action in chosen.batch])
            except sqlite3.OperationalError as error:
                # another process committed between the statement's read and its first write: SQLite refuses that
                # at once, without waiting for the lock (BUSY_SNAPSHOT); BEGIN IMMEDIATE takes the lock first. Any
                # other error (a lock held past the busy timeout) fails the group as it would have anyway.
                if getattr(error, "sqlite_errorcode", None) != SQLITE_BUSY_SNAPSHOT:
                    raise
        return self._in_transaction(jobs, chosen)

    def _batch_alone(self, actions: list[ActionWrite]) -> list[ActionDone]:
        """The batch's statement outside BEGIN, so SQLite commits it as it ends: one call, one hand-off of the GIL
        (issue 23). ``data_version`` is read just after it (another process's commit before it is seen there; one
        that raced it is also caught by each action's version check)."""
        self._check_file()
        try:
            done, data_version = run_batch(self._db, actions, self.clock())
        except sqlite3.IntegrityError as error:
            raise ConstraintError(str(error)) from None
        self._checkpointer.wake()
        for action in actions:
            settled(action)
        self._group_version = data_version  # handed to the loop with the group's outcomes (_drain)
        return done

    def _in_transaction(self, jobs: list[Job], chosen: Split) -> list[Any]:
        """Every job of a group in one BEGIN IMMEDIATE ... COMMIT: the batch first, then the others in group order.
        Their log's text index is filled once for a run of events that only adds (:class:`ActionWrite` s without
        ``also``) rather than by the trigger once per statement; any other job finds every event before it indexed,
        as the index's change and delete triggers need."""
        data_version = self._begin()
        try:
            results: list[Any] = [None] * len(jobs)
            after: int | None = None  # the newest event before the run of actions whose text waits
            if chosen.batch:  # its one statement indexes its events' text by the trigger, in the same call
                done, _ = run_batch(self._db, [action for _, action in chosen.batch], self.clock())
                for (index, _), outcome in zip(chosen.batch, done, strict=True):
                    results[index] = outcome
            for index in chosen.others:
                job = jobs[index]
                if type(job) is ActionWrite and job.also is None:
                    if after is None:
                        after = self._defer_text()
                elif after is not None:
                    self._fill_text(after)
                    after = None
                results[index] = job(self._tx)
            if after is not None:
                self._fill_text(after)
            self._db.execute("COMMIT")
            self._checkpointer.wake()
        except sqlite3.IntegrityError as error:
            self._db.execute("ROLLBACK")
            raise ConstraintError(str(error)) from None
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        for _, action in chosen.batch:
            settled(action)
        self._group_version = data_version  # handed to the loop with the group's outcomes (_drain)
        return results

    def _defer_text(self) -> int:
        """Hold the text index's insert trigger back; the newest event now, after which :meth:`_fill_text` will
        index."""
        after = self._db.execute(NEWEST_EVENT).fetchone()[0]
        self._db.execute(DEFER_TEXT)
        return after

    def _fill_text(self, after: int) -> None:
        """Index the events logged since ``after`` (what the trigger would have done for each), and let the
        trigger index again."""
        self._db.execute(FILL_TEXT, (after,))
        self._db.execute(UNDEFER_TEXT)

    def _one_by_one(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """After a failed group, on the writer thread: each job alone, so only the faulty one fails."""
        outcomes: list[tuple[bool, Any]] = []
        for job in jobs:
            try:
                outcomes.append((True, self._group([job])[0]))
            except Exception as error:
                outcomes.append((False, error))
        return outcomes


class WriteTx:
    """The writes an action may make, run on the writer thread inside one ``BEGIN IMMEDIATE``."""

    def __init__(self, connection: sqlite3.Connection, now: Callable[[], str] = utcnow) -> None:
        self._now = now  # the time rows are stamped with: the store's clock
        self._db = connection

    def insert_campaign(
        self,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        name: str,
        gm_ids: Sequence[int],
        settings: dict,
        state: dict,
    ) -> int:
        cursor = self._db.execute(
            """INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_ids, settings, state, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (guild_id, channel_id, ruleset, name, dumps(list(gm_ids)), dumps(settings), dumps(state), self._now()),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    def set_created_at(self, campaign_id: int, created_at: str) -> None:
        """An imported campaign keeps the date it began (``/campaign import``)."""
        self._db.execute("UPDATE campaigns SET created_at = ? WHERE id = ?", (created_at, campaign_id))

    def update_campaign(self, campaign: CampaignRow) -> None:
        """Write the campaign back; raises StaleCampaignError if another process wrote it first."""
        cursor = self._db.execute(
            """UPDATE campaigns SET name = ?, gm_ids = ?, gm_channel_id = ?, settings = ?, state = ?,
                      version = version + 1, archived_at = ?, pbp = ?
               WHERE id = ? AND version = ?""",
            (
                campaign.name,
                dumps(campaign.gm_ids),
                campaign.gm_channel_id,
                dumps(campaign.settings),
                dumps(campaign.state),
                campaign.archived_at,
                dumps(campaign.pbp),
                campaign.id,
                campaign.version,
            ),
        )
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    def update_state(self, campaign: CampaignRow, *, with_settings: bool = False) -> None:
        """Write back what an action changes, its state (and its settings when it changed them), and nothing
        else: an action never renames, archives or regroups a campaign, so the other columns stay as they are."""
        if with_settings:
            cursor = self._db.execute(
                "UPDATE campaigns SET state = ?, settings = ?, version = version + 1 WHERE id = ? AND version = ?",
                (dumps(campaign.state), dumps(campaign.settings), campaign.id, campaign.version),
            )
        else:
            cursor = self._db.execute(
                "UPDATE campaigns SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
                (dumps(campaign.state), campaign.id, campaign.version),
            )
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    def touch_campaign(self, campaign: CampaignRow) -> None:
        """Claim the campaign for a write that changes only its characters: the version still moves,
        so another process holding the old characters finds out."""
        cursor = self._db.execute(
            "UPDATE campaigns SET version = version + 1 WHERE id = ? AND version = ? AND archived_at IS NULL",
            (campaign.id, campaign.version),
        )
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    def check_campaign(self, campaign: CampaignRow) -> None:
        """For a write that only logs: the campaign must still be live and as we read it."""
        found = self._db.execute(
            "SELECT 1 FROM campaigns WHERE id = ? AND version = ? AND archived_at IS NULL",
            (campaign.id, campaign.version),
        ).fetchone()
        if found is None:
            raise StaleCampaignError(campaign.id)

    def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int:
        now = self._now()
        cursor = self._db.execute(
            """INSERT INTO characters (campaign_id, owner_id, name, name_key, sheet, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (campaign_id, owner_id, name, name.casefold(), dumps(sheet), now, now),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None:
        self._db.execute(
            "UPDATE characters SET owner_id = ?, sheet = ?, updated_at = ? WHERE id = ?",
            (owner_id, dumps(sheet), self._now(), character_id),
        )

    def delete_character(self, character_id: int) -> None:
        self._db.execute("DELETE FROM characters WHERE id = ?", (character_id,))

    def append_event(
        self,
        campaign_id: int,
        actor_id: int,
        actor_name: str,
        command: str,
        summary: str,
        result: dict,
        snapshot: dict | None = None,
        undoes: int | None = None,
        thread_id: int | None = None,
        *,
        at: str | None = None,
    ) -> int:
        """Log one event, numbered next in its campaign inside its own INSERT (one seek of the (campaign_id, seq)
        index, no second statement); its row id."""
        cursor = self._db.execute(
            """INSERT INTO events
                   (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, undoes, thread_id, seq)
               SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = ?""",
            (
                campaign_id,
                at or self._now(),
                actor_id,
                actor_name,
                command,
                summary,
                dumps(result),
                dumps(snapshot) if snapshot is not None else None,
                undoes,
                thread_id,
                campaign_id,
            ),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    def append_events(self, campaign_id: int, events: Sequence[Sequence[Any]]) -> None:
        """Log imported events with the numbers they had (``/campaign import``): each (seq, at, actor_id,
        actor_name, command, summary, result, snapshot, undoes), result and snapshot as JSON text, ``undoes`` the
        number of an event logged before it."""
        self._db.executemany(
            """INSERT INTO events
                   (campaign_id, seq, at, actor_id, actor_name, command, summary, result, snapshot, undoes)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                       (SELECT id FROM events WHERE campaign_id = ?1 AND seq = ?10))""",
            [(campaign_id, *event) for event in events],
        )

    def finish_import(self, campaign_id: int, guild_id: int, channel_id: int) -> None:
        """Move an imported campaign, written hidden (at a negative channel, archived), into its channel, live;
        a ConstraintError if the channel has a live campaign."""
        cursor = self._db.execute(FINISH_IMPORT, (guild_id, channel_id, campaign_id))
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign_id)

    def discard_import(self, campaign_id: int, limit: int) -> bool:
        """Delete up to ``limit`` of a hidden (unfinished) import's newest events; once none are left, its
        characters and the campaign itself. True when it is all gone. A campaign that is not hidden is never
        touched."""
        return drive(discard(campaign_id, limit), partial(_step, self._db))

    def unfinished_imports(self, before: str) -> list[int]:
        """Hidden campaigns whose import began before ``before``: what a crash left behind."""
        rows = self._db.execute(UNFINISHED_IMPORTS, (before,)).fetchall()
        return [int(row[0]) for row in rows]

    def save_macro(self, owner_id: int, campaign_id: int | None, name: str, expression: str) -> bool:
        """Save or replace a macro; True when it replaced one of the same name in the same scope."""
        key = name.casefold()
        if campaign_id is None:
            where, found = "owner_id = ? AND campaign_id IS NULL AND name_key = ?", (owner_id, key)
        else:
            where, found = "campaign_id = ? AND name_key = ?", (campaign_id, key)
        replaced = self._db.execute(f"DELETE FROM macros WHERE {where}", found).rowcount > 0
        self._db.execute(
            "INSERT INTO macros (owner_id, campaign_id, name, name_key, expression, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (owner_id, campaign_id, name, key, expression, self._now()),
        )
        return replaced

    def delete_macro(self, macro_id: int) -> None:
        self._db.execute("DELETE FROM macros WHERE id = ?", (macro_id,))

    # -- play-by-post: waits and timers ------------------------------------------

    def put_wait(self, campaign_id: int, key: str, user_id: int | None, body: dict, since: str, deadline: str | None):
        self._db.execute(
            "INSERT OR REPLACE INTO waits (campaign_id, key, user_id, body, since, deadline) VALUES (?, ?, ?, ?, ?, ?)",
            (campaign_id, key, user_id, dumps(body), since, deadline),
        )

    def drop_wait(self, campaign_id: int, key: str) -> None:
        """The wait is over: it and its unfired timers go."""
        self._db.execute("DELETE FROM waits WHERE campaign_id = ? AND key = ?", (campaign_id, key))
        self._db.execute(
            "DELETE FROM timers WHERE campaign_id = ? AND wait_key = ? AND fired_at IS NULL", (campaign_id, key)
        )

    def add_timer(
        self,
        campaign_id: int | None,
        guild_id: int,
        channel_id: int,
        kind: str,
        due: int,
        body: dict,
        *,
        wait_key: str | None = None,
        created_by: int | None = None,
    ) -> int:
        cursor = self._db.execute(
            """INSERT INTO timers (campaign_id, guild_id, channel_id, kind, wait_key, due, body, created_by)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (campaign_id, guild_id, channel_id, kind, wait_key, due, dumps(body), created_by),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    def claim_timer(self, timer_id: int, at: str) -> None:
        """Mark a timer fired, in the transaction of what it does: if another process (or an earlier run)
        claimed it first, this raises and the whole transaction rolls back, so it fires exactly once."""
        cursor = self._db.execute("UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL", (at, timer_id))
        if cursor.rowcount != 1:
            raise TimerClaimedError(timer_id)

    def pending_reminders(self, guild_id: int, channel_id: int) -> int:
        return self._db.execute(
            "SELECT count(*) FROM timers"
            " WHERE guild_id = ? AND channel_id = ? AND kind = 'remind' AND fired_at IS NULL",
            (guild_id, channel_id),
        ).fetchone()[0]

    def cancel_timer(self, timer_id: int, *, channel: tuple[int, int] | None = None) -> bool:
        """Delete an unfired timer (of that guild and channel, if given); False if there was none."""
        sql, parameters = "DELETE FROM timers WHERE id = ? AND fired_at IS NULL", [timer_id]
        if channel is not None:
            sql += " AND guild_id = ? AND channel_id = ?"
            parameters += list(channel)
        return self._db.execute(sql, parameters).rowcount == 1

    def shift_timers(self, campaign_id: int, seconds: int) -> list[tuple[int, int]]:
        """A holiday's length added to every timer of the campaign still to fire; (id, new due) of each."""
        cursor = self._db.execute(
            "UPDATE timers SET due = due + ? WHERE campaign_id = ? AND fired_at IS NULL RETURNING id, due",
            (seconds, campaign_id),
        )
        return sorted((int(row[0]), int(row[1])) for row in cursor.fetchall())

    def put_back_timers(self, timers: Sequence[tuple[int, int, int]]) -> list[int]:
        """Each (id, moved due, old due) back to its old due time, unless one of them has fired: then nothing
        moves, and the fired ones' ids are returned. A timer is matched by its id *and* the due time the resume
        gave it: one since deleted (its wait ended) is skipped, and so is a newer timer that took a deleted
        one's id (SQLite reuses the largest id after a delete)."""
        fired = [
            timer_id
            for timer_id, moved, _ in timers
            if self._db.execute(
                "SELECT 1 FROM timers WHERE id = ? AND due = ? AND fired_at IS NOT NULL", (timer_id, moved)
            ).fetchone()
        ]
        if fired:
            return fired
        self._db.executemany(
            "UPDATE timers SET due = ? WHERE id = ? AND due = ? AND fired_at IS NULL",
            [(old, timer_id, moved) for timer_id, moved, old in timers],
        )
        return []

    def set_wait_deadline(self, campaign_id: int, key: str, deadline: str | None) -> None:
        self._db.execute(
            "UPDATE waits SET deadline = ? WHERE campaign_id = ? AND key = ?", (deadline, campaign_id, key)
        )

    def set_board(self, campaign_id: int, channel_id: int, message_id: int) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO boards (campaign_id, channel_id, message_id) VALUES (?, ?, ?)",
            (campaign_id, channel_id, message_id),
        )

    def set_member_timezone(self, user_id: int, timezone: str | None) -> None:
        self._db.execute(
            "INSERT INTO members (user_id, timezone) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET timezone = ?",
            (user_id, timezone, timezone),
        )

    def grant_web(self, campaign_id: int, user_id: int, name: str) -> tuple[int, int]:
        """The member may open the campaign's pages (their name kept for the pages); the campaign's and the
        member's link generations, for a new link to carry."""
        self._db.execute(
            "INSERT INTO web_access (campaign_id, user_id, name) VALUES (?, ?, ?)"
            " ON CONFLICT (campaign_id, user_id) DO UPDATE SET name = excluded.name",
            (campaign_id, user_id, name),
        )
        rows = self._db.execute(
            "SELECT user_id, generation FROM web_access WHERE campaign_id = ? AND user_id IN (0, ?)",
            (campaign_id, user_id),
        ).fetchall()
        found = {int(row[0]): int(row[1]) for row in rows}
        return found.get(0, 0), found[user_id]

    def revoke_web(self, campaign_id: int, user_id: int) -> bool:
        """Every link made so far stops opening: the campaign's (``user_id`` 0) or one member's. False when the
        member never had web access here (nothing to revoke; no access is granted by asking)."""
        if user_id == 0:
            self._db.execute(
                "INSERT INTO web_access (campaign_id, user_id, generation) VALUES (?, 0, 1)"
                " ON CONFLICT (campaign_id, user_id) DO UPDATE SET generation = generation + 1",
                (campaign_id,),
            )
            return True
        cursor = self._db.execute(
            "UPDATE web_access SET generation = generation + 1 WHERE campaign_id = ? AND user_id = ?",
            (campaign_id, user_id),
        )
        return cursor.rowcount > 0

    def keep_web_secret(self, secret: str) -> str:
        """Keep this signing key unless one is kept already (two processes may start at once); the one kept."""
        self._db.execute("INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING", (secret,))
        return str(self._db.execute("SELECT secret FROM web_secret WHERE id = 1").fetchone()[0])

    def forget_member(self, user_id: int, campaign_id: int | None = None) -> Erased:
        """Erase a member in one campaign, or everywhere (:mod:`bot.storage.members`); what it changed."""
        return drive(erase(user_id, campaign_id), partial(_step, self._db))


def _encoded(action: ActionWrite) -> bool:
    """Batched: :meth:`Writer._prepare` encoded it as it queued (it checked :func:`batched` there, on the loop)."""
    return action.encoded is not None


def _step(db: sqlite3.Connection, step: Step) -> Any:
    """One step of a program shared with PostgreSQL (a member's erasure, an unfinished import's removal)."""
    if isinstance(step, Query):
        return db.execute(step.sql, step.parameters).fetchall()
    if isinstance(step, Execute):
        return db.execute(step.sql, step.parameters).rowcount
    return None  # Lock: BEGIN IMMEDIATE holds the whole file already


class Transaction:
    """:class:`WriteTx` from the event loop, one statement per hand-off, for the few multi-step
    writes that await between statements (starting, ending and undoing a campaign)."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer
        self._tx = writer._tx

    async def insert_campaign(self, *args: Any) -> int:
        return await self._writer._call(self._tx.insert_campaign, *args)

    async def update_campaign(self, campaign: CampaignRow) -> None:
        await self._writer._call(self._tx.update_campaign, campaign)

    async def touch_campaign(self, campaign: CampaignRow) -> None:
        await self._writer._call(self._tx.touch_campaign, campaign)

    async def check_campaign(self, campaign: CampaignRow) -> None:
        await self._writer._call(self._tx.check_campaign, campaign)

    async def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int:
        return await self._writer._call(self._tx.insert_character, campaign_id, owner_id, name, sheet)

    async def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None:
        await self._writer._call(self._tx.update_character, character_id, owner_id, sheet)

    async def delete_character(self, character_id: int) -> None:
        await self._writer._call(self._tx.delete_character, character_id)

    async def append_event(self, *args: Any, **kwargs: Any) -> int:
        return await self._writer._call(partial(self._tx.append_event, *args, **kwargs))

    async def run(self, job: Callable[[WriteTx], T]) -> T:
        """Any :class:`WriteTx` work, as one hand-off, inside this transaction."""
        return await self._writer._call(job, self._tx)


# ---------------------------------------------------------------------- on the writer thread


def _connect(path: Path, synchronous: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5)
    try:
        for pragma in (
            "foreign_keys = ON",
            "journal_mode = WAL",
            f"synchronous = {synchronous}",
            f"wal_autocheckpoint = {WRITER_CHECKPOINT_PAGES}",  # the Checkpointer's thread does it sooner
        ):
            connection.execute(f"PRAGMA {pragma}")
    except BaseException:
        connection.close()
        raise
    return connection


def _migrate(connection: sqlite3.Connection, migrations: Sequence[Sequence[str]]) -> None:
    """Each pending migration in its own transaction; the version is read inside it, so two
    processes starting at once never both run one. A newer Magister's schema is refused, and so is
    a file this process may not write (a write, rolled back: SQLite opens such a file read-only
    without a word, and every write after the start would fail)."""
    while True:
        connection.execute("BEGIN IMMEDIATE")
        try:
            (version,) = connection.execute("PRAGMA user_version").fetchone()
            if version > len(migrations):
                raise SchemaTooNewError(version, len(migrations))
            if version >= len(migrations):
                connection.execute(f"PRAGMA user_version = {int(version)}")  # the write probe
                connection.execute("ROLLBACK")
                return
            for statement in migrations[version]:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {version + 1}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise


def identity(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device and inode), or None if there is none."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino
