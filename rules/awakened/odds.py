"""`/awakened odds`: exact chances for every pool this ruleset rolls, from the shared pool odds (ruling 15).

The pool is worked out exactly as the roll itself would build it (the same
functions), then handed to ``rules.dice.pool_odds``: enumeration, not sampling.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.awakened.shaping import WILLPOWER_DICE, paradox_total, shaping_pool
from rules.awakened.sheet import AwakenedSheet
from rules.awakened.upkeep import oblation_pool, trait
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.dice import pool_odds
from rules.dice.odds import percent

RollKind = Literal[
    "shaping-covert",
    "shaping-vulgar",
    "paradox",
    "oblation",
    "scrutiny",
    "sacrifice",
    "willpower-dot",
    "soul-loss",
    "crisis",
    "attainment",
]
SHOWN = 8


class OddsOptions(Model):
    roll: RollKind = Field(description="Which roll")
    mage: str | None = Field(default=None, max_length=60, description="Whose pool")
    dice: int | None = Field(default=None, ge=0, le=60, description="Pool, if not the mage's")
    willpower: bool = Field(default=False, description="+3 dice for Willpower")
    edge: int = Field(default=0, ge=0, le=5, description="Edge")


def pool_for(table: Table, options: OddsOptions) -> tuple[int, int | None, bool, str]:
    """(pool, again, rote, how) for the roll, as the ruleset would roll it."""
    kind, settings = options.roll, table.settings
    if kind == "paradox":
        total = paradox_total(table.state) if options.dice is None else options.dice
        return total, settings.paradox_again, settings.paradox_rote, "the round's collective pool"
    if options.willpower and kind not in ("shaping-covert", "shaping-vulgar", "attainment", "sacrifice"):
        raise RuleError(f"Willpower adds no dice to the {kind} roll.")
    if options.edge and kind not in ("scrutiny", "willpower-dot"):
        raise RuleError(f"The {kind} roll takes no Edge.")
    sheet: AwakenedSheet | None = None
    name = ""
    if options.dice is None or kind.startswith("shaping"):
        record = table.find_character(options.mage) if options.mage else table.default_character(None)
        sheet, name = record.sheet, record.name
    bonus = WILLPOWER_DICE if options.willpower else 0
    if kind.startswith("shaping"):
        aspect = table.book.aspect(kind.split("-")[1])
        pool = shaping_pool(sheet.gnosis, aspect.shaping_dice_per_gnosis, options.willpower)  # type: ignore[union-attr]
        return pool, aspect.shaping_again, True, f"{name}'s Shaping pool"
    if options.dice is not None:
        rote = kind == "attainment"
        return options.dice + bonus + options.edge, 10, rote, "the pool given"
    assert sheet is not None
    if kind == "oblation":
        return oblation_pool(sheet)[0], 10, False, f"{name}'s oblation"
    if kind == "scrutiny":
        pool = trait(sheet, "intelligence") + trait(sheet, "occult") + options.edge
        return pool, 10, False, f"{name}'s Intelligence + Occult + Edge"
    if kind in ("willpower-dot", "soul-loss"):
        return sheet.gnosis + options.edge, 10, False, f"{name}'s Gnosis"
    if kind == "crisis":
        if sheet.crisis is None:
            raise RuleError(f"{name} is not in crisis; give the pool in `dice`.")
        return sheet.crisis.pool, 10, False, f"{name}'s crisis"
    raise RuleError(f"Give the {kind} pool in `dice`.")


def odds(table: Table, options: OddsOptions) -> Outcome:
    pool, again, rote, how = pool_for(table, options)
    exact = pool_odds(pool, again, rote)  # type: ignore[arg-type]
    quality = f"{again}-again" + (", rote" if rote else "")
    card = Card(title=f"Odds: {options.roll} — {pool} dice ({quality})", description=f"From {how}.")
    if options.roll == "paradox" and pool == 0:
        # cites P-G12
        card.add("Chances", "No dice: no roll and no chance die.")
        return Outcome(card=card, summary="paradox odds: no roll", data={"pool": 0, "roll": None}, ephemeral=True)
    lines = [
        f"At least one success: {percent(exact.success)} ({exact.success})",
        f"Exceptional (5+): {percent(exact.exceptional)}",
        f"Expected successes: {float(exact.expected):.3f}",
    ]
    if exact.chance_die:
        lines.append(f"Chance die — dramatic failure: {percent(exact.dramatic_failure)}")
    card.add("Chances", "\n".join(lines))
    card.add("Successes", "\n".join(f"{k}: {percent(p)}" for k, p in enumerate(exact.distribution[:SHOWN])))
    data = {
        "roll": options.roll,
        "pool": pool,
        "again": again,
        "rote": rote,
        "success": str(exact.success),
        "exceptional": str(exact.exceptional),
        "expected": str(exact.expected),
        "distribution": [str(p) for p in exact.distribution[:SHOWN]],
    }
    return Outcome(card=card, summary=f"odds of {options.roll}", data=data, ephemeral=True)
