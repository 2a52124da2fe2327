"""Shared system dice: pure functions of a ``random.Random``, each returning every die it rolled.

- ``gurps``: 3d6 roll-under success rolls, Quick Contests and resisted spells (RULINGS 1-2).
- ``pools``: d10 success pools with n-again, rote and the chance die (RULING 15).
- ``threshold``: 2d10 Discord and Harmony checks, and the Resonance roll (RULINGS 8-9).
- ``odds``: the exact chances of all of the above, as fractions.

Every roll also takes the dice a GM rolled by hand, checked like any other input.
See docs/dice.md.
"""

from rules.dice.gurps import (
    CannotAttemptError,
    QuickContest,
    ResistedRoll,
    RollOutcome,
    SuccessRoll,
    judge,
    quick_contest,
    resisted_roll,
    roll_success,
)
from rules.dice.odds import (
    BandOdds,
    CheckOdds,
    PoolOdds,
    SumBand,
    SumOdds,
    ThresholdOdds,
    check_odds,
    pool_odds,
    sum_band_odds,
    sum_distribution,
    threshold_odds,
)
from rules.dice.pools import Again, PoolDie, PoolOutcome, PoolRoll, roll_pool
from rules.dice.threshold import (
    ResonanceBand,
    ResonanceRoll,
    ThresholdRoll,
    check_resonance_bands,
    discord_roll,
    harmony_roll,
    resonance_roll,
    threshold_roll,
)

__all__ = [
    "Again",
    "BandOdds",
    "CannotAttemptError",
    "CheckOdds",
    "PoolDie",
    "PoolOdds",
    "PoolOutcome",
    "PoolRoll",
    "QuickContest",
    "ResistedRoll",
    "ResonanceBand",
    "ResonanceRoll",
    "RollOutcome",
    "SuccessRoll",
    "SumBand",
    "SumOdds",
    "ThresholdOdds",
    "ThresholdRoll",
    "check_odds",
    "check_resonance_bands",
    "discord_roll",
    "harmony_roll",
    "judge",
    "pool_odds",
    "quick_contest",
    "resisted_roll",
    "resonance_roll",
    "roll_pool",
    "roll_success",
    "sum_band_odds",
    "sum_distribution",
    "threshold_odds",
    "threshold_roll",
]
