"""``python -m bot port --from URL --to URL``: copy a whole Magister database between backends.

A group that outgrows one SQLite file moves to PostgreSQL (or back) with one command. Every table is
copied row for row, ids included, so event numbers, undo, archives and pending timers carry over as they
were. The copy is one transaction on the target: it is all there, verified, or none of it is.

Verification reads each table back from the target inside that transaction and compares its row count and
a SHA-256 checksum of its rows (in key order, each row's values as JSON) with the source's. Both backends
store JSON as text and Discord ids as integers, so equal content gives equal checksums.

Stop the bot first: writes the source takes after its rows were read would not be copied.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg

from bot.storage.database import SQLITE_SCHEME, is_url, open_store
from bot.storage.postgres import redact

# Every table the schema has, parents before children, with the key that orders its rows.
TABLES: tuple[tuple[str, str], ...] = (
    ("campaigns", "id"),
    ("characters", "id"),
    ("events", "id"),
    ("macros", "id"),
    ("waits", "campaign_id, key"),
    ("timers", "id"),
    ("members", "user_id"),
    ("boards", "campaign_id"),
    ("web_access", "campaign_id, user_id"),
    ("web_secret", "id"),
)
# Kept by a trigger as events arrive, on both backends: verified against the source, never written. (None since
# migration 9 dropped the event count, which was the only one.)
DERIVED: frozenset[str] = frozenset()
BATCH = 1000
# Each backend's own bookkeeping, not campaign data; and SQLite's text index of the log (its FTS5 table and the
# tables behind it), which its triggers fill as the events are written (PostgreSQL's is an index of events), with
# the marker its writer holds inside a group commit while it fills the index itself (never committed).
INTERNAL = frozenset({"magister_schema", "sqlite_sequence", "sqlite_stat1"}) | {
    f"events_text{part}" for part in ("", "_config", "_data", "_docsize", "_idx", "_deferred")
}


def describe(target: str) -> str:
    """The database as a line may name it: a PostgreSQL URL without its password."""
    return redact(target) if is_url(target) else target


class PortError(Exception):
    """The port cannot go ahead, or did not verify; the target is unchanged. The message says why."""


@dataclass(frozen=True)
class TableReport:
    table: str
    rows: int
    checksum: str


class Side(Protocol):
    """One end of a port: a raw connection, so the copy is plain rows, with no store logic between."""

    label: str

    async def tables(self) -> set[str]: ...
    async def columns(self, table: str) -> list[str]: ...
    def rows(self, table: str, columns: Sequence[str], order: str) -> AsyncIterator[list[tuple]]: ...
    async def count(self, table: str) -> int: ...
    async def begin(self, *, write: bool) -> None: ...
    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None: ...
    async def clear(self, tables: Sequence[str]) -> None: ...
    async def finish(self) -> None: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    async def close(self) -> None: ...


class SqliteSide:
    def __init__(self, path: Path) -> None:
        self.label = str(path)
        self._db = sqlite3.connect(path, isolation_level=None)

    async def tables(self) -> set[str]:
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]

    async def rows(self, table: str, columns: Sequence[str], order: str) -> AsyncIterator[list[tuple]]:
        cursor = self._db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
        while batch := cursor.fetchmany(BATCH):
            yield batch

    async def count(self, table: str) -> int:
        return int(self._db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    async def begin(self, *, write: bool) -> None:
        # a read transaction is a snapshot under WAL; a write one takes the write lock at once
        self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        marks = ", ".join("?" for _ in columns)
        self._db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def clear(self, tables: Sequence[str]) -> None:
        for table in tables:
            self._db.execute(f"DELETE FROM {table}")

    async def finish(self) -> None:
        """SQLite's INTEGER PRIMARY KEY carries on from the largest id by itself."""

    async def commit(self) -> None:
        self._db.execute("COMMIT")

    async def rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    async def close(self) -> None:
        self._db.close()


class PostgresSide:
    def __init__(self, url: str, connection: asyncpg.Connection) -> None:
        self.label = redact(url)
        self._db = connection
        self._tx: Any = None

    @classmethod
    async def connect(cls, url: str) -> PostgresSide:
        return cls(url, await asyncpg.connect(url))

    async def tables(self) -> set[str]:
        rows = await self._db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        rows = await self._db.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return [row[0] for row in rows]

    async def rows(self, table: str, columns: Sequence[str], order: str) -> AsyncIterator[list[tuple]]:
        cursor = await self._db.cursor(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
        while batch := await cursor.fetch(BATCH):
            yield [tuple(row) for row in batch]

    async def count(self, table: str) -> int:
        return int(await self._db.fetchval(f"SELECT count(*) FROM {table}"))

    async def begin(self, *, write: bool) -> None:
        isolation = "serializable" if write else "repeatable_read"
        self._tx = self._db.transaction(isolation=isolation, readonly=not write)
        await self._tx.start()

    async def insert(self, table: str, columns: Sequence[str], rows: list[tuple]) -> None:
        await self._db.copy_records_to_table(table, records=rows, columns=list(columns))

    async def clear(self, tables: Sequence[str]) -> None:
        await self._db.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")

    async def finish(self) -> None:
        """Identity columns do not see ids copied in: move each sequence past the largest id."""
        for table, key in TABLES:
            if key == "id":
                await self._db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false)"
                    f" FROM {table}"
                )

    async def commit(self) -> None:
        await self._tx.commit()
        self._tx = None

    async def rollback(self) -> None:
        if self._tx is not None:
            await self._tx.rollback()
            self._tx = None

    async def close(self) -> None:
        await self._db.close()


async def connect(target: str) -> Side:
    """Migrate ``target`` to this version's schema (creating it if need be), then open it raw."""
    store = await open_store(target)
    await store.close()
    if is_url(target):
        return await PostgresSide.connect(target)
    text = target.removeprefix(SQLITE_SCHEME)
    return SqliteSide(Path(text))


def _row_digest(digest: Any, row: Sequence[Any]) -> None:
    digest.update(json.dumps(list(row), ensure_ascii=False, separators=(",", ":")).encode())
    digest.update(b"\n")


async def checksum(side: Side, table: str, columns: Sequence[str], order: str) -> TableReport:
    digest, rows = hashlib.sha256(), 0
    async for batch in side.rows(table, columns, order):
        for row in batch:
            _row_digest(digest, row)
        rows += len(batch)
    return TableReport(table, rows, digest.hexdigest())


async def _check_schemas(source: Side, target: Side) -> dict[str, list[str]]:
    """Each table's columns, the same on both sides, and no table this port does not know."""
    known = {table for table, _ in TABLES}
    for side in (source, target):
        unknown = await side.tables() - known - INTERNAL
        if unknown:
            raise PortError(f"{side.label} has tables this version cannot port: {', '.join(sorted(unknown))}")
    columns: dict[str, list[str]] = {}
    for table, _ in TABLES:
        theirs, ours = await source.columns(table), await target.columns(table)
        if theirs != ours:
            raise PortError(
                f"table {table} differs between the two databases ({theirs} against {ours}): "
                "run this version of Magister on both first"
            )
        columns[table] = theirs
    return columns


async def port(source_url: str, target_url: str, *, replace: bool = False) -> list[TableReport]:
    """Copy every row from source to target in one verified transaction; the per-table reports."""
    if source_url == target_url:
        raise PortError("--from and --to name the same database")
    source = await connect(source_url)
    try:
        target = await connect(target_url)
        try:
            return await _copy(source, target, replace=replace)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Side, target: Side, *, replace: bool) -> list[TableReport]:
    columns = await _check_schemas(source, target)
    await source.begin(write=False)
    await target.begin(write=True)
    try:
        held = {table: await target.count(table) for table, _ in TABLES}
        if any(held.values()) and not replace:
            filled = ", ".join(f"{table} ({count})" for table, count in held.items() if count)
            raise PortError(
                f"{target.label} already holds data: {filled}. Port into an empty database, or pass --replace "
                "to delete what it holds first."
            )
        if replace:
            await target.clear([table for table, _ in reversed(TABLES)])
        reports = []
        for table, order in TABLES:
            digest, rows = hashlib.sha256(), 0
            async for batch in source.rows(table, columns[table], order):
                for row in batch:
                    _row_digest(digest, row)
                rows += len(batch)
                if table not in DERIVED:
                    await target.insert(table, columns[table], batch)
            reports.append(TableReport(table, rows, digest.hexdigest()))
        await target.finish()
        for expected in reports:
            found = await checksum(target, expected.table, columns[expected.table], dict(TABLES)[expected.table])
            if found != expected:
                raise PortError(
                    f"table {expected.table} did not verify: {found.rows} rows (checksum {found.checksum[:12]}) "
                    f"where the source has {expected.rows} (checksum {expected.checksum[:12]}); nothing was written"
                )
        await target.commit()
        return reports
    except BaseException:
        await target.rollback()
        raise
    finally:
        await source.rollback()
