"""Mage sheets: create, show, set, Words, known spells, grimoires, implement, items, and the GM's adjust.

Players build their own sheets; MP and what Calamities took are the GM's to
change (``adjust``, with a reason for the log). Every change goes through a
check that answers with a RuleError, never a validation traceback.
"""

from typing import Any, Literal, get_args

from pydantic import Field, ValidationError, field_validator

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field, fit, plain_error
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.cards import mp_text, sheet_card
from rules.runic.sheet import Grimoire, MageSheet, MagicItem, PowerItem
from rules.runic.skill import default_word_skill, word_cap
from rules.runic.spells import plan_spell
from rules.runic.upkeep import mp_loss_consequences
from rules.text import TITLE, clip, fold

MageName = Field(default=None, max_length=60, description="Your mage, if several")


def _assign(target: Model, field: str, value: Any, label: str) -> None:
    """Set a model field, turning its bounds into a message a player can act on."""
    try:
        setattr(target, field, value)
    except ValidationError as exc:
        raise RuleError(f"{label} cannot be {value!r}: it {plain_error(exc.errors()[0])}.") from None


def _sheet(record: CharacterRecord) -> MageSheet:
    return record.sheet


def _show(record: CharacterRecord, table: Table, title: str, summary: str, data: dict[str, Any]) -> Outcome:
    card = sheet_card(record, table.book, reveal=False, campaign=table.state.spells)  # a public card
    card.title = clip(f"{title}: {card.title}", TITLE)
    return Outcome(card=card, summary=summary, data={"mage": record.name, **data})


# ---------------------------------------------------------------- create, show, set


class MageCreateOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The mage's name")
    magery: int = Field(default=1, ge=0, le=10, description="Magery level (20 MP each)")
    iq: int = Field(default=10, ge=1, le=30, description="IQ")
    ht: int = Field(default=10, ge=1, le=30, description="HT")
    will: int | None = Field(default=None, ge=1, le=30, description="Will (default: IQ)")
    hp: int = Field(default=10, ge=1, le=200, description="Maximum HP")
    fp: int | None = Field(default=None, ge=1, le=200, description="Maximum FP (default: HT)")
    thaumatology: int = Field(default=10, ge=0, le=40, description="Thaumatology skill (0: none)")
    symbol_drawing: int = Field(default=0, ge=0, le=40, description="Symbol Drawing skill (0: none)")
    faster_casting: int = Field(default=0, ge=0, le=10, description="Levels of Faster Casting")
    age: int | None = Field(default=None, ge=0, le=10_000, description="Age in years")


def mage_create(table: Table, options: MageCreateOptions) -> Outcome:
    name = " ".join(options.name.split())
    if not name:
        raise RuleError("Give the mage a name.")
    sheet = new_sheet(options, table.book)
    record = table.add_character(table.actor.user_id, name, sheet)
    return _show(record, table, "New mage", f"{table.actor.name} created {name} (Magery {sheet.magery}).", {})


def new_sheet(options: MageCreateOptions, book: RunicBook) -> MageSheet:
    """A new mage's sheet, full HP, FP and MP, after the checks every new mage passes (a GCS import's too)."""
    if options.magery and not (options.thaumatology or options.symbol_drawing):
        raise RuleError("A mage needs Thaumatology or Symbol Drawing before any Word skill; give one of them.")
    sheet = MageSheet(
        magery=options.magery,
        iq=options.iq,
        ht=options.ht,
        will=options.will or options.iq,
        hp_max=options.hp,
        hp=options.hp,
        fp_max=options.fp or options.ht,
        fp=options.fp or options.ht,
        thaumatology=options.thaumatology or None,
        symbol_drawing=options.symbol_drawing or None,
        faster_casting=options.faster_casting,
        age=options.age,
    )
    mana.refresh_mp_max(sheet, book)
    sheet.mp = sheet.mp_max
    return sheet


class MageShowOptions(Model):
    mage: str | None = MageName


def mage_show(table: Table, options: MageShowOptions) -> Outcome:
    """Anyone may read a sheet; only a GM sees what a Calamity hid."""
    record = table.find_character(options.mage) if options.mage else table.default_character(None)
    reveal = table.actor.is_gm
    card = sheet_card(record, table.book, reveal=reveal, campaign=table.state.spells)
    sheet = _sheet(record).model_dump(mode="json")
    if not reveal and _sheet(record).hides_mp_max:
        sheet.update(mp_max=None, mp_lost_temporary=None, mp_lost_permanent=None)
    data = {"mage": record.name, "owner_id": record.owner_id, "sheet": sheet}
    return Outcome(card=card, summary=f"Showed {record.name}.", data=data, ephemeral=True)


SetField = Literal[
    "magery", "iq", "ht", "will", "hp_max", "fp_max", "hp", "fp", "thaumatology", "symbol_drawing",
    "faster_casting", "age",
]  # fmt: skip


class MageSetOptions(Model):
    field: SetField = Field(description="What to change")
    value: int = Field(ge=0, le=10_000, description="The new value (0 clears a skill or the age)")
    mage: str | None = MageName


def mage_set(table: Table, options: MageSetOptions) -> Outcome:
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    old = getattr(sheet, options.field)
    value: int | None = options.value
    if options.field in ("thaumatology", "symbol_drawing", "age") and value == 0:
        value = None
    if options.field == "magery" and value is not None and value > sheet.magery and sheet.magery_locked:
        raise RuleError(f"{record.name} can never increase Magery again (Calamity 24).")
    if options.field in ("thaumatology", "symbol_drawing") and value is None and sheet.words:
        other = sheet.symbol_drawing if options.field == "thaumatology" else sheet.thaumatology
        if other is None:
            raise RuleError("Trained Word skills need Thaumatology or Symbol Drawing; keep one of them.")
    _assign(sheet, options.field, value, options.field.replace("_", " "))
    if options.field in ("hp_max", "fp_max"):
        current = options.field.removesuffix("_max")
        _assign(sheet, current, min(getattr(sheet, current), value or 0), current)
    mana.refresh_mp_max(sheet, table.book)
    notes = _cap_notes(sheet, table.book)
    outcome = _show(record, table, "Updated", f"{record.name}: {options.field} {old} → {value}.", {
        "field": options.field, "before": old, "after": value,
    })  # fmt: skip
    if notes:
        outcome.card.footer = " ".join(notes)
    return outcome


def _cap_notes(sheet: MageSheet, book: RunicBook) -> list[str]:
    cap = word_cap(sheet, book)
    over = [w for w, level in sheet.words.items() if cap is not None and level > cap]
    if over:
        return [f"{', '.join(over)} are above today's cap of {cap} and roll at {cap} until it rises."]
    return []


# ---------------------------------------------------------------- Words


class MageWordOptions(Model):
    word: str = Field(min_length=1, max_length=20, description="A Word of Power, e.g. Flam")
    skill: int | None = Field(default=None, ge=0, le=40, description="Trained skill (0: back to default)")
    cheaper_casting: int | None = Field(default=None, ge=0, le=10, description="Cheaper Casting levels (0: none)")
    mage: str | None = MageName


def mage_word(table: Table, options: MageWordOptions) -> Outcome:
    """Train a Word (ruling 5's caps) or set Cheaper Casting for it."""
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    book: RunicBook = table.book
    word = book.word(options.word)
    if options.skill is None and options.cheaper_casting is None:
        raise RuleError("Give `skill` (the trained level) or `cheaper_casting` (levels), or both.")
    lines = []
    if options.skill is not None:
        if options.skill == 0:
            sheet.words.pop(word.name, None)
            lines.append(f"{word.name} back to default ({default_word_skill(sheet, book) or 'none'}).")
        else:
            cap = word_cap(sheet, book)
            if cap is None:
                raise RuleError("A mage must have Thaumatology or Symbol Drawing before learning any Word skill.")
            if options.skill > cap:
                raise RuleError(
                    f"{word.name} cannot exceed {cap}: the higher of Thaumatology and Symbol Drawing, "
                    f"and 12 + Magery ({book.casting.skill.cap_over_magery + sheet.magery})."
                )
            sheet.words[word.name] = options.skill
            lines.append(f"{word.name} ({word.meaning}) trained to {options.skill}.")
    if options.cheaper_casting is not None:
        if options.cheaper_casting == 0:
            sheet.cheaper_casting.pop(word.name, None)
        else:
            sheet.cheaper_casting[word.name] = options.cheaper_casting
        lines.append(f"Cheaper Casting ({word.name}) {options.cheaper_casting}.")
    data = {
        "word": word.name,
        "skill": sheet.words.get(word.name),
        "cheaper_casting": sheet.cheaper_casting.get(word.name),
    }
    outcome = _show(record, table, "Word", f"{record.name}: " + " ".join(lines), data)
    outcome.card.footer = " ".join(lines)
    return outcome


# ---------------------------------------------------------------- spells learned, grimoires


def _spell_key(table: Table, sheet: MageSheet, name: str) -> tuple[str, Any]:
    key = fold(name)
    spell = sheet.spells.get(key) or table.state.spells.get(key)
    if spell is None:
        saved = sorted({s.name for s in sheet.spells.values()} | {s.name for s in table.state.spells.values()})
        raise RuleError(f"There is no saved spell {name!r}. Saved spells: {', '.join(saved) or 'none yet'}.")
    return key, spell


class MageLearnOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="The saved spell")
    forget: bool = Field(default=False, description="Mark it as not known")
    mage: str | None = MageName


def mage_learn(table: Table, options: MageLearnOptions) -> Outcome:
    """A known (bought) spell casts without the -6 for an unknown one."""
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    key, spell = _spell_key(table, sheet, options.spell)
    if options.forget:
        sheet.known = [k for k in sheet.known if k != key]
    elif key not in sheet.known:
        sheet.known.append(key)
    verb = "forgot" if options.forget else "knows"
    return _show(
        record,
        table,
        "Spells",
        f"{record.name} {verb} {spell.name}.",
        {"spell": spell.name, "known": not options.forget},
    )


class MageGrimoireOptions(Model):
    grimoire: str = Field(min_length=1, max_length=60, description="The grimoire's name")
    spell: str | None = Field(default=None, max_length=60, description="A saved spell to inscribe (or remove)")
    bonus: int = Field(default=0, ge=0, le=100, description="Its casting bonus, +0 to +5")
    remove: bool = Field(default=False, description="Remove the spell (no spell: the grimoire)")
    pages: int | None = Field(default=None, ge=1, le=10_000, description="Pages it holds (standard: 60)")
    mage: str | None = MageName


def mage_grimoire(table: Table, options: MageGrimoireOptions) -> Outcome:
    """Grimoires hold spells with a bonus; a spell fills as many pages as its casting time."""
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    book: RunicBook = table.book
    key = fold(options.grimoire)
    grimoire = sheet.grimoires.get(key)
    if options.remove and options.spell is None:
        if grimoire is None:
            raise RuleError(f"{record.name} has no grimoire {options.grimoire!r}.")
        del sheet.grimoires[key]
        return _show(
            record,
            table,
            "Grimoire",
            f"{record.name} lost the grimoire {grimoire.name}.",
            {"grimoire": grimoire.name, "removed": True},
        )
    if grimoire is None:
        if options.remove:
            raise RuleError(f"{record.name} has no grimoire {options.grimoire!r}.")
        grimoire = Grimoire(name=" ".join(options.grimoire.split()), pages=options.pages or book.grimoires.pages)
        sheet.grimoires[key] = grimoire
    elif options.pages is not None:
        grimoire.pages = options.pages
    footer = ""
    if options.spell is not None:
        spell_key, spell = _spell_key(table, sheet, options.spell)
        if options.remove:
            grimoire.spells.pop(spell_key, None)
        else:
            multiplier = book.grimoires.multiplier(options.bonus)
            grimoire.spells[spell_key] = options.bonus
            used = _pages_used(table, sheet, grimoire)
            if used > grimoire.pages:
                del grimoire.spells[spell_key]
                raise RuleError(
                    f"{grimoire.name} holds {grimoire.pages} pages; with {spell.name} it would need {used}."
                )
            footer = (
                f"Bonus {options.bonus:+d}: cost multiplier C{multiplier:,} "
                "(the book leaves what it multiplies to the GM). "
                f"Pages used: {used}/{grimoire.pages}. "
            )
            time = plan_spell(spell, book, table.settings).time
            tp = table.state.gm_values.get("grimoire_tp")
            footer += (
                f"Inscribing time: casting time {time} × TP {tp} (the GM's ruling) = {time * tp}."
                if tp is not None
                else "Inscribing time is casting time × TP, which the book leaves to the GM: "
                "`/runic ruling topic:grimoire_tp`."
            )
    outcome = _show(record, table, "Grimoire", f"{record.name}: grimoire {grimoire.name} updated.", {
        "grimoire": grimoire.name, "spells": dict(grimoire.spells), "pages": grimoire.pages,
    })  # fmt: skip
    outcome.card.footer = footer
    return outcome


def _pages_used(table: Table, sheet: MageSheet, grimoire: Grimoire) -> int:
    total = 0
    for key in grimoire.spells:
        spell = sheet.spells.get(key) or table.state.spells.get(key)
        if spell is not None:
            total += plan_spell(spell, table.book, table.settings).time
    return total


# ---------------------------------------------------------------- implement and magic items


class MageImplementOptions(Model):
    name: str | None = Field(default=None, max_length=60, description="The implement or power item")
    capacity: int | None = Field(default=None, ge=0, le=10_000, description="MP it can store")
    value: int | None = Field(default=None, ge=0, le=10_000_000, description="Its value in C (Power Item table)")
    unbond: bool = Field(default=False, description="Break the bond")
    mage: str | None = MageName


def mage_implement(table: Table, options: MageImplementOptions) -> Outcome:
    """Bond one implement (replacing any other); its capacity comes from the Power Item table or is given."""
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    book: RunicBook = table.book
    if options.unbond:
        if sheet.implement is None:
            raise RuleError(f"{record.name} has no bonded implement.")
        old = sheet.implement.name
        sheet.implement = None
        return _show(record, table, "Implement", f"{record.name} unbonded {old}.", {"implement": None})
    if not options.name:
        raise RuleError("Name the implement to bond (and give its `capacity` or its `value` in C).")
    if (options.capacity is None) == (options.value is None):
        raise RuleError("Give the implement's `capacity` in MP, or its `value` in C to read the Power Item table.")
    capacity = (
        options.capacity if options.capacity is not None else book.power_items.power_for_value(options.value or 0)
    )
    replaced = sheet.implement.name if sheet.implement else None
    sheet.implement = PowerItem(name=" ".join(options.name.split()), capacity=capacity, mp=0, value=options.value)
    lines = [f"Bonded {sheet.implement.name}: holds up to {capacity} MP, empty for now (the GM may charge it)."]
    if replaced:
        lines.append(f"The bond with {replaced} is broken: a mage bonds one implement at a time.")
    outcome = _show(record, table, "Implement", f"{record.name} bonded {sheet.implement.name} ({capacity} MP).", {
        "implement": sheet.implement.model_dump(), "replaced": replaced,
    })  # fmt: skip
    outcome.card.footer = " ".join(lines)
    return outcome


class MageItemOptions(Model):
    item: str = Field(min_length=1, max_length=60, description="The magic item")
    use: int = Field(default=0, ge=0, le=10_000, description="MP the item spends now")
    mp: int | None = Field(default=None, ge=0, le=10_000, description="Its MP when added (typical: 10)")
    recovery: int | None = Field(default=None, ge=0, le=10_000, description="MP it recovers per day (typical: 5)")
    remove: bool = Field(default=False, description="Remove the item from the sheet")
    mage: str | None = MageName


def mage_item(table: Table, options: MageItemOptions) -> Outcome:
    """Magic items have their own MP, spent as they are used and recovered at sunrise."""
    record = table.default_character(options.mage)
    sheet = _sheet(record)
    book: RunicBook = table.book
    key = fold(options.item)
    item = sheet.items.get(key)
    if options.remove:
        if item is None:
            raise RuleError(f"{record.name} has no item {options.item!r}.")
        del sheet.items[key]
        return _show(record, table, "Item", f"{record.name} lost {item.name}.", {"item": item.name, "removed": True})
    if item is None:
        mp = options.mp if options.mp is not None else book.power_items.typical_item_mp
        recovery = options.recovery if options.recovery is not None else book.power_items.typical_item_recovery
        item = MagicItem(name=" ".join(options.item.split()), mp=mp, max_mp=mp, recovery=recovery)
        sheet.items[key] = item
    elif options.mp is not None or options.recovery is not None:
        raise RuleError("Only the GM changes an existing item's MP or recovery (`/runic adjust`).")
    if options.use:
        if options.use > item.mp:
            raise RuleError(f"{item.name} has {item.mp} MP left; it cannot spend {options.use}.")
        item.mp -= options.use
    summary = f"{record.name}: {item.name} {item.mp}/{item.max_mp} MP" + (
        f" (spent {options.use})" if options.use else ""
    )
    return _show(record, table, "Item", summary, {"item": item.model_dump(), "used": options.use})


# ---------------------------------------------------------------- the GM's adjust


AdjustField = Literal[
    "magery", "magery_locked", "iq", "ht", "will", "hp", "hp_max", "fp", "fp_max", "mp", "mp_lost_temporary",
    "mp_lost_permanent", "thaumatology", "symbol_drawing", "faster_casting", "age", "word", "cheaper_casting",
    "implement_mp", "implement_capacity", "item_mp", "item_max_mp", "item_recovery", "end_condition",
    "condition_days",
]  # fmt: skip


HIDDEN_FIELDS = ("mp_lost_temporary", "mp_lost_permanent")


ADJUST_FIELDS: tuple[str, ...] = get_args(AdjustField)


class AdjustOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="Whose sheet")
    # typed, with autocomplete (rules/runic/suggest.py): as fixed choices the 25 names filled /runic's room
    field: str = Field(min_length=1, max_length=40, description="What to change (start typing)")
    value: int = Field(ge=-100_000, le=100_000, description="The new value")
    reason: str = Field(min_length=1, max_length=200, description="Why, for the log")
    name: str | None = Field(default=None, max_length=60, description="The Word, item or condition it concerns")
    apply_rules: bool = Field(default=True, description="An MP drop is MP lost (strain, Calamity)")

    @field_validator("field")
    @classmethod
    def _a_field_of_the_sheet(cls, value: str) -> str:
        name = value.strip().casefold().replace(" ", "_")
        if name not in ADJUST_FIELDS:
            raise RuleError(f"There is no field {value!r} to adjust. Fields: {', '.join(ADJUST_FIELDS)}.")
        return name


def adjust(table: Table, options: AdjustOptions) -> Outcome:
    """Any value, by a GM, with a reason. An MP drop is MP lost, with the seed's consequences, unless told not."""
    table.require_gm("Adjusting a sheet")
    record = table.find_character(options.character)
    sheet = _sheet(record)
    book: RunicBook = table.book
    field, value = options.field, options.value
    before: Any
    extra: dict[str, Any] = {}
    if field in (
        "word",
        "cheaper_casting",
        "item_mp",
        "item_max_mp",
        "item_recovery",
        "end_condition",
        "condition_days",
    ):
        if not options.name:
            raise RuleError(f"Say which one with `name` (a Word, an item or a condition) for {field}.")
        before = _adjust_named(sheet, book, field, options.name, value)
    elif field in ("implement_mp", "implement_capacity"):
        if sheet.implement is None:
            raise RuleError(f"{record.name} has no bonded implement.")
        attr = "mp" if field == "implement_mp" else "capacity"
        before = getattr(sheet.implement, attr)
        _assign(sheet.implement, attr, value, field)
        if sheet.implement.mp > sheet.implement.capacity:
            sheet.implement.mp = sheet.implement.capacity
    elif field == "mp":
        before = sheet.mp
        if value < before and options.apply_rules:
            extra = mp_loss_consequences(table, record, before - value)
        else:
            _assign(sheet, "mp", value, "MP")
    else:
        before = getattr(sheet, field)
        new: Any = bool(value) if field == "magery_locked" else value
        if field in ("thaumatology", "symbol_drawing", "age") and value == 0:
            new = None
        _assign(sheet, field, new, field)
    mana.refresh_mp_max(sheet, book)
    plain = options.name is None and field in MageSheet.model_fields
    after = getattr(sheet, field) if plain else value  # MP may be held to its maximum
    target = f"{field}[{options.name}]" if options.name else field
    if field in ("implement_mp", "implement_capacity") and sheet.implement is not None:
        after = getattr(sheet.implement, "mp" if field == "implement_mp" else "capacity")
    change = f"{before} → {after}"
    held = isinstance(before, int) and isinstance(after, int) and not isinstance(after, bool)
    if held and before < value and after < value:  # raised past its maximum: held there, and said so
        change += f" (capped at the maximum, {after}: {value} asked)"
    secret = extra.get("secret")
    if field in HIDDEN_FIELDS:  # "aware that there's been a drop, but not of how much": numbers for the GM only
        exact = f"{change}\n{mp_text(sheet, reveal=True)}"
        secret = Card(title=f"For the GM: {record.name}'s {target}", description=exact, tone="secret")
        change = "changed (the GM knows by how much)"
    summary = f"GM {table.actor.name} set {record.name}'s {target}: {change} ({options.reason})"
    card = Card(title=f"GM adjustment: {record.name}", description=f"**{target}**: {change}\n*{options.reason}*")
    for title, lines in extra.get("card", []):
        add_field(card, title, lines)
    card.add("Now", f"HP {sheet.hp}/{sheet.hp_max} · FP {sheet.fp}/{sheet.fp_max} · {mp_text(sheet, reveal=False)}")
    data = {"character": record.name, "field": field, "name": options.name, "before": before, "after": after,
            "reason": options.reason, **extra.get("data", {})}  # fmt: skip
    return Outcome(card=fit(card), summary=summary, data=data, secret=fit(secret) if secret else None)


def _adjust_named(sheet: MageSheet, book: RunicBook, field: str, name: str, value: int) -> Any:
    if field in ("word", "cheaper_casting"):
        word = book.word(name)
        store = sheet.words if field == "word" else sheet.cheaper_casting
        before = store.get(word.name)
        if value < 0 or value > 40:
            raise RuleError(f"{field} for {word.name} is from 0 (remove) to 40.")
        if value == 0:
            store.pop(word.name, None)
        else:
            store[word.name] = value
        return before
    if field.startswith("item_"):
        item = sheet.items.get(fold(name))
        if item is None:
            raise RuleError(f"No item {name!r}. Items: {', '.join(i.name for i in sheet.items.values()) or 'none'}.")
        attr = {"item_mp": "mp", "item_max_mp": "max_mp", "item_recovery": "recovery"}[field]
        before = getattr(item, attr)
        _assign(item, attr, value, field)
        item.mp = min(item.mp, item.max_mp)
        return before
    matches = [c for c in sheet.conditions if name.casefold() in (c.name.casefold(), c.key.casefold())]
    if not matches:
        listed = ", ".join(c.name for c in sheet.conditions) or "none"
        raise RuleError(f"No condition {name!r}. Conditions: {listed}.")
    condition = matches[0]
    if field == "end_condition":
        sheet.conditions.remove(condition)
        return condition.duration
    before = condition.days_left
    if value < 0:
        raise RuleError("Days left cannot be negative; use end_condition to end it.")
    condition.until, condition.days_left, condition.duration = "days", value, f"{value} day(s) left (set by the GM)"
    return before
