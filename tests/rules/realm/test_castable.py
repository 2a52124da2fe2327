"""`castable`: every check of the lifecycle, each failing alone, and nothing changed by asking (issue 10)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.base import RuleError
from tests.rules.realm.helpers import Realm, duel

ALL_CHECKS = [
    "in_combat", "not_charged", "no_action", "spell_defined", "spell_known", "not_in_effect", "ritual_type",
    "ritual_free", "color", "speed", "effort",
]  # fmt: skip


def _in_combat(realm: Realm) -> Realm:
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    return realm


def failing(realm: Realm, spell: str = "Blind", ritual: str = "MAGIC IV4", **extra: str) -> dict[str, str]:
    before = realm.dump()
    data = realm.act("pat", "castable", spell=spell, ritual=ritual, **extra).data
    assert realm.dump() == before  # asking changes nothing
    return {c["check"]: c["detail"] for c in data["checks"] if not c["ok"]}


def test_the_baseline_passes_every_check() -> None:
    realm = _in_combat(duel())
    data = realm.act("pat", "castable", spell="Blind", ritual="MAGIC IV4").data
    assert data["castable"] and data["speed"] == 4
    assert [c["check"] for c in data["checks"]] == ALL_CHECKS and all(c["ok"] for c in data["checks"])
    assert data["colors_present"] == [
        {"color": "purple", "source": "clearing Cave 1"},
        {"color": "black", "source": "clearing Cave 1"},
    ]


def _no_combat(realm: Realm) -> dict:
    return failing(realm)


def _charged(realm: Realm) -> dict:
    _in_combat(realm).act("pat", "combat charge", at="Witch", chit="MOVE M4*")
    return failing(realm)


def _acted(realm: Realm) -> dict:
    _in_combat(realm).act("pat", "combat action", kind="alert", chit="FIGHT L4")
    return failing(realm)


def _undefined(realm: Realm) -> dict:
    realm.act("gm", "spell define", name="Dazzle", type="IV", color="purple")
    realm.act("pat", "character learn", spell="Dazzle")
    return failing(_in_combat(realm), spell="Dazzle")


def _unknown(realm: Realm) -> dict:
    realm.act("gm", "spell define", name="Gleam", type="IV", color="purple", duration="combat")
    return failing(_in_combat(realm), spell="Gleam")


def _in_effect(realm: Realm) -> dict:
    _in_combat(realm)
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("gm", "resolve")
    realm.act("gm", "combat round")
    return failing(realm, ritual="MAGIC IV4*")


def _wrong_type(realm: Realm) -> dict:
    return failing(_in_combat(realm), ritual="MAGIC V5")


def _fight_chit(realm: Realm) -> dict:
    return failing(_in_combat(realm), ritual="FIGHT L4")


def _fatigued(realm: Realm) -> dict:
    realm.act("gm", "character chit", character="Wizard", change="fatigue", chit="MAGIC IV4")
    return failing(_in_combat(realm))


def _enchanted(realm: Realm) -> dict:
    realm.act("pat", "enchant", chit="MAGIC IV4")
    return failing(_in_combat(realm))


def _no_color(realm: Realm) -> dict:
    realm.act("gm", "clearing set", name="Cave 1", colors="none")
    return failing(_in_combat(realm))


def _not_a_color_chit(realm: Realm) -> dict:
    return failing(_in_combat(realm), color_chit="MAGIC IV4*")


def _too_slow(realm: Realm) -> dict:
    _in_combat(realm).act("gm", "combat sheet", character="Wizard", move_times="5, 3")
    return failing(realm)


def _too_much_effort(realm: Realm) -> dict:
    realm.table.settings.effort_limit = 1
    return failing(_in_combat(realm), ritual="MAGIC IV3**")


@pytest.mark.parametrize(
    ("setup", "check", "says"),
    [
        (_no_combat, "in_combat", "Spells are cast only in rounds of combat;"),
        (_charged, "not_charged", "Wizard charged Witch"),
        (_acted, "no_action", "alerted a weapon this round"),
        (_undefined, "spell_defined", "Dazzle has no duration yet, so it cannot be cast until the GM sets it"),
        (_unknown, "spell_known", "Wizard does not know Gleam"),
        (_in_effect, "not_in_effect", "already cast: #1 Blind, expires at the end of combat in Cave 1 (day 13)."),
        (_wrong_type, "ritual_type", "MAGIC V5 is type V; Blind is type IV"),
        (_fight_chit, "ritual_type", "FIGHT L4 is a Fight chit"),
        (_fatigued, "ritual_free", "MAGIC IV4 is fatigued"),
        (_enchanted, "ritual_free", "enchanted into purple color magic, which is not a ritual."),
        (_no_color, "color", "No purple magic here"),
        (_not_a_color_chit, "color_chit", "MAGIC IV4* is not a color chit"),
        (_too_slow, "speed", "Speed 4 is slower than 3"),
        (_too_much_effort, "effort", "MAGIC IV3** has 2 effort asterisks: 2 in all, over the limit of 1 a round."),
    ],
)
def test_each_check_fails_alone(setup: Callable[[Realm], dict], check: str, says: str) -> None:
    failed = setup(duel())
    assert list(failed) == [check], failed
    assert says in failed[check], failed[check]


def test_an_unset_attack_spell_says_exactly_why() -> None:
    realm = _in_combat(duel())
    failed = failing(realm, spell="Fiery Blast")
    assert failed["spell_defined"] == (
        "Fiery Blast has no type and no color yet, so it cannot be cast until the GM sets them with "
        "`/realm spell define`."
    )


def test_equal_speed_casts_but_cannot_run_or_alert_e2() -> None:
    realm = _in_combat(duel())
    realm.act("gm", "combat sheet", character="Wizard", move_times="4")
    assert failing(realm) == {}  # MAGIC IV4 against move time 4: castable
    with pytest.raises(RuleError, match="must be faster than 4"):
        realm.act("pat", "combat action", kind="run", chit="MOVE M4*")
    with pytest.raises(RuleError, match="must be faster than 4"):
        realm.act("pat", "combat action", kind="alert", chit="FIGHT L4")
    realm.act("pat", "combat action", kind="alert", chit="FIGHT M3*")  # 3 < 4


def test_a_charger_limits_the_charged_caster_only() -> None:
    realm = _in_combat(duel())
    realm.act("oz", "combat charge", at="Wizard", chit="MOVE L3")
    assert "speed" in failing(realm)  # MAGIC IV4 (4) against the Witch's charging MOVE L3
    assert failing(realm, ritual="MAGIC IV3**") == {}
    with pytest.raises(RuleError, match="no action after a charge"):
        realm.act("oz", "cast", spell="Haste", ritual="MAGIC II2")


def test_the_good_book_e1() -> None:
    realm = duel()
    realm.act(
        "gm", "spell define", name="Bless", type="I", color="purple", target_type="individual", duration="instant"
    )
    realm.act(
        "gm", "spell define", name="Miracle", type="VII", color="purple", target_type="individual", duration="day"
    )
    realm.act("gm", "item define", name="The Good Book", spells="Bless, Miracle", holder="Wizard")
    _in_combat(realm)
    miracle = failing(realm, spell="Miracle", ritual="The Good Book")
    assert miracle == {"ritual_type": "The Book The Good Book is type I; Miracle is type VII (a book casts only "
                       "spells of its own type)."}  # fmt: skip
    bless = realm.act("pat", "castable", spell="Bless", ritual="The Good Book").data
    assert bless["castable"] and bless["speed"] == 0
    realm.act("pat", "cast", spell="Bless", ritual="The Good Book")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("gm", "resolve")
    assert realm.state.items["the good book"].committed_to is None  # instant: expired, the book is free
    realm.act("gm", "combat round")
    used = failing(realm, spell="Bless", ritual="The Good Book")
    assert used == {"ritual_free": "The Good Book already cast a spell today: one spell per day."}


def test_cast_refuses_with_every_failed_check_and_changes_nothing() -> None:
    realm = duel()
    before = realm.dump()
    with pytest.raises(RuleError) as refused:
        realm.act("pat", "cast", spell="Blind", ritual="MAGIC V5")
    said = str(refused.value)  # every failed check in plain words, never the checks' internal names
    assert "Spells are cast only in rounds of combat" in said and "MAGIC V5 is type V; Blind is type IV" in said
    assert "in_combat" not in said and "ritual_type" not in said
    assert realm.dump() == before


def test_a_color_chit_is_its_owners_only_e10() -> None:
    realm = duel()
    realm.act("oz", "enchant", chit="MAGIC IV2")
    _in_combat(realm)
    with pytest.raises(RuleError, match="can use only their own color chits"):
        realm.act("pat", "castable", spell="Blind", ritual="MAGIC IV4", color_chit="MAGIC IV2")
