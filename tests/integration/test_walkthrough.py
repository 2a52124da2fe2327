"""The walkthrough (tests/scenarios/walkthrough.txt) through `python -m bot console --json --seed 7`.

A new table's first evening: help, a preview with its exact odds, an odds chart, a macro, a campaign ended,
exported from the archive, imported in another channel with its numbers, and one chosen change undone there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.scenario import run_scenario


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], Path]:
    folder = tmp_path_factory.mktemp("walkthrough")
    return run_scenario("walkthrough.txt", folder, seed=7), folder


def one(results: list[dict], command: str, *, last: bool = False) -> dict:
    found = [r for r in results if r["command"] == command]
    assert found, command
    return found[-1] if last else found[0]


def test_every_line_of_the_walkthrough_runs(run) -> None:
    results, _ = run
    assert [r["command"] for r in results if not r["ok"]] == []


def test_help_then_a_preview_with_exact_odds_and_an_odds_chart(run) -> None:
    results, _ = run
    assert (
        "`/campaign`" in one(results, "/help")["text"]
        and "/runic preview" in one(results, "/help command:runic")["text"]
    )
    preview = one(results, '/runic preview spell:"Flaming Staff"')
    assert "(exact)" in preview["text"] and "Critical success: 1.85% (1/54)" in preview["text"]
    assert preview["files"]  # the chart beside the odds
    odds = one(results, "/odds check skill:12")
    assert "74.07% (20/27)" in odds["text"] and odds["files"]


def test_a_macro_is_saved_and_rolled_by_name(run) -> None:
    results, _ = run
    rolled = one(results, "/macro roll name:staff")
    assert rolled["data"]["macro"] == "staff"
    assert "staff" in one(results, "/macro list")["data"]["mine"]


def test_the_archived_campaign_is_exported_then_imported_elsewhere_with_its_numbers(run) -> None:
    results, folder = run
    exported = one(results, "/campaign export archived:1")
    assert exported["data"]["events"] == 9 and (folder / "exports" / "first-light.json").exists()
    imported = one(results, "/campaign import file:exports/first-light.json")
    assert imported["data"] == {
        "campaign": "First Light",
        "ruleset": "runic",
        "characters": 2,
        "events": 9,
        "gm_ids": imported["data"]["gm_ids"],
    }
    before = one(results, "/campaign log")["data"]["events"]
    after = [r for r in results if r["command"] == "/campaign log"][1]["data"]["events"]
    shown = {e["id"]: (e["actor"], e["command"], e["summary"]) for e in before}
    assert {e["id"]: (e["actor"], e["command"], e["summary"]) for e in after if e["id"] in shown} == shown
    assert after[0]["id"] == 10 and after[0]["command"] == "campaign import"


def test_a_chosen_change_is_undone_by_its_number_after_the_import(run) -> None:
    results, _ = run
    asked = one(results, "/campaign undo event:7")
    assert asked["data"]["event"] == 7 and asked["buttons"] == ["Confirm", "Cancel"]
    undone = one(results, "@press Confirm", last=True)
    assert undone["data"]["undone_event"] == 7 and undone["data"]["command"] == "runic cast"
    characters = one(results, "/character list")["data"]["characters"]
    assert sorted(c["name"] for c in characters) == ["Merlin", "Morgana"]  # Morgana (#8) stays
    assert "MP 60" in one(results, "/character list")["text"]  # the cast's 3 MP are back
    newest = one(results, "/campaign log page:1")["data"]["events"][0]
    assert newest["id"] == 11 and newest["undoes"] == 7
