"""Generic dice expressions for ``/roll``, through the d20 library (Avrae's).

d20 draws from its module-level ``random``; we point that at the table's RNG
for the length of one roll (rolling never awaits, so nothing interleaves), which
keeps seeded console sessions reproducible. Limits keep a roll showable.
d20 builds its parser at import (tens of milliseconds), so it is imported at the
first roll, not at start-up.
"""

from __future__ import annotations

import random
import re
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rules.base import Card, Outcome, RuleError
from rules.dice.gurps_damage import damage_outcome, is_gurps_damage

if TYPE_CHECKING:
    import d20

MAX_EXPRESSION = 200
MAX_DICE = 100
MAX_SIDES = 1000


@cache
def _d20() -> ModuleType:
    import d20
    import d20.expression

    return d20


@cache
def _roller() -> Any:
    dice = _d20()
    return dice.Roller(dice.RollContext(max_rolls=MAX_DICE))


_DICE_SIZES = re.compile(r"d\s*(\d+)", re.IGNORECASE)

HELP = (
    "Examples: `3d6+2`, `1d20+5 [fire]`, `4d6kh3` (keep highest 3), `2d10e10` (explode on 10), `1d20ro1` "
    f"(reroll 1s once), GURPS damage `2d+2`. At most {MAX_DICE} dice, {MAX_SIDES} sides, {MAX_EXPRESSION} characters."
)


def roll_expression(expression: str, rng: random.Random, *, label: str | None = None) -> Outcome:
    expression = expression.strip()
    if not expression:
        raise RuleError(f"Give a dice expression. {HELP}")
    if len(expression) > MAX_EXPRESSION:
        raise RuleError(f"That expression has {len(expression)} characters; the limit is {MAX_EXPRESSION}. {HELP}")
    if is_gurps_damage(expression):  # 2d+2, 1d-3, 6d: GURPS damage notation, which d20 does not read
        return damage_outcome(expression, rng, label=label)
    for sides in _DICE_SIZES.findall(expression):
        if int(sides) > MAX_SIDES:
            raise RuleError(f"A die with {sides} sides is too large; the limit is {MAX_SIDES}. {HELP}")
    d20 = _d20()
    saved = d20.expression.random
    d20.expression.random = rng
    try:
        result = _roller().roll(expression)
        total, text = result.total, str(result)  # d20 evaluates lazily: errors like 0/0 surface here
    except d20.TooManyRolls:
        raise RuleError(f"That rolls too many dice: the limit is {MAX_DICE} dice per roll. {HELP}") from None
    except d20.RollValueError as exc:
        raise RuleError(f"{exc} {HELP}") from None
    except d20.RollSyntaxError as exc:
        raise RuleError(f"`{expression}` is not a dice expression I can read: {_where(exc)}. {HELP}") from None
    finally:
        d20.expression.random = saved

    dice = [value for group in _dice_groups(result.expr) for value in group["values"]]
    title = f"{label}: {total}" if label else f"Roll: {total}"
    card = Card(title=title[:256], description=text[:4000])
    return Outcome(
        card=card,
        summary=f"rolled {expression} = {total}" + (f" ({label})" if label else ""),
        data={
            "expression": expression,
            "label": label,
            "total": total,
            "dice": dice,
            "groups": _dice_groups(result.expr),
            "text": text,
            "crit": "critical" if result.crit == d20.CritType.CRIT else "fumble" if result.crit else None,
        },
    )


def _dice_groups(node: d20.Number) -> list[dict]:
    """Every dice group in the roll, each with every value rolled and whether it counts."""
    groups = []
    if isinstance(node, _d20().Dice):
        values = [die.number for die in node.values]
        kept = [die.kept for die in node.values]
        groups.append({"size": node.size, "values": values, "kept": kept})
    for child in node.children:
        groups.extend(_dice_groups(child))
    return groups


def _where(error: d20.RollSyntaxError) -> str:
    """d20's parser error (its grammar's token names) in a user's words: where it went wrong, and with what."""
    got = str(getattr(error, "got", "") or "")
    column = getattr(error, "col", None)
    if not got:
        return "it ends too soon (a die, a number or a closing bracket is missing at the end)"
    at = f" at character {column}" if column else ""
    return f"`{got[:20]}`{at} cannot come there (a number, a die like `d6`, or `(` can)"


MAX_ROLLS = 10
_COMMENT = re.compile(r"\s(?:#|!)\s*(.*)$")


def roll_text(text: str, rng: random.Random, *, label: str | None = None) -> Outcome:
    """What a user types to roll: one expression, or several joined with ``;`` and a comment after ``#`` or ``!``,
    as Dice Maiden users write them (``3d6; 1d20+4 # ambush``). One expression rolls exactly as before."""
    text = text.strip()
    comment = _COMMENT.search(" " + text)
    if comment:
        text = (" " + text)[: comment.start()].strip()
        label = label or comment.group(1).strip() or None
    parts = [part.strip() for part in text.split(";")]
    if len(parts) == 1:
        return roll_expression(parts[0], rng, label=label)
    if any(not part for part in parts):
        raise RuleError(f"Separate expressions with `;`, each with dice: `3d6; 1d20+4`. {HELP}")
    if len(parts) > MAX_ROLLS:
        raise RuleError(f"That is {len(parts)} rolls at once; roll at most {MAX_ROLLS} with one command.")
    rolls = [roll_expression(part, rng) for part in parts]
    lines = [f"`{r.data['expression']}` {r.card.description.splitlines()[0][:300]}" for r in rolls]
    totals = ", ".join(str(r.data["total"]) for r in rolls)
    title = f"{label}: {totals}" if label else f"Rolls: {totals}"
    return Outcome(
        card=Card(title=title[:256], description="\n".join(lines)[:4000]),
        summary=f"rolled {'; '.join(parts)} = {totals}" + (f" ({label})" if label else ""),
        data={"label": label, "rolls": [r.data for r in rolls], "totals": [r.data["total"] for r in rolls]},
    )
