"""d10 success pools: again, rote and the chance die (RULING 15).

A die succeeds on 8+. With n-again a die showing n or more is rolled again and
the new die counts too, for as long as it keeps showing n or more. Rote rerolls
each original die that failed, once, and the reroll can explode. A pool of 0
or less rolls one chance die instead. Explosions are capped so a rigged or
unlucky RNG cannot spin forever; the result says when the cap stopped a roll.

Rolling order (what a GM supplying physical dice must follow): the pool; then
the explosions, round by round, one die for each die that exploded, in pool
order; then the rote rerolls, one for each failed original die, in pool order;
then their explosions, round by round.
"""

from collections.abc import Sequence
from random import Random
from typing import Literal

from pydantic import Field

from rules.base import Model, RuleError
from rules.dice._faces import FaceSource, check_range

SUCCESS_AT = 8  # a d10 showing 8, 9 or 10 is a success
CHANCE_SUCCESS = 10
CHANCE_DRAMATIC = 1
MIN_POOL = -100  # pools of 0 or less roll a chance die; far below that is a typo
MAX_POOL = 100
DEFAULT_EXCEPTIONAL_AT = 5
DEFAULT_MAX_EXPLOSIONS = 1000  # extra dice; an honest 100-die 8-again rote pool averages ~73
MAX_EXPLOSIONS_LIMIT = 10_000

Again = Literal[10, 9, 8] | None
AGAIN_VALUES: tuple[Again, ...] = (10, 9, 8, None)
PoolOutcome = Literal["dramatic_failure", "failure", "success", "exceptional_success"]


class PoolDie(Model):
    """One die of the pool, with everything it led to, so a renderer can show the chain."""

    faces: list[int]  # the die as first rolled, then each explosion it set off, in order
    # the rote reroll (if the die failed and rote applied), then its explosions
    rote_faces: list[int] = Field(default_factory=list)
    successes: int


class PoolRoll(Model):
    """A whole pool: every die rolled and the outcome."""

    pool: int  # as asked; 0 or less means a chance die was rolled
    again: Again
    rote: bool
    exceptional_at: int
    chance_die: bool
    dice: list[PoolDie]
    successes: int
    outcome: PoolOutcome
    explosions: int  # extra dice added by n-again, original and rote chains together
    max_explosions: int
    cap_hit: bool  # True if a die still wanted to explode when the cap was reached

    @property
    def succeeded(self) -> bool:
        return self.successes > 0

    @property
    def exceptional(self) -> bool:
        return self.outcome == "exceptional_success"

    @property
    def dramatic_failure(self) -> bool:
        return self.outcome == "dramatic_failure"


def check_pool_args(pool: int, again: Again, rote: bool, exceptional_at: int) -> int:
    """Validate the shared pool arguments (rolls and odds use the same words)."""
    pool = check_range(
        pool, "The dice pool", MIN_POOL, MAX_POOL, "A pool of 0 or less rolls a single chance die; use 0 for that."
    )
    if again not in AGAIN_VALUES or isinstance(again, bool):
        raise RuleError(f"again must be 10, 9, 8 or none (no rerolls); got {again!r}.")
    if not isinstance(rote, bool):
        raise RuleError(f"rote must be true or false; got {rote!r}.")
    check_range(exceptional_at, "exceptional_at", 1, 50, "Five is the usual threshold; some effects lower it to 3.")
    return pool


def _outcome(successes: int, exceptional_at: int) -> PoolOutcome:
    if successes == 0:
        return "failure"
    return "exceptional_success" if successes >= exceptional_at else "success"


def roll_pool(
    rng: Random,
    pool: int,
    *,
    again: Again = 10,
    rote: bool = False,
    exceptional_at: int = DEFAULT_EXCEPTIONAL_AT,
    max_explosions: int = DEFAULT_MAX_EXPLOSIONS,
    dice: Sequence[int] | None = None,
) -> PoolRoll:
    """Roll a d10 pool; ``dice`` are physical d10s in rolling order (see the module docstring)."""
    pool = check_pool_args(pool, again, rote, exceptional_at)
    max_explosions = check_range(max_explosions, "max_explosions", 0, MAX_EXPLOSIONS_LIMIT)
    source = FaceSource(rng, 10, dice, "The supplied pool dice")
    if pool <= 0:
        result = _chance_die(source, pool, again, rote, exceptional_at, max_explosions)
        source.finish()
        return result

    draw = source.next
    chains = [[draw()] for _ in range(pool)]
    budget, cap_hit = _explode(source, chains, again, max_explosions)
    rote_chains: dict[int, list[int]] = {}
    if rote:
        rote_chains = {i: [source.next()] for i, chain in enumerate(chains) if chain[0] < SUCCESS_AT}
        budget, rote_cap_hit = _explode(source, list(rote_chains.values()), again, budget)
        cap_hit = cap_hit or rote_cap_hit
    source.finish()

    dice_out = []
    for i, chain in enumerate(chains):
        rerolled = rote_chains.get(i, [])
        hits = len([face for face in chain + rerolled if face >= SUCCESS_AT])
        dice_out.append(PoolDie(faces=chain, rote_faces=rerolled, successes=hits))
    successes = sum(d.successes for d in dice_out)
    return PoolRoll(
        pool=pool,
        again=again,
        rote=rote,
        exceptional_at=exceptional_at,
        chance_die=False,
        dice=dice_out,
        successes=successes,
        outcome=_outcome(successes, exceptional_at),
        explosions=max_explosions - budget,
        max_explosions=max_explosions,
        cap_hit=cap_hit,
    )


def _explode(source: FaceSource, chains: list[list[int]], again: Again, budget: int) -> tuple[int, bool]:
    """Roll again for each chain whose last die is ``again`` or more, round by round.

    Returns the explosion budget left and whether the cap stopped a die that
    still wanted to explode.
    """
    if again is None:
        return budget, False
    active = [chain for chain in chains if chain[-1] >= again]
    while active:
        still = []
        for chain in active:
            if budget == 0:
                return 0, True
            chain.append(source.next())
            budget -= 1
            if chain[-1] >= again:
                still.append(chain)
        active = still
    return budget, False


def _chance_die(
    source: FaceSource, pool: int, again: Again, rote: bool, exceptional_at: int, max_explosions: int
) -> PoolRoll:
    """One chance die: 10 succeeds, 1 is a dramatic failure, and it never explodes.

    With rote, a failed chance die (2-9) is rerolled once as a chance die; a
    dramatic failure stands and is not rerolled (the Chronicles rule).
    """
    first = source.next()
    rerolled = [source.next()] if rote and CHANCE_DRAMATIC < first < CHANCE_SUCCESS else []
    final = rerolled[0] if rerolled else first
    successes = 1 if final == CHANCE_SUCCESS else 0
    if final == CHANCE_DRAMATIC:
        outcome: PoolOutcome = "dramatic_failure"
    else:
        outcome = _outcome(successes, exceptional_at)
    return PoolRoll(
        pool=pool,
        again=again,
        rote=rote,
        exceptional_at=exceptional_at,
        chance_die=True,
        dice=[PoolDie(faces=[first], rote_faces=rerolled, successes=successes)],
        successes=successes,
        outcome=outcome,
        explosions=0,
        max_explosions=max_explosions,
        cap_hit=False,
    )
