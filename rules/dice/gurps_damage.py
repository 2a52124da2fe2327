"""GURPS damage notation: ``6d``, ``2d+2``, ``3d-1``, ``1d-3``, ``1d×5`` — six-sided dice, every face kept.

GURPS writes damage as a count of d6 with adds, never naming the die size, so
"2d+2" is not a ``/roll`` (d20) expression. A damage roll has a minimum
(Basic Set p. B378, "Minimum damage"): 1 point, or 0 for crushing damage, so
``1d-3`` rolling a 2 does 1 (0 if crushing). Plain sub-rolls (a Calamity's
"3d+5") take ``minimum=0``. The GM may supply the faces rolled at the table.
"""

from __future__ import annotations

from random import Random

from pydantic import BaseModel, ConfigDict

from rules.base import Card, Outcome, RuleError
from rules.text import TITLE, clip

MAX_DICE = 100
MAX_ADDS = 1000
MAX_MULTIPLY = 100
MINIMUM_DAMAGE = 1  # Basic Set: "the minimum damage is 1 point"
MINIMUM_CRUSHING = 0  # "… except for crushing damage, where the minimum is 0"
TIMES = ("×", "x", "*")
HELP = "GURPS damage is d6s with adds, like `6d`, `2d+2`, `3d-1`, `1d-3` or `1d×5`."


class DamageNotationError(ValueError):
    """Not GURPS damage notation; the message says what would work."""


class DamageSpec(BaseModel):
    """``count`` d6 plus ``adds``, times ``multiply``."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built on first use, not at start-up

    count: int
    adds: int = 0
    multiply: int = 1

    @property
    def text(self) -> str:
        base = f"{self.count}d" + (f"{self.adds:+d}" if self.adds else "")
        return base if self.multiply == 1 else f"{base}×{self.multiply}"


class DamageRoll(BaseModel):
    """One damage roll: the spec, every face, the raw sum and the total after the minimum."""

    model_config = ConfigDict(defer_build=True)

    spec: str
    dice: list[int]
    raw: int  # (sum of faces + adds) × multiply
    minimum: int
    total: int

    @property
    def text(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        shown = f"{self.spec} [{faces}] = {self.raw}"
        return shown if self.total == self.raw else f"{shown}, minimum {self.minimum}: **{self.total}**"


def _digits(text: str, what: str) -> int:
    if not text or not text.isdigit() or len(text) > 6:
        raise DamageNotationError(f"{what} must be a whole number; {HELP}")
    return int(text)


def parse_damage(text: str) -> DamageSpec:
    """``2d+2`` into a DamageSpec; spaces are ignored, ``d`` may be capital, ``x`` or ``×`` multiplies."""
    clean = "".join(text.split()).casefold()
    count_text, d, rest = clean.partition("d")
    if not d:
        raise DamageNotationError(f"{text!r} has no `d`. {HELP}")
    count = _digits(count_text or "1", "The number of dice")
    multiply = 1
    for sign in TIMES:
        if sign in rest:
            rest, _, times = rest.partition(sign)
            multiply = _digits(times, "The multiplier")
            break
    adds = 0
    if rest:
        if rest[0] not in "+-":
            raise DamageNotationError(f"{text!r}: after the `d` come only adds like +2 or -1. {HELP}")
        adds = _digits(rest[1:], "The adds") * (-1 if rest[0] == "-" else 1)
    if not 1 <= count <= MAX_DICE:
        raise DamageNotationError(f"{text!r}: roll 1 to {MAX_DICE} dice.")
    if abs(adds) > MAX_ADDS or not 1 <= multiply <= MAX_MULTIPLY:
        raise DamageNotationError(f"{text!r}: adds up to ±{MAX_ADDS}, multiplier 1 to {MAX_MULTIPLY}.")
    return DamageSpec(count=count, adds=adds, multiply=multiply)


def is_gurps_damage(text: str) -> bool:
    """True for GURPS notation (``2d+2``), false for d20 expressions (``2d6+2``) and anything else."""
    try:
        parse_damage(text)
    except DamageNotationError:
        return False
    return True


def minimum_for(damage_type: str | None) -> int:
    """B378: 1 point, except crushing (0). The type's last word decides: "explosive crushing" is crushing."""
    words = (damage_type or "").casefold().split()
    return MINIMUM_CRUSHING if words and words[-1] in ("crushing", "cr") else MINIMUM_DAMAGE


def roll_damage(
    rng: Random, spec: DamageSpec | str, *, minimum: int = MINIMUM_DAMAGE, dice: list[int] | None = None
) -> DamageRoll:
    """Roll with the table's RNG (``randint``), or take the faces a GM rolled (exactly ``count`` of 1–6)."""
    if isinstance(spec, str):
        spec = parse_damage(spec)
    if dice is None:
        faces = [rng.randint(1, 6) for _ in range(spec.count)]
    else:
        if len(dice) != spec.count or not all(1 <= face <= 6 for face in dice):
            raise DamageNotationError(f"{spec.text} needs {spec.count} faces of 1 to 6; got {dice}.")
        faces = list(dice)
    raw = (sum(faces) + spec.adds) * spec.multiply
    return DamageRoll(spec=spec.text, dice=faces, raw=raw, minimum=minimum, total=max(minimum, raw))


def damage_outcome(expression: str, rng: Random, *, label: str | None = None) -> Outcome:
    """``/roll 2d+2``: the hook for bot/table/expressions.py, which reads d20 notation otherwise.

    bot/table/expressions.py, first line of ``roll_expression``:
    ``if is_gurps_damage(expression): return damage_outcome(expression, rng, label=label)``
    A plain roll has no damage type, so the minimum is 0 (the total is never negative).
    """
    try:
        result = roll_damage(rng, expression, minimum=0)
    except DamageNotationError as exc:
        raise RuleError(str(exc)) from None
    title = f"{label}: {result.total}" if label else f"Roll: {result.total}"
    return Outcome(
        card=Card(title=clip(title, TITLE), description=f"GURPS damage: {result.text}"),
        summary=f"rolled {expression.strip()} = {result.total}" + (f" ({label})" if label else ""),
        data={
            "expression": expression.strip(),
            "label": label,
            "total": result.total,
            "dice": result.dice,
            "groups": [{"size": 6, "values": result.dice, "kept": [True] * len(result.dice)}],
            "text": result.text,
            "crit": None,
        },
    )
