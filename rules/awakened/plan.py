"""`/awakened plan`: the ways a mage may cast and Shape a spell, searched on exact odds; the best three shown.

Casting costs Mana and needs no roll (l.135); the dice come with the Shaping roll, which raises Potency and
Tenacity, and, for a vulgar spell, with the round's collective paradox roll. So a plan is a cast followed by
a Shaping, and the options searched are those of the two commands that change the odds or the price: the
aspect (covert, or vulgar: more dice, 8-again, and paradox), the method (the mage's rote, or improvised),
Words of Power on either payment (free Mana for Willpower) and Willpower for +3 dice on the Shaping roll.

Each plan runs the real `spell cast` and `spell shape` on a scratch copy of the table, so its price, pool and
paradox dice are the commands' own and every plan is one they accept; the odds are the shared exact pool odds
(``rules.dice.pool_odds``, enumeration in closed form). Success: the Shaping roll scores at least one success.
Paradox: the chance the round's paradox roll, with the pool this plan leaves, scores at least one success.
Cheapest means: the least Mana, then the least Willpower (paradox risk is weighed by the goal).
"""

from fractions import Fraction
from typing import Any

from pydantic import Field

from rules.awakened import casting, shaping
from rules.awakened.common import mage_of
from rules.awakened.sheet import AwakenedSettings, AwakenedSheet
from rules.awakened.spells import find_rote
from rules.base import Model, Outcome, RuleError, Table
from rules.dice import pool_odds
from rules.planning import Plan, choose, parse_goal, plan_outcome, scratch, undominated

RISK = "paradox"
SHAPED = ("covert", "vulgar")  # a sensory spell can't be Shaped (l.237)


class PlanOptions(Model):
    """Few options, short words: `/awakened` is near Discord's size limit for one command."""

    spell: str = Field(min_length=1, max_length=100, description="Your rote")
    goal: str | None = Field(default=None, max_length=40, description="e.g. success>=90%")
    mage: str | None = Field(default=None, max_length=60, description="Your mage")


def _typed(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'"{text}"' if " " in text or "," in text else text


def _command(action: str, options: dict[str, Any]) -> str:
    return f"/awakened {action} " + " ".join(f"{key}:{_typed(value)}" for key, value in options.items())


def evaluate(table: Table, who: str, cast_options: dict[str, Any], shape_options: dict[str, Any]) -> Plan | None:
    """One plan: the real cast and Shaping on a scratch table (None: a command refuses it), then exact odds."""
    trial = scratch(table)
    sheet: AwakenedSheet = trial.characters[who.casefold()].sheet
    mana, willpower = sheet.mana, sheet.willpower
    try:
        cast = casting.cast_spell(trial, casting.CastOptions(**cast_options))
        spell_id = cast.data["spell"]["id"]
        shaped = shaping.shape(trial, shaping.ShapeOptions(**{**shape_options, "spell": f"#{spell_id}"}))
    except RuleError:
        return None
    data = shaped.data
    roll = data["roll"]
    odds = pool_odds(roll["pool"], roll["again"], roll["rote"])
    settings: AwakenedSettings = table.settings
    paradox_dice = data["paradox_pool"]
    paradox = pool_odds(paradox_dice, settings.paradox_again, settings.paradox_rote).success if paradox_dice else 0
    spent_mana, spent_willpower = mana - data["mana"], willpower - data["willpower"]
    outcomes = [("no success", odds.distribution[0])]
    outcomes += [(f"{k} success{'es' if k > 1 else ''}", odds.distribution[k]) for k in range(1, EXCEPTIONAL)]
    outcomes.append((f"{EXCEPTIONAL}+ successes (exceptional)", odds.exceptional))
    quality = f"{roll['pool']} dice, {roll['again']}-again, rote"
    cost_text = f"{spent_mana} Mana, {spent_willpower} Willpower; Shaping {quality}"
    return Plan(
        steps=[("spell cast", cast_options), ("spell shape", shape_options)],
        commands=[_command("spell cast", cast_options), _command("spell shape", shape_options)],
        cost=(spent_mana, spent_willpower),
        cost_text=cost_text,
        success=odds.success,
        risk=Fraction(paradox),
        outcomes=outcomes,
        lines=[f"Paradox pool after it: {paradox_dice} dice"],
        facts={"pool": roll["pool"], "again": roll["again"], "mana": spent_mana, "willpower": spent_willpower},
    )


EXCEPTIONAL = shaping.EXCEPTIONAL_AT


def candidates(table: Table, who: str, sheet: AwakenedSheet, options: PlanOptions) -> list[Plan]:
    """Every combination of the knobs the mage really has: an aspect that can be Shaped, the rote if the mage
    knows one (and improvised), Words of Power only with High Speech and within the house rule's limit, the
    Willpower point only while the Willpower lasts."""
    rote = find_rote(sheet, options.spell)
    if rote is None:
        names = ", ".join(r.name for r in sheet.rotes) or "none yet"
        raise RuleError(
            f"{options.spell!r} is not one of {who}'s rotes ({names}). The planner plans a rote: save the spell "
            "first with `/awakened spell cast mode:rote`."
        )
    methods = ["rote", "improvised"]
    settings: AwakenedSettings = table.settings
    words = range(min(settings.words_of_power_per_payment, sheet.willpower) + 1) if sheet.high_speech else range(1)
    plans: list[Plan] = []
    for aspect in SHAPED:
        for method in methods:
            for cast_words in words:
                for shape_words in words:
                    for willpower in (False, True):
                        if cast_words + shape_words + willpower > sheet.willpower:
                            continue
                        cast_options: dict[str, Any] = {"spell": rote.name, "mage": who}
                        cast_options |= {"aspect": aspect, "method": method}
                        if cast_words:
                            cast_options["words_of_power"] = cast_words
                        shape_options: dict[str, Any] = {"spell": rote.name, "mage": who}
                        if shape_words:
                            shape_options["words_of_power"] = shape_words
                        if willpower:
                            shape_options["willpower"] = True
                        found = evaluate(table, who, cast_options, shape_options)
                        if found is not None:
                            plans.append(found)
    return plans


def plan(table: Table, options: PlanOptions) -> Outcome:
    """`/awakened plan`: the three best ways to cast and Shape a spell for a goal, each with a Cast button."""
    goals = parse_goal(options.goal, RISK)
    record, sheet = mage_of(table, options.mage)
    searched = candidates(table, record.name, sheet, options)
    if not searched:  # the cast's own refusal, in its own words
        casting.cast_spell(
            scratch(table), casting.CastOptions(spell=options.spell, mage=record.name, arcana=options.arcana)
        )
        raise RuleError(f"{record.name} can't cast and Shape {options.spell} now: a sensory spell can't be Shaped.")
    kept = undominated(searched)
    chosen, missed = choose(kept, goals, RISK)
    return plan_outcome(
        title=f"Plan: {record.name} casts and Shapes {searched[0].steps[0][1]['spell']}",
        description=(
            f"Mana {sheet.mana}, Willpower {sheet.willpower}, Gnosis {sheet.gnosis}. Each plan is a cast, then a "
            "Shaping. Success: the Shaping roll scores at least one success. Paradox: the chance the round's "
            "paradox roll scores one. Cheapest: least Mana, then Willpower."
        ),
        chosen=chosen,
        missed=missed,
        risk_word=RISK,
        searched=len(searched),
        kept=len(kept),
        data={
            "planner": True,
            "mage": record.name,
            "spell": searched[0].steps[0][1]["spell"],
            "goal": options.goal or "",
        },
    )
