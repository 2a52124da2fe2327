"""tests/scenarios/pbp_tally.txt: pings only for waited players, a nudge, a deadline firing once, a restart.

Played in-process (the tally ruleset exists only in tests): the first part in one console, then, after
"# ==== restart", a second and a third console on the same database three days later, both ticking at start.
"""

from __future__ import annotations

from pathlib import Path

from bot.cli.console import ConsoleTable
from bot.table.registry import Registry
from tests.support.scenario import SCENARIOS

START = "2030-03-01T09:00:00+00:00"
LATER = "2030-03-04T09:00:00+00:00"


async def _play(table: ConsoleTable, lines: list[str]) -> list[dict]:
    out = [r.as_json() for r in table.timer_results()]
    for line in lines:
        result = await table.execute(line)
        if result is not None:
            out.append(result.as_json())
        out.extend(r.as_json() for r in table.timer_results())
    return out


async def _open(db: Path, registry: Registry, clock: str) -> ConsoleTable:
    table = await ConsoleTable.open(db, seed=1, registry=registry, clock=clock)
    await table.tick()  # as at start: what came due while nobody was here
    return table


async def test_pbp_scenario(tmp_path: Path, registry: Registry) -> None:
    text = (SCENARIOS / "pbp_tally.txt").read_text(encoding="utf-8")
    before, _, after = text.partition("# ==== restart")
    db = tmp_path / "pbp.sqlite3"

    first = await _open(db, registry, START)
    try:
        played = await _play(first, before.splitlines())
    finally:
        await first.close()
    assert all(r["ok"] for r in played), [r for r in played if not r["ok"]]

    pinged = [(r["command"], r["pings"]) for r in played if "pings" in r]
    assert pinged == [
        ("/tally ask names:Pip,Ozzy kind:response", ["Pat", "Oz"]),
        ("@timer nudge", ["Pat"]),
        ("/tally ask names:Ozzy", ["Oz"]),
    ]
    timers = [r for r in played if r.get("trigger") == "timer"]
    assert [(t["data"]["timer"], t["data"]["who"]) for t in timers] == [("nudge", "Pip"), ("deadline", "Pip")]
    assert timers[1]["data"]["ran"] == "pass" and "Pip did not add in time" in timers[1]["text"]
    waiting = next(r for r in played if r["command"] == "/campaign waiting")
    assert [(w["who"], w["deadline"]) for w in waiting["data"]["waits"]] == [("Ozzy", "2030-03-02T11:00:00+00:00")]

    second, third = await _open(db, registry, LATER), await _open(db, registry, LATER)
    try:
        at_start = [r.as_json() for r in second.timer_results()] + [r.as_json() for r in third.timer_results()]
        rest = await _play(second, after.splitlines())
        assert await third.tick() == 0
    finally:
        await second.close()
        await third.close()
    # Ozzy's turn ran out while the bot was down: it fires once, in one process; its stale nudge says nothing
    assert [(t["data"]["timer"], t["data"]["rule"], t["pings"]) for t in at_start] == [("deadline", "gm", ["Gwen"])]
    assert not [r for r in rest if r.get("trigger") == "timer"]
    (wait,) = next(r for r in rest if r["command"] == "/campaign waiting")["data"]["waits"]
    assert wait["who"] == "Ozzy" and wait["deadline"] is None
