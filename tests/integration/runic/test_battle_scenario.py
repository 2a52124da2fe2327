"""Issue 14's console scenario: tests/scenarios/runic_battle.txt through `python -m bot console --json --seed 14`.

A held missile (refusing other castings, surviving a Blocking spell and a hurt caster's Will roll, launched with
its damage rolled), one Blocking spell per turn and none against a critical hit, and a ward inscribed with its
trigger, set off, and brought back by `/campaign undo`. The GM's dice decide every roll the story turns on.
"""

from __future__ import annotations

import pytest

from tests.support.scenario import by_command, run_scenario

SEED = 14
SCENARIO = "runic_battle.txt"
REFUSED = {
    '/runic cast spell:"Fire Trap"': "Firebolt is held in hand (missile): you cannot cast another spell.",
    "/runic cast spell:Parry instant:true": "only one Blocking spell per turn",
    "/runic cast spell:Parry instant:true critical_hit:true": "cannot attempt a Blocking spell against a critical hit",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(SCENARIO, tmp_path_factory.mktemp("battle"), seed=SEED)


def one(results: list[dict], command: str) -> dict:
    found = [r for r in results if r["command"] == command]
    assert len(found) == 1, command
    return found[0]


def test_every_line_runs_and_only_the_impossible_are_refused(results: list[dict]) -> None:
    refused = {r["command"]: r["text"] for r in results if not r["ok"]}
    assert set(refused) == set(REFUSED)
    for command, says in REFUSED.items():
        assert says in refused[command]


def test_the_missile_is_held_then_launched(results: list[dict]) -> None:
    defined = one(results, '/runic spell define name:Firebolt words:In-Flam type:missile parameters:"damage: 2d '
                  'burning" known:true')["data"]  # fmt: skip
    assert defined["energy"] == 2  # at most Magery 3
    cast = one(results, '/runic cast mage:Morgan spell:Firebolt dice:"3 3 3"')["data"]
    assert cast["worked"] and cast["damage"] is None
    assert cast["held"] == {"name": "Firebolt", "type": "missile", "energy": 2, "damage_dice": "2d",
                            "damage_type": "burning", "effect": ""}  # fmt: skip
    parry = one(results, '/runic cast mage:Morgan spell:Parry instant:true dice:"1 2 3"')["data"]
    assert parry["worked"] and parry["skill"]["effective"] == 6 and parry["held"] is None
    hurt = one(results, '/runic concentration mage:Morgan event:injured injury:3 dice:"4 3 2"')["data"]
    assert hurt["hp"] == 9 and hurt["missile"]["roll"]["dice"] == [4, 3, 2] and not hurt["missile"]["went_off"]
    launch = one(results, '/runic held launch mage:Morgan attack_skill:13 modifier:-2 dice:"3 4 4 5 6"')["data"]
    assert launch["to_hit"]["skill"] == 11 and launch["hit"]
    assert (launch["damage"]["dice"], launch["damage"]["total"], launch["held"]) == ([5, 6], 11, None)


def test_turns_count_blocking_spells(results: list[dict]) -> None:
    assert [r["data"]["turn"] for r in by_command(results, "/runic turn")] == [1, 2, None]


def test_a_ward_with_its_trigger_then_undone(results: list[dict]) -> None:
    ward = one(results, '/runic lasting inscribe mage:Morgan name:"Gate Ward" spell:"Fire Trap" dice:"3 3 4"')
    data = ward["data"]
    assert (data["cost"], data["mp"]) == (6, {"before": 55, "after": 49})  # Fire Trap 5 + Des-Kal-Bet 1
    lasting = data["lasting"]
    assert (lasting["trigger"], lasting["duration"], lasting["form"]) == ("Des-Kal-Bet", "lasting", "ward")
    assert "Lasting spells: 1 of 6 (twice Magery)" in ward["text"]
    fired = one(results, '/runic lasting trigger mage:Morgan name:"Gate Ward"')["data"]
    assert fired["spent"] and len(fired["damage"]["dice"]) == 3
    undone = one(results, "/campaign undo")["data"]
    assert undone["command"].startswith("runic lasting trigger")
    sheet = by_command(results, "/runic mage show")[-1]
    assert "Gate Ward: Fire Trap (ward, lasting, trigger Des-Kal-Bet)" in sheet["text"]
    assert [item["name"] for item in sheet["data"]["sheet"]["lasting"]] == ["Gate Ward"]
