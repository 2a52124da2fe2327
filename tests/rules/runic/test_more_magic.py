"""Issue 14: Information answers kept for the day, energy from others, lasting magic and the points Words cost."""

from __future__ import annotations

import pytest

from rules.base import NeedsGMError, Outcome, RuleError, Table
from rules.runic import RULESET
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet, RunicState, SpellDef

from .conftest import GM, OTHER, PLAYER, TableMaker, assert_fits, mage_sheet


def run(table: Table, name: str, /, **options: object) -> Outcome:
    action = RULESET.actions[name]
    if action.gm_only:
        table.require_gm(name)
    outcome = action.run(table, action.options(**options))
    assert_fits(outcome)
    return outcome


# ---------------------------------------------------------------- Information: the same answer all day


def seer(book: RunicBook) -> MageSheet:
    sheet = mage_sheet(book)
    sheet.spells["seek"] = SpellDef(name="Seek", words=["Gal", "Aq"], type="information")
    sheet.known.append("seek")
    return sheet


def test_the_same_question_the_same_day_gets_the_same_answer(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "Most Information spells will simply return the same information given previously if used more than
    once per day" """
    mages = {"Nim": (PLAYER, seer(book))}
    state = RunicState()
    player = make_table(dice=[3, 3, 3, 6, 6, 5], mages=mages, state=state)
    gm = make_table(actor=GM, gm=True, mages=mages, state=state)
    first = run(player, "info ask", spell="Seek", question="Where is the  well?")
    assert first.data["question"] == "Where is the well?" and first.data["asked"] == 1
    assert "gm" not in first.data and first.secret_data["gm"]["answer"] is None
    assert "Record what you tell the player" in first.secret.description
    assert "Where is the well?" in first.card.description and "[3+3+3]" not in first.card.description
    recorded = run(gm, "info answer", mage="Nim", spell="Seek", question="where is the well?", answer="North.")
    assert recorded.secret_data["gm"]["answer"] == "North." and recorded.ephemeral
    again = run(player, "info ask", spell="Seek", question="Where is the well?")  # a failure this time: same answer
    assert again.data["asked"] == 2
    assert "Give the same answer: “North.”" in again.secret.description
    assert "North" not in again.card.description and "North" not in again.summary
    run(gm, "sunrise")
    player.rng.extend(3, 3, 3)
    fresh = run(player, "info ask", spell="Seek", question="Where is the well?")
    assert fresh.data["asked"] == 1 and fresh.secret_data["gm"]["answer"] is None


def test_info_refusals(make_table: TableMaker, book: RunicBook) -> None:
    sheet = seer(book)
    sheet.spells["bolt"] = SpellDef(name="Bolt", words=["In", "Lux"])
    mages = {"Nim": (PLAYER, sheet)}
    with pytest.raises(RuleError, match="ask questions with an Information spell"):
        run(make_table(mages=mages), "info ask", spell="Bolt", question="?")
    gm = make_table(actor=GM, gm=True, mages=mages)
    with pytest.raises(RuleError, match="has not asked 'Seek' that question today"):
        run(gm, "info answer", mage="Nim", spell="Seek", question="Why?", answer="Because.")
    with pytest.raises(NeedsGMError):
        run(make_table(mages=mages), "info answer", mage="Nim", spell="Seek", question="Why?", answer="Because.")


# ---------------------------------------------------------------- energy from others


def test_magic_transfers_mp_from_one_mage_to_another(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "magic can transfer MP from one Mage to another" — lost as any MP loss (ruling 3's Calamity check
    when it takes the giver below zero)."""
    giver, receiver = mage_sheet(book, mp=2), mage_sheet(book, mp=30)
    table = make_table(dice=[2, 2, 2], mages={"Nim": (PLAYER, giver), "Ash": (OTHER, receiver)})
    outcome = run(table, "energy give", to="Ash", amount=5)
    assert (giver.mp, receiver.mp) == (-3, 35)
    assert outcome.data["calamity"]["total"] == 6 and outcome.data["gained"] == 5
    table.rng.extend(2, 2, 2)
    capped = run(table, "energy give", to="Ash", amount=8)  # Ash's maximum is 40: 3 of the 8 are lost
    assert (capped.data["gained"], capped.data["lost"], receiver.mp) == (5, 3, 40)
    with pytest.raises(RuleError, match="cannot give MP to themself"):
        run(table, "energy give", to="Nim", amount=1)
    receiver.magery = 0
    with pytest.raises(RuleError, match="Ash has no Magery"):
        run(table, "energy give", to="Ash", amount=1)


def test_paut_restores_what_the_gm_rules(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "Paut and other items can restore MP" — how much is the GM's call, asked once and kept."""
    mages = {"Nim": (PLAYER, mage_sheet(book, mp=10))}
    state = RunicState()
    player = make_table(mages=mages, state=state)
    with pytest.raises(RuleError, match="does not say how much MP a dose of Paut restores"):
        run(player, "energy paut")
    with pytest.raises(NeedsGMError):
        run(player, "energy paut", mp_per_dose=5)
    gm = make_table(actor=GM, gm=True, mages=mages, state=state)
    assert run(gm, "energy paut", mage="Nim", mp_per_dose=5).data["mp_after"] == 15
    assert state.gm_values == {"paut_mp_per_dose": 5}
    assert run(player, "energy paut", doses=2).data == {
        "mage": "Nim", "doses": 2, "mp_per_dose": 5, "mp_before": 15, "mp_after": 25, "gained": 10,
    }  # fmt: skip


# ---------------------------------------------------------------- lasting magic


def runesmith(book: RunicBook, **fields: object) -> MageSheet:
    """Magery 1 (two Lasting spells at most), Symbol Drawing 14: every Word defaults to 10."""
    sheet = mage_sheet(book, **{"magery": 1, "symbol_drawing": 14, **fields})
    sheet.spells["fire trap"] = SpellDef(name="Fire Trap", words=["In", "Flam"], parameters=["damage: 2d burning"])
    return sheet


def test_a_ward_is_cast_with_its_trigger_and_triggers_once(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "The 'default' trigger is Des-Kal-Bet … Temporary and lasting Wards only trigger once" """
    sheet = runesmith(book)
    table = make_table(dice=[3, 3, 3, 6, 1], mages={"Nim": (PLAYER, sheet)})
    outcome = run(table, "lasting inscribe", name="Door", spell="Fire Trap")
    # Fire Trap 3 + 1 (2d) = 4; Des-Kal-Bet: Kal 1 + Bet 2 - 2 = 1; as an inscription: no -6 for an unknown spell
    assert outcome.data["cost"] == 5 and sheet.mp == 15
    assert not any("Unknown" in m["label"] for m in outcome.data["skill"]["modifiers"])
    lasting = outcome.data["lasting"]
    assert (lasting["trigger"], lasting["trigger_energy"], lasting["spell_energy"]) == ("Des-Kal-Bet", 1, 4)
    assert outcome.data["damage"] is None  # the damage waits for the trigger
    fired = run(table, "lasting trigger", name="door")
    assert fired.data["damage"]["total"] == 7 and fired.data["spent"]
    assert sheet.lasting == []


def test_the_runesmith_limit_of_twice_magery(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "A Runesmith may have only a number of Lasting spells equal to twice his Magery level active" """
    sheet = runesmith(book)
    table = make_table(dice=[3, 3, 3] * 3, mages={"Nim": (PLAYER, sheet)})
    run(table, "lasting inscribe", name="A", spell="Fire Trap")
    run(table, "lasting inscribe", name="B", spell="Fire Trap", form="sigil")
    before = sheet.model_dump()
    with pytest.raises(RuleError, match="only 2 Lasting spells"):
        run(table, "lasting inscribe", name="C", spell="Fire Trap")
    assert sheet.model_dump() == before
    run(table, "lasting end", name="A", reason="destroyed")
    run(table, "lasting inscribe", name="C", spell="Fire Trap")
    assert [item.name for item in sheet.lasting] == ["B", "C"]


def test_permanent_magic_and_greater_sigils_at_their_listed_energy(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "material components valued at C5 per point of energy the spell costs"; "Greater Sigils can be
    purchased for C100 per point of energy … Runesmiths can create Greater Sigils for half of this cost." """
    sheet = runesmith(book)
    table = make_table(dice=[3, 3, 3] * 2 + [2, 2] * 3, mages={"Nim": (PLAYER, sheet)})
    ward = run(table, "lasting inscribe", name="Gate", spell="Fire Trap", duration="permanent").data["lasting"]
    assert ward["materials"] == 25  # 5 energy × C5
    sigil = run(table, "lasting inscribe", name="Stone", spell="Fire Trap", form="sigil", duration="permanent")
    assert (sigil.data["lasting"]["value"], sigil.data["lasting"]["materials"]) == (400, 200)  # Fire Trap is 4
    for _ in range(3):  # greater: again and again
        assert not run(table, "lasting trigger", name="Gate").data["spent"]
    assert sheet.lasting[0].triggered == 3


def test_a_temporary_ward_is_maintained_at_its_triggers_cost(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "for Temporary Runic Inscriptions, this is the energy cost to cast the Trigger – ignore the cost to
    cast the triggered spell when calculating maintenance costs" """
    sheet = runesmith(book, magery=3)  # 11 energy: past 5 × Magery 1
    table = make_table(dice=[3, 3, 3, 1, 1], mages={"Nim": (PLAYER, sheet)})
    with pytest.raises(RuleError, match="give the trigger a Duration"):
        run(table, "lasting inscribe", name="Hall", spell="Fire Trap", duration="temporary")
    outcome = run(table, "lasting inscribe", name="Hall", spell="Fire Trap", duration="temporary",
                  trigger_parameters="duration: 1 hour")  # fmt: skip
    # Des-Kal-Bet for an hour: 1 + 6 = 7; maintenance is half the Duration's 6, so 3 (at most the trigger's 7)
    assert outcome.data["lasting"]["maintenance"] == 3
    assert [(on.name, on.maintenance, on.interval) for on in sheet.spells_on] == [("Hall", 3, "1 hour")]
    run(table, "lasting trigger", name="Hall")
    assert sheet.spells_on == [] and sheet.lasting == []


def test_lasting_refusals(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(mages={"Nim": (PLAYER, mage_sheet(book))})
    with pytest.raises(RuleError, match="needs Symbol Drawing"):
        run(table, "lasting inscribe", name="X", spell="In-Flam")
    table = make_table(mages={"Nim": (PLAYER, runesmith(book))})
    with pytest.raises(RuleError, match="use `form: inscription`"):
        run(table, "lasting inscribe", name="X", spell="In-Flam", duration="enchantment")
    with pytest.raises(RuleError, match="no lasting magic named"):
        run(table, "lasting trigger", name="Nothing")


# ---------------------------------------------------------------- Words and their points


def test_word_points_by_difficulty(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: nouns are Hard, verbs Average ("Skill Difficulty"); points per level are GURPS's (ruling 1)."""
    sheet = mage_sheet(book, iq=13, words={"Flam": 13, "Jux": 15, "Aq": 11, "In": 11})
    table = make_table(mages={"Nim": (PLAYER, sheet)})
    outcome = run(table, "mage points", points=13)
    costs = {c["word"]: c["points"] for c in outcome.data["words"]}
    # Flam Hard IQ+0: 4; Jux Average IQ+2: 8; Aq Hard IQ-2: 1; In Average IQ-2: below the cheapest level
    assert costs == {"Aq": 1, "Flam": 4, "In": None, "Jux": 8}
    assert outcome.data["total"] == 13 and outcome.data["check"] == "differs"  # In cannot be bought there
    sheet.words["In"] = 12
    outcome = run(table, "mage points", points=14)
    assert outcome.data["total"] == 14 and outcome.data["check"] == "matches"
    assert book.casting.learning.points("Hard", 3) == 16  # past the table: +4 per level


def test_lookup_finds_the_new_tables(book: RunicBook) -> None:
    found = {entry.key: entry for entry in RULESET.lookup_entries(book)}
    assert "| Hard | 1 | 2 | 4 | 8 | 12 | 16 |" in found["word points"].body
    assert "| Default trigger (ward) | Des-Kal-Bet |" in found["lasting magic"].body


def test_the_gm_records_what_the_seed_leaves_open(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "Multiply the spell's Casting Time by the TP cost" — TP is never defined: the GM's call, recorded."""
    sheet = mage_sheet(book)
    sheet.spells["bolt"] = SpellDef(name="Bolt", words=["In", "Lux"])  # 2 + 1 = 3 seconds, 3 pages
    state = RunicState()
    player = make_table(mages={"Nim": (PLAYER, sheet)}, state=state)
    asked = run(player, "mage grimoire", grimoire="Codex", spell="Bolt")
    assert "`/runic ruling topic:grimoire_tp`" in asked.card.footer
    gm = make_table(actor=GM, gm=True, mages={"Nim": (PLAYER, sheet)}, state=state)
    assert run(gm, "ruling", topic="grimoire_tp", value=4).data == {"topic": "grimoire_tp", "before": None, "after": 4}
    shown = run(player, "mage grimoire", grimoire="Codex", spell="Bolt", bonus=1)
    assert "casting time 3 × TP 4 (the GM's ruling) = 12" in shown.card.footer
    assert run(gm, "ruling").data == {"rulings": {"grimoire_tp": 4}}
    run(gm, "ruling", topic="grimoire_tp", clear=True)
    assert state.gm_values == {}
    with pytest.raises(RuleError, match="Give the `value`"):
        run(gm, "ruling", topic="paut_mp_per_dose")
    with pytest.raises(NeedsGMError):
        run(player, "ruling")


def test_a_temporary_ward_ends_with_its_upkeep(make_table: TableMaker, book: RunicBook) -> None:
    """A temporary inscription "requires the continuing expenditure of energy": dropping its upkeep ends it."""
    sheet = runesmith(book, magery=3)
    table = make_table(dice=[3, 3, 3], mages={"Nim": (PLAYER, sheet)})
    run(table, "lasting inscribe", name="Hall", spell="Fire Trap", duration="temporary",
        trigger_parameters="duration: 1 hour")  # fmt: skip
    run(table, "drop", spell="Hall")
    assert sheet.lasting == [] and sheet.spells_on == []


def test_anyone_may_activate_a_greater_sigil(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "Temporary and Lesser Sigils require a Runesmith to activate, while Greater Sigils can be activated by
    anyone." """
    sheet = runesmith(book)
    mages = {"Nim": (PLAYER, sheet), "Ash": (OTHER, mage_sheet(book))}
    table = make_table(dice=[3, 3, 3, 3, 3, 3], mages=mages)
    run(table, "lasting inscribe", name="Stone", spell="Fire Trap", form="sigil", duration="permanent")
    run(table, "lasting inscribe", name="Pebble", spell="Fire Trap", form="sigil")
    other = make_table(actor=OTHER, dice=[1, 1], mages=mages)
    assert not run(other, "lasting trigger", mage="Nim", name="Stone").data["spent"]
    with pytest.raises(RuleError, match="only a Greater Sigil can be activated by anyone"):
        run(other, "lasting trigger", mage="Nim", name="Pebble")
