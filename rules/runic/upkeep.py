"""Time passing: maintaining spells, dropping them, and sunrise.

Maintenance is paid from MP each interval, at half the Duration's energy (round
up) and never more than the casting cost; while MP is below zero each payment
owes a Calamity check. Sunrise recovers 5 × Magery (minimum 5) for every mage,
into the bonded implement instead where there is one, brings back one point of
temporarily lost MP, refills magic items and counts down conditions.
"""

from typing import Any

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field, fit
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.calamity import CalamityResult, calamity_check, companions
from rules.runic.cards import calamity_data, calamity_fields, gm_calamity_card
from rules.runic.rolls import parse_faces
from rules.runic.sheet import MageSheet, RunicSettings, RunicState, UpkeepDue

MageName = Field(default=None, max_length=60, description="Your mage, if several")


class Drain(Model):
    mp_before: int
    mp_paid: int  # after the loss itself, before a Calamity's free recovery (3-4)
    mp_after: int
    strain_fp: int
    calamity: CalamityResult | None


def drain(table: Table, record: CharacterRecord, amount: int, *, payment: bool, dice: list[int] | None = None) -> Drain:
    """Take MP and owe what the seed says: strain FP past -max, and a Calamity check (ruling 3).

    A payment (maintenance) while below zero owes a check; any other loss owes one when it crosses zero.
    """
    sheet: MageSheet = record.sheet
    before = sheet.mp
    strain = mana.lose_mp(sheet, table.book, amount)
    paid = sheet.mp
    owed = mana.calamity_owed(before, sheet.mp) if payment else before >= 0 > sheet.mp
    calamity = None
    if owed:
        calamity = calamity_check(
            table.rng,
            table.book,
            sheet,
            who=record.name,
            companions=companions(table, record.name),
            will_roll=payment,
            dice=dice,
        )
    return Drain(mp_before=before, mp_paid=paid, mp_after=sheet.mp, strain_fp=strain, calamity=calamity)


def mp_loss_consequences(table: Table, record: CharacterRecord, amount: int) -> dict[str, Any]:
    """For the GM's adjust: MP lost outside a casting, with its strain and any Calamity."""
    result = drain(table, record, amount, payment=False)
    card: list[tuple[str, str]] = []
    if result.strain_fp:
        card.append(("Strain", f"{result.strain_fp} FP for MP lost at or below -1 × maximum MP"))
    if result.calamity:
        card += calamity_fields(result.calamity, reveal=False)  # the adjust card is the channel's
    data = {"strain_fp": result.strain_fp, "calamity": calamity_data(result.calamity)}
    return {"card": card, "data": data, "secret": gm_calamity_card(result.calamity)}


# ---------------------------------------------------------------- maintain


class MaintainOptions(Model):
    spell: str | None = Field(default=None, max_length=60, description="One spell on (default: all)")
    times: int = Field(default=1, ge=1, le=20, description="How many intervals to pay")
    mage: str | None = MageName
    calamity_dice: str | None = Field(default=None, max_length=200, description="GM: 3d6 per Calamity check, in order")


def maintain(table: Table, options: MaintainOptions) -> Outcome:
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    settings: RunicSettings = table.settings
    if not sheet.spells_on:
        raise RuleError(f"{record.name} has no spells on to maintain.")
    if options.spell is not None and options.spell.strip().casefold() == "due":
        owed = {name.casefold() for name in due_spells(table, record)}
        if not owed:
            raise RuleError(f"{record.name} owes no maintenance the GM called for (`/runic upkeep`).")
        chosen = [on for on in sheet.spells_on if on.name.casefold() in owed]
    else:
        chosen = [
            on for on in sheet.spells_on if options.spell is None or on.name.casefold() == options.spell.casefold()
        ]
    if not chosen:
        names = ", ".join(on.name for on in sheet.spells_on)
        raise RuleError(f"{record.name} has no spell {options.spell!r} on. Spells on: {names}.")
    supplied: list[list[int]] = []
    if options.calamity_dice is not None:
        table.require_gm("Supplying the dice")
        faces = parse_faces(options.calamity_dice, "calamity_dice", most=3 * options.times)
        supplied = [faces[i : i + 3] for i in range(0, len(faces), 3)]
    card = Card(title=f"{record.name} maintains " + ", ".join(on.name for on in chosen), tone="neutral")
    lines: list[str] = []
    payments: list[dict[str, Any]] = []
    secrets: list[Card] = []
    start = sheet.mp
    for interval in range(1, options.times + 1):
        live = [on for on in chosen if on in sheet.spells_on]
        if not live:
            break
        cost = sum(on.maintenance for on in live)
        if cost == 0:
            lines.append(f"Interval {interval}: maintained free (cast for 0 energy).")
            payments.append({"interval": interval, "cost": 0, "mp_after": sheet.mp, "calamity": None})
            continue
        dice = supplied.pop(0) if supplied and mana.calamity_owed(sheet.mp, sheet.mp - cost) else None
        result = drain(table, record, cost, payment=True, dice=dice)
        strain = f", strain {result.strain_fp} FP" if result.strain_fp else ""
        steps = f"MP {result.mp_before} → {result.mp_after}"
        if result.calamity and result.mp_paid != result.mp_after:  # a Calamity 3-4's free recovery, shown as a step
            change = result.mp_after - result.mp_paid
            steps = f"MP {result.mp_before} → {result.mp_paid} → {result.mp_after} ({result.calamity.summary()}: "
            steps += f"{change:+d})"
        lines.append(f"Interval {interval}: {cost} MP, {steps}{strain}")
        ended: list[str] = []
        if result.calamity:
            for name, value in calamity_fields(result.calamity, reveal=False):
                add_field(card, f"{name} (interval {interval})", value)
            hidden = gm_calamity_card(result.calamity)
            if hidden is not None:
                secrets.append(hidden)
            if result.calamity.applied.harmful and settings.calamity_ends_spells:
                ended = [on.name for on in sheet.spells_on]
            elif result.calamity.spell_fails:
                ended = [on.name for on in live]
        if ended:
            sheet.end_spells(ended)
            lines.append(f"The Calamity ends: {', '.join(ended)}.")
            card.tone = "warning"
        payments.append({
            "interval": interval, "cost": cost, "mp_before": result.mp_before, "mp_paid": result.mp_paid,
            "mp_after": result.mp_after,
            "strain_fp": result.strain_fp, "calamity": calamity_data(result.calamity), "ended": ended,
        })  # fmt: skip
    if supplied:
        lines.append(f"{len(supplied)} set(s) of Calamity dice were not needed and went unused.")
    settle_due(table, record, {on.name for on in chosen})
    card.description = "\n".join(lines)
    card.footer = f"MP {start} → {sheet.mp}{sheet.mp_max_shown()} · FP {sheet.fp}/{sheet.fp_max}"
    summary = f"{record.name} maintained {', '.join(on.name for on in chosen)}: MP {start} → {sheet.mp}."
    data = {"mage": record.name, "spells": [on.name for on in chosen], "mp_before": start, "mp_after": sheet.mp,
            "payments": payments, "spells_on": [on.name for on in sheet.spells_on]}  # fmt: skip
    secret = None
    if secrets:  # one GM card, however many intervals hid something
        secret = secrets[0]
        for extra in secrets[1:]:
            for item in extra.fields:
                add_field(secret, item.name, item.value)
        secret = fit(secret)
    return Outcome(card=fit(card), summary=summary, data=data, secret=secret)


# ---------------------------------------------------------------- drop


class DropOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="The spell on to end, or `all`")
    mage: str | None = MageName


def drop(table: Table, options: DropOptions) -> Outcome:
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    if options.spell.strip().casefold() == "all":
        ended = [on.name for on in sheet.spells_on]
    else:
        ended = [on.name for on in sheet.spells_on if on.name.casefold() == options.spell.strip().casefold()]
    if not ended:
        names = ", ".join(on.name for on in sheet.spells_on) or "none"
        raise RuleError(f"{record.name} has no spell {options.spell!r} on. Spells on: {names}.")
    sheet.end_spells(ended)
    settle_due(table, record, set(ended))
    card = Card(title=f"{record.name} ends {', '.join(ended)}", description="The spell ends; nothing is paid.")
    left = [on.name for on in sheet.spells_on]
    card.footer = f"Still on: {', '.join(left)}" if left else "No spells on."
    return Outcome(card=card, summary=f"{record.name} dropped {', '.join(ended)}.", data={
        "mage": record.name, "ended": ended, "spells_on": left,
    })  # fmt: skip


# ---------------------------------------------------------------- the GM's call for maintenance


class UpkeepOptions(Model):
    pass


def due_spells(table: Table, record: CharacterRecord) -> list[str]:
    """The spells on that the mage owes the GM's last call for (a spell that ended since owes nothing)."""
    due = table.state.upkeep_due.get(record.name.casefold())
    if due is None:
        return []
    on = {spell.name.casefold() for spell in record.sheet.spells_on}
    return [name for name in due.spells if name.casefold() in on]


def settle_due(table: Table, record: CharacterRecord, names: set[str]) -> None:
    """Paid or dropped: those spells owe the call nothing more; a mage who owes nothing leaves the list."""
    key = record.name.casefold()
    due = table.state.upkeep_due.get(key)
    if due is None:
        return
    folded = {name.casefold() for name in names}
    due.spells = [name for name in due.spells if name.casefold() not in folded]
    if not due_spells(table, record):
        del table.state.upkeep_due[key]


def upkeep(table: Table, options: UpkeepOptions) -> Outcome:
    """GM: a maintenance interval has passed. The state keeps no clock of intervals, so the GM says when one ends;
    every spell on then owes its maintenance, and the table waits on each mage to pay it
    (`/runic maintain`) or end the spell (`/runic drop`)."""
    table.require_gm("Calling for maintenance")
    state: RunicState = table.state
    records = sorted(table.characters.values(), key=lambda r: r.name.casefold())
    owing = [record for record in records if record.sheet.spells_on]
    card = Card(title="Maintenance is due", tone="neutral")
    if not owing:
        card.description = "No mage has a spell on: nothing is owed."
        return Outcome(card=card, summary="called for maintenance: nothing is owed", data={"owed": {}})
    state.upkeep_calls += 1
    owed: dict[str, list[str]] = {}
    for record in owing:
        names = [on.name for on in record.sheet.spells_on]
        state.upkeep_due[record.name.casefold()] = UpkeepDue(call=state.upkeep_calls, spells=names)
        owed[record.name] = names
        cost = sum(on.maintenance for on in record.sheet.spells_on)
        add_field(card, record.name, f"{', '.join(names)}: {cost} MP (MP {record.sheet.mp} now)")
    card.description = "Each mage pays with `/runic maintain` (or `spell:due`), or ends a spell with `/runic drop`."
    summary = "called for maintenance: " + "; ".join(f"{name} ({', '.join(spells)})" for name, spells in owed.items())
    return Outcome(card=fit(card), summary=summary, data={"owed": owed, "call": state.upkeep_calls})


# ---------------------------------------------------------------- sunrise


class SunriseOptions(Model):
    days: int = Field(default=1, ge=1, le=60, description="How many sunrises pass")


def _one_sunrise(record: CharacterRecord, book: RunicBook, settings: RunicSettings) -> dict[str, Any]:
    sheet: MageSheet = record.sheet
    report: dict[str, Any] = {"mage": record.name, "mp_before": sheet.mp}
    amount = mana.recovery(sheet, book)
    halted = any(c.recovery_halted for c in sheet.conditions)
    to_mage, to_item = (0, 0) if halted else (amount, 0)
    if sheet.implement is not None and not halted:
        room = sheet.implement.capacity - sheet.implement.mp
        to_item = min(amount, room)
        to_mage = 0 if settings.bonded_recovery == "implement" else amount - to_item
        sheet.implement.mp += to_item
    gained = max(0, min(to_mage, sheet.mp_max - sheet.mp))
    sheet.mp += gained
    restored = 0
    if sheet.mp_lost_temporary:
        restored = 1
        sheet.mp_lost_temporary -= 1
        mana.refresh_mp_max(sheet, book)
    if not halted:  # a Mana-Scar halts recovery around the mage, his items included
        for item in sheet.items.values():
            item.mp = min(item.max_mp, item.mp + item.recovery)
    ended = []
    for condition in list(sheet.conditions):
        if condition.until == "sunrise" or (condition.until == "days" and (condition.days_left or 0) <= 1):
            sheet.conditions.remove(condition)
            ended.append(condition.name)
        elif condition.until == "days" and condition.days_left is not None:
            condition.days_left -= 1
            condition.duration = f"{condition.days_left} day(s) left"
    report |= {"recovery": amount, "halted": halted, "mp_gained": gained, "implement_gained": to_item,
               "mp_after": sheet.mp, "temporary_restored": restored, "conditions_ended": ended}  # fmt: skip
    return report


def sunrise(table: Table, options: SunriseOptions) -> Outcome:
    """GM: the sun rises on every mage in the campaign."""
    table.require_gm("Sunrise")
    book: RunicBook = table.book
    reports: dict[str, list[dict[str, Any]]] = {}
    for _ in range(options.days):
        table.state.day += 1
        table.state.answers = {}  # "more than once per day": a new day, new answers
        for record in sorted(table.characters.values(), key=lambda r: r.name):
            reports.setdefault(record.name, []).append(_one_sunrise(record, book, table.settings))
    card = Card(title=f"Sunrise: day {table.state.day}", tone="success")
    if options.days > 1:
        card.description = f"{options.days} days pass."
    for name, days in reports.items():
        sheet: MageSheet = table.characters[name.casefold()].sheet
        first, last = days[0], days[-1]
        lines = [f"MP {first['mp_before']} → {last['mp_after']}{sheet.mp_max_shown()}"]
        if any(d["halted"] for d in days):
            lines.append("Recovery halted by a Mana-Scar.")
        stored = sum(d["implement_gained"] for d in days)
        if sheet.implement is not None:
            lines.append(f"{sheet.implement.name} +{stored} → {sheet.implement.mp}/{sheet.implement.capacity}")
        restored = sum(d["temporary_restored"] for d in days)
        if restored:
            lines.append("A little of the lost grasp on magic returns.")
        ended = [c for d in days for c in d["conditions_ended"]]
        if ended:
            lines.append("Ended: " + ", ".join(ended))
        add_field(card, name, lines)
    if not reports:
        card.description = "No characters in this campaign yet."
    return Outcome(card=fit(card), summary=f"Sunrise: day {table.state.day}.", data={
        "day": table.state.day, "days": options.days, "mages": reports,
    })  # fmt: skip
