"""The GM channel is the GMs' alone (issue 21, item 7): ``/campaign gmchannel`` and the ``/campaign gm pick`` channel
picker read the chosen channel's permission overwrites and the server's roles, as the bot's cache holds them
after Discord's GUILD_CREATE, and refuse a channel the players can read (bot/adapter/gm_channel.py).

The virtual server (``bot.cli.virtual.VirtualGuild``) carries those payloads: @everyone with a new server's
permissions, ``#gm-only`` that @everyone cannot view, and whatever channels and roles a test adds."""

from __future__ import annotations

from bot.cli.console import picked
from bot.cli.virtual import MANAGE_GUILD, VIEW_CHANNEL, VirtualUser, channel_id_for, overwrite
from tests.conftest import Console
from tests.support.discord_harness import ok, refused

GM, PAT = "Alice", "Pat"


async def test_a_channel_everyone_can_read_is_refused(console: Console) -> None:
    table = console.table
    await ok(table, GM, "campaign start", ruleset="tally", name="Crows")
    lounge = await refused(table, GM, "campaign gmchannel", channel="lounge")  # a new channel: public
    assert lounge.error.startswith(f"Everyone in this server can read <#{channel_id_for('lounge')}>")
    assert "leave `channel:` out" in lounge.error
    # @everyone's own overwrite lets everyone in, whatever the roles say: refused as well
    server = table.virtual.server()
    players = server.add_role("Players")
    server.add_channel(
        "gm-notes", overwrites=[overwrite(server.id, allow=VIEW_CHANNEL), overwrite(players, deny=VIEW_CHANNEL)]
    )
    await refused(table, GM, "campaign gmchannel", channel="gm-notes")
    assert (await ok(table, GM, "campaign status")).data["gm_channel_id"] is None

    kept = await ok(table, GM, "campaign gmchannel", channel="gm-only")
    assert kept.data == {"gm_channel_id": channel_id_for("gm-only")}
    assert kept.description == f"Secret results now go to <#{channel_id_for('gm-only')}>."


async def test_a_player_with_their_own_overwrite_is_named_and_refused(console: Console) -> None:
    table = console.table
    await ok(table, GM, "campaign start", ruleset="tally", name="Crows")
    server = table.virtual.server()
    pat, quinn = VirtualUser(PAT).id, VirtualUser("Quinn").id
    hidden = overwrite(server.id, deny=VIEW_CHANNEL)
    server.add_channel("back-room", overwrites=[hidden, overwrite(pat, member=True, allow=VIEW_CHANNEL)])
    named = await refused(table, GM, "campaign gmchannel", channel="back-room")
    assert named.error.startswith(f"<@{pat}> can read <#{channel_id_for('back-room')}> and is not a GM")
    # a co-GM's own overwrite is as it should be
    server.add_channel("co-gm-room", overwrites=[hidden, overwrite(quinn, member=True, allow=VIEW_CHANNEL)])
    await refused(table, GM, "campaign gmchannel", channel="co-gm-room")
    await ok(table, GM, "campaign gm add", member="Quinn")
    assert (await ok(table, GM, "campaign gmchannel", channel="co-gm-room")).data.get("warning") is None


async def test_a_role_that_can_read_is_named_in_a_warning(console: Console) -> None:
    """Who holds a role Magister cannot see (it asks for no member list): a role that can read the channel is
    named, and the GM asked to make sure only GMs hold it. Roles that manage the server act as GMs anyway."""
    table = console.table
    await ok(table, GM, "campaign start", ruleset="tally", name="Crows")
    server = table.virtual.server()
    gms, mods = server.add_role("Game Masters"), server.add_role("Mods", MANAGE_GUILD)
    hidden = overwrite(server.id, deny=VIEW_CHANNEL)
    server.add_channel(
        "gm-desk", overwrites=[hidden, overwrite(gms, allow=VIEW_CHANNEL), overwrite(mods, allow=VIEW_CHANNEL)]
    )
    warned = await ok(table, GM, "campaign gmchannel", channel="gm-desk")
    assert warned.data["gm_channel_id"] == channel_id_for("gm-desk")
    assert warned.data["warning"] == (
        f"Members with <@&{gms}> can read <#{channel_id_for('gm-desk')}>: if any of them is a player, they will see "
        "the secret results. Make sure only GMs hold that role."
    )
    assert f"<@&{mods}>" not in warned.description and f"<@&{gms}>" in warned.description


async def test_the_gm_pick_channel_picker_applies_the_same_check(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm pick")
    refusal = await console.fails("@pick #lounge")
    assert refusal["text"].startswith(f"Everyone in this server can read <#{channel_id_for('lounge')}>")
    assert (await console.ok("/campaign status"))["data"]["gm_channel_id"] is None

    table = console.table
    server = table.virtual.server()
    pat = VirtualUser(PAT).id
    server.add_channel(
        "back-room",
        overwrites=[overwrite(server.id, deny=VIEW_CHANNEL), overwrite(pat, member=True, allow=VIEW_CHANNEL)],
    )
    message = table.last_with_select
    menu = next(m for m in message.selects() if m["type"] == 8)
    values, resolved = picked(menu, ["#back-room"], table.virtual.guild_id, {})
    _, sent = await table.virtual.select(VirtualUser(GM), message, menu, values, resolved)
    assert f"<@{pat}> can read" in (sent[0].content or "")
    moved = await console.ok("@pick #gm-only")
    assert moved["data"] == {"gm_channel_id": channel_id_for("gm-only")}
