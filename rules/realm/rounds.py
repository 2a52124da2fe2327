"""Combat in a clearing (L11-L32): start with the day's order, the melee sheet, the Melee Step's attention
order, the next round with its Fatigue Step, and the end of combat with what expires there (RULINGS 17,
G-R23). What each fighter does is ``fighting``; spells going into effect are ``melee``.
"""

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, fit, quoted
from rules.realm.book import clean_name
from rules.realm.core import (
    Ended,
    combat_at,
    combat_of,
    end_casting,
    plays_text,
    settings_of,
    sheet_of,
    speed_limit,
    state_of,
)
from rules.realm.days import energize_by_standing, sunset
from rules.realm.state import Combat, Fighter
from rules.text import fold

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
    add_field(card, "Encounter order", " → ".join(combat.order) or "—")
    waiting = encounter_waiting(combat)
    if combat.step == "encounter" and waiting:
        add_field(card, "Next in the Encounter Step", f"{waiting[0]} (then {', '.join(waiting[1:]) or 'nobody'})")
    if combat.attention:
        add_field(card, "Attention order", " → ".join(combat.attention))
    add_field(card, "In the clearing", _board(combat))
    return card


def encounter_waiting(combat: Combat) -> list[str]:
    """Who still has an Encounter turn, in the day's order (L13): present, neither charged nor acted, and after
    the last character who did (a character passed over by a later one's charge or action let his turn go)."""
    done = [i for i, n in enumerate(combat.order) if (f := combat.fighter(n)) and (f.charged or f.action != "none")]
    start = done[-1] + 1 if done else 0
    return [
        n
        for n in combat.order[start:]
        if (f := combat.fighter(n)) and f.present and not f.charged and f.action == "none"
    ]


def combat_data(combat: Combat) -> dict:
    return {
        "clearing": combat.clearing,
        "round": combat.round,
        "step": combat.step,
        "order": combat.order,
        "attention": combat.attention,
    }


def fighter_in(table: Table, combat: Combat, name: str) -> Fighter:
    fighter = combat.fighter(name)
    if fighter is None or not fighter.present:
        here = ", ".join(f.name for f in combat.fighters.values() if f.present)
        raise RuleError(
            f"{quoted(' '.join(name.split()))} is not in the combat in {combat.clearing}. In the clearing: {here}."
        )
    return fighter


def encounter_only(combat: Combat, what: str) -> None:
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
    clearing = clean_name(options.clearing, "clearing")
    if not _names(options.order):
        raise RuleError('Name the characters in the clearing, in the day\'s order: `order:"Amazon, Wizard"`.')
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
        if fold(name) in table.characters:
            who = table.characters[fold(name)].name
            raise RuleError(
                f"{who} is a character: characters go in `order`, and `others` names the monsters and natives."
            )
        if fold(name) in combat.fighters:
            raise RuleError(
                f"{name} is named twice in `others`. Give each monster or native its own name, "
                f'such as `others:"{name} 1, {name} 2"`.'
            )
        combat.fighters[fold(name)] = Fighter(name=name, character=False)
    state.combats[fold(clearing)] = combat
    woke = energize_by_standing(table, clearing, "at the start of round 1")
    card = combat_card(
        combat,
        f"Combat in {clearing}",
        # cites L13-L19
        "⚔️ Round 1, Encounter Step: luring, assignment, charges, then actions in order.",
    )
    if ended:
        add_field(card, "Sunset first", [e.text() for e in ended])
    if woke:
        add_field(card, "Energized", woke)
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
    fighter = fighter_in(table, combat, options.character)
    text = options.move_times.strip()
    try:
        times = [] if fold(text) in ("none", "") else [int(t) for t in text.replace(" ", "").split(",") if t]
    except ValueError:
        raise RuleError(
            f"Move times are numbers 0-9 separated by commas, such as `4, 5`, or `none`; not {quoted(text)}."
        ) from None
    if any(not 0 <= t <= 9 for t in times):
        raise RuleError("Move times are between 0 and 9.")
    fighter.move_times = times
    limit = speed_limit(combat, fighter.name)
    run = speed_limit(combat, fighter.name, chargers=settings_of(table).run_limit_includes_chargers)
    card = combat_card(
        combat,
        f"{fighter.name}'s melee sheet",
        f"Move times: {', '.join(map(str, times)) or 'none'}."
        # cites L43
        + (f" Casting needs speed {limit} or faster." if limit is not None else "")
        + (f" Running away or alerting a weapon needs faster than {run}." if run is not None else ""),
    )
    return Outcome(
        card=card,
        summary=f"{fighter.name}'s sheet: move times {', '.join(map(str, times)) or 'none'}",
        data={**combat_data(combat), "character": fighter.name, "move_times": times, "limit": limit},
    )


# ---------------------------------------------------------------- melee step


class MeleeOptions(Model):
    attention: str | None = Field(default=None, max_length=500, description="The attention order drawn at the table")
    clearing: str | None = ClearingOption


def melee(table: Table, options: MeleeOptions) -> Outcome:
    """L23: attention counters give a random order for picking targets (the table's RNG, shown)."""
    combat = combat_at(table, options.clearing)
    encounter_only(combat, "Moving to the Melee Step")
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
        # cites L25, L53
        "`/realm resolve`.",
    )
    if waiting:
        add_field(card, "Spells waiting for a target", waiting)
    return Outcome(
        card=card,
        summary=f"melee step in {combat.clearing}: {' → '.join(present)}",
        data={**combat_data(combat), "waiting": waiting},
    )


# ---------------------------------------------------------------- next round, end


def _fatigue_step(combat: Combat) -> list[str]:
    """L32, G-R20: a character who played two Fight or Move asterisks this round (charging, running, alerting,
    maneuvering, attacking with a weapon) fatigues chits; the player chooses which."""
    return [
        # cites L32
        f"{f.name} played {f.fight_move_asterisks} Fight and Move asterisks"
        f"{plays_text([p for p in f.plays if p.kind != 'magic'], parenthesized=True)}: fatigue chits now; the player "
        "chooses which, "
        "with `/realm character chit change:fatigue`"
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
            # cites G-R21
            ended.append(end_casting(table, casting, f"its special chit's round ({combat.round}) ended"))
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
        add_field(card, f"Fatigue Step of round {combat.round - 1}", fatigue)
    if ended:
        add_field(card, "Ended", [e.text() for e in ended])
    if woke:
        add_field(card, "Energized", woke)
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
            # cites L65
            ended.append(end_casting(table, casting, f"expired at the end of combat in {combat.clearing}"))
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
                # cites L32
                fatigued.append(f"{record.name}'s {chit.label} (prepared, unused)")
            elif used_prepared and chit.state == "committed" and chit.committed_to is not None:
                casting = state.casting(chit.committed_to)
                if casting is not None and casting.prepared:
                    chit.state, chit.committed_to = "fatigued", None
                    casting.ritual_kind = "chit"
                    casting.ritual = f"{chit.label} (fatigued at the end of combat)"
                    fatigued.append(f"{record.name}'s {chit.label} (prepared and used: house rule)")
    del state.combats[fold(combat.clearing)]
    card = Card(title=f"Combat ends in {combat.clearing}")
    # cites L32, L65
    card.description = "Combat spells cast here today expire; prepared chits fatigue." + (
        "" if ended or fatigued else " Nothing to expire or fatigue."
    )
    if fatigue:
        add_field(card, f"Fatigue Step of round {combat.round}", fatigue)
    if ended:
        add_field(card, "Expired", [e.text() for e in ended])
    if fatigued:
        add_field(card, "Fatigued", fatigued)
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
