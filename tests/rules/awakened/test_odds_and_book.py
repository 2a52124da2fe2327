"""Exact odds (ruling 15, against the shared pool odds) and the book data behind /lookup."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from bot.adapter.render import card_problems
from bot.table.books import BookError, load_book
from rules.awakened import RULESET
from rules.awakened.book import AwakenedBook
from rules.base import RuleError
from rules.dice import pool_odds
from rules.dice.odds import die_generating_terms
from tests.rules.awakened.conftest import ROOT, Game


@pytest.mark.parametrize(("again", "mean"), [(10, Fraction(1, 3)), (9, Fraction(3, 8)), (8, Fraction(3, 7))])
def test_ruling_15_exact_check_per_die(again: int, mean: Fraction) -> None:
    """Each die averages 1/3, 3/8, 3/7 successes; rote multiplies each by 1.7."""
    assert pool_odds(1, again).expected == mean
    assert pool_odds(1, again, rote=True).expected == mean * Fraction(17, 10)
    alpha, beta, q = die_generating_terms(again, False)  # type: ignore[arg-type]
    assert alpha + beta + q == 1


@pytest.mark.parametrize(
    ("roll", "pool", "again", "rote"), [("shaping-covert", 6, 9, True), ("shaping-vulgar", 9, 8, True)]
)
def test_shaping_odds_are_the_pools_exact_odds(game: Game, roll: str, pool: int, again: int, rote: bool) -> None:
    game.mage()
    data = game.act("odds", roll=roll).data
    exact = pool_odds(pool, again, rote)  # type: ignore[arg-type]
    assert (data["pool"], data["again"], data["rote"]) == (pool, again, rote)
    assert data["success"] == str(exact.success) and data["expected"] == str(exact.expected)
    with_willpower = game.act("odds", roll=roll, willpower=True).data
    assert with_willpower["pool"] == pool + 3


@cache
def _rolled(pending: int, again: int, k: int) -> Fraction:
    """P(the dice still to roll, explosions and all, score exactly k successes), face by face: independent of the
    generating functions in rules/dice/odds.py."""
    if k < 0:
        return Fraction(0)
    if pending == 0:
        return Fraction(int(k == 0))
    total = Fraction(0)
    for face in range(1, 11):
        if face < 8:
            total += _rolled(pending - 1, again, k)
        elif face >= again:
            total += _rolled(pending, again, k - 1)  # a success that rolls again
        else:
            total += _rolled(pending - 1, again, k - 1)
    return total / 10


def _boosted_by_enumeration(pool: int, again: int, minimum: int, k: int) -> Fraction:
    """P(a boosted roll ends with k successes): every way to roll, then max(rolled, minimum) (P-G22)."""
    if pool == 0:  # one chance die: only a 10 succeeds, and it does not explode
        rolled = [Fraction(9, 10), Fraction(1, 10)]
        chance = lambda j: rolled[j] if j < 2 else Fraction(0)  # noqa: E731
    else:
        chance = lambda j: _rolled(pool, again, j)  # noqa: E731
    if k < minimum:
        return Fraction(0)
    if k == minimum:
        return sum((chance(j) for j in range(minimum + 1)), Fraction(0))
    return chance(k)


PER_DIE = {10: Fraction(1, 3), 9: Fraction(3, 8), 8: Fraction(3, 7)}  # ruling 15's exact check


@pytest.mark.parametrize(
    ("roll", "pool", "own", "again", "minimum"),
    [
        ("boost-vulgar", 0, None, 8, 3),
        ("boost-vulgar", 3, None, 8, 3),
        ("boost-covert", 4, None, 9, 2),
        ("boost-covert", 2, 8, 8, 2),  # the roll's own 8-again beats the covert 9-again
        ("boost-sensory", 5, 9, 9, 1),
        ("boost-sensory", 1, None, 10, 1),
    ],
)
def test_boosted_odds_match_an_independent_enumeration(
    game: Game, roll: str, pool: int, own: int | None, again: int, minimum: int
) -> None:
    game.mage()
    data = game.act("odds", roll=roll, dice=pool, again=own).data
    assert (data["pool"], data["again"], data["minimum"]) == (pool, again, minimum)
    listed = [Fraction(p) for p in data["distribution"]]
    assert listed == [_boosted_by_enumeration(pool, again, minimum, k) for k in range(len(listed))]
    assert data["success"] == "1" and data["dramatic_failure"] == "0"  # a boosted roll never fails (P-G22)
    rolled_mean = PER_DIE[again] * pool if pool else Fraction(1, 10)
    lift = sum(((minimum - k) * _boosted_by_enumeration(pool, again, 0, k) for k in range(minimum)), Fraction(0))
    assert Fraction(data["expected"]) == rolled_mean + lift
    below_five = sum((_boosted_by_enumeration(pool, again, minimum, k) for k in range(5)), Fraction(0))
    assert Fraction(data["exceptional"]) == 1 - below_five


def test_boosted_odds_need_the_pool_and_again_is_only_theirs(game: Game) -> None:
    game.mage()
    with pytest.raises(RuleError, match="Give the pool the spell boosts in `dice`"):
        game.act("odds", roll="boost-covert")
    with pytest.raises(RuleError, match="the oblation roll's again is fixed"):
        game.act("odds", roll="oblation", again=8)
    assert game.act("odds", roll="boost-vulgar", dice=2, willpower=True).data["pool"] == 5


def test_shaping_odds_honour_a_pool_given(game: Game) -> None:
    game.mage()  # Gnosis 3: 9 dice of her own
    data = game.act("odds", roll="shaping-vulgar", dice=3).data
    exact = pool_odds(3, 8, True)
    assert (data["pool"], data["again"], data["rote"]) == (3, 8, True)
    assert data["success"] == str(exact.success)
    assert game.act("odds", roll="shaping-covert", dice=3, willpower=True).data["pool"] == 6


@pytest.mark.parametrize("gnosis", [1, 2, 3, 5])
def test_soul_loss_chance_is_one_minus_seven_tenths_to_the_gnosis(game: Game, gnosis: int) -> None:
    game.mage(gnosis=gnosis)
    assert Fraction(game.act("odds", roll="soul-loss").data["success"]) == 1 - Fraction(7, 10) ** gnosis


def test_other_pools(game: Game) -> None:
    game.mage()
    assert game.act("odds", roll="oblation").data["pool"] == 4  # max(Gnosis 3, Composure 4)
    assert game.act("odds", roll="scrutiny", edge=2).data["pool"] == 3 + 3 + 2
    assert game.act("odds", roll="sacrifice", dice=2, willpower=True).data["pool"] == 5
    assert game.act("odds", roll="attainment", dice=4).data["rote"] is True  # P-G36
    assert game.act("odds", roll="paradox").data["roll"] is None  # no dice: no roll
    assert game.act("odds", roll="paradox", dice=4).data["success"] == str(pool_odds(4).success)
    with pytest.raises(RuleError, match="Willpower adds no dice to the soul-loss roll"):
        game.act("odds", roll="soul-loss", willpower=True)
    with pytest.raises(RuleError, match="not in crisis"):
        game.act("odds", roll="crisis")


def test_the_book_loads_and_refuses_typos(tmp_path) -> None:
    book = load_book(AwakenedBook, ROOT / "data" / "awakened")
    assert [a.name for a in book.aspects.aspect] == ["sensory", "covert", "vulgar"]
    assert [(a.cost_improvised, a.cost_ruling_only, a.cost_rote) for a in book.aspects.aspect] == [
        (1, 0, 0),
        (1, 1, 0),
        (2, 2, 1),
    ]  # ruling 14
    assert book.tables.soul_stone_penalty == [0, 1, 3, 6, 10, 15]
    broken = tmp_path / "awakened"
    broken.mkdir()
    for path in (ROOT / "data" / "awakened").glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.name == "arcana.toml":
            text = text.replace('"Death", "Fate"', '"Death", "Death"')
        (broken / path.name).write_text(text, encoding="utf-8")
    with pytest.raises(BookError, match=r"arcana\.toml"):
        load_book(AwakenedBook, broken)


def test_every_rule_and_table_is_in_lookup(book: AwakenedBook) -> None:
    entries = RULESET.lookup_entries(book)
    keys = {(e.category, e.key) for e in entries}
    assert {("rule", r.key) for r in book.rules.rule} <= keys
    assert {
        ("aspect", "vulgar"),
        ("factor", "sympathy"),
        ("table", "wisdom ceiling"),
        ("conjunction", "Time 2"),
        ("table", "resonance"),
        ("table", "soul stone penalty"),
        ("action", "ritual"),
    } <= keys
    mechanics = " ".join(a for e in entries for a in e.aliases)
    for number in (1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 22, 25, 28, 33, 35, 36, 37, 38, 39, 40):
        assert f"M{number}" in mechanics, number
    assert all(len(e.title) <= 256 for e in entries)


def test_the_fullest_sheet_fits_one_embed(game: Game) -> None:
    sheet = game.mage(nimbus="n" * 300)
    long = "x" * 55
    for i in range(40):
        game.act("spell cast", mode="rote", spell=f"{long}{i:02}", arcana="Life", aspect="covert", effect="e" * 300)
    for i in range(30):
        game.act("spell cast", spell=f"{long}{i:02}", inscribed=True)
        game.act("sympathy", subject=f"{long}{i:02}", level="described")
    game.gm("attainment", mage="Ash", mode="define", name=long, pool="Wits, Occult")
    card = game.act("mage show").card
    assert card_problems(card) == [] and len(sheet.spells) == 30
