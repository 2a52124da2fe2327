"""Exact odds for every system roll, as fractions: enumerated or in closed form, never sampled.

``/odds`` shows these to players, and the tests pin the rulings' exact checks
with them, so they share the classifiers the rolls use (``judge``, the 2d10
threshold, the pool's success face) instead of restating the rules.
"""

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from math import comb, lcm

from rules.base import Model, RuleError
from rules.dice._faces import check_int, check_range
from rules.dice.gurps import check_skill, judge
from rules.dice.pools import CHANCE_DRAMATIC, CHANCE_SUCCESS, SUCCESS_AT, Again, check_pool_args
from rules.dice.threshold import DISCORD_INCAPACITATES, THRESHOLD_START, ThresholdKind, check_level

TAIL_BELOW = Fraction(1, 10**12)  # pool distributions stop once the mass still unlisted is below this
MAX_LISTED = 2_000  # ...or at this many terms (a 100-die 8-again rote pool needs 150); the tail stays exact
MAX_SUM_DICE = 20
MAX_SIDES = 100


# ---------------------------------------------------------------- sums of dice


def percent(value: Fraction) -> str:
    """A chance as every odds card shows it: two decimals."""
    return f"{float(value) * 100:.2f}%"


def exact(value: Fraction) -> str:
    """The percentage, and the fraction itself where it is short enough to read."""
    return (
        f"{percent(value)} ({value.numerator}/{value.denominator})" if value.denominator <= 10_000 else percent(value)
    )


def sum_distribution(dice: int, sides: int) -> dict[int, Fraction]:
    """P(total) for ``dice``d``sides``, by exact convolution of the ways to roll each total."""
    dice = check_range(dice, "The number of dice", 1, MAX_SUM_DICE)
    sides = check_range(sides, "The number of sides", 2, MAX_SIDES)
    outcomes = sides**dice
    return {total: Fraction(count, outcomes) for total, count in _ways(dice, sides)}


@cache
def _ways(dice: int, sides: int) -> tuple[tuple[int, int], ...]:
    """(total, number of ways) pairs, cached: /odds asks for 3d6 and 2d10 over and over."""
    ways = {0: 1}
    for _ in range(dice):
        step: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, sides + 1):
                step[total + face] = step.get(total + face, 0) + count
        ways = step
    return tuple(sorted(ways.items()))


class CheckOdds(Model):
    """3d6 against an effective skill (ruling 1). ``success`` includes critical successes."""

    skill: int
    success: Fraction
    critical_success: Fraction
    failure: Fraction  # 1 - success, critical failures included
    critical_failure: Fraction


def check_odds(skill: int) -> CheckOdds:
    """Exact chances of a 3d6 success roll, by judging every total with its number of ways."""
    skill = check_skill(skill)
    by_outcome = dict.fromkeys(("critical_success", "success", "failure", "critical_failure"), Fraction(0))
    for total, chance in sum_distribution(3, 6).items():
        by_outcome[judge(total, skill)] += chance
    success = by_outcome["critical_success"] + by_outcome["success"]
    return CheckOdds(
        skill=skill,
        success=success,
        critical_success=by_outcome["critical_success"],
        failure=1 - success,
        critical_failure=by_outcome["critical_failure"],
    )


class SumBand(Model):
    """An inclusive range of totals, such as one row of the Calamity Table; None leaves an end open."""

    low: int | None = None
    high: int | None = None
    label: str = ""

    def holds(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


class BandOdds(Model):
    band: SumBand
    probability: Fraction


class SumOdds(Model):
    """The chance that ``dice``d``sides`` + ``bonus`` lands in each band."""

    dice: int
    sides: int
    bonus: int
    bands: list[BandOdds]
    outside: Fraction  # mass in no band at all (0 for a table that covers every total)


def sum_band_odds(
    dice: int, sides: int, bands: Sequence[SumBand | tuple[int | None, int | None]], *, bonus: int = 0
) -> SumOdds:
    """Chances of each band of a table read with NdS + bonus; a Calamity check is 3d6 + max(0, -MP) // 5.

    Bands may be open-ended (40+) and may overlap (each is reported on its own,
    so "29 or more" can be asked beside the table's rows).
    """
    bonus = check_range(bonus, "The bonus", -1000, 1000)
    rows = [row if isinstance(row, SumBand) else _band_from_tuple(row) for row in bands]
    if not rows:
        raise RuleError("Give at least one band of totals, such as (3, 4) or (40, None) for 40+.")
    for row in rows:
        if row.low is not None and row.high is not None and row.low > row.high:
            raise RuleError(f"A band runs from low to high; got {row.low} to {row.high}.")
    chances = {total + bonus: p for total, p in sum_distribution(dice, sides).items()}
    odds = [BandOdds(band=row, probability=_mass(chances, row.holds)) for row in rows]
    outside = _mass(chances, lambda total: not any(row.holds(total) for row in rows))
    return SumOdds(dice=dice, sides=sides, bonus=bonus, bands=odds, outside=outside)


def _mass(chances: dict[int, Fraction], keep: Callable[[int], bool]) -> Fraction:
    """Total probability of the totals ``keep`` accepts."""
    return sum((p for total, p in chances.items() if keep(total)), Fraction(0))


def _band_from_tuple(row: object) -> SumBand:
    if not isinstance(row, tuple) or len(row) != 2:
        raise RuleError(f"A band is a SumBand or a (low, high) pair; got {row!r}.")
    low, high = (None if end is None else check_int(end, "A band end") for end in row)
    return SumBand(low=low, high=high)


# ---------------------------------------------------------------- 2d10 thresholds


class ThresholdOdds(Model):
    """The chance of a Discord or Harmony event at a level (ruling 8)."""

    level: int
    kind: ThresholdKind
    owed: bool
    event: Fraction  # P(2d10 < level) when owed, else 0
    incapacitated: bool


def threshold_odds(level: int, *, kind: ThresholdKind = "discord") -> ThresholdOdds:
    """Exact chance of an event: the 2d10 totals below the level, out of 100."""
    if kind not in ("discord", "harmony"):
        raise RuleError(f"kind must be 'discord' or 'harmony'; got {kind!r}.")
    level = check_level(level, kind)
    incapacitated = kind == "discord" and level >= DISCORD_INCAPACITATES
    owed = level >= THRESHOLD_START and not incapacitated
    event = _mass(sum_distribution(2, 10), lambda total: total < level) if owed else Fraction(0)
    return ThresholdOdds(level=level, kind=kind, owed=owed, event=event, incapacitated=incapacitated)


# ---------------------------------------------------------------- d10 pools


class PoolOdds(Model):
    """Exact chances for a d10 pool (ruling 15). Explosions make the distribution infinite:
    ``distribution`` lists P(k successes) from k = 0 until the unlisted mass ``tail`` (exact) is below 1e-12.
    """

    pool: int
    again: Again
    rote: bool
    exceptional_at: int
    chance_die: bool
    success: Fraction  # at least one success
    exceptional: Fraction
    dramatic_failure: Fraction
    expected: Fraction  # mean successes
    distribution: list[Fraction]
    tail: Fraction


def die_generating_terms(again: Again, rote: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(alpha, beta, q) such that one die's successes have generating function (alpha + beta x) / (1 - q x).

    A face below 8 (7/10) ends the die with no success; 8 up to again-1 ends it
    with one; again or more scores one and rolls on. Rote replaces the failing
    7/10 with a fresh die: (1 + 7/10) G(x) - 7/10, which has the same form.
    """
    fail = Fraction(SUCCESS_AT - 1, 10)
    q = Fraction(0) if again is None else Fraction(11 - again, 10)
    stop_success = Fraction(11 - SUCCESS_AT, 10) - q
    if not rote:
        return fail, stop_success, q
    return fail * fail, (1 + fail) * stop_success + fail * q, q


def pool_odds(n: int, again: Again = 10, rote: bool = False, exceptional_at: int = 5) -> PoolOdds:
    """Exact chances for an n-die pool; n <= 0 is the chance die.

    The pool's generating function is ((alpha + beta x) / (1 - q x)) ** n, so
    P(k) = sum_j C(n, j) alpha^(n-j) beta^j C(n-1+k-j, k-j) q^(k-j) and the
    mean is n (beta + q alpha) / (1 - q)^2: both exact, no truncation. Only the
    listed distribution stops, with its exact tail reported. The roll's
    explosion cap is ignored here: it is far beyond any honest pool.
    """
    n = check_pool_args(n, again, rote, exceptional_at)
    if n <= 0:
        return _chance_odds(n, again, rote, exceptional_at)
    alpha, beta, q = die_generating_terms(again, rote)
    # Whole numbers for speed: alpha = A/D, beta = B/D, q = Q/10, so P(k) = ways(k) / (D^n 10^k).
    scale = lcm(alpha.denominator, beta.denominator)
    big_a, big_b, big_q = int(alpha * scale), int(beta * scale), int(q * 10)
    terms = [comb(n, j) * big_a ** (n - j) * big_b**j * 10**j for j in range(n + 1)]
    base = scale**n

    def p(k: int) -> Fraction:
        ways = sum(terms[j] * comb(n - 1 + k - j, k - j) * big_q ** (k - j) for j in range(min(n, k) + 1))
        return Fraction(ways, base * 10**k)

    distribution: list[Fraction] = []
    listed = Fraction(0)
    for k in range(MAX_LISTED):
        if listed == 1 or (k >= exceptional_at and 1 - listed < TAIL_BELOW):
            break
        distribution.append(p(k))
        listed += distribution[-1]
    return PoolOdds(
        pool=n,
        again=again,
        rote=rote,
        exceptional_at=exceptional_at,
        chance_die=False,
        success=1 - distribution[0],
        exceptional=1 - sum(distribution[:exceptional_at], Fraction(0)),
        dramatic_failure=Fraction(0),
        expected=n * (beta + q * alpha) / (1 - q) ** 2,
        distribution=distribution,
        tail=1 - listed,
    )


def _chance_odds(n: int, again: Again, rote: bool, exceptional_at: int) -> PoolOdds:
    """One chance die: 10 succeeds, 1 is a dramatic failure; rote rerolls a 2-9 once as a chance die."""
    face = Fraction(1, 10)
    rerolled = Fraction(CHANCE_SUCCESS - CHANCE_DRAMATIC - 1, 10) if rote else Fraction(0)
    success = face + rerolled * face
    dramatic = face + rerolled * face
    return PoolOdds(
        pool=n,
        again=again,
        rote=rote,
        exceptional_at=exceptional_at,
        chance_die=True,
        success=success,
        exceptional=success if exceptional_at <= 1 else Fraction(0),
        dramatic_failure=dramatic,
        expected=success,
        distribution=[1 - success, success],
        tail=Fraction(0),
    )
