"""Issue 9's console scenario: tests/scenarios/awakened_scene.txt through `python -m bot console --json --seed 9`.

The GM supplies the Shaping dice; seed 9 decides the rest (the paradox roll and the oblation), so each value
below is exact. If a rules change alters how many dice a step rolls, replay the file and update both together.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.scenario import SCENARIOS, run_scenario

SEED = 9
SCENARIO = "awakened_scene.txt"
REFUSED = {  # the two lines the scene expects to be refused, and why
    "/awakened spell cast spell:Storm arcana:Forces aspect:vulgar targets:3 damage:aggravated": "Add 2 more free Mana",
    "/awakened spell sustain spell:Storm": "#1 Storm costs 5, more than Ash's Gnosis 3",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(SCENARIO, tmp_path_factory.mktemp("awakened"), seed=SEED)


def step(results: list[dict], command: str, nth: int = 0) -> dict:
    found = [r for r in results if r["command"].startswith(command)]
    return found[nth]


def test_every_line_runs_as_the_scene_expects(results: list[dict]) -> None:
    lines = [
        line.strip()
        for line in (SCENARIOS / SCENARIO).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [r["command"] for r in results] == lines
    for result in results:
        assert "incident" not in result
        if result["command"] in REFUSED:
            assert not result["ok"] and REFUSED[result["command"]] in result["text"], result
        else:
            assert result["ok"], result["text"]


def test_casting_with_free_mana(results: list[dict]) -> None:
    preview = step(results, "/awakened spell cast mode:cost spell:Storm")["data"]
    assert preview["cost"] == 5 and preview["familiarity"] == "common"  # W1 under ruling 14
    cast = step(results, "/awakened spell cast spell:Storm", 1)["data"]
    assert cast["paid"] == {
        "due": 5,
        "own": 2,
        "words_of_power": 1,
        "scour": 1,
        "hallow": "Old Oak",
        "hallow_mana": 1,
        "mana_before": 15,
        "mana_after": 13,
    }
    assert cast["willpower"] == 4 and cast["spell"]["status"] == "running"


def test_shaping_with_gm_dice_and_the_paradox_roll(results: list[dict]) -> None:
    shaped = step(results, "/awakened spell shape")
    data = shaped["data"]
    assert data["roll"]["dice"][1] == {"faces": [10, 9, 3], "rote_faces": []}
    assert data["roll"]["dice"][6] == {"faces": [5], "rote_faces": [8, 4]}
    assert (data["successes"], data["potency"], data["paradox_pool"]) == (4, 7, 3)
    assert "it counts as **7** successes (an exceptional success)" in shaped["text"]
    assert "The GM rolled these dice at the table." in shaped["text"]
    end = step(results, "/awakened time round")
    assert end["data"]["roll"]["dice"] == [
        {"faces": [8], "rote_faces": []},
        {"faces": [10, 5], "rote_faces": []},
        {"faces": [6], "rote_faces": []},
    ]
    assert end["data"]["successes"] == 2 and "[8] [10→5] [6] = **2** successes" in end["text"]
    assert "Ash (Wisdom 5) may inadvertently lengthen no paradox." in end["secret"]["text"]


def test_sustaining_until_the_limit_refuses(results: list[dict]) -> None:
    free = step(results, '/awakened spell cast spell:"Green Ward"')["data"]
    assert free["cost"] == 0 and free["spell"]["free_copy"] and free["spell"]["status"] == "sustained"
    assert step(results, "/awakened spell sustain spell:Mend")["data"]["sustained_total"] == 2
    refreshed = step(results, "/awakened spell refresh")["data"]
    assert refreshed["spell"]["window"] == [1, 2] and refreshed["paid"]["own"] == 2


def test_soul_stone_oblation_and_undo(results: list[dict]) -> None:
    stone = step(results, "/awakened soulstone")["data"]
    assert (stone["mana"], stone["mana_max"]) == (6, 14)
    oblation = step(results, "/awakened oblation")["data"]
    assert oblation["pool"] == 4 and oblation["roll"]["successes"] == 0 and oblation["earned"] == 6  # 0 + 3 + 3
    assert oblation["mana"] == 12
    undone = step(results, "/campaign undo")["data"]
    assert undone["command"] == "awakened gm adjust"
    shown = step(results, "/awakened mage show mage:Ash")["data"]["sheet"]
    assert shown["mana"] == 12 and len(shown["wounds"]) == 2  # the two scoured wounds, after their spells


def test_replays_identically(results: list[dict], tmp_path: Path) -> None:
    again = run_scenario(SCENARIO, tmp_path, seed=SEED)
    assert [r["data"] for r in again if r["command"] != "/campaign undo"] == [
        r["data"] for r in results if r["command"] != "/campaign undo"
    ]
