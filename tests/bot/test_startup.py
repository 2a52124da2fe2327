"""``python -m bot console`` starts without the cyclic collector's passes, then collects again, on uvloop's event loop
with SQLite and asyncio's with PostgreSQL (issue 23)."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import console, startup

ROOT = Path(__file__).resolve().parents[2]

# Runs the real entry point in a fresh process, counting the collector's passes from the pause until the console says
# it has started, and reporting the collector's state after the last reply.
DRIVER = """
import asyncio, gc, json, sys
from bot.__main__ import main
import pytest

from bot.cli import console, startup

passes = []
gc.callbacks.append(lambda phase, info: passes.append(info["generation"]) if phase == "start" else None)
seen = {}
pause, original = startup.pause_collector, startup.started

def pause_collector():
    pause()
    passes.clear()

def started():
    seen["before"] = list(passes)
    seen["paused"] = not gc.isenabled()
    seen["loop"] = type(asyncio.get_running_loop()).__module__
    original()

startup.pause_collector, startup.started = pause_collector, started
code = main(["console", "--json"])
print(json.dumps({"code": code, "seen": seen, "enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}),
      file=sys.stderr)
"""


def test_the_console_starts_with_the_collector_paused_then_collects_again(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT), "MAGISTER_DB": str(tmp_path / "gc.sqlite3")},
        input="/campaign start ruleset:runic name:Camelot\n/campaign status\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert report["code"] == 0 and [reply["ok"] for reply in replies] == [True, True]
    assert "Camelot" in replies[1]["text"]
    assert report["seen"] == {"before": [], "paused": True, "loop": "uvloop"}  # not one pass while it started
    assert report["enabled"]  # and collecting again for play
    assert report["frozen"] > 50_000  # what start-up built, out of every later pass


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_loop_is_uvloop_for_sqlite_and_asyncios_for_postgresql(tmp_path: Path) -> None:
    assert startup.run(_loop_module(), tmp_path / "play.sqlite3") == "uvloop"
    assert startup.run(_loop_module()) == "uvloop"  # no database at all (a port from SQLite to SQLite, the bench)
    assert startup.run(_loop_module(), "postgresql://magister@localhost/play") == "asyncio.unix_events"
    assert startup.run(_loop_module(), "postgres://magister@localhost/play") == "asyncio.unix_events"


def test_the_console_picks_its_loop_by_the_database_it_will_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAGISTER_DB", str(tmp_path / "from-env.sqlite3"))
    assert console.database_of([]) == str(tmp_path / "from-env.sqlite3")
    assert console.database_of(["--db", "postgresql://h/db", "--json"]) == "postgresql://h/db"


def test_started_leaves_a_collector_it_did_not_pause_alone() -> None:
    """A test (or a caller) opening the console in its own process keeps its collector as it was."""
    frozen = gc.get_freeze_count()
    startup.started()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        startup.pause_collector()  # already off: not ours to turn back on
        startup.started()
        assert not gc.isenabled()
    finally:
        gc.enable()
