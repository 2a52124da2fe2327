"""Where die faces come from: the table's RNG, or dice a GM rolled by hand.

Every roll function takes an optional list of physical dice so groups with real
dice and scripted tutorials use the same rules code. This module checks those
values once, with messages a player can act on, and hands faces out in rolling
order so a roll never cares which source it is reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from random import Random

from rules.base import RuleError


def check_int(value: object, what: str) -> int:
    """An integer argument, or a RuleError naming it: bools and floats are typos, not numbers."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a whole number; got {value!r}.")
    return value


def check_range(value: object, what: str, low: int, high: int, hint: str = "") -> int:
    """An integer within [low, high]; the message says the range that would work."""
    number = check_int(value, what)
    if not low <= number <= high:
        extra = f" {hint}" if hint else ""
        raise RuleError(f"{what} must be from {low} to {high}; got {number}.{extra}")
    return number


def read_face(value: object, sides: int, what: str) -> int:
    """One physical die. A d10 may be read as printed: its 0 face counts as 10."""
    lowest = 0 if sides == 10 else 1
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= sides:
        shown = "1 to 10 (0 also reads as 10)" if sides == 10 else f"1 to {sides}"
        raise RuleError(f"{what}: a d{sides} shows {shown}; got {value!r}.")
    return sides if value == 0 else value


def read_faces(dice: Sequence[int], sides: int, what: str, count: int | None = None) -> list[int]:
    """Physical dice for a roll; ``count`` is how many the roll needs, when that is fixed."""
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
        raise RuleError(f"{what}: supply the dice as a list of numbers, such as [3, 5, 6]; got {dice!r}.")
    faces = [read_face(value, sides, what) for value in dice]
    if count is not None and len(faces) != count:
        plural = "die" if count == 1 else "dice"
        raise RuleError(f"{what}: needs exactly {count} {plural} (d{sides}); got {len(faces)}: {list(dice)}.")
    return faces


def roll_faces(rng: Random, sides: int, count: int) -> list[int]:
    """Fresh dice from the table's RNG (always through ``randint`` so tests can rig it)."""
    return [rng.randint(1, sides) for _ in range(count)]


class FaceSource:
    """Hands out faces in rolling order, from supplied dice or the RNG.

    Used where the number of dice is not known up front (explosions, rerolls):
    running out of supplied dice, or leaving some unused, is the GM's typo and
    says how many the roll really needed.
    """

    def __init__(self, rng: Random, sides: int, supplied: Sequence[int] | None, what: str) -> None:
        self._rng = rng
        self._sides = sides
        self._what = what
        self._supplied = None if supplied is None else read_faces(supplied, sides, what)
        self._used = 0
        if self._supplied is None:  # the hot path of big pools: skip the checks below
            self.next = partial(rng.randint, 1, sides)  # type: ignore[method-assign]

    def next(self) -> int:
        """The next die in rolling order."""
        assert self._supplied is not None
        if self._used >= len(self._supplied):
            raise RuleError(
                f"{self._what}: the roll needs more dice than the {len(self._supplied)} supplied "
                "(explosions and rerolls add dice). Supply every die in rolling order."
            )
        face = self._supplied[self._used]
        self._used += 1
        return face

    def finish(self) -> None:
        """Refuse leftovers: unused supplied dice mean the GM and the rules disagree about the roll."""
        if self._supplied is not None and self._used != len(self._supplied):
            extra = self._supplied[self._used :]
            raise RuleError(
                f"{self._what}: the roll used {self._used} of the {len(self._supplied)} dice supplied; "
                f"{extra} were left over. Supply only the dice the roll needs, in rolling order."
            )
