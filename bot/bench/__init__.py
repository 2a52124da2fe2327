"""``python -m bot.bench``: how fast the table service writes, beside bare baselines.

Every action goes through the real service on a real SQLite file: channel lock,
load, a ruleset action, then state + log entry in one transaction. The
baselines do the same writes (one UPDATE of state, one INSERT of a log row, one
transaction per action) with bare aiosqlite and with synchronous sqlite3.

- saturation: 200 channels acting as fast as they can; actions per second.
- durability: the same under ``synchronous=FULL`` (the default) and ``NORMAL``,
  each beside raw sqlite3 with the same setting.
- offered load: 200 channels sending 1,000 actions per second in all on an
  open-loop schedule (arrivals do not wait for replies); p50 and p99 latency,
  measured from each action's scheduled time, so queueing counts.
- the log: ``/campaign log`` with each filter, and the whole log's middle page, at 0 to 1,000,000 events
  (``--log``), built fast with one COPY or executemany straight into the database.
- ruleset actions: each ruleset's heaviest action (``Ruleset.bench_case``), CPU
  time per action through the same service, beside a runic cast's in the same run.
- export and import: a campaign of a million events exported, then imported into
  another channel, with the event loop's longest stall during each (``bot/bench/port.py``).
- web pages: a log page and a sheet page of a 1,000,000-event campaign, served by the real web server to 16
  readers at once; p50 and p99 (docs/web.md).

``--db postgresql://…`` measures the same table on PostgreSQL: each measurement gets a new database on
that server (the role needs CREATEDB), and the baselines are raw asyncpg doing the same transaction, on
one connection (beside aiosqlite's) and on a pool of connections at once (beside raw sqlite3's).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg

from bot.bench.plan import measure_planner, planner_targets
from bot.cli import startup
from bot.storage.database import is_url, open_store
from bot.storage.postgres import redact
from bot.storage.rows import SYNCHRONOUS, CampaignRow
from bot.storage.sqlite import MIGRATIONS, statements
from bot.storage.writer import WriteTx, _connect, _migrate
from bot.table.registry import LoadedRuleset, Registry, discover_rulesets
from bot.table.service import Caller, Place, TableService
from rules.base import Action, BenchCase, Card, Model, Outcome, Ruleset, Table


class CounterState(Model):
    count: int = 0


class NoOptions(Model):
    pass


def _bump(table: Table, options: NoOptions) -> Outcome:
    table.state.count += 1
    return Outcome(card=Card(title="bump"), summary=f"count {table.state.count}", data={"count": table.state.count})


class CounterRuleset(Ruleset):
    """The smallest state-changing action: what the benchmark measures is the service around it."""

    id = "counter"
    name = "Counter (benchmark)"
    sheet_model = NoOptions
    state_model = CounterState
    settings_model = NoOptions
    actions = {"bump": Action("bump", _bump, NoOptions)}


ROOT = Path(__file__).resolve().parents[2]
CALLER = Caller(1, "bench")
PLAYER = Caller(2, "player")
REFERENCE_CASE = "runic"
RAW_POOL = 8  # connections the raw asyncpg floor writes on at once
P99_TARGET_MS = {False: 10, True: 20}  # issue 23: SQLite, PostgreSQL at 1,000 actions/s (FULL)
PORT_EVENTS = 1_000_000  # the export/import round trip the issue asks for


class Databases:
    """Where each measurement's fresh database lives: a new SQLite file in ``folder``, or a new database on
    the PostgreSQL server ``server`` names (dropped again by :meth:`drop_all`)."""

    def __init__(self, folder: Path, server: str | None = None) -> None:
        self.folder = folder
        self.server = server
        self._made: list[str] = []

    @property
    def on_postgres(self) -> bool:
        return self.server is not None

    async def fresh(self, name: str) -> str | Path:
        if self.server is None:
            return Path(tempfile.mkdtemp(dir=self.folder)) / f"{name}.sqlite3"
        database = f"magister_bench_{os.getpid()}_{len(self._made)}"
        admin = await asyncpg.connect(self.server)
        try:
            await admin.execute(f"CREATE DATABASE {database}")
        finally:
            await admin.close()
        self._made.append(database)
        return urlunsplit(urlsplit(self.server)._replace(path=f"/{database}"))

    async def drop_all(self) -> None:
        if self.server is None or not self._made:
            return
        admin = await asyncpg.connect(self.server)
        try:
            for database in self._made:
                await admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        finally:
            await admin.close()
        self._made.clear()


async def _service(dbs: Databases, channels: int, synchronous: str = "NORMAL") -> TableService:
    store = await open_store(await dbs.fresh("service"), synchronous=synchronous)
    service = TableService(store, Registry([LoadedRuleset(CounterRuleset(), None)]), random.Random(0))
    for channel in range(channels):
        await service.start_campaign(Place(1, channel), CALLER, "counter", f"c{channel}")
    return service


def _commit_setting(synchronous: str) -> dict[str, str]:
    """PostgreSQL's twin of SQLite's ``synchronous``: FULL waits for the WAL flush at commit, NORMAL does not."""
    return {"synchronous_commit": "on" if synchronous == "FULL" else "off"}


async def _asyncpg_table(url: str, channels: int, synchronous: str) -> asyncpg.Connection:
    db = await asyncpg.connect(url, server_settings=_commit_setting(synchronous))
    await db.execute(
        "CREATE TABLE IF NOT EXISTS state (id BIGINT PRIMARY KEY, body TEXT NOT NULL);"
        "CREATE TABLE IF NOT EXISTS log (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
        " state_id BIGINT, at TEXT, summary TEXT, body TEXT)"
    )
    await db.executemany(
        "INSERT INTO state VALUES ($1, $2) ON CONFLICT DO NOTHING", [(c, '{"count":0}') for c in range(channels)]
    )
    return db


async def _asyncpg_act(db: asyncpg.Connection, channel: int, count: int) -> None:
    async with db.transaction():
        await db.execute("UPDATE state SET body = $1 WHERE id = $2", json.dumps({"count": count}), channel)
        await db.execute(
            "INSERT INTO log (state_id, at, summary, body) VALUES ($1, $2, $3, $4)",
            channel,
            "2026-01-01T00:00:00",
            f"count {count}",
            "{}",
        )


async def _baseline(dbs: Databases, channels: int):
    """One bare connection doing the same transaction per action, one at a time: aiosqlite, or asyncpg."""
    if dbs.on_postgres:
        pg = await _asyncpg_table(str(await dbs.fresh("baseline")), channels, "NORMAL")
        pg_lock = asyncio.Lock()
        pg_counts = [0] * channels

        async def pg_act(channel: int) -> None:
            async with pg_lock:
                pg_counts[channel] += 1
                await _asyncpg_act(pg, channel, pg_counts[channel])

        return pg, pg_act
    db = await aiosqlite.connect(Path(await dbs.fresh("baseline")), isolation_level=None)
    await db.execute("PRAGMA journal_mode = WAL")
    await db.execute("PRAGMA synchronous = NORMAL")
    await db.execute("CREATE TABLE state (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    await db.execute("CREATE TABLE log (id INTEGER PRIMARY KEY, state_id INTEGER, at TEXT, summary TEXT, body TEXT)")
    await db.executemany("INSERT INTO state VALUES (?, ?)", [(c, '{"count":0}') for c in range(channels)])
    lock = asyncio.Lock()
    counts = [0] * channels

    async def act(channel: int) -> None:
        async with lock:
            counts[channel] += 1
            await db.execute("BEGIN IMMEDIATE")
            await db.execute(
                "UPDATE state SET body = ? WHERE id = ?", (json.dumps({"count": counts[channel]}), channel)
            )
            await db.execute(
                "INSERT INTO log (state_id, at, summary, body) VALUES (?, ?, ?, ?)",
                (channel, "2026-01-01T00:00:00", f"count {counts[channel]}", "{}"),
            )
            await db.execute("COMMIT")

    return db, act


async def raw_rate(dbs: Databases, seconds: float, synchronous: str = "NORMAL") -> float:
    """The floor under everything else: plain synchronous sqlite3, or raw asyncpg on a pool of connections."""
    if not dbs.on_postgres:
        return sqlite3_rate(dbs.folder, seconds, synchronous)
    url = str(await dbs.fresh("raw"))
    connections = [await _asyncpg_table(url, 200, synchronous) for _ in range(RAW_POOL)]
    done, deadline = 0, time.perf_counter() + seconds

    async def writer(index: int, db: asyncpg.Connection) -> None:
        nonlocal done
        channel = index
        while time.perf_counter() < deadline:
            await _asyncpg_act(db, channel % 200, done)  # each connection its own channels: no row contention
            channel += RAW_POOL
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(writer(i, db) for i, db in enumerate(connections)))
    elapsed = time.perf_counter() - started
    for db in connections:
        await db.close()
    return done / elapsed


def sqlite3_rate(folder: Path, seconds: float, synchronous: str = "NORMAL") -> float:
    """Plain synchronous sqlite3 doing the same transaction: the floor under everything else."""
    db = sqlite3.connect(Path(tempfile.mkdtemp(dir=folder)) / "sync.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute(f"PRAGMA synchronous = {synchronous}")
    db.execute("CREATE TABLE state (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    db.execute("CREATE TABLE log (id INTEGER PRIMARY KEY, state_id INTEGER, at TEXT, summary TEXT, body TEXT)")
    db.executemany("INSERT INTO state VALUES (?, ?)", [(c, '{"count":0}') for c in range(200)])
    done, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        channel = done % 200
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE state SET body = ? WHERE id = ?", (json.dumps({"count": done}), channel))
        db.execute("INSERT INTO log (state_id, at, summary, body) VALUES (?, ?, ?, ?)", (channel, "t", "s", "{}"))
        db.execute("COMMIT")
        done += 1
    db.close()
    return done / seconds


def sqlite3_schema_rate(folder: Path, seconds: float, synchronous: str = "NORMAL") -> float:
    """Plain synchronous sqlite3 running the service's own schema and statements (its ``WriteTx``, one transaction
    per action, no event loop, no ruleset): what the service could reach if all it added were free."""
    connection = _connect(Path(tempfile.mkdtemp(dir=folder)) / "schema.sqlite3", synchronous)
    _migrate(connection, [statements(script) for script in MIGRATIONS])
    tx = WriteTx(connection)
    rows = []
    for channel in range(200):
        connection.execute("BEGIN IMMEDIATE")
        campaign_id = tx.insert_campaign(1, channel, "counter", "bench", [1], {}, {"count": 0})
        connection.execute("COMMIT")
        rows.append(CampaignRow(campaign_id, 1, channel, "counter", "bench", [1], None, {}, {"count": 0}, 0, "", None))
    done, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        row = rows[done % 200]
        row.state = {"count": done}
        connection.execute("BEGIN IMMEDIATE")
        tx.update_state(row)
        tx.append_event(row.id, 1, "bench", "counter bump", f"count {done}", {"count": done}, {"state_delta": []})
        connection.execute("COMMIT")
        done += 1
    connection.close()
    return done / seconds


async def saturate(act, channels: int, seconds: float) -> float:
    """Every channel loops as fast as it can; returns actions per second."""
    done = 0
    deadline = time.perf_counter() + seconds

    async def channel_loop(channel: int) -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await act(channel)
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(channel_loop(c) for c in range(channels)))
    return done / (time.perf_counter() - started)


async def offered(act, channels: int, rate: float, seconds: float) -> list[float]:
    """Open loop: action i is due at i/rate whether or not earlier ones finished. Latencies in ms."""
    latencies: list[float] = []
    total = int(rate * seconds)
    start = time.perf_counter() + 0.05

    async def one(index: int, due: float) -> None:
        await act(index % channels)
        latencies.append((time.perf_counter() - due) * 1000)

    tasks = []
    for index in range(total):
        due = start + index / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(index, due)))
    await asyncio.gather(*tasks)
    return latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def labels(dbs: Databases) -> dict[str, str]:
    """What the figures were measured on, in the words the report prints."""
    if dbs.on_postgres:
        return {
            "backend": f"PostgreSQL ({redact(dbs.server or '')})",
            "baseline": "asyncpg bare",
            "raw": f"asyncpg pool x{RAW_POOL}",
        }
    return {"backend": "SQLite", "baseline": "aiosqlite bare", "raw": "sqlite3 sync"}


async def measure(channels: int, rate: float, seconds: float, db: str | None = None) -> dict:
    """Saturation, offered load and durability; on PostgreSQL when ``db`` is a server's URL."""
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        try:
            return await _measure(dbs, channels, rate, seconds)
        finally:
            await dbs.drop_all()


async def _measure(dbs: Databases, channels: int, rate: float, seconds: float) -> dict:
    service = await _service(dbs, channels)
    baseline_db, baseline_act = await _baseline(dbs, channels)
    gc.collect()
    gc.freeze()  # as `python -m bot` does once started (bot/cli/startup.py): later passes skip what was built

    async def service_act(channel: int) -> None:
        await service.run(Place(1, channel), CALLER, "counter", "bump", {})

    # the raw floors, once before the service's runs and once after: the better of the two is the floor, so a
    # moment of a busy disk (raw sqlite3 waits on it, the service mostly on the CPU) cannot make a ratio pass
    floors = [await raw_rate(dbs, seconds)]
    schemas = [] if dbs.on_postgres else [sqlite3_schema_rate(dbs.folder, seconds)]
    # warm both paths so neither pays first-call costs in the figures
    await saturate(service_act, channels, 0.3)
    await saturate(baseline_act, channels, 0.3)
    service_rate = await saturate(service_act, channels, seconds)
    baseline_rate = await saturate(baseline_act, channels, seconds)
    full = await _service(dbs, channels, "FULL")  # what users run: the default, power-loss safe

    async def full_act(channel: int) -> None:
        await full.run(Place(1, channel), CALLER, "counter", "bump", {})

    await saturate(full_act, channels, min(0.3, seconds))
    service_latency = await offered(full_act, channels, rate, seconds)
    await full.store.close()
    baseline_latency = await offered(baseline_act, channels, rate, seconds)
    floors.append(await raw_rate(dbs, seconds))
    if not dbs.on_postgres:
        schemas.append(sqlite3_schema_rate(dbs.folder, seconds))
    sync_rate, schema_rate = max(floors), max(schemas, default=None)
    await baseline_db.close()
    await service.store.close()
    durability = await measure_durability(dbs, channels, seconds)
    return {
        "channels": channels,
        **labels(dbs),
        "saturation": {
            "service_actions_per_s": round(service_rate),
            "baseline_per_s": round(baseline_rate),
            "ratio": round(service_rate / baseline_rate, 2),
            "raw_per_s": round(sync_rate),
            "raw_runs_per_s": [round(rate) for rate in floors],
            "ratio_to_raw": round(service_rate / sync_rate, 3),
            **(
                {
                    "schema_raw_per_s": round(schema_rate),
                    "schema_raw_runs_per_s": [round(rate) for rate in schemas],
                    "ratio_to_schema_raw": round(service_rate / schema_rate, 3),
                }
                if schema_rate
                else {}
            ),
        },
        "offered_load": {
            "rate_per_s": rate,
            "synchronous": "FULL",
            "service_p50_ms": round(statistics.median(service_latency), 2),
            "service_p99_ms": round(percentile(service_latency, 0.99), 2),
            "baseline_p50_ms": round(statistics.median(baseline_latency), 2),
            "baseline_p99_ms": round(percentile(baseline_latency, 0.99), 2),
            "actions": len(service_latency),
        },
        "durability": durability,
    }


async def measure_durability(dbs: Databases, channels: int, seconds: float) -> dict:
    """Saturation under each ``synchronous`` setting, beside the raw floor committing the same way.

    FULL (the default) fsyncs at each commit; group commit pays it once per group, where raw
    sqlite3 pays it per transaction. On PostgreSQL the setting is ``synchronous_commit`` on or off.
    """
    figures = {}
    for synchronous in SYNCHRONOUS:
        service = await _service(dbs, channels, synchronous)

        async def act(channel: int, service: TableService = service) -> None:
            await service.run(Place(1, channel), CALLER, "counter", "bump", {})

        await saturate(act, channels, min(0.3, seconds))
        rate = await saturate(act, channels, seconds)
        await service.store.close()
        raw = await raw_rate(dbs, seconds, synchronous)
        figures[synchronous] = {
            "service_actions_per_s": round(rate),
            "raw_per_s": round(raw),
            "ratio_to_raw": round(rate / raw, 2),
        }
    return figures


async def case_cpu_ms(registry: Registry, ruleset_id: str, case: BenchCase, dbs: Databases, runs: int) -> float:
    """CPU milliseconds per run of ``case.measured``, undone between runs so each meets the same table."""
    store = await open_store(await dbs.fresh(ruleset_id))
    try:
        service = TableService(store, registry, random.Random(0))
        place = Place(1, 1)
        await service.start_campaign(place, CALLER, ruleset_id, f"bench {ruleset_id}")
        for step in case.setup:
            await service.run(place, CALLER if step.as_gm else PLAYER, ruleset_id, step.action, dict(step.options))
        measured = case.measured
        caller = CALLER if measured.as_gm else PLAYER
        spent = 0.0
        for _ in range(runs):
            started = time.process_time()
            reply = await service.run(place, caller, ruleset_id, measured.action, dict(measured.options))
            spent += time.process_time() - started
            newest = await store.last_undoable(reply.campaign.id if reply.campaign else 0)
            if newest is not None and newest.id == reply.event_id:
                await service.undo(place, CALLER)
        return spent / runs * 1000
    finally:
        await store.close()


async def measure_rulesets(runs: int, db: str | None = None) -> dict:
    """Every ruleset's heaviest action, in CPU ms per action and as a ratio to the runic cast."""
    registry = Registry.discover()
    cases = {r.id: r.bench_case() for r in discover_rulesets()}
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        try:
            for ruleset_id, case in cases.items():
                if case is None:
                    continue
                await case_cpu_ms(registry, ruleset_id, case, dbs, max(1, runs // 10))  # warm-up
                figures[ruleset_id] = {
                    "action": case.title,
                    "cpu_ms": round(await case_cpu_ms(registry, ruleset_id, case, dbs, runs), 3),
                }
        finally:
            await dbs.drop_all()
    reference = figures.get(REFERENCE_CASE, {}).get("cpu_ms")
    for figure in figures.values():
        figure["ratio_to_runic_cast"] = round(figure["cpu_ms"] / reference, 2) if reference else None
    return figures


# ---------------------------------------------------------------------- history: flat from 0 to 100k events

UNDOABLE = '{"state_delta":[],"settings_delta":[],"characters":[]}'


def _history_rows(campaign_id: int, events: int, first: int):
    """Nine rolls to each undoable change, like a real table, numbered on from the campaign's last event."""
    for i in range(events):
        command, snapshot = ("counter bump", UNDOABLE) if i % 10 == 0 else ("roll", None)
        yield (campaign_id, "2026-01-01T00:00:00+00:00", 2, "player", command, "x", "{}", snapshot, first + i)


HISTORY_COLUMNS = ("campaign_id", "at", "actor_id", "actor_name", "command", "summary", "result", "snapshot", "seq")
NEXT_SEQ = "SELECT coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = {0}"


async def _bulk_events(
    target: str | Path, campaign_id: int, events: int, rows=_history_rows, columns: tuple[str, ...] = HISTORY_COLUMNS
) -> None:
    """``events`` log rows made by ``rows(campaign_id, events, first number)``, one value per name in ``columns``,
    straight into the database under the store's feet: one COPY, or one executemany."""
    if is_url(target):
        db = await asyncpg.connect(str(target))
        try:
            first = await db.fetchval(NEXT_SEQ.format("$1"), campaign_id)
            await db.copy_records_to_table("events", records=rows(campaign_id, events, first), columns=columns)
            await db.execute("VACUUM (ANALYZE) events")  # as autovacuum leaves a table: statistics, visibility map
        finally:
            await db.close()
        return
    db = sqlite3.connect(target)
    with db:
        (first,) = db.execute(NEXT_SEQ.format("?"), (campaign_id,)).fetchone()
        insert = f"INSERT INTO events ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        db.executemany(insert, rows(campaign_id, events, first))
    db.close()


async def _median_ms(operation, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        await operation()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 3)


async def measure_history(
    sizes: tuple[int, ...] = (0, 10_000, 100_000), repeats: int = 20, db: str | None = None
) -> dict:
    """Undo (each undoing one more change), status and the last log page, median ms at each log length."""
    from bot.table import campaigns

    figures: dict[str, dict[str, float]] = {"undo": {}, "status": {}, "last log page": {}}
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        for size in sizes:
            target = await dbs.fresh("history")
            service = TableService(
                await open_store(target, synchronous="NORMAL"),
                Registry([LoadedRuleset(CounterRuleset(), None)]),
                random.Random(0),
            )
            try:
                place = Place(1, 0)
                await service.start_campaign(place, CALLER, "counter", "history")
                campaign = await service.require_campaign(place)
                await _bulk_events(target, campaign.row.id, size)
                for _ in range(repeats):  # changes the undos will walk back through
                    await service.run(place, CALLER, "counter", "bump", {})
                _, pages = await campaigns.log_page(service, place, 1, CALLER)
                figures["undo"][str(size)] = await _median_ms(lambda s=service, p=place: s.undo(p, CALLER), repeats)
                figures["status"][str(size)] = await _median_ms(
                    lambda s=service, p=place: campaigns.status(s, p), repeats
                )
                figures["last log page"][str(size)] = await _median_ms(
                    lambda s=service, p=place, n=pages: campaigns.log_page(s, p, n, CALLER), repeats
                )
            finally:
                await service.store.close()
        await dbs.drop_all()
    return figures


# ---------------------------------------------------------------------- the log: filtered reads and a middle page

LOG_ACTORS = ((2, "player"), (3, "Bo"), (4, "Cy"), (5, "Di"))  # PLAYER acts in one event of four
LOG_COMMANDS = ("roll", "runic cast", "tally add", "roll", "serpent cast")
LOG_SPELLS = ("ice lance", "healing word", "shield", "lightning", "stone skin", "mage hand", "far sight", "warding")
LOG_COLUMNS = ("campaign_id", "at", "actor_id", "actor_name", "command", "summary", "result", "seq")
LOG_BOUNDED = ("log player middle",)  # a filter's deep page: it skips 10 index entries a page to get there
SECRET_RESULT = '{"secret":{"summary":"the guard saw %d"}}'
PRIVATE_RESULT = '{"private":{"summary":"a note for %d","readers":[%d]}}'


def _log_rows(campaign_id: int, events: int, first: int):
    """A table's log: four players, a few commands; one event in 10 names "fire bolt" (a common search), one in
    1,000 "lantern" (a rare one); one in 20 is secret, one in 50 private."""
    for i in range(events):
        actor_id, actor = LOG_ACTORS[i % len(LOG_ACTORS)]
        spell = "fire bolt" if i % 10 == 0 else "lantern" if i % 1000 == 7 else LOG_SPELLS[i % len(LOG_SPELLS)]
        result = SECRET_RESULT % (i % 20) if i % 20 == 3 else PRIVATE_RESULT % (i, actor_id) if i % 50 == 11 else "{}"
        command = LOG_COMMANDS[i % len(LOG_COMMANDS)]
        yield (
            campaign_id,
            "2026-01-01T00:00:00+00:00",
            actor_id,
            actor,
            command,
            f"{actor} rolled 1d20 for {spell}: {i % 20 + 1}",
            result,
            first + i,
        )


async def _oldest_shown(service: TableService, page: int) -> bool:
    """Does the whole log's page ``page``, typed, show the campaign's first event (is every page reachable)?"""
    from bot.table import campaigns

    reply, _ = await campaigns.log_page(service, Place(1, 0), page, CALLER)
    data = reply.outcome.data
    return data["page"] == page and 1 in [event["id"] for event in data["events"]]


async def measure_log(
    sizes: tuple[int, ...] = (0, 10_000, 100_000, 1_000_000), repeats: int = 10, db: str | None = None
) -> dict:
    """``/campaign log`` at each log length, median ms through the table service: each filter's first page (a
    common and a rare text, a 2-character text, one player's events, the secret ones) and the whole log's
    middle page; and, to show what a deep jump costs, the middle page of one player's events."""
    from bot.table import campaigns

    views = {
        "log text (GM)": (CALLER, campaigns.LogFilter(text="fire bolt")),
        "log rare text": (PLAYER, campaigns.LogFilter(text="lantern")),
        "log 2-char text": (CALLER, campaigns.LogFilter(text="zq")),
        "log player": (CALLER, campaigns.LogFilter(player_id=PLAYER.user_id)),
        "log secrets": (CALLER, campaigns.LogFilter(secrets=True)),
    }
    mine, place = campaigns.LogFilter(player_id=PLAYER.user_id), Place(1, 0)
    names = (*views, "log middle page", "log last page", "log player middle")
    figures: dict[str, dict[str, float]] = {name: {} for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        try:
            for size in sizes:
                target = await dbs.fresh("log")
                service = TableService(
                    await open_store(target, synchronous="NORMAL"),
                    Registry([LoadedRuleset(CounterRuleset(), None)]),
                    random.Random(0),
                )
                try:
                    await service.start_campaign(place, CALLER, "counter", "log")
                    campaign = await service.require_campaign(place)
                    await _bulk_events(target, campaign.row.id, size, _log_rows, LOG_COLUMNS)
                    for name, (caller, filters) in views.items():
                        figures[name][str(size)] = await _median_ms(
                            lambda s=service, c=caller, f=filters: campaigns.log_page(s, place, 1, c, f), repeats
                        )
                    _, pages = await campaigns.log_page(service, place, 1, CALLER)
                    figures["log middle page"][str(size)] = await _median_ms(
                        lambda s=service, n=max(1, pages // 2): campaigns.log_page(s, place, n, CALLER), repeats
                    )
                    last = await _median_ms(lambda s=service, n=pages: campaigns.log_page(s, place, n, CALLER), repeats)
                    figures["log last page"][str(size)] = last if await _oldest_shown(service, pages) else math.inf
                    middle = max(1, size // 4 // campaigns.LOG_PAGE_SIZE // 2)  # PLAYER's events: one in four
                    figures["log player middle"][str(size)] = await _median_ms(
                        lambda s=service, n=middle: campaigns.log_page(s, place, n, CALLER, mine), repeats
                    )
                finally:
                    await service.store.close()
        finally:
            await dbs.drop_all()
    return figures


# ---------------------------------------------------------------------- the campaign on the web


async def measure_web(events: int = 1_000_000, seconds: float = 5.0, clients: int = 16, db: str | None = None) -> dict:
    """A log page and a sheet page of a campaign with ``events`` events, served by the real web server on
    127.0.0.1 to ``clients`` readers asking as fast as they can (closed loop, each request a new link check):
    p50 and p99 in ms, and pages per second. Log pages: the newest, and one at random from the whole log."""
    import aiohttp

    from bot.cli.health import bound_port
    from bot.table import weblinks
    from bot.web.app import Limiter, start_web, web_app

    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        target = await dbs.fresh("web")
        service = TableService(await open_store(target, synchronous="NORMAL"), Registry.discover(), random.Random(0))
        runner = None
        try:
            place = Place(1, 0)
            await service.start_campaign(place, CALLER, "runic", "web")
            await service.run(place, PLAYER, "runic", "mage create", {"name": "Merlin", "magery": 3, "iq": 15})
            campaign = await service.require_campaign(place)
            filled = time.perf_counter()
            await _bulk_events(target, campaign.row.id, events)
            filled = time.perf_counter() - filled
            links = await weblinks.web_links(service, "http://127.0.0.1", "bench-" * 6)
            url = (await weblinks.issue(service, links, place, PLAYER)).outcome.data["url"]
            runner = await start_web(web_app(service, links, Limiter(rate=1e9, burst=10**9)), "127.0.0.1", 0)
            url = url.replace("http://127.0.0.1/", f"http://127.0.0.1:{bound_port(runner)}/")
            pages = max(1, (events + 2) // 10)
            times: dict[str, list[float]] = {"log page": [], "sheet page": []}
            rng = random.Random(1)
            deadline = time.perf_counter() + seconds

            async def reader(session: aiohttp.ClientSession, number: int) -> None:
                turn = number
                while time.perf_counter() < deadline:
                    turn += 1
                    kind = "sheet page" if turn % 2 else "log page"
                    path = "sheet/Merlin" if turn % 2 else f"log?page={1 if turn % 4 == 0 else rng.randint(1, pages)}"
                    started = time.perf_counter()
                    async with session.get(url + path) as response:
                        await response.read()
                        assert response.status == 200, (path, response.status)
                    times[kind].append((time.perf_counter() - started) * 1000)

            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=clients)) as session:
                started = time.perf_counter()
                await asyncio.gather(*(reader(session, n) for n in range(clients)))
                elapsed = time.perf_counter() - started
        finally:
            if runner is not None:
                await runner.cleanup()
            await service.store.close()
            await dbs.drop_all()
    figures: dict = {"events": events, "clients": clients, "fill_s": round(filled, 1)}
    for kind, values in times.items():
        figures[kind] = {
            "p50_ms": round(percentile(values, 0.5), 2),
            "p99_ms": round(percentile(values, 0.99), 2),
            "per_s": round(len(values) / elapsed),
        }
    return figures


# ---------------------------------------------------------------------- start-up to the first console reply


def _first_reply_seconds(command: list[str], stdin: str, folder: Path, db: str | Path | None = None) -> float:
    """Wall time from spawning ``command`` to its first line of output (or its exit).

    Python may cache bytecode, as it does on a user's machine (and the Docker image compiles it at build):
    a sandbox's ``PYTHONDONTWRITEBYTECODE`` would otherwise time compiling ~200 modules on every start."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "MAGISTER_")) and k != "PYTHONDONTWRITEBYTECODE"
    }
    env |= {"MAGISTER_DB": str(db or folder / "startup.sqlite3"), "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(stdin.encode())
    process.stdin.close()
    process.stdout.readline()
    elapsed = time.perf_counter() - started
    process.wait(timeout=60)
    return elapsed


def _blocking(coroutine, db: str | None):
    """Run a coroutine to its end from plain code, even when a loop is running on this thread, on the loop
    ``python -m bot`` runs with that database."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(startup.run, coroutine, db).result()


def measure_startup(tries: int = 3, db: str | None = None) -> dict:
    """Best of ``tries``: ``python -m bot console`` to its first reply, beside ``python -c "import discord"``."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        dbs = Databases(folder, db)
        target = _blocking(dbs.fresh("startup"), db)
        console = [sys.executable, "-m", "bot", "console", "--json"]
        _first_reply_seconds(console, "/campaign status\n", folder, target)  # creates the schema: not a first start
        first_reply = min(_first_reply_seconds(console, "/campaign status\n", folder, target) for _ in range(tries))
        _blocking(dbs.drop_all(), db)
        discord_import = min(
            _first_reply_seconds([sys.executable, "-c", "import discord; print(1)"], "", folder) for _ in range(tries)
        )
    return {
        "first_reply_s": round(first_reply, 3),
        "import_discord_s": round(discord_import, 3),
        "ratio_to_import_discord": round(first_reply / discord_import, 2),
    }


# ---------------------------------------------------------------------- serpent: a cast as the battle grows


async def serpent_cast_cpu_ms(magi: int, runs: int, dbs: Databases) -> dict:
    """CPU per Fireball in a duel battle of ``magi`` Magi (about 6 spells each in their Codexes), undone between."""
    registry = Registry.discover()
    store = await open_store(await dbs.fresh("serpent"), synchronous="NORMAL")
    try:
        service = TableService(store, registry, random.Random(0))
        place = Place(1, 1)
        players = [Caller(100 + i, f"M{i}") for i in range(magi)]
        await service.start_campaign(place, CALLER, "serpent", "bench serpent")
        for i, player in enumerate(players):
            codex = "Fireball x2, Dissolve Tissue x2, Pillar of Earth, Acidic Matter" + (", Air Essence" * (i < 2))
            await service.run(place, player, "serpent", "magi create", {"name": player.name, "codex": codex})
        await service.run(place, CALLER, "serpent", "battle start", {})
        for player in players:
            await service.run(place, player, "serpent", "battle join", {})
        await service.run(place, CALLER, "serpent", "battle round", {"resonance": 10, "rolloff": players[0].name})
        campaign = await service.require_campaign(place)
        order = campaign.row.state["battle"]["order"]
        by_key = {p.name.casefold(): p for p in players}
        for key in order:
            await service.run(place, by_key[key], "serpent", "prepare", {"spells": "Fireball, Dissolve Tissue"})
        caster = by_key[order[0]]
        target = next(p.name for p in players if p is not caster)
        campaign = await service.require_campaign(place)
        cards, state_bytes = len(campaign.row.state["battle"]["cards"]), len(json.dumps(campaign.row.state))
        spent = 0.0
        for _ in range(runs):
            started = time.process_time()
            await service.run(place, caster, "serpent", "cast", {"spell": "Fireball", "target": target})
            spent += time.process_time() - started
            await service.undo(place, CALLER)
        return {"cpu_ms": round(spent / runs * 1000, 3), "spells": cards, "state_kb": round(state_bytes / 1024, 1)}
    finally:
        await store.close()


async def measure_serpent(runs: int, db: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        try:
            await serpent_cast_cpu_ms(2, max(1, runs // 10), dbs)  # warm-up
            small = await serpent_cast_cpu_ms(2, runs, dbs)
            large = await serpent_cast_cpu_ms(8, runs, dbs)
        finally:
            await dbs.drop_all()
    return {"2 magi": small, "8 magi": large, "ratio": round(large["cpu_ms"] / small["cpu_ms"], 2)}


# ---------------------------------------------------------------------- export and import, a million events


async def measure_port(events: int, db: str | None = None, *, idle_seconds: float = 5.0) -> dict:
    """A campaign of ``events`` events exported and imported again (:mod:`bot.bench.port`), beside the loop's
    longest stall over a few idle seconds on the same machine (what the machine itself costs a loop)."""
    from bot.bench import port

    async with port.LagProbe() as idle:
        await asyncio.sleep(idle_seconds)
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), db)
        try:
            figures = await port.measure_port(await dbs.fresh("port"), Path(tmp), events)
        finally:
            await dbs.drop_all()
    return {**figures, "idle_stall_ms": round(idle.worst_ms, 1)}


# ---------------------------------------------------------------------- the issue's targets


def _flat(values: list[float], base: float, slack: float) -> bool:
    """Flat: the largest log's figure within 2x (or ``slack`` ms) of ``base``."""
    return values[-1] <= 2 * base + slack


def targets(result: dict) -> list[tuple[str, str, bool]]:
    """Each target of the performance issue (issue 23): (what, the figure, met?). A figure the run did not measure
    is not a row."""
    rows: list[tuple[str, str, bool]] = []
    on_postgres = result["raw"].startswith("asyncpg")
    saturation = result["saturation"]
    ratio = saturation["ratio_to_raw"]
    if on_postgres:
        rows.append((f"saturation >= 50% of raw {result['raw']} (both NORMAL)", f"{ratio:.0%}", ratio >= 0.5))
    else:
        rows.append((f"saturation >= 30% of raw {result['raw']}, bare tables (NORMAL)", f"{ratio:.0%}", ratio >= 0.3))
        if "ratio_to_schema_raw" in saturation:
            share = saturation["ratio_to_schema_raw"]
            rows.append(("saturation >= 90% of raw sqlite3 on the service's schema", f"{share:.0%}", share >= 0.9))
    load = result["offered_load"]
    p99, ceiling = load["service_p99_ms"], P99_TARGET_MS[on_postgres]
    what = f"p99 <= {ceiling} ms at {load['rate_per_s']:.0f} actions/s over {result['channels']} channels (FULL)"
    rows.append((what, f"{p99} ms", p99 <= ceiling))
    for name, figures in result.get("history", {}).items():
        values = list(figures.values())
        shown = " / ".join(f"{v} ms" for v in values)
        rows.append((f"{name} flat at {' / '.join(figures)} events", shown, _flat(values, values[0], 0.5)))
    for name, figures in result.get("log", {}).items():
        if name in LOG_BOUNDED:
            continue  # shown, not a target: it grows with the page asked for, not with the log
        sizes, values = list(figures), list(figures.values())
        first = 1 if len(values) > 2 else 0  # the smallest log a filter finds anything in
        shown = " / ".join(f"{v} ms" for v in values)
        rows.append((f"{name} flat from {sizes[first]} to {sizes[-1]} events", shown, _flat(values, values[first], 1)))
    if result.get("port"):
        moved = result["port"]
        met = moved["same_campaign"] and moved["events"] >= PORT_EVENTS
        shown = f"{moved['events']:,}, " + ("the same campaign" if moved["same_campaign"] else "differs")
        rows.append((f"export + import of {PORT_EVENTS:,} events round-trips", shown, met))
        for phase in ("export", "import"):
            stall = moved[f"{phase}_stall_ms"]
            rows.append((f"longest event-loop stall during the {phase} <= 50 ms", f"{stall} ms", stall <= 50))
    if "web" in result:
        web = result["web"]
        for kind in ("log page", "sheet page"):
            p99 = web[kind]["p99_ms"]
            what = f"web {kind} p99 <= 100 ms, {web['clients']} readers, {web['events']:,} events"
            rows.append((what, f"{p99} ms", p99 <= 100))
    rows += planner_targets(result["planner"]) if "planner" in result else []
    if "startup" in result:
        first_reply = result["startup"]["first_reply_s"]
        rows.append(("start-up to first console reply <= 0.8 s", f"{first_reply} s", first_reply <= 0.8))
    if "serpent" in result.get("rulesets", {}):
        serpent = result["rulesets"]["serpent"]["ratio_to_runic_cast"]
        rows.append(("serpent's heaviest action <= 2x a runic cast (CPU)", f"{serpent}x", serpent <= 2))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rate", type=float, default=1000.0, help="offered actions per second, all channels")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--runs", type=int, default=200, help="runs of each ruleset's heaviest action")
    parser.add_argument("--history", type=int, nargs="+", default=[0, 10_000, 100_000], help="log lengths")
    parser.add_argument(
        "--log", type=int, nargs="+", default=[0, 10_000, 100_000, 1_000_000], help="log lengths for /campaign log"
    )
    parser.add_argument("--port-events", type=int, default=1_000_000, help="export/import case (0: skip it)")
    parser.add_argument("--web-events", type=int, default=1_000_000, help="log length of the web pages' campaign")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="measure on PostgreSQL: a server whose role may CREATE DATABASE (default: SQLite)",
    )
    args = parser.parse_args()
    if args.db is not None and not is_url(args.db):
        parser.error("--db takes a postgresql:// URL; without it the bench measures SQLite")
    loads = [os.getloadavg()[0]]  # the machine's own load: figures from a busy machine read differently
    result = startup.run(measure(args.channels, args.rate, args.seconds, args.db), args.db)
    loads.append(os.getloadavg()[0])
    result["rulesets"] = startup.run(measure_rulesets(args.runs, args.db), args.db)
    result["serpent"] = startup.run(measure_serpent(max(5, args.runs // 4), args.db), args.db)
    result["history"] = startup.run(measure_history(tuple(args.history), db=args.db), args.db)
    result["log"] = startup.run(measure_log(tuple(args.log), db=args.db), args.db)
    result["web"] = startup.run(measure_web(args.web_events, args.seconds, db=args.db), args.db)
    result["startup"] = measure_startup(db=args.db)
    result["port"] = startup.run(measure_port(args.port_events, args.db), args.db) if args.port_events else {}
    result["planner"] = startup.run(measure_planner(), args.db)
    loads.append(os.getloadavg()[0])
    result["load_average"] = {"start": loads[0], "after_saturation": loads[1], "end": loads[2]}
    result["targets"] = [{"target": t, "figure": f, "met": met} for t, f, met in targets(result)]
    if args.json:
        print(json.dumps(result, indent=2))
        return
    sat, load = result["saturation"], result["offered_load"]
    baseline, raw = result["baseline"], result["raw"]
    print(f"backend: {result['backend']}")
    print(
        "load average (1 min): "
        + ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in result["load_average"].items())
    )
    print(f"saturation, {args.channels} channels:")
    print(f"  table service     {sat['service_actions_per_s']:>7} actions/s")
    print(f"  {baseline:<17} {sat['baseline_per_s']:>7} actions/s   ratio {sat['ratio']}")
    runs = " / ".join(str(rate) for rate in sat["raw_runs_per_s"])
    print(f"  {raw:<17} {sat['raw_per_s']:>7} actions/s   service at {sat['ratio_to_raw']:.0%} (best of {runs})")
    if "schema_raw_per_s" in sat:
        schema_raw, share = sat["schema_raw_per_s"], sat["ratio_to_schema_raw"]
        runs = " / ".join(str(rate) for rate in sat["schema_raw_runs_per_s"])
        print(f"  {'sqlite3, schema':<17} {schema_raw:>7} actions/s   service at {share:.0%} (best of {runs})")
    print("durability: synchronous=FULL (default; survives power loss) and NORMAL (survives a killed process):")
    for synchronous, figure in result["durability"].items():
        print(
            f"  {synchronous:<7} table service {figure['service_actions_per_s']:>7} actions/s   "
            f"{raw} {figure['raw_per_s']:>7} /s   ratio {figure['ratio_to_raw']}"
        )
    print(f"offered load, {load['rate_per_s']:.0f} actions/s open loop over {args.channels} channels:")
    ceiling = P99_TARGET_MS[raw.startswith("asyncpg")]
    print(
        f"  table service     p50 {load['service_p50_ms']:>6} ms   p99 {load['service_p99_ms']:>6} ms"
        f" (target <= {ceiling})"
    )
    print(f"  {baseline:<17} p50 {load['baseline_p50_ms']:>6} ms   p99 {load['baseline_p99_ms']:>6} ms")
    print("heaviest action of each ruleset, CPU per action through the table service (target: within 2x runic):")
    for ruleset_id, figure in result["rulesets"].items():
        ratio = figure["ratio_to_runic_cast"]
        print(f"  {ruleset_id:<9} {figure['cpu_ms']:>8.3f} ms   ratio {ratio}   {figure['action']}")
    serpent = result["serpent"]
    print("serpent cast (Fireball), CPU per action as the battle grows:")
    for size in ("2 magi", "8 magi"):
        figure = serpent[size]
        print(f"  {size}   {figure['cpu_ms']:>8.3f} ms   {figure['spells']} spells, state {figure['state_kb']} KB")
    print("history, median ms at each log length (events):")
    for name, figures in result["history"].items():
        print(f"  {name:<14}" + "".join(f"{size:>8}: {ms:>7.3f}" for size, ms in figures.items()))
    print("/campaign log, median ms at each log length (events):")
    for name, figures in result["log"].items():
        bound = "   (grows with the page asked for)" if name in LOG_BOUNDED else ""
        print(f"  {name:<19}" + "".join(f"{size:>9}: {ms:>7.3f}" for size, ms in figures.items()) + bound)
    if moved := result["port"]:
        packed = f"{'gzip' if moved['compressed'] else 'plain JSON'} {moved['file_mb']} MB"
        print(f"export and import of {moved['events']:,} events (a runic table's log, grown; {packed}):")
        print(f"  export {moved['export_s']:>6} s   longest loop stall {moved['export_stall_ms']:>6} ms")
        print(f"  import {moved['import_s']:>6} s   longest loop stall {moved['import_stall_ms']:>6} ms")
        print(f"  round trip {moved['round_trip_s']} s; an idle loop's longest stall here {moved['idle_stall_ms']} ms")
    web = result["web"]
    print(f"web pages, {web['clients']} readers at once, a campaign of {web['events']:,} events:")
    for kind in ("log page", "sheet page"):
        figure = web[kind]
        print(
            f"  {kind:<11} p50 {figure['p50_ms']:>6} ms   p99 {figure['p99_ms']:>6} ms   {figure['per_s']:>5} pages/s"
        )
    started = result["startup"]
    print(f"start-up: first console reply {started['first_reply_s']} s, import discord {started['import_discord_s']} s")
    print("targets:")
    for row in result["targets"]:
        print(f"  {'PASS' if row['met'] else 'MISS'}  {row['target']:<72} {row['figure']}")
