"""Who an awakened table waits on (issue 13's ``Ruleset.waits``), read from the state alone.

- the GM, when the round's paradox pool holds dice: `/awakened time round` rolls it and ends the round;
- a mage with spells in their Shaping window (cast or refreshed this round, P-G6) and not yet Shaped in it:
  Shape them now, or the window closes when the round ends (one wait per mage and round, naming them all);
- a mage in a Wisdom crisis who owes its roll (the GM started or replaced the crisis, or called for a roll);
- a mage whose spell is expiring (its round ran out, or the scene ended its sustain): sustain or refresh it now,
  or it lapses at the next `time round` (one wait per spell, so a standing order acts on each).

Turn order in a scene is not this ruleset's: it comes from the generic `/turn` tracker.
"""

from __future__ import annotations

import re

from rules.awakened.common import spell_label
from rules.awakened.shaping import effective_aspect, paradox_total
from rules.awakened.sheet import ActiveSpell, AwakenedSheet, AwakenedState
from rules.awakened.words import quantity
from rules.base import CharacterRecord, OrderOffer, OrderRun, RuleError, StandingOrder, Table, Wait
from rules.text import fold


def awakened_waits(table: Table) -> list[Wait]:
    state: AwakenedState = table.state
    waits: list[Wait] = []
    when = f"scene {state.scene}, round {state.round}"
    dice = paradox_total(state)
    if dice >= 1:
        waits.append(
            Wait(
                key=f"scene {state.scene} round {state.round} paradox",
                user_id=None,
                who="GM",
                what=f"end the round: roll the paradox pool ({quantity(dice, 'die')}; {when})",
                commands=["/awakened time round"],
                kind="gm",
            )
        )
    for record in sorted(table.characters.values(), key=lambda r: r.name.casefold()):
        sheet: AwakenedSheet = record.sheet
        if sheet.state != "conscious":
            continue
        open_windows = [spell_label(spell) for spell in sheet.spells if _shaping_pending(spell, state)]
        if open_windows:
            spells = (
                open_windows[0] if len(open_windows) == 1 else ", ".join(open_windows[:-1]) + " or " + open_windows[-1]
            )
            waits.append(
                _mage(
                    record,
                    f"shaping: {record.name} scene {state.scene} round {state.round}",
                    f"Shape {spells} now, or let the Shaping window close ({when})",
                    ["/awakened spell shape"],
                )
            )
        for spell in sheet.spells:
            if spell.status == "expiring":
                waits.append(
                    _mage(
                        record,
                        f"expiring: {record.name} #{spell.id} scene {state.scene} round {state.round}",
                        f"sustain or refresh {spell_label(spell)}, or let it lapse at the next time round ({when})",
                        ["/awakened spell sustain", "/awakened spell refresh"],
                    )
                )
        if sheet.crisis is not None and sheet.crisis.roll_owed:
            waits.append(
                _mage(
                    record,
                    f"crisis roll: {record.name} after {sheet.crisis.failures + sheet.crisis.successes} roll(s)",
                    "roll the Wisdom crisis",
                    ["/awakened crisis"],
                )
            )
    return waits


def _shaping_pending(spell: ActiveSpell, state: AwakenedState) -> bool:
    """Cast or refreshed this round (P-G6), Shapeable, and not yet Shaped in this window."""
    return (
        spell.status in ("running", "sustained")
        and spell.window == state.now
        and spell.tenacity_until != state.now  # every Shaping sets it to the round it was made in
        and effective_aspect(spell, state) != "sensory"
    )


def _mage(record: CharacterRecord, key: str, what: str, commands: list[str]) -> Wait:
    return Wait(key=key, user_id=record.owner_id, who=record.name, what=what, commands=commands, kind="turn")


# ---------------------------------------------------------------------- standing orders

SUSTAIN_ORDER = OrderOffer(
    "sustain",
    "When a spell of mine is about to lapse and its deadline passes, sustain it (if my Gnosis holds it)",
)
LAPSE_ORDER = OrderOffer("lapse", "When a spell of mine is about to lapse and its deadline passes, let it lapse")
ORDERS = (SUSTAIN_ORDER, LAPSE_ORDER)
EXPIRING = re.compile(r"expiring: .* #(\d+) scene \d+ round \d+$")


def run_order(table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
    """An expiring spell's deadline: ``sustain`` runs `/awakened spell sustain` for it as its mage's player (the
    sustain limit and a conscious mage are checked as if typed); ``lapse`` leaves it to end at the next
    `time round` without asking the GM. No order covers a Shaping window or a crisis roll."""
    found = EXPIRING.match(wait.key)
    if found is None:
        return None
    record = table.characters.get(fold(wait.who))
    spell = next((s for s in record.sheet.spells if s.id == int(found.group(1))), None) if record else None
    if record is None or spell is None or spell.status != "expiring":
        raise RuleError(f"{wait.who} no longer has that spell about to lapse")
    label = spell_label(spell)
    if order.order == SUSTAIN_ORDER.name:
        return OrderRun(
            action="spell sustain", options={"spell": f"#{spell.id}", "mage": record.name}, says=f"{label} is sustained"
        )
    return OrderRun(action=None, says=f"{label} is left to lapse at the next time round")
