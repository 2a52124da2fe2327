"""Issue 14 at the console: ``tests/scenarios/serpent_priority.txt`` through ``python -m bot console --json``.

A Siphon into a Ward (glossary "Siphon"), the caster's priority and her Response to her
own spell (glossary "Priority", "Response"), and an Area Abjuration (glossary "Abjuration
Spell"), each asserted from the JSON ``data``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.serpent.test_act1_console import Replay
from tests.support.scenario import SCENARIOS, run_scenario

NAME = "serpent_priority.txt"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(NAME, tmp_path_factory.mktemp("priority"), seed=1)


@pytest.fixture
def replay(results: list[dict]) -> Replay:
    return Replay(results)


def events(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in data["events"] if e["type"] == kind]


def test_every_line_runs(results: list[dict]) -> None:
    lines = [
        line.strip()
        for line in (SCENARIOS / NAME).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [r["command"] for r in results] == lines
    assert [r["command"] for r in results if not r["ok"]] == []


def test_a_siphon_into_a_ward_gives_only_what_got_through(replay: Replay) -> None:
    cast = replay.after("/serpent cast spell:Leech target:Black")
    assert cast["battle"]["window"]["caster"] == "White"  # her own priority: the window waits for her
    passed = replay.after("/serpent pass")
    (siphon,) = events(passed, "siphon")
    assert (siphon["target"], siphon["energy"], siphon["amount"], siphon["gained"]) == ("Black", "Harmony", 1, 1)
    beings = replay.board()["beings"]
    assert (beings["Black"]["harmony"], beings["White"]["harmony"]) == (-1, 1)


def test_an_area_abjuration_dispels_every_spell_of_the_team(replay: Replay) -> None:
    replay.after('/serpent cast spell:"Great Unbinding" target:Moon')
    passed = replay.after("/serpent pass")
    dispelled = sorted(e["card"] for e in events(passed, "dispel"))
    assert len(dispelled) == 3
    battle = replay.board()
    assert [c for c in battle["in_play"] if c["team"] == "Moon" or c["bearer"] in ("Black", "Grey")] == []


def test_the_caster_responds_to_her_own_spell(replay: Replay) -> None:
    cast = replay.after("/serpent cast spell:Fireball target:Grey")
    window = cast["battle"]["window"]
    assert (window["effect"], window["caster"]) == ("Fireball", "White")
    board = replay.board()
    assert board["beings"]["Grey"]["essence"] == 12  # the Fireball waits for White's priority
    replay.after("/serpent exchange gain:Resonance")
    responded = replay.after('/serpent respond spell:"Universum Negation" target:Fireball')
    (dispel,) = events(responded, "dispel")
    assert dispel["refund"] == "5 Resonance"
    battle = replay.board()
    assert battle["beings"]["Grey"]["essence"] == 12 and battle["beings"]["White"]["stones"] == 1
