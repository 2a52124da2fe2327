"""A list beats typing (issue 15): the spell list carries Show a spell…, for whoever listed the spells."""

from __future__ import annotations

from bot.cli.virtual import VirtualUser
from tests.conftest import Console


async def test_the_spell_list_offers_each_spell_and_a_pick_shows_it(console: Console) -> None:
    for line in (
        "@as Gwen",
        "/campaign start ruleset:realm name:Valley",
        '/realm spell import format:csv text:"name,type,color,target_type,duration; Curse,V,black,individual,'
        'permanent; Blind,IV,purple,individual,combat"',
        "@as Pat",
    ):
        await console.ok(line)
    listed = await console.ok("/realm spell list")
    assert "[select: Show a spell… Blind | Curse | Fiery Blast" in listed["text"]  # the imported and the built-in
    shown = await console.ok("@pick Curse")
    assert shown["data"]["spell"]["name"] == "Curse" and shown["ephemeral"]
    await console.ok("@as Oz")
    refused = await console.fails("@pick Blind")  # Pat's list: Oz lists them himself
    assert "belongs to whoever ran the command" in refused["text"]
    table = console.table
    message = table.last_with_select
    assert message is not None
    (menu,) = message.selects()
    interaction, sent = await table.virtual.select(VirtualUser("Pat"), message, menu, ["Blind"])
    assert table._result("@pick Blind", interaction, sent).data["spell"]["name"] == "Blind"
