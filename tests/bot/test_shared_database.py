"""Real processes on one database, on both backends: two acting on one campaign at once, one killed -9.

Each process is ``python -m tests.support.hammer`` (a TableService with the tally ruleset, adding points as
fast as it can and firing due timers). No lost update, no timer fired twice, every acknowledged action
present; and a process killed mid-stream loses nothing it acknowledged and leaves no half-saved action.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.table.registry import Registry
from bot.table.service import TableService
from tests.conftest import GM, HERE, PLAYER, open_store
from tests.support.db import fetch, target

ROOT = Path(__file__).resolve().parents[2]
TIMERS = 30


def hammer(db: Path | str, actions: int) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.hammer", str(db), str(actions)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def prepare(db: Path | str, registry: Registry) -> list[int]:
    """A tally campaign with Pip, and TIMERS reminders already due; their ids."""
    store = await open_store(db)
    service = TableService(store, registry, random.Random(1))
    await service.start_campaign(HERE, GM, "tally", "Shared")
    await service.run(HERE, PLAYER, "tally", "create", {"name": "Pip"})
    timers = [
        await store.write(
            lambda tx, i=i: tx.add_timer(None, HERE.guild_id, HERE.channel_id, "remind", 0, {"text": f"r{i}"})
        )
        for i in range(TIMERS)
    ]
    await store.close()
    return timers


async def tally_of(db: Path | str) -> tuple[int, int, set[int], int]:
    """The campaign's count, Pip's points, the ids of its "tally add" events, and the fired timers."""
    store = await open_store(db)
    try:
        row = await store.campaign(HERE.guild_id, HERE.channel_id)
        assert row is not None
        (pip,) = await store.characters(row.id)
        adds = {r[0] for r in await fetch(store, "SELECT id FROM events WHERE command = 'tally add'")}
        (fired,) = await fetch(store, "SELECT count(*) FROM timers WHERE fired_at IS NOT NULL")
        return row.state["count"], pip.sheet["points"], adds, fired[0]
    finally:
        await store.close()


async def test_two_processes_on_one_campaign_lose_nothing_and_fire_each_timer_once(
    tmp_path: Path, registry: Registry
) -> None:
    db = target(tmp_path / "shared.sqlite3")
    timers = await prepare(db, registry)
    processes = [hammer(db, 60), hammer(db, 60)]
    try:
        for process in processes:
            assert json.loads(process.stdout.readline()) == {"ready": True}  # type: ignore[union-attr]
        for process in processes:  # both are waiting on stdin: go at once
            process.stdin.write("go\n")  # type: ignore[union-attr]
            process.stdin.flush()  # type: ignore[union-attr]
        outputs = [process.communicate(timeout=300) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    for process, (_, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err[-3000:]
    a, b = (json.loads(out.strip().splitlines()[-1]) for out, _ in outputs)
    acked = set(a["acked"]) | set(b["acked"])
    assert len(acked) == len(a["acked"]) + len(b["acked"]) > 60, (a, b)  # both acted, ids never shared
    assert a["began"] < b["finished"] and b["began"] < a["finished"], (a, b)  # they acted at the same time
    count, points, adds, fired = await tally_of(db)
    assert adds == acked  # every acknowledged action is there, and nothing unacknowledged
    assert count == points == len(acked)  # no lost update: each action saw the one before it
    assert sorted(a["fired"] + b["fired"]) == timers  # each timer fired once, by one process
    assert fired == TIMERS


KILLS = 5  # rounds: a fresh process each time, on the same database, killed at a random moment


async def test_a_process_killed_at_random_moments_loses_nothing_it_acknowledged(
    tmp_path: Path, registry: Registry
) -> None:
    """Under load (four actions in flight at once), SIGKILL after a random number of acknowledgements (or
    before the first), five times over on one database: every acknowledged action is in the database, and
    every action that is in it is whole (the campaign's count, Pip's points and the log agree)."""
    db = target(tmp_path / "killed.sqlite3")
    await prepare(db, registry)
    seed = random.randrange(2**32)
    moments = random.Random(seed).choices(range(150), k=KILLS)
    acked: list[int] = []
    for moment in moments:
        process = hammer(db, 0)  # acts until killed
        try:
            assert json.loads(process.stdout.readline()) == {"ready": True}  # type: ignore[union-attr]
            process.stdin.write("go\n")  # type: ignore[union-attr]
            process.stdin.flush()  # type: ignore[union-attr]
            for _ in range(moment):
                line = process.stdout.readline()  # type: ignore[union-attr]
                assert line, process.stderr.read()  # type: ignore[union-attr]
                acked.append(json.loads(line)["ack"])
            os.kill(process.pid, signal.SIGKILL)  # mid-stream: more writes are in flight
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == -signal.SIGKILL, (seed, process.stderr.read())  # type: ignore[union-attr]
    count, points, adds, _ = await tally_of(db)
    assert set(acked) <= adds, seed  # acknowledged means committed
    assert count == points == len(adds), seed  # every committed action is whole: state, sheet and log together
    backend = "PostgreSQL" if str(db).startswith("postgresql") else "SQLite"
    print(f"\n{backend}: {KILLS} kills, {len(acked)} actions acknowledged, {len(adds)} committed, all whole")  # -s
