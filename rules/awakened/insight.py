"""Scrutiny and resonance (M12, M13), the crisis of conscience (M9), Mage Sight (M5) and paradox records (M33).

Scrutiny results are the GM's to narrate: the dice and what they reveal go to
the GM as a secret card; the channel sees only that the mage scrutinized.
"""

from typing import Literal

from pydantic import Field

from rules.awakened.common import (
    DiceOption,
    MageOption,
    article,
    gm_dice,
    lengthen_limit,
    mage_of,
    roll,
    roll_data,
    roll_text,
)
from rules.awakened.shaping import paradox_total
from rules.awakened.sheet import AwakenedState, Crisis, ParadoxDice, ParadoxUnit, ScrutinyTrack, StandingParadox
from rules.awakened.upkeep import trait
from rules.awakened.words import quantity
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.text import DESCRIPTION, clip

MAX_EDGE = 5
DAYS_PER_WEEK, DAYS_PER_MONTH, DAYS_PER_YEAR = 7, 30, 365


class ScrutinizeOptions(Model):
    subject: str = Field(min_length=1, max_length=80, description="Subject")
    skill: str = Field(default="Occult", max_length=40, description="Skill")
    via: str = Field(default="sight", max_length=60, description="sight or a Knowing spell")
    increment: Literal["minute", "hour", "two_hours", "half_day", "day"] = Field(
        default="minute", description="Time increment"
    )
    minor: bool = Field(default=False, description="Knowing spell: 1 auto success")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def scrutinize(table: Table, options: ScrutinizeOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    who, book = record.name, table.book
    subject = " ".join(options.subject.split())
    via = " ".join(options.via.split()) or "sight"
    if via.casefold() == "sight" and sheet.sight != "on":
        raise RuleError(f"{who}'s Mage Sight is {sheet.sight}; scrutinize through a Knowing spell instead.")
    if options.minor:
        if via.casefold() == "sight":
            raise RuleError(
                "The automatic minor-action success needs a Knowing spell (`via:` its name), not Mage Sight."
            )
        text = "{who} applies one automatic success to {subject} through {via}: the most immediate answer to the "
        text += "spell's question. No resonance."
        card = Card(
            title=f"Scrutiny (minor action): {who}", description=text.format(who=who, subject="a subject", via=via)
        )
        secret = Card(
            # cites l.62
            title=f"Scrutiny: {who} → {subject}",
            description="1 automatic success (minor action).",
            tone="secret",
        )
        return Outcome(  # what was scrutinized is the mage's secret: the owner's and the GMs' side
            card=card,
            summary=f"{who} glanced at a subject through {via}.",
            secret=secret,
            data={"mage": who, "secret": True, "private": {"subject": subject}},
            private=card.model_copy(update={"description": text.format(who=who, subject=subject, via=via)}),
            private_summary=f"{who} glanced at {subject} through {via}.",
        )
    allowed = {"occult", *(s.casefold() for s in sheet.scrutiny_skills)}
    if sheet.legacy:
        allowed |= {s.casefold() for s in sheet.legacy.scrutiny_skills}
    if options.skill.strip().casefold() not in allowed:
        raise RuleError(
            f"{who} may scrutinize with {', '.join(sorted(s.title() for s in allowed))} (Occult always; "
            "Path and Legacy Skills on the sheet)."
        )
    dice = gm_dice(table, options.dice)
    key = f"{subject.casefold()}|{via.casefold()}"
    track = sheet.scrutiny.get(key) or ScrutinyTrack()
    edge = min(MAX_EDGE, track.rolls)
    intelligence, skill = trait(sheet, "intelligence"), trait(sheet, options.skill)
    pool = intelligence + skill + edge
    result = roll(table, pool, dice=dice, what="The scrutiny roll")
    track.rolls += 1
    if options.increment not in track.increments:
        track.increments.append(options.increment)
    sheet.scrutiny[key] = track
    increments = sheet.resonance_increments.setdefault(subject.casefold(), [])
    resonance = None
    if options.increment not in increments:
        increments.append(options.increment)
        row = book.resonance_row(result.successes)
        resonance = f"{row.level}: {row.text}" if row else "No success: no resonance learned."
    lines = [roll_text(result, f"Intelligence {intelligence} + {options.skill.title()} {skill} + Edge {edge}")]
    lines.append(
        f"{quantity(result.successes, 'thing')} revealed "
        + ("about the ruling Arcana (Mage Sight)." if via.casefold() == "sight" else f"that {via} is designed to find.")
    )
    lines.append(
        f"Resonance: {resonance}"
        if resonance
        # cites l.70
        else f"Resonance: not counted (only the first roll of each time increment on {subject} counts)."
    )
    secret = Card(title=f"Scrutiny: {who} → {subject}", description=clip("\n".join(lines), DESCRIPTION), tone="secret")
    if dice is not None:
        secret.footer = "The GM rolled these dice at the table."
    text = "{who} scrutinizes {subject} through {via} ({increment}, roll {rolls} to this end, Edge +{edge}). "
    text += "The GM has the result."
    words = {
        "who": who,
        "via": via,
        "increment": options.increment.replace("_", " "),
        "rolls": track.rolls,
        "edge": edge,
    }
    card = Card(title=f"Scrutiny: {who}", description=text.format(subject="a subject", **words))
    data = {
        "mage": who,
        "private": {"subject": subject},  # what was scrutinized is the mage's secret: the owner's and the GMs'
        "via": via,
        "edge": edge,
        "rolls": track.rolls,
        "secret": True,
        "gm": {"pool": pool, "roll": roll_data(result), "successes": result.successes, "resonance": resonance},
    }
    return Outcome(
        card=card,
        summary=f"{who} scrutinized a subject (roll {track.rolls}).",
        data=data,
        secret=secret,
        private=card.model_copy(update={"description": text.format(subject=subject, **words)}),
        private_summary=f"{who} scrutinized {subject} (roll {track.rolls}).",
    )


class ResonanceOptions(Model):
    age_days: int = Field(ge=0, le=100_000, description="Age in days")


def resonance_age(table: Table, options: ResonanceOptions) -> Outcome:
    """`/awakened resonance`: how deep a spell's aftereffect has faded (P-G25), in scrutiny successes."""
    days = options.age_days
    if days < DAYS_PER_WEEK:
        need = 2
    elif days < DAYS_PER_MONTH:
        need = 3
    elif days < DAYS_PER_YEAR:
        need = 4
    else:
        need = 5 if table.settings.aftereffect_after_year == "encountered" else None
    if need is None:
        text = "Over a year old: Unknown, cannot be gleaned (house rule aftereffect_after_year: unknown)."
    else:
        row = table.book.resonance_row(need)
        text = f"{row.level}: a first scrutiny roll of an increment needs {quantity(need, 'success')} to detect it."
    card = Card(title=f"A spell's aftereffect, {quantity(days, 'day')} old", description=text)
    return Outcome(card=card, summary=text, data={"age_days": days, "successes_needed": need}, ephemeral=True)


# ---------------------------------------------------------------- the crisis (M9, P-G14)


class CrisisOptions(Model):
    mode: Literal["start", "replace", "call", "roll", "end"] = Field(
        description="GM: start, replace, call, end; the mage: roll"
    )
    pool: int | None = Field(default=None, ge=0, le=30, description="Crisis pool")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def crisis(table: Table, options: CrisisOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    who, settings = record.name, table.settings
    lines: list[str] = []
    data: dict = {"mage": who, "mode": options.mode}
    if options.mode in ("start", "replace", "call", "end"):
        table.require_gm(f"Crisis {options.mode}")
    if options.mode in ("start", "replace"):
        if options.pool is None:
            raise RuleError("Give the crisis's dice `pool`.")
        if options.mode == "start" and sheet.crisis is not None:
            raise RuleError(f"{who} is already in crisis; use mode:replace (failures carry over) or mode:end.")
        if options.mode == "replace" and sheet.crisis is None:
            raise RuleError(f"{who} is not in crisis; use mode:start.")
        kept = sheet.crisis.failures if sheet.crisis else 0
        sheet.crisis = Crisis(pool=options.pool, failures=kept, roll_owed=True)
        # cites l.34
        lines.append(
            f"Crisis of pool {options.pool}" + (f"; {quantity(kept, 'failure')} carried over." if kept else ".")
        )
        lines.append(f"{who} owes a crisis roll: `/awakened crisis mode:roll`.")
    elif options.mode == "call":
        if sheet.crisis is None:
            raise RuleError(f"{who} is not in crisis; start one with `/awakened crisis mode:start pool:N`.")
        if sheet.crisis.roll_owed:
            raise RuleError(f"{who} already owes a crisis roll; wait for `/awakened crisis mode:roll`.")
        if options.pool is not None:
            raise RuleError("Calling for a roll keeps the crisis's pool; drop `pool` (or use mode:replace).")
        sheet.crisis.roll_owed = True
        lines.append(f"The GM calls for a crisis roll: {who} rolls with `/awakened crisis mode:roll`.")
    elif options.mode == "end":
        if sheet.crisis is None:
            raise RuleError(f"{who} is not in crisis.")
        sheet.crisis = None
        lines.append("The GM ends the crisis (resolved).")
    else:
        if sheet.crisis is None:
            raise RuleError(f"{who} is not in crisis; the GM starts one with `/awakened crisis mode:start pool:N`.")
        if options.pool is not None:
            raise RuleError("The crisis roll uses the crisis's own pool; drop `pool`.")
        dice = gm_dice(table, options.dice)
        state = sheet.crisis
        result = roll(table, state.pool, dice=dice, what="The crisis roll")
        state.roll_owed = False
        data["roll"] = roll_data(result)
        lines.append(roll_text(result, "Crisis roll"))
        if result.successes:
            state.successes += 1
            lines.append(f"Success ({state.successes} so far).")
        else:
            state.failures += 1
            lost = min(settings.crisis_willpower, sheet.willpower)
            if state.failures >= state.pool:
                sheet.wisdom = max(0, sheet.wisdom - 1)
                sheet.crisis = None
                gained = min(settings.crisis_willpower, sheet.willpower_dots - sheet.willpower)
                sheet.willpower += max(0, gained)
                lines.append(
                    f"Failure {state.failures} ≥ pool {state.pool}: {who} degenerates — Wisdom → {sheet.wisdom}, "
                    # cites l.34
                    f"the crisis ends, Willpower +{max(0, gained)}."
                )
                data["degenerated"] = True
            else:
                sheet.willpower -= lost
                # cites P-G14
                lines.append(f"Failure {state.failures} of {state.pool}: Willpower −{lost}.")
    data["crisis"] = sheet.crisis.model_dump() if sheet.crisis else None
    data["wisdom"] = sheet.wisdom
    card = Card(title=f"Crisis ({options.mode}): {who}", description="\n".join(lines))
    return Outcome(card=card, summary=f"{who}: crisis {options.mode}.", data=data)


# ---------------------------------------------------------------- Mage Sight (M5)


class SightOptions(Model):
    mode: Literal["suppress", "reactivate"] = Field(description="suppress or reactivate")
    mage: str | None = MageOption


def sight(table: Table, options: SightOptions) -> Outcome:
    """One Willpower buys the ability to suppress and reactivate, reflexively, for the scene (l.24, G38)."""
    record, sheet = mage_of(table, options.mage)
    who, scene = record.name, table.state.scene
    if sheet.sight == "lost":
        raise RuleError(f"{who} has lost the Mage Sight (Gnosis 0).")
    wanted = "suppressed" if options.mode == "suppress" else "on"
    if sheet.sight == wanted:
        raise RuleError(f"{who}'s Mage Sight is already {wanted}.")
    paid = ""
    if sheet.sight_paid_scene != scene:
        if sheet.willpower < 1:
            raise RuleError(f"Suppressing or reactivating Mage Sight costs 1 Willpower for the scene; {who} has none.")
        sheet.willpower -= 1
        sheet.sight_paid_scene = scene
        paid = " (1 Willpower: free toggling for the rest of the scene)"
    sheet.sight = wanted
    card = Card(title=f"Mage Sight {wanted}: {who}", description=f"Path-based awareness {wanted}{paid}.")
    return Outcome(
        card=card,
        summary=f"{who}'s Mage Sight {wanted}.",
        data={"mage": who, "sight": wanted, "willpower": sheet.willpower},
    )


# ---------------------------------------------------------------- paradox records (M33, M9)


class ParadoxOptions(Model):
    mode: Literal["declare", "end", "lengthen", "add"] = Field(description="What to do")
    kind: str | None = Field(default=None, max_length=40, description="Paradox kind")
    where: str | None = Field(default=None, max_length=200, description="Where it stands")
    duration: str | None = Field(default=None, max_length=100, description="Duration, in the GM's words")
    lasts: int | None = Field(default=None, ge=1, le=1000, description="declare: units until it fades")
    unit: ParadoxUnit | None = Field(default=None, description="declare: rounds, scenes or days")
    paradox: int | None = Field(default=None, ge=1, description="end: number")
    character: str | None = Field(default=None, max_length=60, description="Mage")
    dice: int | None = Field(default=None, ge=-50, le=50, description="add: dice (+/-)")


def paradox(table: Table, options: ParadoxOptions) -> Outcome:
    """`/awakened gm paradox` (GM): standing paradoxes, the Wisdom ceiling (P-G13), dice added by the GM."""
    table.require_gm("Paradox records")
    state, book = table.state, table.book
    kinds = book.tables.paradox_kinds
    data: dict = {"mode": options.mode}
    if options.mode == "declare":
        kind = _kind(kinds, options.kind)
        if (options.lasts is None) != (options.unit is None):
            raise RuleError(
                "Give both `lasts` and `unit` (e.g. lasts:3 unit:scene), or neither for a paradox "
                "that stands until you end it."
            )
        item = StandingParadox(
            id=state.next_paradox_id,
            kind=kind,
            where=options.where or "",
            duration=options.duration or "",
            lasts=options.lasts,
            unit=options.unit,
        )
        state.next_paradox_id += 1
        state.paradoxes.append(item)
        text = f"Standing paradox #{item.id}: {kind}" + (f" at {item.where}" if item.where else "")
        text += f", {item.remaining()}" + (f" ({item.duration})" if item.duration and item.lasts else "")
        data["paradox"] = item.model_dump()
    elif options.mode == "end":
        found = [p for p in state.paradoxes if p.id == options.paradox]
        if not found:
            listed = ", ".join(f"#{p.id} {p.kind}" for p in state.paradoxes) or "none"
            raise RuleError(f"Name the `paradox` to end by its number; standing: {listed}.")
        state.paradoxes.remove(found[0])
        text = f"Paradox #{found[0].id} ({found[0].kind}) ends."
    elif options.mode == "lengthen":
        kind = _kind(kinds, options.kind)
        record = table.find_character(options.character or "")
        wisdom = record.sheet.wisdom
        ceiling = book.tables.wisdom_ceiling[wisdom]
        allowed = wisdom == 0 or (ceiling in kinds and kinds.index(kind) <= kinds.index(ceiling))
        text = (
            f"{record.name} (Wisdom {wisdom}: {lengthen_limit(book, wisdom)}) "
            + ("may" if allowed else "may not")
            + f" inadvertently lengthen {article(kind)}."
        )
        if wisdom == 0:
            text += " At Wisdom 0: all, simultaneously."
        data.update(mage=record.name, wisdom=wisdom, allowed=allowed)
    else:
        if not options.dice or not options.character:
            raise RuleError("Give the `character` and the `dice` to add (negative to remove: tools, soul stones).")
        record = table.find_character(options.character)
        if paradox_total(state) + options.dice < 0:
            raise RuleError(f"The pool holds {quantity(paradox_total(state), 'die')}; it can't go below 0.")
        if options.dice > 0:
            state.paradox_pool.append(ParadoxDice(caster=record.name, spell="GM", dice=options.dice))
        else:
            _remove_dice(state, -options.dice)
        text = f"Paradox pool {options.dice:+d} for {record.name}: now {quantity(paradox_total(state), 'die')}."
        data["paradox_pool"] = paradox_total(state)
    data["paradoxes"] = [p.model_dump() for p in state.paradoxes]
    card = Card(title=f"Paradox ({options.mode})", description=text)
    return Outcome(card=card, summary=text[:200], data=data)


def _kind(kinds: list[str], text: str | None) -> str:
    for kind in kinds:
        if text and kind.casefold() == text.strip().casefold():
            return kind
    raise RuleError(f"Give the paradox `kind`: {', '.join(kinds)}.")


def _remove_dice(state: AwakenedState, count: int) -> None:
    for entry in reversed(state.paradox_pool):
        take = min(entry.dice, count)
        entry.dice -= take
        count -= take
        if not count:
            break
    state.paradox_pool = [p for p in state.paradox_pool if p.dice]
