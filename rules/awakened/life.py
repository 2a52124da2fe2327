"""A spell's life (M36, M37): sustain, refresh, reduce, dismiss, and a ritual's hours of ceremony.

The sustained total is the sum of the actual costs of the caster's sustained
spontaneous spells (free Mana never lowers it, l.284); sustaining past Gnosis
is refused with what would fit. A refresh works like casting anew: full cost,
free Mana, the Gnosis limit, paradox, sympathy wear, and a new Shaping window.
"""

from pydantic import Field

from rules.awakened.common import MageOption, conscious, find_spell, mage_of, spell_data, spell_label
from rules.awakened.payment import FreeManaOptions, pay, plan, scour_after
from rules.awakened.sheet import ActiveSpell, AwakenedSheet, Factors
from rules.awakened.spells import parse_damage, spell_cost
from rules.awakened.words import quantity
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.text import TITLE, clip

SpellOption = Field(min_length=1, max_length=80, description="Spell in effect (#n or name)")


def sustained_total(sheet: AwakenedSheet, ignore: ActiveSpell | None = None) -> int:
    return sum(s.cost for s in sheet.spells if s.status == "sustained" and s is not ignore)


def _spell_data(who: str, sheet: AwakenedSheet, spell: ActiveSpell | None = None) -> dict:
    data: dict = {"mage": who, "sustained_total": sustained_total(sheet), "gnosis": sheet.gnosis, "mana": sheet.mana}
    if spell is not None:
        data["spell"] = spell_data(spell)
    return data


class SustainOptions(Model):
    spell: str = SpellOption
    mage: str | None = MageOption


def sustain(table: Table, options: SustainOptions) -> Outcome:
    """Anchor a spell in the nimbus to the end of the scene: no Mana, but the total must fit in Gnosis (l.304)."""
    record, sheet = mage_of(table, options.mage)
    if sheet.state != "conscious":
        raise RuleError(f"{record.name} is {sheet.state}: sustaining a spell needs a conscious mage.")
    spell = find_spell(sheet, options.spell, record.name)
    if spell.status == "ritual":
        # cites l.150, ruling P-G16
        raise RuleError("A ritual lasts while its ceremony continues; it is not sustained.")
    if spell.status == "sustained":
        raise RuleError(f"{spell_label(spell)} is already sustained to the end of the scene.")
    total = sustained_total(sheet)
    if spell.cost > sheet.gnosis:
        # cites l.304
        raise RuleError(
            f"{spell_label(spell)} costs {spell.cost}, more than {record.name}'s Gnosis {sheet.gnosis}: a mage "
            "sustains at most their Gnosis in Mana of spells, so this one can't be sustained even alone. Reduce it "
            f"to {sheet.gnosis} or less (`/awakened spell reduce spell:#{spell.id}`), or refresh it each turn."
        )
    if total + spell.cost > sheet.gnosis:
        room = sheet.gnosis - total
        others = [f"{spell_label(s)} ({s.cost})" for s in sheet.spells if s.status == "sustained" and s.cost]
        raise RuleError(
            f"{record.name} sustains {total} Mana of spells already ({', '.join(others) or 'none'}); Gnosis "
            f"{sheet.gnosis} leaves room for {room}, and {spell_label(spell)} costs {spell.cost}. Dismiss or reduce "
            "a sustained spell, or reduce this one, to make room."
        )
    spell.status = "sustained"
    card = Card(
        title=clip(f"Sustained: {record.name} — {spell_label(spell)}", TITLE),
        description=f"Lasts to the end of the scene (even if {record.name} falls unconscious; it ends if they die).",
    )
    card.add("Sustained total", f"{sustained_total(sheet)} of Gnosis {sheet.gnosis}")
    return Outcome(
        card=card, summary=f"{record.name} sustains {spell_label(spell)}.", data=_spell_data(record.name, sheet, spell)
    )


class RefreshOptions(FreeManaOptions):
    spell: str = SpellOption
    mage: str | None = MageOption
    out_of_sight: int = Field(default=0, ge=0, le=1_000_000, description="Targets now out of your sight")
    ritual_note: str | None = Field(default=None, max_length=200, description="Ritual: new sacrament")


def refresh(table: Table, options: RefreshOptions) -> Outcome:
    """Repay the full cost for another round (l.300); for a ritual, repay to gather and Shape again (l.250)."""
    record, sheet = mage_of(table, options.mage)
    conscious(sheet, record.name, "refresh spells")
    spell = find_spell(sheet, options.spell, record.name)
    state = table.state
    if spell.status == "ritual" and not options.ritual_note:
        raise RuleError("Repaying a ritual destroys another appropriate sacrament; name it in `ritual_note`.")
    payment = plan(
        table.book,
        table.settings,
        state,
        sheet,
        record.name,
        spell.cost,
        options,
        smaller=f"reduce it first (`/awakened spell reduce spell:#{spell.id}`)",
        what="the refresh",
    )
    pay(sheet, payment)
    notes = []
    if spell.status == "ritual":
        spell.shaped_ritual, spell.hours, spell.potential, spell.sacrament = False, 0, 1, options.ritual_note
        notes.append("The ritual's costs are repaid: it gathers Shaping potential again (1 now, +1 per hour).")
    else:
        was_sustained = spell.status == "sustained"
        spell.status = "running"
        spell.window = state.now
        if was_sustained:
            notes.append("It is now running for another round; sustain it again to keep it to the end of the scene.")
    if spell.design.aspect == "vulgar":
        state.paradox_marks.append(f"{record.name}: {spell_label(spell)} (refresh)")
        # cites l.300, P-G18
        notes.append("Vulgar: the refresh triggers paradox as normal and is vulgar this turn.")
    reached, private = _reach(table, sheet, spell, options.out_of_sight)
    notes += reached
    scoured = scour_after(sheet, payment)
    if scoured:
        notes.append(scoured)
    card = Card(title=clip(f"Refreshed: {record.name} — {spell_label(spell)}", TITLE), description=payment.text)
    card.add("Shaping", shaping_after_refresh(spell, sheet, state.now))
    if notes:
        card.add("Notes", "\n".join(notes))
    data = {**_spell_data(record.name, sheet, spell), "paid": payment.model_dump(), "notes": notes}
    outcome = Outcome(card=card, summary=f"{record.name} refreshed {spell_label(spell)} for {spell.cost}.", data=data)
    if private:  # what the refresh did to the named connection: the owner's and the GMs'
        full = card.model_copy(deep=True)
        full.fields = [f for f in full.fields if f.name != "Notes"]
        full.add("Notes", "\n".join([*notes, *private])[:1024])
        outcome.private = full
        outcome.private_data = {"notes": private}
    return outcome


def shaping_after_refresh(spell: ActiveSpell, sheet: AwakenedSheet, now: tuple[int, int]) -> str:
    """When the refreshed spell can be Shaped: a ritual by its potential at any time, a spontaneous spell in this
    turn's window (P-G6), a sensory spell never (l.237)."""
    if spell.status == "ritual":
        # cites l.248, l.267
        return (
            f"A ritual's Shaping has no window: it gathers potential again ({spell.potential} now, +1 per hour of "
            f"ceremony, up to Gnosis {sheet.gnosis}) and may spend it all at any time."
        )
    if spell.design.aspect == "sensory":
        return "Never: sensory spells can't be Shaped."
    # cites P-G6
    return f"Open this turn (scene {now[0]}, round {now[1]}): Shape it before the round ends."


def _reach(table: Table, sheet: AwakenedSheet, spell: ActiveSpell, out_of_sight: int) -> tuple[list[str], list[str]]:
    """Which targets the refresh still holds (l.300): those in sight, and those out of sight whom the spell's
    sympathy still reaches. Only a named connection can be reached by sympathy; it is counted among the
    targets out of sight (that is what sympathy is for). A refresh that reaches it wears it (P-G33).
    Returns the notes for everyone, and those about the connection (the owner's and the GMs')."""
    factors = spell.design.factors
    if out_of_sight > factors.targets:
        raise RuleError(
            f"{spell_label(spell)} has {quantity(factors.targets, 'target')}; {out_of_sight} cannot be out of sight."
        )
    notes: list[str] = []
    private: list[str] = []  # the connection is the mage's secret
    link = sheet.connections.get(spell.connection) if spell.connection else None
    reached_by_sympathy = False
    if link is not None and out_of_sight:
        levels = table.book.factors.sympathy.levels
        need = link.level + (1 if link.fame and link.level >= 2 else 0) + (0 if link.real_name_known else 1)
        reached_by_sympathy = link.level <= len(levels) - 1 and need <= factors.sympathy
        if reached_by_sympathy:
            link.touched_day = table.state.day
            notes.append("A target out of sight is still reached by the spell's sympathy.")
            private.append(f"{spell.connection} is out of sight but the spell's sympathy still reaches it.")
            if table.settings.refresh_degrades_sympathy and link.level < 6:
                link.level += 1
                # cites P-G33
                private.append(f"The refresh wears the connection to {spell.connection} one step.")
        else:
            private.append(f"The connection to {spell.connection} has worn beyond the spell's sympathy: out of reach.")
    lost = out_of_sight - (1 if reached_by_sympathy else 0)
    if lost:
        kept = factors.targets - lost
        if kept < 1:
            sheet.spells.remove(spell)
            # cites l.300
            notes.append("Every target is out of sight and beyond the spell's sympathy: the spell ends.")
        else:
            spell.design.factors = factors.model_copy(update={"targets": kept})
            notes.append(
                f"{quantity(lost, 'target')} out of sight and beyond its sympathy "
                f"{'ceases' if lost == 1 else 'cease'} to be affected; {kept} {'remains' if kept == 1 else 'remain'}."
            )
    return notes, private


class ReduceOptions(Model):
    spell: str = SpellOption
    mage: str | None = MageOption
    area: int | None = Field(default=None, ge=0, le=20, description="Lower area")
    size: int | None = Field(default=None, ge=0, le=20, description="Lower size")
    precision: int | None = Field(default=None, ge=0, le=2, description="Lower precision")
    targets: int | None = Field(default=None, ge=1, le=1_000_000, description="Targets kept")
    sympathy: int | None = Field(default=None, ge=0, le=10, description="Lower sympathy")
    drop_damage: str | None = Field(default=None, max_length=120, description="Damage factors dropped")
    strength: int | None = Field(default=None, ge=0, le=30, description="Lower successes to")
    restore: bool = Field(default=False, description="Restore full successes")


def reduce(table: Table, options: ReduceOptions) -> Outcome:
    """Release factors for good (the cost drops), or lower the successes applied, restorable this turn (P-G15)."""
    record, sheet = mage_of(table, options.mage)
    spell = find_spell(sheet, options.spell, record.name)
    factors = spell.design.factors
    changes: dict = {}
    for key in ("area", "size", "precision", "targets", "sympathy"):
        value = getattr(options, key)
        if value is None:
            continue
        if value > getattr(factors, key):
            raise RuleError(
                f"Reducing can't add: {spell_label(spell)} has {key} {getattr(factors, key)}; recast it to raise it."
            )
        changes[key] = value
    if options.drop_damage:
        dropped = parse_damage(table.book, options.drop_damage)
        missing = [d for d in dropped if d not in factors.damage]
        if missing:
            raise RuleError(
                f"{spell_label(spell)} has no damage factor {', '.join(missing)}; it has "
                f"{', '.join(d.replace('_', ' ') for d in factors.damage) or 'none'}."
            )
        changes["damage"] = [d for d in factors.damage if d not in dropped]
    if not changes and options.strength is None and not options.restore:
        raise RuleError(
            "Say what to reduce: lower factors (area, size, precision, targets, sympathy, drop_damage), "
            "`strength`, or `restore`."
        )
    before = spell.cost
    if changes:
        spell.design = spell.design.model_copy(update={"factors": Factors(**{**factors.model_dump(), **changes})})
        spell.cost = spell_cost(
            table.book, table.settings, sheet, spell.design, spell.gm_adjust, inscribed=spell.inscribed, ignore=spell
        ).total
    if options.restore:
        spell.strength = None
    elif options.strength is not None:
        spell.strength = options.strength
    lines = [f"Cost {before} → {spell.cost}" + (" (released factors are gone until recast)" if changes else "")]
    if spell.strength is not None:
        lines.append(f"Successes applied lowered to {spell.strength} (restorable at no cost during the turn).")
    elif options.restore:
        lines.append("Successes applied restored to full.")
    card = Card(title=clip(f"Reduced: {record.name} — {spell_label(spell)}", TITLE), description="\n".join(lines))
    card.add("Sustained total", f"{sustained_total(sheet)} of Gnosis {sheet.gnosis}")
    return Outcome(
        card=card,
        summary=f"{record.name} reduced {spell_label(spell)} ({before} → {spell.cost}).",
        data={**_spell_data(record.name, sheet, spell), "cost_before": before},
    )


class DismissOptions(Model):
    spell: str = Field(min_length=1, max_length=80, description="#number, name or all")
    mage: str | None = MageOption


def dismiss(table: Table, options: DismissOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    if options.spell.strip().casefold() == "all":
        ended = list(sheet.spells)
    else:
        ended = [find_spell(sheet, options.spell, record.name)]
    if not ended:
        raise RuleError(f"{record.name} has no spells in effect.")
    sheet.spells = [s for s in sheet.spells if s not in ended]
    names = ", ".join(spell_label(s) for s in ended)
    card = Card(title=f"Dismissed by {record.name}", description=f"{names} ended (aftereffects may remain).")
    card.add("Sustained total", f"{sustained_total(sheet)} of Gnosis {sheet.gnosis}")
    return Outcome(
        card=card,
        summary=f"{record.name} dismissed {names}.",
        data={**_spell_data(record.name, sheet), "ended": [spell_label(s) for s in ended]},
    )


class CeremonyOptions(Model):
    spell: str = SpellOption
    hours: int = Field(default=1, ge=1, le=48, description="Hours")
    mage: str | None = MageOption


def ceremony(table: Table, options: CeremonyOptions) -> Outcome:
    """Each hour of ceremony stores a point of Shaping potential, up to Gnosis (l.248)."""
    record, sheet = mage_of(table, options.mage)
    spell = find_spell(sheet, options.spell, record.name)
    if spell.status != "ritual":
        raise RuleError(f"{spell_label(spell)} is not a ritual; only rituals gather Shaping potential.")
    if spell.shaped_ritual:
        raise RuleError("This ritual was Shaped: repay its full cost and a new sacrament (`spell refresh`) first.")
    before = spell.potential
    spell.hours += options.hours
    spell.potential = min(sheet.gnosis, 1 + spell.hours)
    card = Card(
        title=clip(f"Ceremony: {record.name} — {spell_label(spell)}", TITLE),
        description=f"{quantity(spell.hours, 'hour')} of ceremony: Shaping potential {before} → {spell.potential} "
        f"(at most Gnosis {sheet.gnosis}).",
    )
    return Outcome(
        card=card,
        summary=f"{record.name}'s ritual {spell_label(spell)} holds {spell.potential} potential.",
        data=_spell_data(record.name, sheet, spell),
    )
