"""Harmonic order, luck and bonus costs against the book, RULINGS 18-19 and the spec's worked examples."""

from __future__ import annotations

import pytest

from rules.saga.harmony import (
    View,
    card_order,
    color_order,
    group_match,
    harmonic_match,
    luck_check,
    run_match,
    same_harmonic,
)
from tests.rules.saga.helpers import BOOK

B, V, R, Y, G = "blue", "violet", "red", "yellow", "green"


def card(name: str, *colors: str, glyph: str | None = "spring") -> View:
    return View(name, frozenset(colors), glyph)


# ---------------------------------------------------------------- W2: the book's five examples (L485-489)


def test_w2_the_books_examples_from_the_data_file() -> None:
    assert len(BOOK.harmonics.example) == 5
    for example in BOOK.harmonics.example:
        order = color_order(example.colors)
        assert ("harmonic" if order.harmonic else "discordant") == example.expected, example.colors


@pytest.mark.parametrize(
    ("colors", "harmonic", "direction", "bad"),
    [
        ([R, Y, G, B, V], True, "forward", None),  # wraps G→B
        ([G, B, Y, R, V], False, "none", 2),  # B→Y skips
        ([B, V, V, R, Y], True, "forward", None),  # the repeat collapses
        ([G, G, R, B], False, "none", 1),  # G→R is not a step
        ([G, Y, R, V, B], True, "backward", None),  # backwards
    ],
)
def test_w2_with_reasons(colors, harmonic, direction, bad) -> None:
    order = color_order(colors)
    assert (order.harmonic, order.direction, order.first_bad_step) == (harmonic, direction, bad)


def test_order_edges() -> None:
    assert color_order([B, G]).direction == "backward"  # B back to G wraps
    assert color_order([G, B]).direction == "forward"
    assert color_order([Y, Y, Y]).harmonic and color_order([Y]).direction == "none"
    turning = color_order([B, V, R, V])  # turns back
    assert not turning.harmonic and "turns back" in turning.reason and turning.first_bad_step == 3
    assert color_order([B, V, B]).harmonic is False
    assert color_order([]).harmonic  # nothing out of order


def test_multi_color_cards_choose_one_color_each() -> None:
    # F-R8: some choice of one harmonic per card makes the sequence harmonic
    assert card_order([card("a", B, Y), card("b", V), card("c", R, G)]).harmonic  # B V R
    assert not card_order([card("a", B), card("b", R, Y), card("c", B)]).harmonic
    both_ways = card_order([card("a", R), card("b", Y, V), card("c", G, B)])  # R Y G or R V B
    assert both_ways.harmonic
    bare = card_order([card("a", R), card("b")])
    assert not bare.harmonic and "b has no harmonic" in bare.reason


# ---------------------------------------------------------------- luck (RULINGS 18, W12)


def test_luck_by_glyphs() -> None:
    same = [card("p", B, glyph="spring"), card("a", R, glyph="spring"), card("l", Y, glyph="spring")]
    assert luck_check(same).result == "good"
    differ = [card("p", B, glyph="spring"), card("a", R, glyph="summer"), card("l", Y, glyph="autumn")]
    assert luck_check(differ).result == "bad" and luck_check(differ).advantage == "enemies"
    some = [card("p", B, glyph="spring"), card("a", R, glyph="spring"), card("l", Y, glyph="autumn")]
    assert luck_check(some).result == "none" and luck_check(some).advantage == "heroes"


def test_end_winter_and_new_winter_are_different_glyphs() -> None:
    cards = [card("p", B, glyph="end-winter"), card("a", R, glyph="new-winter"), card("l", Y, glyph="spring")]
    assert luck_check(cards).result == "bad"


def test_a_missing_glyph_is_no_luck_even_when_the_others_match() -> None:
    cards = [card("p", B, glyph="spring"), card("a", R, glyph=None), card("l", Y, glyph="spring")]
    luck = luck_check(cards)
    assert luck.result == "none" and "a has no glyph" in luck.reason


def test_the_color_override_beats_the_glyphs_and_a_missing_glyph() -> None:
    cards = [card("p", B, G, glyph="spring"), card("a", G, glyph=None), card("l", R, G, glyph="summer")]
    luck = luck_check(cards)
    assert luck.result == "good" and luck.shared == [G] and "share green" in luck.reason


def test_pairwise_overlap_is_not_a_harmonic_match() -> None:
    cards = [card("p", B, R, glyph="spring"), card("a", R, Y, glyph="summer"), card("l", Y, B, glyph="autumn")]
    assert harmonic_match(cards) == frozenset() and luck_check(cards).result == "bad"


def test_a_missing_kismet_card_is_no_luck() -> None:
    luck = luck_check([card("p", G), None, card("l", G)])
    assert luck.result == "none" and "action card" in luck.reason


# ---------------------------------------------------------------- bonus costs (F-R9, F-R6)


def test_w3_story_row_forwards_and_backwards() -> None:
    story = [card("s1", V), card("s2", Y), card("s3", G)]
    assert not card_order(story).harmonic  # "These cards are in Discordant Order"
    assert run_match([V, Y, G], story, "story").met
    back = run_match([G, Y, V], story, "story")
    assert back.met and back.direction == "backward" and back.cards == ["s3", "s2", "s1"]


def test_w5_kismet_cards_blue_green_blue() -> None:
    kismet = [card("place", B), card("action", G), card("luck", B)]
    for cost in ([B, G, B], [B, G], [G, B], ["any", G], [G, "any"], [B, "any", B]):
        assert run_match(cost, kismet, "kismet").met, cost
    for cost in ([B, B], [G, G]):
        assert not run_match(cost, kismet, "kismet").met, cost
    assert harmonic_match(kismet) == frozenset()  # no harmonic good luck here


def test_one_card_fills_one_position() -> None:
    assert not run_match([R, Y], [card("a", R, Y)], "row").met
    assert not group_match([R, Y], [card("a", R, Y)], "group").met


def test_w6_w7_attached_groups_never_combine() -> None:
    first = [card("hero1", R), card("i1", Y), card("i2", R), card("i3", Y)]
    second = [card("hero2"), card("j1", G), card("j2", V), card("j3", Y), card("j4", G)]
    assert group_match([R, Y], first, "first").met and group_match([Y, R], first, "first").met
    assert not group_match([R, G], first, "first").met and not group_match([R, G], second, "second").met
    for cost in ([Y, G, V], [V, Y], [G]):
        assert group_match(cost, second, "second").met, cost
    assert not group_match([G, V, Y, R], second, "second").met


def test_groups_without_sharing_match_cards_to_positions() -> None:
    group = [card("hero", R), card("item", Y)]
    assert group_match([Y, R], group, "g", sharing=False).met
    assert not group_match([R, R], group, "g", sharing=False).met
    assert group_match([R, R], group, "g", sharing=True).met  # every card may stand for the union (L495)


def test_the_place_circle_wraps_and_never_reuses_a_card() -> None:
    tops = [card("a", G), card("b", B), card("c", R)]
    wrap = run_match([R, G], tops, "place", circle=True)  # c is next to a around the circle
    assert wrap.met and wrap.cards == ["c", "a"]
    assert not run_match([R, G], tops, "row").met  # a row does not wrap
    assert not run_match([G, B, R, G], tops, "place", circle=True).met


def test_same_harmonic_hand() -> None:
    assert same_harmonic([card("a", R, G), card("b", G)]) == frozenset({G})
    assert same_harmonic([]) == frozenset() and same_harmonic([card("a", R), card("b")]) == frozenset()
