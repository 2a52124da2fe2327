"""`/saga odds` against brute force: every order of a small deck, drawn exactly as steps 4 and 5 draw."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from rules.saga.area import kismet
from rules.saga.harmony import card_order
from rules.saga.odds import next_draw_odds
from rules.saga.state import SagaSettings
from tests.rules.saga.helpers import ctx, make_table, run

DECK = """
card = [
 {name = "Tiny Tale", type = "story", cost = "start", glyph = "spring", harmonics = "B"},
 {name = "Tiny Hero", type = "hero", cost = "start", glyph = "summer", harmonics = "R", source_bonus = 0},
 {name = "Tiny Knife", type = "item", cost = "start", glyph = "autumn", harmonics = "Y", attack = 1},
 {name = "Tiny Town", type = "place", cost = "start", glyph = "spring", harmonics = "B V"},
 {name = "Tiny Attic", type = "place", subtypes = ["room"], cost = "start", glyph = "spring", harmonics = "G"},
 {name = "Tiny A", type = "item", cost = 0, glyph = "spring", harmonics = "G"},
 {name = "Tiny B", type = "item", cost = 0, glyph = "summer", harmonics = "V"},
 {name = "Tiny C", type = "item", cost = 0, glyph = "spring", harmonics = "R"},
 {name = "Tiny D", type = "item", cost = 0, glyph = "autumn", harmonics = "B Y"},
 {name = "Tiny E", type = "item", cost = 0, harmonics = "G"},
 {name = "Tiny F", type = "item", cost = 0, glyph = "new-winter"},
 {name = "Tiny G", type = "item", cost = 0, glyph = "spring", harmonics = "V G"},
]
"""


def started(settings: SagaSettings | None = None):
    table = make_table(3, settings)
    run(table, "card import", text=DECK)
    run(table, "start", seed=11)
    return table


def brute_force(table, destination: str) -> tuple[Fraction, Fraction, Fraction, int]:
    """Every order of the deck: move, draw (step 4 into hand, step 5 into the action pile), check."""
    deck = list(ctx(table).game.deck)
    good = harmonic = bad = 0
    orders = list(permutations(deck))
    for order in orders:
        trial = table.state.model_copy(deep=True)
        table_copy = type(table)(**{**table.__dict__, "state": trial})
        trial.game.deck = list(order)
        run(table_copy, "move", to=destination)
        if trial.game.step == 3:
            run(table_copy, "continue")
        c = ctx(table_copy)
        hero = c.game.heroes[0]
        result = c.game.luck[hero.name].result
        good += result == "good"
        bad += result == "bad"
        cards = kismet(c, hero)
        harmonic += all(cards) and card_order([x for x in cards if x]).harmonic
    total = len(orders)
    return Fraction(good, total), Fraction(bad, total), Fraction(harmonic, total), total


def test_odds_match_every_order_of_the_deck() -> None:
    table = started()
    game = ctx(table).game
    assert len(game.deck) == 5 and len(game.hand) == 1  # source limit 1 + 0
    rows = next_draw_odds(ctx(table))
    (row,) = rows  # one destination from the town: its attic
    assert row.place == "Tiny Attic"
    good, bad, harmonic, orders = brute_force(table, "Tiny Attic")
    assert orders == 120
    assert (row.good, row.bad, row.harmonic) == (good, bad, harmonic)
    assert row.good + row.bad + row.none == 1


def test_odds_follow_the_house_rules() -> None:
    """Without attached sharing the attic no longer carries its town's colors: the odds change, and still agree."""
    settings = SagaSettings(attached_sharing=False, kismet_order="place-luck-action")
    table = started(settings)
    (row,) = next_draw_odds(ctx(table))
    good, bad, harmonic, _ = brute_force(table, "Tiny Attic")
    assert (row.good, row.bad, row.harmonic) == (good, bad, harmonic)


def test_no_odds_once_the_action_card_is_drawn() -> None:
    table = started()
    run(table, "move", to="Tiny Attic")
    assert next_draw_odds(ctx(table)) == []
