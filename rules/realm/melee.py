"""The Melee Step for spells: targets (L49, L51), speed order and cancellation (L53, G-R4 to G-R6),
what each duration does on going into effect (L61-L69), and attack spells hitting (L63, G-R18).
"""

from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field, fit, quoted
from rules.realm.book import Direction
from rules.realm.castability import CharacterOption
from rules.realm.core import Ended, book_of, combat_at, combat_of, end_casting, settings_of, sheet_of, state_of
from rules.realm.rounds import ClearingOption, combat_data
from rules.realm.state import Casting, Combat, MissileDue
from rules.text import fold

KEYWORDS = {"clearing": "clearing", "hex": "hex", "tile": "hex"}
PREFIXES = {"chit:": "chit", "item:": "item", "spell:": "spell"}


class TargetOptions(Model):
    targets: str = Field(min_length=1, max_length=300, description='Who or what: "Amazon", "clearing", "chit:MOVE M4"')
    # cites L51
    hide_roll: Literal["pass", "fail"] | None = Field(default=None, description="GM: the hide roll, with Ambush")
    character: str | None = CharacterOption


@dataclass
class Aim:
    individuals: list[str] = field(default_factory=list)
    characters: list[str] = field(default_factory=list)
    other: list[tuple[str, str]] = field(default_factory=list)  # (kind, text)

    @property
    def names(self) -> list[str]:
        return self.individuals + [text for _, text in self.other]


def _aim(table: Table, combat: Combat, caster: str, text: str) -> Aim:
    aim = Aim()
    for raw in (p.strip() for p in text.split(",") if p.strip()):
        word = fold(raw)
        if word in KEYWORDS:
            aim.other.append((KEYWORDS[word], raw))
            continue
        prefix = next((p for p in PREFIXES if word.startswith(p)), None)
        if prefix:
            named = raw[len(prefix) :].strip()
            if not named:
                raise RuleError(f"Name the {PREFIXES[prefix]} after `{prefix}`, e.g. `{prefix}MOVE M4`.")
            aim.other.append((PREFIXES[prefix], named))
            continue
        name = caster if word in ("self", "me") else raw
        fighter = combat.fighter(name)
        if fighter is not None and fighter.present:
            aim.individuals.append(fighter.name)
            if fighter.character:
                aim.characters.append(fighter.name)
            continue
        here = ", ".join(f.name for f in combat.fighters.values() if f.present)
        if fighter is not None or fold(name) in table.characters:
            name = fighter.name if fighter is not None else table.characters[fold(name)].name
            raise RuleError(
                # cites L49
                f"{name} is not in {combat.clearing} now, so {table.they(name)} cannot be a target. Pick again; "
                f"individuals here: {here}."
            )
        raise RuleError(
            f"{quoted(raw)} is not an individual in {combat.clearing} ({here}), nor `clearing`, `hex`, `self`, "
            "`chit:…`, `item:…` or `spell:…`."
        )
    if len(set(aim.names)) != len(aim.names):
        raise RuleError("A target is named twice.")
    return aim


def _appropriate(casting: Casting, aim: Aim) -> str | None:
    """Why the target is inappropriate for the spell's target type (L49), or None if it fits."""
    wanted = casting.target_type
    if wanted is None:
        return None  # not set: the GM judges
    kinds = {kind for kind, _ in aim.other}
    count = len(aim.individuals)
    if wanted in ("individual", "individuals", "character", "self"):
        if kinds:
            on = "an individual" if wanted != "self" else "its caster"
            return f"{casting.spell} is cast on {on}, not on a {sorted(kinds)[0]}"
        if wanted == "individual" and count != 1:
            return f"{casting.spell} takes one individual, not {count}"
        if wanted == "character" and (count != 1 or len(aim.characters) != 1):
            return f"{casting.spell} is cast on a character"
        if wanted == "self" and aim.individuals != [casting.caster]:
            return f"{casting.spell} is cast on its caster only"
        return None
    if count or kinds != {wanted}:
        got = "an individual" if count else f"a {sorted(kinds)[0]}"
        return f"{casting.spell} is cast on a {wanted}, not on {got}"
    return None


def pending_casting(table: Table, caster: str) -> Casting:
    for casting in state_of(table).castings:
        if fold(casting.caster) == fold(caster) and casting.status == "cast":
            return casting
    # cites L45
    raise RuleError(f"{caster} has no spell waiting for a target; cast one in the Encounter Step first.")


def target(table: Table, options: TargetOptions) -> Outcome:
    """L49: named in the Melee Step; an inappropriate target breaks the spell and fatigues the chit now."""
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    if combat.step != "melee":
        raise RuleError(
            # cites L49
            f"Targets are named in the Melee Step; it is the {combat.step} step. The GM runs `/realm combat melee`."
        )
    casting = pending_casting(table, record.name)
    if options.hide_roll is not None:
        table.require_gm("Entering a hide roll")
    aim = _aim(table, combat, record.name, options.targets)
    why = _appropriate(casting, aim)
    sheet = sheet_of(record)
    if why is not None:
        # cites L49
        ended = end_casting(table, casting, f"broken: {why}")
        card = Card(title=f"{casting.spell} is broken", tone="failure")
        card.description = (
            f"💥 {why}. The spell is broken and never goes into effect; "
            + (
                # cites L49
                f"{', '.join(ended.fatigued)} fatigued at once."
                if ended.fatigued
                # cites L49
                else "its ritual is free."
            )
            + (" The color chit fatigued when it was played." if casting.color_chit else "")
        )
        return Outcome(
            card=card,
            summary=f"#{casting.id} {casting.spell} broken",
            data={
                "id": casting.id,
                "spell": casting.spell,
                "broken": True,
                "why": why,
                "fatigued": ended.fatigued,
                "unhidden": False,
            },
        )
    was_hidden = sheet.hidden
    public_note, gm_note = _hiding(table, record, aim, settings_of(table).ambush, options.hide_roll)
    casting.targets = aim.names
    casting.status = "targeted"
    for name in aim.characters:
        where = sheet_of(table.characters[fold(name)]).location
        casting.target_clearing = where or combat.clearing
        break
    card = Card(title=f"{record.name} targets {', '.join(aim.names)}")
    card.description = " ".join(
        # cites L53
        filter(
            None,
            [
                f"#{casting.id} {casting.spell} aimed. It goes into effect in speed order at `/realm resolve`.",
                public_note,
            ],
        )
    )
    secret = Card(title=f"Secret: {record.name} hiding", description=gm_note, tone="secret") if gm_note else None
    return Outcome(
        card=card,
        summary=f"#{casting.id} {casting.spell} → {', '.join(aim.names)}",
        data={
            "id": casting.id,
            "spell": casting.spell,
            "targets": aim.names,
            "broken": False,
            "unhidden": was_hidden and not sheet.hidden,
        },
        secret=secret,
    )


def _hiding(table: Table, record: CharacterRecord, aim: Aim, ambush: bool, roll: str | None) -> tuple[str, str]:
    """L51. Becoming unhidden is seen by all; staying hidden is told to the GM only (hidden status is secret)."""
    sheet, name = sheet_of(record), record.name
    if not sheet.hidden:
        return "", ""
    if not aim.individuals:
        # cites L51
        return "", f"Not an individual: {name} stays hidden."
    if len(aim.individuals) >= 2:
        sheet.hidden = False
        return f"Two or more individuals: {name} is unhidden.", ""
    if not ambush:
        sheet.hidden = False
        return f"Targeting an individual unhides {table.them(record)} (Ambush is off).", ""
    if roll == "fail":
        sheet.hidden = False
        return f"Ambush: the hide roll failed, {name} is unhidden.", ""
    if roll == "pass":
        return "", f"Ambush: the hide roll passed, {name} stays hidden."
    return (
        "",
        # cites G-R17
        f"Ambush: a hide roll is due; enter it with `/realm record kind:hide`. Until then {name} stays hidden.",
    )


# ---------------------------------------------------------------- speed order


@dataclass
class Resolution:
    order: list[Casting]
    canceled: dict[int, int]  # casting id → the faster casting that canceled it
    in_effect: list[Casting]


def speed_order(castings: list[Casting], attention: list[str], cancel_by: str = "effective") -> Resolution:
    """L53 with G-R4 (equal speeds go together) and G-R5 (a canceled spell cancels nothing, by default)."""
    rank = {fold(name): i for i, name in enumerate(attention)}
    order = sorted(castings, key=lambda c: (c.speed, rank.get(fold(c.caster), len(rank)), c.id))
    canceled: dict[int, int] = {}
    in_effect: list[Casting] = []
    aimed_at: dict[str, list[Casting]] = {}  # caster name → faster spells that target him and count
    for speed in sorted({c.speed for c in order}):
        group = [c for c in order if c.speed == speed]
        for casting in group:
            faster = [s for s in aimed_at.get(fold(casting.caster), []) if s.speed < casting.speed]
            if faster:
                canceled[casting.id] = faster[0].id
            else:
                in_effect.append(casting)
        for casting in group:
            if cancel_by == "effective" and casting.id in canceled:
                continue
            for name in casting.targets:
                aimed_at.setdefault(fold(name), []).append(casting)
    return Resolution(order, canceled, in_effect)


class ResolveOptions(Model):
    lapse: bool = Field(default=False, description="Spells still without a target lapse (their chits fatigue)")
    clearing: str | None = ClearingOption


def resolve(table: Table, options: ResolveOptions) -> Outcome:
    """After every target is named, spells go into effect one by one in speed order (L53)."""
    state = state_of(table)
    settings = settings_of(table)
    combat = combat_at(table, options.clearing)
    if combat.step != "melee":
        raise RuleError(f"Spells go into effect at the end of Melee Step 1; it is the {combat.step} step.")
    mine = [
        c
        for c in state.castings
        if fold(c.clearing) == fold(combat.clearing) and c.round == combat.round and c.day == state.day
    ]
    waiting = [c for c in mine if c.status == "cast"]
    ended: list[Ended] = []
    if waiting and not options.lapse:
        names = ", ".join(f"#{c.id} {c.spell} ({c.caster})" for c in waiting)
        raise RuleError(
            f"Still waiting for a target: {names}. Each caster names one with `/realm target`, "
            "or run this with `lapse:true` to let them lapse."
        )
    for casting in waiting:
        # cites L45
        ended.append(end_casting(table, casting, "lapsed: no target was named"))
    aimed = [c for c in mine if c.status == "targeted"]
    result = speed_order(aimed, combat.attention, settings.cancel_by)
    lines = []
    for casting in result.order:
        if casting.id in result.canceled:
            by = state.casting(result.canceled[casting.id]) or next(
                c for c in aimed if c.id == result.canceled[casting.id]
            )
            ended.append(
                end_casting(
                    table,
                    casting,
                    # cites L53
                    f"canceled by #{by.id} {by.spell} (speed {by.speed}) before going into effect",
                    fatigue=settings.canceled_chit == "fatigue",
                )
            )
            lines.append(
                f"speed {casting.speed}: ❌ #{casting.id} {casting.spell} ({casting.caster}) canceled by "
                f"#{by.id} {by.spell} at speed {by.speed}"
            )
            continue
        lines.append(
            f"speed {casting.speed}: ✨ #{casting.id} {casting.spell} ({casting.caster}) → {', '.join(casting.targets)}"
        )
        fighter = combat.fighter(casting.caster)
        if fighter is not None:
            fighter.cast_in_effect = True
        ended += _into_effect(table, casting)
    combat.step = "resolved"
    card = Card(title=f"Spells go into effect: {combat.clearing}, round {combat.round}")
    card.description = (
        # cites G-R4
        "In speed order; equal speeds together; a caster targeted by a faster spell in effect is "
        # cites L53, G-R5
        "canceled."
    )
    add_field(card, "Order", lines or ["no spells this round"])
    if ended:
        add_field(card, "Ended", [e.text() for e in ended])
    launched = [c for c in result.in_effect if c.status == "launched"]
    if launched:
        add_field(
            card,
            "Attack spells launched",
            [f"#{c.id} {c.spell}: its caster places a direction with `/realm attack`" for c in launched],
        )
    return Outcome(
        card=fit(card),
        summary=f"spells resolved in {combat.clearing}, round {combat.round}",
        data={
            **combat_data(combat),
            "order": [{"id": c.id, "spell": c.spell, "caster": c.caster, "speed": c.speed} for c in result.order],
            "canceled": [{"id": k, "by": v} for k, v in result.canceled.items()],
            "in_effect": [c.id for c in result.in_effect],
            "expired": [e.data() for e in ended],
        },
    )


def _into_effect(table: Table, casting: Casting) -> list[Ended]:
    """What each duration does once the spell is in effect (L61-L69, RULINGS 17)."""
    day = state_of(table).day
    if casting.ritual_kind != "chit":
        item = state_of(table).items.get(fold(casting.ritual))
        if item is not None:
            item.committed_to = casting.id
    if casting.duration == "instant":
        # cites L61
        return [end_casting(table, casting, "instant: took effect and expired")]
    if casting.duration == "attack":
        casting.status = "launched"
    elif casting.duration == "permanent":
        casting.status = "active"
        casting.active_until = day
    elif casting.duration in ("move", "phase"):
        casting.status = "held"
        casting.holder = (
            casting.targets[0] if casting.targets and fold(casting.targets[0]) in table.characters else casting.caster
        )
    else:
        casting.status = "active"
    return []


# ---------------------------------------------------------------- attack spells


class AttackOptions(Model):
    direction: Direction = Field(description="The attack direction, secret until attacks resolve")
    spell: str | None = Field(default=None, max_length=70, description="The attack spell (#id), if several")
    character: str | None = CharacterOption


def attack(table: Table, options: AttackOptions) -> Outcome:
    """L63: the caster secretly specifies the direction; the channel learns only that it is placed."""
    record = table.default_character(options.character)
    launched = [c for c in state_of(table).castings if c.status == "launched" and fold(c.caster) == fold(record.name)]
    if options.spell:
        key = options.spell.strip().lstrip("#")
        launched = [c for c in launched if str(c.id) == key or fold(c.spell) == fold(options.spell)]
    if not launched:
        raise RuleError(f"{record.name} has no attack spell launched this round to aim.")
    casting = launched[0]
    casting.direction = options.direction
    card = Card(
        title=f"{record.name} places an attack",
        # cites L63
        description=f"#{casting.id} {casting.spell}: direction placed, secret until attacks resolve.",
    )
    secret = Card(
        title=f"Secret: {casting.spell}",
        description=f"{record.name} attacks with {options.direction} (#{casting.id}).",
        tone="secret",
    )
    return Outcome(
        card=card,
        summary=f"{record.name} placed #{casting.id}'s direction",
        secret=secret,
        data={"id": casting.id, "spell": casting.spell, "placed": True},
    )


class AttacksOptions(Model):
    clearing: str | None = ClearingOption


def attacks(table: Table, options: AttacksOptions) -> Outcome:
    """Melee Step 3: an attack spell hits by matching direction or undercutting (G-R18); speed 0 always hits."""
    combat = combat_at(table, options.clearing)
    if combat.step != "resolved":
        raise RuleError(
            f"Attacks resolve after spells go into effect (`/realm resolve`); it is the {combat.step} step."
        )
    launched = [
        c for c in state_of(table).castings if c.status == "launched" and fold(c.clearing) == fold(combat.clearing)
    ]
    melee_table = book_of(table).melee
    for casting in launched:
        if casting.speed and casting.direction is None:
            raise RuleError(
                f"#{casting.id} {casting.spell} has no direction yet: {casting.caster} places it with `/realm attack`."
            )
        for name in casting.targets:
            fighter = combat.fighter(name)
            if casting.speed and fighter is not None and fighter.present and fighter.maneuver is None:
                raise RuleError(f"{name} has no maneuver yet; place it with `/realm combat maneuver`.")
    hits, ended = [], []
    for casting in launched:
        for name in casting.targets:
            fighter = combat.fighter(name)
            if fighter is None:
                continue  # a clearing, hex or chit: no attack to hit (L63 attacks individuals)
            if not fighter.present:
                hits.append({"id": casting.id, "target": name, "hit": False, "why": "no longer in the clearing"})
                continue
            if casting.speed == 0:
                # cites L63
                hit, why = True, "speed 0 always hits"
            elif melee_table.matches(casting.direction, fighter.maneuver):  # type: ignore[arg-type]
                hit, why = True, f"same direction ({casting.direction} against {fighter.maneuver})"
            elif casting.speed < (fighter.maneuver_speed or 0):
                hit, why = True, f"undercut {casting.speed} < {fighter.maneuver_speed}"
            else:
                hit, why = (
                    False,
                    f"{casting.direction} against {fighter.maneuver}, speed {casting.speed} ≥ {fighter.maneuver_speed}",
                )
            hits.append(
                {
                    "id": casting.id,
                    "spell": casting.spell,
                    "target": name,
                    "hit": hit,
                    "why": why,
                    "direction": casting.direction,
                }
            )
            if hit:
                combat.missile_due.append(
                    MissileDue(casting=casting.id, spell=casting.spell, caster=casting.caster, target=name)
                )
        # cites L63
        ended.append(end_casting(table, casting, "attack resolved"))
    combat.step = "attacks"
    card = Card(title=f"Attacks resolve: {combat.clearing}, round {combat.round}")
    add_field(
        card,
        "Attack spells",
        [f"#{h['id']} → {h['target']}: {'HIT' if h['hit'] else 'miss'} ({h['why']})" for h in hits] or ["none"],
    )
    due = [
        f"{m.caster} rolls on the Missile Table for #{m.casting} {m.spell} on {m.target}"
        for m in combat.missile_due
        if m.result is None
    ]
    if due:
        add_field(card, "Missile Table (GM enters: `/realm record kind:missile`)", due)
    if ended:
        add_field(card, "Ended", [e.text() for e in ended])
    return Outcome(
        card=fit(card),
        summary=f"attacks resolved in {combat.clearing}",
        data={
            **combat_data(combat),
            "hits": hits,
            "missile_rolls_needed": [m.model_dump() for m in combat.missile_due if m.result is None],
            "expired": [e.data() for e in ended],
        },
    )
