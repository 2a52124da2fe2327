"""The table service: atomic actions, the per-channel lock, undo, and isolation."""

from __future__ import annotations

import asyncio
import gc

import pytest

from bot.table.service import Caller, Place, TableService
from rules.base import NeedsGMError, RuleError
from tests.conftest import GM, HERE, OTHER, PLAYER
from tests.support.db import write_tx_class


async def snapshot(service: TableService, place: Place = HERE) -> tuple:
    row = await service.store.campaign(place.guild_id, place.channel_id)
    characters = await service.store.characters(row.id)
    events = await service.store.events(row.id, limit=1000)
    return row.state, [(c.name, c.sheet) for c in characters], [e.id for e in events]


async def test_action_commits_state_character_and_log_together(tally: TableService) -> None:
    reply = await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    assert reply.outcome.data["points"] == 1
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row.state == {"count": 1}
    (pip,) = await tally.store.characters(row.id)
    assert pip.sheet == {"points": 1}
    newest = (await tally.store.events(row.id, limit=1))[0]
    assert (newest.id, newest.command, newest.summary) == (reply.event_id, "tally add", "Pip +1")


@pytest.mark.parametrize(("action", "error"), [("boom", RuntimeError), ("refuse", RuleError)])
async def test_failing_action_leaves_state_and_log_untouched(tally: TableService, action, error) -> None:
    before = await snapshot(tally)
    with pytest.raises(error):
        await tally.run(HERE, PLAYER, "tally", action, {})
    assert await snapshot(tally) == before
    # the cache was not poisoned either: the next action sees the committed state
    reply = await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    assert reply.outcome.data == {"points": 1, "count": 1, "roll": reply.outcome.data["roll"]}


async def test_failure_inside_the_write_rolls_back(tally: TableService, monkeypatch) -> None:
    """A crash after the UPDATE but before COMMIT leaves nothing behind."""
    before = await snapshot(tally)

    def broken_append(self, *args, **kwargs):  # a bug, not a lost connection (PostgreSQL reads OSError as that)
        raise RuntimeError("the log entry could not be written")

    monkeypatch.setattr(write_tx_class(tally.store), "append_event", broken_append)
    with pytest.raises(RuntimeError):
        await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    monkeypatch.undo()
    assert await snapshot(tally) == before
    reply = await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    assert reply.outcome.data["count"] == 1


async def test_concurrent_actions_on_one_channel_serialize(tally: TableService) -> None:
    replies = await asyncio.gather(*(tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"}) for _ in range(50)))
    assert sorted(r.outcome.data["count"] for r in replies) == list(range(1, 51))
    state, characters, events = await snapshot(tally)
    assert state == {"count": 50}
    assert characters == [("Pip", {"points": 50})]
    assert len(events) == 52  # start, create, 50 adds


async def test_channels_do_not_wait_for_each_other(tally: TableService) -> None:
    elsewhere = Place(HERE.guild_id, 9999)
    await tally.start_campaign(elsewhere, GM, "tally", "Other table")
    async with tally.lock(HERE):  # HERE is busy...
        reply = await asyncio.wait_for(tally.run(elsewhere, GM, "tally", "reset", {}), timeout=2)  # ...elsewhere is not
    assert reply.outcome.summary == "reset"
    blocked = asyncio.create_task(tally.run(HERE, GM, "tally", "reset", {}))
    async with tally.lock(HERE):
        await asyncio.sleep(0.01)
        assert not blocked.done()
    await blocked


async def test_a_channels_lock_goes_once_nobody_holds_or_waits_on_it(tally: TableService) -> None:
    """A bot in thousands of channels keeps locks only for the channels acting right now, and for the last few
    that acted (so a busy channel's next action finds its lock): idle ones go when those few fill up."""
    tally.locks_kept = 50
    places = [Place(HERE.guild_id, 10_000 + n) for n in range(200)]
    for place in places:
        await tally.start_campaign(place, GM, "tally", f"Table {place.channel_id}")
    assert await asyncio.gather(*(tally.run(place, GM, "tally", "reset", {}) for place in places))
    gc.collect()
    assert 0 < len(tally._locks) <= 50  # of 200 channels, only the last few to act keep an idle lock
    recent = next(iter(tally._recent_locks))
    assert tally.lock(recent) is tally.lock(recent)  # ...and find it again
    tally._recent_locks.clear()  # what happens when the recent ones fill up
    gc.collect()
    assert len(tally._locks) == 0
    held = tally.lock(HERE)
    tally._recent_locks.clear()
    async with held:  # while someone holds it, everyone gets that same lock
        assert tally.lock(HERE) is held and len(tally._locks) == 1
        waiter = asyncio.create_task(tally.run(HERE, GM, "tally", "reset", {}))
        await asyncio.sleep(0.01)
        del held
        tally._recent_locks.clear()
        gc.collect()
        assert len(tally._locks) == 1 and not waiter.done()  # the waiter keeps it alive
    await waiter
    tally._recent_locks.clear()
    gc.collect()
    assert len(tally._locks) == 0


async def test_nothing_crosses_channels_or_guilds(tally: TableService) -> None:
    for place in (Place(HERE.guild_id, 9999), Place(4242, HERE.channel_id)):
        assert await tally.campaign(place) is None
        with pytest.raises(RuleError, match="no campaign"):
            await tally.run(place, PLAYER, "tally", "add", {"name": "Pip"})
    await tally.start_campaign(Place(4242, HERE.channel_id), OTHER, "tally", "Same channel id, other guild")
    await tally.run(Place(4242, HERE.channel_id), OTHER, "tally", "create", {"name": "Pip"})
    await tally.run(Place(4242, HERE.channel_id), OTHER, "tally", "add", {"name": "Pip"})
    assert (await snapshot(tally))[0] == {"count": 0}
    assert (await snapshot(tally))[1] == [("Pip", {"points": 0})]


async def test_player_cannot_touch_another_players_character(tally: TableService) -> None:
    before = await snapshot(tally)
    with pytest.raises(RuleError, match="belongs to another player"):
        await tally.run(HERE, OTHER, "tally", "add", {"name": "Pip"})
    assert await snapshot(tally) == before
    # the GM may
    await tally.run(HERE, GM, "tally", "add", {"name": "Pip"})


async def test_gm_actions_need_a_gm(tally: TableService) -> None:
    with pytest.raises(NeedsGMError):
        await tally.run(HERE, PLAYER, "tally", "reset", {})
    # Manage Server always counts as GM
    await tally.run(HERE, Caller(PLAYER.user_id, PLAYER.name, manages_guild=True), "tally", "reset", {})


async def test_wrong_ruleset_names_the_right_command(tally: TableService) -> None:
    with pytest.raises(RuleError, match="uses the tally ruleset"):
        await tally.run(HERE, PLAYER, "runic", "cast", {})


async def test_bad_options_are_user_errors(tally: TableService) -> None:
    with pytest.raises(RuleError, match="name"):
        await tally.run(HERE, PLAYER, "tally", "add", {})


async def test_undo_restores_state_and_characters_and_logs_both(tally: TableService) -> None:
    before = await snapshot(tally)
    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    reply, command = await tally.undo(HERE, GM)
    assert command == "tally add"
    state, characters, events = await snapshot(tally)
    assert (state, characters) == before[:2]
    assert len(events) == len(before[2]) + 2  # the action and the undo both stay in the log
    # undo again reverts the character's creation; the campaign start itself is not undoable
    await tally.undo(HERE, GM)
    assert (await snapshot(tally))[1] == []
    with pytest.raises(RuleError, match="nothing to undo"):
        await tally.undo(HERE, GM)


async def test_undo_brings_back_a_deleted_character(tally: TableService) -> None:
    from bot.table import campaigns

    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    await campaigns.character_delete(tally, HERE, PLAYER, "Pip")
    assert (await snapshot(tally))[1] == []
    await tally.undo(HERE, GM)
    assert (await snapshot(tally))[1] == [("Pip", {"points": 1})]


async def test_undo_needs_the_gm(tally: TableService) -> None:
    with pytest.raises(NeedsGMError):
        await tally.undo(HERE, PLAYER)


async def test_undo_a_chosen_change_that_nothing_later_depends_on(console) -> None:
    """/campaign undo event:#N reverts an older change alone, or names the later ones that must go first."""
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally create name:Owl")
    await console.ok("/tally add name:Owl")
    events = {e["summary"]: e["id"] for e in (await console.ok("/campaign log"))["data"]["events"]}
    pip, owl = events["created Pip"], events["created Owl"]
    refused = await console.fails(f"/campaign undo event:{owl}")
    assert "must be undone first" in refused["text"] and f"#{events['Owl +1']}" in refused["text"]
    undone = await console.undo(f"/campaign undo event:{pip}")  # nothing later touched Pip
    assert undone["data"]["undone_event"] == pip
    listed = (await console.ok("/character list"))["data"]["characters"]
    assert [c["name"] for c in listed] == ["Owl"]
    again = await console.fails(f"/campaign undo event:{pip}")
    assert "not a change of this campaign that can be undone" in again["text"]
    latest = await console.undo()  # the plain undo still takes the newest change in force
    assert latest["data"]["undone_event"] == events["Owl +1"]
