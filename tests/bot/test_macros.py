"""/macro and several rolls at once: saved rolls, mine or a campaign's, with every die shown (issue 15)."""

from __future__ import annotations

from tests.conftest import Console


async def test_several_expressions_with_a_comment_roll_together(console: Console) -> None:
    rolled = await console.ok('/roll expression:"3d6; 1d20+4 # ambush"')
    data = rolled["data"]
    assert data["label"] == "ambush" and len(data["rolls"]) == 2
    assert data["totals"] == [r["total"] for r in data["rolls"]]
    assert len(data["rolls"][0]["dice"]) == 3 and data["rolls"][1]["total"] == data["rolls"][1]["dice"][0] + 4
    assert (await console.ok("/roll expression:2d6"))["data"]["expression"] == "2d6"  # one expression as before
    refused = await console.fails('/roll expression:"3d6;;1d4"')
    assert "Separate expressions" in refused["text"]


async def test_my_macro_rolls_anywhere_and_only_i_see_it(console: Console) -> None:
    await console.ok("@as Pat")
    saved = await console.ok('/macro save name:attack expression:"1d20+5; 2d6+3 # longsword"')
    assert saved["ephemeral"] and saved["data"]["replaced"] is False
    rolled = await console.ok("/macro roll name:Attack")
    assert rolled["data"]["macro"] == "attack" and len(rolled["data"]["rolls"]) == 2
    await console.ok("@channel 9999")
    assert (await console.ok("/macro roll name:attack"))["ok"]  # everywhere
    await console.ok("@as Oz")
    assert "no macro named" in (await console.fails("/macro roll name:attack"))["text"]
    replaced = await console.ok("@as Pat") and await console.ok("/macro save name:attack expression:1d20+6")
    assert replaced["data"]["replaced"] is True


async def test_a_broken_macro_is_refused_when_saved(console: Console) -> None:
    refused = await console.fails('/macro save name:oops expression:"3d6 +"')
    assert "is not a dice expression I can read" in refused["text"]
    assert (await console.ok("/macro list"))["data"]["mine"] == []


async def test_a_campaign_macro_is_shared_and_only_its_author_or_a_gm_deletes_it(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/macro save name:init expression:1d20 scope:campaign")
    await console.ok("@as Oz")
    assert (await console.ok("/macro roll name:init"))["data"]["macro"] == "init"
    assert "saved by another member" in (await console.fails("/macro delete name:init"))["text"]
    log = await console.ok("@as Gwen") and await console.ok("/campaign log")
    assert any(e["command"] == "macro roll" for e in log["data"]["events"])
    assert (await console.ok("/macro delete name:init"))["data"] == {"deleted": "init"}


async def test_a_secret_macro_roll_goes_to_the_gm(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/macro save name:sneak expression:3d6")
    hidden = await console.ok("/macro roll name:sneak secret:true")
    assert hidden["data"] == {"secret": True} and "went to the GM" in hidden["text"]
    assert "3d6" in hidden["secret"]["text"]


async def test_a_campaign_macro_needs_a_campaign(console: Console) -> None:
    refused = await console.fails("/macro save name:init expression:1d20 scope:campaign")
    assert "no campaign here" in refused["text"]
