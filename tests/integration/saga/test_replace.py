"""A GM replaces a player's game (`/saga start replace:true`): the player keeps playing (docs/saga.md).

Before, a GM's replace was refused with "Sample Wanderer belongs to another player here", for the campaign's GM,
a co-GM and a member with Manage Server alike: the GM had no character, and the hero's name was the player's.
"""

from __future__ import annotations

import pytest

from tests.conftest import Console

GM, PAT, CORA = "Gwen", "Pat", "Cora"


async def pats_game(console: Console) -> None:
    """Gwen's saga campaign; Pat plays a game of the sample deck; Cora is a co-GM."""
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:saga name:Stars",
        f"@as {CORA}",  # Cora must have acted once for `member:Cora` to name her
        f"@as {GM}",
        f"/campaign gm add member:{CORA}",
        f"@as {PAT}",
        "/saga start deck:sample seed:168",
    ):
        await console.ok(line)


async def replace_as(console: Console, who: str) -> dict:
    if who == "manager":
        console.table.switch_user("Morgan", manages_guild=True)  # Manage Server, not a GM of the campaign
    else:
        await console.ok(f"@as {who}")
    return await console.ok("/saga start deck:sample seed:1 replace:true")


@pytest.mark.parametrize("who", [GM, CORA, "manager"], ids=["gm", "co-gm", "manage-server"])
async def test_a_gm_replaces_a_players_game_and_the_player_keeps_playing(console: Console, who: str) -> None:
    await pats_game(console)
    before = await console.ok("/saga table")
    replaced = await replace_as(console, who)
    assert "seed 1" in replaced["text"]
    assert "for the player of Sample Wanderer" in replaced["text"]
    assert replaced["data"]["table"] != before["data"]["table"]  # a new game, shuffled by the new seed
    listed = await console.ok("/character list")
    assert listed["text"].count("**Sample Wanderer**") == 1  # the same hero pile, not a second character
    assert f"**Sample Wanderer** (<@{console.table.user_id(PAT)}>)" in listed["text"]  # still Pat's
    await console.ok(f"@as {PAT}")
    assert (await console.ok("/saga table"))["data"]["table"] == replaced["data"]["table"]
    moved = await console.ok('/saga move to:"Sample Cellar"')  # Pat plays it: turn 1, step 1 of the new game
    assert moved["data"]["table"]["turn"] == 1


async def test_a_player_still_may_not_replace_anothers_game(console: Console) -> None:
    await pats_game(console)
    await console.ok("@as Oz")
    refused = await console.fails("/saga start deck:sample seed:1 replace:true")
    assert "Only the GM or this game's player" in refused["text"]
    await console.ok(f"@as {PAT}")
    again = await console.ok("/saga start deck:sample seed:1 replace:true")  # the player may
    assert "for the player of" not in again["text"]


async def test_a_gm_takes_the_table_over_by_deleting_the_hero_pile_first(console: Console) -> None:
    await pats_game(console)
    await console.ok(f"@as {GM}")
    await console.ok('/character delete name:"Sample Wanderer"')
    taken = await console.ok("/saga start deck:sample seed:1 replace:true")
    assert "for the player of" not in taken["text"]
    listed = await console.ok("/character list")
    assert f"**Sample Wanderer** (<@{console.table.user_id(GM)}>)" in listed["text"]  # the GM's own now
