"""``python -m bot.bench``'s export/import case: a million-event campaign exported, then imported elsewhere.

A real runic table is played through the console's command tree (mages, words, spells, a cast, rolls public and
secret, house rules, a co-GM, sunrise, an undo), then its log is grown to the size wanted by copying those events
on, a block after another, numbered on, undo links moved with them, each roll's dice rolled afresh (so the file
compresses as a real one does, not as a copied one would). Straight into the database: the service would take an
hour to log a million events.

Then ``/campaign export`` and ``/campaign import`` run as their commands run them (the table functions the cogs
call), while a probe task sleeps 5 ms again and again and records how late it wakes: the event loop's longest
stall. The imported campaign is compared with the original: state, house rules, characters and every event (its
number, time, actor, command, summary, result, undo snapshot and the number it undid).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg

from bot.cli.console import ConsoleTable
from bot.storage.database import is_url
from bot.table import campaigns, importer
from bot.table.service import Caller, Place, TableService

SEED = (
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "/campaign settings key:response_window value:2h",
    "/campaign gm add member:Oz",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "/runic mage word word:Flam skill:13",
    "/runic mage word word:In skill:14",
    '/roll expression:3d6+2 label:"fire bolt"',
    "/runic spell define name:Fireball words:In-Flam type:missile",
    "/runic cast spell:Fireball",
    "/roll expression:1d20 secret:true",
    "@as Oz",
    "/runic mage create name:Morgana magery:2 iq:14 thaumatology:14",
    "/roll expression:4d6kh3",
    "/check skill:12",
    "@as Gwen",
    "/runic sunrise",
    "/campaign undo",
    "/roll expression:2d10+1",
)
GUILD, SOURCE, TARGET = 1001, 2002, 2003
COLUMNS = "e.seq, e.at, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot"
GROW = 1000  # rows per insert while growing the log (each its own transaction: PostgreSQL counts them by trigger)
START = 1_767_225_600  # 2026-01-01, when the grown log begins
AT_STEP = 37  # seconds between grown events


class LagProbe:
    """Sleeps ``interval`` again and again, recording how late it wakes: the loop's longest stall, in ms."""

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self.worst_ms = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            due = time.perf_counter() + self.interval
            await asyncio.sleep(self.interval)
            self.worst_ms = max(self.worst_ms, (time.perf_counter() - due) * 1000)

    async def __aenter__(self) -> LagProbe:
        self._task = asyncio.create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


# ---------------------------------------------------------------------- a long campaign


async def seed(table: ConsoleTable) -> None:
    """Play the seed session; every line must work."""
    for line in SEED:
        result = await table.execute(line)
        if not getattr(result, "ok", True):
            raise RuntimeError(f"the bench's seed session failed at {line!r}: {result.text}")  # type: ignore[union-attr]


def _rerolled(result: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str | None]:
    """A roll's result with fresh dice (the same expression, modifier and kept dice), and its new total."""
    groups = result.get("groups")
    if not isinstance(groups, list) or not groups:
        return result, None
    kept_before = sum(v for g in groups for v, k in zip(g["values"], g["kept"], strict=True) if k)
    modifier = result["total"] - kept_before
    new_groups, dice = [], []
    for group in groups:
        values = [rng.randint(1, group["size"]) for _ in group["values"]]
        new_groups.append({**group, "values": values})
        dice.extend(values)
    total = sum(v for g in new_groups for v, k in zip(g["values"], g["kept"], strict=True) if k) + modifier
    text = f"{result['expression']} ({', '.join(map(str, dice))}) = `{total}`"
    return {**result, "groups": new_groups, "dice": dice, "total": total, "text": text}, str(total)


def _varied(command: str, summary: str, result: str, rng: random.Random) -> tuple[str, str]:
    """A copied event's summary and result, a roll's dice rolled afresh."""
    if command != "roll":
        return summary, result
    parsed = json.loads(result)
    if isinstance(parsed.get("secret"), dict):
        data, total = _rerolled(parsed["secret"]["data"], rng)
        if total is not None:
            side = {**parsed["secret"], "data": data, "summary": f"rolled {data['expression']} = {total}"}
            parsed = {**parsed, "secret": side}
        return summary, json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)
    parsed, total = _rerolled(parsed, rng)
    if total is not None:
        head, _, _ = summary.partition(" = ")
        rest = summary.partition(" = ")[2].partition(" ")[2]
        summary = f"{head} = {total}" + (f" {rest}" if rest else "")
    return summary, json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)


def grown(seed_rows: list[tuple], first: int, count: int, rng: random.Random) -> Iterator[tuple]:
    """``count`` events after number ``first - 1``: the seed's events after its first (the start), copied on
    block by block; an undo names the copy of what it undid in its own block."""
    block = seed_rows[1:]
    base = block[0][0]
    for index in range(count):
        seq = first + index
        row = block[index % len(block)]
        shift = seq - row[0]
        _, _, actor_id, actor, command, summary, result, snapshot, undoes = row
        summary, result = _varied(command, summary, result, rng)
        undone = undoes + shift if undoes is not None and undoes >= base and undoes + shift >= first else None
        at = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(START + seq * AT_STEP))
        yield seq, at, actor_id, actor, command, summary, result, snapshot, undone


INSERT = (
    "INSERT INTO events (campaign_id, seq, at, actor_id, actor_name, command, summary, result, snapshot, undoes)"
    " VALUES ({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8},"
    " (SELECT id FROM events WHERE campaign_id = {0} AND seq = {9}))"
)


async def grow(target: str | Path, campaign_id: int, events: int, rng: random.Random) -> None:
    """Add events to the campaign's log, straight into the database, until it holds ``events``."""
    read = f"SELECT {COLUMNS}, (SELECT u.seq FROM events u WHERE u.id = e.undoes) FROM events e"
    read += " WHERE e.campaign_id = {0} ORDER BY e.seq"
    if is_url(target):
        db = await asyncpg.connect(str(target))
        try:
            rows = [tuple(row) for row in await db.fetch(read.format("$1"), campaign_id)]
            sql = INSERT.format(*(f"${n}" for n in range(1, 11)))
            for start in range(len(rows) + 1, events + 1, GROW):
                batch = list(grown(rows, start, min(GROW, events - start + 1), rng))
                await db.executemany(sql, [(campaign_id, *row) for row in batch])
        finally:
            await db.close()
        return
    connection = sqlite3.connect(target, isolation_level=None)
    try:
        rows = connection.execute(read.format("?"), (campaign_id,)).fetchall()
        sql = INSERT.format("?1", *(f"?{n}" for n in range(2, 11)))
        for start in range(len(rows) + 1, events + 1, GROW):
            batch = list(grown(rows, start, min(GROW, events - start + 1), rng))
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(sql, [(campaign_id, *row) for row in batch])
            connection.execute("COMMIT")
    finally:
        connection.close()


# ---------------------------------------------------------------------- the same campaign?


async def digest(service: TableService, campaign_id: int, events: int) -> str:
    """SHA-256 of a campaign's state, house rules, characters and first ``events`` events, read a page at a
    time (undo links as the numbers they undid, ids left out: they differ between the two)."""

    def read_all() -> str:
        hashed = hashlib.sha256()
        with service.store.snapshot() as read:
            ((state, settings),) = read("SELECT state, settings FROM campaigns WHERE id = ?", (campaign_id,))
            hashed.update(f"{state}\n{settings}\n".encode())
            for row in read(
                "SELECT name, owner_id, sheet FROM characters WHERE campaign_id = ? ORDER BY name", (campaign_id,)
            ):
                hashed.update(json.dumps(list(row)).encode())
            after = 0
            while after < events:
                page = read(
                    f"SELECT {COLUMNS}, (SELECT u.seq FROM events u WHERE u.id = e.undoes) FROM events e"
                    " WHERE e.campaign_id = ? AND e.seq > ? AND e.seq <= ? ORDER BY e.seq LIMIT 1000",
                    (campaign_id, after, events),
                )
                if not page:
                    break
                for row in page:
                    hashed.update(json.dumps(list(row), ensure_ascii=False).encode())
                after = page[-1][0]
        return hashed.hexdigest()

    return await asyncio.to_thread(read_all)


# ---------------------------------------------------------------------- the case


async def measure_port(target: str | Path, folder: Path, events: int) -> dict[str, Any]:
    """Export a campaign of ``events`` events and import it into another channel, on the database ``target``:
    times, the loop's longest stall during each, the file's size, and whether the copy is the same campaign."""
    table = await ConsoleTable.open(target, seed=7, files_dir=folder / "console", synchronous="NORMAL")
    try:
        await seed(table)
        service = table.bot.service
        source_place, target_place = Place(GUILD, SOURCE), Place(GUILD, TARGET)
        source = (await service.require_campaign(source_place)).row
        gm = Caller(source.gm_ids[0], "Gwen")
        started = time.perf_counter()
        await grow(target, source.id, events, random.Random(events))
        grow_s = time.perf_counter() - started
        service.forget(source_place)

        started = time.perf_counter()
        async with LagProbe() as export_probe:
            reply, batches = await campaigns.export(
                service, source_place, gm, folder / "export", limit=importer.DEFAULT_LIMIT
            )
        export_s = time.perf_counter() - started
        files = [path for batch in batches for path in batch]
        parts = sorted(path for path in files if ".json" in path.name)
        exported = folder / "export" / "joined.json.gz"
        if len(parts) > 1:  # what `cat NAME.json.gz.part* > NAME.json.gz` does
            with exported.open("wb") as joined:
                for part in parts:
                    joined.write(part.read_bytes())
        else:
            exported = parts[0]
        size = exported.stat().st_size

        started = time.perf_counter()
        async with LagProbe() as import_probe:
            prepared = await importer.prepare(
                service, target_place, gm, exported, limit=max(size, importer.DEFAULT_LIMIT)
            )
            imported = await importer.import_campaign(service, target_place, gm, prepared)
        import_s = time.perf_counter() - started
        copy = imported.campaign
        assert copy is not None
        same = await digest(service, source.id, events) == await digest(service, copy.id, events)
        counted = await service.store.count_events(copy.id)
    finally:
        await table.close()
    return {
        "events": events,
        "grow_s": round(grow_s, 1),
        "export_s": round(export_s, 1),
        "import_s": round(import_s, 1),
        "round_trip_s": round(export_s + import_s, 1),
        "export_stall_ms": round(export_probe.worst_ms, 1),
        "import_stall_ms": round(import_probe.worst_ms, 1),
        "file_mb": round(size / 1024 / 1024, 1),
        "compressed": reply.outcome.data["compressed"],
        "parts": len(parts),
        "fits_one_attachment": len(parts) == 1 and size <= importer.DEFAULT_LIMIT,
        "same_campaign": same and counted == events + 1,
    }
