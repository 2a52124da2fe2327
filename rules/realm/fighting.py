"""What a fighter does in a round (L17-L19, L26, L43, L67): charge, run away or alert a weapon in the
Encounter Step, maneuver and attack with a weapon in the Melee Step, and play a move or phase special chit.
The cast itself is ``castability``; targets and spells going into effect are ``melee``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table
from rules.realm.book import Maneuver
from rules.realm.castability import CharacterOption
from rules.realm.core import combat_at, combat_of, find_casting, find_chit, settings_of, sheet_of, state_of
from rules.realm.rounds import ClearingOption, combat_card, combat_data, encounter_only, fighter_in
from rules.realm.state import Fighter
from rules.text import fold

# ---------------------------------------------------------------- charge, run, alert


class ChargeOptions(Model):
    at: str = Field(min_length=1, max_length=60, description="The character charged")
    chit: str = Field(min_length=1, max_length=30, description="The Move chit played to charge")
    character: str | None = CharacterOption


def _play_fight_move(table: Table, record: CharacterRecord, fighter: Fighter, label: str, kind: str) -> tuple:
    chit = find_chit(record, label)
    if chit.kind != kind:
        # cites L18
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; this needs a {kind.title()} chit.")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit.state}; play a ready chit.")
    limit = settings_of(table).effort_limit
    if fighter.asterisks + chit.asterisks > limit:
        raise RuleError(
            f"{fighter.asterisks} asterisk(s) already played + {chit.asterisks} would pass the effort limit "
            # cites L43
            f"of {limit}."
        )
    fighter.asterisks += chit.asterisks
    fighter.fight_move_asterisks += chit.asterisks
    return chit, limit


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
    chit, _ = _play_fight_move(table, record, fighter, options.chit, "move")
    fighter.charged = True
    fighter.charged_at = target.name
    target.chargers.append(chit.speed)
    card = combat_card(
        combat,
        f"{record.name} charges {target.name}",
        # cites L43
        f"{chit.label} on {target.name}'s sheet: {table.their(target.name)} Magic chit must be speed {chit.speed} or "
        "faster. "
        # cites L37
        f"{record.name} can take no action this round.",
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
    times = fighter.move_times + (fighter.chargers if settings_of(table).run_limit_includes_chargers else [])
    limit = min(times) if times else None
    if limit is not None and chit.kind == kind and not chit.speed < limit:
        raise RuleError(
            f"{chit.label} is speed {chit.speed}; to {'run away' if kind == 'move' else 'alert a weapon'} it must be "
            # cites L43
            f"faster than {limit}, the fastest on {record.name}'s sheet. A Magic chit may equal it; this may not."
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
    speed: int = Field(ge=0, le=9, description="The maneuver's speed (its Move chit or move time)")
    clearing: str | None = ClearingOption


def maneuver(table: Table, options: ManeuverOptions) -> Outcome:
    """Melee Step 2: maneuvers are placed; a player places his own, the GM anyone's."""
    combat = combat_at(table, options.clearing)
    if combat.step not in ("melee", "resolved"):
        raise RuleError(f"Maneuvers are placed in the Melee Step; it is the {combat.step} step.")
    fighter = fighter_in(table, combat, options.who)
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
    fighter = fighter_in(table, combat, record.name)
    if fighter.cast_in_effect:
        raise RuleError(
            # cites L26
            f"{record.name} cast a spell successfully this round: {table.they(record)} may maneuver but not attack "
            "with a weapon."
        )
    target = fighter_in(table, combat, options.target)
    fighter.weapon = target.name
    card = Card(
        # cites L27
        title=f"{record.name} attacks {target.name}",
        description="A weapon attack, resolved with the others.",
    )
    return Outcome(
        card=card,
        summary=f"{record.name} attacks {target.name}",
        data={**combat_data(combat), "character": record.name, "target": target.name},
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
