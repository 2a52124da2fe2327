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
- ruleset actions: each ruleset's heaviest action (``Ruleset.bench_case``), CPU
  time per action through the same service, beside a runic cast's in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from bot.registry import LoadedRuleset, Registry, discover_rulesets
from bot.service import Caller, Place, TableService
from bot.store import SYNCHRONOUS, Store
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


CALLER = Caller(1, "bench")
PLAYER = Caller(2, "player")
REFERENCE_CASE = "runic"


async def _service(folder: Path, channels: int, synchronous: str = "NORMAL") -> TableService:
    store = await Store.open(Path(tempfile.mkdtemp(dir=folder)) / "service.sqlite3", synchronous=synchronous)
    service = TableService(store, Registry([LoadedRuleset(CounterRuleset(), None)]), random.Random(0))
    for channel in range(channels):
        await service.start_campaign(Place(1, channel), CALLER, "counter", f"c{channel}")
    return service


async def _baseline(folder: Path, channels: int):
    db = await aiosqlite.connect(folder / "baseline.sqlite3", isolation_level=None)
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


async def measure(channels: int, rate: float, seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service = await _service(folder, channels)
        baseline_db, baseline_act = await _baseline(folder, channels)

        async def service_act(channel: int) -> None:
            await service.run(Place(1, channel), CALLER, "counter", "bump", {})

        # warm both paths so neither pays first-call costs in the figures
        await saturate(service_act, channels, 0.3)
        await saturate(baseline_act, channels, 0.3)
        service_rate = await saturate(service_act, channels, seconds)
        baseline_rate = await saturate(baseline_act, channels, seconds)
        service_latency = await offered(service_act, channels, rate, seconds)
        baseline_latency = await offered(baseline_act, channels, rate, seconds)
        sync_rate = sqlite3_rate(folder, seconds)
        await baseline_db.close()
        await service.store.close()
        durability = await measure_durability(folder, channels, seconds)
    return {
        "channels": channels,
        "saturation": {
            "service_actions_per_s": round(service_rate),
            "aiosqlite_baseline_per_s": round(baseline_rate),
            "ratio": round(service_rate / baseline_rate, 2),
            "sqlite3_sync_per_s": round(sync_rate),
        },
        "offered_load": {
            "rate_per_s": rate,
            "service_p50_ms": round(statistics.median(service_latency), 2),
            "service_p99_ms": round(percentile(service_latency, 0.99), 2),
            "baseline_p50_ms": round(statistics.median(baseline_latency), 2),
            "baseline_p99_ms": round(percentile(baseline_latency, 0.99), 2),
            "actions": len(service_latency),
        },
        "durability": durability,
    }


async def measure_durability(folder: Path, channels: int, seconds: float) -> dict:
    """Saturation under each ``synchronous`` setting, beside raw sqlite3 committing every transaction the same way.

    FULL (the default) fsyncs at each commit; group commit pays it once per group, where raw
    sqlite3 pays it per transaction.
    """
    figures = {}
    for synchronous in SYNCHRONOUS:
        service = await _service(folder, channels, synchronous)

        async def act(channel: int, service: TableService = service) -> None:
            await service.run(Place(1, channel), CALLER, "counter", "bump", {})

        await saturate(act, channels, min(0.3, seconds))
        rate = await saturate(act, channels, seconds)
        await service.store.close()
        raw = sqlite3_rate(folder, seconds, synchronous)
        figures[synchronous] = {
            "service_actions_per_s": round(rate),
            "sqlite3_sync_per_s": round(raw),
            "ratio_to_sqlite3": round(rate / raw, 2),
        }
    return figures


async def case_cpu_ms(registry: Registry, ruleset_id: str, case: BenchCase, folder: Path, runs: int) -> float:
    """CPU milliseconds per run of ``case.measured``, undone between runs so each meets the same table."""
    store = await Store.open(Path(tempfile.mkdtemp(dir=folder)) / f"{ruleset_id}.sqlite3")
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


async def measure_rulesets(runs: int) -> dict:
    """Every ruleset's heaviest action, in CPU ms per action and as a ratio to the runic cast."""
    registry = Registry.discover()
    cases = {r.id: r.bench_case() for r in discover_rulesets()}
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ruleset_id, case in cases.items():
            if case is None:
                continue
            await case_cpu_ms(registry, ruleset_id, case, Path(tmp), max(1, runs // 10))  # warm-up
            figures[ruleset_id] = {
                "action": case.title,
                "cpu_ms": round(await case_cpu_ms(registry, ruleset_id, case, Path(tmp), runs), 3),
            }
    reference = figures.get(REFERENCE_CASE, {}).get("cpu_ms")
    for figure in figures.values():
        figure["ratio_to_runic_cast"] = round(figure["cpu_ms"] / reference, 2) if reference else None
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rate", type=float, default=1000.0, help="offered actions per second, all channels")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--runs", type=int, default=200, help="runs of each ruleset's heaviest action")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.channels, args.rate, args.seconds))
    result["rulesets"] = asyncio.run(measure_rulesets(args.runs))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    sat, load = result["saturation"], result["offered_load"]
    print(f"saturation, {args.channels} channels:")
    print(f"  table service     {sat['service_actions_per_s']:>7} actions/s")
    print(f"  aiosqlite bare    {sat['aiosqlite_baseline_per_s']:>7} actions/s   ratio {sat['ratio']} (target >= 0.5)")
    print(f"  sqlite3 sync      {sat['sqlite3_sync_per_s']:>7} actions/s   (the limit)")
    print("durability: synchronous=FULL (default; survives power loss) and NORMAL (survives a killed process):")
    for synchronous, figure in result["durability"].items():
        print(
            f"  {synchronous:<7} table service {figure['service_actions_per_s']:>7} actions/s   "
            f"sqlite3 {figure['sqlite3_sync_per_s']:>7} /s   ratio {figure['ratio_to_sqlite3']}"
        )
    print(f"offered load, {load['rate_per_s']:.0f} actions/s open loop over {args.channels} channels:")
    print(f"  table service     p50 {load['service_p50_ms']:>6} ms   p99 {load['service_p99_ms']:>6} ms (target <= 20)")
    print(f"  aiosqlite bare    p50 {load['baseline_p50_ms']:>6} ms   p99 {load['baseline_p99_ms']:>6} ms")
    print("heaviest action of each ruleset, CPU per action through the table service (target: within 2x runic):")
    for ruleset_id, figure in result["rulesets"].items():
        ratio = figure["ratio_to_runic_cast"]
        print(f"  {ruleset_id:<9} {figure['cpu_ms']:>8.3f} ms   ratio {ratio}   {figure['action']}")


if __name__ == "__main__":
    main()
