"""A spell's boost and contests against it (M28, P-G19, P-G22, G42)."""

from __future__ import annotations

import pytest

from rules.awakened.sheet import AwakenedSettings
from rules.base import RuleError
from tests.rules.awakened.conftest import Game


def test_a_boost_guarantees_the_minimum_and_lends_its_again(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Might", arcana="Forces", aspect="vulgar")
    out = game.act("roll", mode="boost", mage="Ash", spell="Might", pool=3, rolls=[8, 2, 1, 4])
    assert out.data["roll"]["again"] == 8 and out.data["roll"]["dice"][0]["faces"] == [8, 4]
    assert (out.data["roll"]["successes"], out.data["successes"]) == (1, 3)  # never below the vulgar minimum
    assert out.data["outcome"] == "success"


def test_a_boosted_chance_die_never_fails_dramatically(game: Game) -> None:
    """P-G22: the outcome is judged on the final count; the raw roll is shown as rolled, with no verdict."""
    game.mage()
    game.act("spell cast", spell="Might", arcana="Forces", aspect="vulgar")
    chance = game.act("roll", mode="boost", mage="Ash", spell="Might", pool=0, rolls=[1])
    assert chance.data["roll"]["chance_die"] and chance.data["roll"]["successes"] == 0
    assert "outcome" not in chance.data["roll"]
    assert (chance.data["successes"], chance.data["outcome"]) == (3, "success")
    assert "dramatic" not in chance.card.description
    assert "chance die: [1] = **0** successes" in chance.card.description
    assert "The boost guarantees 3 successes: **3 successes**." in chance.card.description
    game.act("spell cast", spell="Glimpse", arcana="Life", aspect="sensory")
    one = game.act("roll", mode="boost", mage="Ash", spell="Glimpse", pool=1, rolls=[3])
    assert "The boost guarantees 1 success: **1 success**." in one.card.description
    many = game.act("roll", mode="boost", mage="Ash", spell="Might", pool=5, rolls=[8, 8, 8, 8, 8, 1, 1, 1, 1, 1])
    assert (many.data["successes"], many.data["outcome"]) == (5, "exceptional_success")
    assert "**5 successes** (an exceptional success)." in many.card.description


@pytest.mark.parametrize(
    ("against", "automatic", "rolled", "spell_prevails"),
    [
        ("tenacity", False, 2, True),  # a dispel needs more than Tenacity 2: ties hold the status quo
        ("tenacity", False, 3, False),
        ("hindrance", False, 2, True),
        ("hindrance", True, 2, False),  # an otherwise automatic action needs only as many (l.235)
        ("potency", False, 2, False),  # Potency must beat the resistance
        ("potency", False, 1, True),
    ],
)
def test_contests_at_their_edges(game: Game, against: str, automatic: bool, rolled: int, spell_prevails: bool) -> None:
    game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    out = game.act(
        "roll", mode="contest", mage="Ash", spell="Veil", against=against, automatic=automatic, successes=rolled
    )
    assert out.data["spell_prevails"] is spell_prevails


def test_ties_house_rule_and_shaped_tenacity(book) -> None:
    game = Game(book, AwakenedSettings(contest_ties="attacker"))
    game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    assert not game.act("roll", mode="contest", mage="Ash", spell="Veil", successes=2).data["spell_prevails"]
    game.act("spell shape", spell="Veil", action="reflexive", rolls=[8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    out = game.act("roll", mode="contest", mage="Ash", spell="Veil", pool=2, rolls=[9, 10, 1])
    assert out.data["spell_stands"] == 3 and out.data["opposing"] == 2 and out.data["spell_prevails"]


def test_sensory_spells_cannot_be_dispelled(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="See", arcana="Life", aspect="sensory")
    with pytest.raises(RuleError, match="cannot be countered or dispelled"):
        game.act("roll", mode="contest", mage="Ash", spell="See", successes=5)
