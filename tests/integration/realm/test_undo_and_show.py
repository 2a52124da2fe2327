"""`/campaign undo` reverts realm actions exactly; `/character show` hides what only owner and GM may see."""

from __future__ import annotations

from tests.conftest import Console

SETUP = [
    "@as Gwen",
    "/campaign start ruleset:realm name:Valley",
    '/realm spell import format:csv text:"name,type,color,target_type,duration; Curse,V,black,individual,permanent"',
    '/realm clearing set name:"Cave 1" colors:black',
    "@as Pat",
    '/realm character create name:Wizard chits:"MAGIC V4, MAGIC V3*" spells:Curse location:"Cave 1"',
    "@as Oz",
    '/realm character create name:Witch chits:"MAGIC IV2" location:"Cave 1"',
]


async def stored(console: Console) -> tuple:
    table = console.table
    store = table.bot.service.store
    row = await store.campaign(table.virtual.guild_id, table.virtual.channel_id)
    characters = await store.characters(row.id)
    return row.state, {c.name: c.sheet for c in characters}


async def test_undo_reverts_each_step(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    await console.ok("@as Gwen")
    steps = [
        ("Gwen", '/realm combat start clearing:"Cave 1" order:"Wizard, Witch"'),
        ("Pat", '/realm cast spell:Curse ritual:"MAGIC V4"'),
        ("Gwen", "/realm combat melee"),
        ("Pat", "/realm target targets:Witch"),
        ("Gwen", "/realm resolve"),
        ("Gwen", "/realm combat end"),
        ("Gwen", "/realm day next"),
    ]
    snapshots = [await stored(console)]
    for user, line in steps:
        await console.ok(f"@as {user}")
        await console.ok(line)
        snapshots.append(await stored(console))
    assert snapshots[-1] != snapshots[0]
    await console.ok("@as Gwen")
    for expected in reversed(snapshots[:-1]):
        await console.undo()
        assert await stored(console) == expected
    # the castable question is never logged and changes nothing
    log = await console.ok("/campaign log")
    assert not any(e["command"] == "realm castable" for e in log["data"]["events"])


async def test_character_show_hides_hidden_status_from_other_players(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    await console.ok("@as Gwen")
    await console.ok("/realm character set character:Wizard hidden:true")
    await console.ok("@as Oz")
    seen = await console.ok("/character show name:Wizard")
    assert "hidden" not in seen["data"]["sheet"] and "idden" not in seen["text"]
    other = await console.ok("/realm character show character:Wizard")
    assert "hidden" not in other["data"]["sheet"] and "idden" not in other["text"]
    await console.ok("@as Pat")
    own = await console.ok("/character show name:Wizard")
    assert own["data"]["sheet"]["hidden"] is True and "Hidden." in own["text"]
    await console.ok("@as Gwen")
    gm = await console.ok("/character show name:Wizard")
    assert gm["data"]["sheet"]["hidden"] is True
    await console.ok("@as Pat")
    refused = await console.fails("/realm character set character:Wizard hidden:false")
    assert "needs the GM" in refused["text"]
