"""Select menus: co-GMs and the GM channel picked from lists, lasting across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable, picked
from bot.cli.virtual import VirtualUser, snowflake_for
from tests.conftest import Console


async def test_gm_picks_co_gms_and_the_gm_channel(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    shown = await console.ok("/campaign gm pick")
    assert "[select: Add co-GMs…]" in shown["text"] and "[select: Secret results go to…]" in shown["text"]
    added = await console.ok("@pick Pat, Quinn")
    assert added["text"].count("GM added") == 2
    gm_ids = (await console.ok("/campaign status"))["data"]["gm_ids"]
    assert gm_ids[1:] == [console.table.user_id("Pat"), console.table.user_id("Quinn")]
    await console.ok("/campaign gm pick")
    moved = await console.ok("@pick #gm-only")
    assert moved["data"] == {"gm_channel_id": snowflake_for("#gm-only")}
    await console.ok("/campaign undo")
    assert (await console.ok("/campaign gm pick"))["data"]["gm_channel_id"] is None


async def test_picking_only_existing_gms_changes_nothing(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm pick")
    refused = await console.fails("@pick Alice")
    assert "already GMs" in refused["text"]
    assert len((await console.ok("/campaign log"))["data"]["events"]) == 1


async def test_pickers_are_the_gms_alone(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm pick")
    await console.ok("@as Mallory")
    refused = await console.fails("@pick Mallory")
    assert "belongs to whoever ran the command" in refused["text"]
    assert "needs the GM" in (await console.fails("/campaign gm pick"))["text"]
    await console.ok("@as Alice")
    assert (await console.ok("/campaign status"))["data"]["gm_ids"] == [console.table.user_id("Alice")]


async def test_channel_picker_refuses_a_voice_channel_sent_anyway(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    shown = await console.ok("/campaign gm pick")
    table = console.table
    message = table.last_with_select
    menu = next(m for m in message.selects() if m["type"] == 8)
    assert menu["channel_types"] == [0, 12]
    values, resolved = picked(menu, ["#lounge"], table.virtual.guild_id, {})
    resolved["channels"][values[0]]["type"] = 2  # a voice channel: Discord's client would not offer it
    interaction, sent = await table.virtual.select(VirtualUser("Alice"), message, menu, values, resolved)
    assert "Pick a text channel" in (sent[0].content or "")
    assert shown["data"]["gm_channel_id"] is None


async def test_pickers_work_after_a_restart_and_not_for_a_later_campaign(tmp_path: Path, registry) -> None:
    db = tmp_path / "pickers.sqlite3"
    table = await ConsoleTable.open(db, seed=5, registry=registry)
    try:
        await table.execute("/campaign start ruleset:tally name:Crows")
        await table.execute("/campaign gm pick")
        message = table.last_with_select
        gm = table.user
    finally:
        await table.close()
    fresh = await ConsoleTable.open(db, seed=5, registry=registry)
    try:
        fresh.switch_user(gm.name)
        menu = message.selects()[0]
        values, resolved = picked(menu, ["Pat"], fresh.virtual.guild_id, {})
        interaction, sent = await fresh.virtual.select(gm, message, menu, values, resolved)
        assert "GM added" in sent[0].embeds[0]["title"]
        await fresh.execute("/campaign end")
        await fresh.execute("@press Confirm")
        await fresh.execute("/campaign start ruleset:tally name:Ravens")
        values, resolved = picked(menu, ["Quinn"], fresh.virtual.guild_id, {})
        interaction, sent = await fresh.virtual.select(gm, message, menu, values, resolved)
        assert "campaign has ended" in (sent[0].content or "")
    finally:
        await fresh.close()


async def test_a_pick_outside_the_limits_is_refused_as_discord_would(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm pick")
    refused = await console.fails("@pick A, B, C, D, E, F")
    assert "pick 1 to 5 values" in refused["text"]
    with pytest.raises(ValueError):
        menu = {"type": 3, "custom_id": "x", "options": [{"label": "a", "value": "a"}]}
        await console.table.virtual.select(VirtualUser("Al"), console.table.last_with_select, menu, ["b"])


async def test_character_list_offers_each_sheet_in_a_select(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    assert "[select" not in (await console.ok("/character list"))["text"]  # nothing to pick yet
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally create name:Ash")
    listed = await console.ok("/character list")
    assert "[select: Show a sheet… Ash | Pip]" in listed["text"]
    shown = await console.ok("@pick Pip")
    assert shown["data"]["sheet"] == {"points": 0} and "Pip" in shown["text"]
    await console.ok("@as Quinn")
    assert "belongs to whoever ran the command" in (await console.fails("@pick Ash"))["text"]
