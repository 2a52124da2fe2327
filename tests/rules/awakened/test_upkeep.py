"""The other rolls and resources: oblation (M11), sacrifice (M10, W7), soul stones (M14), soul loss (M7),
Willpower dots (M8), the crisis (M9), scrutiny and resonance (M12, M13, W8), Mage Sight and the Damage Cap."""

from __future__ import annotations

import pytest

from rules.awakened import RULESET
from rules.awakened.common import mana_max
from rules.awakened.sheet import AwakenedSettings
from rules.base import NeedsGMError, RuleError
from tests.rules.awakened.conftest import ASH, Game


def test_oblation_without_a_legacy_needs_a_hallow(game: Game) -> None:
    sheet = game.mage(mana_max=20)
    sheet.mana = 5
    with pytest.raises(RuleError, match="only be performed in a Hallow"):
        game.act("oblation")
    game.gm("gm hallow", name="Grove", rating=2, potential=1)
    out = game.act("oblation", hallow="Grove", rolls=[8, 9, 1, 2])  # pool: the higher of Gnosis 3, Composure 4
    assert out.data["pool"] == 4 and out.data["earned"] == 2 + 3 + 2  # successes + three + rating (P-G26)
    assert sheet.mana == 12 and game.state.hallows["grove"].potential == 0
    with pytest.raises(RuleError, match="today's oblation already"):
        game.act("oblation", hallow="Grove")
    game.gm("time day")
    with pytest.raises(RuleError, match="no potential Mana left"):
        game.act("oblation", hallow="Grove")


def test_oblation_bonus_house_rule_and_the_cap(book) -> None:
    game = Game(book, AwakenedSettings(hallow_oblation_bonus="rating"))
    sheet = game.mage(mana_max=10)
    sheet.mana = 9
    game.gm("gm hallow", name="Grove", rating=3)
    out = game.act("oblation", hallow="Grove", rolls=[8, 1, 1, 1])
    assert out.data["earned"] == 1 + 3 and (out.data["gained"], out.data["lost"]) == (1, 3)  # capped (P-G31)


def test_legacy_oblation_anywhere_with_gnosis_past_five(game: Game) -> None:
    sheet = game.mage(gnosis=7, attributes="Presence 2, Composure 3", skills="Occult 3")
    game.act("mage legacy", name="Tamers of Storms", oblation_traits="Presence, Occult")
    sheet.mana = 0
    game.gm("gm hallow", name="Grove", rating=2)
    with pytest.raises(RuleError, match="never benefits from a Hallow"):
        game.act("oblation", hallow="Grove")
    out = game.act("oblation", rolls=[1] * 7)  # 2 + 3 + (7 - 5)
    assert out.data["pool"] == 7 and out.data["earned"] == 3 and sheet.mana == 3


def test_a_successful_oblation_returns_a_lost_gnosis_dot(game: Game) -> None:
    sheet = game.mage()
    game.gm("gm adjust", character="Ash", field="gnosis_lost", value=1, reason="soul returned")
    game.gm("gm hallow", name="Grove", rating=1)
    out = game.act("oblation", hallow="Grove", rolls=[8, 1, 1, 1])
    assert out.data["gnosis_regained"] and (sheet.gnosis, sheet.gnosis_lost) == (4, 0)


@pytest.mark.parametrize(("size", "mana"), [("small", 1), ("large", 2), ("huge", 3)])
def test_w7_sacrifice_by_size_once_a_day(game: Game, size: str, mana: int) -> None:
    sheet = game.mage()
    sheet.mana = 0
    assert game.act("sacrifice", size=size).data["gained"] == mana
    assert game.act("sacrifice", size=size).data["gained"] == 0  # size Mana only once per day
    game.gm("time day")
    assert game.act("sacrifice", size=size).data["gained"] == mana


def test_a_sapient_sacrifice_adds_three_per_success(game: Game) -> None:
    sheet = game.mage()
    sheet.mana = 0
    out = game.act("sacrifice", size="huge", sapient=True, morality=2, victim_willpower=True, rolls=[8, 10, 3, 1, 2, 1])
    assert (out.data["size_mana"], out.data["extra"], sheet.mana) == (3, 6, 9)
    dramatic = game.act("sacrifice", size="huge", sapient=True, morality=0, rolls=[1])  # a chance die's 1
    assert dramatic.data["extra"] == 0 and dramatic.data["roll"]["outcome"] == "dramatic_failure"


@pytest.mark.parametrize(("stones", "penalty"), [(1, 1), (2, 3), (3, 6)])
def test_soul_stones_lower_maximum_mana(game: Game, book, stones: int, penalty: int) -> None:
    sheet = game.mage(gnosis=6, mana_max=20)
    for _ in range(stones):
        game.act("soulstone", mode="create")
    assert mana_max(sheet, book) == 20 - penalty == 20 - stones * (stones + 1) // 2
    with pytest.raises(RuleError, match="the limit is 3"):  # the lesser of Wisdom max 5 and ceil(6 / 2)
        for _ in range(4 - stones):
            game.act("soulstone", mode="create")


def test_soul_stone_reintegration_and_destruction(game: Game, book) -> None:
    sheet = game.mage(mana_max=15)
    game.act("soulstone", mode="create")
    assert (sheet.mana, sheet.willpower, mana_max(sheet, book)) == (14, 4, 14)
    game.act("soulstone", mode="give", stone=1, holder="Mara")
    with pytest.raises(RuleError, match="held by Mara"):
        game.act("soulstone", mode="reintegrate", stone=1)
    game.act("soulstone", mode="give", stone=1)
    game.act("soulstone", mode="reintegrate", stone=1)
    assert (sheet.mana, sheet.willpower_dots, mana_max(sheet, book), sheet.stones) == (11, 4, 15, [])
    game.act("soulstone", mode="create")
    with pytest.raises(NeedsGMError):
        game.act("soulstone", mode="destroyed", stone=1)
    game.gm("soulstone", mage="Ash", mode="destroyed", stone=1)
    assert (sheet.wisdom_max, sheet.wisdom, mana_max(sheet, book)) == (4, 4, 15)
    game.gm("soulstone", mage="Ash", mode="repaired", stone=1)
    assert sheet.wisdom_max == 5


def test_soul_loss_daily_weekly_and_gnosis_zero(game: Game) -> None:
    sheet = game.mage(gnosis=2)
    game.gm("gm adjust", character="Ash", field="soul_lost", value=1, reason="soul stolen")
    game.act("spell cast", spell="Keep", arcana="Forces", aspect="covert")
    game.act("spell sustain", spell="Keep")
    out = game.gm("time day", rolls=[9, 1])
    assert sheet.gnosis == 1 and sheet.gnosis_lost == 1 and len(out.data["rolls"]) == 1
    out = game.gm("time day", days=5)  # Gnosis 1: only once per week, at the end of day 7
    assert out.data["rolls"] == []
    game.gm("time day", rolls=[10, 3])  # day 7 ends: the weekly roll, 10 explodes into 3
    assert (sheet.gnosis, sheet.mana, sheet.spells, sheet.sight) == (0, 0, [], "lost")
    assert game.gm("time day", days=7).data["rolls"] == []  # at 0 no more rolls


def test_willpower_dot_monthly_without_willpower(game: Game) -> None:
    sheet = game.mage()  # 5 dots
    game.gm("gm adjust", character="Ash", field="willpower_dots_lost", value=1, reason="sacrificed a dot")
    assert (sheet.willpower_dots, sheet.willpower_dots_lost, sheet.willpower) == (4, 1, 4)
    game.gm("time day", days=29)
    out = game.gm("time day", rolls=[1, 1, 8])  # day 31: a new month, Gnosis 3 dice
    assert out.data["rolls"][0]["kind"] == "willpower_dot" and sheet.willpower_dots == 5  # back to the 5, not past
    with pytest.raises(RuleError, match="no lost Willpower dots"):
        game.gm("gm roll", roll="willpower-dot", character="Ash")
    game.gm("gm adjust", character="Ash", field="willpower_dots_lost", value=1, reason="again")
    by_hand = game.gm("gm roll", roll="willpower-dot", character="Ash", edge=2, dice="1 1 1 1 1")
    assert by_hand.data["roll"]["pool"] == 5 and sheet.willpower_dots == 4


def test_willpower_and_health_adjust_within_their_bounds(game: Game) -> None:
    """Points never exceed the dots held; dots held and lost add up to what the mage had (l.32)."""
    sheet = game.mage()  # 5 dots, 5 points, Health 7
    out = game.gm("gm adjust", character="Ash", field="willpower_dots_lost", value=2, reason="a dark bargain")
    assert (out.data["before"], out.data["after"]) == (0, 2)
    assert (sheet.willpower_dots, sheet.willpower_dots_lost, sheet.willpower) == (3, 2, 3)
    assert "Willpower 3/3" in str(RULESET.board(game.table))  # the dots held, not less the lost ones again
    notes = out.card.fields[0].value
    assert "Willpower dots held 5 → 3 of 5" in notes and "Willpower points 5 → 3" in notes
    with pytest.raises(RuleError, match=r"5 Willpower dots in all \(3 held, 2 lost\): at most 5 can be lost"):
        game.gm("gm adjust", character="Ash", field="willpower_dots_lost", value=6, reason="too many")
    game.gm("gm adjust", character="Ash", field="willpower_dots_lost", value=1, reason="one came back")
    assert (sheet.willpower_dots, sheet.willpower_dots_lost) == (4, 1)
    with pytest.raises(RuleError, match="Willpower can't exceed Ash's 4 Willpower dots"):
        game.gm("gm adjust", character="Ash", field="willpower", value=5, reason="too many")
    with pytest.raises(RuleError, match="give at most 9"):
        game.gm("gm adjust", character="Ash", field="willpower_dots", value=10, reason="too many")
    game.gm("gm adjust", character="Ash", field="willpower_dots", value=2, reason="spent on a stone")
    assert (sheet.willpower_dots, sheet.willpower) == (2, 2)
    game.gm("gm damage", character="Ash", wounds=3)
    with pytest.raises(RuleError, match="3 wounds marked: Health can't go below that"):
        game.gm("gm adjust", character="Ash", field="health_max", value=2, reason="too low")
    game.gm("gm adjust", character="Ash", field="health_max", value=9, reason="grew tougher")
    assert sheet.health_max == 9


def test_crisis_degenerates_when_failures_reach_the_pool(game: Game) -> None:
    sheet = game.mage()
    with pytest.raises(NeedsGMError):
        game.act("crisis", mode="start", pool=2)
    game.gm("crisis", mage="Ash", mode="start", pool=2)
    game.act("crisis", mode="roll", rolls=[1, 2])
    assert (sheet.crisis.failures, sheet.willpower, sheet.wisdom) == (1, 4, 5)
    game.act("crisis", mode="roll", rolls=[9, 1])
    assert sheet.crisis.successes == 1
    game.gm("crisis", mage="Ash", mode="replace", pool=3)  # a new sin: failures carry over
    assert sheet.crisis.failures == 1 and sheet.crisis.pool == 3
    game.act("crisis", mode="roll", rolls=[1, 1, 1])
    assert sheet.crisis.failures == 2 and sheet.willpower == 3
    out = game.act("crisis", mode="roll", rolls=[1, 1, 1])  # 3 failures >= pool 3
    assert out.data["degenerated"] and sheet.crisis is None and (sheet.wisdom, sheet.willpower) == (4, 4)


def test_w8_scrutiny_edge_schedule_and_resonance(game: Game) -> None:
    game.mage()
    edges = []
    for increment in ("minute", "hour", "two_hours", "half_day", "day", "day", "day"):
        out = game.act("scrutinize", subject="the knife", increment=increment, rolls=[1] * (6 + min(5, len(edges))))
        edges.append(out.data["edge"])
    assert edges == [0, 1, 2, 3, 4, 5, 5]
    assert out.secret is not None and out.data["secret"] and "roll" not in out.data
    assert "Resonance: not counted" in out.secret.description  # a second roll in the same "day" increment
    first = game.act("scrutinize", subject="a ghost", rolls=[8, 8, 9, 1, 1, 1])
    assert "gm" not in first.data  # the player's data holds nothing of the roll
    assert first.secret_data["gm"]["successes"] == 3 and first.secret_data["gm"]["resonance"].startswith("Known")
    assert "3 thing" not in first.card.description  # the channel never sees the result
    other_source = game.act("scrutinize", subject="a ghost", via="Ghost Sight", rolls=[1] * 6)
    assert other_source.data["edge"] == 0  # a different Knowing spell starts again (P-G24)


def test_scrutiny_skills_and_minor_action(game: Game) -> None:
    game.mage()
    with pytest.raises(RuleError, match="may scrutinize with Occult"):
        game.act("scrutinize", subject="x", skill="Brawl")
    with pytest.raises(RuleError, match="needs a Knowing spell"):
        game.act("scrutinize", subject="x", minor=True)
    out = game.act("scrutinize", subject="x", via="Read Lies", minor=True)
    assert out.secret is not None and "1 automatic success" in out.secret.description


@pytest.mark.parametrize(("age", "need"), [(0, 2), (6, 2), (7, 3), (29, 3), (30, 4), (364, 4), (365, 5), (5000, 5)])
def test_aftereffect_resonance_fades(game: Game, age: int, need: int) -> None:
    assert game.act("resonance", age_days=age).data["successes_needed"] == need


def test_aftereffect_after_a_year_house_rule(book) -> None:
    game = Game(book, AwakenedSettings(aftereffect_after_year="unknown"))
    assert game.act("resonance", age_days=365).data["successes_needed"] is None


def test_mage_sight_suppression_costs_one_willpower_a_scene(game: Game) -> None:
    sheet = game.mage()
    game.act("sight", mode="suppress")
    game.act("sight", mode="reactivate")
    game.act("sight", mode="suppress")
    assert sheet.willpower == 4
    game.gm("time scene")
    assert sheet.sight == "on"
    game.act("sight", mode="suppress")
    assert sheet.willpower == 3


def test_damage_cap_before_armor(game: Game) -> None:
    sheet = game.mage(health=10)
    game.gm("gm adjust", character="Ash", field="mana", value=10, reason="x")
    out = game.gm("gm damage", character="Ash", wounds=8, kind="lethal", armor=1)
    assert (out.data["capped"], out.data["applied"]) == (5, 4) and len(sheet.wounds) == 4
    with pytest.raises(NeedsGMError):
        game.act("gm damage", character="Ash", wounds=1)
    _ = ASH


def test_a_sleeper_or_other_target_takes_every_wound(game: Game) -> None:
    """The Damage Cap is a mage's (l.22): a target who is not a mage takes all the wounds, less armor."""
    game.mage()
    out = game.gm("gm damage", character="the guard", wounds=8, kind="lethal", armor=1, target="sleeper")
    assert out.data == {"character": "the guard", "target": "sleeper", "capped": None, "applied": 7, "wounds": None}
    assert "8 wounds, no Damage Cap (it is a mage's), armor 1: **7 lethal**." in out.card.description
    other = game.gm("gm damage", character="a hound", wounds=1, kind="aggravated", target="other")
    assert other.data["applied"] == 1 and "1 wound," in other.card.description
    with pytest.raises(RuleError, match="Ash is a mage at this table: the Damage Cap applies"):
        game.gm("gm damage", character="Ash", wounds=8, target="sleeper")
    with pytest.raises(RuleError, match="add `target:sleeper` or `target:other`"):
        game.gm("gm damage", character="the guard", wounds=8)
    with pytest.raises(NeedsGMError):
        game.act("gm damage", character="the guard", wounds=1, target="sleeper")
    assert game.sheet().wounds == []


def test_attainments_define_shape_and_limits(game: Game) -> None:
    sheet = game.mage(attributes="Presence 2, Wits 3", arcana="Fate 2, Mind 1, Forces 3")
    with pytest.raises(NeedsGMError):
        game.act("attainment", mode="define", name="Luck")
    with pytest.raises(RuleError, match="lacks the Arcana this Attainment needs: Fate 3"):
        game.gm("attainment", mage="Ash", mode="define", name="Luck", prerequisites="Fate 3")
    game.gm(
        "attainment",
        mage="Ash",
        mode="define",
        name="Luck",
        prerequisites="Fate 2, Mind 1",
        pool="Presence, Wits",
        mana=1,
        limit="scene",
    )
    out = game.act("attainment", mode="shape", name="luck", rolls=[8, 1, 1, 1, 1, 2, 3, 4, 5])
    assert out.data["roll"]["rote"] and out.data["roll"]["pool"] == 5 and out.data["potency"] == 2
    assert sheet.mana == 14 and sheet.attainments[0].shaped == 1
    with pytest.raises(RuleError, match="once per scene"):
        game.act("attainment", mode="use", name="Luck")
    assert "Ash: Luck: Potency and Tenacity back to 1" in game.gm("time round").data["lapsed"]
    game.gm("time scene")
    game.act("attainment", mode="use", name="Luck")
    assert game.state.paradox_pool == [] and sheet.mana == 13
