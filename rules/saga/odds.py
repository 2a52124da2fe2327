"""Exact odds for the next action draw (issue 11: `/saga odds`), as fractions over the deck as it stands.

The player may not see the deck's order, so the odds treat it as unknown: every
card still in the deck is equally likely to be the next action card (the hand
draws of step 4 come first, but a uniformly shuffled deck makes any one position
uniform). ``tests/rules/saga/test_odds.py`` checks this against brute-force
enumeration of every order of a small deck, drawing exactly as steps 4 and 5 do.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.saga.area import Ctx, destinations, place_view, view
from rules.saga.harmony import View, card_order, luck_check


@dataclass
class Odds:
    hero: str
    place: str
    cards: int
    good: Fraction
    bad: Fraction
    none: Fraction
    harmonic: Fraction
    good_cards: list[str]


def kismet_of(order: str, place: View, action: View | None, luck: View | None) -> list[View | None]:
    return [place, luck, action] if order == "place-luck-action" else [place, action, luck]


def odds_for(ctx: Ctx, hero_name: str, place: View, deck: list[str]) -> Odds:
    """Count, over each card the next draw could be, the luck it gives and whether the kismet cards are harmonic."""
    hero = ctx.game.hero(hero_name)
    assert hero is not None
    luck_card = view(ctx, hero.luck[0]) if hero.luck else None
    counts = {"good": 0, "bad": 0, "none": 0}
    harmonic = 0
    good_cards = []
    for name in deck:
        action = view(ctx, name)
        cards = kismet_of(ctx.settings.kismet_order, place, action, luck_card)
        result = luck_check(cards).result
        counts[result] += 1
        if result == "good":
            good_cards.append(name)
        if all(c is not None for c in cards) and card_order([c for c in cards if c]).harmonic:
            harmonic += 1
    total = len(deck) or 1
    return Odds(
        hero.name,
        place.name,
        len(deck),
        Fraction(counts["good"], total),
        Fraction(counts["bad"], total),
        Fraction(counts["none"], total),
        Fraction(harmonic, total),
        good_cards,
    )


def next_draw_odds(ctx: Ctx) -> list[Odds]:
    """For the current place (or, before step 1, every place the token may move to), per hero."""
    game = ctx.game
    if game.step > 5 or (game.step == 5 and game.pending is not None):
        return []
    if game.moved:
        places = [place_view(ctx, game.token_spot, game.token_room)]
    else:
        places = [place_view(ctx, spot, room) for spot, room, _ in destinations(ctx)] or [
            place_view(ctx, game.token_spot, game.token_room)
        ]
    open_heroes = [h.name for h in game.heroes if not any(a.hero == h.name for a in game.action)]
    return [odds_for(ctx, hero, place, list(game.deck)) for place in places for hero in open_heroes]
