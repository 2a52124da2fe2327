"""`/awakened odds`: exact chances for every pool this ruleset rolls, from the shared pool odds (ruling 15).

The pool is worked out exactly as the roll itself would build it (the same
functions), then handed to ``rules.dice.pool_odds``: enumeration, not sampling.
"""

from fractions import Fraction
from typing import Literal

from pydantic import Field

from rules.awakened.shaping import WILLPOWER_DICE, paradox_total, shaping_pool
from rules.awakened.sheet import AwakenedSheet
from rules.awakened.upkeep import oblation_pool, trait
from rules.awakened.words import quantity
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.dice import Again, PoolOdds, pool_odds
from rules.dice.odds import percent

RollKind = Literal[
    "shaping-covert",
    "shaping-vulgar",
    "boost-sensory",
    "boost-covert",
    "boost-vulgar",
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
    again: Literal[10, 9, 8] | None = Field(default=None, description="boost: the roll's own again")


def pool_for(table: Table, options: OddsOptions) -> tuple[int, int | None, bool, str]:
    """(pool, again, rote, how) for the roll, as the ruleset would roll it."""
    kind, settings = options.roll, table.settings
    if options.again is not None and not kind.startswith("boost"):
        raise RuleError(f"`again` is a boosted roll's own again; the {kind} roll's again is fixed. Drop `again`.")
    if kind == "paradox":
        total = paradox_total(table.state) if options.dice is None else options.dice
        return total, settings.paradox_again, settings.paradox_rote, "the round's collective pool"
    if options.willpower and not kind.startswith(("shaping", "boost", "attainment", "sacrifice")):
        raise RuleError(f"Willpower adds no dice to the {kind} roll.")
    if options.edge and kind not in ("scrutiny", "willpower-dot"):
        raise RuleError(f"The {kind} roll takes no Edge.")
    bonus = WILLPOWER_DICE if options.willpower else 0
    if kind.startswith("boost"):
        if options.dice is None:
            raise RuleError(f"Give the pool the spell boosts in `dice`, like `/awakened odds roll:{kind} dice:4`.")
        aspect = table.book.aspect(kind.split("-")[1])  # type: ignore[arg-type]
        again = min(options.again or 10, aspect.boost_again)  # the better again applies (P-G22)
        return options.dice + bonus, again, False, f"the pool given, boosted by a {aspect.name} spell"
    sheet: AwakenedSheet | None = None
    name = ""
    if options.dice is None:
        record = table.find_character(options.mage) if options.mage else table.default_character(None)
        sheet, name = record.sheet, record.name
    if kind.startswith("shaping"):
        aspect = table.book.aspect(kind.split("-")[1])  # type: ignore[arg-type]
        if options.dice is not None:  # a Shaping pool of the size given: its again and rote stay the aspect's
            return options.dice + bonus, aspect.shaping_again, True, "the pool given"
        assert sheet is not None
        pool = shaping_pool(sheet.gnosis, aspect.shaping_dice_per_gnosis, options.willpower)
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


def boosted_odds(pool: int, again: Again, minimum: int) -> PoolOdds:
    """The exact odds of a boosted roll's final count, max(rolled, minimum) (P-G22), from the pool's own exact
    odds: the chances of rolling the minimum or fewer all fall on the minimum, so it never fails or fails
    dramatically, and the mean rises by what the minimum lifts."""
    raw = pool_odds(pool, again)
    rolled = raw.distribution + [Fraction(0)] * max(0, minimum + 1 - len(raw.distribution))  # a chance die lists 2
    distribution = [Fraction(0)] * minimum + [sum(rolled[: minimum + 1], Fraction(0))] + rolled[minimum + 1 :]
    lifted = sum(((minimum - k) * rolled[k] for k in range(minimum)), Fraction(0))
    return raw.model_copy(
        update={
            "success": 1 - distribution[0],
            "exceptional": Fraction(1) if minimum >= raw.exceptional_at else raw.exceptional,
            "dramatic_failure": Fraction(0),
            "expected": raw.expected + lifted,
            "distribution": distribution,
        }
    )


def odds(table: Table, options: OddsOptions) -> Outcome:
    pool, again, rote, how = pool_for(table, options)
    if options.roll == "paradox" and pool == 0:
        card = Card(title="Odds: paradox — no dice", description=f"From {how}.")
        # cites P-G12
        card.add("Chances", "No dice: no roll and no chance die.")
        return Outcome(card=card, summary="paradox odds: no roll", data={"pool": 0, "roll": None}, ephemeral=True)
    minimum = 0
    if options.roll.startswith("boost"):
        minimum = table.book.aspect(options.roll.split("-")[1]).boost_minimum  # type: ignore[arg-type]
        exact = boosted_odds(pool, again, minimum)  # type: ignore[arg-type]
    else:
        exact = pool_odds(pool, again, rote)  # type: ignore[arg-type]
    quality = f"{again}-again" + (", rote" if rote else "")
    size = f"{quantity(pool, 'die')} ({quality})"
    if exact.chance_die:
        size = "a chance die" + (" (rote)" if rote else "")
    card = Card(title=f"Odds: {options.roll} — {size}", description=f"From {how}.")
    lines = [
        f"At least one success: {percent(exact.success)} ({exact.success})",
        f"Exceptional (5+): {percent(exact.exceptional)}",
        f"Expected successes: {float(exact.expected):.3f}",
    ]
    if minimum:
        lines.insert(0, f"The boost guarantees {quantity(minimum, 'success')}: it never fails.")
    elif exact.chance_die:
        lines.append(f"Chance die — dramatic failure: {percent(exact.dramatic_failure)}")
    card.add("Chances", "\n".join(lines))
    shown = enumerate(exact.distribution[:SHOWN])
    card.add("Successes", "\n".join(f"{k}: {percent(p)}" for k, p in shown if k >= minimum))
    data = {
        "roll": options.roll,
        "pool": pool,
        "again": again,
        "rote": rote,
        "success": str(exact.success),
        "exceptional": str(exact.exceptional),
        "expected": str(exact.expected),
        "distribution": [str(p) for p in exact.distribution[:SHOWN]],
        "dramatic_failure": str(exact.dramatic_failure),
        "minimum": minimum,
    }
    return Outcome(card=card, summary=f"odds of {options.roll}", data=data, ephemeral=True)
