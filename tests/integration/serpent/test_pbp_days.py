"""Issue 13's "Done when" for Serpent's Tongue: ``tests/scenarios/serpent_pbp_days.txt`` through the real CLI.

A battle in play-by-post over four virtual days: pings only for the players waited on, a nudge, response
windows that close at their deadline as a pass, an auto-pass, and a restart. The lines before the restart
marker run in one console process; the rest in a second process on the same database three days later
(the bot was down); then a third process at that same moment finds nothing left to fire.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.scenario import SCENARIOS, run_console

NAME = "serpent_pbp_days.txt"
LATER = "2026-11-04T12:00:00+00:00"  # three days after the scenario clock (tests.support.scenario)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], list[dict], list[dict]]:
    before, marker, after = (SCENARIOS / NAME).read_text(encoding="utf-8").partition("# ==== restart")
    assert marker, "the scenario has a restart marker"
    after = after.partition("\n")[2]  # the rest of the marker's line is its comment
    tmp = tmp_path_factory.mktemp("pbp_days")
    db = tmp / "days.sqlite3"
    first = run_console(before, tmp, db=db)
    second = run_console(after, tmp, db=db, args=("--clock", LATER))
    third = run_console("", tmp, db=db, args=("--clock", LATER))
    return first, second, third


def commands(results: list[dict]) -> list[dict]:
    """What a player typed or a timer posted; not the console's own directives."""
    return [r for r in results if not r["command"].startswith("@") or r["command"].startswith("@timer")]


def step(results: list[dict], command: str, nth: int = 0) -> dict[str, Any]:
    return [r for r in results if r["command"] == command][nth]


def test_every_line_runs(played: tuple[list[dict], list[dict], list[dict]]) -> None:
    first, second, third = played
    assert [r for r in first + second if not r["ok"]] == []
    assert third == []  # the third process, at the same moment: every due timer already fired


def test_pings_only_for_whom_the_table_waits_on(played: tuple[list[dict], list[dict], list[dict]]) -> None:
    first, _, _ = played
    pinged = [(r["command"], r["pings"]) for r in commands(first) if "pings" in r]
    assert pinged == [
        ("/serpent battle join team:Moon", ["GM"]),  # two teams: the GM may run the round
        ('/serpent battle round resonance:10 rolloff:"White, Black, Grey"', ["White", "Grey", "Black"]),  # prepare
        ("/serpent prepare spells:Fireball", ["White"]),  # the last to prepare: White's turn begins
        ("/serpent cast spell:Fireball target:Black", ["Grey"]),  # White auto-passes; Black holds no Response
        ("@timer nudge", ["Grey"]),
        ("@timer deadline", ["Black"]),  # the window closed: Black's turn begins, and pings him alone
        ("@timer nudge", ["Black"]),
    ]
    # nothing else pinged anyone: setup, settings, joins, the other preparations, /campaign waiting
    quiet = [r["command"] for r in commands(first) if "pings" not in r]
    assert "/campaign waiting" in quiet and '/serpent prepare spells:"Dissolve Tissue"' in quiet


def test_auto_pass_and_the_window_that_closes_at_its_deadline(
    played: tuple[list[dict], list[dict], list[dict]],
) -> None:
    first, _, _ = played
    cast = step(first, "/serpent cast spell:Fireball target:Black")
    (auto,) = [e for e in cast["data"]["events"] if e["type"] == "auto_pass"]
    assert (auto["magi"], auto["mode"]) == ("White", "allies")
    window = cast["data"]["battle"]["window"]
    assert window["effect"] == "Fireball"

    nudge, deadline, turn_nudge = [r for r in first if r.get("trigger") == "timer"]
    assert nudge["data"] == {
        "timer": "nudge",
        "wait": f"window {window['id']}: Grey",
        "who": "Grey",
        "deadline": "2026-11-01T12:45:00+00:00",  # 45 minutes, nudged at half time (after the first @wait 30m)
    }
    assert first.index(nudge) == first.index(step(first, "@wait 30m")) + 1
    assert deadline["data"]["timer"] == "deadline" and deadline["data"]["ran"] == "battle close-window"
    assert (
        deadline["data"]["who"] == "Grey" and "Grey did not answer Fireball in time, so they passed" in deadline["text"]
    )
    assert deadline["data"]["battle"]["window"] is None
    assert deadline["data"]["battle"]["beings"]["Black"]["essence"] < 12  # the Fireball landed

    waiting = step(first, "/campaign waiting")["data"]["waits"]
    assert [(w["who"], w["kind"], w["since"], w["deadline"]) for w in waiting] == [
        ("Black", "turn", "2026-11-01T12:50:00+00:00", "2026-11-02T12:50:00+00:00")
    ]
    assert turn_nudge["data"]["who"] == "Black" and turn_nudge["data"]["timer"] == "nudge"


def test_after_the_restart_due_timers_fire_exactly_once(played: tuple[list[dict], list[dict], list[dict]]) -> None:
    _, second, third = played
    # at start, the second process fires Black's turn deadline (due while the bot was down), once
    at_start = second[0]
    assert at_start["command"] == "@timer deadline" and at_start["trigger"] == "timer"
    assert at_start["data"]["who"] == "Black" and at_start["data"]["rule"] == "gm"
    assert at_start["pings"] == ["GM"]  # turn_timeout: gm hands it to the GM, pinging the GM alone
    timers = [r for r in second + third if r.get("trigger") == "timer"]
    assert [(t["data"]["timer"], t["data"]["who"]) for t in timers] == [
        ("deadline", "Black"),
        ("nudge", "Grey"),
        ("deadline", "Grey"),
    ]
    # the wait stays, without a deadline, until the game moves on
    (wait,) = step(second, "/campaign waiting")["data"]["waits"]
    assert (wait["who"], wait["deadline"]) == ("Black", None)


def test_after_the_restart_an_enemy_spell_asks_both_and_closes_on_time(
    played: tuple[list[dict], list[dict], list[dict]],
) -> None:
    _, second, _ = played
    pinged = [(r["command"], r["pings"]) for r in commands(second) if "pings" in r]
    assert pinged == [
        ("@timer deadline", ["GM"]),
        ("/serpent cast spell:Fireball target:White", ["White", "Grey"]),
        ("@timer nudge", ["Grey"]),
        ("@timer deadline", ["Grey"]),  # Grey passed by the deadline; her own turn begins and pings her
    ]
    closed = [r for r in second if r.get("trigger") == "timer"][-1]
    assert closed["data"]["ran"] == "battle close-window" and closed["data"]["battle"]["window"] is None
    (wait,) = step(second, "/campaign waiting", 1)["data"]["waits"]
    assert (wait["who"], wait["kind"], wait["deadline"]) == ("Grey", "turn", "2026-11-05T12:45:00+00:00")
