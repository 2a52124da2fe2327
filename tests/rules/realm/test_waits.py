"""Who a realm table waits on: each combat step's character or GM, then the GM between combats and days."""

from __future__ import annotations

from rules.base import Wait
from rules.realm import RULESET
from tests.rules.realm.helpers import OZ_ID, PAT_ID, Realm, duel

R1 = "combat Cave 1 round 1"


def waits(realm: Realm) -> list[Wait]:
    return RULESET.waits(realm.table)


def keys(realm: Realm) -> list[str]:
    return [w.key for w in waits(realm)]


def only(realm: Realm) -> Wait:
    found = waits(realm)
    assert len(found) == 1, found
    return found[0]


def test_daylight_waits_on_nobody_evening_and_night_on_the_gm() -> None:
    realm = duel()
    assert waits(realm) == []  # daylight: the state does not know whose phases are left
    realm.act("pat", "phase", kind="move", clearing="Cave 1")
    assert waits(realm) == []
    realm.act("gm", "day sunset")
    evening = only(realm)
    assert (evening.key, evening.user_id, evening.who, evening.kind) == ("day 13 evening", None, "GM", "gm")
    assert "/realm combat start" in evening.commands and "/realm day midnight" in evening.commands
    assert evening.on_deadline is None
    realm.act("gm", "day midnight")
    night = only(realm)
    assert night.key == "day 13 night" and night.what == "advance to day 14" and night.commands == ["/realm day next"]
    realm.act("gm", "day next")
    assert waits(realm) == []


def test_the_encounter_step_goes_around_the_days_order_then_waits_on_the_gm() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    wizard = only(realm)
    assert (wizard.key, wizard.user_id, wizard.who, wizard.kind) == (
        f"{R1} encounter: Wizard",
        PAT_ID,
        "Wizard",
        "turn",
    )
    assert wizard.commands == ["/realm combat charge", "/realm combat action", "/realm cast"]
    assert "round 1 in Cave 1" in wizard.what and wizard.on_deadline is None
    realm.act("gm", "combat sheet", character="Wizard", move_times="none")  # the GM's bookkeeping: still Wizard
    assert only(realm) == wizard
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    witch = only(realm)
    assert (witch.key, witch.user_id) == (f"{R1} encounter: Witch", OZ_ID)
    realm.act("oz", "combat charge", at="Wizard", chit="MOVE L3")
    melee = only(realm)
    assert (melee.key, melee.user_id, melee.kind, melee.commands) == (
        f"{R1} melee",
        None,
        "gm",
        ["/realm combat melee"],
    )


def test_a_character_passed_over_in_the_order_let_his_turn_go() -> None:
    realm = duel()
    started = realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    assert only(realm).key == f"{R1} encounter: Wizard"
    assert {f.name: f.value for f in started.card.fields}["Next in the Encounter Step"] == "Wizard (then Witch)"
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")  # the Witch acts: the Wizard did nothing (L13)
    assert only(realm).key == f"{R1} melee"
    sheet = realm.act("gm", "combat sheet", character="Wizard", move_times="none")
    assert "Next in the Encounter Step" not in [f.name for f in sheet.card.fields]  # the card agrees: nobody


def test_the_melee_step_waits_on_each_caster_then_the_gm_resolves() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    assert keys(realm) == [f"{R1} target #1", f"{R1} target #2"]
    assert [w.user_id for w in waits(realm)] == [PAT_ID, OZ_ID]
    assert waits(realm)[0].what == "name the target of #1 Blind (round 1 in Cave 1, Melee Step)"
    realm.act("pat", "target", targets="Goblin")
    assert keys(realm) == [f"{R1} target #2"]  # the Witch's wait goes on with its key
    realm.act("oz", "target", targets="Goblin")
    resolve = only(realm)
    assert (resolve.key, resolve.who, resolve.commands) == (f"{R1} resolve", "GM", ["/realm resolve"])
    realm.act("gm", "resolve")
    nxt = only(realm)
    assert nxt.key == f"{R1} next" and nxt.commands == ["/realm combat round", "/realm combat end"]
    realm.act("gm", "combat round")
    assert only(realm).key == "combat Cave 1 round 2 encounter: Wizard"  # a new round is a new wait
    realm.act("gm", "combat end")
    assert keys(realm) == ["day 13 evening"]


def test_attack_spells_wait_for_direction_maneuvers_attacks_and_the_missile_roll() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Fiery Blast", type="IV", color="purple", target_type="individuals")
    realm.act("pat", "character learn", spell="Fiery Blast")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    realm.act("pat", "cast", spell="Fiery Blast", ritual="MAGIC IV3**")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch, Goblin")
    realm.act("gm", "resolve")
    assert keys(realm) == [f"{R1} direction #1", f"{R1} maneuver: Witch"]
    direction, maneuver = waits(realm)
    assert (direction.user_id, direction.commands) == (PAT_ID, ["/realm attack"])
    assert (maneuver.user_id, maneuver.commands) == (OZ_ID, ["/realm combat maneuver"])
    realm.act("pat", "attack", direction="thrust")
    assert keys(realm) == [f"{R1} maneuver: Witch"]
    assert "thrust" not in str(waits(realm))  # the direction stays secret
    realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MOVE M4**")
    goblin = only(realm)
    assert goblin.key == f"{R1} attacks" and goblin.what.startswith("place Goblin's maneuver")
    realm.act("gm", "combat maneuver", who="Goblin", maneuver="dodge", speed=2)
    attacks = only(realm)
    assert attacks.key == f"{R1} attacks" and attacks.what.startswith("resolve the attacks")  # same wait goes on
    realm.act("gm", "combat attacks")
    missile = only(realm)
    assert missile.key == f"{R1} missile #1 Witch" and missile.commands == ["/realm record"]
    assert "Wizard's Missile Table roll for #1 Fiery Blast on Witch" in missile.what
    realm.act("gm", "record", kind="missile", who="Witch", result="Heavy harm")
    assert keys(realm) == [f"{R1} next"]


def test_two_combats_wait_side_by_side_and_the_dead_are_not_waited_on() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard")
    realm.act("gm", "combat start", clearing="Cave 2", order="Witch")
    assert keys(realm) == [f"{R1} encounter: Wizard", "combat Cave 2 round 1 encounter: Witch"]
    realm.sheet("Witch").dead = True
    assert keys(realm) == [f"{R1} encounter: Wizard", "combat Cave 2 round 1 melee"]
