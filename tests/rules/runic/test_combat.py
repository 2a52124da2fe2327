"""Issue 14: damage in GURPS notation, held Melee and Missile spells, Blocking spells per turn, and distraction,
injury and stun while casting or concentrating — each against the seed's words."""

from __future__ import annotations

import pytest

from rules.base import NeedsGMError, Outcome, RuleError, Table
from rules.runic import RULESET
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet, RunicState, SpellDef, SpellOn

from .conftest import GM, PLAYER, TableMaker, assert_fits, mage_sheet


def run(table: Table, name: str, /, **options: object) -> Outcome:
    action = RULESET.actions[name]
    outcome = action.run(table, action.options(**options))
    assert_fits(outcome)
    return outcome


def battle_mage(book: RunicBook, **fields: object) -> MageSheet:
    """Nim: Magery 3, Thaumatology 14 (every Word at 10), Will 12; knows Bolt, Blast, Shield, Curse, Staff."""
    sheet = mage_sheet(book, **{"magery": 3, "will": 12, **fields})
    spells = [
        SpellDef(name="Bolt", words=["In", "Lux"], type="missile", parameters=["damage: 1d-1 burning"]),
        SpellDef(name="Blast", words=["In", "Flam"], type="missile", parameters=["damage: 1d explosive burning"]),
        SpellDef(name="Shield", words=["Sanct", "Bet"], type="blocking"),
        SpellDef(name="Curse", words=["Jux", "Bet"], parameters=["damage: 1d-3 malediction crushing"]),
        SpellDef(name="Staff", words=["In", "Flam"], type="melee", parameters=["damage: 1d burning"]),
    ]
    for spell in spells:
        sheet.spells[spell.name.casefold()] = spell
        sheet.known.append(spell.name.casefold())
    return sheet


@pytest.fixture
def nim(book: RunicBook) -> MageSheet:
    return battle_mage(book)


def table_with(make_table: TableMaker, nim: MageSheet, dice: list[int], **kw: object) -> Table:
    return make_table(dice=dice, mages={"Nim": (PLAYER, nim)}, **kw)


# ---------------------------------------------------------------- damage


def test_a_worked_spell_rolls_its_damage_with_the_minimum(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed (Damage table, Malediction +0): "1d-3". A roll of 2 is -1: GURPS's minimum damage; 0 for crushing."""
    table = table_with(make_table, nim, [3, 3, 3, 2])
    outcome = run(table, "cast", spell="Curse")
    damage = outcome.data["damage"]
    assert (damage["spec"], damage["dice"], damage["raw"], damage["total"]) == ("1d-3", [2], -1, 0)
    assert damage["type"] == "malediction crushing"
    assert "1d-3 [2] = -1, minimum 0: **0**" in next(f.value for f in outcome.card.fields if f.name == "Damage")


def test_a_failed_spell_rolls_no_damage(make_table: TableMaker, nim: MageSheet) -> None:
    outcome = run(table_with(make_table, nim, [6, 5, 5]), "cast", spell="Curse")
    assert outcome.data["damage"] is None


# ---------------------------------------------------------------- held missiles


def test_a_missile_is_held_and_bars_other_castings(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "On your next turn, you may 'hold' it in hand … However, you cannot cast another spell." """
    table = table_with(make_table, nim, [3, 3, 3])
    outcome = run(table, "cast", spell="Bolt")
    assert outcome.data["held"]["name"] == "Bolt" and outcome.data["damage"] is None
    assert nim.held is not None and nim.held.damage_dice == "1d-1"
    before = nim.model_dump()
    with pytest.raises(RuleError, match="Bolt is held in hand"):
        run(table, "cast", spell="Curse")
    assert nim.model_dump() == before


def test_a_blocking_spell_leaves_a_held_missile_alone(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "If you are holding (not casting) a Melee or Missile spell, it is unaffected." """
    table = table_with(make_table, nim, [3, 3, 3, 3, 3, 3])
    run(table, "cast", spell="Bolt")
    run(table, "cast", spell="Shield")
    assert nim.held is not None


def test_launch_rolls_to_hit_then_damage(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "roll against your Innate Attack skill to hit … If he fails, the spell affects him." """
    table = table_with(make_table, nim, [3, 3, 3, 2, 3, 4, 5])
    run(table, "cast", spell="Bolt")
    outcome = run(table, "held launch", attack_skill=12, modifier=-2)
    assert outcome.data["to_hit"]["dice"] == [2, 3, 4] and outcome.data["hit"]
    assert outcome.data["damage"]["total"] == 4  # 1d-1: [5] - 1
    assert nim.held is None
    with pytest.raises(RuleError, match="holds no Melee or Missile spell"):
        run(table, "held launch")


def test_a_defended_missile_is_spent_but_a_melee_charge_stays(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed (Melee): "If he succeeds, your spell is not triggered; you may try again next turn." """
    table = table_with(make_table, nim, [3, 3, 3, 3, 3, 3, 4])
    run(table, "cast", spell="Bolt")
    assert run(table, "held launch", defended=True).data["damage"] is None and nim.held is None
    run(table, "cast", spell="Staff")
    assert run(table, "held launch", defended=True).data["held"]["name"] == "Staff"
    hit = run(table, "held launch")
    assert hit.data["damage"]["total"] == 4 and nim.held is None


def test_dropping_an_explosive_missile_at_your_feet_hurts(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "'dropping' it at your feet … does not damage you, unless the missile is explosive" """
    table = table_with(make_table, nim, [3, 3, 3, 4, 3, 3, 3, 6])
    run(table, "cast", spell="Blast")
    outcome = run(table, "held drop", at_feet=True)
    assert outcome.data["damage"]["total"] == 4 and nim.hp == 6
    run(table, "cast", spell="Bolt")
    run(table, "held drop", at_feet=True)  # 1d-1 burning, not explosive: the mage is unhurt
    assert nim.hp == 6
    with pytest.raises(RuleError, match="holds no"):
        run(table, "held drop")


def test_hurt_while_holding_a_missile_the_will_roll(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "if you are injured while you have a missile 'in hand,' you must make a Will roll. If you fail, the
    missile immediately affects you!" """
    table = table_with(make_table, nim, [3, 3, 3, 6, 6, 1, 6])
    run(table, "cast", spell="Bolt")
    outcome = run(table, "concentration", event="injured", injury=2)
    missile = outcome.data["missile"]
    assert missile["roll"]["dice"] == [6, 6, 1] and missile["went_off"]
    assert missile["damage"]["total"] == 5 and nim.hp == 10 - 2 - 5 and nim.held is None


def test_a_made_will_roll_keeps_the_missile(make_table: TableMaker, nim: MageSheet) -> None:
    table = table_with(make_table, nim, [3, 3, 3, 2, 2, 2])
    run(table, "cast", spell="Bolt")
    assert not run(table, "concentration", event="injured", injury=1).data["missile"]["went_off"]
    assert nim.held is not None and nim.hp == 9


# ---------------------------------------------------------------- Blocking spells and turns


def test_one_blocking_spell_per_turn(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "You may cast only one Blocking spell per turn, no matter how skilled you are." """
    mages = {"Nim": (PLAYER, nim)}
    gm = make_table(actor=GM, gm=True, mages=mages, state=RunicState())
    assert run(gm, "turn").data["turn"] == 1
    player = make_table(dice=[3, 3, 3, 3, 3, 3], mages=mages, state=gm.state)
    run(player, "cast", spell="Shield")
    with pytest.raises(RuleError, match="only one Blocking spell per turn"):
        run(player, "cast", spell="Shield")
    run(gm, "turn")
    run(player, "cast", spell="Shield")
    assert run(gm, "turn", end=True).data == {"turn": None, "ended": 2}
    assert nim.blocked_on_turn is None
    assert RULESET.actions["turn"].gm_only


def test_no_blocking_spell_against_a_critical_hit(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "You cannot attempt a Blocking spell against a critical hit." """
    table = table_with(make_table, nim, [])
    with pytest.raises(RuleError, match="against a critical hit"):
        run(table, "cast", spell="Shield", critical_hit=True)
    with pytest.raises(RuleError, match="for Blocking spells"):
        run(table, "cast", spell="Curse", critical_hit=True)


# ---------------------------------------------------------------- distraction, injury, stun


def test_a_stun_spoils_a_casting_in_progress(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "If you are stunned while concentrating, your spell is automatically spoiled." """
    outcome = run(table_with(make_table, nim, []), "concentration", event="stunned", casting=True)
    assert outcome.data["casting"] == {"roll": None, "spoiled": True}


@pytest.mark.parametrize(("dice", "spoiled"), [([3, 3, 3], False), ([4, 3, 3], True)])
def test_distraction_is_will_minus_3(make_table: TableMaker, nim: MageSheet, dice: list[int], spoiled: bool) -> None:
    """Seed: "make a Will roll at -3 to continue casting your spell. On a failure, your spell is spoiled" (Will 12:
    9 or less). Injured but not stunned: "the shock penalty for your injury reduces your effective skill." """
    outcome = run(table_with(make_table, nim, dice), "concentration", event="injured", injury=6, casting=True)
    assert outcome.data["casting"]["spoiled"] is spoiled
    assert outcome.data["casting"]["roll"]["skill"] == 9
    if not spoiled:
        assert "`shock:4`" in outcome.card.description  # shock is at most -4


def test_concentrated_spells_freeze_or_end(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "If you fail, the spell does not end, but it remains in precisely the state it was in … On a critical
    failure, the spell ends." """
    nim = battle_mage(book, will=10)
    for name in ("Levitate", "Puppet"):
        nim.spells_on.append(SpellOn(name=name, words=["Por"], cost=3, maintenance=1, interval="1 minute",
                                     concentrating=True))  # fmt: skip
    nim.spells_on.append(SpellOn(name="Light", words=["Lux"], cost=3, maintenance=1, interval="1 minute"))
    table = table_with(make_table, nim, [6, 5, 1, 6, 6, 6])  # 12 vs 7: failed; 18: critical failure
    outcome = run(table, "concentration", event="distracted")
    assert [c["result"] for c in outcome.data["concentrating"]] == ["frozen", "ended"]
    assert [(on.name, on.frozen) for on in nim.spells_on] == [("Levitate", True), ("Light", False)]
    resumed = run(table, "concentration", event="resume")
    assert resumed.data["resumed"] == ["Levitate"] and not nim.spells_on[0].frozen
    with pytest.raises(RuleError, match="no spell frozen"):
        run(table, "concentration", event="resume")


def test_gm_dice_and_bad_input(make_table: TableMaker, nim: MageSheet) -> None:
    with pytest.raises(NeedsGMError):
        run(table_with(make_table, nim, []), "concentration", event="distracted", casting=True, dice="1 1 1")
    gm = make_table(actor=GM, gm=True, mages={"Nim": (PLAYER, nim)})
    outcome = run(gm, "concentration", mage="Nim", event="distracted", casting=True, dice="1 2 3")
    assert outcome.data["casting"]["roll"]["dice"] == [1, 2, 3]
    with pytest.raises(RuleError, match="goes with `event: injured`"):
        run(gm, "concentration", mage="Nim", event="distracted", injury=3)


# ---------------------------------------------------------------- recognizing a spell


@pytest.mark.parametrize(
    ("ritual", "spell", "skill"), [("normal", None, 14), ("no_words", None, 12), ("no_gesture", "Bolt", 14)]
)
def test_recognizing_a_spell_by_its_ritual(
    make_table: TableMaker, nim: MageSheet, ritual: str, spell: str | None, skill: int
) -> None:
    """Seed: "Make a straight Thaumatology roll … penalized at -2 if the Mage is using only one of the rituals …
    If the observer is a Mage and knows the spell being cast, then apply a +2 bonus" """
    outcome = run(table_with(make_table, nim, [4, 4, 4]), "recognize", ritual=ritual, spell=spell)
    assert outcome.data["skill"] == skill and outcome.data["recognized"]


def test_no_ritual_nothing_to_recognize(make_table: TableMaker, nim: MageSheet) -> None:
    """Seed: "If they are using no rituals, then the observer is out of luck!" """
    assert run(table_with(make_table, nim, []), "recognize", ritual="none").data["recognized"] is False
