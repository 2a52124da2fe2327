"""GURPS dice notation ("3d+5", "1d×5") for the sub-rolls the tables call for.

The 3d6 success roll lives in ``rules.dice.gurps``; this module only rolls the
plain damage-style dice the Calamity and Critical Failure tables name, and keeps
every face so a card can show it.
"""

import re
from random import Random

from rules.base import Model, RuleError

_DICE = re.compile(r"^\s*(\d+)\s*d\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)
MAX_DICE = 100  # (Will+Magery) dice is the largest the book asks for


class DiceSpec(Model):
    """``count`` d6 plus ``adds``, times ``multiply``: the book's "1dx5" is count=1, multiply=5."""

    count: int
    adds: int = 0
    multiply: int = 1

    @classmethod
    def parse(cls, text: str, multiply: int = 1) -> "DiceSpec":
        match = _DICE.match(text)
        if not match:
            raise RuleError(f"{text!r} is not GURPS dice; write it like 3d, 1d+1 or 2d-1.")
        count = int(match.group(1))
        adds = int(match.group(3) or 0) * (-1 if match.group(2) == "-" else 1)
        if count > MAX_DICE:
            raise RuleError(f"{text!r}: at most {MAX_DICE} dice.")
        return cls(count=count, adds=adds, multiply=multiply)

    @property
    def text(self) -> str:
        base = f"{self.count}d" + (f"{self.adds:+d}" if self.adds else "")
        return base if self.multiply == 1 else f"{base}×{self.multiply}"


class DiceRoll(Model):
    """What a sub-roll showed: the spec, every face, and the result (never below 0)."""

    spec: str
    dice: list[int]
    total: int

    @property
    def text(self) -> str:
        faces = "+".join(str(d) for d in self.dice) or "0"
        return f"{self.spec} [{faces}] = {self.total}"


def roll(rng: Random, spec: DiceSpec | str) -> DiceRoll:
    """Roll a spec with the table's RNG (through ``randint``, so tests can rig it)."""
    if isinstance(spec, str):
        spec = DiceSpec.parse(spec)
    faces = [rng.randint(1, 6) for _ in range(spec.count)]
    total = max(0, (sum(faces) + spec.adds) * spec.multiply)
    return DiceRoll(spec=spec.text, dice=faces, total=total)


_FACE_SEPARATORS = re.compile(r"[\s,;+/\[\]()]+")


def parse_faces(text: str, what: str, *, per_roll: int = 3, most: int = 3) -> list[int]:
    """d6 faces a GM rolled at the table, written ``3 4 5``, ``3,4,5`` or ``[3, 4, 5]``.

    ``per_roll`` faces make one roll; the text must hold whole rolls, at most ``most`` faces in all.
    """
    tokens = [t for t in _FACE_SEPARATORS.split(text.strip()) if t]
    example = " ".join(["3", "4", "5", "1", "6", "2"][:per_roll])
    if not tokens or not all(re.fullmatch(r"[0-9]{1,6}", t) for t in tokens):
        raise RuleError(f"{what}: write the dice as numbers from 1 to 6, like `{example}`; got {text!r}.")
    faces = [int(t) for t in tokens]
    wrong = [f for f in faces if not 1 <= f <= 6]
    if wrong:
        raise RuleError(f"{what}: a d6 shows 1 to 6; got {wrong[0]}.")
    if len(faces) % per_roll or len(faces) > most:
        rolls_allowed = most // per_roll
        amount = f"exactly {per_roll}" if rolls_allowed == 1 else f"{per_roll} per roll, up to {most}"
        raise RuleError(f"{what}: give {amount} dice (3d6), like `{example}`; got {len(faces)}.")
    return faces
