"""Casting (M19-M21, M35, M37, M38): declare, see the cost, pay, and the spell takes automatic effect.

There is no casting roll (l.135). Everything that can be refused (unknown
Arcana, factors the Arcana can't reach, a payment over the Gnosis limit) is
checked before the sheet changes; scoured wounds land after the spell.
"""

from typing import Any, Literal

from pydantic import Field

from rules.awakened.common import MageOption, conscious, mage_of, spell_data, spell_label
from rules.awakened.payment import FreeManaOptions, Payment, pay, plan, scour_after
from rules.awakened.sheet import ActiveSpell, AwakenedSheet, Design, ParadoxDice
from rules.awakened.spells import (
    Cost,
    DesignOptions,
    build_design,
    check_conjunctional,
    design_text,
    find_rote,
    spell_cost,
)
from rules.awakened.words import quantity
from rules.base import Card, Outcome, RuleError, Table
from rules.text import TITLE, clip, fold

GmAdjust = Field(default=0, ge=-20, le=20, description="GM: cost adjustment")


class CostOptions(DesignOptions):
    mage: str | None = MageOption
    gm_cost_adjust: int = GmAdjust
    conjunctional: str | None = Field(default=None, max_length=60, description="Conjunctional Arcana")


class CastOptions(CostOptions, FreeManaOptions):
    mode: Literal["cast", "cost", "rote", "forget-rote", "contingency"] = Field(
        default="cast", description="cast, or see cost, save rote, contingency"
    )
    inscribed: bool = Field(default=False, description="On an inscription")
    connection: str | None = Field(default=None, max_length=60, description="Sympathy connection")
    unwilling: bool = Field(default=False, description="Against its will")
    ritual_note: str | None = Field(default=None, max_length=200, description="Ritual: sacrament, anchor")


def _gm_adjust(table: Table, value: int) -> int:
    if value:
        table.require_gm("Adjusting a spell's cost")
    return value


def _connection_need(table: Table, sheet: AwakenedSheet, options: CastOptions, design: Design, who: str) -> str | None:
    """Fold a named connection into the sympathy factors; returns its key."""
    if not options.connection:
        return None
    key = fold(options.connection)
    link = sheet.connections.get(key)
    if link is None:
        known = ", ".join(sheet.connections) or "none yet (add them with /awakened sympathy)"
        raise RuleError(f"{who} has no sympathetic connection {options.connection!r}. Connections: {known}.")
    levels = table.book.factors.sympathy.levels
    if link.level > len(levels) - 1:
        raise RuleError(f"{who}'s connection to {options.connection} has degraded to Unknown: out of reach.")
    need = link.level + (1 if link.fame and link.level >= 2 else 0) + (0 if link.real_name_known else 1)
    if need > design.factors.sympathy:
        text = f"a named connection: {levels[link.level]} = {need}"  # whom it names is the mage's secret
        design.factors = design.factors.model_copy(
            update={"sympathy": need, "sympathy_text": "; ".join(t for t in (design.factors.sympathy_text, text) if t)}
        )
    return key


def cost_card(table: Table, who: str, design: Design, cost: Cost, title: str) -> Card:
    card = Card(title=clip(f"{title}: {design.name}", TITLE), description=design_text(table.book, design))
    card.add("Cost", cost.text)
    return card


def spell_cost_preview(table: Table, options: CostOptions) -> Outcome:
    """`/awakened spell cast mode:cost`: the declared spell and its cost, before anything is paid."""
    record, sheet = mage_of(table, options.mage)
    design = build_design(table.book, sheet, options, record.name)
    _, benefits = check_conjunctional(table.book, sheet, design, options.conjunctional, record.name)
    cost = spell_cost(table.book, table.settings, sheet, design, _gm_adjust(table, options.gm_cost_adjust))
    card = cost_card(table, record.name, design, cost, "Spell cost")
    own_max = min(sheet.gnosis, sheet.mana)
    card.add(
        "Paying it",
        f"{record.name} can put in {own_max} of their own Mana at once (Gnosis {sheet.gnosis}, Mana {sheet.mana})"
        + (f"; {cost.total - own_max} must come from free Mana." if cost.total > own_max else "."),
    )
    if benefits:
        card.add("Conjunctional", clip("\n".join(benefits)))
    data = {"mage": record.name, "design": design.model_dump(mode="json"), **cost_data(cost)}
    return Outcome(
        card=card, summary=f"{record.name}: {design.name} would cost {cost.total}.", data=data, ephemeral=True
    )


def cost_data(cost: Cost) -> dict[str, Any]:
    return {
        "cost": cost.total,
        "cost_lines": [line.model_dump() for line in cost.lines],
        "base": cost.base,
        "factors": cost.factors,
        "familiarity": cost.familiarity,
    }


def cast_spell(table: Table, options: CastOptions) -> Outcome:
    """`/awakened spell cast`: pay the cost and the spell is in effect (l.135)."""
    if options.mode == "cost":
        return spell_cost_preview(table, options)
    if options.mode in ("rote", "forget-rote"):
        return save_rote(table, options)
    record, sheet = mage_of(table, options.mage)
    conscious(sheet, record.name, "cast spells")
    design = build_design(table.book, sheet, options, record.name)
    link = _connection_need(table, sheet, options, design, record.name)
    conj, benefits = check_conjunctional(table.book, sheet, design, options.conjunctional, record.name)
    adjust = _gm_adjust(table, options.gm_cost_adjust)
    if options.mode == "contingency":
        return prepare_contingency(table, record.name, sheet, design, options)
    cost = spell_cost(table.book, table.settings, sheet, design, adjust, inscribed=options.inscribed)
    payment = plan(table.book, table.settings, table.state, sheet, record.name, cost.total, options)
    return _cast(table, record.name, sheet, design, cost, payment, conj, benefits, link, options, "Cast")


def _cast(
    table: Table,
    who: str,
    sheet: AwakenedSheet,
    design: Design,
    cost: Cost,
    payment: Payment,
    conj: list[str],
    benefits: list[str],
    link: str | None,
    options: CastOptions,
    verb: str,
) -> Outcome:
    state, _settings = table.state, table.settings
    pay(sheet, payment)
    ritual = design.action == "ritual"
    spell = ActiveSpell(
        id=state.next_spell_id,
        design=design,
        cost=cost.total,
        gm_adjust=cost.gm_adjust,
        free_copy=design.method == "rote" and cost.total == 0 and not options.inscribed,
        inscribed=options.inscribed,
        status="ritual" if ritual else ("sustained" if cost.total == 0 else "running"),
        window=state.now,
        conjunctional=conj,
        connection=link,
        potential=1 if ritual else 0,
        sacrament=(options.ritual_note or "") if ritual else "",
    )
    state.next_spell_id += 1
    sheet.spells.append(spell)
    notes, private = _notes(table, who, sheet, spell, link, options.unwilling)
    scoured = scour_after(sheet, payment)
    if scoured:
        notes.append(scoured)
    if payment.hallow:
        resonance = state.hallows[payment.hallow.casefold()].resonance
        notes.append(
            f"Hallow {payment.hallow}"
            + (f" (resonance: {resonance})" if resonance else "")
            # cites l.288
            + ": a spell opposing its resonance gets no Mana from it; the GM may rule so."
        )
    aspect = table.book.aspect(design.aspect)
    card = Card(title=clip(f"{verb}: {who} — {spell_label(spell)}", TITLE), description=design_text(table.book, design))
    card.add("Cost", cost.text)
    card.add("Paid", payment.text)
    now = {
        "ritual": f"A ritual: lasts while its ceremony continues. Shaping potential {spell.potential}.",
        # cites M37
        "sustained": "Free (cost 0): assumed cast and sustained while the mage is conscious and free to act.",
        "running": "In effect until the start of the caster's next turn; sustain or refresh it to keep it.",
    }[spell.status]
    card.add("Now", f"Potency {aspect.potency} · Tenacity {aspect.tenacity}\n{now}")
    if benefits:
        card.add("Conjunctional", clip("\n".join(benefits)))
    if notes:
        card.add("Notes", clip("\n".join(notes)))
    card.footer = f"Mana {sheet.mana} · Willpower {sheet.willpower} · Scene {state.scene}, round {state.round}"
    data = {
        "mage": who,
        "spell": spell_data(spell),
        **cost_data(cost),
        "paid": payment.model_dump(),
        "potency": aspect.potency,
        "tenacity": aspect.tenacity,
        "notes": notes,
        "mana": sheet.mana,
        "willpower": sheet.willpower,
    }
    outcome = Outcome(card=card, summary=f"{who} cast {spell_label(spell)} for {cost.total} Mana.", data=data)
    if link is not None:  # through whom it reaches, and what that did to the connection: the owner's and the GMs'
        full = card.model_copy(deep=True)
        level = [*table.book.factors.sympathy.levels, "Unknown"][sheet.connections[link].level]
        full.add("Connection", "\n".join([f"Through {options.connection} ({level} now).", *private])[:1024])
        outcome.private = full
        outcome.private_data = {"connection": link, "notes": private}
    return outcome


def _notes(
    table: Table, who: str, sheet: AwakenedSheet, spell: ActiveSpell, link: str | None, unwilling: bool
) -> tuple[list[str], list[str]]:
    """Paradox marks, Disbelief, standing paradoxes and sympathy wear: what the GM must know of a cast; and
    what it did to a named connection, which only the owner and the GMs read."""
    state, settings, design = table.state, table.settings, spell.design
    notes: list[str] = []
    private: list[str] = []
    if design.aspect == "vulgar":
        state.paradox_marks.append(f"{who}: {spell_label(spell)}")
        notes.append("Vulgar: causes or aggravates paradox (the GM rules it) and is subject to Sleeper Disbelief.")
        if not spell.conjunctional:
            notes.append(
                # cites l.129
                "Vulgar magic affects only targets tangible to the caster: not ghosts or spirits "
                "in Twilight without a conjunctional Arcanum."
            )
        if settings.vulgar_cast_paradox_dice:
            state.paradox_pool.append(
                ParadoxDice(caster=who, spell=spell_label(spell), dice=settings.vulgar_cast_paradox_dice)
            )
            notes.append(
                f"House rule: +{quantity(settings.vulgar_cast_paradox_dice, 'die')} to this round's paradox pool."
            )
    if design.aspect == "covert" and state.paradoxes:
        kinds = ", ".join(p.kind for p in state.paradoxes)
        # cites l.116
        notes.append(f"Standing paradox ({kinds}): it can react adversely to covert spells.")
    if design.action == "instant":
        notes.append("An instant action: one per turn.")
    if link is not None:
        connection = sheet.connections[link]
        connection.touched_day = state.day
        if unwilling:
            connection.level = min(connection.level + 1, 6)
            level = [*table.book.factors.sympathy.levels, "Unknown"]
            notes.append("Against an endpoint's will: the named connection degrades a step.")
            private.append(f"The connection to {link} degrades to {level[connection.level]}.")
    return notes, private


def prepare_contingency(table: Table, who: str, sheet: AwakenedSheet, design: Design, options: CastOptions) -> Outcome:
    """Ruling Time: one contingency at a time, paid and cast only when it triggers (l.344, G46)."""
    if sheet.arcana.get("Time", 0) < 2:
        raise RuleError(
            f"Preparing a contingency needs Time 2 (Ruling Time); {who} has Time {sheet.arcana.get('Time', 0)}."
        )
    if sheet.contingency is not None:
        raise RuleError(
            f"{who} already holds a contingency ({sheet.contingency.name}); one at a time. Trigger or discard it first."
        )
    if options.words_of_power or options.scour or options.hallow:
        raise RuleError("A contingency is paid when it triggers, not when prepared; give free Mana then.")
    sheet.contingency = design
    cost = spell_cost(table.book, table.settings, sheet, design)
    card = cost_card(table, who, design, cost, f"Contingency prepared by {who}")
    card.footer = "Paid and cast when it triggers, with the free Mana available then (a Hallow here won't count)."
    return Outcome(
        card=card,
        summary=f"{who} prepared {design.name} as a contingency.",
        data={"mage": who, "contingency": design.model_dump(mode="json"), **cost_data(cost)},
    )


class ContingencyOptions(FreeManaOptions):
    mode: Literal["trigger", "discard"] = Field(description="trigger or discard")
    mage: str | None = MageOption
    gm_cost_adjust: int = GmAdjust


def contingency(table: Table, options: ContingencyOptions) -> Outcome:
    """`/awakened spell contingency`: trigger (pay in full now, M20 and M35 as they stand) or discard."""
    record, sheet = mage_of(table, options.mage)
    design = sheet.contingency
    if design is None:
        raise RuleError(
            f"{record.name} holds no contingency; prepare one with `/awakened spell cast mode:contingency`."
        )
    if options.mode == "discard":  # private as a whole (the action's secrecy): the contingency was never public
        sheet.contingency = None
        card = Card(title=f"Contingency discarded: {design.name}", description=f"{record.name}'s slot is free.")
        return Outcome(
            card=card, summary=f"{record.name} discarded {design.name}.", data={"mage": record.name}, ephemeral=True
        )
    conscious(sheet, record.name, "cast spells")
    cost = spell_cost(table.book, table.settings, sheet, design, _gm_adjust(table, options.gm_cost_adjust))
    payment = plan(
        table.book,
        table.settings,
        table.state,
        sheet,
        record.name,
        cost.total,
        options,
        smaller="discard it (`/awakened spell contingency mode:discard`) and prepare a smaller one",
        what="the contingency",
    )
    sheet.contingency = None
    cast_options = CastOptions(spell=design.name)
    return _cast(table, record.name, sheet, design, cost, payment, [], [], None, cast_options, "Contingency triggered")


def save_rote(table: Table, options: CastOptions) -> Outcome:
    """`/awakened spell cast mode:rote`: save the declared spell as a rote on the sheet (or forget one)."""
    record, sheet = mage_of(table, options.mage)
    existing = find_rote(sheet, options.spell)
    if options.mode == "forget-rote":
        if existing is None:
            raise RuleError(f"{record.name} has no rote {options.spell!r}.")
        sheet.rotes = [r for r in sheet.rotes if r is not existing]
        card = Card(title=f"Rote forgotten: {existing.name}", description=f"{record.name} no longer knows it.")
        return Outcome(card=card, summary=f"{record.name} forgot {existing.name}.", data={"mage": record.name})
    design = build_design(table.book, sheet, options.model_copy(update={"method": "improvised"}), record.name)
    design = design.model_copy(update={"method": "rote"})
    sheet.rotes = [r for r in sheet.rotes if r is not existing] + [design]
    cost = spell_cost(table.book, table.settings, sheet, design)
    card = cost_card(table, record.name, design, cost, f"Rote saved by {record.name}")
    data = {"mage": record.name, "rote": design.model_dump(mode="json"), **cost_data(cost)}
    return Outcome(card=card, summary=f"{record.name} saved the rote {design.name}.", data=data)
