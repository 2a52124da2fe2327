"""/character show hides a mage's secrets from other players; scrutiny goes to the GM; autocomplete."""

from __future__ import annotations

from tests.conftest import Console
from tests.support.discord_harness import choices


async def _campaign(console: Console) -> None:
    await console.ok("/campaign start ruleset:awakened name:Boston")
    await console.ok("@as Pat")
    await console.ok(
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter '
        'resistance:composure gnosis:3 arcana:"Forces 3, Life 3, Time 2" mana_max:15'
    )
    await console.ok("/awakened sympathy subject:Mara level:known")
    await console.ok("/awakened soulstone mode:create")
    await console.ok("/awakened soulstone mode:give stone:1 holder:Theo")
    await console.ok("/awakened spell cast mode:contingency spell:Flash arcana:Forces aspect:vulgar")
    await console.ok("/awakened scrutinize subject:knife")


async def test_a_mages_secrets_stay_with_its_owner_and_the_gm(console: Console) -> None:
    await _campaign(console)
    own = await console.ok("/character show name:Ash")
    assert own["data"]["sheet"]["connections"]["mara"]["level"] == 2
    assert own["data"]["sheet"]["stones"][0]["holder"] == "Theo" and "Contingency: Flash" in own["text"]
    await console.ok("@gm")
    gm = await console.ok("/character show name:Ash")
    assert gm["data"]["sheet"]["contingency"]["name"] == "Flash"
    await console.ok("@as Oz")
    other = await console.ok('/character show name:" ash "')
    sheet = other["data"]["sheet"]
    assert sheet["connections"] is None and sheet["contingency"] is None and sheet["scrutiny"] is None
    assert sheet["stones"] == [{"id": 1, "holder": None, "destroyed": False}]
    assert "Mara" not in other["text"] and "Theo" not in other["text"] and "Flash" not in other["text"]
    assert "Soul stones: 1" in other["text"] and sheet["mana"] == 14


async def test_scrutiny_goes_to_the_gm(console: Console) -> None:
    await _campaign(console)
    result = await console.ok("/awakened scrutinize subject:knife increment:hour")
    assert result["data"]["secret"] and "gm" not in result["data"] and result["secret"]["to"]
    assert "successes" in result["secret"]["data"]["gm"]  # the roll is the GM's alone
    assert "successes" not in result["text"] and "Edge +1" in result["text"]


async def test_autocomplete_offers_the_campaigns_names(console: Console) -> None:
    await _campaign(console)
    await console.ok("/awakened spell cast spell:Veil arcana:Life aspect:covert")
    await console.ok("/awakened spell cast mode:rote spell:Ward arcana:Life aspect:covert")
    table = console.table

    assert await choices(table, "Pat", "awakened spell sustain", "spell") == ["#1 Veil"]
    assert await choices(table, "Pat", "awakened spell cast", "spell") == ["Ward"]
    assert "Forces" in await choices(table, "Pat", "awakened spell cast", "arcana", "For", spell="X")
    assert await choices(table, "Pat", "awakened spell cast", "connection", spell="X") == ["mara"]
    assert await choices(table, "Pat", "awakened scrutinize", "subject") == ["knife"]
