"""`/runic preview`: exact odds of a casting, through the real procedure, changing nothing (issue 15)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.dice.odds import check_odds
from rules.runic.preview import faces_for
from tests.conftest import Console

SETUP = [
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "/runic mage word mage:Merlin word:Ort skill:14",
    "/runic mage word mage:Merlin word:Sanct skill:14",
    "/runic spell define mage:Merlin name:Sleep words:Ort-Sanct resisted:HT known:true",
    "@as Oz",
    "/runic mage create name:Nimue magery:1 iq:12 thaumatology:12",
    "@as Pat",
]


@pytest.fixture
async def camelot(console: Console) -> Console:
    for line in SETUP:
        await console.ok(line)
    return console


def test_faces_for_every_total() -> None:
    for total in range(3, 19):
        faces = faces_for(total)
        assert sum(faces) == total and all(1 <= face <= 6 for face in faces)


async def test_outcome_odds_are_the_exact_3d6_odds_and_nothing_changes(camelot: Console) -> None:
    before = await camelot.ok("/runic mage show mage:Merlin")
    log_before = await camelot.ok("/campaign log")
    shown = await camelot.ok("/runic preview mage:Merlin spell:Sleep target:Nimue")
    assert shown["ephemeral"]
    data = shown["data"]
    odds = check_odds(data["effective"])
    outcomes = {name: Fraction(value["chance"]) for name, value in data["outcomes"].items()}
    assert outcomes["critical_success"] == odds.critical_success
    assert outcomes["critical_success"] + outcomes["success"] == odds.success
    assert outcomes["critical_failure"] == odds.critical_failure
    assert sum(outcomes.values()) == 1
    assert data["outcomes"]["success"]["pays"] == 3 and data["outcomes"]["critical_success"]["pays"] == 0
    assert data["outcomes"]["failure"]["pays"] == 1  # ruling 4
    nimue = {k: Fraction(v) for k, v in data["subjects"]["Nimue"].items()}
    assert nimue["overcome"] + nimue["resists"] == odds.success  # the rest: the casting itself fails
    assert (await camelot.ok("/runic mage show mage:Merlin"))["data"] == before["data"]
    assert (await camelot.ok("/campaign log"))["data"] == log_before["data"]


async def test_below_zero_every_outcome_owes_a_calamity_check_with_each_rows_chance(camelot: Console) -> None:
    await camelot.ok("@gm")
    await camelot.ok("/runic adjust character:Merlin field:mp value:-3 reason:drained")
    await camelot.ok("@as Pat")
    data = (await camelot.ok("/runic preview mage:Merlin spell:Sleep boost:4 target:Nimue"))["data"]
    calamity = data["calamity"]
    assert Fraction(calamity["owed"]) == 1  # MP below zero: a check on every casting (ruling 3)
    assert sum(Fraction(p) for p in calamity["rows"].values()) == 1
    assert data["outcomes"]["success"]["mp_after"] == -14  # 11 paid from -3


async def test_a_player_cannot_preview_anothers_mage(camelot: Console) -> None:
    await camelot.ok("@as Oz")
    refused = await camelot.fails("/runic preview mage:Merlin spell:Sleep target:Nimue")
    assert "belongs to another player" in refused["text"]
