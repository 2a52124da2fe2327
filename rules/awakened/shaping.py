"""Shaping (M29-M32): pay, roll the Shaping pool, and raise Potency and Tenacity until the next turn.

The pool is 2×Gnosis (covert, 9-again) or 3×Gnosis (vulgar, 8-again), always
rote, +3 dice for a Willpower point, never Edges or Difficulties (l.252-259).
A spontaneous spell is Shaped only in the round it was cast or refreshed
(P-G6). Shaping a vulgar spell adds the caster's Gnosis to the round's
collective paradox pool (l.279).
"""

from typing import Literal

from pydantic import Field

from rules.awakened.common import (
    DiceOption,
    MageOption,
    conscious,
    find_spell,
    gm_dice,
    mage_of,
    roll,
    roll_data,
    roll_text,
    spell_label,
)
from rules.awakened.life import SpellOption
from rules.awakened.payment import FreeManaOptions, Payment, pay, plan, scour_after
from rules.awakened.sheet import ActiveSpell, AwakenedState, ParadoxDice
from rules.awakened.words import quantity
from rules.base import Card, Outcome, RuleError, Table
from rules.text import TITLE, clip

WILLPOWER_DICE = 3
EXCEPTIONAL_AT = 5


class ShapeOptions(FreeManaOptions):
    spell: str = SpellOption
    action: Literal["instant", "minor", "reflexive"] = Field(
        default="instant", description="reflexive raises Tenacity only"
    )
    willpower: bool = Field(default=False, description="+3 dice for Willpower")
    replaces: str | None = Field(default=None, max_length=100, description="Roll it replaces")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def effective_aspect(spell: ActiveSpell, state: AwakenedState) -> str:
    """A vulgar spell with covert sustained effects is vulgar on its cast or refresh turn, covert after (M25, P-G18)."""
    if spell.design.covert_sustain and spell.window != state.now:
        return "covert"
    return spell.design.aspect


def shaping_pool(gnosis: int, dice_per_gnosis: int, willpower: bool) -> int:
    return dice_per_gnosis * gnosis + (WILLPOWER_DICE if willpower else 0)


def shape(table: Table, options: ShapeOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    who, state, settings, book = record.name, table.state, table.settings, table.book
    conscious(sheet, who, "Shape spells")
    spell = find_spell(sheet, options.spell, who)
    aspect_name = effective_aspect(spell, state)
    if aspect_name == "sensory":
        # cites l.237
        raise RuleError("Sensory spells can't be Shaped: they act in the soul of their user.")
    dice = gm_dice(table, options.dice)
    if options.willpower and sheet.willpower < 1 + options.words_of_power:
        raise RuleError(f"{who} has {sheet.willpower} Willpower: not enough for +3 dice and the Words asked.")
    ritual = spell.status == "ritual"
    payment: Payment | None = None
    if ritual:
        if spell.shaped_ritual:
            raise RuleError(
                "This ritual was already Shaped: repay its full cost and a new sacrament "
                # cites l.250
                "(`/awakened spell refresh`) before gathering or Shaping again."
            )
        if options.words_of_power or options.scour or options.hallow:
            raise RuleError("A ritual is Shaped with its stored potential, not Mana; drop the free Mana options.")
    else:
        if spell.window != state.now:
            raise RuleError(
                f"{spell_label(spell)} was cast or refreshed in scene {spell.window[0]}, round {spell.window[1]}; a "
                # cites l.239, P-G6
                "spontaneous spell can only be Shaped in the turn it was cast or refreshed. Refresh it this turn "
                + (f"for its full cost, {spell.cost} Mana" if spell.cost else "(it costs nothing)")
                + f" (`/awakened spell refresh spell:#{spell.id}`), then Shape it."
            )
        due = getattr(book.aspects.shaping_cost, sheet.familiarity(spell.design))
        payment = plan(
            book,
            settings,
            state,
            sheet,
            who,
            due,
            options,
            gnosis_limit=settings.gnosis_limit_on_shaping,
            hallow_allowed=settings.hallow_pays_shaping,
            smaller=None,
            what="the Shaping",
        )
    aspect = book.aspect(aspect_name)  # type: ignore[arg-type]
    pool = shaping_pool(sheet.gnosis, aspect.shaping_dice_per_gnosis, options.willpower)
    result = roll(table, pool, again=aspect.shaping_again, rote=True, dice=dice, what="The Shaping roll")
    if payment is not None:
        pay(sheet, payment)
    if options.willpower:
        sheet.willpower -= 1
    base_p, base_t = aspect.potency, aspect.tenacity
    lines = []
    if ritual:
        spent = spell.potential
        successes = max(result.successes, spent)
        spell.potency_bonus, spell.potency_until = successes, state.now
        spell.tenacity_bonus, spell.tenacity_until = successes, None  # to the end of the scene
        spell.lasting_tenacity, spell.potential, spell.shaped_ritual = spent, 0, True
        lines.append(
            f"Ritual: counts at least the {spent} potential spent → **{successes}**. "
            f"Potency {base_p + successes} until the end of the turn; Tenacity {base_t + successes} until the "
            f"scene ends, then {base_t + spent} until the ritual ends or is Shaped again."
        )
    else:
        successes = result.successes
        spell.tenacity_bonus, spell.tenacity_until = successes, state.now
        if options.action == "reflexive":
            spell.potency_bonus, spell.potency_until = 0, None
            lines.append(
                f"Reflexive: Tenacity {base_t + successes} until {who}'s next turn (overwrites any earlier Shaping)."
            )
        else:
            spell.potency_bonus, spell.potency_until = successes, state.now
            lines.append(
                f"Potency {base_p + successes} and Tenacity {base_t + successes} until {who}'s next turn "
                "(each Shaping overwrites the last)."
            )
    potency = base_p + spell.potency_bonus
    if options.replaces:
        stands = potency if options.action != "reflexive" else base_t + spell.tenacity_bonus
        exceptional = settings.potency_exceptional and stands >= EXCEPTIONAL_AT
        lines.append(
            f"Replaces {options.replaces}: it counts as **{stands}** successes"
            # cites P-G21
            + (" (an exceptional success)." if exceptional else ".")
        )
    if aspect_name == "vulgar":
        state.paradox_pool.append(ParadoxDice(caster=who, spell=spell_label(spell), dice=sheet.gnosis))
        lines.append(
            f"Vulgar: +{quantity(sheet.gnosis, 'die')} to this round's paradox pool (now {paradox_total(state)})."
        )
    scoured = scour_after(sheet, payment) if payment is not None else None
    if scoured:
        lines.append(scoured)
    card = Card(
        title=clip(f"Shaping: {who} — {spell_label(spell)}", TITLE), description=roll_text(result, "Shaping roll")
    )
    if payment is not None:
        card.add("Paid", payment.text)
    card.add("Result", "\n".join(lines))
    if dice is not None:
        card.footer = "The GM rolled these dice at the table."
    data = {
        "mage": who,
        "spell": spell_label(spell),
        "aspect": aspect_name,
        "pool": pool,
        "roll": roll_data(result),
        "successes": successes,
        "potency": potency,
        "tenacity": base_t + spell.tenacity_bonus,
        "paid": payment.model_dump() if payment else None,
        "paradox_pool": paradox_total(state),
        "mana": sheet.mana,
        "willpower": sheet.willpower,
    }
    return Outcome(
        card=card, summary=f"{who} Shaped {spell_label(spell)}: {quantity(successes, 'success')}.", data=data
    )


def paradox_total(state: AwakenedState) -> int:
    return sum(entry.dice for entry in state.paradox_pool)
