"""Issue 10's console scenario: tests/scenarios/realm_three_days.txt through `python -m bot console --json`.

Three days, two spellcasters: enchanting, a combat with two spells in speed order and one canceled, a day
spell expiring at the next sunset, and a permanent spell going inert and energized by a color chit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.scenario import SCENARIOS, run_scenario

SEED = 10
SCENARIO = "realm_three_days.txt"


def _lines() -> list[str]:
    text = (SCENARIOS / SCENARIO).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(SCENARIO, tmp_path_factory.mktemp("realm"), seed=SEED)


def only(results: list[dict], command: str) -> list[dict]:
    return [r["data"] for r in results if r["command"].startswith(command)]


def test_every_line_runs(results: list[dict]) -> None:
    assert [r["command"] for r in results] == _lines()
    assert all(r["ok"] for r in results), [r["text"] for r in results if not r["ok"]]


def test_setup_import_and_enchanting(results: list[dict]) -> None:
    assert only(results, "/realm spell import")[0]["imported"] == ["Curse", "Haste", "Blind"]
    enchanted = only(results, "/realm enchant")
    assert [(e["character"], e["chit"], e["color"]) for e in enchanted] == [
        ("Witch", "MAGIC V3*", "black"),
        ("Witch", "MAGIC V3* #2", "black"),
        ("Wizard", "MAGIC V5", "black"),
    ]


def test_day_13_speed_order_and_cancellation(results: list[dict]) -> None:
    fiery, blind = only(results, "/realm castable")
    assert not fiery["castable"]
    assert {c["check"] for c in fiery["checks"] if not c["ok"]} == {
        "spell_defined",
        "spell_known",
        "ritual_type",
        "color",
    }
    assert blind["castable"] and blind["speed"] == 0
    assert blind["colors_present"] == [{"color": "purple", "source": "Purple Amulet (item)"}]
    wizard, witch = only(results, "/realm cast ")[:2]
    assert wizard["speed"] == 0 and witch["speed"] == 4
    assert [c["source"] for c in witch["colors_present"]] == ["Purple Amulet (item)", "your color chit"]
    first = only(results, "/realm resolve")[0]
    assert [(o["spell"], o["speed"]) for o in first["order"]] == [("Blind", 0), ("Curse", 4)]
    assert first["canceled"] == [{"id": 2, "by": 1}] and first["in_effect"] == [1]
    assert first["expired"][0]["fatigued"] == ["Witch's MAGIC V4*"]
    end = only(results, "/realm combat end")[0]
    assert end["expired"][0]["spell"] == "Blind" and end["fatigued"] == ["Wizard's MAGIC IV4"]


def test_day_14_haste_and_curse(results: list[dict]) -> None:
    day14 = only(results, "/realm day next")[0]
    assert (day14["day"], day14["colors"]) == (14, ["grey"])
    haste = only(results, "/realm cast ")[2]
    assert haste["colors_present"][0] == {"color": "grey", "source": "day 14"}
    midnight = only(results, "/realm day midnight")[0]
    assert midnight["inert"] == ["#4 Curse"]
    board = only(results, "/realm spells")[1]
    assert [(s["spell"], s["status"], s["when"]) for s in board["spells"]] == [
        ("Haste", "active", "expires at sunset of day 15"),
        ("Curse", "inert", "inert; active again on day 35, the next black day; or a black color chit in Ruins 5"),
    ]


def test_day_15_energized_by_another_players_chit_then_sunset_and_midnight(results: list[dict]) -> None:
    energized = only(results, "/realm energize")[0]
    assert energized == {"id": 4, "spell": "Curse", "active_until": 15, "by": "Wizard's color chit MAGIC V5",
                         "character": "Wizard", "chit": "MAGIC V5"}  # fmt: skip
    awake = only(results, "/realm spells")[2]
    assert [s["when"] for s in awake["spells"]] == ["expires at sunset of day 15", "active until midnight of day 15"]
    sunset = only(results, "/realm day sunset")[0]
    assert [e["spell"] for e in sunset["expired"]] == ["Haste"] and sunset["fatigued"] == ["Witch's MAGIC II2"]
    assert only(results, "/realm day midnight")[1]["inert"] == ["#4 Curse"]
    last = only(results, "/realm spells")[3]["spells"]
    assert [(s["id"], s["status"]) for s in last] == [(4, "inert")]
    witch = only(results, "/realm character show")[0]["sheet"]
    states = {c["label"]: c["state"] for c in witch["chits"]}
    assert states == {"MAGIC V3*": "fatigued", "MAGIC V3* #2": "fatigued", "MAGIC V4*": "fatigued",
                      "MAGIC V4* #2": "committed", "MAGIC II2": "fatigued", "MOVE L3": "active"}  # fmt: skip


def test_it_replays_identically(results: list[dict], tmp_path: Path) -> None:
    again = run_scenario(SCENARIO, tmp_path, seed=SEED)
    assert [r["data"] for r in again] == [r["data"] for r in results]
