"""Issue 22, realm: effort (L32, L43, G-R20), the one speed limit (L43), the day's color anywhere (G-R8), a second
copy of a spell (L55), The Good Book from the data (L39), and the replies that carry a menu.

The primer's words each test holds to:
- L43 "Magic chits (but not color magic) counts toward effort limit during round. (Normally only two asterisks total
  can be played in any round of combat.)"
- L32 "Fatigue Fight or Move chits if two Fight or Move effort asterisks were played. Note: Magic chits do not fatigue
  in the Fatigue Step."
- L63 "An Attack Spell hits if it matches directions or undercuts the speed of its target."
"""

from __future__ import annotations

import pytest

from rules.base import Outcome, Replied, RuleError
from rules.realm import RULESET
from tests.rules.realm.helpers import Realm, duel


def attack_round(realm: Realm, ritual: str = "MAGIC IV3**") -> None:
    """Wizard's Fiery Blast launched at the Witch and a Goblin, round 1, Melee Step (after `resolve`)."""
    realm.act("gm", "spell define", name="Fiery Blast", type="IV", color="purple", target_type="individuals")
    realm.act("pat", "character learn", spell="Fiery Blast")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    realm.act("pat", "cast", spell="Fiery Blast", ritual=ritual)
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch, Goblin")
    realm.act("gm", "resolve")


def fighter(realm: Realm, name: str):
    return realm.state.combats["cave 1"].fighter(name)


def test_a_maneuver_plays_a_move_chit_and_takes_its_speed_l63() -> None:
    realm = duel()
    attack_round(realm)
    realm.act("pat", "attack", direction="thrust")
    placed = realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MOVE M4**")
    assert (placed.data["speed"], placed.data["chit"], placed.data["effort"]) == (4, "MOVE M4**", 2)
    assert placed.card.description == "Dodge at speed 4 (MOVE M4**)."
    realm.act("gm", "combat maneuver", who="Goblin", maneuver="dodge", speed=2)
    hits = realm.act("gm", "combat attacks").data["hits"]
    # speed 3 undercuts the Move chit's 4; the Goblin's move time 2 is faster than the attack
    assert [(h["target"], h["hit"], h["why"]) for h in hits] == [
        ("Witch", True, "undercut 3 < 4"),
        ("Goblin", False, "thrust against dodge, speed 3 ≥ 2"),
    ]


def test_a_character_maneuvers_with_a_move_chit_a_monster_at_its_move_time() -> None:
    realm = duel()
    attack_round(realm)
    with pytest.raises(RuleError, match=r'Witch maneuvers with a Move chit.*add `chit:`, e.g. `chit:"MOVE L3"`'):
        realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", speed=4)
    with pytest.raises(RuleError, match="MAGIC IV2 is a Magic chit; a maneuver takes a Move chit"):
        realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MAGIC IV2")
    with pytest.raises(RuleError, match="MOVE L3 is speed 3: a maneuver's speed is its Move chit's"):
        realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MOVE L3", speed=4)
    with pytest.raises(RuleError, match="Goblin is a monster or native: give its move time as `speed`"):
        realm.act("gm", "combat maneuver", who="Goblin", maneuver="duck", chit="MOVE L3")
    with pytest.raises(RuleError, match="Give Goblin's move time as `speed`"):
        realm.act("gm", "combat maneuver", who="Goblin", maneuver="duck")
    assert fighter(realm, "Witch").maneuver is None and fighter(realm, "Witch").plays == []
    # a GM may place the maneuver of a character who has no Move chit left, at the speed they judge
    gm = realm.act("gm", "combat maneuver", who="Witch", maneuver="duck", speed=5)
    assert gm.data["chit"] is None and gm.card.description == "Duck at speed 5 (set by the GM)."


def test_the_cast_and_the_maneuver_share_the_effort_limit_l43() -> None:
    realm = duel()
    attack_round(realm)  # MAGIC IV3**: two asterisks already
    before = realm.dump()
    with pytest.raises(RuleError) as refused:
        realm.act("pat", "combat maneuver", who="Wizard", maneuver="duck", chit="MOVE M4*")
    assert str(refused.value) == (
        "Wizard has already played 2 effort asterisks this round (MAGIC IV3** to cast), and MOVE M4* has 1 effort "
        "asterisk: 3 in all, over the limit of 2 a round. Play a chit with fewer asterisks."
    )
    assert realm.dump() == before
    placed = realm.act("pat", "combat maneuver", who="Wizard", maneuver="duck", chit="MOVE L5")  # no asterisk
    assert placed.data["effort"] == 2 and fighter(realm, "Wizard").fight_move_asterisks == 0


def test_the_limit_is_the_campaigns_setting() -> None:
    realm = duel(effort_limit=3)
    attack_round(realm)
    realm.act("pat", "combat maneuver", who="Wizard", maneuver="duck", chit="MOVE M4*")
    assert fighter(realm, "Wizard").asterisks == 3


def test_a_weapon_attack_plays_a_fight_chit_and_two_fight_or_move_asterisks_make_a_fatigue_step_l32() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    realm.act("gm", "combat melee")
    with pytest.raises(RuleError, match="MOVE M4\\* is a Move chit; a weapon attack takes a Fight chit"):
        realm.act("pat", "combat weapon", target="Goblin", chit="MOVE M4*")
    attack = realm.act("pat", "combat weapon", target="Goblin", chit="FIGHT M3*")
    assert attack.data["chit"] == "FIGHT M3*" and "Effort this round: 1 of 2 asterisks" in attack.card.footer
    dodge = realm.act("pat", "combat maneuver", who="Wizard", maneuver="dodge", chit="MOVE M4*")
    assert "2 Fight and Move asterisks: a Fatigue Step is due at the end of the round." in dodge.card.footer
    step = realm.act("gm", "combat round").data["fatigue_step"]
    assert step == [
        "Wizard played 2 Fight and Move asterisks (FIGHT M3* to attack with a weapon, MOVE M4* to maneuver): fatigue "
        "chits now; the player chooses which, with `/realm character chit change:fatigue`"
    ]
    assert fighter(realm, "Wizard").plays == []  # a new round: nothing played yet


def test_magic_asterisks_count_toward_the_limit_but_not_the_fatigue_step_l32() -> None:
    realm = duel()
    attack_round(realm, ritual="MAGIC IV4*")
    realm.act("pat", "attack", direction="smash")
    realm.act("pat", "combat maneuver", who="Wizard", maneuver="duck", chit="MOVE M4*")
    wizard = fighter(realm, "Wizard")
    assert (wizard.asterisks, wizard.fight_move_asterisks) == (2, 1)
    realm.act("oz", "combat maneuver", who="Witch", maneuver="duck", chit="MOVE L3")
    realm.act("gm", "combat maneuver", who="Goblin", maneuver="duck", speed=4)
    realm.act("gm", "combat attacks")
    for target in ("Witch", "Goblin"):
        realm.act("gm", "record", kind="missile", who=target, result="harm")
    assert realm.act("gm", "combat round").data["fatigue_step"] == []


def test_a_chit_is_played_once_a_round_and_a_maneuver_placed_again_replaces_the_first() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("oz", "combat charge", at="Wizard", chit="MOVE M4**")
    realm.act("gm", "combat melee")
    with pytest.raises(RuleError, match="MOVE M4\\*\\* was already played this round, to charge; play another Move"):
        realm.act("oz", "combat maneuver", who="Witch", maneuver="dodge", chit="MOVE M4**")
    realm.act("pat", "combat maneuver", who="Wizard", maneuver="dodge", chit="MOVE M4*")
    again = realm.act("pat", "combat maneuver", who="Wizard", maneuver="charge", chit="MOVE L5")
    assert again.data["effort"] == 0 and [p.chit for p in fighter(realm, "Wizard").plays] == ["MOVE L5"]
    realm.act("pat", "combat maneuver", who="Wizard", maneuver="charge", chit="MOVE M4*")
    assert fighter(realm, "Wizard").fight_move_asterisks == 1


def test_a_fatigued_chit_is_not_played() -> None:
    realm = duel()
    realm.act("pat", "character chit", change="fatigue", chit="MOVE M4*")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("gm", "combat melee")
    with pytest.raises(RuleError, match="MOVE M4\\* is fatigued; play a ready Move chit"):
        realm.act("pat", "combat maneuver", who="Wizard", maneuver="dodge", chit="MOVE M4*")


@pytest.mark.parametrize(("move_time", "charge", "limit"), [(4, "MOVE M5", 4), (5, "MOVE M4", 4), (None, "MOVE L3", 3)])
def test_the_charge_card_states_the_limit_castable_checks(move_time: int | None, charge: str, limit: int) -> None:
    """L43: the Magic chit must be as fast as any charging Move chit and any move time on the sheet."""
    realm = duel()
    realm.act("oz", "character chit", change="add", chit=charge)
    realm.act("gm", "combat start", clearing="Cave 1", order="Witch, Wizard", others="Goblin")
    if move_time is not None:
        realm.act("gm", "combat sheet", character="Wizard", move_times=str(move_time))
    card = realm.act("oz", "combat charge", at="Wizard", chit=charge).card
    assert f"to cast, their Magic chit must be speed {limit} or faster" in card.description
    checks = {c["check"]: c for c in realm.act("pat", "castable", spell="Blind", ritual="MAGIC IV4").data["checks"]}
    assert checks["speed"]["ok"] == (limit >= 4)
    assert str(limit) in checks["speed"]["detail"]


def test_the_days_color_counts_for_a_character_in_no_clearing_g_r8() -> None:
    realm = Realm()
    realm.act("gm", "spell define", name="Blind", type="IV", color="purple", target_type="individual", duration="day")
    realm.act("gm", "day set", day=21)
    realm.act("pat", "character create", name="Wizard", chits="MAGIC IV4", spells="Blind")
    data = realm.act("pat", "castable", spell="Blind", ritual="MAGIC IV4").data
    assert data["colors_present"] == [{"color": "purple", "source": "day 21"}]
    checks = {c["check"]: c for c in data["checks"]}
    assert checks["color"] == {"check": "color", "ok": True, "detail": "Purple magic here: day 21."}
    assert [c["check"] for c in data["checks"] if not c["ok"]] == ["in_combat"]  # only: no combat yet


def test_a_second_copy_says_how_long_the_first_lasts_l55() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Mist", type="II", color="grey", target_type="clearing", duration="day")
    realm.act("gm", "clearing set", name="Cave 1", colors="grey, purple, black")
    realm.act("pat", "character learn", spell="Mist")
    realm.act("pat", "character chit", change="add", chit="MAGIC II4")
    realm.act("pat", "character chit", change="add", chit="MAGIC II5")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("pat", "cast", spell="Mist", ritual="MAGIC II4")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="clearing")
    realm.act("gm", "resolve")
    realm.act("gm", "combat round")
    with pytest.raises(RuleError) as refused:
        realm.act("pat", "cast", spell="Mist", ritual="MAGIC II5")
    assert str(refused.value) == (
        "Wizard cannot cast Mist. This copy of Mist is already cast: #1 Mist, expires at sunset of day 14. "
        "It cannot be cast again until that spell expires."
    )
    realm.act("oz", "character learn", spell="Mist")
    checks = {c["check"]: c for c in realm.act("oz", "castable", spell="Mist", ritual="MAGIC II2").data["checks"]}
    assert checks["not_in_effect"]["ok"]
    assert "Wizard's #1 Mist: expires at sunset of day 14." in checks["not_in_effect"]["detail"]


def test_a_permanent_copy_says_it_ends_only_when_broken_or_killed_l69() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    realm.act("oz", "target", targets="Wizard")
    realm.act("gm", "resolve")
    realm.act("gm", "combat round")
    detail = {c["check"]: c for c in realm.act("oz", "castable", spell="Curse", ritual="MAGIC V4*").data["checks"]}
    assert detail["not_in_effect"]["detail"] == (
        "This copy of Curse is already cast: #1 Curse, active until midnight of day 13. It cannot be cast again "
        "until that spell ends, and a permanent spell ends only when it is broken or its caster or target is killed."
    )


def test_the_good_book_is_given_without_a_define_e1() -> None:
    realm = duel()
    realm.act("gm", "spell define", name="Bless", type="I", color="white", target_type="individual", duration="day")
    with pytest.raises(RuleError, match=r'Nobody holds The Good Book yet.*`/realm item give item:"The Good Book"'):
        realm.act("pat", "castable", spell="Bless", ritual="The Good Book")
    given = realm.act("gm", "item give", item="the good book", holder="Wizard")
    assert given.data["item"]["name"] == "The Good Book" and given.data["item"]["type"] == "I"
    assert given.card.description.startswith("A Type I Spell Book; it cannot be used to cast its Type VII spells.")
    realm.act("gm", "item define", name="The Good Book", spells="Bless")
    assert realm.state.items["the good book"].holder == "Wizard"  # the define kept who holds it


def test_an_unknown_item_lists_the_datas_book_too() -> None:
    realm = Realm()
    with pytest.raises(RuleError, match=r"There is no item 'Amulet' in this campaign\. Items: The Good Book\."):
        realm.act("gm", "item give", item=" Amulet", clearing="Cave 1")


def test_monsters_named_twice_are_told_how_to_number_them() -> None:
    realm = duel()
    with pytest.raises(RuleError) as twice:
        realm.act("gm", "combat start", clearing="Cave 1", order="Wizard", others="Goblin, goblin")
    assert str(twice.value) == (
        'goblin is named twice in `others`. Give each monster or native its own name, such as `others:"goblin 1, '
        'goblin 2"`.'
    )
    with pytest.raises(RuleError, match="Witch is a character: characters go in `order`"):
        realm.act("gm", "combat start", clearing="Cave 1", order="Wizard", others="Goblin, witch")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard", others="Goblin 1, Goblin 2")


def _replied(outcome: Outcome) -> list:
    return RULESET.reply_items(Replied(outcome, user_id=2))


def test_only_the_spell_list_carries_show_a_spell() -> None:
    realm = duel()
    (menu,) = _replied(realm.act("pat", "spell list"))
    assert "Blind" in menu.choices and menu.placeholder == "Show a spell…"
    assert _replied(realm.act("pat", "character learn", spell="Haste")) == []  # a sheet's spell names: no menu
    assert _replied(realm.act("pat", "spells")) == []  # the board's spells: no menu
