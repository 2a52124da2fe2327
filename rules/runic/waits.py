"""Who a runic table waits on (issue 13's ``Ruleset.waits``): only what the state itself waits on.

- a mage holding a charged Melee or Missile spell: launch it or let it go (it bars every other casting);
- the GM, for the answer to an Information spell's question asked today and not yet recorded;
- a mage who owes the maintenance the GM called for (`/runic upkeep`): pay it (`/runic maintain`) or end the spell.

Turn order in combat is the generic `/turn` tracker's, not this ruleset's. The state keeps no clock of
maintenance intervals: the GM says when one ends (`/runic upkeep`), and only then is maintenance a wait. The GM's
open values (`/runic ruling`) are asked for by the action that needs them, which stops until they are set.
"""

from __future__ import annotations

from rules.base import OrderOffer, OrderRun, RuleError, StandingOrder, Table, Wait
from rules.runic.information import question_key
from rules.runic.sheet import MageSheet, RunicState
from rules.runic.upkeep import due_spells
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
    for record in sorted(table.characters.values(), key=lambda r: r.name.casefold()):
        due = state.upkeep_due.get(record.name.casefold())
        owed = due_spells(table, record)
        if due is None or not owed:
            continue
        cost = sum(on.maintenance for on in record.sheet.spells_on if on.name in owed)
        waits.append(
            Wait(
                key=f"upkeep {due.call}: {record.name}",
                user_id=record.owner_id,
                who=record.name,
                what=f"pay the maintenance of {', '.join(owed)} ({cost} MP), or drop it",
                commands=["/runic maintain", "/runic drop"],
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


# ---------------------------------------------------------------------- standing orders

MAINTAIN_ORDER = OrderOffer(
    "maintain",
    "When maintenance the GM called for reaches its deadline, keep my spells up and pay it from MP "
    "(never into negative MP)",
)
ORDERS = (MAINTAIN_ORDER,)


def run_order(table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
    """The maintenance the GM called for: `/runic maintain spell:due` as the player. Paying below 0 MP owes a
    Calamity check (ruling 3), a risk only the player takes: the order does not run then, and says why."""
    if not wait.key.startswith("upkeep "):
        return None
    record = table.characters.get(wait.who.casefold())
    owed = due_spells(table, record) if record is not None else []
    if record is None or not owed:
        raise RuleError(f"{wait.who} owes no maintenance now")
    sheet: MageSheet = record.sheet
    cost = sum(on.maintenance for on in sheet.spells_on if on.name in owed)
    if cost > sheet.mp:
        raise RuleError(
            f"{record.name} has {sheet.mp} MP and the maintenance costs {cost}: paying would take MP below zero, "
            "with a Calamity check, which the order never does"
        )
    return OrderRun(
        action="maintain",
        options={"spell": "due", "mage": record.name},
        says=f"{record.name} keeps {', '.join(owed)} up, paying {cost} MP",
    )
