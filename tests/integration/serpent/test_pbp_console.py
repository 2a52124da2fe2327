"""Issue 13 at the console: ``tests/scenarios/serpent_pbp.txt`` through ``python -m bot console --json``.

Fewer, better waits in Serpent's Tongue: auto-pass per player, a window that waits only on Magi who
could answer it (and says so when it waits on nobody), and ``pass`` kept apart from ``end-turn``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.serpent.test_act1_console import Replay
from tests.support.scenario import SCENARIOS, run_scenario

NAME = "serpent_pbp.txt"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(NAME, tmp_path_factory.mktemp("pbp"), seed=1)


@pytest.fixture
def replay(results: list[dict]) -> Replay:
    return Replay(results)


def events(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in data["events"] if e["type"] == kind]


def test_every_line_runs_but_the_double_tap(results: list[dict]) -> None:
    lines = [
        line.strip()
        for line in (SCENARIOS / NAME).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [r["command"] for r in results] == lines
    refused = [r for r in results if not r["ok"]]
    assert [r["command"] for r in refused] == ["/serpent pass"]
    assert "No response window is open, so there is nothing for Grey to pass" in refused[0]["text"]
    assert "/serpent end-turn" in refused[0]["text"]


def test_auto_pass_and_who_each_window_waits_on(replay: Replay) -> None:
    first = replay.after("/serpent cast spell:Fireball target:Black")
    (auto,) = events(first, "auto_pass")
    assert (auto["magi"], auto["effect"], auto["mode"]) == ("White", "Fireball", "allies")  # her own priority
    assert first["battle"]["window"]["effect"] == "Fireball"  # Grey had not set auto-pass yet: she is asked
    passed = replay.after("/serpent pass")
    assert passed["battle"]["window"] is None and passed["battle"]["beings"]["Black"]["essence"] == 10
    assert replay.after("/serpent autopass mode:allies")["mode"] == "allies"
    enemy = replay.after("/serpent cast spell:Fireball target:White")
    assert events(enemy, "auto_pass") == []  # an enemy's spell: allies-only auto-pass asks them both
    replay.after("/serpent pass")
    replay.after("/serpent pass")


def test_end_turn_ends_the_round_for_each(replay: Replay) -> None:
    for _ in range(3):
        ended = replay.after("/serpent end-turn")
    assert ended["battle"]["phase"] == "round_end"
    assert all(b["passed"] for b in ended["battle"]["beings"].values())


def test_a_spell_nobody_can_answer_activates_at_once_and_says_so(replay: Replay) -> None:
    cast = replay.after('/serpent cast spell:"Dissolve Tissue" target:Black')
    assert [e["magi"] for e in events(cast, "auto_pass")] == ["Grey", "White"]
    (said,) = events(cast, "no_response")
    assert said["effect"] == "Dissolve Tissue"
    assert "No one else holds a Response they could cast on Dissolve Tissue" in said["text"]
    assert cast["battle"]["window"] is None and cast["battle"]["beings"]["Black"]["essence"] == 9
