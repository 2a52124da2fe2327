"""Each duration's end at its exact boundary (RULINGS 17, L61-L71), and the board's words for it."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.realm.helpers import Realm, duel


def cast_on(realm: Realm, who: str, spell: str, ritual: str, targets: str) -> int:
    realm.act(who, "cast", spell=spell, ritual=ritual)
    realm.act("gm", "combat melee")
    realm.act(who, "target", targets=targets)
    data = realm.act("gm", "resolve").data
    return data["order"][0]["id"]


def fight(realm: Realm) -> None:
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")


def board(realm: Realm) -> dict[int, str]:
    return {s["id"]: s["when"] for s in realm.act("gm", "spells").data["spells"]}


def test_a_day_spell_across_the_month_boundary() -> None:
    realm = duel()
    realm.act("gm", "day set", day=28)
    realm.act("gm", "day colors", colors="grey")  # the GM's override on a gold day
    fight(realm)
    haste = cast_on(realm, "oz", "Haste", "MAGIC II2", "self")
    realm.act("gm", "combat end")
    assert board(realm)[haste] == "expires at sunset of day 29"
    realm.act("gm", "day midnight")
    day29 = realm.act("gm", "day next").data
    assert (day29["day"], day29["day_of_month"]) == (29, 1) and realm.state.casting(haste) is not None
    sunset = realm.act("gm", "day sunset").data
    assert [e["id"] for e in sunset["expired"]] == [haste]
    assert realm.state.casting(haste) is None and realm.chit("Witch", "MAGIC II2").state == "fatigued"


def test_a_combat_spell_ends_with_that_combat() -> None:
    realm = duel()
    fight(realm)
    blind = cast_on(realm, "pat", "Blind", "MAGIC IV4", "Witch")
    realm.act("gm", "combat round")
    assert realm.state.casting(blind).status == "active"
    ended = realm.act("gm", "combat end").data
    assert [e["id"] for e in ended["expired"]] == [blind]
    assert realm.chit("Wizard", "MAGIC IV4").state == "fatigued"


def test_an_instant_spell_expires_as_targets_are_assigned() -> None:
    realm = duel()
    fight(realm)
    realm.act("pat", "cast", spell="Flash", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="clearing")
    data = realm.act("gm", "resolve").data
    assert data["in_effect"] == [1] and data["expired"][0]["why"] == "instant: took effect and expired"
    assert realm.state.castings == [] and realm.chit("Wizard", "MAGIC IV4").state == "fatigued"


def test_a_permanent_spell_falls_inert_and_wakes_on_its_color_day() -> None:
    realm = duel()
    realm.act("gm", "clearing set", name="Cave 1", colors="none")
    realm.act("oz", "enchant", chit="MAGIC V4*")
    fight(realm)
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*", color_chit="MAGIC V4*")
    realm.act("gm", "combat melee")
    realm.act("oz", "target", targets="Wizard")
    realm.act("gm", "resolve")
    assert board(realm)[1] == "active until midnight of day 13"
    realm.act("gm", "combat end")
    assert realm.act("gm", "day midnight").data["inert"] == ["#1 Curse"]
    assert board(realm)[1] == "inert; active again on day 35, the next black day; or a black color chit in Cave 1"
    realm.act("gm", "day set", day=34)
    assert realm.state.casting(1).status == "inert"
    woke = realm.act("gm", "day next").data
    assert woke["energized"] == ["#1 Curse energized by black (day 35)"]
    assert realm.state.casting(1).active_until == 35
    realm.act("gm", "day midnight")
    assert realm.state.casting(1).status == "inert"  # G-R10: inert again at midnight


def test_a_tile_color_energizes_at_the_next_phase_start_g_r11() -> None:
    realm = duel()
    fight(realm)
    cast_on(realm, "oz", "Curse", "MAGIC V3*", "Wizard")  # black from Cave 1's colors
    realm.act("gm", "combat end")
    realm.act("gm", "day next")
    assert realm.state.casting(1).status == "inert"
    assert board(realm)[1].startswith("inert; active again on day 35, the next black day; or at the next phase")
    phase = realm.act("pat", "phase", kind="search").data
    assert phase["energized"] == ["#1 Curse energized by black (clearing Cave 1) at Wizard's phase in Cave 1"]


def test_continuous_standing_color_keeps_it_awake() -> None:
    realm = duel(standing_color="continuous")
    fight(realm)
    cast_on(realm, "oz", "Curse", "MAGIC V3*", "Wizard")
    realm.act("gm", "combat end")
    assert realm.act("gm", "day midnight").data["inert"] == []
    assert realm.state.casting(1).active_until == 14


def test_another_players_color_chit_energizes_e10() -> None:
    realm = duel()
    fight(realm)
    cast_on(realm, "oz", "Curse", "MAGIC V3*", "Wizard")
    realm.act("gm", "combat end")
    realm.act("gm", "clearing set", name="Cave 1", colors="none")
    realm.act("gm", "day next")
    realm.act("pat", "enchant", chit="MAGIC V5")
    with pytest.raises(RuleError, match="not a color chit"):
        realm.act("pat", "energize", spell="#1", chit="MAGIC IV4")
    data = realm.act("pat", "energize", spell="#1", chit="MAGIC V5").data
    assert data["active_until"] == 14 and realm.chit("Wizard", "MAGIC V5").state == "fatigued"
    with pytest.raises(RuleError, match="already active"):
        realm.act("gm", "energize", spell="#1")


def test_an_attack_spell_hits_and_expires_when_attacks_resolve() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Fiery Blast", type="IV", color="purple", target_type="individuals")
    realm.act("pat", "character learn", spell="Fiery Blast")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    realm.act("pat", "cast", spell="Fiery Blast", ritual="MAGIC IV3**")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch, Goblin")
    realm.act("gm", "resolve")
    with pytest.raises(RuleError, match="may maneuver but not attack with a weapon"):
        realm.act("pat", "combat weapon", target="Witch", chit="FIGHT L4")
    realm.act("oz", "character chit", change="add", chit="FIGHT L4")
    realm.act("oz", "combat weapon", target="Wizard", chit="FIGHT L4")
    secret = realm.act("pat", "attack", direction="thrust")
    assert "thrust" not in secret.card.description and "thrust" in secret.secret.description
    realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MOVE M4**")
    realm.act("gm", "combat maneuver", who="Goblin", maneuver="dodge", speed=2)
    data = realm.act("gm", "combat attacks").data
    assert [(h["target"], h["hit"], h["why"]) for h in data["hits"]] == [
        ("Witch", True, "undercut 3 < 4"),
        ("Goblin", False, "thrust against dodge, speed 3 ≥ 2"),
    ]
    assert [m["target"] for m in data["missile_rolls_needed"]] == ["Witch"]
    assert realm.state.castings == [] and realm.chit("Wizard", "MAGIC IV3**").state == "fatigued"
    realm.act("gm", "record", kind="missile", who="Witch", result="Heavy harm")
    assert realm.state.records[-1].result == "Heavy harm"
    with pytest.raises(RuleError, match="No Missile Table roll is due"):
        realm.act("gm", "record", kind="missile", who="Witch", result="again")


def test_a_speed_zero_attack_always_hits_e7() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Fiery Blast", type="IV", color="purple", target_type="individual")
    realm.act("pat", "character learn", spell="Fiery Blast")
    realm.act("pat", "prepare", chit="MAGIC IV4")
    fight(realm)
    realm.act("pat", "cast", spell="Fiery Blast", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("gm", "resolve")
    data = realm.act("gm", "combat attacks").data
    assert [(h["hit"], h["why"]) for h in data["hits"]] == [(True, "speed 0 always hits")]


def test_unused_prepared_chits_fatigue_at_combat_end_or_midnight() -> None:
    realm = duel()
    realm.act("pat", "prepare", chit="MAGIC IV4")
    realm.act("oz", "prepare", chit="MAGIC IV2")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard")
    ended = realm.act("gm", "combat end").data
    assert ended["fatigued"] == ["Wizard's MAGIC IV4 (prepared, unused)"]
    assert realm.act("gm", "day midnight").data["fatigued"] == ["Witch's MAGIC IV2 (prepared, unused)"]


def test_broken_spell_and_killed_caster() -> None:
    realm = duel()
    fight(realm)
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    broken = realm.act("pat", "target", targets="clearing").data  # E5: a spell for an individual at the clearing
    assert broken["broken"] and broken["fatigued"] == ["Wizard's MAGIC IV4"]
    realm.act("gm", "combat round")
    cast_on(realm, "oz", "Curse", "MAGIC V3*", "Wizard")
    killed = realm.act("gm", "kill", character="Witch").data
    assert [e["spell"] for e in killed["ended"]] == ["Curse"] and killed["fatigued"] == ["Witch's MAGIC V3*"]
