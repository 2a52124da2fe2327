"""Who a runic table waits on: a held Melee or Missile spell, and the GM's answer to an Information spell."""

from __future__ import annotations

from rules.base import Outcome, Table, Wait
from rules.runic import RULESET
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet, RunicState, SpellOn

from .conftest import GM, OTHER, PLAYER, TableMaker, mage_sheet
from .test_combat import battle_mage
from .test_more_magic import seer


def run(table: Table, name: str, /, **options: object) -> Outcome:
    action = RULESET.actions[name]
    if action.gm_only:
        table.require_gm(name)
    return action.run(table, action.options(**options))


def waits(table: Table) -> list[Wait]:
    return RULESET.waits(table)


def test_nobody_is_waited_on_at_a_quiet_table(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(mages={"Nim": (PLAYER, mage_sheet(book))})
    assert waits(table) == []
    run(make_table(actor=GM, gm=True, state=table.state, mages={}), "turn")  # combat turns: the /turn tracker's
    assert waits(table) == []


def test_a_held_missile_waits_until_launched_or_dropped(make_table: TableMaker, book: RunicBook) -> None:
    nim, ora = battle_mage(book), battle_mage(book)
    table = make_table(dice=[3, 3, 3, 2, 3, 4, 5, 3, 3, 3], mages={"Nim": (PLAYER, nim), "Ora": (OTHER, ora)})
    run(table, "cast", spell="Bolt")
    [held] = waits(table)
    assert (held.key, held.user_id, held.who, held.kind) == ("held Nim: Bolt", PLAYER, "Nim", "turn")
    assert held.what == "launch the held missile spell Bolt, or drop it"
    assert held.commands == ["/runic held launch", "/runic held drop"] and held.on_deadline is None
    run(make_table(actor=GM, gm=True, state=table.state, mages={}), "turn")  # a new turn: still held, same wait
    assert waits(table) == [held]
    run(table, "held launch", attack_skill=12, modifier=-2)
    assert waits(table) == []
    table.actor = table.actor.model_copy(update={"user_id": OTHER})
    run(table, "cast", spell="Bolt", mage="Ora")
    assert [(w.key, w.user_id) for w in waits(table)] == [("held Ora: Bolt", OTHER)]
    run(table, "held drop", mage="Ora")
    assert waits(table) == []


def test_a_melee_charge_that_is_defended_stays_waiting(make_table: TableMaker, book: RunicBook) -> None:
    nim: MageSheet = battle_mage(book)
    table = make_table(dice=[3, 3, 3, 3, 3, 3, 4], mages={"Nim": (PLAYER, nim)})
    run(table, "cast", spell="Staff")
    [held] = waits(table)
    assert held.key == "held Nim: Staff" and "held melee spell Staff" in held.what
    run(table, "held launch", defended=True)  # "you may try again next turn"
    assert waits(table) == [held]
    run(table, "held launch")
    assert waits(table) == []


def test_an_information_question_waits_on_the_gm_until_answered_or_sunrise(
    make_table: TableMaker, book: RunicBook
) -> None:
    mages = {"Nim": (PLAYER, seer(book))}
    state = RunicState()
    player = make_table(dice=[3, 3, 3] * 3, mages=mages, state=state)
    gm = make_table(actor=GM, gm=True, mages=mages, state=state)
    run(player, "info ask", spell="Seek", question="Where is the  well?")
    [answer] = waits(player)
    assert (answer.user_id, answer.who, answer.kind) == (None, "GM", "gm")
    assert answer.key == "info answer nim|seek|where is the well? day 0"
    assert answer.what == "answer Nim's Seek: “Where is the well?”" and answer.commands == ["/runic info answer"]
    run(player, "info ask", spell="Seek", question="where is the well?")  # asked again: the same wait goes on
    assert waits(player) == [answer]
    run(gm, "info answer", mage="Nim", spell="Seek", question="Where is the well?", answer="North.")
    assert waits(player) == []
    assert "North" not in str(answer)
    run(player, "info ask", spell="Seek", question="Why is it dry?")
    assert len(waits(player)) == 1
    run(gm, "sunrise")  # a new day: yesterday's questions are no longer owed
    assert waits(player) == []


def test_a_long_question_is_clipped_in_the_wait(make_table: TableMaker, book: RunicBook) -> None:
    mages = {"Nim": (PLAYER, seer(book))}
    player = make_table(dice=[3, 3, 3], mages=mages)
    run(player, "info ask", spell="Seek", question="Where " + "very " * 50 + "far?")
    [answer] = waits(player)
    assert len(answer.what) < 160 and answer.what.endswith("…”")


def test_the_gms_upkeep_call_waits_on_each_mage_until_paid_or_dropped(make_table: TableMaker, book: RunicBook) -> None:
    nim, ora = mage_sheet(book), mage_sheet(book)
    nim.spells_on = [
        SpellOn(name="Ward", words=["Sanct"], cost=4, maintenance=2, interval="1 minute"),
        SpellOn(name="Light", words=["Lux"], cost=2, maintenance=1, interval="1 minute"),
    ]
    ora.spells_on = [SpellOn(name="Shield", words=["Sanct"], cost=2, maintenance=1, interval="1 minute")]
    table = make_table(actor=GM, gm=True, mages={"Nim": (PLAYER, nim), "Ora": (OTHER, ora)})
    assert waits(table) == []  # no clock of intervals: nothing is due until the GM says so
    called = run(table, "upkeep")
    assert called.data == {"owed": {"Nim": ["Ward", "Light"], "Ora": ["Shield"]}, "call": 1}
    first, second = waits(table)
    assert (first.key, first.user_id, first.kind) == ("upkeep 1: Nim", PLAYER, "turn")
    assert first.what == "pay the maintenance of Ward, Light (3 MP), or drop it"
    assert first.commands == ["/runic maintain", "/runic drop"] and second.key == "upkeep 1: Ora"
    run(table, "drop", spell="Light", mage="Nim")
    assert waits(table)[0].key == "upkeep 1: Nim" and "Ward (2 MP)" in waits(table)[0].what  # the same wait goes on
    paid = run(table, "maintain", spell="due", mage="Nim")
    assert paid.data["spells"] == ["Ward"] and paid.data["mp_before"] - paid.data["mp_after"] == 2
    assert [w.key for w in waits(table)] == ["upkeep 1: Ora"]
    run(table, "upkeep")  # the next interval: a new call, a new wait for each
    assert [w.key for w in waits(table)] == ["upkeep 2: Nim", "upkeep 2: Ora"]
    run(table, "maintain", mage="Ora")  # paying every spell on pays what was due too
    assert [w.key for w in waits(table)] == ["upkeep 2: Nim"]
    table.characters["nim"].sheet.spells_on = []  # ended some other way (a Calamity): nothing is owed
    assert waits(table) == []
