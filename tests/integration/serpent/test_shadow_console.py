"""The Sentient Shadow plays a whole battle against two Magi from a seeded console scenario (issue 5).

``tests/scenarios/serpent_shadow.txt`` runs through ``python -m bot console --json --seed 4``.
Every Encounter turn must explain itself, in the card text and in ``data.events``:
the token drawn, then each chart row tried top to bottom, with why it was skipped,
until the one it takes (and whom that targets). Its Evades say what they drew.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from rules.serpent.book import Encounter
from tests.rules.serpent.helpers import book
from tests.support.scenario import SCENARIOS, run_scenario

SEED = 4
SHADOW = "Sentient Shadow"
REASONS = re.compile(
    r"it needs (\d+) Resonance and has (\d+)|it bears no Soul/Mind Curse.*|no opponent is Focused on a spell"
)


@cache
def shadow_card() -> Encounter:
    encounter = book().encounter(SHADOW)
    assert encounter is not None
    return encounter


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario("serpent_shadow.txt", tmp_path_factory.mktemp("shadow"), seed=SEED)


def turns(results: list[dict]) -> list[tuple[dict, list[dict[str, Any]]]]:
    """Every Shadow turn: the result it happened in, and its events from the draw to the next turn or Evade."""
    found = []
    for result in results:
        events = result["data"].get("events", [])
        for index, event in enumerate(events):
            if event["type"] != "draw":
                continue
            end = next(
                (
                    j
                    for j in range(index + 1, len(events))
                    if events[j]["type"] in ("draw", "cast", "round") or events[j].get("why") == f"{SHADOW} Evade"
                ),
                len(events),
            )
            found.append((result, events[index - 1 : end]))
    return found


def test_every_line_runs(battle: list[dict]) -> None:
    lines = [
        line.strip()
        for line in (SCENARIOS / "serpent_shadow.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [r["command"] for r in battle] == lines
    assert [(r["command"], r["text"]) for r in battle if not r["ok"]] == []
    assert all("incident" not in r for r in battle)


def test_the_shadow_joins_at_full_strength_and_scales_for_the_second_magi(battle: list[dict]) -> None:
    first_round = next(r for r in battle if r["command"] == "/serpent battle round")
    shadow = first_round["data"]["battle"]["beings"][SHADOW]
    # RULING 13: Essence 10 + 2 per extra Magi, 2 actions + 1; Resonance 0 + the roll + bonus 1 + 1
    assert (shadow["essence"], shadow["full_actions"], shadow["harmony"]) == (12, 3, None)
    (roll,) = [e for e in first_round["data"]["events"] if e["type"] == "resonance"]
    assert shadow["resonance"] == roll["gain"] + 2
    assert any(e["type"] == "scale" and e["extra"] == 1 for e in first_round["data"]["events"])


def test_every_encounter_turn_explains_the_token_and_each_row(battle: list[dict]) -> None:
    charts = shadow_card().charts
    shadow_turns = turns(battle)
    assert len(shadow_turns) >= 10
    seen_reasons: set[str] = set()
    for result, events in shadow_turns:
        token, draw, *rest = events
        # the token drawn, as an automatic roll and as the decision
        assert (token["type"], token["why"], token["supplied"]) == ("token", f"{SHADOW} action", False)
        assert draw["token"] == token["color"] in ("red", "yellow")
        assert f"**{SHADOW}** draws a **{draw['token']}** token" in result["text"]
        rows = [e for e in rest if e["type"] == "row"]
        chart = charts[draw["token"]]
        # each row tried top to bottom: every one skipped with a reason, until one is taken
        assert [e["number"] for e in rows] == list(range(1, len(rows) + 1))
        assert [e["row"] for e in rows] == [row.name for row in chart[: len(rows)]]
        assert all(e["chart"] == draw["token"] for e in rows)
        *skipped, taken = rows
        assert taken["taken"] and not any(e["taken"] for e in skipped)
        for event in skipped:
            match = REASONS.fullmatch(event["why"])
            assert match, event["why"]
            if match.group(1):  # "it needs 4 Resonance and has 2": it really could not pay
                assert int(match.group(2)) < int(match.group(1)) == chart[event["number"] - 1].cost
            seen_reasons.add(event["why"].split(" and ")[0].split(" (")[0])
            line = f"{draw['token'].title()} row {event['number']} ({event['row']}): skipped, {event['why']}."
            assert line in result["text"]
        assert f"{draw['token'].title()} row {taken['number']} ({taken['row']}): taken." in result["text"]
        # whom it acts on, and why
        row = chart[taken["number"] - 1]
        effect = row.effect
        if effect is not None and effect.target in ("lowest_harmony", "team"):
            (target,) = [e for e in rest if e["type"] == "target"]
            assert target["target"]
            assert f"Target: {target['target']}" in result["text"]
        if row.roll_chart:
            (rolled,) = [e for e in rest if e["type"] == "chart"]
            assert rolled["chart"] == row.roll_chart and 1 <= rolled["die"] <= 10
        if effect is not None and effect.value_setting:
            (value,) = [e for e in rest if e["type"] == "gm_value"]
            assert value["setting"] == effect.value_setting and value["value"] in (2, 3)
    # the battle shows every kind of reason at least once
    assert {"it needs 4 Resonance", "it needs 2 Resonance", "it bears no Soul/Mind Curse"} <= seen_reasons
    assert "no opponent is Focused on a spell" in seen_reasons


def test_every_evade_says_what_it_drew(battle: list[dict]) -> None:
    evades = 0
    for result in battle:
        events = result["data"].get("events", [])
        for index, event in enumerate(events):
            if event["type"] != "evade":
                continue
            evades += 1
            if "token" in event:  # it paid 1 Resonance and drew; the token went straight back
                token = events[index - 1]
                assert (token["type"], token["why"], token["color"]) == ("token", f"{SHADOW} Evade", event["token"])
                assert event["evaded"] == (event["token"] == "red")
                verdict = "evades it" if event["evaded"] else "fails to evade"
                assert f"draws **{event['token']}** (returned to the bag) and {verdict}" in event["text"]
            else:
                assert "cannot pay 1 Resonance to Evade" in event["text"]
    assert evades >= 10


def test_the_bag_resets_when_three_red_and_one_yellow_are_out(battle: list[dict]) -> None:
    resets = 0
    out = {"red": 0, "yellow": 0}
    for result in battle:
        for event in result["data"].get("events", []):
            if event["type"] == "draw":
                out[event["token"]] += 1
                assert out["red"] <= 4 and out["yellow"] <= 2
            elif event["type"] == "bag_reset":
                assert out["red"] >= 3 and out["yellow"] >= 1
                out = {"red": 0, "yellow": 0}
                resets += 1
    assert resets >= 2


def test_the_battle_ends_with_a_winner(battle: list[dict]) -> None:
    final = battle[-1]
    assert final["command"] == "/serpent battle board"
    status = final["data"]["battle"]
    assert status["phase"] == "over"
    assert status["winner"] == "Magi"
    assert status["beings"][SHADOW]["incapacitated"] and status["beings"][SHADOW]["essence"] == 0
    assert "team Magi wins" in final["text"]
    victories = [e for r in battle for e in r["data"].get("events", []) if e["type"] == "victory"]
    assert [v["winner"] for v in victories] == ["Magi"]
