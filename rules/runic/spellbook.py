"""Saved spells: define, show, forget; on the mage's sheet or in the campaign grimoire.

A campaign spell is shared by every mage at the table, so only a GM writes or
erases one; a mage's own spells are the player's.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field
from rules.runic.book import RunicBook
from rules.runic.cards import spell_card
from rules.runic.casting import find_spell
from rules.runic.sheet import MageSheet, ResistTrait, SpellDef, SpellType
from rules.runic.skill import base_skill
from rules.runic.spells import define_spell, plan_spell, spell_words
from rules.text import fold

Where = Literal["mage", "campaign"]


class SpellDefineOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The spell's name, e.g. Seek Enchantments")
    words: str = Field(min_length=1, max_length=200, description="Its Words, e.g. Gal-Ort-Xen")
    type: SpellType = Field(default="regular", description="Spell type")
    resisted: ResistTrait | None = Field(default=None, description="What resists it")
    parameters: str | None = Field(default=None, max_length=1000, description="e.g. duration: 10 minutes; traits: +20")
    effect: str = Field(default="", max_length=500, description="What the spell does, in words")
    concentration: bool = Field(default=False, description="Needs concentration while on")
    inscription: bool = Field(default=False, description="A Runic Inscription (Symbol Drawing)")
    known: bool = Field(default=False, description="The mage has bought this spell (no -6)")
    where: Where = Field(default="mage", description="Your mage's, or the campaign's (GM)")
    mage: str | None = Field(default=None, max_length=60, description="Your mage, if several")


def spell_define(table: Table, options: SpellDefineOptions) -> Outcome:
    book: RunicBook = table.book
    spell = define_spell(
        book,
        name=options.name,
        words=options.words,
        type=options.type,
        resisted=options.resisted,
        parameters=options.parameters,
        concentration=options.concentration,
        inscription=options.inscription,
        effect=options.effect,
    )
    key = spell.name.casefold()
    plan = plan_spell(spell, book, table.settings)
    record = None
    if options.where == "campaign":
        table.require_gm("Writing in the campaign grimoire")
        if options.known:
            record = table.default_character(options.mage) if options.mage else None
        replaced = key in table.state.spells
        table.state.spells[key] = spell
        where = "the campaign grimoire"
    else:
        record = table.default_character(options.mage)
        sheet: MageSheet = record.sheet
        replaced = key in sheet.spells
        sheet.spells[key] = spell
        where = f"{record.name}'s spells"
    if record is not None and options.known and key not in record.sheet.known:
        record.sheet.known.append(key)
    card = spell_card(spell, plan, book, where=where, title="Spell redefined" if replaced else "Spell defined")
    _skill_field(card, table, record, spell)
    data = {
        "spell": spell.model_dump(),
        "where": options.where,
        "mage": record.name if record else None,
        "replaced": replaced,
        "energy": plan.energy,
        "energy_lines": [line.model_dump() for line in plan.energy_lines],
        "time": plan.time,
        "maintenance": plan.maintenance,
        "skill_modifier": plan.skill_from_parameters,
    }
    summary = (
        f"{table.actor.name} defined {spell.name} ({'-'.join(spell.words)}): energy {plan.energy}, time {plan.time}"
    )
    return Outcome(card=card, summary=summary, data=data)


def _skill_field(card: Card, table: Table, record: CharacterRecord | None, spell: SpellDef) -> None:
    """The base skill the mage would cast it at, when there is a mage to ask."""
    if record is None:
        return
    try:
        base = base_skill(record.sheet, spell_words(spell, table.book), table.book, inscription=spell.inscription)
    except RuleError as exc:
        add_field(card, f"{record.name}'s skill", str(exc))
        return
    known = spell.name.casefold() in record.sheet.known or spell.inscription
    lines = [*base.lines()]
    if not known:
        lines.append("Not bought: -6 unless cast from a grimoire or scroll")
    add_field(card, f"{record.name}'s base skill", lines)


class SpellShowOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="A saved spell")
    mage: str | None = Field(default=None, max_length=60, description="Whose spells to look in")


def spell_show(table: Table, options: SpellShowOptions) -> Outcome:
    record = table.find_character(options.mage) if options.mage else _own_or_none(table)
    sheet = record.sheet if record else MageSheet()
    found = find_spell(table, sheet, options.spell)
    if found is None:
        saved = sorted({s.name for s in sheet.spells.values()} | {s.name for s in table.state.spells.values()})
        raise RuleError(f"There is no saved spell {options.spell!r}. Saved spells: {', '.join(saved) or 'none yet'}.")
    spell, where = found
    plan = plan_spell(spell, table.book, table.settings)
    place = f"{record.name}'s spells" if where == "mage" and record else "the campaign grimoire"
    card = spell_card(spell, plan, table.book, where=place, title="Spell")
    _skill_field(card, table, record, spell)
    data = {"spell": spell.model_dump(), "where": where, "energy": plan.energy, "time": plan.time}
    return Outcome(card=card, summary=f"Showed {spell.name}.", data=data, ephemeral=True)


def _own_or_none(table: Table) -> CharacterRecord | None:
    mine = table.characters_of(table.actor.user_id)
    return mine[0] if len(mine) == 1 else None


class SpellForgetOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="The saved spell to erase")
    where: Where = Field(default="mage", description="Your mage's, or the campaign's (GM)")
    mage: str | None = Field(default=None, max_length=60, description="Your mage, if several")


def spell_forget(table: Table, options: SpellForgetOptions) -> Outcome:
    key = fold(options.spell)
    if options.where == "campaign":
        table.require_gm("Erasing from the campaign grimoire")
        store, place = table.state.spells, "the campaign grimoire"
    else:
        record = table.default_character(options.mage)
        store, place = record.sheet.spells, f"{record.name}'s spells"
    if key not in store:
        listed = ", ".join(s.name for s in store.values()) or "none"
        raise RuleError(f"No spell {options.spell!r} in {place}. There: {listed}.")
    spell = store.pop(key)
    card_text = f"{spell.name} is erased from {place}. Grimoires and known lists keep the name until changed."
    return Outcome(
        card=Card(title=f"Spell erased: {spell.name}", description=card_text),
        summary=f"{table.actor.name} erased {spell.name} from {place}.",
        data={"spell": spell.name, "where": options.where},
    )
