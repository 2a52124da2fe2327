"""A card rule's "draw n" (spec S4, F-R19) at the rules level: what it takes, where it puts it, when it may, the
hint that names it, and (hypothesis) that a draw never loses or duplicates a card."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import Table
from rules.saga import hints
from rules.saga.area import source_limit
from rules.saga.state import Game, HeroState
from tests.rules.saga.helpers import ctx, make_table, refused, run

FORD = "Cycle this card at end of turn to draw cards equal to your source limit."  # the sample Quiet Ford (W9)


def moved(**options) -> Table:
    """Seed 168, turn 1 after step 1 (at step 3, the Cellar's ~ rule): the optional window is open."""
    table = make_table(7)
    run(table, "start", deck="sample", seed=168, **options)
    run(table, "move", to="Sample Cellar")
    return table


def reported() -> Table:
    """draws:reported, turn 1 at step 8: no report waiting (test_turn.test_reported_draws' own deck)."""
    table = make_table(7)
    run(table, "start", deck="sample", draws="reported")
    run(table, "report", card="Sample Rations")
    run(table, "report", card="Sample Sling, Sample Lute, Sample Torn Banner, Sample Old Mill, Sample Ferryman")
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    run(table, "report", card="Sample Quiet Ford")
    run(table, "report", card="Sample Iron Spear")
    return table


def every_card(game: Game) -> Counter[str]:
    """The deck and every area, as one multiset."""
    names = [*game.deck, *game.hand, *game.story, *(a.name for a in game.action)]
    for hero in game.heroes:
        names += [hero.name, *hero.luck]
        for item in hero.items:
            names += [item.name, *item.songs]
    for spot in game.places:
        names += [*spot.stack, *spot.attached]
    return Counter(names)


def test_a_draw_takes_the_top_cards_in_order_into_the_hand() -> None:
    table = moved()
    game = ctx(table).game
    top, hand = game.deck[:3], list(game.hand)
    result = run(table, "draw", count=3, reason="Sample Quiet Ford")
    assert game.hand == hand + top and top[0] not in game.deck
    assert result.data["notes"][0] == f"Drew 3 card(s) from the top of the deck: {', '.join(top)}."
    assert "8 cards, over the source limit 5: step 10 cycles it down" in result.card.description
    assert "Reason: Sample Quiet Ford" in result.data["notes"]


@pytest.mark.parametrize("to", ["action", "luck", "story", "cycle"])
def test_a_draw_goes_to_the_area_the_rule_names(to: str) -> None:
    table = moved()
    game = ctx(table).game
    top = game.deck[:2]
    run(table, "draw", count=2, to=to, reason="a card rule")
    hero = game.heroes[0]
    where = {
        "action": [a.name for a in game.action if a.hero == hero.name],
        "luck": hero.luck[:2][::-1],  # one at a time, each on top of the luck stack
        "story": game.story[-2:],
        "cycle": game.deck[-2:],  # under the deck, in the order drawn (F-R29)
    }[to]
    assert where == top


def test_the_hero_is_named_for_luck_and_action_when_there_are_several() -> None:
    table = moved()
    game = ctx(table).game
    game.heroes.append(HeroState(name="Sample Lost Sister"))
    game.deck.remove("Sample Lost Sister")
    assert "Name the hero: Sample Wanderer, Sample Lost Sister." in refused(
        table, "draw", count=1, to="luck", reason="x"
    )
    top = game.deck[0]
    run(table, "draw", count=1, to="luck", hero="sample lost sister", reason="x")
    assert game.heroes[1].luck == [top]


def test_an_empty_deck_stops_the_draw_f_r19() -> None:
    table = moved()
    game = ctx(table).game
    left = list(game.deck)
    result = run(table, "draw", count=len(left) + 2, to="story", reason="x")
    assert game.deck == [] and game.story[1:] == left
    assert "The deck is empty: 2 card(s) could not be drawn." in result.data["notes"]


def test_drawing_more_than_the_deck_under_the_deck_takes_each_card_once() -> None:
    table = moved()
    game = ctx(table).game
    left = list(game.deck)
    result = run(table, "draw", count=len(left) + 1, to="cycle", reason="x")
    assert game.deck == left  # each drawn once and cycled under, in order: the same deck
    assert f"The deck held only {len(left)} card(s): each was drawn once, 1 could not be drawn." in result.data["notes"]


def test_the_optional_window_f_r34() -> None:
    table = make_table(7)
    run(table, "start", deck="sample", seed=168)
    assert "after step 1" in refused(table, "draw", count=1, reason="x")
    run(table, "move", to="Sample Cellar")
    game = ctx(table).game
    game.step = 9  # inside a battle round
    assert "Not during a battle round" in refused(table, "draw", count=1, reason="x")
    game.step = 10  # "at end of turn" rules resolve inside step 10, before it cycles the hand down
    run(table, "draw", count=1, reason="x")
    assert len(game.hand) == 6 and game.step == 10


def test_reported_draws_are_named_and_checked() -> None:
    table = reported()
    game = ctx(table).game
    assert "named twice" in refused(table, "draw", count=2, cards="Sample Epilogue, Sample Epilogue", reason="x")
    assert "not in the catalog" in refused(table, "draw", count=1, cards="Nowhere", reason="x")
    assert "already in play" in refused(table, "draw", count=1, cards="Sample Iron Spear", reason="x")
    assert "name exactly that many, not 2" in refused(
        table, "draw", count=1, cards="Sample Epilogue, Sample Bog Troll", reason="x"
    )
    run(table, "draw", count=1, cards="sample epilogue", reason="x")
    assert game.hand[-1] == "Sample Epilogue" and "Sample Epilogue" not in game.deck
    # the deck as the table knows it runs out: name what was there, and the rest is not drawn
    for name in list(game.deck)[:-2]:
        game.deck.remove(name)
        game.story.append(name)
    last = list(game.deck)
    assert "(the deck has 2 left)" in refused(table, "draw", count=5, cards=last[0], reason="x")
    result = run(table, "draw", count=5, cards=", ".join(last), reason="x")
    assert game.deck == [] and game.hand[-2:] == last
    assert "The deck is empty: 3 card(s) could not be drawn." in result.data["notes"]
    empty = run(table, "draw", count=1, reason="x")  # nothing left to name
    assert empty.data["notes"][:2] == ["Drew no card.", "The deck is empty: 1 card(s) could not be drawn."]


def test_the_hint_names_the_draw() -> None:
    table = moved()
    c = ctx(table)
    limit = source_limit(c)
    assert hints.commands(c, FORD, "Sample Quiet Ford", card="Sample Quiet Ford") == [
        f'`/saga draw count:{limit} reason:"Sample Quiet Ford"`',
        '`/saga put card:"Sample Quiet Ford" to:cycle reason:"Sample Quiet Ford"`',
    ]
    assert hints.commands(c, "Draw (2) cards into the action pile.", "X", card="X") == [
        '`/saga draw count:2 reason:"X" to:action`'
    ]
    assert hints.commands(c, "Draw a card.", "X", card="X") == ['`/saga draw count:1 reason:"X"`']
    assert hints.commands(c, "Withdraw from the battle.", "X", card="X") == []
    # the place being visited stays in the place pile while the token is on it (put refuses it): no cycle command
    visited = c.game.visiting
    assert hints.commands(c, FORD, visited, card=visited) == [f'`/saga draw count:{limit} reason:"{visited}"`']
    c.game.draws = "reported"
    c.game.heroes.append(HeroState(name="Sample Lost Sister"))
    assert hints.commands(c, "Draw 1 card to the luck pile.", "X", card="X") == [
        '`/saga draw count:1 reason:"X" to:luck hero:<hero> cards:"<the cards you drew>"`'
    ]


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@FUZZ
@given(
    count=st.integers(1, 25),
    to=st.sampled_from(["hand", "action", "luck", "story", "cycle"]),
    own_deck=st.booleans(),
    pick=st.randoms(use_true_random=False),
)
def test_a_draw_never_loses_or_duplicates_a_card(count: int, to: str, own_deck: bool, pick) -> None:
    table = reported() if own_deck else moved()
    game = ctx(table).game
    before, deck = every_card(game), len(game.deck)
    named = pick.sample(game.deck, min(count, deck)) if own_deck else []
    run(table, "draw", count=count, to=to, cards=", ".join(named) or None, reason="x")
    assert every_card(game) == before and max(every_card(game).values()) == 1
    taken = min(count, deck)
    assert len(game.deck) == (deck if to == "cycle" else deck - taken)
