"""Issue 22, realm, at the console and through real discord.Interaction objects: effort counts every chit of the
round (maneuvers and weapon attacks play Move and Fight chits, with autocomplete), the charge card states the limit
`castable` checks, the day's color counts outside a clearing, The Good Book ships, and refusals read plainly."""

from __future__ import annotations

import re

import pytest

from bot.cli.console import ConsoleTable
from tests.conftest import Console
from tests.support.discord_harness import choices, ok, refused

GM, PAT, OZ = "Gwen", "Pat", "Oz"
SETUP = (
    f"@as {GM}",
    "/campaign start ruleset:realm name:Valley",
    '/realm spell import format:csv text:"name,type,color,target_type,duration; Blind,IV,purple,individual,combat; '
    'Mist,II,grey,clearing,day; Bolt,IV,purple,individual,attack"',
    "/realm day set day:21",
    f"@as {PAT}",
    '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV4*, MAGIC II3, MAGIC II4, MOVE M4**, MOVE M5*, '
    'FIGHT H5*, FIGHT L4" spells:"Blind, Mist, Bolt"',
    f"@as {OZ}",
    '/realm character create name:Amazon chits:"MOVE M5, MOVE L3, FIGHT H4*, FIGHT M4**"',
)


@pytest.fixture
async def valley(console: Console) -> Console:
    for line in SETUP:
        await console.ok(line)
    return console


async def test_a_maneuver_and_a_weapon_attack_play_chits_counted_with_the_cast(valley: Console) -> None:
    for line in (
        f"@as {GM}",
        '/realm combat start clearing:"Ruins 5" order:"Wizard, Amazon" others:Goblin',
        f"@as {PAT}",
        '/realm cast spell:Bolt ritual:"MAGIC IV4*"',
        f"@as {GM}",
        "/realm combat melee",
        f"@as {PAT}",
        "/realm target targets:Amazon",
        f"@as {GM}",
        "/realm resolve",
        f"@as {PAT}",
        "/realm attack direction:smash",
    ):
        await valley.ok(line)
    store, virtual = valley.table.bot.service.store, valley.table.virtual
    status = await store.campaign(virtual.guild_id, virtual.channel_id)
    over = await valley.fails('/realm combat maneuver who:Wizard maneuver:dodge chit:"MOVE M4**"')
    assert over["ephemeral"] and over["text"].startswith(
        "Wizard has already played 1 effort asterisk this round (MAGIC IV4* to cast), and MOVE M4** has 2 effort "
        "asterisks: 3 in all, over the limit of 2 a round."
    )
    assert (await store.campaign(virtual.guild_id, virtual.channel_id)).state == status.state  # nothing changed
    dodge = await valley.ok('/realm combat maneuver who:Wizard maneuver:dodge chit:"MOVE M5*"')
    assert "Dodge at speed 5 (MOVE M5*)." in dodge["text"]
    assert "Effort this round: 2 of 2 asterisks (MAGIC IV4* to cast, MOVE M5* to maneuver)." in dodge["text"]
    await valley.ok(f"@as {OZ}")
    await valley.ok('/realm combat maneuver who:Amazon maneuver:duck chit:"MOVE L3"')
    await valley.ok('/realm combat weapon target:Wizard chit:"FIGHT M4**"')
    await valley.ok(f"@as {GM}")
    attacks = await valley.ok("/realm combat attacks")
    assert [(h["target"], h["hit"], h["why"]) for h in attacks["data"]["hits"]] == [
        ("Amazon", True, "same direction (smash against duck)")
    ]
    await valley.ok('/realm record kind:missile who:Amazon result:"Light harm"')
    round_two = await valley.ok("/realm combat round")
    assert round_two["data"]["fatigue_step"] == [
        "Amazon played 2 Fight and Move asterisks (MOVE L3 to maneuver, FIGHT M4** to attack with a weapon): "
        "fatigue chits now; the player chooses which, with `/realm character chit change:fatigue`"
    ]
    assert "Fatigue Step of round 1" in round_two["text"]


async def test_maneuver_and_weapon_through_discord_with_their_chits_offered(valley: Console) -> None:
    table: ConsoleTable = valley.table
    await ok(table, GM, "realm combat start", clearing="Ruins 5", order="Wizard, Amazon", others="Goblin")
    await ok(table, OZ, "realm combat charge", at="Wizard", chit="MOVE M5")
    await ok(table, GM, "realm combat melee")
    # only ready Move chits, and none played this round (MOVE M5 charged)
    assert await choices(table, OZ, "realm combat maneuver", "chit", who="Amazon", maneuver="dodge") == ["MOVE L3"]
    assert await choices(table, PAT, "realm combat maneuver", "chit", who="Wizard", maneuver="dodge") == [
        "MOVE M4**",
        "MOVE M5*",
    ]
    assert await choices(table, PAT, "realm combat weapon", "chit", target="Amazon") == ["FIGHT H5*", "FIGHT L4"]
    placed = await ok(table, OZ, "realm combat maneuver", who="Amazon", maneuver="dodge", chit="MOVE L3")
    assert placed.data["speed"] == 3 and placed.description == "Dodge at speed 3 (MOVE L3)."
    attack = await ok(table, OZ, "realm combat weapon", target="Wizard", chit="FIGHT H4*")
    assert attack.data["effort"] == 1 and "FIGHT H4*" in attack.description
    twice = await refused(table, PAT, "realm combat maneuver", who="Wizard", maneuver="duck")
    assert "Wizard maneuvers with a Move chit" in twice.error and 'chit:"MOVE M5*"' in twice.error
    monster = await refused(table, GM, "realm combat maneuver", who="Goblin", maneuver="duck", chit="MOVE L3")
    assert "give its move time as `speed`" in monster.error


async def test_the_days_color_counts_for_a_character_in_no_clearing(valley: Console) -> None:
    await valley.ok(f"@as {PAT}")
    asked = await valley.ok('/realm castable spell:Blind ritual:"MAGIC IV4"')
    assert "✅ Purple magic here: day 21." in asked["text"] and "purple: day 21" in asked["text"]
    assert "Colors present: none" not in asked["text"]


async def test_the_charge_card_states_the_limit_castable_checks(valley: Console) -> None:
    await valley.ok(f"@as {GM}")
    await valley.ok('/realm combat start clearing:"Ruins 5" order:"Wizard, Amazon" others:Goblin')
    await valley.ok("/realm combat sheet character:Wizard move_times:4")
    await valley.ok(f"@as {OZ}")
    charged = await valley.ok('/realm combat charge at:Wizard chit:"MOVE M5"')
    assert "to cast, their Magic chit must be speed 4 or faster" in charged["text"]
    assert "speed 5 or faster" not in charged["text"]
    await valley.ok(f"@as {PAT}")
    asked = await valley.ok('/realm castable spell:Blind ritual:"MAGIC IV4"')
    assert "✅ Speed 4 ≤ 4, the fastest on their sheet." in asked["text"]


async def test_the_good_book_is_given_in_a_fresh_campaign_as_the_docs_say(console: Console) -> None:
    for line in ("@as Gwen", "/campaign start ruleset:realm name:Fresh", "@as Alice"):
        await console.ok(line)
    await console.ok('/realm character create name:Alice chits:"MAGIC I3"')
    await console.ok("@as Gwen")
    given = await console.ok('/realm item give item:"The Good Book" holder:Alice')
    assert given["data"]["item"]["type"] == "I" and "The Good Book → Alice" in given["text"]
    await console.ok("@as Alice")
    sheet = await console.ok("/realm character show")
    assert "The Good Book (book, type I)" in sheet["text"]


async def test_others_named_twice_say_how_to_number_them(valley: Console) -> None:
    await valley.ok(f"@as {GM}")
    twice = await valley.fails('/realm combat start clearing:"Ruins 5" order:Wizard others:"Goblin, Goblin"')
    assert twice["text"].startswith(
        'Goblin is named twice in `others`. Give each monster or native its own name, such as `others:"Goblin 1, '
        'Goblin 2"`.'
    )
    assert "'Goblin'" not in twice["text"]
    await valley.ok('/realm combat start clearing:"Ruins 5" order:Wizard others:"Goblin 1, Goblin 2"')


async def test_a_second_mist_says_how_long_the_first_lasts(valley: Console) -> None:
    for line in (
        f"@as {GM}",
        "/realm day set day:28",
        '/realm clearing set name:"Ruins 5" colors:grey',
        '/realm combat start clearing:"Ruins 5" order:Wizard',
        f"@as {PAT}",
        '/realm cast spell:Mist ritual:"MAGIC II3"',
        f"@as {GM}",
        "/realm combat melee",
        f"@as {PAT}",
        "/realm target targets:clearing",
        f"@as {GM}",
        "/realm resolve",
        "/realm combat round",
        f"@as {PAT}",
    ):
        await valley.ok(line)
    again = await valley.fails('/realm cast spell:Mist ritual:"MAGIC II4"')
    assert "This copy of Mist is already cast: #1 Mist, expires at sunset of day 29." in again["text"]


async def test_learning_a_spell_offers_no_empty_menu(valley: Console) -> None:
    await valley.ok(f"@as {GM}")
    await valley.ok("/realm spell define name:Curse type:V color:black target_type:individual duration:permanent")
    await valley.ok(f"@as {PAT}")
    learned = await valley.ok("/realm character learn spell:Curse")
    assert "[select" not in learned["text"] and "buttons" not in learned
    listed = await valley.ok("/realm spell list")
    assert "[select: Show a spell… Blind" in listed["text"]
    reply = await ok(valley.table, PAT, "realm character learn", spell="Mist", forget=True)
    assert all(not message.components for message in reply.messages)


async def test_refusals_read_plainly(valley: Console) -> None:
    """No Python list or quoting of a fragment with its stray space, no sentences joined with ".;"."""
    lines = [
        '/realm character create name:Newt chits:"MOVE M4**, FIGHT H5***"',
        '/realm character create name:Newt chits:"MOVE M4**, FIGHT X5"',
        '/realm character create name:Newt chits:"MOVE M4**,  FOO"',
        '/realm character create name:Newt chits:"MAGIC IV4" spells:"Blind,  Nope"',
        '/realm castable spell:Blind ritual:"MOVE M4**, FIGHT H5*"',
        '/realm castable spell:Blind ritual:"MAGIC IV4" color_chit:" MAGIC X9"',
        '/realm character chit change:fatigue chit:" FIGHT Q1"',
        "/realm energize spell:#9",
        '/realm cast spell:" Nope" ritual:"MAGIC IV4"',
    ]
    gm_lines = [
        '/realm item give item:" Amulet" holder:Wizard',
        '/realm combat start clearing:"Ruins 5" order:"Wizard, Amazon" others:"Goblin,  goblin"',
        '/realm spell import format:csv text:"name,type,color,target_type; Foo,IX,pink,thing; Bar, II ,grey,oops"',
        '/realm spell import format:toml text:"spell = [{name = [1, 2]}]"',
        "/realm combat maneuver who:Wizard maneuver:dodge speed:3",
        '/realm combat sheet character:Wizard move_times:"3, x"',
    ]
    said = []
    await valley.ok(f"@as {PAT}")
    for line in lines:
        said.append((line, (await valley.fails(line))["text"]))
    await valley.ok(f"@as {GM}")
    for line in gm_lines:
        said.append((line, (await valley.fails(line))["text"]))
    for line, text in said:
        assert ".;" not in text and "['" not in text and "\\'" not in text, (line, text)
        assert not re.search(r"(^|[\s(:])' ", text), (line, text)  # a quoted fragment starting with a space
    assert any("'FIGHT H5***': a chit has at most two effort asterisks." in t for _, t in said)
    assert any("must be text, not a list" in t for _, t in said)
