"""Who a runic table waits on (issue 13's ``Ruleset.waits``): only what the state itself waits on.

- a mage holding a charged Melee or Missile spell: launch it or let it go (it bars every other casting);
- the GM, for the answer to an Information spell's question asked today and not yet recorded.

Turn order in combat is the generic `/turn` tracker's, not this ruleset's. Maintenance is paid on demand
(`/runic maintain`) and the state keeps no clock of intervals, and the GM's open values (`/runic ruling`) are
asked for by the action that needs them, which stops until they are set: neither is a wait the state knows.
"""

from __future__ import annotations

from rules.base import Table, Wait
from rules.runic.information import question_key
from rules.runic.sheet import MageSheet, RunicState
from rules.text import clip

QUESTION_SHOWN = 120  # the question is public (the ask's card shows it); clipped so the wait stays one line


def runic_waits(table: Table) -> list[Wait]:
    state: RunicState = table.state
    waits: list[Wait] = []
    for record in sorted(table.characters.values(), key=lambda r: r.name.casefold()):
        sheet: MageSheet = record.sheet
        if sheet.held is None:
            continue
        held = sheet.held
        waits.append(
            Wait(
                key=f"held {record.name}: {held.name}",
                user_id=record.owner_id,
                who=record.name,
                what=f"launch the held {held.type} spell {held.name}, or drop it",
                commands=["/runic held launch", "/runic held drop"],
                kind="turn",
            )
        )
    for entry in state.answers.values():
        if entry.answer is not None or entry.day != state.day:
            continue
        question = clip(entry.question, QUESTION_SHOWN)
        waits.append(
            Wait(
                key=f"info answer {question_key(entry.mage, entry.spell, entry.question)} day {entry.day}",
                user_id=None,
                who="GM",
                what=f"answer {entry.mage}'s {entry.spell}: “{question}”",
                commands=["/runic info answer"],
                kind="gm",
            )
        )
    return waits
