"""Who an awakened table waits on (issue 13's ``Ruleset.waits``), read from the state alone.

- the GM, when the round's paradox pool holds dice: `/awakened time round` rolls it and ends the round;
- a mage with spells in their Shaping window (cast or refreshed this round, P-G6) and not yet Shaped in it:
  Shape them now, or the window closes when the round ends (one wait per mage and round, naming them all);
- a mage in a Wisdom crisis who owes its roll (the GM started or replaced the crisis, or called for a roll).

Turn order in a scene is not this ruleset's: it comes from the generic `/turn` tracker.
"""

from __future__ import annotations

from rules.awakened.common import spell_label
from rules.awakened.shaping import effective_aspect, paradox_total
from rules.awakened.sheet import ActiveSpell, AwakenedSheet, AwakenedState
from rules.awakened.words import quantity
from rules.base import CharacterRecord, Table, Wait


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
