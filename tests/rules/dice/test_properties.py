"""Property tests: valid input never crashes and always shows real dice; bad dice are always refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import RuleError
from rules.dice import (
    CannotAttemptError,
    check_odds,
    discord_roll,
    harmony_roll,
    judge,
    pool_odds,
    quick_contest,
    resisted_roll,
    resonance_roll,
    roll_pool,
    roll_success,
    sum_band_odds,
)
from rules.dice.pools import SUCCESS_AT
from tests.rules.dice.helpers import RESONANCE_BANDS_RULING_9

seeds = st.integers(min_value=0, max_value=2**32)
skills = st.integers(min_value=3, max_value=100)
d6 = st.integers(min_value=1, max_value=6)
three_d6 = st.lists(d6, min_size=3, max_size=3)
agains = st.sampled_from([10, 9, 8, None])
FAST = settings(max_examples=150, deadline=None)


def bad_dice(count: int, low: int, high: int) -> st.SearchStrategy[list[int]]:
    """Lists of whole numbers that are wrong for a roll of ``count`` dice: wrong length or a face out of range."""
    wrong_length = st.lists(st.integers(low, high), max_size=8).filter(lambda dice: len(dice) != count)
    out_of_range = st.integers().filter(lambda face: not low <= face <= high)
    bad_face = st.tuples(st.lists(st.integers(low, high), min_size=count - 1, max_size=count - 1), out_of_range)
    return wrong_length | bad_face.map(lambda pair: [*pair[0], pair[1]])


@FAST
@given(seed=seeds, skill=skills)
def test_success_rolls_are_consistent(seed: int, skill: int) -> None:
    roll = roll_success(random.Random(seed), skill)
    assert len(roll.dice) == 3
    assert all(1 <= face <= 6 for face in roll.dice)
    assert roll.total == sum(roll.dice)
    assert roll.margin == skill - roll.total
    assert roll.outcome == judge(roll.total, skill)
    if roll.total <= 4:
        assert roll.succeeded
    if roll.total >= 17:
        assert not roll.succeeded


@FAST
@given(skill=st.integers(max_value=2))
def test_skill_below_3_never_rolls(skill: int) -> None:
    with pytest.raises(CannotAttemptError, match=rf"skill {skill} is below 3"):
        roll_success(random.Random(0), skill)


@FAST
@given(skill=st.integers(min_value=101))
def test_insane_skill_is_refused(skill: int) -> None:
    with pytest.raises(RuleError, match="not a sane value") as caught:
        check_odds(skill)
    assert not isinstance(caught.value, CannotAttemptError)


@FAST
@given(dice=bad_dice(3, 1, 6), skill=skills)
def test_bad_3d6_are_refused(dice: list[int], skill: int) -> None:
    with pytest.raises(RuleError):
        roll_success(random.Random(0), skill, dice=dice)


@FAST
@given(seed=seeds, a=skills, b=skills, dice_a=st.none() | three_d6, dice_b=st.none() | three_d6)
def test_quick_contests_are_consistent(
    seed: int, a: int, b: int, dice_a: list[int] | None, dice_b: list[int] | None
) -> None:
    contest = quick_contest(random.Random(seed), a, b, dice_a=dice_a, dice_b=dice_b)
    key_a = (contest.a.succeeded, contest.a.margin)
    key_b = (contest.b.succeeded, contest.b.margin)
    assert contest.result == ("a_wins" if key_a > key_b else "b_wins" if key_b > key_a else "tie")
    assert contest.both_failed == (not contest.a.succeeded and not contest.b.succeeded)


@FAST
@given(
    seed=seeds,
    caster=skills,
    resistance=st.integers(min_value=-20, max_value=100),
    living=st.booleans(),
    caster_dice=st.none() | three_d6,
    subject_dice=st.none() | three_d6,
)
def test_resisted_rolls_are_consistent(
    seed: int,
    caster: int,
    resistance: int,
    living: bool,
    caster_dice: list[int] | None,
    subject_dice: list[int] | None,
) -> None:
    result = resisted_roll(
        random.Random(seed), caster, resistance, living=living, caster_dice=caster_dice, subject_dice=subject_dice
    )
    assert result.effective_skill <= caster
    assert result.caster.skill == result.effective_skill
    if living:
        assert result.cap == max(16, resistance)
        assert result.effective_skill == min(caster, max(16, resistance))
    else:
        assert result.cap is None
        assert result.effective_skill == caster
    if not result.caster.succeeded:
        assert result.subject is None
        assert result.result == "caster_failed"
    elif resistance < 3:
        assert result.result == "overcome"
    else:
        assert result.subject is not None
        beats = (result.caster.succeeded, result.caster.margin) > (result.subject.succeeded, result.subject.margin)
        assert result.caster_wins == beats
    # The Rule of 16 never changes whether the caster's own roll succeeds.
    assert result.caster.outcome == judge(result.caster.total, caster)


@settings(max_examples=150, deadline=None)
@given(
    seed=seeds,
    pool=st.integers(min_value=-100, max_value=40),
    again=agains,
    rote=st.booleans(),
    exceptional_at=st.integers(min_value=1, max_value=10),
)
def test_pools_are_consistent(seed: int, pool: int, again: int | None, rote: bool, exceptional_at: int) -> None:
    roll = roll_pool(random.Random(seed), pool, again=again, rote=rote, exceptional_at=exceptional_at)  # type: ignore[arg-type]
    faces = [face for die in roll.dice for face in die.faces + die.rote_faces]
    assert all(1 <= face <= 10 for face in faces)
    assert roll.successes == sum(die.successes for die in roll.dice)
    assert not roll.cap_hit
    if pool <= 0:
        assert roll.chance_die
        assert len(roll.dice) == 1
        assert len(roll.dice[0].faces) == 1
        assert roll.successes in (0, 1)
        return
    assert len(roll.dice) == pool
    for die in roll.dice:
        for chain in (die.faces, die.rote_faces):
            for earlier in chain[:-1]:  # only a die at again or more is followed by another
                assert again is not None
                assert earlier >= again
            if chain and again is not None:
                assert chain[-1] < again
        assert (die.rote_faces != []) == (rote and die.faces[0] < SUCCESS_AT)
        assert die.successes == sum(face >= SUCCESS_AT for face in die.faces + die.rote_faces)
    assert roll.explosions == sum(len(d.faces) - 1 + max(0, len(d.rote_faces) - 1) for d in roll.dice)
    if roll.successes == 0:
        assert roll.outcome == "failure"
    elif roll.successes >= exceptional_at:
        assert roll.outcome == "exceptional_success"
    else:
        assert roll.outcome == "success"


@FAST
@given(seed=seeds, pool=st.integers(min_value=1, max_value=20), again=agains, rote=st.booleans())
def test_a_pool_replays_exactly_from_its_own_dice(seed: int, pool: int, again: int | None, rote: bool) -> None:
    """What the RNG rolled, supplied back in rolling order, gives the same roll: the order is documented right."""
    rolled = roll_pool(random.Random(seed), pool, again=again, rote=rote)  # type: ignore[arg-type]
    recorder = _Recorder(seed)
    roll_pool(recorder, pool, again=again, rote=rote)  # type: ignore[arg-type]
    replayed = roll_pool(random.Random(0), pool, again=again, rote=rote, dice=recorder.faces)  # type: ignore[arg-type]
    assert replayed == rolled


@FAST
@given(seed=seeds, pool=st.integers(min_value=1, max_value=30), again=agains)
def test_rote_only_adds_rerolls_after_the_plain_roll(seed: int, pool: int, again: int | None) -> None:
    """Same seed, same original chains: rote changes nothing but the rerolls it appends."""
    plain = roll_pool(random.Random(seed), pool, again=again)  # type: ignore[arg-type]
    rote = roll_pool(random.Random(seed), pool, again=again, rote=True)  # type: ignore[arg-type]
    assert [die.faces for die in rote.dice] == [die.faces for die in plain.dice]
    assert rote.successes >= plain.successes


class _Recorder(random.Random):
    """Rolls like random.Random(seed) and remembers every face in the order it was rolled."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        face = super().randint(a, b)
        self.faces.append(face)
        return face


@FAST
@given(dice=st.lists(st.integers(), min_size=1, max_size=12).filter(lambda d: any(not 0 <= f <= 10 for f in d)))
def test_bad_pool_dice_are_refused(dice: list[int]) -> None:
    with pytest.raises(RuleError):
        roll_pool(random.Random(0), 5, dice=dice)


@FAST
@given(seed=seeds, level=st.integers(min_value=0, max_value=100))
def test_threshold_rolls_are_consistent(seed: int, level: int) -> None:
    for result in (discord_roll(random.Random(seed), level), harmony_roll(random.Random(seed), level)):
        if result.owed:
            assert len(result.dice) == 2
            assert all(1 <= face <= 10 for face in result.dice)
            assert result.event == (sum(result.dice) < level)
        else:
            assert result.dice == []
            assert not result.event


@FAST
@given(dice=bad_dice(2, 0, 10), level=st.integers(min_value=7, max_value=19))
def test_bad_threshold_dice_are_refused(dice: list[int], level: int) -> None:
    with pytest.raises(RuleError):
        discord_roll(random.Random(0), level, dice=dice)


@FAST
@given(seed=seeds, value=st.none() | st.integers(min_value=0, max_value=10))
def test_resonance_always_lands_in_one_band(seed: int, value: int | None) -> None:
    result = resonance_roll(random.Random(seed), RESONANCE_BANDS_RULING_9, value=value)
    assert 1 <= result.die <= 10
    assert result.band.low <= result.die <= result.band.high


@FAST
@given(value=st.integers().filter(lambda v: not 0 <= v <= 10))
def test_bad_resonance_values_are_refused(value: int) -> None:
    with pytest.raises(RuleError):
        resonance_roll(random.Random(0), RESONANCE_BANDS_RULING_9, value=value)


@FAST
@given(
    bonus=st.integers(min_value=-50, max_value=50),
    bands=st.lists(
        st.tuples(st.none() | st.integers(-10, 70), st.none() | st.integers(-10, 70)).filter(
            lambda band: band[0] is None or band[1] is None or band[0] <= band[1]
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_band_odds_are_probabilities(bonus: int, bands: list[tuple[int | None, int | None]]) -> None:
    odds = sum_band_odds(3, 6, bands, bonus=bonus)
    assert all(0 <= band.probability <= 1 for band in odds.bands)
    assert 0 <= odds.outside <= 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=-100, max_value=30), again=agains, rote=st.booleans(), e=st.integers(1, 10))
def test_pool_odds_are_probabilities(n: int, again: int | None, rote: bool, e: int) -> None:
    odds = pool_odds(n, again, rote, exceptional_at=e)  # type: ignore[arg-type]
    assert sum(odds.distribution) + odds.tail == 1
    assert 0 <= odds.exceptional <= odds.success <= 1
    assert odds.tail < 1e-12
