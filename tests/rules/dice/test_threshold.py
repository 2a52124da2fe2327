"""Discord and Harmony checks (RULING 8) and the Resonance roll (RULING 9)."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product

import pytest
from pydantic import ValidationError

from rules.base import RuleError
from rules.dice import (
    ResonanceBand,
    ThresholdRoll,
    check_resonance_bands,
    discord_roll,
    harmony_roll,
    resonance_roll,
    threshold_odds,
    threshold_roll,
)
from tests.rules.dice.helpers import RESONANCE_BANDS_RULING_9, NoDice

# ---------------------------------------------------------------- Discord and Harmony


@pytest.mark.parametrize("level", [0, 1, 6])
@pytest.mark.parametrize("roll", [discord_roll, harmony_roll])
def test_below_7_nothing_is_rolled(roll: Callable[..., ThresholdRoll], level: int) -> None:
    result = roll(NoDice(), level)
    assert not result.owed
    assert result.dice == []
    assert result.total is None
    assert not result.event


def test_no_dice_may_be_supplied_when_no_roll_is_owed() -> None:
    with pytest.raises(RuleError, match="start at 7"):
        discord_roll(NoDice(), 6, dice=[1, 1])
    with pytest.raises(RuleError, match="incapacitates"):
        discord_roll(NoDice(), 20, dice=[1, 1])


def test_event_iff_the_sum_is_strictly_less() -> None:
    assert discord_roll(NoDice(), 12, dice=[5, 6]).event
    assert not discord_roll(NoDice(), 12, dice=[6, 6]).event
    assert harmony_roll(NoDice(), 7, dice=[3, 3]).event
    assert not harmony_roll(NoDice(), 7, dice=[3, 4]).event


def test_a_d10_reading_0_is_a_10() -> None:
    result = discord_roll(NoDice(), 12, dice=[0, 1])
    assert result.dice == [10, 1]
    assert result.total == 11
    assert result.event


def test_20_discord_incapacitates_without_a_roll() -> None:
    for level in (20, 21, 40):
        result = discord_roll(NoDice(), level)
        assert result.incapacitated
        assert not result.owed
        assert result.dice == []
    assert not discord_roll(NoDice(), 19, dice=[10, 10]).incapacitated


def test_20_harmony_still_rolls() -> None:
    result = harmony_roll(NoDice(), 20, dice=[9, 10])
    assert result.owed
    assert result.event
    assert not result.incapacitated
    assert not harmony_roll(NoDice(), 20, dice=[10, 10]).event


@pytest.mark.parametrize("kind", ["discord", "harmony"])
@pytest.mark.parametrize("level", range(26))
def test_every_outcome_matches_the_ruling_and_the_odds(kind: str, level: int) -> None:
    owed = level >= 7 and not (kind == "discord" and level >= 20)
    events = 0
    for dice in product(range(1, 11), repeat=2):
        result = threshold_roll(NoDice(), level, kind=kind, dice=dice if owed else None)  # type: ignore[arg-type]
        assert result.event == (owed and sum(dice) < level)
        events += result.event
    odds = threshold_odds(level, kind=kind)  # type: ignore[arg-type]
    assert odds.owed == owed
    assert odds.event * 100 == events


def test_rolled_dice_are_two_d10() -> None:
    rng = random.Random(8)
    for _ in range(300):
        result = discord_roll(rng, 12)
        assert len(result.dice) == 2
        assert all(1 <= face <= 10 for face in result.dice)
        assert result.total == sum(result.dice)


@pytest.mark.parametrize("level", [-1, 101, 7.5, True])
def test_bad_levels_are_refused(level: object) -> None:
    with pytest.raises(RuleError):
        discord_roll(NoDice(), level)  # type: ignore[arg-type]


def test_negative_discord_gets_a_hint() -> None:
    with pytest.raises(RuleError, match="positive amount"):
        discord_roll(NoDice(), -7)


@pytest.mark.parametrize("dice", [[1], [1, 2, 3], [11, 1], [-1, 5], ["5", 5]])
def test_bad_physical_dice_are_refused(dice: list[object]) -> None:
    with pytest.raises(RuleError, match="Discord roll"):
        discord_roll(NoDice(), 12, dice=dice)  # type: ignore[arg-type]


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(RuleError, match="kind"):
        threshold_roll(NoDice(), 12, kind="chaos")  # type: ignore[arg-type]


# ---------------------------------------------------------------- Resonance


@pytest.mark.parametrize(
    ("value", "gain", "overload"),
    [
        (1, 1, False),
        (3, 1, False),
        (4, 2, False),
        (6, 2, False),
        (7, 3, False),
        (9, 3, False),
        (10, 5, True),
        (0, 5, True),  # a d10 face reading 0 is a 10
    ],
)
def test_resonance_chart(value: int, gain: int, overload: bool) -> None:
    result = resonance_roll(NoDice(), RESONANCE_BANDS_RULING_9, value=value)
    assert result.die == (10 if value == 0 else value)
    assert result.gain == gain
    assert result.overload == overload
    assert result.band.gain == gain


def test_resonance_rolls_one_d10() -> None:
    rng = random.Random(9)
    seen = set()
    for _ in range(500):
        result = resonance_roll(rng, RESONANCE_BANDS_RULING_9)
        assert 1 <= result.die <= 10
        assert result.band.low <= result.die <= result.band.high
        seen.add(result.die)
    assert seen == set(range(1, 11))


@pytest.mark.parametrize("value", [11, -1, 2.0, "7", True])
def test_bad_resonance_value_is_refused(value: object) -> None:
    with pytest.raises(RuleError, match="Resonance roll"):
        resonance_roll(NoDice(), RESONANCE_BANDS_RULING_9, value=value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bands", "problem"),
    [
        ((), "non-empty"),
        (RESONANCE_BANDS_RULING_9[:3], "face 10 no row"),
        ((*RESONANCE_BANDS_RULING_9, ResonanceBand(low=9, high=10, gain=4)), "face 9 2 rows"),
        ((RESONANCE_BANDS_RULING_9[0], RESONANCE_BANDS_RULING_9[2], RESONANCE_BANDS_RULING_9[3]), "face 4 no row"),
        (({"low": 1, "high": 10, "gain": 1},), "ResonanceBand"),
    ],
)
def test_broken_charts_are_refused(bands: tuple[object, ...], problem: str) -> None:
    with pytest.raises(RuleError, match=problem):
        check_resonance_bands(bands)  # type: ignore[arg-type]
    with pytest.raises(RuleError):
        resonance_roll(NoDice(), bands, value=4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "row",
    [
        {"low": 5, "high": 3, "gain": 1},
        {"low": 0, "high": 3, "gain": 1},
        {"low": 1, "high": 11, "gain": 1},
        {"low": 1, "high": 3, "gain": -1},
        {"low": 1, "high": 3, "gain": 1, "bonus": 2},
    ],
)
def test_band_model_validates_data_rows(row: dict[str, int]) -> None:
    with pytest.raises(ValidationError):
        ResonanceBand.model_validate(row)
