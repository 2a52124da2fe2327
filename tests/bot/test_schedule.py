"""The schedule (issue 13): nudges, deadlines and pauses, each timer fired exactly once.

Time moves only on the console's virtual clock (``@wait``); nothing sleeps. Several tests open a second
console on the same SQLite file, as a restart or a second process would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.storage.sqlite import WriteTx
from bot.table.registry import Registry
from tests.conftest import Console
from tests.support.db import execute, fetch, write_tx_class
from tests.support.scenario import run_console

START = "2030-01-01T12:00:00+00:00"


async def _open(db: Path, registry: Registry, clock: str = START) -> Console:
    table = await ConsoleTable.open(db, seed=7, registry=registry, clock=clock)
    return Console(table)


@pytest.fixture
async def clocked(tmp_path: Path, registry: Registry):
    console = await _open(tmp_path / "clock.sqlite3", registry)
    for line in (
        "@as Gwen",
        "/campaign start ruleset:tally name:Crows",
        "@as Pat",
        "/tally create name:Pip",
        "@as Oz",
        "/tally create name:Ozzy",
        "@as Gwen",
        "/campaign settings key:turn_deadline value:4h",
        "/campaign settings key:response_window value:2h",
    ):
        await console.ok(line)
    yield console
    await console.table.close()


async def test_a_turn_is_nudged_once_at_half_time_then_handed_to_the_gm(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("@wait 1h")
    assert clocked.timers() == []
    await clocked.ok("@wait 1h")
    (nudge,) = clocked.timers()
    assert nudge["trigger"] == "timer" and nudge["data"]["timer"] == "nudge" and nudge["pings"] == ["Pat"]
    await clocked.ok("@wait 1h")
    assert clocked.timers() == []  # reminded once
    await clocked.ok("@wait 1h")
    (deadline,) = clocked.timers()
    assert deadline["data"]["rule"] == "gm" and deadline["pings"] == ["Gwen"]
    assert "turn_timeout: gm" in deadline["text"]
    await clocked.ok("@wait 3d")
    assert clocked.timers() == []  # fired once
    waits = (await clocked.ok("/campaign waiting"))["data"]["waits"]
    assert waits[0]["deadline"] is None
    log = (await clocked.ok("/campaign log"))["data"]["events"]
    assert [e["command"] for e in log[:2]] == ["timer deadline", "timer nudge"]


async def test_skip_rule_moves_on_and_pings_nobody(clocked: Console) -> None:
    await clocked.ok("/campaign settings key:turn_timeout value:skip")
    await clocked.ok("/campaign settings key:nudge value:0")
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("@wait 4h")
    (deadline,) = clocked.timers()
    assert deadline["data"]["rule"] == "skip" and "pings" not in deadline
    assert "turn_timeout: skip" in deadline["text"]


async def test_a_response_deadline_runs_the_rulesets_action_as_the_gm(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip,Ozzy kind:response")
    await clocked.ok("@as Oz")
    await clocked.ok("/tally pass name:Ozzy")  # Ozzy's wait ends, and its timers with it
    await clocked.ok("@wait 1h")
    await clocked.ok("@wait 1h")
    fired = clocked.timers()
    assert [f["data"]["timer"] for f in fired] == ["nudge", "deadline"]
    assert fired[0]["pings"] == ["Pat"]
    assert fired[1]["data"]["ran"] == "pass" and "Pip did not add in time, so passed" in fired[1]["text"]
    assert (await clocked.ok("/campaign waiting"))["data"]["waits"] == []


async def test_a_wait_answered_in_time_fires_nothing(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("@as Pat")
    await clocked.ok("/tally add name:Pip")
    await clocked.ok("@wait 5d")
    assert clocked.timers() == []


async def test_pause_holds_every_timer_and_resume_moves_them_on(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("@as Pat")
    assert "needs the GM" in (await clocked.fails("/campaign pause"))["text"]
    await clocked.ok("@as Gwen")
    await clocked.ok("/campaign pause")
    await clocked.fails("/campaign pause")
    await clocked.ok("@wait 7d")
    assert clocked.timers() == []
    resumed = await clocked.ok("/campaign resume")
    assert resumed["data"]["held_seconds"] == 7 * 86400
    await clocked.ok("@wait 1h 59m")
    assert clocked.timers() == []
    await clocked.ok("@wait 1m")
    assert [f["data"]["timer"] for f in clocked.timers()] == ["nudge"]
    await clocked.ok("@wait 2h")
    assert [f["data"]["timer"] for f in clocked.timers()] == ["deadline"]


async def test_due_while_down_fires_at_start_exactly_once(tmp_path: Path, registry: Registry) -> None:
    db = tmp_path / "restart.sqlite3"
    first = await _open(db, registry)
    for line in ("@as Gwen", "/campaign start ruleset:tally name:Crows", "@as Pat", "/tally create name:Pip"):
        await first.ok(line)
    await first.ok("@gm")
    await first.ok("/tally ask names:Pip")
    await first.table.close()

    later = "2030-01-05T12:00:00+00:00"
    second, third = await _open(db, registry, later), await _open(db, registry, later)
    try:  # two processes on one file look at once: each timer fires in exactly one of them
        assert await second.table.tick() + await third.table.tick() == 1
        fired = second.timers() + third.timers()
        assert [f["data"]["timer"] for f in fired] == ["deadline"]  # its nudge came too late to say anything
        assert await second.table.tick() == 0 and await third.table.tick() == 0
    finally:
        await second.table.close()
        await third.table.close()


async def test_a_crash_in_the_middle_leaves_the_timer_due(
    clocked: Console, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, registry: Registry
) -> None:
    await clocked.ok("/campaign settings key:nudge value:0")
    await clocked.ok("/tally ask names:Pip kind:response")
    tx_class = write_tx_class(clocked.table.bot.service.store)
    real = tx_class.claim_timer

    def crash(self: WriteTx, timer_id: int, at: str) -> None:
        real(self, timer_id, at)
        raise RuntimeError("the power went out mid-transaction")

    monkeypatch.setattr(tx_class, "claim_timer", crash)
    await clocked.ok("@wait 2h")
    assert clocked.timers() == []
    assert [w["who"] for w in (await clocked.ok("/campaign waiting"))["data"]["waits"]] == ["Pip"]
    monkeypatch.setattr(tx_class, "claim_timer", real)
    await clocked.ok("@wait 1m")
    (deadline,) = clocked.timers()
    assert deadline["data"]["ran"] == "pass"
    await clocked.ok("@wait 1d")
    assert clocked.timers() == []


def test_the_command_line_console_has_a_virtual_clock(tmp_path: Path) -> None:
    script = "@wait 90m\n@wait soon\n@wait 1d\n"
    first, bad, second = run_console(script, tmp_path, args=("--clock", "2030-01-01T00:00:00+00:00"))
    assert first["data"] == {"now": "2030-01-01T01:30:00+00:00", "fired": 0} and first["ok"]
    assert not bad["ok"] and "not a duration" in bad["text"]
    assert second["data"]["now"] == "2030-01-02T01:30:00+00:00"


async def _due_times(console: Console) -> list[tuple[str, int, str | None]]:
    """Every timer of the file, as the schedule will read it: (kind, due, fired or not)."""
    rows = await fetch(console.table.bot.service.store, "SELECT kind, due, fired_at FROM timers ORDER BY id")
    return [(row[0], row[1], row[2]) for row in rows]


async def test_undoing_a_resume_puts_the_timers_and_deadlines_back_and_pauses_again(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    before_timers = await _due_times(clocked)
    (before_wait,) = (await clocked.ok("/campaign waiting"))["data"]["waits"]
    await clocked.ok("/campaign pause")
    await clocked.ok("@wait 3d")
    resumed = await clocked.ok("/campaign resume")
    assert resumed["data"]["held_seconds"] == 3 * 86400
    assert [due for _, due, _ in await _due_times(clocked)] == [due + 3 * 86400 for _, due, _ in before_timers]
    undone = await clocked.ok("/campaign undo")
    assert undone["data"]["command"] == "campaign resume"
    assert await _due_times(clocked) == before_timers  # exactly as before the resume
    waiting = (await clocked.ok("/campaign waiting"))["data"]
    assert waiting["paused"] and waiting["waits"][0]["deadline"] == before_wait["deadline"]
    await clocked.ok("@wait 2d")
    assert clocked.timers() == []  # paused again: nothing fires
    again = await clocked.ok("/campaign resume")  # 5 days since the pause began: moved on once, not twice
    assert again["data"]["held_seconds"] == 5 * 86400
    assert [due for _, due, _ in await _due_times(clocked)] == [due + 5 * 86400 for _, due, _ in before_timers]
    await clocked.ok("@wait 1h 59m")
    assert clocked.timers() == []
    await clocked.ok("@wait 1m")
    assert [f["data"]["timer"] for f in clocked.timers()] == ["nudge"]


async def test_undoing_a_resume_after_a_timer_fired_is_refused_and_changes_nothing(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("/campaign pause")
    await clocked.ok("@wait 1d")
    await clocked.ok("/campaign resume")
    await clocked.ok("@wait 2h")
    assert [f["data"]["timer"] for f in clocked.timers()] == ["nudge"]  # the reminder went out
    timers = await _due_times(clocked)
    refused = await clocked.undo(ok=False)  # a timer posted since: asked first, then refused
    assert "already fired" in refused["text"] and "/campaign pause" in refused["text"]
    assert await _due_times(clocked) == timers
    assert not (await clocked.ok("/campaign waiting"))["data"]["paused"]
    await clocked.ok("@wait 2h")
    assert [f["data"]["timer"] for f in clocked.timers()] == ["deadline"]  # the schedule goes on as it was


async def test_undoing_a_pause_lets_what_came_due_fire(clocked: Console) -> None:
    await clocked.ok("/tally ask names:Pip")
    timers = await _due_times(clocked)
    await clocked.ok("/campaign pause")
    await clocked.ok("@wait 5h")
    assert clocked.timers() == []
    undone = await clocked.ok("/campaign undo")
    assert undone["data"]["command"] == "campaign pause"
    assert await _due_times(clocked) == timers  # a pause moves nothing, so there is nothing to put back
    await clocked.ok("@wait 1m")  # as if there had been no pause: the deadline passed, so it acts now
    assert [f["data"]["timer"] for f in clocked.timers()] == ["deadline"]


async def test_a_resume_undone_by_number_keeps_a_later_wait_s_own_timers(clocked: Console) -> None:
    """Asking Ozzy ends Pip's wait: its timers go, and on SQLite Ozzy's new ones take their ids (SQLite reuses
    the largest id after a delete). Undoing the resume must still leave Ozzy's timers alone: a timer is put
    back only if it is the one the resume moved (its id and the due time the resume gave it)."""
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("/campaign pause")
    await clocked.ok("@wait 1d")
    await clocked.ok("/campaign resume")
    shifted = await _due_times(clocked)
    await clocked.ok("/tally ask names:Ozzy kind:response")  # a wait that began after the resume
    later = await _due_times(clocked)
    assert later and all(timer not in shifted for timer in later)  # Pip's timers are gone; these are Ozzy's
    events = (await clocked.ok("/campaign log"))["data"]["events"]
    resume_id = next(e["id"] for e in events if e["command"] == "campaign resume")
    await clocked.undo(f"/campaign undo event:{resume_id}")  # the ask does not depend on it
    assert await _due_times(clocked) == later  # Ozzy's own timers: untouched
    assert (await clocked.ok("/campaign waiting"))["data"]["paused"]  # and the campaign is paused again


async def test_undoing_a_resume_saved_without_its_record_is_refused(clocked: Console) -> None:
    """A resume logged by an older version kept only how long the pause lasted: its undo cannot be exact."""
    await clocked.ok("/tally ask names:Pip")
    await clocked.ok("/campaign pause")
    await clocked.ok("@wait 1d")
    await clocked.ok("/campaign resume")
    timers = await _due_times(clocked)
    store = clocked.table.bot.service.store
    # as an older version logged it
    await execute(store, "UPDATE events SET result = ? WHERE command = 'campaign resume'", '{"held_seconds": 86400}')
    refused = await clocked.fails("/campaign undo")
    assert "cannot put the timers back exactly" in refused["text"] and "/campaign pause" in refused["text"]
    assert await _due_times(clocked) == timers
    assert not (await clocked.ok("/campaign waiting"))["data"]["paused"]
