"""The campaign's spells, Artifacts, Spell Books and colored items: GM data (spec G-R3), and a spell-list
import from TOML or CSV with every error reported by its line, so a group can bring the board game's list.
"""

import csv
import tomllib
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from rules.base import Card, Model, Outcome, RuleError, Table, Upload, add_field, fit, pasted_or_file, quoted
from rules.realm.book import (
    COLORS,
    DURATIONS,
    ROMANS,
    TARGET_TYPES,
    Color,
    Duration,
    ItemKind,
    Roman,
    SpellDef,
    TargetType,
    clean_name,
)
from rules.realm.core import all_spells, book_of, find_item, find_spell, state_of
from rules.realm.state import ItemState
from rules.text import fold

IMPORT_FIELDS = ("name", "type", "color", "target_type", "duration", "text")
MAX_IMPORT = 200


def spell_line(spell: SpellDef) -> str:
    parts = [
        f"type {spell.type or '(unset)'}",
        spell.color or "color (unset)",
        spell.target_type or "target (unset)",
        spell.duration or "duration (unset)",
    ]
    return f"{spell.name}: " + ", ".join(parts)


class SpellDefineOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The spell's name")
    type: Roman | None = Field(default=None, description="Its type, I-VIII")
    color: Color | None = Field(default=None, description="The color magic it needs")
    target_type: TargetType | None = Field(default=None, description="What it is cast on")
    duration: Duration | None = Field(default=None, description="How long it lasts")
    # cites L75
    text: str | None = Field(default=None, max_length=1000, description="Its effect, for the table")


def spell_define(table: Table, options: SpellDefineOptions) -> Outcome:
    """Sets any attribute; the others keep their values (a book spell's unset ones stay unset)."""
    name = clean_name(options.name, "spell")
    current = all_spells(table).get(fold(name))
    spell = current.model_copy() if current is not None else SpellDef(name=name)
    for key in ("type", "color", "target_type", "duration", "text"):
        value = getattr(options, key)
        if value is not None:
            setattr(spell, key, value)
    state_of(table).spells[fold(name)] = spell
    card = Card(title=f"Spell {'updated' if current else 'defined'}: {spell.name}", description=spell_line(spell))
    if spell.missing():
        card.footer = (
            f"Not castable until {', '.join(spell.missing())} {'is' if len(spell.missing()) == 1 else 'are'} set."
        )
    return Outcome(
        card=card, summary=f"spell {spell.name} defined", data={"spell": spell.model_dump(), "missing": spell.missing()}
    )


class SpellShowOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="The spell")


def spell_show(table: Table, options: SpellShowOptions) -> Outcome:
    spell = find_spell(table, options.spell)
    card = Card(title=spell.name, description=spell_line(spell))
    if spell.text:
        add_field(card, "Effect", spell.text)
    if spell.missing():
        card.footer = f"Cannot be cast until the GM sets its {' and '.join(spell.missing())}."
    return Outcome(
        card=card,
        summary=f"showed {spell.name}",
        data={"spell": spell.model_dump(), "missing": spell.missing()},
        ephemeral=True,
    )


class SpellListOptions(Model):
    pass


def spell_list(table: Table, options: SpellListOptions) -> Outcome:
    spells = sorted(all_spells(table).values(), key=lambda s: fold(s.name))
    card = Card(title="Spells of this campaign")
    add_field(card, f"{len(spells)} spells", [spell_line(s) for s in spells])
    return Outcome(
        card=fit(card), summary="listed spells", data={"spells": [s.model_dump() for s in spells]}, ephemeral=True
    )


# ---------------------------------------------------------------- import


class SpellImportOptions(Model):
    format: Literal["toml", "csv"] = Field(description="toml: spell = [{name=...}, ...]; csv: name,type,color,...")
    text: str | None = Field(
        default=None, min_length=1, max_length=6000, description="TOML or CSV pasted; rows may be separated by ;"
    )
    file: Annotated[str | None, Upload()] = Field(default=None, description="A .toml or .csv file of spells")


def _split_rows(text: str) -> list[str]:
    """CSV rows: by newline, or by ``;`` outside double quotes (one-line slash-command options)."""
    if "\n" in text:
        return text.splitlines()
    rows, current, quoted = [], [], False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            rows.append("".join(current))
            current = []
        else:
            current.append(char)
    rows.append("".join(current))
    return rows


def _toml_value(value: Any) -> str:
    """A TOML value as the file wrote it (``3``, ``true``, a list), never Python's repr."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return str(value)


def _check_row(row: dict[str, Any], where: str, errors: list[str]) -> SpellDef | None:
    clean: dict[str, Any] = {}
    for key, value in row.items():
        if key not in IMPORT_FIELDS:
            errors.append(f"{where}: unknown column {quoted(key)}; columns are {', '.join(IMPORT_FIELDS)}")
            continue
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if not isinstance(value, str):
            errors.append(f"{where}: {key} must be text, not {_toml_value(value)}")
            continue
        value = " ".join(value.split())
        if key == "type":
            value = value.upper()
            if value not in ROMANS:
                errors.append(f"{where}: type {quoted(value)} is not I-VIII")
                continue
        elif key == "color":
            value = "grey" if value.casefold() == "gray" else value.casefold()
            if value not in COLORS:
                errors.append(f"{where}: color {quoted(value)} is not one of {', '.join(COLORS)}")
                continue
        elif key == "duration" and value.casefold() not in DURATIONS:
            errors.append(f"{where}: duration {quoted(value)} is not one of {', '.join(DURATIONS)}")
            continue
        elif key == "target_type" and value.casefold() not in TARGET_TYPES:
            errors.append(f"{where}: target_type {quoted(value)} is not one of {', '.join(TARGET_TYPES)}")
            continue
        clean[key] = value.casefold() if key in ("duration", "target_type") else value
    if "name" not in clean:
        errors.append(f"{where}: a spell needs a name")
        return None
    try:
        return SpellDef(**clean)
    except ValidationError as exc:
        for error in exc.errors():
            errors.append(f"{where}: {'.'.join(map(str, error['loc']))}: {error['msg']}")
        return None


def _toml_rows(text: str, errors: list[str]) -> list[tuple[str, dict]]:
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        errors.append(f"not valid TOML: {exc}")
        return []
    spells = parsed.pop("spell", None)
    for key in parsed:
        errors.append(
            f"unknown key {quoted(key)}: write the spells as "
            '`spell = [{name = "…", type = "II"}, …]` or [[spell]] tables'
        )
    if not isinstance(spells, list) or not all(isinstance(s, dict) for s in spells):
        errors.append("no `spell` list of tables found")
        return []
    headers = [i + 1 for i, line in enumerate(text.splitlines()) if line.strip() == "[[spell]]"]
    rows = []
    for index, spell in enumerate(spells):
        line = f"line {headers[index]}, " if len(headers) == len(spells) else ""
        rows.append((f"{line}spell {index + 1}", spell))
    return rows


def _csv_rows(text: str, errors: list[str]) -> list[tuple[str, dict]]:
    lines = _split_rows(text)
    reader = list(csv.reader(lines, skipinitialspace=True))
    if not reader:
        errors.append("empty CSV")
        return []
    header = [fold(h) for h in reader[0]]
    if "name" not in header:
        errors.append(f"line 1: the header must name the columns, with `name` among {', '.join(IMPORT_FIELDS)}")
        return []
    rows = []
    for number, cells in enumerate(reader[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            errors.append(f"line {number}: {len(cells)} cells for {len(header)} columns")
            continue
        rows.append((f"line {number}", dict(zip(header, cells, strict=False))))
    return rows


def spell_import(table: Table, options: SpellImportOptions) -> Outcome:
    """All or nothing: every error is listed by line, and nothing is imported while one remains."""
    errors: list[str] = []
    text = pasted_or_file(options.text, options.file, "the spell list")
    rows = _toml_rows(text, errors) if options.format == "toml" else _csv_rows(text, errors)
    if len(rows) > MAX_IMPORT:
        errors.append(f"{len(rows)} spells; import at most {MAX_IMPORT} at a time")
    spells: list[SpellDef] = []
    seen: dict[str, str] = {}
    for where, row in rows:
        spell = _check_row(row, where, errors)
        if spell is None:
            continue
        if fold(spell.name) in seen:
            errors.append(f"{where}: {spell.name} is already on {seen[fold(spell.name)]}")
            continue
        seen[fold(spell.name)] = where
        spells.append(spell)
    if errors:
        shown = errors[:25] + ([f"… and {len(errors) - 25} more"] if len(errors) > 25 else [])
        raise RuleError("Nothing imported. Fix these and send the list again:\n- " + "\n- ".join(shown))
    if not spells:
        raise RuleError("The list holds no spells.")
    known = all_spells(table)
    replaced = [s.name for s in spells if fold(s.name) in known]
    for spell in spells:
        state_of(table).spells[fold(spell.name)] = spell
    card = Card(title=f"Imported {len(spells)} spells", tone="success")
    add_field(card, "Spells", [spell_line(s) for s in spells])
    if replaced:
        add_field(card, "Replaced", ", ".join(replaced))
    unset = [s.name for s in spells if s.missing()]
    if unset:
        add_field(card, "Not castable until the GM sets type, color or duration", ", ".join(unset))
    return Outcome(
        card=fit(card),
        summary=f"imported {len(spells)} spells",
        data={"imported": [s.name for s in spells], "replaced": replaced, "incomplete": unset},
    )


# ---------------------------------------------------------------- items


class ItemDefineOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The item's name (The Good Book is in the data)")
    kind: ItemKind | None = Field(default=None, description="book, artifact or item (with color)")
    type: Roman | None = Field(default=None, description="A book's or artifact's type (it casts that type only)")
    color: Color | None = Field(default=None, description="An item's color magic")
    spells: str | None = Field(default=None, max_length=600, description='Spells it holds: "Peace, Fog"')
    holder: str | None = Field(default=None, max_length=60, description="The character holding it")
    clearing: str | None = Field(default=None, max_length=60, description="Or the clearing it lies in")


def item_define(table: Table, options: ItemDefineOptions) -> Outcome:
    state = state_of(table)
    name = clean_name(options.name, "item")
    current = state.items.get(fold(name))
    template = book_of(table).item(name)
    if current is not None:
        item = current.model_copy()
    elif template is not None:
        item = ItemState(**template.model_dump())
    else:
        if options.kind is None:
            raise RuleError("A new item needs its `kind`: book, artifact or item.")
        item = ItemState(name=name, kind=options.kind)
    for key in ("kind", "type", "color"):
        value = getattr(options, key)
        if value is not None:
            setattr(item, key, value)
    if options.spells is not None:
        item.spells = [find_spell(table, s).name for s in options.spells.split(",") if s.strip()]
    if options.holder is not None and options.clearing is not None:
        raise RuleError("Give `holder` or `clearing`, not both.")
    if options.holder:
        item.holder, item.clearing = table.find_character(options.holder).name, None
    if options.clearing:
        item.holder, item.clearing = None, " ".join(options.clearing.split())
    if item.kind in ("book", "artifact") and item.type is None:
        note = "It casts nothing until its `type` is set."
    else:
        note = ""
    state.items[fold(name)] = item
    off_type = [s for s in item.spells if find_spell(table, s).type not in (None, item.type)] if item.type else []
    card = Card(
        title=f"{item.kind.title()}: {item.name}",
        description=(
            f"Type {item.type or '(unset)'}; color {item.color or 'none'}; held by {item.holder or '—'}"
            f"{'; in ' + item.clearing if item.clearing else ''}. {note}".strip()
        ),
    )
    if item.spells:
        add_field(card, "Spells", ", ".join(item.spells))
    if off_type:
        # cites L39, G-R14
        add_field(card, "Not castable with it (another type)", ", ".join(off_type))
    return Outcome(card=card, summary=f"item {item.name} defined", data={"item": item.model_dump()})


class ItemGiveOptions(Model):
    item: str = Field(min_length=1, max_length=60, description="The item")
    holder: str | None = Field(default=None, max_length=60, description="The character who takes it")
    clearing: str | None = Field(default=None, max_length=60, description="Or the clearing it is left in")


def item_give(table: Table, options: ItemGiveOptions) -> Outcome:
    """An item changes hands. An item the data ships (The Good Book, L39) needs no `item define` first: the first
    give brings it into the campaign as the primer defines it."""
    state = state_of(table)
    template = book_of(table).item(options.item)
    if fold(options.item) not in state.items and template is not None:
        state.items[fold(template.name)] = ItemState(**template.model_dump())
    item = find_item(table, options.item)
    if (options.holder is None) == (options.clearing is None):
        raise RuleError("Give the new `holder` or the `clearing` it is left in.")
    if item.committed_to is not None:
        # cites L55
        raise RuleError(f"{item.name} is committed to spell #{item.committed_to}.")
    if options.holder:
        item.holder, item.clearing = table.find_character(options.holder).name, None
    else:
        item.holder, item.clearing = None, " ".join(options.clearing.split())  # type: ignore[union-attr]
    where = item.holder or f"in {item.clearing}"
    kind = {"book": "Spell Book", "artifact": "Artifact", "item": "item"}[item.kind]
    what = f"A type {item.type} {kind}" if item.type else f"An {kind}" if kind[0] in "AEIOU" else f"A {kind}"
    if item.color:
        what += f" with {item.color} color magic"
    return Outcome(
        card=Card(title=f"{item.name} → {where}", description=item.text or f"{what}."),
        summary=f"{item.name} → {where}",
        data={"item": item.model_dump()},
    )
