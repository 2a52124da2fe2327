"""Lasting magic: Runic Inscriptions — a spell inscribed with a trigger — as wards, sigils or plain inscriptions,
temporary, lasting, permanent or an enchantment (the seed's "Duration Types" and "Runic Inscriptions").

``/runic lasting inscribe`` is a casting: the inscribed spell as a Runic Enchantment (Symbol Drawing, no -6,
no word-count penalty) with its trigger's energy on top, rolled and paid as ``/runic cast`` does. If it works:

- *lasting* (a lesser ward or sigil): no upkeep; "A Runesmith may have only … twice his Magery level" at once;
- *temporary*: a spell on whose maintenance is the trigger's ("ignore the cost to cast the triggered spell");
- *permanent* (a greater ward or sigil) and *enchantment*: "material components valued at C5 per point of
  energy"; a Greater Sigil is worth C100 per point of its spell's energy, and a Runesmith makes one for half.

``/runic lasting trigger`` sets one off (its damage rolled): temporary and lasting ones trigger once, permanent
ones again and again. ``/runic lasting end`` records one dispelled or destroyed.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, fit
from rules.dice.gurps_damage import minimum_for, roll_damage
from rules.runic.book import RunicBook
from rules.runic.casting import CastOptions, cast, check_missile_energy, resolve_spell
from rules.runic.report import cast_outcome
from rules.runic.sheet import LastingMagic, MageSheet, SpellDef, SpellOn
from rules.runic.spells import parse_words, plan_spell
from rules.text import fold

Form = Literal["ward", "sigil", "inscription"]
Duration = Literal["temporary", "lasting", "permanent", "enchantment"]
MageName = Field(default=None, max_length=60, description="Your Runesmith")


def _trigger_spell(book: RunicBook, form: Form, trigger: str | None, parameters: str | None) -> SpellDef | None:
    """The trigger as a spell of its own (energy, Duration); the seed's defaults for wards and sigils."""
    defaults = book.casting.lasting.default_trigger
    text = trigger or defaults.get(form)
    if text is None:
        if parameters:
            raise RuleError("`trigger_parameters` belong to a trigger: name its Words as `trigger`.")
        return None
    words = parse_words(text, book)
    items = [item.strip() for item in (parameters or "").split(";") if item.strip()]
    return SpellDef(name="Trigger", words=[w.name for w in words], parameters=items, inscription=True)


class LastingInscribeOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="Its name")
    spell: str = Field(min_length=1, max_length=200, description="The spell inscribed")
    form: Form = Field(default="ward", description="Its form")
    duration: Duration = Field(default="lasting", description="lasting is lesser, permanent greater")
    trigger: str | None = Field(default=None, max_length=200, description="Trigger Words")
    trigger_parameters: str | None = Field(default=None, max_length=500, description="e.g. duration: 1 hour")
    mage: str | None = MageName
    dice: str | None = Field(default=None, max_length=40, description="GM: the 3d6")
    calamity_dice: str | None = Field(default=None, max_length=40, description="GM: Calamity 3d6")


def lasting_inscribe(table: Table, options: LastingInscribeOptions) -> Outcome:
    book: RunicBook = table.book
    numbers = book.casting.lasting
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    name = " ".join(options.name.split())
    if any(item.name.casefold() == name.casefold() for item in sheet.lasting):
        raise RuleError(f"{record.name} already has lasting magic named {name!r}; pick another name.")
    if sheet.symbol_drawing is None:
        raise RuleError("Runic Inscription is the Runesmith's art: it needs Symbol Drawing (`/runic mage set`).")
    if options.duration == "enchantment" and options.form != "inscription":
        raise RuleError("An enchantment is an inscription of its own: use `form: inscription`.")
    if options.duration == "lasting":
        active = [item.name for item in sheet.lasting if item.duration == "lasting"]
        limit = numbers.lasting_per_magery * sheet.magery
        if len(active) >= limit:
            raise RuleError(
                f"A Runesmith may have only {limit} Lasting spells (twice Magery {sheet.magery}) at once; "
                f"{record.name} has {', '.join(active)}. End one with `/runic lasting end`."
            )
    trigger = _trigger_spell(book, options.form, options.trigger, options.trigger_parameters)
    trigger_plan = plan_spell(trigger, book, table.settings) if trigger else None
    if options.duration == "temporary" and (trigger_plan is None or trigger_plan.maintenance is None):
        raise RuleError(
            "A temporary inscription is maintained at its trigger's cost: give the trigger a Duration in "
            "`trigger_parameters`, like `duration: 1 hour`."
        )
    inscribed, _ = resolve_spell(table, sheet, CastOptions(spell=options.spell))
    check_missile_energy(inscribed, plan_spell(inscribed, book, table.settings), sheet)  # the missile's own energy
    extra = f"extra: +{trigger_plan.energy} trigger {'-'.join(trigger.words)}" if trigger and trigger_plan else None
    parameters = extra
    before_on = {on.name for on in sheet.spells_on}
    result = cast(
        table,
        CastOptions(spell=options.spell, mage=record.name, parameters=parameters, dice=options.dice,
                    calamity_dice=options.calamity_dice),
        spell_as=lambda spell: spell.model_copy(update={"inscription": True}),
    )  # fmt: skip
    # An inscription's upkeep is its trigger's, never the inscribed spell's own Duration.
    if result.spell_on is not None:
        sheet.spells_on = [on for on in sheet.spells_on if on.name in before_on]
    outcome = cast_outcome(result)
    if not result.worked:
        return outcome
    spell_energy = result.plan.energy - (trigger_plan.energy if trigger_plan else 0)
    materials = None
    value = None
    if options.duration in ("permanent", "enchantment"):
        materials = numbers.permanent_materials_per_energy * result.plan.energy
    if options.form == "sigil" and options.duration == "permanent":
        value = numbers.greater_sigil_value_per_energy * spell_energy
        materials = value // numbers.runesmith_sigil_divisor
    maintenance = None
    if options.duration == "temporary" and trigger_plan is not None and trigger_plan.maintenance is not None:
        maintenance = min(trigger_plan.maintenance, trigger_plan.energy)
        sheet.spells_on.append(
            SpellOn(
                name=name,
                words=trigger_plan.words,
                cost=trigger_plan.energy,
                maintenance=maintenance,
                interval=trigger_plan.interval or "",
            )
        )
    item = LastingMagic(
        name=name, spell=result.spell.name, words=result.spell.words, form=options.form, duration=options.duration,
        trigger="-".join(trigger.words) if trigger else None, trigger_energy=trigger_plan.energy if trigger_plan else 0,
        spell_energy=spell_energy, materials=materials, value=value, maintenance=maintenance,
        damage_dice=result.plan.damage_dice, damage_type=result.plan.damage_type, day=table.state.day,
    )  # fmt: skip
    sheet.lasting.append(item)
    card = outcome.card.model_copy(deep=True)
    add_field(card, f"Lasting: {name}", _lines(item, sheet))
    data = {**outcome.data, "lasting": item.model_dump()}
    return Outcome(card=fit(card), summary=f"{outcome.summary}; inscribed {name}", data=data, secret=outcome.secret,
                   secret_summary=outcome.secret_summary, secret_data=dict(outcome.secret_data))  # fmt: skip


def _lines(item: LastingMagic, sheet: MageSheet) -> list[str]:
    kind = {"ward": "Runic Ward", "sigil": "Runic Sigil", "inscription": "Runic Inscription"}[item.form]
    grade = {"temporary": "temporary", "lasting": "lesser (lasting)", "permanent": "greater (permanent)",
             "enchantment": "enchantment"}[item.duration]  # fmt: skip
    lines = [f"{kind}, {grade}: {item.spell}" + (f", trigger {item.trigger} ({item.trigger_energy})"
                                                 if item.trigger else "")]  # fmt: skip
    if item.maintenance is not None:
        lines.append(f"Maintenance: {item.maintenance} MP (the trigger's), `/runic maintain`")
    if item.duration == "lasting":
        count = sum(1 for other in sheet.lasting if other.duration == "lasting")
        lines.append(f"Lasting spells: {count} of {2 * sheet.magery} (twice Magery)")
    if item.value is not None:
        lines.append(f"Greater Sigil: worth C{item.value:,}; a Runesmith makes it for C{item.materials:,}")
    elif item.materials is not None:
        lines.append(f"Material components: C{item.materials:,} (C5 per point of energy)")
    lines.append("Triggers once." if item.duration in ("temporary", "lasting") else "Triggers again and again.")
    if item.form == "sigil":
        lines.append("Anyone can activate it." if item.duration == "permanent" else "A Runesmith must activate it.")
    return lines


class LastingTriggerOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="Which one")
    mage: str | None = Field(default=None, max_length=60, description="Whose")


def _find(table: Table, mage: str | None, name: str, *, anyone: bool = False) -> tuple[str, MageSheet, LastingMagic]:
    """The named lasting magic of the mage; ``anyone`` lets any player reach another's (then checked by the caller)."""
    record = table.find_character(mage) if anyone and mage else table.default_character(mage)
    sheet: MageSheet = record.sheet
    key = fold(name)
    for item in sheet.lasting:
        if item.name.casefold() == key:
            return record.name, sheet, item
    listed = ", ".join(item.name for item in sheet.lasting) or "none"
    raise RuleError(f"{record.name} has no lasting magic named {name!r}. There: {listed}.")


def _remove(sheet: MageSheet, item: LastingMagic) -> None:
    sheet.lasting = [other for other in sheet.lasting if other is not item]
    sheet.spells_on = [on for on in sheet.spells_on if on.name != item.name]


def lasting_trigger(table: Table, options: LastingTriggerOptions) -> Outcome:
    """It goes off: the inscribed spell takes effect (damage rolled); once-only ones are spent."""
    owner, sheet, item = _find(table, options.mage, options.name, anyone=True)
    mine = any(c.name == owner for c in table.characters_of(table.actor.user_id))
    if not (mine or table.actor.is_gm or (item.form == "sigil" and item.duration == "permanent")):
        raise RuleError(
            f"{item.name} is {owner}'s: only a Greater Sigil can be activated by anyone "
            "(the GM triggers wards when someone sets them off)."
        )
    item.triggered += 1
    damage = (
        roll_damage(table.rng, item.damage_dice, minimum=minimum_for(item.damage_type)) if item.damage_dice else None
    )
    spent = item.duration in ("temporary", "lasting")
    if spent:
        _remove(sheet, item)
    card = Card(title=f"{item.name} is triggered", description=f"{owner}'s {item.form}: {item.spell} takes effect.")
    if damage is not None:
        add_field(card, "Damage", f"{damage.text} {item.damage_type or ''}".strip())
    add_field(
        card, "After", "Spent: it triggers only once." if spent else f"Still in place (triggered {item.triggered}×)."
    )
    data = {"mage": owner, "name": item.name, "spell": item.spell, "spent": spent, "triggered": item.triggered,
            "damage": {**damage.model_dump(), "type": item.damage_type} if damage else None}  # fmt: skip
    return Outcome(card=fit(card), summary=f"{item.name} ({owner}) triggered" + (", spent" if spent else ""), data=data)


class LastingEndOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="Which one")
    mage: str | None = Field(default=None, max_length=60, description="Whose")
    reason: str = Field(default="dispelled", max_length=200, description="Dispelled, destroyed...")


def lasting_end(table: Table, options: LastingEndOptions) -> Outcome:
    owner, sheet, item = _find(table, options.mage, options.name)
    _remove(sheet, item)
    card = Card(title=f"{item.name} ends", description=f"{owner}'s {item.form} ({item.spell}): {options.reason}.")
    data = {"mage": owner, "name": item.name, "reason": options.reason, "lasting": [i.name for i in sheet.lasting]}
    return Outcome(card=card, summary=f"{item.name} ({owner}) ended: {options.reason}", data=data)
