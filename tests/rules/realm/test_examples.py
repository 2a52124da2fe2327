"""The primer's examples E4-E6, E11 and the move/phase special chits (L49-L51, L67, L71; G-R21)."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.realm.helpers import Realm, duel


def combat(realm: Realm, others: str = "Goblin, Troll") -> None:
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others=others)


def test_a_runner_is_not_a_legal_target_e4() -> None:
    realm = duel()
    combat(realm)
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("pat", "combat action", kind="run", chit="MOVE L5")  # sees the cast, runs on his turn
    realm.act("gm", "combat melee")
    with pytest.raises(RuleError, match="Wizard is not in Cave 1 now, so they cannot be a target"):
        realm.act("oz", "target", targets="Wizard")
    assert realm.act("oz", "target", targets="Goblin").data["broken"] is False  # she picks again


@pytest.mark.parametrize(
    ("ambush", "targets", "roll", "hidden_after"),
    [
        (False, "clearing", None, True),  # not an individual: stays hidden
        (False, "Goblin", None, False),  # an individual, no Ambush: unhidden
        (False, "self", None, False),  # yourself counts as an individual
        (True, "Goblin", "pass", True),  # Ambush, one individual, hide roll passed
        (True, "self", "fail", False),
        (True, "Goblin, Troll", "pass", False),  # two individuals: always unhidden
    ],
)
def test_hiding_e6(ambush: bool, targets: str, roll: str | None, hidden_after: bool) -> None:
    realm = duel(ambush=ambush)
    realm.act("gm", "spell define", name="Zap", type="IV", color="purple", duration="combat")  # any target
    realm.act("pat", "character learn", spell="Zap")
    realm.act("gm", "character set", character="Wizard", hidden=True)
    combat(realm)
    realm.act("pat", "cast", spell="Zap", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    who = "gm" if roll else "pat"
    data = realm.act(who, "target", targets=targets, character="Wizard", hide_roll=roll).data
    assert realm.sheet("Wizard").hidden is hidden_after and data["unhidden"] is not hidden_after


def test_an_ambush_hide_roll_can_come_later_from_the_gm() -> None:
    realm = duel(ambush=True)
    realm.act("gm", "character set", character="Wizard", hidden=True)
    combat(realm)
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    with pytest.raises(RuleError, match="needs the GM"):
        realm.act("pat", "target", targets="Witch", hide_roll="pass")
    aimed = realm.act("pat", "target", targets="Witch")
    assert not aimed.data["unhidden"] and realm.sheet("Wizard").hidden
    assert "a hide roll is due" in aimed.secret.description and "hid" not in aimed.card.description
    realm.act("gm", "record", kind="hide", who="Wizard", result="fail")
    assert not realm.sheet("Wizard").hidden


def test_charging_and_energizing_in_one_encounter_step_e11() -> None:
    realm = duel()
    combat(realm)
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    realm.act("oz", "target", targets="Wizard")
    realm.act("gm", "resolve")
    realm.act("gm", "combat end")
    realm.act("gm", "clearing set", name="Cave 1", colors="none")
    realm.act("gm", "day next")
    realm.act("oz", "enchant", chit="MAGIC V4*")
    combat(realm)
    realm.act("oz", "combat charge", at="Wizard", chit="MOVE L3")
    realm.act("gm", "combat sheet", character="Witch", move_times="1")
    woke = realm.act("oz", "energize", spell="Curse", chit="MAGIC V4*").data  # not an action (L71)
    assert woke["active_until"] == 14


def test_phase_spell_special_chit_in_combat_and_in_daylight_g_r21() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Leap", type="IV", color="purple", target_type="self", duration="phase")
    realm.act("pat", "character learn", spell="Leap")
    combat(realm)
    realm.act("pat", "cast", spell="Leap", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="self")
    realm.act("gm", "resolve")
    assert realm.state.casting(1).status == "held" and realm.state.casting(1).holder == "Wizard"
    realm.act("gm", "combat round")
    realm.act("pat", "play", spell="#1")
    ended = realm.act("gm", "combat round").data["expired"]
    assert [e["id"] for e in ended] == [1] and realm.chit("Wizard", "MAGIC IV4").state == "fatigued"
    realm.act("pat", "cast", spell="Leap", ritual="MAGIC IV4*")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="self")
    realm.act("gm", "resolve")
    realm.act("gm", "combat end")
    assert realm.state.casting(2).status == "held"  # kept across the night (G-R21)
    realm.act("gm", "day next")
    realm.act("pat", "play", spell="Leap")
    assert realm.act("pat", "phase", kind="search").data["expired"][0]["id"] == 2


def test_death_ends_permanent_only_house_rule() -> None:
    realm = duel(death_ends="permanent_only")
    combat(realm, others="Goblin")
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V4*")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Goblin")
    realm.act("oz", "target", targets="Goblin")
    realm.act("gm", "resolve")
    killed = realm.act("gm", "kill", character="Wizard").data
    assert killed["ended"] == []  # his Blind (combat) survives him under this house rule
    assert [c.spell for c in realm.state.castings] == ["Blind", "Curse"]


def test_a_used_prepared_chit_house_rule_g_r23() -> None:
    realm = duel(prepared_used_fatigues_at_combat_end=True)
    realm.act("oz", "prepare", chit="MAGIC V3*")
    combat(realm)
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    realm.act("oz", "target", targets="Wizard")
    realm.act("gm", "resolve")
    ended = realm.act("gm", "combat end").data
    assert ended["fatigued"] == ["Witch's MAGIC V3* (prepared and used: house rule)"]
    assert realm.state.casting(1).status == "active"  # the spell goes on
