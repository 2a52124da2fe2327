"""Characters: chits, spells recorded on the sheet, location and hidden status (issue 10).

A player builds and changes his own; a GM may change anyone's. Hidden status is the GM's to set (the hide
table is not in the primer, G-R17) and is shown only to the owner and the GM.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field, fit
from rules.realm.castability import CharacterOption
from rules.realm.core import chit_text, find_chit, find_spell, items_held, parse_chit, parse_chits, sheet_of, state_of
from rules.realm.state import RealmSheet
from rules.text import TITLE, clip, fold


def sheet_card(table: Table, record: CharacterRecord, *, reveal: bool) -> Card:
    """The full sheet; ``reveal`` (owner or GM) adds hidden status."""
    sheet = sheet_of(record)
    card = Card(title=record.name)
    where = sheet.location or "no clearing yet"
    bits = [f"In {where}."]
    if sheet.dead:
        bits.append("**Dead.**")
    if reveal:
        bits.append("Hidden." if sheet.hidden else "Not hidden.")
    card.description = " ".join(bits)
    for kind in ("magic", "fight", "move"):
        chits = [chit_text(c) for c in sheet.chits if c.kind == kind]
        if chits:
            add_field(card, f"{kind.title()} chits", chits)
    add_field(card, "Spells known", ", ".join(sheet.spells) or "none")
    held = items_held(table, record.name)
    if held:
        add_field(
            card,
            "Artifacts, books and items",
            [
                f"{i.name} ({i.kind}{', type ' + i.type if i.type else ''}{', ' + i.color if i.color else ''})"
                + (f": {', '.join(i.spells)}" if i.spells else "")
                for i in held
            ],
        )
    mine = [f"#{c.id} {c.spell}: {c.status}" for c in state_of(table).castings if fold(c.caster) == fold(record.name)]
    if mine:
        add_field(card, f"{table.their(record, capital=True)} spells in effect", mine)
    return fit(card)


def sheet_data(table: Table, record: CharacterRecord, *, reveal: bool) -> dict:
    sheet = sheet_of(record).model_dump(mode="json")
    if not reveal:
        sheet.pop("hidden")
    sheet["items"] = [i.name for i in items_held(table, record.name)]
    return {"character": record.name, "owner_id": record.owner_id, "sheet": sheet}


def may_see(table: Table, record: CharacterRecord) -> bool:
    return table.actor.is_gm or record.owner_id == table.actor.user_id


class CharacterCreateOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The character's name")
    chits: str = Field(min_length=1, max_length=600, description='Chits: "MAGIC IV3*, MAGIC II4, MOVE M4*, FIGHT H5"')
    spells: str | None = Field(default=None, max_length=600, description='Spells recorded on their sheet: "Peace, Fog"')
    location: str | None = Field(default=None, max_length=60, description="Their clearing")


def _spell_names(table: Table, text: str) -> list[str]:
    names = []
    for part in (p for p in text.split(",") if p.strip()):
        spell = find_spell(table, part)
        if spell.name not in names:
            names.append(spell.name)
    return names


def character_create(table: Table, options: CharacterCreateOptions) -> Outcome:
    sheet = RealmSheet(chits=parse_chits(options.chits), location=" ".join((options.location or "").split()))
    if not sheet.chits:
        raise RuleError('Give the character\'s chits, e.g. `chits:"MAGIC IV3*, MOVE M4*, FIGHT H5"`.')
    if len(sheet.chits) > 30:
        raise RuleError("A character has at most 30 chits here.")
    sheet.spells = _spell_names(table, options.spells or "")
    record = table.add_character(table.actor.user_id, options.name, sheet)
    card = sheet_card(table, record, reveal=True)
    card.title = f"New character: {card.title}"
    return Outcome(
        card=card, summary=f"{table.actor.name} created {record.name}", data=sheet_data(table, record, reveal=True)
    )


class CharacterShowOptions(Model):
    character: str | None = Field(default=None, max_length=60, description="Whose sheet (default: yours)")


def character_show(table: Table, options: CharacterShowOptions) -> Outcome:
    record = table.find_character(options.character) if options.character else table.default_character(None)
    reveal = may_see(table, record)
    return Outcome(
        card=sheet_card(table, record, reveal=reveal),
        summary=f"showed {record.name}",
        data=sheet_data(table, record, reveal=reveal),
        ephemeral=True,
    )


ChitChange = Literal["add", "remove", "fatigue", "rest", "unprepare"]


class CharacterChitOptions(Model):
    change: ChitChange = Field(description="Add or remove a chit, fatigue it (Fatigue Step), rest it (GM)")
    chit: str = Field(min_length=1, max_length=30, description="The chit, e.g. MAGIC IV3* or FIGHT H4**")
    character: str | None = CharacterOption


def character_chit(table: Table, options: CharacterChitOptions) -> Outcome:
    """Chits the spell lifecycle does not move: the Fatigue Step's choice (G-R20), rest (not in the primer)."""
    record = table.default_character(options.character)
    sheet = sheet_of(record)
    if options.change == "add":
        chit = parse_chit(options.chit)
        same = sum(1 for c in sheet.chits if c.label.split(" #")[0] == chit.label)
        if same:
            chit.label = f"{chit.label} #{same + 1}"
        if len(sheet.chits) >= 30:
            raise RuleError("A character has at most 30 chits here.")
        sheet.chits.append(chit)
        said = f"{chit.label} added."
    else:
        chit = find_chit(record, options.chit)
        if chit.state == "committed":
            raise RuleError(
                # cites L55
                f"{chit.label} is committed to spell #{chit.committed_to}; it changes when that spell ends."
            )
        if options.change == "remove":
            sheet.chits.remove(chit)
            said = f"{chit.label} removed."
        elif options.change == "fatigue":
            if chit.state == "fatigued":
                raise RuleError(f"{chit.label} is already fatigued.")
            if chit.kind == "magic" and not table.actor.is_gm:
                raise RuleError(
                    # cites L32
                    "Magic chits fatigue when their spell expires, not in the Fatigue Step; a GM may force it."
                )
            chit.state, chit.color, chit.prepared_day = "fatigued", None, None
            said = f"{chit.label} fatigued."
        elif options.change == "rest":
            table.require_gm("Resting a chit (rest is not in the primer)")
            if chit.state != "fatigued":
                raise RuleError(f"{chit.label} is {chit.state}, not fatigued.")
            chit.state = "active"
            said = f"{chit.label} rested: ready again."
        else:
            if chit.state != "prepared":
                raise RuleError(f"{chit.label} is not prepared.")
            table.require_gm("Undoing a preparation")
            chit.state, chit.prepared_day = "active", None
            said = f"{chit.label} is no longer prepared."
    card = sheet_card(table, record, reveal=may_see(table, record))
    card.title = clip(f"{record.name}: {said}", TITLE)
    return Outcome(
        card=card,
        summary=f"{record.name}: {said}",
        data={"character": record.name, "change": options.change, "chit": chit.label, "state": chit.state},
    )


class CharacterLearnOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="A spell of the campaign")
    forget: bool = Field(default=False, description="Take it off the sheet")
    character: str | None = CharacterOption


def character_learn(table: Table, options: CharacterLearnOptions) -> Outcome:
    record = table.default_character(options.character)
    sheet = sheet_of(record)
    spell = find_spell(table, options.spell)
    if options.forget:
        if spell.name not in sheet.spells:
            raise RuleError(f"{record.name} does not have {spell.name} on {table.their(record)} sheet.")
        sheet.spells.remove(spell.name)
    elif spell.name in sheet.spells:
        raise RuleError(f"{record.name} already has {spell.name}.")
    else:
        if len(sheet.spells) >= 60:
            raise RuleError("A sheet holds at most 60 spells here.")
        sheet.spells.append(spell.name)
    verb = "forgets" if options.forget else "records"
    return Outcome(
        card=Card(
            title=f"{record.name} {verb} {spell.name}", description=f"Spells: {', '.join(sheet.spells) or 'none'}."
        ),
        summary=f"{record.name} {verb} {spell.name}",
        data={"character": record.name, "spell": spell.name, "spells": sheet.spells},
    )


class CharacterSetOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="The character")
    location: str | None = Field(default=None, max_length=60, description="Their clearing")
    hidden: bool | None = Field(default=None, description="GM: hidden or not (after a hide roll)")


def character_set(table: Table, options: CharacterSetOptions) -> Outcome:
    record = table.own_character(options.character)
    sheet = sheet_of(record)
    if options.location is None and options.hidden is None:
        raise RuleError("Give `location`, or (GM) `hidden`.")
    if options.hidden is not None:
        # cites G-R17
        table.require_gm("Setting hidden status (the hide roll is the GM's)")
        sheet.hidden = options.hidden
    if options.location is not None:
        sheet.location = " ".join(options.location.split())
    reveal = may_see(table, record)
    return Outcome(
        card=sheet_card(table, record, reveal=reveal),
        summary=f"{record.name} updated",
        data=sheet_data(table, record, reveal=reveal),
        ephemeral=options.hidden is not None,
    )
