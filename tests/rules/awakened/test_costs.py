"""Ruling 14 and the declaration: base costs, factors, sympathy (P-G34), free rote copies (M37), W1, W3, W5."""

from __future__ import annotations

import pytest

from rules.awakened.sheet import AwakenedSettings
from rules.base import NeedsGMError, RuleError
from tests.rules.awakened.conftest import GM, Game


def cost(game: Game, **options) -> int:
    return game.act("spell cast", mode="cost", **options).data["cost"]


@pytest.mark.parametrize(
    ("aspect", "arcana", "method", "expected"),
    [
        ("sensory", "Forces", "improvised", 1),
        ("sensory", "Life", "improvised", 0),  # ruling Arcana only
        ("sensory", "Forces", "rote", 0),
        ("covert", "Forces", "improvised", 1),
        ("covert", "Life, Spirit", "improvised", 1),  # ruling only: no cheaper than improvised for covert
        ("covert", "Forces", "rote", 0),
        ("vulgar", "Forces", "improvised", 2),
        ("vulgar", "Spirit", "improvised", 2),
        ("vulgar", "Forces", "rote", 1),
    ],
)
def test_ruling_14_base_costs(game: Game, aspect: str, arcana: str, method: str, expected: int) -> None:
    game.mage()
    if method == "rote":
        game.act("spell cast", mode="rote", spell="R", arcana=arcana, aspect=aspect)
    assert cost(game, spell="R", arcana=arcana, aspect=aspect, method=method) == expected


def test_w1_the_books_example_costs_5_not_6(game: Game, book) -> None:
    """Vulgar improvised, aggravated damage, three targets: base 2 + 1 damage + 2 target factors."""
    game.mage()
    data = game.act(
        "spell cast", mode="cost", spell="Hellfire", arcana="Forces", aspect="vulgar", targets=3, damage="aggravated"
    ).data
    assert data["cost"] == 5
    assert [(line["label"], line["mana"]) for line in data["cost_lines"]] == [
        ("Base (vulgar improvised)", 2),
        ("Targets 3 (2 factors)", 2),
        ("Damage: aggravated", 1),
    ]
    thumb = Game(book, AwakenedSettings(base_cost="rule_of_thumb"))
    thumb.mage()
    assert cost(thumb, spell="Hellfire", arcana="Forces", aspect="vulgar", targets=3, damage="aggravated") == 6


@pytest.mark.parametrize(("targets", "factors"), [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4)])
def test_target_factors_double(game: Game, targets: int, factors: int) -> None:
    game.mage()
    assert cost(game, spell="S", arcana="Forces", aspect="covert", targets=targets) == 1 + factors


def test_w3_the_most_distant_target_decides_sympathy(game: Game) -> None:
    """Two Intimate and one Encountered: 4 sympathy factors, plus 2 target factors for three targets."""
    game.mage()
    data = game.act(
        "spell cast",
        mode="cost",
        spell="Curse",
        arcana="Forces",
        aspect="covert",
        sympathy="intimate, intimate, encountered",
        conjunctional="Space",
    ).data
    assert data["cost"] == 1 + 4 + 2
    assert data["design"]["factors"]["sympathy"] == 4 and data["design"]["factors"]["targets"] == 3


@pytest.mark.parametrize(
    ("sympathy", "need"),
    [
        ("sensory fame unnamed", 0),  # no sympathy is needed in sensory range: no modifiers (P-G34)
        ("intimate fame", 1),  # Fame counts only at Known or worse
        ("known fame", 3),
        ("intimate unnamed", 2),  # an unknown real name counts at any sympathetic level
        ("described fame unnamed", 7),
    ],
)
def test_sympathy_modifiers_at_their_edges(game: Game, sympathy: str, need: int) -> None:
    game.mage()
    data = game.act(
        "spell cast", mode="cost", spell="S", arcana="Forces", aspect="covert", sympathy=sympathy, conjunctional="Space"
    ).data
    assert data["design"]["factors"]["sympathy"] == need


def test_sympathetic_range_needs_an_arcanum_that_reaches(game: Game) -> None:
    game.mage(arcana="Forces 3, Space 2")
    with pytest.raises(RuleError, match="needs a conjunctional Arcanum that reaches it"):
        cost(game, spell="S", arcana="Forces", aspect="covert", sympathy="known")
    with pytest.raises(RuleError, match="needs a conjunctional Arcanum"):  # Space 2: sensory spells only
        cost(game, spell="S", arcana="Forces", aspect="covert", sympathy="known", conjunctional="Space")
    assert cost(game, spell="S", arcana="Forces", aspect="sensory", sympathy="known", conjunctional="Space") == 1 + 2
    with pytest.raises(RuleError, match="Unknown target cannot be reached"):
        cost(game, spell="S", arcana="Forces", aspect="sensory", sympathy="unknown", conjunctional="Space")


def test_unknown_arcana_and_missing_dots_are_refused(game: Game) -> None:
    game.mage()
    with pytest.raises(RuleError, match=r"'Fire' is not an Arcanum. The Arcana are Death, Fate"):
        cost(game, spell="S", arcana="Fire", aspect="covert")
    with pytest.raises(RuleError, match="no dots in Death"):
        cost(game, spell="S", arcana="Death", aspect="covert")
    with pytest.raises(RuleError, match="'frostbite' is not a damage factor"):
        cost(game, spell="S", arcana="Forces", aspect="covert", damage="frostbite")
    with pytest.raises(RuleError, match="Only a vulgar spell"):
        cost(game, spell="S", arcana="Forces", aspect="covert", covert_sustain=True)


def test_w5_one_free_copy_of_a_rote_inscriptions_apart(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", mode="rote", spell="Shield", arcana="Forces", aspect="covert", action="reflexive")
    first = game.act("spell cast", spell="Shield")
    assert first.data["cost"] == 0 and first.data["spell"]["free_copy"]
    safe = game.act("spell cast", spell="Shield", inscribed=True)
    assert safe.data["cost"] == 0 and not safe.data["spell"]["free_copy"]
    ally = game.act("spell cast", spell="Shield")
    assert ally.data["cost"] == 1  # max(1, base + factors)
    assert sheet.mana == 14


def test_gm_adjusts_the_cost_never_below_zero(game: Game) -> None:
    game.mage()
    with pytest.raises(NeedsGMError):
        cost(game, spell="S", arcana="Forces", aspect="vulgar", gm_cost_adjust=1)
    assert (
        game.gm(
            "spell cast", mode="cost", mage="Ash", spell="S", arcana="Forces", aspect="vulgar", gm_cost_adjust=2
        ).data["cost"]
        == 4
    )
    assert (
        game.gm(
            "spell cast", mode="cost", mage="Ash", spell="S", arcana="Forces", aspect="vulgar", gm_cost_adjust=-5
        ).data["cost"]
        == 0
    )


def test_rotes_are_saved_on_the_sheet(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", mode="rote", spell="Bolt", arcana="Forces", aspect="vulgar", damage="aggravated")
    assert [(r.name, r.method, r.factors.damage) for r in sheet.rotes] == [("Bolt", "rote", ["aggravated"])]
    assert cost(game, spell="Bolt") == 1 + 1
    assert cost(game, spell="Bolt", method="improvised") == 2 + 1  # cast improvised, it costs as improvised
    game.act("spell cast", mode="forget-rote", spell="bolt")
    assert sheet.rotes == []
    with pytest.raises(RuleError, match="not one of Ash's rotes"):
        cost(game, spell="Bolt", method="rote", arcana="Forces", aspect="vulgar")


def test_conjunctional_needs_the_dots(game: Game) -> None:
    game.mage(arcana="Forces 3, Death 2")
    with pytest.raises(RuleError, match="Death gives conjunctional benefits from 3 dots; Ash has 2"):
        cost(game, spell="S", arcana="Forces", aspect="covert", conjunctional="Death")
    out = game.act("spell cast", mode="cost", spell="S", arcana="Forces", aspect="covert", conjunctional="Forces")
    assert "imbued into forces" in out.card.fields[-1].value


def test_other_players_mage_is_out_of_reach(game: Game) -> None:
    game.mage()
    with pytest.raises(RuleError, match="belongs to another player"):
        game.act("spell cast", user=202, mage="Ash", spell="S", arcana="Forces", aspect="covert")
    assert game.gm("spell cast", mode="cost", mage="Ash", spell="S", arcana="Forces", aspect="covert").data["cost"] == 1
    _ = GM
