"""What a fighter does in a round (L17-L19, L26, L43, L67): charge, run away or alert a weapon in the
Encounter Step, maneuver and attack with a weapon in the Melee Step, and play a move or phase special chit.
The cast itself is ``castability``; targets and spells going into effect are ``melee``.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table
from rules.realm.book import Maneuver
from rules.realm.castability import CharacterOption
from rules.realm.core import (
    chit_state,
    combat_at,
    combat_of,
    effort_refusal,
    find_casting,
    find_chit,
    play,
    plays_text,
    settings_of,
    sheet_of,
    speed_limit,
    state_of,
    unplay,
)
from rules.realm.rounds import ClearingOption, combat_card, combat_data, encounter_only, fighter_in
from rules.realm.state import Chit, Fighter
from rules.text import fold

# ---------------------------------------------------------------- playing Fight and Move chits


def play_chit(
    table: Table,
    record: CharacterRecord,
    fighter: Fighter,
    label: str,
    kind: str,
    use: str,
    *,
    again: str | None = None,
) -> Chit:
    """Play one of ``record``'s Fight or Move chits this round: the right kind, ready, not already on the table this
    round, and within the round's effort limit with everything played before it, the cast's too (L43, G-R20).

    ``again`` is the label of the chit this play replaces (a maneuver or weapon attack placed again): it is taken
    back first, so only the new chit counts."""
    chit = find_chit(record, label)
    noun = {"move": "Move", "fight": "Fight"}[kind]
    if chit.kind != kind:
        # cites L18
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; {_USES[use]} takes a {noun} chit.")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit_state(chit)}; play a ready {noun} chit.")
    if again is not None:
        unplay(fighter, again, use)
    earlier = next((p for p in fighter.plays if p.chit == chit.label), None)
    if earlier is not None:
        raise RuleError(f"{chit.label} was already played this round, {earlier.purpose()}; play another {noun} chit.")
    # cites L43, G-R20
    refused = effort_refusal(table, record.name, fighter, chit.label, chit.asterisks)
    if refused is not None:
        raise RuleError(refused)
    play(fighter, chit, use)
    return chit


_USES = {
    "charge": "charging",
    "run": "running away",
    "alert": "alerting a weapon",
    "maneuver": "a maneuver",
    "weapon": "a weapon attack",
}


def effort_note(table: Table, fighter: Fighter) -> str:
    """The round's effort so far, and the Fatigue Step it makes due (L32, L43)."""
    limit = settings_of(table).effort_limit
    note = (
        f"Effort this round: {fighter.asterisks} of {limit} asterisks{plays_text(fighter.plays, parenthesized=True)}."
    )
    if fighter.fight_move_asterisks >= 2:
        # cites L32
        note += (
            f" {fighter.fight_move_asterisks} Fight and Move asterisks: a Fatigue Step is due at the end of the round."
        )
    return note


# ---------------------------------------------------------------- charge, run, alert


class ChargeOptions(Model):
    at: str = Field(min_length=1, max_length=60, description="The character charged")
    chit: str = Field(min_length=1, max_length=30, description="The Move chit played to charge")
    character: str | None = CharacterOption


def charge(table: Table, options: ChargeOptions) -> Outcome:
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    encounter_only(combat, "Charging")
    fighter = fighter_in(table, combat, record.name)
    if fighter.charged or fighter.action != "none":
        raise RuleError(f"{record.name} has already {'charged' if fighter.charged else 'acted'} this round.")
    target = fighter_in(table, combat, options.at)
    if not target.character or fold(target.name) == fold(record.name):
        raise RuleError("A character charges another character in the clearing.")
    chit = play_chit(table, record, fighter, options.chit, "move", "charge")
    fighter.charged = True
    fighter.charged_at = target.name
    target.chargers.append(chit.speed)
    limit = speed_limit(combat, target.name)  # the same limit `castable` checks: the fastest on the sheet
    faster = f" (a faster one is already there: speed {limit})" if limit is not None and limit < chit.speed else ""
    card = combat_card(
        combat,
        f"{record.name} charges {target.name}",
        # cites L43
        f"{chit.label} goes on {target.name}'s sheet{faster}: to cast, {table.their(target.name)} Magic chit must be "
        f"speed {limit} or faster. "
        # cites L37
        f"{record.name} can take no action this round.",
    )
    if fighter.asterisks:
        card.description += f" {effort_note(table, fighter)}"
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
    """L43: running and alerting need a chit strictly faster than the fastest on the sheet (G-R7)."""
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    encounter_only(combat, "An action")
    fighter = fighter_in(table, combat, record.name)
    if fighter.charged:
        # cites L37
        raise RuleError(f"{record.name} charged this round: no action after a charge.")
    if fighter.action != "none":
        # cites L37
        raise RuleError(f"{record.name} already took an action this round ({fighter.action}); one per round.")
    kind = "move" if options.kind == "run" else "fight"
    chit = find_chit(record, options.chit)
    limit = speed_limit(combat, record.name, chargers=settings_of(table).run_limit_includes_chargers)
    if limit is not None and chit.kind == kind and not chit.speed < limit:
        raise RuleError(
            f"{chit.label} is speed {chit.speed}; to {'run away' if kind == 'move' else 'alert a weapon'} it must be "
            # cites L43
            f"faster than {limit}, the fastest on {record.name}'s sheet. A Magic chit may equal it; this may not."
        )
    chit = play_chit(table, record, fighter, options.chit, kind, options.kind)
    fighter.action = options.kind
    what = "runs away" if options.kind == "run" else "alerts a weapon"
    if options.kind == "run":
        fighter.present = False
        sheet_of(record).location = f"{combat.clearing} (ran away)"
    card = combat_card(
        combat,
        f"{record.name} {what}",
        f"{chit.label} played."
        # cites L49, E4
        + (
            f" {record.name} is out of the clearing: no spell can target {table.them(record)}."
            if options.kind == "run"
            else ""
        ),
    )
    return Outcome(
        card=card,
        summary=f"{record.name} {what} with {chit.label}",
        data={**combat_data(combat), "character": record.name, "action": options.kind, "chit": chit.label},
    )


class ManeuverOptions(Model):
    who: str = Field(min_length=1, max_length=60, description="The individual maneuvering")
    maneuver: Maneuver = Field(description="The maneuver direction")
    chit: str | None = Field(
        default=None, max_length=30, description="A character's Move chit: its speed is the maneuver's"
    )
    speed: int | None = Field(default=None, ge=0, le=9, description="A monster's or native's move time")
    clearing: str | None = ClearingOption


def maneuver(table: Table, options: ManeuverOptions) -> Outcome:
    """Melee Step 2: maneuvers are placed; a player places their own with a Move chit (its speed is the maneuver's,
    its asterisks count toward the effort limit and the Fatigue Step: L32, L43), the GM a monster's at its move
    time. Placed again before the attacks resolve, the new one replaces the old."""
    combat = combat_at(table, options.clearing)
    if combat.step not in ("melee", "resolved"):
        raise RuleError(f"Maneuvers are placed in the Melee Step; it is the {combat.step} step.")
    fighter = fighter_in(table, combat, options.who)
    if fighter.character and not options.chit and options.speed is not None and table.actor.is_gm:
        # a character with no Move chit left to play: the GM places the maneuver at the speed they judge
        table.own_character(fighter.name)
        speed, played = options.speed, None
        unplay(fighter, fighter.maneuver_chit or "", "maneuver")
    elif fighter.character:
        record = table.own_character(fighter.name)
        if not options.chit:
            raise RuleError(
                f"{fighter.name} maneuvers with a Move chit, and its speed is the maneuver's: add `chit:`, "
                f'e.g. `chit:"{_example(record, fighter, "move")}"`.'
            )
        chit = play_chit(table, record, fighter, options.chit, "move", "maneuver", again=fighter.maneuver_chit)
        if options.speed is not None and options.speed != chit.speed:
            raise RuleError(
                f"{chit.label} is speed {chit.speed}: a maneuver's speed is its Move chit's. Leave `speed` out."
            )
        speed, played = chit.speed, chit.label
    else:
        table.require_gm("A monster's or native's maneuver")
        if options.chit:
            raise RuleError(f"{fighter.name} is a monster or native: give its move time as `speed`, not a chit.")
        if options.speed is None:
            raise RuleError(f"Give {fighter.name}'s move time as `speed` (0 to 9).")
        speed, played = options.speed, None
    fighter.maneuver = options.maneuver
    fighter.maneuver_speed = speed
    fighter.maneuver_chit = played
    card = Card(
        title=f"{fighter.name} maneuvers",
        description=f"{options.maneuver.capitalize()} at speed {speed}"
        + (f" ({played})." if played else " (set by the GM)." if fighter.character else " (move time)."),
    )
    if played:
        card.footer = effort_note(table, fighter)
    return Outcome(
        card=card,
        summary=f"{fighter.name}: {options.maneuver} {speed}" + (f" with {played}" if played else ""),
        data={
            **combat_data(combat),
            "who": fighter.name,
            "maneuver": options.maneuver,
            "speed": speed,
            "chit": played,
            "effort": fighter.asterisks,
        },
    )


def _example(record: CharacterRecord, fighter: Fighter, kind: str) -> str:
    """One of the character's ready chits of ``kind`` not played this round, the fewest asterisks first, for a
    refusal's example."""
    played = {p.chit for p in fighter.plays}
    ready = [c for c in sheet_of(record).chits if c.kind == kind and c.state == "active" and c.label not in played]
    ready.sort(key=lambda c: c.asterisks)
    return ready[0].label if ready else {"move": "MOVE M4", "fight": "FIGHT H4"}[kind]


class WeaponOptions(Model):
    target: str = Field(min_length=1, max_length=60, description="Who the weapon attacks")
    chit: str = Field(min_length=1, max_length=30, description="The Fight chit played for the attack")
    character: str | None = CharacterOption


def weapon(table: Table, options: WeaponOptions) -> Outcome:
    """L26: you can maneuver but not attack with a weapon if you cast a spell successfully. The attack plays a Fight
    chit, whose asterisks count toward the effort limit and the Fatigue Step (L32, L43)."""
    record = table.default_character(options.character)
    combat = combat_of(table, record.name)
    if combat is None:
        raise RuleError(f"{record.name} is in no combat.")
    if combat.step not in ("melee", "resolved"):
        raise RuleError(f"Weapon attacks are placed in the Melee Step; it is the {combat.step} step.")
    fighter = fighter_in(table, combat, record.name)
    if fighter.cast_in_effect:
        raise RuleError(
            # cites L26
            f"{record.name} cast a spell successfully this round: {table.they(record)} may maneuver but not attack "
            "with a weapon."
        )
    target = fighter_in(table, combat, options.target)
    chit = play_chit(table, record, fighter, options.chit, "fight", "weapon", again=fighter.weapon_chit)
    fighter.weapon = target.name
    fighter.weapon_chit = chit.label
    card = Card(
        # cites L27
        title=f"{record.name} attacks {target.name}",
        description=f"A weapon attack with {chit.label}, resolved with the others.",
        footer=effort_note(table, fighter),
    )
    return Outcome(
        card=card,
        summary=f"{record.name} attacks {target.name} with {chit.label}",
        data={
            **combat_data(combat),
            "character": record.name,
            "target": target.name,
            "chit": chit.label,
            "effort": fighter.asterisks,
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
        encounter_only(combat, "Playing a special chit in combat")
        fighter = fighter_in(table, combat, record.name)
        if casting.duration == "phase" and (fighter.charged or fighter.action != "none"):
            raise RuleError(
                # cites L19, L67
                "A Phase chit is played where an item could be activated: not after a charge or an action."
            )
        casting.played_in = "combat"
        when = f"at the end of round {combat.round}"
    else:
        if state_of(table).phase != "daylight":
            # cites L67
            raise RuleError("Outside combat, special chits are played in daylight phases.")
        casting.played_in = "phase"
        when = f"at the end of this phase ({table.their(record)} next phase, or sunset)"
    casting.status = "played"
    card = Card(
        title=f"{record.name} plays {casting.spell}",
        # cites L67
        description=f"The special chit is played; the spell expires {when}.",
    )
    return Outcome(
        card=card,
        summary=f"{record.name} played #{casting.id} {casting.spell}",
        data={"id": casting.id, "spell": casting.spell, "played_in": casting.played_in},
    )
