"""Mage sheets: create, show, set, rotes, Legacy and Attainments; the GM's adjust, damage, Hallows; sympathy.

Players build and edit their own sheets (`table.own_character`); Gnosis and the
resources the book leaves to the Storyteller (maximum Mana, Mana, Willpower and
its dots, Wisdom, Health and wounds) change through the GM's `adjust`, with a
reason for the log and the consequences the rules attach (P-G10).
"""

import re
from typing import Any, Literal

from pydantic import Field, ValidationError

from rules.awakened.book import AwakenedBook
from rules.awakened.cards import sheet_card
from rules.awakened.common import (
    DiceOption,
    MageOption,
    add_wound,
    assign,
    clip_mana,
    gm_dice,
    health_text,
    mage_of,
    mana_max,
    roll,
    roll_data,
    roll_text,
)
from rules.awakened.sheet import (
    PRIVATE_FIELDS,
    SEVERITY,
    WILLPOWER_DOTS_MAX,
    Attainment,
    AwakenedSheet,
    Connection,
    Hallow,
    Legacy,
)
from rules.awakened.upkeep import shed_newest, trait
from rules.awakened.words import article, quantity
from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, hide_fields, quoted
from rules.text import TITLE, clip, fold

DAMAGE_CAP = 5  # l.22
WILLPOWER_DICE = 3


def parse_ratings(text: str, what: str, names: list[str] | None = None) -> dict[str, int]:
    """``"Forces 3, Prime 2"`` → {"Forces": 3, "Prime": 2}; names checked against ``names`` when given."""
    ratings: dict[str, int] = {}
    for part in [p for p in re.split(r"[,;]", text) if p.strip()]:
        match = re.fullmatch(r"\s*([A-Za-z][A-Za-z' -]*?)\s*:?\s*(\d{1,2})\s*", part)
        if not match:
            raise RuleError(
                f"{what}: write each as a name and a number, like `Forces 3, Prime 2`; got {part.strip()!r}."
            )
        name, value = match.group(1).strip(), int(match.group(2))
        if names is not None:
            proper = next((n for n in names if n.casefold() == name.casefold()), None)
            if proper is None:
                raise RuleError(f"{name!r} is not an Arcanum. The Arcana are {', '.join(names)}.")
            name = proper
        else:
            name = name.casefold()
        ratings[name] = value
    return ratings


def _sheet_outcome(
    table: Table,
    record: CharacterRecord,
    title: str,
    summary: str,
    data: dict | None = None,
    *,
    ephemeral: bool = False,
) -> Outcome:
    card = sheet_card(record, table.book, table.state)
    card.title = clip(f"{title}: {card.title}", TITLE)
    return Outcome(card=card, summary=summary, data={"mage": record.name, **(data or {})}, ephemeral=ephemeral)


# ---------------------------------------------------------------- create


class MageCreateOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="Name")
    path: str = Field(min_length=1, max_length=60, description="Path")
    ruling: str = Field(max_length=40, description="Two ruling Arcana")
    inferior: str = Field(max_length=20, description="Inferior Arcanum")
    resistance: Literal["composure", "resolve"] = Field(description="Path resistance")
    gnosis: int = Field(default=1, ge=1, le=10, description="Gnosis")
    arcana: str = Field(default="", max_length=200, description="e.g. Forces 3, Prime 2")
    attributes: str = Field(default="", max_length=200, description="e.g. Intelligence 3, Resolve 2")
    skills: str = Field(default="", max_length=300, description="e.g. Occult 3")
    mana_max: int = Field(default=10, ge=0, le=100, description="Maximum Mana")
    willpower: int = Field(default=5, ge=0, le=10, description="Willpower dots")
    health: int = Field(default=7, ge=1, le=30, description="Health boxes")
    wisdom: int = Field(default=5, ge=0, le=5, description="Wisdom")
    high_speech: bool = Field(default=False, description="High Speech trained")
    scrutiny_skills: str = Field(default="", max_length=200, description="Scrutiny Skills")
    nimbus: str = Field(default="", max_length=300, description="Nimbus")


def _arcana(book: AwakenedBook, text: str) -> dict[str, int]:
    ratings = dict.fromkeys(book.arcana.names, 0)
    for name, dots in parse_ratings(text, "arcana", book.arcana.names).items():
        if dots > 5:
            raise RuleError(f"{name} {dots}: Arcana run from 0 to 5.")
        ratings[name] = dots
    return ratings


def mage_create(table: Table, options: MageCreateOptions) -> Outcome:
    book = table.book
    ruling = book.arcana_list(options.ruling)
    if len(ruling) != 2:
        raise RuleError(f"A Path has exactly two ruling Arcana; got {len(ruling)}: {', '.join(ruling)}.")
    inferior = book.arcanum(options.inferior)
    if inferior in ruling:
        raise RuleError(f"{inferior} can't be both ruling and inferior.")
    skills = [s.strip() for s in options.scrutiny_skills.split(",") if s.strip()]
    try:
        sheet = AwakenedSheet(
            path=" ".join(options.path.split()),
            ruling=ruling,
            inferior=inferior,
            resistance=options.resistance,
            scrutiny_skills=skills,
            nimbus=options.nimbus,
            gnosis=options.gnosis,
            arcana=_arcana(book, options.arcana),
            attributes=parse_ratings(options.attributes, "attributes"),
            skills=parse_ratings(options.skills, "skills"),
            high_speech=options.high_speech,
            mana=options.mana_max,
            mana_max_base=options.mana_max,
            willpower=options.willpower,
            willpower_dots=options.willpower,
            wisdom=options.wisdom,
            health_max=options.health,
        )
    except ValidationError as exc:
        error = exc.errors()[0]
        raise RuleError(f"{'.'.join(str(p) for p in error['loc'])}: {error['msg'].lower()}.") from None
    record = table.add_character(table.actor.user_id, options.name, sheet)
    return _sheet_outcome(table, record, "New mage", f"{table.actor.name} created {record.name} ({sheet.path}).")


class MageShowOptions(Model):
    mage: str | None = MageOption


def visible_sheet(table: Table, record: CharacterRecord) -> dict[str, Any]:
    """What the viewer may see: its owner and the GM see all; others not whom it has sympathy to, what it
    scrutinized, who holds its soul stones, or its prepared contingency (the mage's secrets, not the table's)."""
    sheet = record.sheet.model_dump(mode="json")
    if table.actor.is_gm or record.owner_id == table.actor.user_id:
        return sheet
    return hide_fields(sheet, PRIVATE_FIELDS)


def mage_show(table: Table, options: MageShowOptions) -> Outcome:
    record = table.find_character(options.mage) if options.mage else table.default_character(None)
    card = sheet_card(record, table.book, table.state)
    if not (table.actor.is_gm or record.owner_id == table.actor.user_id):
        card.fields = [f for f in card.fields if f.name != "Also"]
        sheet: AwakenedSheet = record.sheet
        card.add("Also", f"Soul stones: {len(sheet.stones)}" + (" · Crisis: yes" if sheet.crisis else ""))
    data = {
        "mage": record.name,
        "owner_id": record.owner_id,
        "sheet": visible_sheet(table, record),
        "mana_max": mana_max(record.sheet, table.book),
    }
    return Outcome(card=card, summary=f"Showed {record.name}.", data=data, ephemeral=True)


# ---------------------------------------------------------------- set (the player's traits)


# The player's own traits. Gnosis and the Storyteller's numbers (maximum Mana, Willpower dots, Health: P-G10) are
# the GM's, through `gm adjust`, which carries their consequences (Gnosis 0, clipped Mana, shed spells).
SetField = Literal["arcanum", "attribute", "skill", "high_speech", "armor", "scrutiny_skills", "nimbus", "path"]


class MageSetOptions(Model):
    field: SetField = Field(description="What to change")
    value: int | None = Field(default=None, ge=0, le=30, description="New rating")
    name: str | None = Field(default=None, max_length=40, description="Which one")
    text: str | None = Field(default=None, max_length=300, description="Text value")
    mage: str | None = MageOption


def mage_set(table: Table, options: MageSetOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    field = options.field
    if field in ("scrutiny_skills", "nimbus", "path"):
        if options.text is None:
            raise RuleError(f"Give the new {field.replace('_', ' ')} in `text`.")
        value: Any = (
            [s.strip() for s in options.text.split(",") if s.strip()] if field == "scrutiny_skills" else options.text
        )
        before = getattr(sheet, field)
        assign(sheet, field, value, field)
        return _sheet_outcome(
            table,
            record,
            "Changed",
            f"{record.name}: {field} changed.",
            {"field": field, "before": before, "after": getattr(sheet, field)},
        )
    if options.value is None:
        raise RuleError(f"Give the new `value` for {field}.")
    if field in ("arcanum", "attribute", "skill"):
        if not options.name:
            raise RuleError(f"Name the {field} to change in `name`.")
        if field == "arcanum":
            key = table.book.arcanum(options.name)
            if options.value > 5:
                raise RuleError(f"{key} {options.value}: Arcana run from 0 to 5.")
            target = dict(sheet.arcana)
        else:
            key = options.name.strip().casefold()
            target = dict(sheet.attributes if field == "attribute" else sheet.skills)
        before = target.get(key, 0)
        target[key] = options.value
        setattr(sheet, {"arcanum": "arcana", "attribute": "attributes", "skill": "skills"}[field], target)
        label = f"{field} {key}"
    else:
        before = getattr(sheet, field)
        value = bool(options.value) if field == "high_speech" else options.value
        assign(sheet, field, value, field)
        label = field
    return _sheet_outcome(
        table,
        record,
        "Changed",
        f"{record.name}: {label} {before} → {options.value}.",
        {"field": label, "before": before, "after": options.value},
    )


# ---------------------------------------------------------------- rotes, Legacy, Attainments


class LegacyOptions(Model):
    name: str | None = Field(default=None, max_length=60, description="Legacy")
    oblation_traits: str | None = Field(default=None, max_length=80, description="e.g. Presence, Occult")
    scrutiny_skills: str = Field(default="", max_length=200, description="Scrutiny Skills")
    remove: bool = Field(default=False, description="Remove the Legacy")
    mage: str | None = MageOption


def mage_legacy(table: Table, options: LegacyOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    if options.remove:
        sheet.legacy = None
        return _sheet_outcome(table, record, "Legacy removed", f"{record.name} has no Legacy.")
    traits = [t.strip() for t in (options.oblation_traits or "").split(",") if t.strip()]
    if not options.name or len(traits) != 2:
        # cites l.56
        raise RuleError("A Legacy needs its `name` and two `oblation_traits`, like `Presence, Occult`.")
    skills = [s.strip() for s in options.scrutiny_skills.split(",") if s.strip()]
    sheet.legacy = Legacy(name=options.name.strip(), oblation_traits=traits, scrutiny_skills=skills)
    return _sheet_outcome(table, record, "Legacy", f"{record.name} joined the {sheet.legacy.name}.")


class AttainmentOptions(Model):
    mode: Literal["define", "shape", "use", "forget"] = Field(description="What to do")
    name: str = Field(min_length=1, max_length=60, description="The Attainment")
    order: int = Field(default=1, ge=1, le=10, description="define: order")
    prerequisites: str = Field(default="", max_length=120, description="define: e.g. Fate 2")
    pool: str = Field(default="", max_length=80, description="define: two traits")
    mana: int = Field(default=0, ge=0, le=10, description="define: Mana cost")
    limit: Literal["none", "scene", "day", "week", "story"] = Field(default="none", description="define: limit")
    action: Literal["minor", "instant"] = Field(default="minor", description="shape: action")
    willpower: bool = Field(default=False, description="shape: +3 for Willpower")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def attainment(table: Table, options: AttainmentOptions) -> Outcome:
    """Attainments (M40): sensory, P1/T1, no paradox; Shaped as a minor or instant action with a trait pool (P-G36)."""
    record, sheet = mage_of(table, options.mage)
    who, book = record.name, table.book
    found = next((a for a in sheet.attainments if a.name.casefold() == options.name.strip().casefold()), None)
    if options.mode in ("define", "forget"):
        table.require_gm(f"Attainment {options.mode}")
    if options.mode == "define":
        prerequisites = parse_ratings(options.prerequisites, "prerequisites", book.arcana.names)
        short = [f"{a} {d}" for a, d in prerequisites.items() if sheet.arcana.get(a, 0) < d]
        if short:
            raise RuleError(f"{who} lacks the Arcana this Attainment needs: {', '.join(short)}.")
        pool = [p.strip() for p in options.pool.split(",") if p.strip()]
        if len(pool) > 2:
            raise RuleError("An Attainment's Shaping pool is two traits (Attribute + Skill or Attribute + Attribute).")
        item = Attainment(
            name=options.name.strip(),
            order=options.order,
            prerequisites=prerequisites,
            pool=pool,
            mana=options.mana,
            limit=options.limit,
        )
        sheet.attainments = [a for a in sheet.attainments if a is not found] + [item]
        notes = ""
        usual = options.order + 1
        if prerequisites and max(prerequisites.values()) != usual:
            # cites l.358
            notes = f" (usually the Attainment #{options.order} uses {usual} dots; the GM's data stands)"
        return _sheet_outcome(
            table,
            record,
            "Attainment",
            f"{who} gained the Attainment {item.name}{notes}.",
            {"attainment": item.model_dump()},
        )
    if found is None:
        known = ", ".join(a.name for a in sheet.attainments) or "none"
        raise RuleError(f"{who} has no Attainment {options.name!r}. Attainments: {known}.")
    if options.mode == "forget":
        sheet.attainments = [a for a in sheet.attainments if a is not found]
        return _sheet_outcome(table, record, "Attainment removed", f"{who} lost {found.name}.")
    period = {"scene": table.state.scene, "day": table.state.day, "week": (table.state.day - 1) // 7}.get(found.limit)
    if found.limit != "none":
        if found.used_in != period and found.limit != "story":
            found.uses, found.used_in = 0, period
        if found.uses >= 1:
            raise RuleError(f"{found.name} is limited to once per {found.limit}; it was used already.")
    if sheet.mana < found.mana:
        raise RuleError(f"{found.name} costs {found.mana} Mana; {who} has {sheet.mana}.")
    lines = []
    data: dict = {"mage": who, "attainment": found.name, "mode": options.mode}
    if options.mode == "shape":
        if not found.pool:
            raise RuleError(f"{found.name} has no Shaping pool; the GM defines one with mode:define pool:...")
        if options.willpower and sheet.willpower < 1:
            raise RuleError(f"{who} has no Willpower to spend.")
        dice = gm_dice(table, options.dice)
        pool = sum(trait(sheet, t) for t in found.pool) + (WILLPOWER_DICE if options.willpower else 0)
        result = roll(table, pool, rote=True, dice=dice, what="The Attainment's Shaping roll")
        if options.willpower:
            sheet.willpower -= 1
        lines.append(roll_text(result, " + ".join(found.pool)))
        lines.append(
            f"Potency and Tenacity {1 + result.successes} until {who}'s next turn ({options.action} action). "
            # cites l.362
            "No paradox."
        )
        found.shaped, found.shaped_until = result.successes, table.state.now
        data.update(roll=roll_data(result), potency=1 + result.successes)
    else:
        lines.append(f"{found.name} is used (sensory, Potency 1, Tenacity 1; never paradox or Disbelief).")
    sheet.mana -= found.mana
    if found.mana:
        lines.append(f"−{found.mana} Mana → {sheet.mana}")
    if found.limit != "none":
        found.uses += 1
        found.used_in = period
    card = Card(title=clip(f"Attainment ({options.mode}): {who} — {found.name}", TITLE), description="\n".join(lines))
    return Outcome(card=card, summary=f"{who}: {found.name} ({options.mode}).", data=data)


# ---------------------------------------------------------------- sympathy


class SympathyOptions(Model):
    subject: str = Field(min_length=1, max_length=60, description="Subject")
    level: Literal["intimate", "known", "acquainted", "encountered", "described"] | None = Field(
        default=None, description="Level"
    )
    fame: bool = Field(default=False, description="Fame/Occultation 2+")
    real_name_known: bool = Field(default=True, description="Real name known")
    heals: bool = Field(default=True, description="Wear heals daily")
    remove: bool = Field(default=False, description="Forget it")
    mage: str | None = MageOption


def sympathy(table: Table, options: SympathyOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    key = fold(options.subject)
    levels = [lv.casefold() for lv in table.book.factors.sympathy.levels]
    if options.remove:
        if key not in sheet.connections:
            raise RuleError(f"{record.name} has no connection to {options.subject!r}.")
        del sheet.connections[key]
        text = f"{record.name} forgets the connection to {options.subject}."
    else:
        if options.level is None:
            raise RuleError("Give the connection's `level`: intimate, known, acquainted, encountered or described.")
        level = levels.index(options.level)
        sheet.connections = {
            **sheet.connections,
            key: Connection(
                level=level,
                original=level,
                fame=options.fame,
                real_name_known=options.real_name_known,
                heals=options.heals,
                touched_day=0,
            ),
        }
        text = f"{record.name} has {article(options.level.title())} connection to {options.subject}."
    card = Card(title=f"Sympathy: {record.name}", description=text)
    return Outcome(card=card, summary=text, data={"mage": record.name, "subject": key}, ephemeral=True)


# ---------------------------------------------------------------- the GM's tools


AdjustField = Literal[
    "mana",
    "mana_max",
    "willpower",
    "willpower_dots",
    "willpower_dots_lost",
    "wisdom",
    "wisdom_max",
    "gnosis",
    "gnosis_lost",
    "soul_lost",
    "health_max",
    "state",
    "heal",
]
STATES = ("conscious", "unconscious", "dead")


class AdjustOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="The mage")
    field: AdjustField = Field(description="Field (state: 0 ok, 1 out, 2 dead)")
    value: int = Field(ge=0, le=100, description="New value (heal: wounds healed)")
    reason: str = Field(min_length=1, max_length=200, description="Why")


def adjust(table: Table, options: AdjustOptions) -> Outcome:
    record = table.find_character(options.character)
    sheet: AwakenedSheet = record.sheet
    field, value = options.field, options.value
    notes = []
    if field == "heal":
        before: Any = health_text(sheet)
        for _ in range(min(value, len(sheet.wounds))):
            sheet.wounds.remove(min(sheet.wounds, key=lambda w: SEVERITY[w.kind]))
        if len(sheet.wounds) < sheet.health_max and sheet.scoured_out:
            sheet.scoured_out = False
        after: Any = health_text(sheet)
    elif field == "state":
        if value > 2:
            raise RuleError("state: 0 conscious, 1 unconscious, 2 dead.")
        before, after = sheet.state, STATES[value]
        sheet.state = after  # type: ignore[assignment]
        if after == "dead" and sheet.spells:
            # cites l.302
            notes.append("Dead: every spell of this mage ends.")
            sheet.spells = []
        if after == "conscious":
            sheet.scoured_out = False
        if after == "unconscious":
            running = [s for s in sheet.spells if s.status not in ("sustained", "ritual")]
            if running:
                notes.append("Unconscious: spells not sustained will end, since refreshing needs consciousness.")
    elif field in ("willpower", "willpower_dots", "willpower_dots_lost", "health_max"):
        before, after, notes = _adjust_within(sheet, record.name, field, value)
    else:
        attribute = {"mana_max": "mana_max_base"}.get(field, field)
        before = getattr(sheet, attribute)
        assign(sheet, attribute, bool(value) if field == "soul_lost" else value, field)
        after = getattr(sheet, attribute)
        if field == "wisdom_max" and sheet.wisdom > sheet.wisdom_max:
            sheet.wisdom = sheet.wisdom_max
        if field == "wisdom" and value > sheet.wisdom_max:
            raise RuleError(f"Wisdom can't exceed its maximum {sheet.wisdom_max}.")
        if field in ("mana", "mana_max", "gnosis"):
            top = mana_max(sheet, table.book)
            if field == "mana" and value > top:
                raise RuleError(
                    f"Mana can't exceed the effective maximum {top} (base {sheet.mana_max_base} less stones)."
                )
            lost = clip_mana(sheet, table.book)
            if lost:
                notes.append(f"Mana clipped to the maximum {top}.")
        if field == "gnosis" and value == 0:
            sheet.mana, sheet.spells, sheet.sight = 0, [], "lost"
            notes.append("Gnosis 0: a Sleepwalker (no Mana, no spells, no Mage Sight).")
        elif field == "gnosis" and sheet.sight == "lost":
            sheet.sight = "on"
        if field == "gnosis" and value and shed_newest(sheet):
            # cites P-G17
            notes.append("Sustained spells above the new Gnosis ended, newest first.")
    card = Card(
        title=f"GM adjustment: {record.name}", description=f"{field}: {before} → {after}\nReason: {options.reason}"
    )
    if notes:
        card.add("Notes", "\n".join(notes))
    return Outcome(
        card=card,
        summary=f"GM set {record.name}'s {field} {before} → {after}: {options.reason}",
        data={"character": record.name, "field": field, "before": before, "after": after, "reason": options.reason},
    )


def _adjust_within(sheet: AwakenedSheet, who: str, field: str, value: int) -> tuple[int, int, list[str]]:
    """Willpower and Health, kept within each other: points never exceed the dots held; a lost dot leaves the
    dots held and comes back to them (one a month, l.32), so dots held and lost always add up to what the mage
    had; the Health track never holds more wounds than boxes. Returns (before, after, notes)."""
    notes: list[str] = []
    before = getattr(sheet, field)
    if field == "willpower" and value > sheet.willpower_dots:
        raise RuleError(
            f"Willpower can't exceed {who}'s {quantity(sheet.willpower_dots, 'Willpower dot')}; "
            f"give 0 to {sheet.willpower_dots}, or raise the dots first (`field:willpower_dots`)."
        )
    if field == "willpower_dots" and value + sheet.willpower_dots_lost > WILLPOWER_DOTS_MAX:
        room = WILLPOWER_DOTS_MAX - sheet.willpower_dots_lost
        raise RuleError(
            f"{who} has {quantity(sheet.willpower_dots_lost, 'dot')} lost to regain, and dots held and lost come to "
            f"at most {WILLPOWER_DOTS_MAX}: give at most {room}."
        )
    if field == "willpower_dots_lost":
        whole = sheet.willpower_dots + sheet.willpower_dots_lost  # what the mage has with nothing lost
        if value > whole:
            raise RuleError(
                f"{who} has {quantity(whole, 'Willpower dot')} in all ({sheet.willpower_dots} held, "
                f"{sheet.willpower_dots_lost} lost): at most {whole} can be lost."
            )
        held = sheet.willpower_dots
        sheet.willpower_dots_lost, sheet.willpower_dots = value, whole - value
        notes.append(f"Willpower dots held {held} → {sheet.willpower_dots} of {whole}; lost dots return one a month.")
    elif field == "health_max":
        if value < len(sheet.wounds):
            raise RuleError(
                f"{who} has {quantity(len(sheet.wounds), 'wound')} marked: Health can't go below that. Heal some "
                "first (`field:heal`)."
            )
        assign(sheet, field, value, "Health")
    else:
        assign(sheet, field, value, field.replace("_", " "))
    if sheet.willpower > sheet.willpower_dots:
        notes.append(f"Willpower points {sheet.willpower} → {sheet.willpower_dots}: never more than the dots held.")
        sheet.willpower = sheet.willpower_dots
    return before, getattr(sheet, field), notes


DamageTarget = Literal["mage", "sleeper", "other"]


class DamageOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="Who")
    wounds: int = Field(ge=1, le=50, description="Wounds (one source)")
    kind: Literal["bashing", "lethal", "aggravated"] = Field(default="lethal", description="The wound type")
    resistant: bool = Field(default=False, description="Resistant wounds")
    armor: int | None = Field(default=None, ge=0, le=20, description="Armor (default: sheet)")
    source: str = Field(default="", max_length=100, description="Source")
    target: DamageTarget = Field(default="mage", description="sleeper or other: not a mage, no Damage Cap")


def damage(table: Table, options: DamageOptions) -> Outcome:
    """The Damage Cap (M4): a mage takes at most five wounds from one source in one instant, before armor.

    The cap is a mage's (l.22): a Sleeper or any other target who is not a mage (``target:sleeper`` or
    ``other``) takes every wound. Such a target has no sheet here, so the bot works out the wounds after armor
    and records them for the GM; it refuses to call a mage at the table something else."""
    table.require_gm("Dealing damage")
    if options.target != "mage":
        return _damage_not_a_mage(table, options)
    name = " ".join(options.character.split())
    if name.casefold() not in table.characters:
        known = ", ".join(sorted(c.name for c in table.characters.values())) or "none yet"
        raise RuleError(
            f"There is no mage named {quoted(name)} in this campaign (mages here: {known}). For a Sleeper or another "
            "target who is not a mage, add `target:sleeper` or `target:other`: the Damage Cap is only a mage's."
        )
    record = table.find_character(name)
    sheet: AwakenedSheet = record.sheet
    capped = min(options.wounds, DAMAGE_CAP)
    armor = sheet.armor if options.armor is None else options.armor
    applied = max(0, capped - armor)
    before = health_text(sheet)
    for _ in range(applied):
        add_wound(sheet, options.kind, options.resistant)
    lines = [
        f"{quantity(options.wounds, 'wound')}"
        + (f", capped at {DAMAGE_CAP} (Damage Cap)" if capped < options.wounds else "")
        + f", armor {armor}: {applied} {options.kind}"
        + (" Resistant" if options.resistant else "")
    ]
    lines.append(f"Health {before} → {health_text(sheet)}")
    card = Card(
        title=f"Damage: {record.name}" + (f" ({options.source})" if options.source else ""),
        description="\n".join(lines),
    )
    return Outcome(
        card=card,
        summary=f"{record.name} took {applied} {options.kind}.",
        data={
            "character": record.name,
            "target": "mage",
            "capped": capped,
            "applied": applied,
            "wounds": [w.model_dump() for w in sheet.wounds],
        },
    )


def _damage_not_a_mage(table: Table, options: DamageOptions) -> Outcome:
    """Every wound, less armor, on a target with no mage's sheet: no Damage Cap, and no health track to mark."""
    name = " ".join(options.character.split())
    record = table.characters.get(name.casefold())
    if record is not None:
        raise RuleError(
            f"{record.name} is a mage at this table: the Damage Cap applies. Drop `target`, or name the Sleeper or "
            "other target who is not a mage."
        )
    armor = options.armor or 0
    applied = max(0, options.wounds - armor)
    what = "a Sleeper" if options.target == "sleeper" else "not a mage"
    kind = options.kind + (" Resistant" if options.resistant else "")
    card = Card(
        title=clip(f"Damage: {name} ({what})" + (f", {options.source}" if options.source else ""), TITLE),
        description=f"{quantity(options.wounds, 'wound')}, no Damage Cap (it is a mage's), armor {armor}: "
        f"**{applied} {kind}**.\n{name} has no sheet here: the GM keeps their Health.",
    )
    return Outcome(
        card=card,
        summary=f"{name} ({what}) took {applied} {kind}.",
        data={"character": name, "target": options.target, "capped": None, "applied": applied, "wounds": None},
    )


class HallowOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The Hallow")
    rating: int | None = Field(default=None, ge=1, le=5, description="Its rating")
    potential: int | None = Field(default=None, ge=0, le=50, description="Potential Mana")
    resonance: str | None = Field(default=None, max_length=200, description="Resonance")
    remove: bool = Field(default=False, description="Remove it")


def hallow(table: Table, options: HallowOptions) -> Outcome:
    table.require_gm("Hallows")
    key = fold(options.name)
    current = table.state.hallows.get(key)
    hallows = dict(table.state.hallows)
    if options.remove:
        if current is None:
            raise RuleError(f"There is no Hallow {options.name!r}.")
        del hallows[key]
        text = f"Hallow {current.name} removed."
    else:
        rating = options.rating if options.rating is not None else (current.rating if current else None)
        if rating is None:
            raise RuleError("A new Hallow needs its `rating` (1-5).")
        potential = options.potential if options.potential is not None else (current.potential if current else rating)
        resonance = options.resonance if options.resonance is not None else (current.resonance if current else "")
        item = Hallow(name=" ".join(options.name.split()), rating=rating, potential=potential, resonance=resonance)
        hallows[key] = item
        text = f"Hallow {item.name}: rating {item.rating}, potential {item.potential}" + (
            f", resonance {item.resonance}" if item.resonance else ""
        )
    table.state.hallows = hallows
    card = Card(title="Hallow", description=text)
    return Outcome(card=card, summary=text, data={"hallows": [h.model_dump() for h in hallows.values()]})
