"""3d6 success rolls, Quick Contests and resisted spells against RULINGS 1 and 2."""

from __future__ import annotations

import random
from itertools import product

import pytest

from rules.base import RuleError
from rules.dice import CannotAttemptError, judge, quick_contest, resisted_roll, roll_success
from tests.rules.dice.helpers import NoDice

# ---------------------------------------------------------------- judge: every edge of ruling 1


@pytest.mark.parametrize(
    ("total", "skill", "expected"),
    [
        # 3 and 4 always critically succeed, even at skill 3 where 4 is over the skill
        (3, 3, "critical_success"),
        (4, 3, "critical_success"),
        (4, 30, "critical_success"),
        # 5 needs skill 15, 6 needs skill 16
        (5, 14, "success"),
        (5, 15, "critical_success"),
        (6, 15, "success"),
        (6, 16, "critical_success"),
        (6, 5, "failure"),
        # 17 and 18 always fail; 17 is critical at skill 15 or less
        (17, 15, "critical_failure"),
        (17, 16, "failure"),
        (17, 30, "failure"),
        (18, 30, "critical_failure"),
        (18, 16, "critical_failure"),
        (16, 16, "success"),
        (16, 30, "success"),
        # any roll 10 or more over the skill is a critical failure
        (13, 3, "critical_failure"),
        (12, 3, "failure"),
        (16, 6, "critical_failure"),
        (15, 6, "failure"),
        (14, 4, "critical_failure"),
        # plain roll-under
        (10, 10, "success"),
        (11, 10, "failure"),
    ],
)
def test_judge_edges(total: int, skill: int, expected: str) -> None:
    assert judge(total, skill) == expected


def _ruling_1(total: int, skill: int) -> str:
    """Ruling 1 restated from its text, independently of rules.dice.gurps."""
    crit_success = {3, 4} | ({5} if skill >= 15 else set()) | ({6} if skill >= 16 else set())
    crit_failure = {18} | ({17} if skill <= 15 else set()) | set(range(skill + 10, 19))
    if total in crit_success:
        return "critical_success"
    if total in crit_failure:
        return "critical_failure"
    return "success" if total <= skill and total not in (17, 18) else "failure"


@pytest.mark.parametrize("skill", range(3, 31))
def test_every_roll_at_every_skill_matches_the_ruling(skill: int) -> None:
    for dice in product(range(1, 7), repeat=3):
        roll = roll_success(NoDice(), skill, dice=dice)
        assert roll.outcome == _ruling_1(sum(dice), skill), (dice, skill)
        assert roll.total == sum(dice)
        assert roll.margin == skill - sum(dice)
        assert roll.dice == list(dice)
        assert roll.succeeded == (roll.outcome in ("success", "critical_success"))


# ---------------------------------------------------------------- cannot attempt, bad input


@pytest.mark.parametrize("skill", [2, 0, -5])
def test_skill_below_3_cannot_be_attempted(skill: int) -> None:
    with pytest.raises(CannotAttemptError, match=rf"Effective skill {skill} is below 3: the roll cannot be attempted"):
        roll_success(NoDice(), skill)  # nothing is rolled
    with pytest.raises(CannotAttemptError):
        judge(10, skill)


def test_cannot_attempt_is_a_rule_error_that_keeps_the_skill() -> None:
    with pytest.raises(RuleError) as caught:
        roll_success(random.Random(1), 2)
    assert isinstance(caught.value, CannotAttemptError)
    assert caught.value.skill == 2


@pytest.mark.parametrize("skill", [101, 1000, True, 10.0, "12"])
def test_insane_skill_is_refused(skill: object) -> None:
    with pytest.raises(RuleError) as caught:
        roll_success(random.Random(1), skill)  # type: ignore[arg-type]
    assert not isinstance(caught.value, CannotAttemptError)


@pytest.mark.parametrize(
    "dice", [[1, 2], [1, 2, 3, 4], [0, 3, 3], [7, 1, 1], [1, 2, -3], ["1", 2, 3], [1.0, 2, 3], [True, 2, 3], "123"]
)
def test_bad_physical_dice_are_refused(dice: object) -> None:
    with pytest.raises(RuleError, match="3d6"):
        roll_success(random.Random(1), 12, dice=dice)  # type: ignore[arg-type]


@pytest.mark.parametrize(("total", "skill"), [(2, 10), (19, 10), (0, 10)])
def test_judge_refuses_impossible_totals(total: int, skill: int) -> None:
    with pytest.raises(RuleError, match="3 to 18"):
        judge(total, skill)


def test_seeded_rolls_repeat_and_stay_in_range() -> None:
    first = [roll_success(random.Random(7), 12) for _ in range(3)]
    again = [roll_success(random.Random(7), 12) for _ in range(3)]
    assert first == again
    rng = random.Random(99)
    for _ in range(500):
        roll = roll_success(rng, 12)
        assert len(roll.dice) == 3
        assert all(1 <= face <= 6 for face in roll.dice)


# ---------------------------------------------------------------- Quick Contest


def test_quick_contest_larger_margin_wins() -> None:
    contest = quick_contest(NoDice(), 14, 12, dice_a=[3, 3, 3], dice_b=[2, 2, 2])  # margins 5 and 6
    assert contest.result == "b_wins"
    assert contest.winner == "b"
    assert not contest.both_failed


def test_quick_contest_success_beats_failure() -> None:
    # A's critical success at skill 3 has margin -1; B's 18 at skill 20 fails with margin 2.
    contest = quick_contest(NoDice(), 3, 20, dice_a=[1, 1, 2], dice_b=[6, 6, 6])
    assert contest.a.outcome == "critical_success"
    assert contest.b.outcome == "critical_failure"
    assert contest.result == "a_wins"


def test_quick_contest_equal_margins_tie() -> None:
    contest = quick_contest(NoDice(), 12, 10, dice_a=[3, 3, 4], dice_b=[2, 3, 3])  # both margin 2
    assert contest.result == "tie"
    assert contest.winner is None


def test_quick_contest_both_failing_is_reported() -> None:
    contest = quick_contest(NoDice(), 10, 10, dice_a=[4, 4, 4], dice_b=[5, 5, 4])  # fail by 2 and by 4
    assert contest.both_failed
    assert contest.result == "a_wins"  # GURPS: whoever failed by less
    tie = quick_contest(NoDice(), 10, 10, dice_a=[4, 4, 4], dice_b=[4, 4, 4])
    assert tie.both_failed
    assert tie.result == "tie"


def test_quick_contest_rolls_both_sides() -> None:
    contest = quick_contest(random.Random(3), 12, 12)
    assert len(contest.a.dice) == len(contest.b.dice) == 3


def test_quick_contest_names_the_side_that_cannot_roll() -> None:
    with pytest.raises(CannotAttemptError, match="Side B"):
        quick_contest(NoDice(), 12, 1)
    with pytest.raises(RuleError, match="Side A"):
        quick_contest(NoDice(), 12, 12, dice_a=[1, 2], dice_b=[1, 2, 3])


# ---------------------------------------------------------------- resisted spells


def test_caster_failure_means_the_subject_rolls_nothing() -> None:
    result = resisted_roll(NoDice(), 12, 10, caster_dice=[5, 5, 5])
    assert result.result == "caster_failed"
    assert result.subject is None
    assert not result.caster_wins
    # Supplied subject dice are checked but not used.
    result = resisted_roll(NoDice(), 12, 10, caster_dice=[6, 6, 6], subject_dice=[1, 1, 1])
    assert result.subject is None
    assert result.caster.outcome == "critical_failure"


def test_caster_failure_still_checks_the_subject_dice() -> None:
    with pytest.raises(RuleError, match="subject"):
        resisted_roll(NoDice(), 12, 10, caster_dice=[6, 6, 6], subject_dice=[9, 1, 1])


def test_tie_goes_to_the_subject() -> None:
    result = resisted_roll(NoDice(), 14, 12, caster_dice=[3, 3, 4], subject_dice=[2, 3, 3])  # margins 4 and 4
    assert result.tie
    assert result.result == "resisted"
    assert not result.caster_wins


def test_larger_caster_margin_overcomes() -> None:
    result = resisted_roll(NoDice(), 14, 12, caster_dice=[3, 3, 3], subject_dice=[2, 3, 3])  # 5 against 4
    assert result.result == "overcome"
    assert result.caster_wins
    assert not result.tie


def test_failed_resistance_is_overcome() -> None:
    result = resisted_roll(NoDice(), 10, 12, caster_dice=[3, 3, 4], subject_dice=[5, 5, 5])
    assert result.result == "overcome"
    assert result.subject is not None
    assert not result.subject.succeeded


def test_rule_of_16_caps_at_16_against_low_resistance() -> None:
    result = resisted_roll(NoDice(), 20, 12, caster_dice=[3, 3, 4], subject_dice=[2, 2, 2])
    assert result.cap == 16
    assert result.capped
    assert result.effective_skill == 16
    assert result.caster.skill == 16
    assert result.caster.margin == 6  # 16 - 10, not 20 - 10
    assert result.subject is not None
    assert result.subject.margin == 6
    assert result.result == "resisted"  # the tie the cap created goes to the subject


def test_rule_of_16_caps_at_a_resistance_above_16() -> None:
    result = resisted_roll(NoDice(), 22, 18, caster_dice=[3, 3, 4], subject_dice=[3, 3, 4])
    assert result.cap == 18
    assert result.effective_skill == 18
    assert result.capped
    assert result.tie
    assert result.result == "resisted"


def test_rule_of_16_does_not_touch_a_skill_under_the_cap() -> None:
    result = resisted_roll(NoDice(), 15, 10, caster_dice=[3, 3, 4], subject_dice=[3, 3, 4])
    assert result.cap == 16
    assert not result.capped
    assert result.effective_skill == 15
    assert result.result == "overcome"  # 5 against 0


def test_no_cap_against_a_spell() -> None:
    result = resisted_roll(NoDice(), 20, 12, living=False, caster_dice=[3, 3, 4], subject_dice=[2, 2, 2])
    assert result.cap is None
    assert not result.capped
    assert result.effective_skill == 20
    assert result.caster.margin == 10
    assert result.result == "overcome"  # 10 against 6: the same dice that tied against a living subject


def test_resistance_below_3_cannot_resist() -> None:
    result = resisted_roll(NoDice(), 12, 2, caster_dice=[4, 4, 4])
    assert result.result == "overcome"
    assert result.subject is None


def test_resisted_roll_rejects_bad_input() -> None:
    with pytest.raises(CannotAttemptError, match="caster"):
        resisted_roll(NoDice(), 2, 10)
    with pytest.raises(RuleError, match="Resistance"):
        resisted_roll(NoDice(), 12, 101)
    with pytest.raises(RuleError, match="living"):
        resisted_roll(NoDice(), 12, 10, living="yes")  # type: ignore[arg-type]
