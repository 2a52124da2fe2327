"""Serpent's Tongue d10 rolls: Discord and Harmony checks (RULING 8), Resonance (RULING 9).

Discord and Harmony checks are owed in the initiative phase at 7 or more:
roll 2d10 (2-20) and an event happens iff the sum is strictly less than the
level. Below 7 nothing is rolled, so the channel shows only the rolls the
rules call for and the table's RNG is not consumed by non-rolls. 20 Discord
incapacitates at once, so no roll is made at 20 or more Discord either.

The Resonance chart is book data (``data/serpent``); this module only defines
the band model it is loaded into and reads a d10 against it.
"""

from collections.abc import Sequence
from random import Random
from typing import Literal

from pydantic import Field, model_validator

from rules.base import Model, RuleError
from rules.dice._faces import check_range, read_face, read_faces, roll_faces

THRESHOLD_START = 7  # a check is owed at 7 or more Discord or Harmony
DISCORD_INCAPACITATES = 20
MAX_LEVEL = 100  # no sane Discord or Harmony is higher

ThresholdKind = Literal["discord", "harmony"]


class ThresholdRoll(Model):
    """One Discord or Harmony check for one Magi."""

    kind: ThresholdKind
    level: int  # the Discord (as a positive number) or the Harmony
    owed: bool  # False below 7, and at 20+ Discord (already incapacitated)
    dice: list[int]  # the two d10s (0 read as 10), empty when no roll was owed
    total: int | None
    event: bool  # Discord: 3 Essence of unblockable damage; Harmony: gain 1 Will
    incapacitated: bool  # 20 or more Discord


def check_level(level: int, kind: ThresholdKind = "discord") -> int:
    """A Discord or Harmony amount, counted upwards from 0."""
    hint = "Give Discord as a positive amount: -7 Harmony is 7 Discord." if kind == "discord" else ""
    return check_range(level, f"The {kind.capitalize()} level", 0, MAX_LEVEL, hint)


def threshold_roll(rng: Random, level: int, *, kind: ThresholdKind, dice: Sequence[int] | None = None) -> ThresholdRoll:
    """Make the check if one is owed; ``dice`` are two physical d10s, only when it is owed."""
    if kind not in ("discord", "harmony"):
        raise RuleError(f"kind must be 'discord' or 'harmony'; got {kind!r}.")
    level = check_level(level, kind)
    name = kind.capitalize()
    incapacitated = kind == "discord" and level >= DISCORD_INCAPACITATES
    owed = level >= THRESHOLD_START and not incapacitated
    if not owed:
        if dice is not None:
            why = (
                f"{level} Discord incapacitates at once"
                if incapacitated
                else f"checks start at {THRESHOLD_START} and this is {level}"
            )
            raise RuleError(f"No {name} roll is owed ({why}), so there are no dice to supply.")
        return ThresholdRoll(
            kind=kind, level=level, owed=False, dice=[], total=None, event=False, incapacitated=incapacitated
        )
    faces = roll_faces(rng, 10, 2) if dice is None else read_faces(dice, 10, f"The {name} roll", count=2)
    total = sum(faces)
    return ThresholdRoll(
        kind=kind, level=level, owed=True, dice=faces, total=total, event=total < level, incapacitated=False
    )


def discord_roll(rng: Random, discord: int, *, dice: Sequence[int] | None = None) -> ThresholdRoll:
    """The initiative-phase Discord check: an event is 3 Essence of unblockable damage."""
    return threshold_roll(rng, discord, kind="discord", dice=dice)


def harmony_roll(rng: Random, harmony: int, *, dice: Sequence[int] | None = None) -> ThresholdRoll:
    """The initiative-phase Harmony check: an event gains 1 Will."""
    return threshold_roll(rng, harmony, kind="harmony", dice=dice)


# ---------------------------------------------------------------- Resonance


class ResonanceBand(Model):
    """One row of the Resonance chart, as the serpent data file states it."""

    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    gain: int = Field(ge=0)
    overload: bool = False  # a Resonance Overload: every being with Harmony loses 1

    @model_validator(mode="after")
    def _ordered(self) -> "ResonanceBand":
        if self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        return self


class ResonanceRoll(Model):
    """The round's single Resonance roll, before any Encounter bonus."""

    die: int  # 1-10; a face reading 0 is 10
    band: ResonanceBand
    gain: int
    overload: bool


def check_resonance_bands(bands: Sequence[ResonanceBand]) -> list[ResonanceBand]:
    """The chart must give every face 1-10 exactly one row, or some roll would mean nothing (or two things)."""
    rows = list(bands)
    if not rows or not all(isinstance(row, ResonanceBand) for row in rows):
        raise RuleError("The Resonance chart must be a non-empty list of ResonanceBand rows.")
    for face in range(1, 11):
        hits = [row for row in rows if row.low <= face <= row.high]
        if len(hits) != 1:
            problem = "no row" if not hits else f"{len(hits)} rows"
            raise RuleError(f"The Resonance chart gives face {face} {problem}; each face 1-10 needs exactly one.")
    return rows


def resonance_roll(rng: Random, bands: Sequence[ResonanceBand], *, value: int | None = None) -> ResonanceRoll:
    """Roll 1d10 for the whole table and read the chart; ``value`` is a physical die."""
    rows = check_resonance_bands(bands)
    die = rng.randint(1, 10) if value is None else read_face(value, 10, "The Resonance roll")
    band = next(row for row in rows if row.low <= die <= row.high)
    return ResonanceRoll(die=die, band=band, gain=band.gain, overload=band.overload)
