"""SQLite persistence: campaigns, characters and the append-only event log.

One long-lived aiosqlite connection writes, in explicit ``BEGIN IMMEDIATE``
transactions serialized by an asyncio lock (coroutines sharing one connection
would otherwise share a transaction). A second connection reads, so a reader
never sees a write that may still roll back. WAL lets the two run side by side.

Actions write through :meth:`Store.write`, which commits in groups: writes that
arrive while a transaction is in flight go into the next one together, so each
thread round-trip to SQLite serves many actions. Every action still waits for
its own COMMIT before it returns, and if any write in a group fails the group
rolls back and each write is retried alone, so one action's failure never
touches another's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from rules.base import RuleError

log = logging.getLogger(__name__)

T = TypeVar("T")
Job = Callable[["Transaction"], Awaitable[Any]]
FLIP_OFFSET = 1000  # log offsets beyond this count from whichever end of the log is nearer
SYNCHRONOUS = ("FULL", "NORMAL")
MAX_BATCH = 64  # writes per group commit: enough to amortize, small enough to keep latency flat

# Append-only: never edit a migration that has shipped; add the next one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE campaigns (
        id            INTEGER PRIMARY KEY,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        ruleset       TEXT    NOT NULL,
        name          TEXT    NOT NULL,
        gm_ids        TEXT    NOT NULL,
        gm_channel_id INTEGER,
        settings      TEXT    NOT NULL,
        state         TEXT    NOT NULL,
        version       INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT    NOT NULL,
        archived_at   TEXT
    );
    CREATE UNIQUE INDEX campaigns_one_live_per_channel
        ON campaigns (guild_id, channel_id) WHERE archived_at IS NULL;
    CREATE TABLE characters (
        id          INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        owner_id    INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL,
        sheet       TEXT    NOT NULL,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        UNIQUE (campaign_id, name_key)
    );
    CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        at          TEXT    NOT NULL,
        actor_id    INTEGER NOT NULL,
        actor_name  TEXT    NOT NULL,
        command     TEXT    NOT NULL,
        summary     TEXT    NOT NULL,
        result      TEXT    NOT NULL,
        snapshot    TEXT,
        undoes      INTEGER REFERENCES events (id)
    );
    CREATE INDEX events_by_campaign ON events (campaign_id, id);
    """,
    # 2: history costs nothing. Undo seeks the newest undoable change and checks it against the
    # undoes index; status and the log read a per-campaign event count kept by a trigger.
    """
    CREATE INDEX events_undoes ON events (undoes) WHERE undoes IS NOT NULL;
    CREATE INDEX events_undoable ON events (campaign_id, id) WHERE snapshot IS NOT NULL AND undoes IS NULL;
    CREATE TABLE event_counts (
        campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id),
        events      INTEGER NOT NULL
    );
    INSERT INTO event_counts (campaign_id, events) SELECT campaign_id, count(*) FROM events GROUP BY campaign_id;
    CREATE TRIGGER events_counted AFTER INSERT ON events BEGIN
        INSERT INTO event_counts (campaign_id, events) VALUES (NEW.campaign_id, 1)
            ON CONFLICT (campaign_id) DO UPDATE SET events = events + 1;
    END;
    """,
)


def statements(script: str) -> list[str]:
    """Split a migration into statements; a trigger's body holds semicolons of its own."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending.strip())
            pending = ""
    return found


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class CampaignRow:
    id: int
    guild_id: int
    channel_id: int
    ruleset: str
    name: str
    gm_ids: list[int]
    gm_channel_id: int | None
    settings: dict[str, Any]
    state: dict[str, Any]
    version: int
    created_at: str
    archived_at: str | None


@dataclass
class CharacterRow:
    id: int
    campaign_id: int
    owner_id: int
    name: str
    sheet: dict[str, Any]


@dataclass
class EventRow:
    id: int
    campaign_id: int
    at: str
    actor_id: int
    actor_name: str
    command: str
    summary: str
    result: dict[str, Any]
    snapshot: dict[str, Any] | None
    undoes: int | None


class StoreOpenError(Exception):
    """The database file cannot be opened or used; the message names it and says what to do."""

    def __init__(self, path: Path, error: BaseException) -> None:
        reason = str(error) or type(error).__name__
        if isinstance(error, sqlite3.DatabaseError) and "not a database" in reason:
            advice = "it is not a Magister database (or is damaged): move it aside"
        elif isinstance(error, OSError) and error.strerror:
            advice = f"{error.strerror.lower()}: check the folder exists and is writable"
        else:
            advice = f"{reason}: check the file and its folder are writable"
        super().__init__(f"cannot open the database {path}: {advice}, or set MAGISTER_DB to another file")


class DatabaseGoneError(RuleError):
    """The database file was deleted or replaced under the running process: saving would be lost."""


class StaleCampaignError(Exception):
    """Another process changed the campaign since we read it; reload and retry."""


class Store:
    """The database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._queue: list[tuple[Job, asyncio.Future[Any]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._data_version: int | None = None
        self.generation = 0  # bumped whenever another connection (another process) is seen to have written
        self.checked_at = 0.0  # monotonic time of the last look for other writers
        self._identity = _identity(path)
        self._gone: str | None = None  # why writes are refused, once the file is gone

    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "FULL") -> Store:
        """Open (creating if need be) and migrate. ``synchronous``: FULL (power-loss safe) or NORMAL."""
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}")
        path = Path(path)
        opened: list[aiosqlite.Connection] = []
        try:
            await asyncio.to_thread(_probe, path)
            for _ in range(2):
                opened.append(await aiosqlite.connect(path, isolation_level=None))
            writer, reader = opened
            for connection in opened:
                connection.row_factory = aiosqlite.Row
                await connection.execute("PRAGMA busy_timeout = 5000")
                await connection.execute("PRAGMA foreign_keys = ON")
            await writer.execute("PRAGMA journal_mode = WAL")
            for connection in opened:
                await connection.execute(f"PRAGMA synchronous = {synchronous}")
            store = cls(path, writer, reader)
            await store._migrate()
        except (OSError, sqlite3.Error) as error:
            # an open connection's thread would keep the process alive after the error: close it
            for connection in opened:
                await connection.close()
            raise StoreOpenError(path, error) from error
        return store

    async def close(self) -> None:
        if self._committer is not None:
            await asyncio.shield(self._committer)
        await self._reader.close()
        await self._writer.close()

    async def _migrate(self) -> None:
        """Each pending migration in its own transaction; the version is read inside it, so two
        processes starting at once never both run one."""
        async with self._write_lock:
            while True:
                await self._writer.execute("BEGIN IMMEDIATE")
                try:
                    (version,) = await (await self._writer.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
                    if version >= len(MIGRATIONS):
                        await self._writer.execute("COMMIT")
                        return
                    for statement in statements(MIGRATIONS[version]):
                        await self._writer.execute(statement)
                    await self._writer.execute(f"PRAGMA user_version = {version + 1}")
                    await self._writer.execute("COMMIT")
                except BaseException:
                    await self._writer.execute("ROLLBACK")
                    raise

    def _check_file(self) -> None:
        """Refuse to write if the file we opened is no longer the one at our path (one stat call)."""
        if self._gone is None and _identity(self.path) != self._identity:
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

    async def check_others(self) -> bool:
        """Look for commits by another process since the last look; True (and a new generation) if any."""
        (version,) = await (await self._writer.execute("PRAGMA data_version")).fetchone()  # type: ignore[misc]
        return self._saw_data_version(int(version))

    def _saw_data_version(self, version: int) -> bool:
        self.checked_at = time.monotonic()
        changed = self._data_version is not None and version != self._data_version
        self._data_version = version
        if changed:
            self.generation += 1
        return changed

    async def schema_version(self) -> int:
        (version,) = await (await self._reader.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
        return int(version)

    # ------------------------------------------------------------------ writes

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """One write transaction: committed on normal exit, rolled back on any exception."""
        async with self._write_lock:
            self._check_file()
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                await self.check_others()
                yield Transaction(self._writer)
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")

    async def write(self, job: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``job``'s writes in a committed transaction (possibly shared with other jobs); return its result."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append((job, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_queued(), name="magister-group-commit")
        return await future

    async def _commit_queued(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            results = await self._commit_group(batch)
            if results is None:
                await self._one_by_one(batch)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)

    async def _commit_group(self, batch: list[tuple[Job, asyncio.Future[Any]]]) -> list[Any] | None:
        """All of the batch in one transaction, or ``None`` (rolled back) if any write failed."""
        try:
            async with self.transaction() as transaction:
                return [await job(transaction) for job, _ in batch]
        except Exception:
            return None

    async def _one_by_one(self, batch: list[tuple[Job, asyncio.Future[Any]]]) -> None:
        """After a failed group: each job alone, so only the faulty one fails."""
        for job, future in batch:
            try:
                async with self.transaction() as transaction:
                    result = await job(transaction)
            except Exception as error:
                if not future.done():
                    future.set_exception(error)
            else:
                if not future.done():
                    future.set_result(result)

    # ------------------------------------------------------------------ reads

    async def campaign(self, guild_id: int, channel_id: int) -> CampaignRow | None:
        """The live (not archived) campaign of a channel."""
        cursor = await self._reader.execute(
            "SELECT * FROM campaigns WHERE guild_id = ? AND channel_id = ? AND archived_at IS NULL",
            (guild_id, channel_id),
        )
        row = await cursor.fetchone()
        return _campaign(row) if row else None

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        cursor = await self._reader.execute("SELECT * FROM campaigns WHERE id = ?", (campaign_id,))
        row = await cursor.fetchone()
        return _campaign(row) if row else None

    async def live_campaigns(self, ruleset: str) -> list[CampaignRow]:
        """Every campaign of a ruleset that is not archived (for background upkeep such as timeouts)."""
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM campaigns WHERE ruleset = ? AND archived_at IS NULL ORDER BY id", (ruleset,)
        )
        return [_campaign(row) for row in rows]

    async def characters(self, campaign_id: int) -> list[CharacterRow]:
        rows = await self._reader.execute_fetchall(
            "SELECT id, campaign_id, owner_id, name, sheet FROM characters WHERE campaign_id = ? ORDER BY id",
            (campaign_id,),
        )
        return [
            CharacterRow(row["id"], row["campaign_id"], row["owner_id"], row["name"], json.loads(row["sheet"]))
            for row in rows
        ]

    async def events(self, campaign_id: int, *, limit: int, offset: int = 0) -> list[EventRow]:
        """Newest first. Past the middle it reads from the oldest end, so the last page costs what the first does."""
        if offset > FLIP_OFFSET:
            total = await self.count_events(campaign_id)
            if offset > total // 2:
                rows = await self._reader.execute_fetchall(
                    "SELECT * FROM events WHERE campaign_id = ? ORDER BY id LIMIT ? OFFSET ?",
                    (campaign_id, max(0, min(limit, total - offset)), max(0, total - offset - limit)),
                )
                return [_event(row) for row in reversed(rows)]
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM events WHERE campaign_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            (campaign_id, limit, offset),
        )
        return [_event(row) for row in rows]

    async def count_events(self, campaign_id: int) -> int:
        """Kept by a trigger, so it costs one row however long the log."""
        cursor = await self._reader.execute("SELECT events FROM event_counts WHERE campaign_id = ?", (campaign_id,))
        row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def all_events(self, campaign_id: int) -> list[EventRow]:
        """Oldest first, for exports."""
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM events WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )
        return [_event(row) for row in rows]

    async def last_undoable(self, campaign_id: int) -> EventRow | None:
        """The newest action with a snapshot that no later undo has reversed."""
        cursor = await self._reader.execute(
            """
            SELECT * FROM events e INDEXED BY events_undoable
            WHERE e.campaign_id = ? AND e.snapshot IS NOT NULL AND e.undoes IS NULL
              AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.id)
            ORDER BY e.id DESC LIMIT 1
            """,
            (campaign_id,),
        )
        row = await cursor.fetchone()
        return _event(row) if row else None


class Transaction:
    """The writes an action may make, all inside one ``BEGIN IMMEDIATE``."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def insert_campaign(
        self,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        name: str,
        gm_ids: Sequence[int],
        settings: dict,
        state: dict,
    ) -> int:
        cursor = await self._db.execute(
            """INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_ids, settings, state, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (guild_id, channel_id, ruleset, name, dumps(list(gm_ids)), dumps(settings), dumps(state), utcnow()),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    async def update_campaign(self, campaign: CampaignRow) -> None:
        """Write the campaign back; raises StaleCampaignError if another process wrote it first."""
        cursor = await self._db.execute(
            """UPDATE campaigns SET name = ?, gm_ids = ?, gm_channel_id = ?, settings = ?, state = ?,
                      version = version + 1, archived_at = ?
               WHERE id = ? AND version = ?""",
            (
                campaign.name,
                dumps(campaign.gm_ids),
                campaign.gm_channel_id,
                dumps(campaign.settings),
                dumps(campaign.state),
                campaign.archived_at,
                campaign.id,
                campaign.version,
            ),
        )
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    async def touch_campaign(self, campaign: CampaignRow) -> None:
        """Claim the campaign for a write that changes only its characters: the version still moves,
        so another process holding the old characters finds out."""
        cursor = await self._db.execute(
            "UPDATE campaigns SET version = version + 1 WHERE id = ? AND version = ? AND archived_at IS NULL",
            (campaign.id, campaign.version),
        )
        if cursor.rowcount != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    async def check_campaign(self, campaign: CampaignRow) -> None:
        """For a write that only logs: the campaign must still be live and as we read it."""
        cursor = await self._db.execute(
            "SELECT 1 FROM campaigns WHERE id = ? AND version = ? AND archived_at IS NULL",
            (campaign.id, campaign.version),
        )
        if await cursor.fetchone() is None:
            raise StaleCampaignError(campaign.id)

    async def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int:
        now = utcnow()
        cursor = await self._db.execute(
            """INSERT INTO characters (campaign_id, owner_id, name, name_key, sheet, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (campaign_id, owner_id, name, name.casefold(), dumps(sheet), now, now),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    async def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None:
        await self._db.execute(
            "UPDATE characters SET owner_id = ?, sheet = ?, updated_at = ? WHERE id = ?",
            (owner_id, dumps(sheet), utcnow(), character_id),
        )

    async def delete_character(self, character_id: int) -> None:
        await self._db.execute("DELETE FROM characters WHERE id = ?", (character_id,))

    async def append_event(
        self,
        campaign_id: int,
        actor_id: int,
        actor_name: str,
        command: str,
        summary: str,
        result: dict,
        snapshot: dict | None = None,
        undoes: int | None = None,
    ) -> int:
        cursor = await self._db.execute(
            """INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, undoes)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                campaign_id,
                utcnow(),
                actor_id,
                actor_name,
                command,
                summary,
                dumps(result),
                dumps(snapshot) if snapshot is not None else None,
                undoes,
            ),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (device and inode), or None if there is none."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _probe(path: Path) -> None:
    """Open the file with plain sqlite3 first: a failure here leaves no connection thread behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=5)
    try:
        for attempt in range(50):
            try:  # switching to WAL does not wait on the busy timeout while another process switches it
                connection.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == 49:
                    raise
                time.sleep(0.1)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        connection.close()


def _campaign(row: aiosqlite.Row) -> CampaignRow:
    return CampaignRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        ruleset=row["ruleset"],
        name=row["name"],
        gm_ids=json.loads(row["gm_ids"]),
        gm_channel_id=row["gm_channel_id"],
        settings=json.loads(row["settings"]),
        state=json.loads(row["state"]),
        version=row["version"],
        created_at=row["created_at"],
        archived_at=row["archived_at"],
    )


def _event(row: aiosqlite.Row) -> EventRow:
    return EventRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        at=row["at"],
        actor_id=row["actor_id"],
        actor_name=row["actor_name"],
        command=row["command"],
        summary=row["summary"],
        result=json.loads(row["result"]),
        snapshot=json.loads(row["snapshot"]) if row["snapshot"] else None,
        undoes=row["undoes"],
    )
