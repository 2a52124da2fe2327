"""Combat in a clearing (L11-L32): start, the Encounter Step's charges and actions, the melee sheet, the
next round with its Fatigue Step, and the end of combat with what expires there (RULINGS 17, G-R23).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table
from rules.realm.book import Maneuver, fold
from rules.realm.cards import add, fit
from rules.realm.castability import CharacterOption, speed_limit
from rules.realm.core import (
    Ended,
    combat_at,
    combat_of,
    end_casting,
    find_casting,
    find_chit,
    settings_of,
    sheet_of,
    state_of,
)
from rules.realm.days import energize_by_standing, sunset
from rules.realm.state import Combat, Fighter

ClearingOption = Field(default=None, max_length=60, description="The combat's clearing, if several are under way")


def _names(text: str) -> list[str]:
    return [" ".join(p.split()) for p in text.split(",") if p.strip()]


def _board(combat: Combat) -> list[str]:
    lines = []
    for name in combat.order + [f.name for f in combat.fighters.values() if not f.character]:
        f = combat.fighter(name)
        if f is None:
            continue
        bits = []
        if not f.present:
            bits.append("gone")
        if f.charged:
            bits.append(f"charged {f.charged_at}")
        if f.action != "none":
            bits.append(f.action)
        if f.move_times or f.chargers:
            bits.append("sheet " + ", ".join(map(str, sorted(f.chargers + f.move_times))))
        if f.asterisks:
            bits.append(f"{f.asterisks}*")
        lines.append(f"{f.name}" + (f": {', '.join(bits)}" if bits else ""))
    return lines


def combat_card(combat: Combat, title: str, description: str = "") -> Card:
    card = Card(title=title, description=description)
    card.footer = f"{combat.clearing} · round {combat.round} · {combat.step} step"
    add(card, "Encounter order", " → ".join(combat.order) or "—")
    waiting = [
        n for n in combat.order if (f := combat.fighter(n)) and f.present and not f.charged and f.action == "none"
    ]
    if combat.step == "encounter" and waiting:
        add(card, "Next in the Encounter Step", f"{waiting[0]} (then {', '.join(waiting[1:]) or 'nobody'})")
    if combat.attention:
        add(card, "Attention order", " → ".join(combat.attention))
    add(card, "In the clearing", _board(combat))
    return card


def combat_data(combat: Combat) -> dict:
    return {
        "clearing": combat.clearing,
        "round": combat.round,
        "step": combat.step,
        "order": combat.order,
        "attention": combat.attention,
    }


def _fighter(table: Table, combat: Combat, name: str) -> Fighter:
    fighter = combat.fighter(name)
    if fighter is None or not fighter.present:
        here = ", ".join(f.name for f in combat.fighters.values() if f.present)
        raise RuleError(f"{name!r} is not in the combat in {combat.clearing}. In the clearing: {here}.")
    return fighter


def _encounter(combat: Combat, what: str) -> None:
    if combat.step != "encounter":
        raise RuleError(f"{what} happens in the Encounter Step; round {combat.round} is in its {combat.step} step.")


# ---------------------------------------------------------------- start, sheet


class CombatStartOptions(Model):
    clearing: str = Field(min_length=1, max_length=60, description="The clearing, e.g. Ruins 5")
    order: str = Field(min_length=1, max_length=500, description='Characters in the day\'s order: "Amazon, Wizard"')
    others: str | None = Field(default=None, max_length=500, description='Monsters and natives: "Giant, Goblin"')


def combat_start(table: Table, options: CombatStartOptions) -> Outcome:
    """G-R27: the GM gives the day's order; evening combat begins after sunset (RULINGS 17)."""
    state = state_of(table)
    clearing = " ".join(options.clearing.split())
    if fold(clearing) in state.combats:
        raise RuleError(f"Combat is already under way in {clearing}.")
    if state.phase == "night":
        raise RuleError("It is past midnight; start tomorrow's combats after `/realm day next`.")
    ended: list[Ended] = sunset(table)[0] if state.phase == "daylight" else []
    combat = Combat(clearing=clearing)
    for name in _names(options.order):
        record = table.find_character(name)
        if sheet_of(record).dead:
            raise RuleError(f"{record.name} is dead.")
        if combat_of(table, record.name) is not None:
            raise RuleError(f"{record.name} is already in another combat.")
        if record.name in combat.order:
            raise RuleError(f"{record.name} is named twice in the order.")
        sheet_of(record).location = clearing
        combat.order.append(record.name)
        combat.fighters[fold(record.name)] = Fighter(name=record.name)
    for name in _names(options.others or ""):
        if fold(name) in combat.fighters or fold(name) in table.characters:
            raise RuleError(f"{name!r} is a character or named twice; `others` are monsters and natives.")
        combat.fighters[fold(name)] = Fighter(name=name, character=False)
    state.combats[fold(clearing)] = combat
    woke = energize_by_standing(table, clearing, "at the start of round 1")
    card = combat_card(
        combat,
        f"Combat in {clearing}",
        "⚔️ Round 1, Encounter Step: luring, assignment, charges, then actions in order (L13-L19).",
    )
    if ended:
        add(card, "Sunset first", [e.text() for e in ended])
    if woke:
        add(card, "Energized", woke)
    return Outcome(
        card=fit(card),
        summary=f"combat starts in {clearing}",
        data={**combat_data(combat), "expired": [e.data() for e in ended], "energized": woke},
    )


class CombatSheetOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="Whose melee sheet")
    move_times: str = Field(max_length=100, description='Move times of the monsters and natives on it: "4, 5"; "none"')
    clearing: str | None = ClearingOption


def combat_sheet(table: Table, options: CombatSheetOptions) -> Outcome:
    """L43: move times on a sheet limit his chits' speeds. Luring and assignment are the GM's (L15-L16)."""
    combat = combat_at(table, options.clearing)
    fighter = _fighter(table, combat, options.character)
    text = options.move_times.strip()
    try:
        times = [] if fold(text) in ("none", "") else [int(t) for t in text.replace(" ", "").split(",") if t]
    except ValueError:
        raise RuleError(
            f"Move times are numbers 0-9 separated by commas, such as `4, 5`, or `none`; not {text!r}."
        ) from None
    if any(not 0 <= t <= 9 for t in times):
        raise RuleError("Move times are between 0 and 9.")
    fighter.move_times = times
    limit = speed_limit(combat, fighter.name)
    card = combat_card(
        combat,
        f"{fighter.name}'s melee sheet",
        f"Move times: {', '.join(map(str, times)) or 'none'}."
        + (f" Casting needs speed ≤ {limit}; running or alerting < {limit} (L43)." if limit is not None else ""),
    )
    return Outcome(
        card=card,
        summary=f"{fighter.name}'s sheet: {times}",
        data={**combat_data(combat), "character": fighter.name, "move_times": times, "limit": limit},
    )


# ---------------------------------------------------------------- charge, run, alert


class ChargeOptions(Model):
    at: str = Field(min_length=1, max_length=60, description="The character charged")
    chit: str = Field(min_length=1, max_length=30, description="The Move chit played to charge")
    character: str | None = CharacterOption


def _play_fight_move(table: Table, record: CharacterRecord, fighter: Fighter, label: str, kind: str) -> tuple:
    chit = find_chit(record, label)
    if chit.kind != kind:
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; this needs a {kind.title()} chit (L18).")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit.state}; play a ready chit.")
    limit = settings_of(table).effort_limit
    if fighter.asterisks + chit.asterisks > limit:
        raise RuleError(
            f"{fighter.asterisks} asterisk(s) already played + {chit.asterisks} would pass the effort limit "
            f"of {limit} (L43)."
        )
    fighter.asterisks += chit.asterisks
    fighter.fight_move_asterisks += chit.asterisks
    return chit, limit


def charge(table: Table, options: ChargeOptions) -> Outcome:
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    _encounter(combat, "Charging")
    fighter = _fighter(table, combat, record.name)
    if fighter.charged or fighter.action != "none":
        raise RuleError(f"{record.name} has already {'charged' if fighter.charged else 'acted'} this round.")
    target = _fighter(table, combat, options.at)
    if not target.character or fold(target.name) == fold(record.name):
        raise RuleError("A character charges another character in the clearing.")
    chit, _ = _play_fight_move(table, record, fighter, options.chit, "move")
    fighter.charged = True
    fighter.charged_at = target.name
    target.chargers.append(chit.speed)
    card = combat_card(
        combat,
        f"{record.name} charges {target.name}",
        f"{chit.label} on {target.name}'s sheet: his Magic chit must be speed {chit.speed} or faster (L43). "
        f"{record.name} can take no action this round (L37).",
    )
    return Outcome(
        card=card,
        summary=f"{record.name} charged {target.name} with {chit.label}",
        data={**combat_data(combat), "character": record.name, "at": target.name, "chit": chit.label},
    )


class ActionOptions(Model):
    kind: Literal["run", "alert"] = Field(description="Run away (Move chit) or alert a weapon (Fight chit)")
    chit: str = Field(min_length=1, max_length=30, description="The chit played")
    character: str | None = CharacterOption


def action(table: Table, options: ActionOptions) -> Outcome:
    """L43: running and alerting need a chit strictly faster than the fastest on his sheet (G-R7)."""
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    _encounter(combat, "An action")
    fighter = _fighter(table, combat, record.name)
    if fighter.charged:
        raise RuleError(f"{record.name} charged this round: no action after a charge (L37).")
    if fighter.action != "none":
        raise RuleError(f"{record.name} already took an action this round ({fighter.action}); one per round (L37).")
    kind = "move" if options.kind == "run" else "fight"
    chit = find_chit(record, options.chit)
    times = fighter.move_times + (fighter.chargers if settings_of(table).run_limit_includes_chargers else [])
    limit = min(times) if times else None
    if limit is not None and chit.kind == kind and not chit.speed < limit:
        raise RuleError(
            f"{chit.label} is speed {chit.speed}; to {'run away' if kind == 'move' else 'alert a weapon'} it must be "
            f"faster than {limit}, the fastest on {record.name}'s sheet (L43). A Magic chit may equal it; this may not."
        )
    chit, _ = _play_fight_move(table, record, fighter, options.chit, kind)
    fighter.action = options.kind
    what = "runs away" if options.kind == "run" else "alerts a weapon"
    if options.kind == "run":
        fighter.present = False
        sheet_of(record).location = f"{combat.clearing} (ran away)"
    card = combat_card(
        combat,
        f"{record.name} {what}",
        f"{chit.label} played."
        + (" He is out of the clearing: no spell can target him (L49, E4)." if options.kind == "run" else ""),
    )
    return Outcome(
        card=card,
        summary=f"{record.name} {what} with {chit.label}",
        data={**combat_data(combat), "character": record.name, "action": options.kind, "chit": chit.label},
    )


# ---------------------------------------------------------------- melee step


class MeleeOptions(Model):
    attention: str | None = Field(default=None, max_length=500, description="The attention order drawn at the table")
    clearing: str | None = ClearingOption


def melee(table: Table, options: MeleeOptions) -> Outcome:
    """L23: attention counters give a random order for picking targets (the table's RNG, shown)."""
    combat = combat_at(table, options.clearing)
    _encounter(combat, "Moving to the Melee Step")
    present = [f.name for f in combat.fighters.values() if f.present]
    if options.attention:  # drawn by hand at the table, as a GM may supply any roll
        drawn = [combat.fighter(n).name if combat.fighter(n) else n for n in _names(options.attention)]
        if sorted(map(fold, drawn)) != sorted(map(fold, present)):
            raise RuleError(f"The attention order names everyone in the clearing once: {', '.join(present)}.")
        present = drawn
    else:
        table.rng.shuffle(present)
    combat.attention = present
    combat.step = "melee"
    waiting = [
        f"#{c.id} {c.spell} ({c.caster})"
        for c in state_of(table).castings
        if c.status == "cast" and fold(c.clearing) == fold(combat.clearing)
    ]
    card = combat_card(
        combat,
        f"Melee Step, round {combat.round}",
        "🎯 Attention counters drawn. Casters name targets with `/realm target`, then the GM runs "
        "`/realm resolve` (L25, L53).",
    )
    if waiting:
        add(card, "Spells waiting for a target", waiting)
    return Outcome(
        card=card,
        summary=f"melee step in {combat.clearing}: {' → '.join(present)}",
        data={**combat_data(combat), "waiting": waiting},
    )


class ManeuverOptions(Model):
    who: str = Field(min_length=1, max_length=60, description="The individual maneuvering")
    maneuver: Maneuver = Field(description="The maneuver direction")
    speed: int = Field(ge=0, le=9, description="The maneuver's speed (its Move chit or move time)")
    clearing: str | None = ClearingOption


def maneuver(table: Table, options: ManeuverOptions) -> Outcome:
    """Melee Step 2: maneuvers are placed; a player places his own, the GM anyone's."""
    combat = combat_at(table, options.clearing)
    if combat.step not in ("melee", "resolved"):
        raise RuleError(f"Maneuvers are placed in the Melee Step; it is the {combat.step} step.")
    fighter = _fighter(table, combat, options.who)
    if fighter.character:
        table.own_character(fighter.name)
    else:
        table.require_gm("A monster's or native's maneuver")
    fighter.maneuver = options.maneuver
    fighter.maneuver_speed = options.speed
    card = Card(title=f"{fighter.name} maneuvers", description=f"{options.maneuver} at speed {options.speed}.")
    return Outcome(
        card=card,
        summary=f"{fighter.name}: {options.maneuver} {options.speed}",
        data={**combat_data(combat), "who": fighter.name, "maneuver": options.maneuver, "speed": options.speed},
    )


class WeaponOptions(Model):
    target: str = Field(min_length=1, max_length=60, description="Who the weapon attacks")
    character: str | None = CharacterOption


def weapon(table: Table, options: WeaponOptions) -> Outcome:
    """L26: you can maneuver but not attack with a weapon if you successfully cast a spell."""
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    if combat.step not in ("melee", "resolved"):
        raise RuleError(f"Weapon attacks are placed in the Melee Step; it is the {combat.step} step.")
    fighter = _fighter(table, combat, record.name)
    if fighter.cast_in_effect:
        raise RuleError(
            f"{record.name} cast a spell successfully this round: he may maneuver but not attack with a weapon (L26)."
        )
    target = _fighter(table, combat, options.target)
    fighter.weapon = target.name
    card = Card(
        title=f"{record.name} attacks {target.name}", description="A weapon attack, resolved with the others (L27)."
    )
    return Outcome(
        card=card,
        summary=f"{record.name} attacks {target.name}",
        data={**combat_data(combat), "character": record.name, "target": target.name},
    )


# ---------------------------------------------------------------- next round, end


def _fatigue_step(combat: Combat) -> list[str]:
    return [
        f"{f.name} played {f.fight_move_asterisks} Fight/Move asterisks: fatigue chits now (L32); the player "
        "chooses, with `/realm character chit`"
        for f in combat.fighters.values()
        if f.character and f.fight_move_asterisks >= 2
    ]


def _round_over(table: Table, combat: Combat) -> list[Ended]:
    pending = [
        c
        for c in state_of(table).castings
        if fold(c.clearing) == fold(combat.clearing)
        and c.status in ("cast", "targeted", "launched")
        and c.day == state_of(table).day
    ]
    if pending:
        names = ", ".join(f"#{c.id} {c.spell} ({c.status})" for c in pending)
        raise RuleError(
            f"Round {combat.round} still has spells to resolve: {names}. Run `/realm resolve` "
            "(and `/realm combat attacks` for attack spells) first."
        )
    ended = []
    for casting in list(state_of(table).castings):  # G-R21: a special chit played in combat ends with the round
        if (
            casting.status == "played"
            and casting.played_in == "combat"
            and fold(casting.clearing) == fold(combat.clearing)
        ):
            ended.append(end_casting(table, casting, f"its special chit's round ({combat.round}) ended (G-R21)"))
    return ended


class RoundOptions(Model):
    clearing: str | None = ClearingOption


def next_round(table: Table, options: RoundOptions) -> Outcome:
    combat = combat_at(table, options.clearing)
    ended = _round_over(table, combat)
    fatigue = _fatigue_step(combat)
    combat.round += 1
    combat.step = "encounter"
    combat.attention = []
    combat.missile_due = [m for m in combat.missile_due if m.result is None]
    for fighter in combat.fighters.values():
        keep = {
            "name": fighter.name,
            "character": fighter.character,
            "present": fighter.present,
            "move_times": fighter.move_times,
        }
        combat.fighters[fold(fighter.name)] = Fighter(**keep)
    woke = energize_by_standing(table, combat.clearing, f"at the start of round {combat.round}")
    card = combat_card(combat, f"Round {combat.round} in {combat.clearing}", "⚔️ Encounter Step.")
    if fatigue:
        add(card, f"Fatigue Step of round {combat.round - 1}", fatigue)
    if ended:
        add(card, "Ended", [e.text() for e in ended])
    if woke:
        add(card, "Energized", woke)
    return Outcome(
        card=fit(card),
        summary=f"round {combat.round} in {combat.clearing}",
        data={**combat_data(combat), "fatigue_step": fatigue, "expired": [e.data() for e in ended], "energized": woke},
    )


class CombatEndOptions(Model):
    clearing: str | None = ClearingOption


def combat_end(table: Table, options: CombatEndOptions) -> Outcome:
    """RULINGS 17 and L65: combat spells cast here today expire; unused prepared chits fatigue (L32)."""
    state = state_of(table)
    combat = combat_at(table, options.clearing)
    ended = _round_over(table, combat)
    fatigue = _fatigue_step(combat)
    for casting in list(state.castings):
        if (
            casting.duration == "combat"
            and fold(casting.clearing) == fold(combat.clearing)
            and casting.day == state.day
        ):
            ended.append(end_casting(table, casting, f"expired at the end of combat in {combat.clearing} (L65)"))
    fatigued = []
    used_prepared = settings_of(table).prepared_used_fatigues_at_combat_end
    for name in combat.order:
        record = table.characters.get(fold(name))
        if record is None:
            continue
        for chit in sheet_of(record).chits:
            if chit.state == "prepared":
                chit.state = "fatigued"
                chit.prepared_day = None
                fatigued.append(f"{record.name}'s {chit.label} (prepared, unused, L32)")
            elif used_prepared and chit.state == "committed" and chit.committed_to is not None:
                casting = state.casting(chit.committed_to)
                if casting is not None and casting.prepared:
                    chit.state, chit.committed_to = "fatigued", None
                    casting.ritual_kind = "chit"
                    casting.ritual = f"{chit.label} (fatigued at the end of combat)"
                    fatigued.append(f"{record.name}'s {chit.label} (prepared and used: house rule)")
    del state.combats[fold(combat.clearing)]
    card = Card(title=f"Combat ends in {combat.clearing}")
    card.description = "Combat spells cast here today expire; prepared chits fatigue (L32, L65)." + (
        "" if ended or fatigued else " Nothing to expire or fatigue."
    )
    if fatigue:
        add(card, f"Fatigue Step of round {combat.round}", fatigue)
    if ended:
        add(card, "Expired", [e.text() for e in ended])
    if fatigued:
        add(card, "Fatigued", fatigued)
    return Outcome(
        card=fit(card),
        summary=f"combat ends in {combat.clearing}",
        data={
            "clearing": combat.clearing,
            "expired": [e.data() for e in ended],
            "fatigued": fatigued + [f for e in ended for f in e.fatigued],
            "fatigue_step": fatigue,
        },
    )


# ---------------------------------------------------------------- move and phase special chits


class PlayOptions(Model):
    spell: str = Field(min_length=1, max_length=70, description="The move or phase spell (#id) whose chit you play")
    character: str | None = CharacterOption


def play_special(table: Table, options: PlayOptions) -> Outcome:
    """L67: a held special chit is played; its spell expires at the end of that phase, movement or round."""
    record = table.default_character(options.character)
    casting = find_casting(table, options.spell)
    if casting.status != "held" or fold(casting.holder or "") != fold(record.name):
        raise RuleError(f"{record.name} holds no special chit of #{casting.id} {casting.spell} ({casting.status}).")
    combat = combat_of(table, record.name)
    if combat is not None:
        _encounter(combat, "Playing a special chit in combat")
        fighter = _fighter(table, combat, record.name)
        if casting.duration == "phase" and (fighter.charged or fighter.action != "none"):
            raise RuleError(
                "A Phase chit is played where an item could be activated: not after a charge or an action (L19, L67)."
            )
        casting.played_in = "combat"
        when = f"at the end of round {combat.round}"
    else:
        if state_of(table).phase != "daylight":
            raise RuleError("Outside combat, special chits are played in daylight phases (L67).")
        casting.played_in = "phase"
        when = "at the end of this phase (his next phase, or sunset)"
    casting.status = "played"
    card = Card(
        title=f"{record.name} plays {casting.spell}",
        description=f"The special chit is played; the spell expires {when} (L67).",
    )
    return Outcome(
        card=card,
        summary=f"{record.name} played #{casting.id} {casting.spell}",
        data={"id": casting.id, "spell": casting.spell, "played_in": casting.played_in},
    )
