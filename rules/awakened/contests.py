"""A spell's boost and its contests (M28, P-G19, P-G22): rolls helped by a spell, and rolls against one.

A boost guarantees the aspect's minimum successes and lends its again if that
is better than the roll's own (8 beats 9 beats 10). Against a spell, the side
that would change the status quo needs strictly more successes; ties hold it
(house rule ``contest_ties``), except that an action that would otherwise be
automatic needs only as many as the hindrance (l.235, as written).
"""

from typing import Literal

from pydantic import Field

from rules.awakened.common import (
    DiceOption,
    find_spell,
    gm_dice,
    roll,
    roll_data,
    roll_text,
    spell_label,
)
from rules.awakened.shaping import EXCEPTIONAL_AT, effective_aspect
from rules.awakened.sheet import ActiveSpell, AwakenedSheet
from rules.awakened.words import quantity
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.text import TITLE, clip


class RollOptions(Model):
    mode: Literal["boost", "contest"] = Field(description="boost: spell helps; contest: against it")
    mage: str = Field(min_length=1, max_length=60, description="The spell's caster")
    spell: str = Field(min_length=1, max_length=80, description="The spell (#number or name)")
    pool: int | None = Field(default=None, ge=0, le=60, description="Dice rolled (0: a chance die)")
    successes: int | None = Field(default=None, ge=0, le=60, description="contest: successes already rolled")
    against: Literal["tenacity", "hindrance", "potency"] = Field(
        default="tenacity", description="contest: dispel/escape, hindered action, or resisting"
    )
    automatic: bool = Field(default=False, description="contest: an action that would otherwise succeed")
    again: Literal[10, 9, 8] = Field(default=10, description="boost: the roll's own again")
    dice: str | None = DiceOption


def boosted_outcome(successes: int) -> str:
    """A boosted roll's outcome from its final count (P-G22): it never fails, so a success or, at 5 or more
    (ruling 15), an exceptional success."""
    return "exceptional_success" if successes >= EXCEPTIONAL_AT else "success"


def strengths(table: Table, spell: ActiveSpell) -> tuple[str, int, int]:
    """(aspect now, Potency, Tenacity) with Shaping bonuses and a ritual's lasting Tenacity."""
    aspect = table.book.aspect(effective_aspect(spell, table.state))  # type: ignore[arg-type]
    potency = aspect.potency + spell.potency_bonus
    tenacity = aspect.tenacity + spell.tenacity_extra
    return aspect.name, potency, tenacity


def spell_roll(table: Table, options: RollOptions) -> Outcome:
    record = table.find_character(options.mage)
    sheet: AwakenedSheet = record.sheet
    spell = find_spell(sheet, options.spell, record.name)
    aspect_name, potency, tenacity = strengths(table, spell)
    aspect = table.book.aspect(aspect_name)  # type: ignore[arg-type]
    dice = gm_dice(table, options.dice)
    label = f"{record.name}'s {spell_label(spell)} ({aspect_name})"
    if spell.strength is not None:
        potency = min(potency, spell.strength)
    if options.mode == "boost":
        if options.pool is None:
            raise RuleError("Give the `pool` the spell boosts.")
        again = min(options.again, aspect.boost_again)
        result = roll(table, options.pool, again=again, dice=dice, what="The boosted roll")
        final = max(result.successes, aspect.boost_minimum)
        outcome = boosted_outcome(final)
        # the dice as rolled, unjudged: a boosted roll never fails, so its verdict comes from the final count
        text = roll_text(result, f"Rolled, boosted by {label}", judged=False)
        line = f"The boost guarantees {quantity(aspect.boost_minimum, 'success')}: **{quantity(final, 'success')}**" + (
            " (an exceptional success)." if outcome == "exceptional_success" else "."
        )
        raw = {k: v for k, v in roll_data(result).items() if k != "outcome"}
        data = {"mode": "boost", "roll": raw, "minimum": aspect.boost_minimum, "successes": final, "outcome": outcome}
        card = Card(title=f"Boosted roll — {spell_label(spell)}", description=f"{text}\n{line}")
        return Outcome(card=card, summary=f"Boosted roll: {quantity(final, 'success')}.", data=data)
    if aspect_name == "sensory" and options.against == "tenacity":
        # cites l.108, G42
        raise RuleError("Sensory spells cannot be countered or dispelled.")
    if (options.pool is None) == (options.successes is None):
        raise RuleError("Give the opposing side's `pool` to roll, or the `successes` it already rolled.")
    result = None
    if options.pool is not None:
        result = roll(table, options.pool, dice=dice, what="The opposing roll")
        rolled = result.successes
    else:
        if dice is not None:
            raise RuleError("`dice` are for a `pool` the bot rolls; drop them or give `pool`.")
        rolled = options.successes or 0
    ties_to_challenger = table.settings.contest_ties == "attacker"
    if options.against == "potency":
        stands, spell_wins_ties = potency, ties_to_challenger  # the spell changes the status quo
        spell_wins = potency > rolled or (potency == rolled and spell_wins_ties)
        verdict = "the spell takes hold" if spell_wins else "the target resists"
        versus = f"Potency {potency} vs resistance {rolled}"
    else:
        stands = tenacity if options.against == "tenacity" else aspect.hindrance
        if options.against == "hindrance" and not stands:
            raise RuleError("A sensory spell hinders nothing.")
        needed_ties = options.automatic and options.against == "hindrance"
        challenger_wins = rolled > stands or (rolled == stands and (needed_ties or ties_to_challenger))
        spell_wins = not challenger_wins
        what = "dispelled or escaped" if options.against == "tenacity" else "the action succeeds"
        verdict = what if challenger_wins else "the spell holds"
        versus = f"{rolled} vs {options.against.title()} {stands}"
    text = (roll_text(result, "Opposing roll") + "\n" if result else "") + f"{versus}: **{verdict}**."
    card = Card(title=clip(f"Contest — {label}", TITLE), description=text)
    data = {
        "mode": "contest",
        "against": options.against,
        "spell_stands": stands,
        "opposing": rolled,
        "spell_prevails": spell_wins,
        "roll": roll_data(result) if result else None,
    }
    return Outcome(card=card, summary=f"Contest against {spell_label(spell)}: {verdict}.", data=data)
