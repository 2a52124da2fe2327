"""At the console table: the book's Shaped rituals, boosts and damage, and refusals and cards in plain words.

Each test plays the commands a GM and a player would type (the `Console` fixture runs the bot's real
slash-command tree). The GM supplies the dice that matter, so every number is exact.
"""

from __future__ import annotations

import pytest

from tests.conftest import Console

GM, PAT = "Gwen", "Pat"
ASH = (
    '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
    'gnosis:3 arcana:"Forces 3, Life 3, Spirit 2, Matter 2" mana_max:15 willpower:5 health:7'
)


@pytest.fixture
async def boston(console: Console) -> Console:
    for line in (f"@as {GM}", "/campaign start ruleset:awakened name:Boston", f"@as {PAT}", ASH):
        await console.ok(line)
    return console


async def test_a_shaped_ritual_adds_its_successes_in_the_scene_and_its_potential_after(boston: Console) -> None:
    console = boston
    await console.ok('/awakened spell cast spell:Ward arcana:Forces aspect:vulgar action:ritual ritual_note:"salt"')
    await console.ok("/awakened spell ceremony spell:Ward hours:2")
    await console.ok(f"@as {GM}")
    # 5 successes (each explodes into a 1), the 4 failed dice rerolled into 1s: more than the 3 potential spent
    shaped = await console.ok('/awakened spell shape mage:Ash spell:Ward dice:"8 8 8 8 8 1 1 1 1 1 1 1 1 1 1 1 1 1"')
    assert shaped["data"]["tenacity"] == 8
    assert "Tenacity 8 until the scene ends, then 6 until the ritual ends or is Shaped again" in shaped["text"]
    contest = await console.ok("/awakened roll mode:contest mage:Ash spell:Ward successes:8")
    assert contest["data"]["spell_stands"] == 8 and contest["data"]["spell_prevails"]
    assert "#1 Ward: vulgar, cost 2, P8/T8, ritual" in (await console.ok("/awakened mage show mage:Ash"))["text"]
    await console.ok('/awakened time round dice:"1 1 1"')
    await console.ok("/awakened time scene")
    after = await console.ok("/awakened roll mode:contest mage:Ash spell:Ward successes:6")
    assert after["data"]["spell_stands"] == 6 and after["data"]["spell_prevails"]
    assert "#1 Ward: vulgar, cost 2, P3/T6, ritual" in (await console.ok("/awakened mage show mage:Ash"))["text"]


async def test_a_boosted_roll_never_fails_and_its_odds_say_so(boston: Console) -> None:
    console = boston
    await console.ok("/awakened spell cast spell:Might arcana:Forces aspect:vulgar")
    await console.ok(f"@as {GM}")
    rescued = await console.ok('/awakened roll mode:boost mage:Ash spell:Might pool:0 dice:"1"')
    assert (rescued["data"]["successes"], rescued["data"]["outcome"]) == (3, "success")
    assert "outcome" not in rescued["data"]["roll"] and "dramatic" not in rescued["text"]
    assert "chance die: [1] = **0** successes" in rescued["text"]  # the raw roll, as rolled
    assert "The boost guarantees 3 successes: **3 successes**." in rescued["text"]
    await console.ok(f"@as {PAT}")
    odds = await console.ok("/awakened odds roll:boost-vulgar dice:0")
    assert odds["data"]["success"] == "1" and odds["data"]["distribution"] == ["0", "0", "0", "1"]
    assert "The boost guarantees 3 successes: it never fails." in odds["text"]
    assert "dramatic failure" not in odds["text"]
    shaping = await console.ok("/awakened odds roll:shaping-vulgar dice:3")
    assert (shaping["data"]["pool"], shaping["data"]["again"], shaping["data"]["rote"]) == (3, 8, True)
    assert "From the pool given." in shaping["text"]


async def test_the_gm_damages_a_sleeper_without_the_mages_damage_cap(boston: Console) -> None:
    console = boston
    await console.ok(f"@as {GM}")
    mage = await console.ok("/awakened gm damage character:Ash wounds:7")
    assert (mage["data"]["capped"], mage["data"]["applied"]) == (5, 5)
    guard = await console.ok('/awakened gm damage character:"the guard" wounds:7 target:sleeper armor:1')
    assert (guard["data"]["target"], guard["data"]["applied"], guard["data"]["capped"]) == ("sleeper", 6, None)
    assert "7 wounds, no Damage Cap (it is a mage's), armor 1: **6 lethal**." in guard["text"]
    unknown = await console.fails('/awakened gm damage character:"the guard" wounds:7')
    assert "For a Sleeper or another target who is not a mage, add `target:sleeper`" in unknown["text"]
    refused = await console.fails("/awakened gm damage character:Ash wounds:7 target:other")
    assert "Ash is a mage at this table: the Damage Cap applies" in refused["text"]


async def test_gnosis_and_health_are_the_gms_with_their_consequences(boston: Console) -> None:
    console = boston
    await console.ok("/awakened spell cast spell:Veil arcana:Life aspect:covert")
    await console.ok("/awakened spell sustain spell:Veil")
    for field in ("gnosis", "health_max"):
        refused = await console.fails(f"/awakened mage set field:{field} value:10")
        assert "`field` must be one of: arcanum" in refused["text"] and "gnosis" not in refused["text"]
    assert "Gnosis 3" in (await console.ok("/awakened mage show"))["text"]
    assert (
        "needs the GM"
        in (await console.fails("/awakened gm adjust character:Ash field:gnosis value:10 reason:x"))["text"]
    )
    await console.ok(f"@as {GM}")
    zero = await console.ok('/awakened gm adjust character:Ash field:gnosis value:0 reason:"soul lost"')
    assert "Gnosis 0: a Sleepwalker (no Mana, no spells, no Mage Sight)." in zero["text"]
    shown = (await console.ok("/awakened mage show mage:Ash"))["text"]
    assert "Mana 0/0" in shown and "Mage Sight: lost" in shown and "Veil" not in shown


async def test_lost_willpower_dots_leave_the_dots_held_and_come_back_to_them(boston: Console) -> None:
    console = boston
    await console.ok(f"@as {GM}")
    lost = await console.ok("/awakened gm adjust character:Ash field:willpower_dots_lost value:2 reason:bargain")
    assert "Willpower dots held 5 → 3 of 5" in lost["text"]
    assert "Willpower 3/3 (2 dots lost)" in (await console.ok("/awakened mage show mage:Ash"))["text"]
    regained = await console.ok('/awakened gm roll roll:willpower-dot character:Ash dice:"8 1 1"')
    assert regained["data"]["willpower_dots"] == 4
    await console.ok('/awakened gm roll roll:willpower-dot character:Ash dice:"8 1 1"')
    refused = await console.fails('/awakened gm roll roll:willpower-dot character:Ash dice:"8 1 1"')
    assert "no lost Willpower dots" in refused["text"]
    shown = (await console.ok("/awakened mage show mage:Ash"))["text"]
    assert "Willpower 3/5" in shown and "lost" not in shown  # back to the 5 dots it had, not past them
    too_many = await console.fails("/awakened gm adjust character:Ash field:willpower value:6 reason:x")
    assert "Willpower can't exceed Ash's 5 Willpower dots" in too_many["text"]


async def test_refusals_and_cards_say_what_really_works(boston: Console) -> None:
    console = boston
    await console.ok(f"@as {GM}")
    await console.ok(
        '/awakened mage create name:Bo path:Thyrsus ruling:"Life, Spirit" inferior:Matter '
        'resistance:composure gnosis:1 arcana:"Matter 2, Life 1" mana_max:10 high_speech:true wisdom:3'
    )
    await console.ok("/awakened spell cast mage:Bo spell:Bend arcana:Matter aspect:covert")
    shaping = await console.fails("/awakened spell shape mage:Bo spell:Bend")  # inferior: 3 Mana, Gnosis 1
    assert "Add 2 more free Mana: Words of Power (`words_of_power`, up to 1, 1 Willpower each)" in shaping["text"]
    assert "Hallow" not in shaping["text"] and "reduce" not in shaping["text"]
    await console.ok(f"@as {PAT}")
    await console.ok("/awakened spell cast spell:Veil arcana:Life aspect:covert")
    await console.ok("/awakened spell cast spell:Ward arcana:Forces aspect:covert action:ritual ritual_note:salt")
    await console.ok(f"@as {GM}")
    await console.ok("/awakened time round")
    await console.ok(f"@as {PAT}")
    late = await console.fails("/awakened spell shape spell:Veil")
    assert "Refresh it this turn for its full cost, 1 Mana (`/awakened spell refresh spell:#2`)" in late["text"]
    veil = await console.ok("/awakened spell refresh spell:Veil")
    assert "Open this turn (scene 1, round 2): Shape it before the round ends." in veil["text"]
    await console.ok("/awakened spell shape spell:Ward")
    ward = await console.ok('/awakened spell refresh spell:Ward ritual_note:"more salt"')
    assert "A ritual's Shaping has no window" in ward["text"] and "Open this turn" not in ward["text"]
    await console.ok(f"@as {GM}")
    lengthen = await console.ok("/awakened gm paradox mode:lengthen kind:Anomaly character:Bo")
    assert "Bo (Wisdom 3: paradoxes up to an Aurora) may not inadvertently lengthen an Anomaly." in lengthen["text"]
    await console.ok("/awakened spell cast mage:Bo spell:Glimpse arcana:Life aspect:sensory area:1")
    boosted = await console.ok('/awakened roll mode:boost mage:Bo spell:Glimpse pool:1 dice:"3"')
    assert "1 die, 10-again: [3] = **0** successes" in boosted["text"]
    assert "The boost guarantees 1 success: **1 success**." in boosted["text"]
