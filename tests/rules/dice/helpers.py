"""Test-only helpers: rigged RNGs and book data the dice code must not hold itself."""

from __future__ import annotations

import random

from rules.dice import ResonanceBand, SumBand

# Ruling 9's Resonance chart. The real rows live in data/serpent; code never repeats them.
RESONANCE_BANDS_RULING_9 = (
    ResonanceBand(low=1, high=3, gain=1),
    ResonanceBand(low=4, high=6, gain=2),
    ResonanceBand(low=7, high=9, gain=3),
    ResonanceBand(low=10, high=10, gain=5, overload=True),
)

# The Calamity Table's row boundaries (seed 001): 3-4, 5-9, 10-11, then single rows 12..29, 30-39, 40+.
CALAMITY_BANDS = (
    SumBand(low=3, high=4, label="3-4"),
    SumBand(low=5, high=9, label="5-9"),
    SumBand(low=10, high=11, label="10-11"),
    *(SumBand(low=total, high=total, label=str(total)) for total in range(12, 30)),
    SumBand(low=30, high=39, label="30-39"),
    SumBand(low=40, high=None, label="40+"),
)


def calamity_bonus(mp: int) -> int:
    """Ruling 3: +1 for each full 5 points of MP below zero."""
    return max(0, -mp) // 5


class AlwaysMax(random.Random):
    """An RNG rigged to roll the highest face every time: every 10 explodes."""

    def randint(self, a: int, b: int) -> int:
        return b


class NoDice(random.Random):
    """An RNG that fails the test if anything is rolled with it."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("nothing should have been rolled")
