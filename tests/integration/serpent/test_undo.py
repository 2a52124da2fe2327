"""/serpent battle undo is the service's exact undo: repeatable, logged, and limited to serpent actions."""

from __future__ import annotations

from tests.conftest import Console
from tests.support.db import fetch
from tests.support.serpent import DUEL

SETUP = DUEL


async def board(console: Console) -> dict:
    """The whole stored campaign state (the public board hides prepared spells)."""
    await console.ok("/serpent battle board")
    table = console.table
    row = await table.bot.service.store.campaign(table.virtual.guild_id, table.virtual.channel_id)
    return row.state


async def test_battle_undo_restores_each_step_exactly(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    joined = await board(console)
    await console.ok("/serpent battle round resonance:7 rolloff:Black")
    after_round = await board(console)
    await console.ok("@as Black")
    await console.ok('/serpent prepare spells:"Fireball, Dissolve Tissue"')
    assert await board(console) != after_round
    await console.ok("@gm")
    asked = await console.ok("/serpent battle undo")  # Black's change, not the GM's: it asks first
    assert asked["data"]["confirm"] and "Black's `/serpent prepare`" in asked["data"]["question"]
    undone = await console.ok("@press Confirm")
    assert undone["data"]["command"] == "serpent prepare"
    assert await board(console) == after_round
    await console.ok("/serpent battle undo confirm:true")  # the GM's round, Black's (undone) prepare after it
    assert await board(console) == joined
    # replaying gives the same round again (the GM supplies the roll)
    await console.ok("/serpent battle round resonance:7 rolloff:Black")
    assert await board(console) == after_round
    log = await console.ok("/campaign log")
    commands = [e["command"] for e in log["data"]["events"]]
    assert commands.count("serpent battle undo") == 2
    assert "serpent battle board" not in commands  # reading the board changes nothing and is not logged


async def test_battle_undo_is_gm_only_and_refuses_other_changes(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    await console.ok("@as White")
    assert "needs the GM" in (await console.fails("/serpent battle undo"))["text"]
    await console.ok("@gm")
    await console.ok("/campaign settings key:basic_play value:true")
    refused = await console.fails("/serpent battle undo")
    assert "/campaign undo" in refused["text"]
    await console.ok("/campaign undo")
    await console.ok("/serpent battle undo confirm:true")  # now the newest change is the join (a player's)


async def test_a_battle_keeps_its_log_small(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    for resonance in (7, 4, 10):
        await console.ok(f"/serpent battle round resonance:{resonance} rolloff:Black")
    store = console.table.bot.service.store
    rows = await fetch(store, "SELECT max(length(snapshot)), max(length(state)) FROM events, campaigns")
    largest_snapshot, state_size = rows[0]
    assert largest_snapshot < state_size  # each entry keeps only what its action changed


async def test_issue_14_actions_undo_exactly(console: Console) -> None:
    """The new actions (pledge, order) are undone like any other."""
    lines = [
        "@gm",
        "/campaign start ruleset:serpent name:Teams",
        "/serpent spell define name:Wall role:Defense sphere:Matter fluency:1 resonance:0 shields:Forces durability:2",
        "@as White",
        '/serpent magi create name:White codex:"Wall x2"',
        "@as Grey",
        "/serpent magi create name:Grey codex:Wall",
        "@as Black",
        "/serpent magi create name:Black codex:Wall",
        "@gm",
        "/serpent battle start mode:teams",
        "@as White",
        "/serpent battle join team:Sun",
        "@as Grey",
        "/serpent battle join team:Sun",
        "@as Black",
        "/serpent battle join team:Moon",
        "@gm",
        '/serpent battle round resonance:7 rolloff:"White, Grey, Black"',
        "@as White",
        '/serpent prepare spells:"Wall x2"',
        "@as Grey",
        '/serpent prepare spells:""',
        "@as Black",
        '/serpent prepare spells:""',
        "@as White",
        "/serpent cast spell:Wall",
    ]
    for line in lines:
        await console.ok(line)
    before = await board(console)
    await console.ok("@as Grey")
    await console.ok("/serpent pledge to:White tiers:1")
    assert await board(console) != before
    await console.ok("@gm")
    await console.ok("/serpent battle undo confirm:true")  # a player's change
    assert await board(console) == before
    for line in (
        "@as Grey",
        "/serpent end-turn",
        "@as Black",
        "/serpent end-turn",
        "@as White",
        "/serpent cast spell:Wall",
    ):
        await console.ok(line)
    before = await board(console)
    walls = [c["id"] for c in before["battle"]["cards"].values() if c["title"] == "Wall" and c["location"] == "play"]
    await console.ok(f'/serpent order spells:"#{walls[1]}, #{walls[0]}"')
    assert await board(console) != before
    await console.ok("@gm")
    await console.ok("/serpent battle undo confirm:true")  # a player's change
    assert await board(console) == before


async def test_autopass_undoes_exactly_on_the_sheet_and_in_the_battle(console: Console) -> None:
    """Issue 13's per-Magi auto-pass changes the sheet and the battle; /campaign undo restores both."""
    for line in SETUP:
        await console.ok(line)
    before = await board(console)
    await console.ok("@as Black")
    sheet = (await console.ok("/serpent magi show"))["data"]["sheet"]
    assert sheet["autopass"] == "never"
    done = await console.ok("/serpent autopass mode:always")
    assert done["data"]["mode"] == "always"
    assert (await board(console))["battle"]["beings"]["black"]["autopass"] == "always"
    assert (await console.ok("/serpent magi show"))["data"]["sheet"]["autopass"] == "always"
    await console.ok("@gm")
    await console.undo()
    assert await board(console) == before
    await console.ok("@as Black")
    assert (await console.ok("/serpent magi show"))["data"]["sheet"]["autopass"] == "never"


async def test_battle_undo_asks_first_unless_it_is_the_gms_own_newest_action(console: Console) -> None:
    """As `/campaign undo`: the GM's own newest change goes at once; another's asks, and Cancel changes nothing."""
    for line in SETUP:
        await console.ok(line)
    joined = await board(console)
    await console.ok("/serpent battle round resonance:7 rolloff:Black")
    undone = await console.ok("/serpent battle undo")  # the GM's own newest: no question
    assert undone["data"]["command"] == "serpent battle round"
    assert await board(console) == joined
    await console.ok("/serpent battle round resonance:7 rolloff:Black")
    after_round = await board(console)
    await console.ok("@as Black")
    await console.ok('/serpent prepare spells:"Fireball, Dissolve Tissue"')
    prepared = await board(console)
    await console.ok("@gm")
    asked = await console.ok("/serpent battle undo")
    assert "not your own newest action" in asked["data"]["question"]
    await console.ok("@press Cancel")
    assert await board(console) == prepared
    log = await console.ok("/campaign log")
    assert [e["command"] for e in log["data"]["events"]].count("serpent battle undo") == 1  # only the first
    await console.ok("/serpent battle undo confirm:true")
    assert await board(console) == after_round
