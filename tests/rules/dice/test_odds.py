"""Exact odds: pinned to the rulings' own checks and to brute-force enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from rules.base import RuleError
from rules.dice import (
    CannotAttemptError,
    SumBand,
    check_odds,
    pool_odds,
    roll_pool,
    sum_band_odds,
    sum_distribution,
    threshold_odds,
)
from rules.dice.pools import Again
from tests.rules.dice.helpers import CALAMITY_BANDS, NoDice, calamity_bonus

ALL_3D6 = list(product(range(1, 7), repeat=3))

# ---------------------------------------------------------------- 3d6 checks


@pytest.mark.parametrize(
    ("skill", "success"),
    [
        (3, Fraction(4, 216)),
        (10, Fraction(1, 2)),
        (12, Fraction(20, 27)),
        (14, Fraction(49, 54)),
        (16, Fraction(53, 54)),
        (17, Fraction(53, 54)),
        (30, Fraction(53, 54)),
    ],
)
def test_ruling_1_exact_checks(skill: int, success: Fraction) -> None:
    assert check_odds(skill).success == success


@pytest.mark.parametrize(("skill", "ways"), [(14, 4), (15, 10), (16, 20), (30, 20)])
def test_critical_success_odds(skill: int, ways: int) -> None:
    assert check_odds(skill).critical_success == Fraction(ways, 216)


@pytest.mark.parametrize(("skill", "ways"), [(15, 4), (16, 1), (30, 1), (8, 4), (6, 10), (4, 35), (3, 56)])
def test_critical_failure_odds(skill: int, ways: int) -> None:
    # 18 always, 17 at skill 15 or less, and every total 10 or more over: at 6 that adds 16 (6 ways).
    assert check_odds(skill).critical_failure == Fraction(ways, 216)


def _brute(skill: int) -> Counter[str]:
    """Count outcomes over all 216 rolls, straight from ruling 1's words."""
    counts: Counter[str] = Counter()
    for dice in ALL_3D6:
        total = sum(dice)
        if total in (3, 4) or (total == 5 and skill >= 15) or (total == 6 and skill >= 16):
            counts["critical_success"] += 1
        elif total == 18 or (total == 17 and skill <= 15) or total >= skill + 10:
            counts["critical_failure"] += 1
        elif total <= skill and total <= 16:
            counts["success"] += 1
        else:
            counts["failure"] += 1
    return counts


@pytest.mark.parametrize("skill", range(3, 31))
def test_check_odds_match_brute_force(skill: int) -> None:
    counts = _brute(skill)
    odds = check_odds(skill)
    assert odds.success * 216 == counts["critical_success"] + counts["success"]
    assert odds.critical_success * 216 == counts["critical_success"]
    assert odds.critical_failure * 216 == counts["critical_failure"]
    assert odds.failure * 216 == counts["failure"] + counts["critical_failure"]


def test_check_odds_below_3_cannot_be_attempted() -> None:
    with pytest.raises(CannotAttemptError):
        check_odds(2)


# ---------------------------------------------------------------- sums and bands


@pytest.mark.parametrize(("dice", "sides"), [(3, 6), (2, 10), (1, 20), (4, 4)])
def test_sum_distribution_matches_enumeration(dice: int, sides: int) -> None:
    counts = Counter(sum(roll) for roll in product(range(1, sides + 1), repeat=dice))
    distribution = sum_distribution(dice, sides)
    assert distribution == {total: Fraction(n, sides**dice) for total, n in counts.items()}
    assert sum(distribution.values()) == 1


def test_2d10_below_12() -> None:
    assert sum_band_odds(2, 10, [(None, 11)]).bands[0].probability == Fraction(55, 100)
    assert threshold_odds(12).event == Fraction(55, 100)


@pytest.mark.parametrize(("level", "event"), [(7, Fraction(15, 100)), (12, Fraction(55, 100)), (19, Fraction(97, 100))])
def test_ruling_8_exact_checks(level: int, event: Fraction) -> None:
    assert threshold_odds(level).event == event
    assert threshold_odds(level, kind="harmony").event == event


def test_threshold_odds_when_no_roll_is_owed() -> None:
    assert threshold_odds(6).event == 0
    assert not threshold_odds(6).owed
    at_20 = threshold_odds(20)
    assert at_20.incapacitated
    assert at_20.event == 0
    assert threshold_odds(20, kind="harmony").event == Fraction(99, 100)
    assert threshold_odds(21, kind="harmony").event == 1


@pytest.mark.parametrize("mp", [0, -4, -5, -12, -30, -60])
def test_calamity_bands_match_brute_force(mp: int) -> None:
    bonus = calamity_bonus(mp)
    odds = sum_band_odds(3, 6, CALAMITY_BANDS, bonus=bonus)
    assert odds.bonus == bonus
    assert odds.outside == 0  # the table covers every total
    assert sum(b.probability for b in odds.bands) == 1
    for band_odds in odds.bands:
        band = band_odds.band
        ways = sum(1 for dice in ALL_3D6 if band.holds(sum(dice) + bonus))
        assert band_odds.probability == Fraction(ways, 216), band.label


def test_calamity_bonus_follows_ruling_3() -> None:
    assert [calamity_bonus(mp) for mp in (5, 0, -4, -5, -12)] == [0, 0, 0, 1, 2]


def test_calamity_29_or_more_can_be_asked_beside_the_table() -> None:
    # MP -60 gives +12: 29+ needs 17 or 18 on 3d6.
    odds = sum_band_odds(3, 6, [*CALAMITY_BANDS, SumBand(low=29, label="spell fails")], bonus=calamity_bonus(-60))
    assert odds.bands[-1].probability == Fraction(4, 216)
    assert sum_band_odds(3, 6, [(3, 4)], bonus=2).bands[0].probability == 0  # +2 lifts the lowest total to 5


def test_sum_band_odds_reports_uncovered_mass() -> None:
    odds = sum_band_odds(3, 6, [(3, 10)])
    assert odds.bands[0].probability == Fraction(1, 2)
    assert odds.outside == Fraction(1, 2)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((3, 6, []), "at least one band"),
        ((3, 6, [(5, 4)]), "low to high"),
        ((3, 6, [(1, 2, 3)]), "pair"),
        ((3, 6, [(1.5, 2)]), "whole number"),
        ((0, 6, [(3, 4)]), "number of dice"),
        ((3, 1, [(3, 4)]), "number of sides"),
    ],
)
def test_sum_band_odds_refuses_bad_input(args: tuple[object, ...], match: str) -> None:
    with pytest.raises(RuleError, match=match):
        sum_band_odds(*args)  # type: ignore[arg-type]


# ---------------------------------------------------------------- d10 pools

PER_DIE = {10: Fraction(1, 3), 9: Fraction(3, 8), 8: Fraction(3, 7), None: Fraction(3, 10)}
AGAINS: list[Again] = [10, 9, 8, None]


@pytest.mark.parametrize("again", AGAINS)
def test_ruling_15_expected_successes_per_die(again: Again) -> None:
    assert pool_odds(1, again, False).expected == PER_DIE[again]
    assert pool_odds(1, again, True).expected == PER_DIE[again] * Fraction(17, 10)


@pytest.mark.parametrize("again", AGAINS)
@pytest.mark.parametrize("rote", [False, True])
@pytest.mark.parametrize("n", [1, 2, 5, 13, 40])
def test_pool_expectation_and_first_success(again: Again, rote: bool, n: int) -> None:
    odds = pool_odds(n, again, rote)
    assert odds.expected == n * PER_DIE[again] * (Fraction(17, 10) if rote else 1)
    fail = Fraction(49, 100) if rote else Fraction(7, 10)
    assert odds.success == 1 - fail**n
    assert odds.distribution[0] == fail**n
    assert sum(odds.distribution) + odds.tail == 1
    assert 0 <= odds.tail < Fraction(1, 10**12)
    assert odds.dramatic_failure == 0
    assert not odds.chance_die


@cache
def _die(again: Again, rote: bool, k: int) -> Fraction:
    """P(one die scores k successes), by following its faces one at a time: independent of odds.py."""
    total = Fraction(0)
    for face in range(1, 11):
        if face < 8:
            total += _die(again, False, k) if rote else Fraction(int(k == 0))
        elif again is not None and face >= again:
            total += _die(again, False, k - 1) if k >= 1 else 0
        else:
            total += int(k == 1)
    return total / 10


def _pool_by_convolution(n: int, again: Again, rote: bool, terms: int) -> list[Fraction]:
    die = [_die(again, rote, k) for k in range(terms)]
    pool = [Fraction(1)] + [Fraction(0)] * (terms - 1)
    for _ in range(n):
        pool = [sum((pool[i] * die[k - i] for i in range(k + 1)), Fraction(0)) for k in range(terms)]
    return pool


@pytest.mark.parametrize(
    ("n", "again", "rote"), [(1, 10, False), (3, 9, True), (6, 8, False), (4, 8, True), (5, None, True)]
)
def test_pool_distribution_matches_a_face_by_face_convolution(n: int, again: Again, rote: bool) -> None:
    odds = pool_odds(n, again, rote, exceptional_at=3)
    expected = _pool_by_convolution(n, again, rote, len(odds.distribution))
    assert odds.distribution == expected
    assert odds.exceptional == 1 - sum(expected[:3])


def test_exceptional_threshold_changes_the_odds() -> None:
    at_5 = pool_odds(8, 10, False)
    at_3 = pool_odds(8, 10, False, exceptional_at=3)
    assert at_3.exceptional > at_5.exceptional
    assert at_5.exceptional == 1 - sum(at_5.distribution[:5])


def test_pool_of_one_without_again_is_a_coin_with_3_in_10() -> None:
    odds = pool_odds(1, None, False)
    assert odds.distribution == [Fraction(7, 10), Fraction(3, 10)]
    assert odds.tail == 0
    assert odds.exceptional == 0


def test_two_dice_without_again_against_every_roll() -> None:
    counts: Counter[int] = Counter()
    for dice in product(range(1, 11), repeat=2):
        counts[roll_pool(NoDice(), 2, again=None, dice=dice).successes] += 1
    assert pool_odds(2, None, False).distribution == [Fraction(counts[k], 100) for k in range(3)]


@pytest.mark.parametrize("n", [0, -1, -20])
def test_chance_die_odds(n: int) -> None:
    odds = pool_odds(n)
    assert odds.chance_die
    assert odds.success == Fraction(1, 10)
    assert odds.dramatic_failure == Fraction(1, 10)
    assert odds.expected == Fraction(1, 10)
    assert odds.exceptional == 0
    assert pool_odds(n, exceptional_at=1).exceptional == Fraction(1, 10)


def test_rote_chance_die_odds_against_every_roll() -> None:
    outcomes: Counter[str] = Counter()
    for first in range(1, 11):
        seconds = range(1, 11) if 1 < first < 10 else [None]
        for second in seconds:
            dice = [first] if second is None else [first, second]
            weight = 10 if second is None else 1  # out of 100
            outcomes[roll_pool(NoDice(), 0, rote=True, dice=dice).outcome] += weight
    odds = pool_odds(0, 10, True)
    assert odds.success == Fraction(outcomes["success"], 100) == Fraction(18, 100)
    assert odds.dramatic_failure == Fraction(outcomes["dramatic_failure"], 100) == Fraction(18, 100)


def test_big_pools_stay_fast_and_exact() -> None:
    odds = pool_odds(100, 8, True)
    assert odds.expected == 100 * Fraction(3, 7) * Fraction(17, 10)
    assert sum(odds.distribution) + odds.tail == 1


@pytest.mark.parametrize("kwargs", [{"n": 101}, {"n": 3, "again": 7}, {"n": 3, "exceptional_at": 0}])
def test_pool_odds_refuse_bad_input(kwargs: dict[str, object]) -> None:
    with pytest.raises(RuleError):
        pool_odds(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("exceptional_at", [5, 20, 50])
def test_exceptional_odds_stay_exact_far_past_the_listed_distribution(exceptional_at: int) -> None:
    # One 10-again die scores k or more with chance 3/10 * (1/10)^(k-1): far below the 1e-12 listing cut.
    odds = pool_odds(1, 10, False, exceptional_at=exceptional_at)
    assert odds.exceptional == Fraction(3, 10) * Fraction(1, 10) ** (exceptional_at - 1)
