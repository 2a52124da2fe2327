"""Who a realm table waits on (issue 13's ``Ruleset.waits``): the combats' steps, then the GM between them.

Read from the state alone. In a combat: the Encounter Step waits on the next character in the day's order
who has neither charged nor acted, after the last who did (the combat card's "Next in the Encounter Step"),
then on the GM; the Melee Step on each caster whose spell still needs a target; after ``resolve``, on each
caster whose attack spell needs a direction and each character it targets who has no maneuver; otherwise on
the GM for the step that is due. With no combat under way, the GM closes the evening or starts the next day.
Daylight waits on nobody: the state does not record which phases each character still has to play.
"""

from __future__ import annotations

import re

from rules.base import OrderOffer, OrderRun, RuleError, StandingOrder, Table, Wait
from rules.realm.core import parse_chit, sheet_of, state_of
from rules.realm.rounds import encounter_waiting
from rules.realm.state import Casting, Chit, Combat
from rules.text import fold


def realm_waits(table: Table) -> list[Wait]:
    state = state_of(table)
    waits: list[Wait] = []
    for combat in state.combats.values():
        waits.extend(_combat_waits(table, combat))
    if state.combats:
        return waits
    if state.phase == "evening":
        return [
            _gm(
                f"day {state.day} evening",
                f"start the evening's next combat, or end day {state.day} (midnight)",
                ["/realm combat start", "/realm day midnight", "/realm day next"],
            )
        ]
    if state.phase == "night":
        return [_gm(f"day {state.day} night", f"advance to day {state.day + 1}", ["/realm day next"])]
    return []


def _gm(key: str, what: str, commands: list[str]) -> Wait:
    return Wait(key=key, user_id=None, who="GM", what=what, commands=commands, kind="gm")


def _character(table: Table, key: str, name: str, what: str, commands: list[str]) -> Wait | None:
    record = table.characters.get(fold(name))
    if record is None or sheet_of(record).dead:
        return None
    return Wait(key=key, user_id=record.owner_id, who=record.name, what=what, commands=commands, kind="turn")


def _combat_waits(table: Table, combat: Combat) -> list[Wait]:
    where = f"round {combat.round} in {combat.clearing}"
    prefix = f"combat {combat.clearing} round {combat.round}"
    if combat.step == "encounter":
        for name in encounter_waiting(combat):
            wait = _character(
                table,
                f"{prefix} encounter: {name}",
                name,
                f"your Encounter Step: charge, run, alert or cast ({where})",
                ["/realm combat charge", "/realm combat action", "/realm cast"],
            )
            if wait is not None:
                return [wait]
        return [_gm(f"{prefix} melee", f"run the Melee Step ({where})", ["/realm combat melee"])]
    castings = _this_round(table, combat)
    if combat.step == "melee":
        waits = [
            _character(
                table,
                f"{prefix} target #{c.id}",
                c.caster,
                f"name the target of #{c.id} {c.spell} ({where}, Melee Step)",
                ["/realm target"],
            )
            for c in castings
            if c.status == "cast"
        ]
        found = [w for w in waits if w is not None]
        return found or [
            _gm(f"{prefix} resolve", f"put the spells into effect in speed order ({where})", ["/realm resolve"])
        ]
    if combat.step == "resolved":
        return _attack_waits(table, combat, prefix, where)
    due = [m for m in combat.missile_due if m.result is None]
    if due:
        first = due[0]
        return [
            _gm(
                f"{prefix} missile #{first.casting} {first.target}",
                f"enter {first.caster}'s Missile Table roll for #{first.casting} {first.spell} on {first.target} "
                f"({where})",
                ["/realm record"],
            )
        ]
    return [_next_round(prefix, where)]


def _this_round(table: Table, combat: Combat) -> list[Casting]:
    state = state_of(table)
    return [
        c
        for c in state.castings
        if fold(c.clearing) == fold(combat.clearing) and c.round == combat.round and c.day == state.day
    ]


def _next_round(prefix: str, where: str) -> Wait:
    return _gm(
        f"{prefix} next",
        f"start the next round or end the combat ({where})",
        ["/realm combat round", "/realm combat end"],
    )


def _attack_waits(table: Table, combat: Combat, prefix: str, where: str) -> list[Wait]:
    """After ``resolve``: launched attack spells need their direction and their targets' maneuvers (L63)."""
    here = [c for c in state_of(table).castings if c.status == "launched" and fold(c.clearing) == fold(combat.clearing)]
    if not here:
        return [_next_round(prefix, where)]
    launched = [c for c in here if c.speed]  # speed 0 always hits: no direction, no maneuver (L63)
    waits: list[Wait | None] = []
    monsters: list[str] = []
    for casting in launched:
        if casting.direction is None:
            waits.append(
                _character(
                    table,
                    f"{prefix} direction #{casting.id}",
                    casting.caster,
                    f"place the direction of #{casting.id} {casting.spell} ({where}, Melee Step)",
                    ["/realm attack"],
                )
            )
    seen: set[str] = set()
    for casting in launched:
        for name in casting.targets:
            fighter = combat.fighter(name)
            if fighter is None or not fighter.present or fighter.maneuver is not None or fold(name) in seen:
                continue
            seen.add(fold(name))
            if not fighter.character:
                monsters.append(fighter.name)
                continue
            waits.append(
                _character(
                    table,
                    f"{prefix} maneuver: {fighter.name}",
                    fighter.name,
                    f"place your maneuver against the attack spells ({where}, Melee Step)",
                    ["/realm combat maneuver"],
                )
            )
    found = [w for w in waits if w is not None]
    if found:
        return found
    if monsters:
        return [
            _gm(
                f"{prefix} attacks",
                f"place {', '.join(monsters)}'s maneuver, then resolve the attacks ({where})",
                ["/realm combat maneuver", "/realm combat attacks"],
            )
        ]
    return [_gm(f"{prefix} attacks", f"resolve the attacks ({where})", ["/realm combat attacks"])]


# ---------------------------------------------------------------------- standing orders

MANEUVERS = ("dodge", "duck", "charge")
MANEUVER_ORDER = OrderOffer(
    "maneuver",
    "When an attack spell targets my character and the maneuver's deadline passes, play this Move chit",
    option="chit",
    option_help="the maneuver (dodge, duck or charge; dodge if left out) and the Move chit: `dodge MOVE M4*`",
    option_required=True,
)
ORDERS = (MANEUVER_ORDER,)
MANEUVER_WAIT = re.compile(r"^combat (?P<clearing>.+) round \d+ maneuver: (?P<who>.+)$")


def _maneuver_and_chit(text: str) -> tuple[str, Chit]:
    words = text.split()
    maneuver = words[0].casefold() if words and words[0].casefold() in MANEUVERS else "dodge"
    chit = parse_chit(" ".join(words[1:] if words and words[0].casefold() in MANEUVERS else words))
    if chit.kind != "move":
        raise RuleError(f"A maneuver is played with a Move chit, not {chit.label}: e.g. `dodge MOVE M4*`.")
    return maneuver, chit


def check_order(table: Table, order: StandingOrder) -> StandingOrder:
    """The chit must be a Move chit one of the player's characters holds (a GM's: anyone's)."""
    maneuver, chit = _maneuver_and_chit(order.option)
    mine = [r for r in table.characters.values() if r.owner_id == table.actor.user_id]
    if not any(sheet_of(r).chit(chit.label) for r in mine):
        held = sorted({c.label for r in mine for c in sheet_of(r).chits if c.kind == "move"})
        raise RuleError(f"None of your characters has {chit.label}. Your Move chits: {', '.join(held) or 'none'}.")
    return order.model_copy(update={"option": f"{maneuver} {chit.label}"})


def order_choices(table: Table, current: str) -> list[str]:
    """Each maneuver with each Move chit of the player's characters."""
    mine = [r for r in table.characters.values() if r.owner_id == table.actor.user_id]
    labels = sorted({c.label for r in mine for c in sheet_of(r).chits if c.kind == "move"})
    typed = current.strip().casefold()
    return [f"{m} {label}" for m in MANEUVERS for label in labels if typed in f"{m} {label}".casefold()]


def run_order(table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
    """A maneuver the Melee Step waits for (L63): ``/realm combat maneuver`` as the player, with the order's chit;
    the rules refuse a chit that is fatigued, committed or over the effort limit, exactly as if typed. The
    Encounter Step (charge, run, alert, cast) and spell targets and directions are the player's choices: no order
    covers them."""
    found = MANEUVER_WAIT.match(wait.key)
    if found is None:
        return None
    maneuver, chit = _maneuver_and_chit(order.option)
    record = table.characters.get(fold(wait.who))
    if record is None or sheet_of(record).chit(chit.label) is None:
        raise RuleError(f"{wait.who} has no chit {chit.label}")
    return OrderRun(
        action="combat maneuver",
        options={"who": record.name, "maneuver": maneuver, "chit": chit.label, "clearing": found["clearing"]},
        says=f"{record.name} {maneuver}s with {chit.label}",
    )
