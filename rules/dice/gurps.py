"""3d6 roll-under success rolls with GURPS criticals (RULINGS 1 and 2).

The runic ruleset uses GURPS Basic Set rolls without printing them, so the
rules live here once: the success roll, the Quick Contest and the resisted
spell with its Rule of 16. ``judge`` is the single classifier; the rolls and
the exact odds both call it, so they cannot drift apart.
"""

from collections.abc import Sequence
from random import Random
from typing import Literal

from rules.base import Model, RuleError
from rules.dice._faces import check_int, read_faces, roll_faces

MIN_SKILL = 3  # below this a roll cannot be attempted (ruling 1)
MAX_SKILL = 100  # no sane effective skill is higher; larger numbers are typos
RULE_OF_16 = 16

RollOutcome = Literal["critical_success", "success", "failure", "critical_failure"]
ContestResult = Literal["a_wins", "b_wins", "tie"]
ResistedResult = Literal["caster_failed", "resisted", "overcome"]


class CannotAttemptError(RuleError):
    """Effective skill below 3: GURPS forbids the roll, so nothing is rolled and nothing is paid."""

    def __init__(self, skill: int, who: str = "") -> None:
        self.skill = skill
        subject = f"{who}'s effective skill" if who else "Effective skill"
        super().__init__(
            f"{subject} {skill} is below {MIN_SKILL}: the roll cannot be attempted, so it fails and costs nothing. "
            f"Reduce the penalties (or buy skill with energy) to reach {MIN_SKILL} or more."
        )


def check_skill(skill: int, who: str = "") -> int:
    """An effective skill that may roll: at least 3 (else CannotAttemptError) and at most 100."""
    label = f"{who}'s effective skill" if who else "Effective skill"
    skill = check_int(skill, label)
    if skill < MIN_SKILL:
        raise CannotAttemptError(skill, who)
    if skill > MAX_SKILL:
        raise RuleError(f"{label} {skill} is not a sane value: use {MIN_SKILL} to {MAX_SKILL}.")
    return skill


def judge(total: int, skill: int) -> RollOutcome:
    """Classify a 3d6 total against an effective skill, exactly per ruling 1."""
    total = check_int(total, "A 3d6 total")
    if not 3 <= total <= 18:
        raise RuleError(f"A 3d6 total is from 3 to 18; got {total}.")
    skill = check_skill(skill)
    if total <= 4 or (total == 5 and skill >= 15) or (total == 6 and skill >= 16):
        return "critical_success"
    if total == 18 or (total == 17 and skill <= 15) or total >= skill + 10:
        return "critical_failure"
    if total <= skill and total <= 16:  # 17 and 18 always fail
        return "success"
    return "failure"


class SuccessRoll(Model):
    """One 3d6 success roll: the dice as rolled and what they mean."""

    dice: list[int]
    total: int
    skill: int
    margin: int  # skill - total: positive is a margin of success
    outcome: RollOutcome

    @property
    def succeeded(self) -> bool:
        return self.outcome in ("success", "critical_success")

    @property
    def critical(self) -> bool:
        return self.outcome.startswith("critical")


def roll_success(rng: Random, skill: int, *, dice: Sequence[int] | None = None) -> SuccessRoll:
    """Roll 3d6 against an effective skill; ``dice`` are three physical d6 if the table rolled its own."""
    skill = check_skill(skill)
    faces = roll_faces(rng, 6, 3) if dice is None else read_faces(dice, 6, "The 3d6 success roll", count=3)
    total = sum(faces)
    return SuccessRoll(dice=faces, total=total, skill=skill, margin=skill - total, outcome=judge(total, skill))


def _standing(roll: SuccessRoll) -> tuple[bool, int]:
    """How a roll ranks in a contest: any success beats any failure, then the larger margin."""
    return (roll.succeeded, roll.margin)


class QuickContest(Model):
    """Both sides roll; the better standing wins (GURPS Quick Contest)."""

    a: SuccessRoll
    b: SuccessRoll
    result: ContestResult
    both_failed: bool  # GURPS still names a winner (who failed by less); callers may treat it as nobody

    @property
    def winner(self) -> Literal["a", "b"] | None:
        if self.result == "tie":
            return None
        return "a" if self.result == "a_wins" else "b"


def quick_contest(
    rng: Random,
    skill_a: int,
    skill_b: int,
    *,
    dice_a: Sequence[int] | None = None,
    dice_b: Sequence[int] | None = None,
) -> QuickContest:
    """Roll a Quick Contest: success beats failure; otherwise the larger margin wins; equal margins tie."""
    skill_a = check_skill(skill_a, "Side A")
    skill_b = check_skill(skill_b, "Side B")
    faces_a = None if dice_a is None else read_faces(dice_a, 6, "Side A's 3d6", count=3)
    faces_b = None if dice_b is None else read_faces(dice_b, 6, "Side B's 3d6", count=3)
    roll_a = roll_success(rng, skill_a, dice=faces_a)
    roll_b = roll_success(rng, skill_b, dice=faces_b)
    rank_a, rank_b = _standing(roll_a), _standing(roll_b)
    result: ContestResult = "a_wins" if rank_a > rank_b else "b_wins" if rank_b > rank_a else "tie"
    both_failed = not roll_a.succeeded and not roll_b.succeeded
    return QuickContest(a=roll_a, b=roll_b, result=result, both_failed=both_failed)


class ResistedRoll(Model):
    """A resisted spell (ruling 2): the caster's roll, then the subject's, if it came to that."""

    caster_skill: int  # as asked
    resistance: int
    living: bool  # living or sapient subject: the Rule of 16 applies
    cap: int | None  # the Rule-of-16 ceiling in force, or None against a spell
    capped: bool  # True when the ceiling lowered the caster's skill
    effective_skill: int  # what the caster actually rolled against
    caster: SuccessRoll
    subject: SuccessRoll | None  # None: the caster failed, or a resistance below 3 could not be rolled
    result: ResistedResult
    tie: bool  # both margins equal: the subject resists

    @property
    def caster_wins(self) -> bool:
        return self.result == "overcome"


def resisted_roll(
    rng: Random,
    caster_skill: int,
    resistance: int,
    *,
    living: bool = True,
    caster_dice: Sequence[int] | None = None,
    subject_dice: Sequence[int] | None = None,
) -> ResistedRoll:
    """Resolve a resisted spell: the caster must succeed, then beat the subject's margin (ties resist).

    The Rule of 16 caps the caster's skill at max(16, resistance) against living or
    sapient subjects only. The cap is never below 16, and at 16 or more every
    3d6 total succeeds or fails (and is critical) exactly as at a higher skill,
    so capping the single caster roll changes only its margin.
    A resistance below 3 cannot be rolled: the subject cannot resist.
    """
    caster_skill = check_skill(caster_skill, "The caster")
    resistance = check_int(resistance, "Resistance")
    if resistance > MAX_SKILL:
        raise RuleError(f"Resistance {resistance} is not a sane value: use at most {MAX_SKILL}.")
    if not isinstance(living, bool):
        raise RuleError(f"living must be true or false; got {living!r}.")
    # Check both hands of physical dice first, so a typo is caught whatever the caster rolls.
    caster_faces = None if caster_dice is None else read_faces(caster_dice, 6, "The caster's 3d6", count=3)
    subject_faces = None if subject_dice is None else read_faces(subject_dice, 6, "The subject's 3d6", count=3)

    cap = max(RULE_OF_16, resistance) if living else None
    effective = min(caster_skill, cap) if cap is not None else caster_skill
    caster = roll_success(rng, effective, dice=caster_faces)
    subject: SuccessRoll | None = None
    tie = False
    if not caster.succeeded:
        result: ResistedResult = "caster_failed"  # the subject rolls nothing
    elif resistance < MIN_SKILL:
        result = "overcome"
    else:
        subject = roll_success(rng, resistance, dice=subject_faces)
        tie = _standing(caster) == _standing(subject)
        result = "overcome" if _standing(caster) > _standing(subject) else "resisted"
    return ResistedRoll(
        caster_skill=caster_skill,
        resistance=resistance,
        living=living,
        cap=cap,
        capped=effective < caster_skill,
        effective_skill=effective,
        caster=caster,
        subject=subject,
        result=result,
        tie=tie,
    )
