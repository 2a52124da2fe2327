"""d10 success pools against RULING 15: exact with supplied dice, statistical with the RNG."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from rules.base import RuleError
from rules.dice import Again, pool_odds, roll_pool
from tests.rules.dice.helpers import AlwaysMax, NoDice

# ---------------------------------------------------------------- exact, with supplied dice


def test_successes_are_8_9_and_10() -> None:
    roll = roll_pool(NoDice(), 5, again=None, dice=[8, 9, 10, 7, 1])
    assert roll.successes == 3
    assert [d.successes for d in roll.dice] == [1, 1, 1, 0, 0]
    assert roll.outcome == "success"
    assert roll.explosions == 0


def test_ten_again_rolls_the_ten_again() -> None:
    roll = roll_pool(NoDice(), 3, dice=[10, 9, 2, 10, 4])
    assert [d.faces for d in roll.dice] == [[10, 10, 4], [9], [2]]
    assert roll.successes == 3
    assert roll.explosions == 2


def test_nine_again_and_eight_again() -> None:
    nine = roll_pool(NoDice(), 2, again=9, dice=[9, 8, 9, 3])
    assert [d.faces for d in nine.dice] == [[9, 9, 3], [8]]
    assert nine.successes == 3
    eight = roll_pool(NoDice(), 2, again=8, dice=[8, 7, 8, 1])
    assert [d.faces for d in eight.dice] == [[8, 8, 1], [7]]
    assert eight.successes == 2


def test_explosions_come_round_by_round_in_pool_order() -> None:
    roll = roll_pool(NoDice(), 3, again=8, dice=[8, 10, 2, 9, 8, 1, 3])
    assert [d.faces for d in roll.dice] == [[8, 9, 1], [10, 8, 3], [2]]
    assert roll.successes == 4


def test_no_again_never_rerolls() -> None:
    roll = roll_pool(NoDice(), 2, again=None, dice=[10, 10])
    assert [d.faces for d in roll.dice] == [[10], [10]]
    assert roll.successes == 2


def test_rote_rerolls_each_failed_original_die_once_and_the_reroll_explodes() -> None:
    # pool 2,10,5; the 10 explodes into a 3; rote rerolls the 2 (10, which explodes into 4) and the 5 (8).
    roll = roll_pool(NoDice(), 3, rote=True, dice=[2, 10, 5, 3, 10, 8, 4])
    assert [(d.faces, d.rote_faces) for d in roll.dice] == [([2], [10, 4]), ([10, 3], []), ([5], [8])]
    assert [d.successes for d in roll.dice] == [1, 1, 1]
    assert roll.successes == 3
    assert roll.explosions == 2


def test_rote_rerolls_a_failure_only_once() -> None:
    roll = roll_pool(NoDice(), 1, rote=True, dice=[3, 4])
    assert roll.dice[0].faces == [3]
    assert roll.dice[0].rote_faces == [4]
    assert roll.outcome == "failure"


def test_a_d10_reading_0_is_a_10() -> None:
    roll = roll_pool(NoDice(), 1, dice=[0, 0, 5])
    assert roll.dice[0].faces == [10, 10, 5]
    assert roll.successes == 2


def test_supplied_dice_must_be_exactly_what_the_roll_needs() -> None:
    with pytest.raises(RuleError, match="needs more dice"):
        roll_pool(NoDice(), 2, dice=[10, 3])  # the 10 explodes
    with pytest.raises(RuleError, match="left over"):
        roll_pool(NoDice(), 2, dice=[9, 3, 4])
    with pytest.raises(RuleError, match="d10"):
        roll_pool(NoDice(), 2, dice=[11, 3])


@pytest.mark.parametrize(("exceptional_at", "outcome"), [(5, "success"), (4, "success"), (3, "exceptional_success")])
def test_exceptional_threshold_is_an_argument(exceptional_at: int, outcome: str) -> None:
    roll = roll_pool(NoDice(), 4, again=None, exceptional_at=exceptional_at, dice=[8, 9, 10, 1])
    assert roll.successes == 3
    assert roll.outcome == outcome
    assert roll.exceptional == (outcome == "exceptional_success")


def test_five_successes_are_exceptional_by_default() -> None:
    roll = roll_pool(NoDice(), 5, again=None, dice=[8, 8, 8, 8, 8])
    assert roll.outcome == "exceptional_success"
    assert roll.exceptional


# ---------------------------------------------------------------- the chance die


@pytest.mark.parametrize("pool", [0, -1, -7, -100])
@pytest.mark.parametrize(
    ("face", "outcome", "successes"),
    [(10, "success", 1), (1, "dramatic_failure", 0), (9, "failure", 0), (8, "failure", 0), (2, "failure", 0)],
)
def test_chance_die(pool: int, face: int, outcome: str, successes: int) -> None:
    roll = roll_pool(NoDice(), pool, dice=[face])
    assert roll.chance_die
    assert roll.outcome == outcome
    assert roll.successes == successes
    assert roll.dramatic_failure == (outcome == "dramatic_failure")


def test_chance_die_never_explodes() -> None:
    with pytest.raises(RuleError, match="left over"):
        roll_pool(NoDice(), 0, again=8, dice=[10, 10])
    roll = roll_pool(AlwaysMax(), 0, again=8)
    assert roll.dice[0].faces == [10]
    assert roll.explosions == 0


def test_rote_chance_die_rerolls_a_plain_failure_once_but_not_a_dramatic_failure() -> None:
    assert roll_pool(NoDice(), 0, rote=True, dice=[5, 10]).outcome == "success"
    assert roll_pool(NoDice(), 0, rote=True, dice=[5, 1]).outcome == "dramatic_failure"
    assert roll_pool(NoDice(), 0, rote=True, dice=[5, 9]).outcome == "failure"
    dramatic = roll_pool(NoDice(), 0, rote=True, dice=[1])
    assert dramatic.outcome == "dramatic_failure"
    assert dramatic.dice[0].rote_faces == []
    assert roll_pool(NoDice(), 0, rote=True, dice=[10]).dice[0].rote_faces == []


def test_chance_die_rates_over_a_seeded_run() -> None:
    rng = random.Random(2015)
    rolls = 30_000
    outcomes = [roll_pool(rng, 0).outcome for _ in range(rolls)]
    error = 5 * math.sqrt(0.1 * 0.9 / rolls)
    assert abs(outcomes.count("success") / rolls - 0.1) < error
    assert abs(outcomes.count("dramatic_failure") / rolls - 0.1) < error


# ---------------------------------------------------------------- the explosion cap


def test_explosion_cap_stops_an_rng_that_always_rolls_10() -> None:
    roll = roll_pool(AlwaysMax(), 3, max_explosions=100)
    assert roll.cap_hit
    assert roll.explosions == 100
    assert roll.successes == 103
    assert sum(len(d.faces) for d in roll.dice) == 103


def test_default_cap_also_terminates_with_rote() -> None:
    roll = roll_pool(AlwaysMax(), 100, again=8, rote=True)
    assert roll.cap_hit
    assert roll.explosions == roll.max_explosions == 1000
    assert roll.successes == 1100


def test_cap_hit_only_when_a_die_still_wanted_to_explode() -> None:
    exact = roll_pool(NoDice(), 1, max_explosions=2, dice=[10, 10, 3])
    assert not exact.cap_hit
    assert exact.explosions == 2
    stopped = roll_pool(NoDice(), 1, max_explosions=2, dice=[10, 10, 10])
    assert stopped.cap_hit
    assert stopped.successes == 3
    assert not roll_pool(NoDice(), 1, max_explosions=0, dice=[9]).cap_hit
    assert roll_pool(NoDice(), 1, max_explosions=0, dice=[10]).cap_hit


# ---------------------------------------------------------------- bad arguments


@pytest.mark.parametrize(
    "kwargs",
    [
        {"pool": 101},
        {"pool": -101},
        {"pool": 2.5},
        {"pool": 3, "again": 7},
        {"pool": 3, "again": 11},
        {"pool": 3, "again": True},
        {"pool": 3, "rote": "yes"},
        {"pool": 3, "exceptional_at": 0},
        {"pool": 3, "max_explosions": -1},
        {"pool": 3, "dice": "8910"},
    ],
)
def test_bad_pool_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(RuleError):
        roll_pool(NoDice(), **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the rates, over 200,000 dice each

DICE_PER_RUN = 200_000
POOL = 100
ROTE = Fraction(17, 10)


def _within_sampling_error(totals: list[int], per_die: Fraction) -> bool:
    """Is the mean per die within 5 standard errors of the exact rate?"""
    mean = sum(totals) / len(totals)
    spread = math.sqrt(sum((t - mean) ** 2 for t in totals) / (len(totals) - 1))
    return abs(mean / POOL - float(per_die)) < 5 * spread / math.sqrt(len(totals)) / POOL


@pytest.mark.parametrize(("again", "per_die"), [(10, Fraction(1, 3)), (9, Fraction(3, 8)), (8, Fraction(3, 7))])
def test_mean_successes_per_die(again: Again, per_die: Fraction) -> None:
    """One seeded run of 200,000 rote dice checks both rates.

    Rote rerolls come after every original die and its explosions, so a rote
    pool's original chains are exactly the plain pool the same RNG would roll
    (test_properties pins that); their successes measure the plain rate.
    """
    rng = random.Random(f"pools-{again}")
    plain, rote = [], []
    for _ in range(DICE_PER_RUN // POOL):
        roll = roll_pool(rng, POOL, again=again, rote=True)
        plain.append(sum(face >= 8 for die in roll.dice for face in die.faces))
        rote.append(roll.successes)
    assert _within_sampling_error(plain, per_die)
    assert _within_sampling_error(rote, per_die * ROTE)
    assert pool_odds(1, again, False).expected == per_die
    assert pool_odds(1, again, True).expected == per_die * ROTE


def test_mean_successes_per_die_without_again() -> None:
    rng = random.Random("pools-none")
    totals = [roll_pool(rng, POOL, again=None).successes for _ in range(50_000 // POOL)]
    assert _within_sampling_error(totals, Fraction(3, 10))
