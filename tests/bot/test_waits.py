"""Who the table waits on (issue 13): stored after every action, pinged once, listed by /campaign waiting.

Through the real command tree and a real SQLite file, with the tally ruleset's ``waits``.
"""

from __future__ import annotations

from tests.conftest import Console


async def _table(console: Console) -> None:
    for line in (
        "@as Gwen",
        "/campaign start ruleset:tally name:Crows",
        "@as Pat",
        "/tally create name:Pip",
        "@as Oz",
        "/tally create name:Ozzy",
        "@as Gwen",
    ):
        await console.ok(line)


async def test_a_new_wait_pings_exactly_its_player_and_a_wait_that_goes_on_pings_nobody(console: Console) -> None:
    await _table(console)
    sent = console.table.virtual.adapter.sent
    before = len(sent)
    asked = await console.ok("/tally ask names:Pip,Ozzy")
    assert asked["pings"] == ["Pat", "Oz"]
    (message,) = sent[before:]  # what Discord receives: these two users, never a role or everyone
    assert message.allowed_mentions["parse"] == [] and message.allowed_mentions.get("roles") in (None, [])
    pat, oz = (console.table.user_id(name) for name in ("Pat", "Oz"))
    assert [int(u) for u in message.allowed_mentions["users"]] == [pat, oz]
    assert message.content.startswith(f"<@{pat}> **Pip**")
    assert "add a point to Pip" in asked["text"] and "<@" in asked["text"]
    await console.ok("@as Pat")
    added = await console.ok("/tally add name:Pip")  # Ozzy's wait goes on (its words change): no ping
    assert "pings" not in added
    await console.ok("@as Gwen")
    again = await console.ok("/tally ask names:Pip")  # Pip's is new again; Ozzy's ended
    assert again["pings"] == ["Pat"]


async def test_no_message_pings_anyone_unless_it_opens_a_wait(console: Console) -> None:
    await _table(console)
    sent = console.table.virtual.adapter.sent
    before = len(sent)
    for line in ("/campaign status", "/campaign log", "/roll expression:1d6", "/tally reset", "/campaign waiting"):
        result = await console.ok(line)
        assert "pings" not in result
    for message in sent[before:]:
        assert not (message.allowed_mentions or {}).get("users"), message


async def test_waiting_lists_who_for_what_since_and_until(console: Console) -> None:
    await _table(console)
    await console.ok("/campaign settings key:turn_deadline value:1d")
    await console.ok("/tally ask names:Pip")
    shown = await console.ok("/campaign waiting")
    assert shown["ephemeral"]
    (wait,) = shown["data"]["waits"]
    assert wait["who"] == "Pip" and wait["what"].startswith("add a point to Pip")
    assert wait["since"] and wait["deadline"] > wait["since"]
    await console.ok("@as Pat")
    mine = await console.ok("/campaign waiting mine:true")
    assert [w["campaign"] for w in mine["data"]["waits"]] == ["Crows"]
    await console.ok("@as Oz")
    assert (await console.ok("/campaign waiting mine:true"))["data"]["waits"] == []


async def test_mine_lists_every_channel_of_the_guild(console: Console) -> None:
    await _table(console)
    await console.ok("/tally ask names:Pip")
    await console.ok("@channel 2003")
    await console.ok("/campaign start ruleset:tally name:Rooks")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pia")
    await console.ok("@as Gwen")
    await console.ok("/tally ask names:Pia")
    await console.ok("@as Pat")
    mine = await console.ok("/campaign waiting mine:true")
    assert sorted(w["campaign"] for w in mine["data"]["waits"]) == ["Crows", "Rooks"]
    await console.ok("@guild 1009")
    assert (await console.ok("/campaign waiting mine:true"))["data"]["waits"] == []


async def test_gm_waits_ping_the_gms(console: Console) -> None:
    await _table(console)
    asked = await console.ok("/tally ask names:Pip kind:gm")
    assert asked["pings"] == ["Gwen"]
    mine = await console.ok("/campaign waiting mine:true")
    assert [w["who"] for w in mine["data"]["waits"]] == ["GM"]


async def test_undo_brings_waits_back_and_pings_them_again(console: Console) -> None:
    await _table(console)
    await console.ok("/tally ask names:Pip")
    await console.ok("@as Pat")
    await console.ok("/tally add name:Pip")
    assert (await console.ok("/campaign waiting"))["data"]["waits"] == []
    await console.ok("@as Gwen")
    undone = await console.undo()  # Pat's add: the GM confirms
    assert undone["pings"] == ["Pat"]
    assert [w["who"] for w in (await console.ok("/campaign waiting"))["data"]["waits"]] == ["Pip"]


async def test_pbp_settings_are_validated_and_undoable(console: Console) -> None:
    await _table(console)
    bad = await console.fails("/campaign settings key:response_window value:soon")
    assert "not a duration" in bad["text"]
    assert "time zone" in (await console.fails("/campaign settings key:timezone value:Mars/Base"))["text"]
    await console.fails("/campaign settings key:nudge value:2")
    changed = await console.ok("/campaign settings key:response_window value:90m")
    assert changed["data"]["new"] == "1h 30m"
    shown = await console.ok("/campaign settings")
    assert shown["data"]["pbp"]["response_window"] == "1h 30m"
    await console.ok("/campaign undo")
    assert (await console.ok("/campaign settings"))["data"]["pbp"]["response_window"] == "12h"
    await console.ok("@as Pat")
    assert "needs the GM" in (await console.fails("/campaign settings key:turn_deadline value:1d"))["text"]
