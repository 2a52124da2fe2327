"""SQLite's writer fills the log's text index once per group commit (migration 12, bot/storage/writer.py): every
event is still found by its text, once, whoever wrote it and whatever else its group did."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage.action import ActionWrite, EventWrite
from bot.storage.rows import LogQuery
from bot.table.service import Place, TableService
from tests.conftest import GM, HERE, PLAYER, Console
from tests.support.db import ON_POSTGRES

pytestmark = pytest.mark.skipif(ON_POSTGRES, reason="SQLite's text index (PostgreSQL's is a GIN index)")


def _index(service: TableService) -> tuple[list[int], list[int], int]:
    """The text index's row ids, every event's key as the index keys it, and the deferral markers left."""
    db = sqlite3.connect(service.store.path)  # type: ignore[attr-defined]
    try:  # the index cannot be scanned (it keeps no sizes, migration 13): each entry's first trigram, once a time
        db.execute("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, events_text, instance)")
        instances = "SELECT doc FROM temp.terms WHERE col = 'summary' AND offset = 0"
        indexed = sorted(row[0] for row in db.execute(instances))
        keys = sorted(row[0] for row in db.execute("SELECT (campaign_id << 32) + seq FROM events"))
        (markers,) = db.execute("SELECT count(*) FROM events_text_deferred").fetchone()
        return indexed, keys, markers
    finally:
        db.close()


async def _found(service: TableService, campaign_id: int, text: str, *, reveal: bool = False) -> list[int]:
    events = await service.store.events_matching(campaign_id, LogQuery(text=text, reveal=reveal), limit=100)
    return [event.seq for event in events]


async def test_a_logged_actions_text_is_found_at_once_each_side_by_its_readers(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally whisper")
    await console.ok('/roll expression:1d6 label:"quicksilver gate"')
    found = await console.ok('/campaign log text:"quicksilver"')
    assert [event["actor"] for event in found["data"]["events"]] == ["Pat"]
    mine = await console.ok("/campaign log text:swordfish")  # the GM's side: not the player's to search
    assert mine["data"]["events"] == []
    await console.ok("@gm")
    gm = await console.ok("/campaign log text:swordfish")
    assert [event["command"] for event in gm["data"]["events"]] == ["tally whisper"]
    indexed, keys, markers = _index(console.table.bot.service)
    assert indexed == keys and markers == 0


async def test_a_group_commits_events_are_each_indexed_once(tally: TableService) -> None:
    places = [Place(HERE.guild_id, 500 + n) for n in range(40)]
    for place in places:
        await tally.start_campaign(place, GM, "tally", f"Table {place.channel_id}")
        await tally.run(place, PLAYER, "tally", "create", {"name": f"Wren{place.channel_id}"})
    for _ in range(3):  # forty channels at once: their writes share group commits
        await asyncio.gather(*(tally.run(p, PLAYER, "tally", "add", {"name": f"Wren{p.channel_id}"}) for p in places))
    indexed, keys, markers = _index(tally)
    assert indexed == keys and len(keys) == 2 + 40 * 5 and markers == 0
    for place in places[::7]:
        campaign = await tally.require_campaign(place)
        assert await _found(tally, campaign.row.id, f"wren{place.channel_id} +") == [5, 4, 3]


async def test_a_change_to_an_event_in_the_same_group_finds_it_indexed(tally: TableService) -> None:
    """An erasure that runs in the same group commit as an action rewrites the action's new event: the text
    index must hold that event before the erasure's trigger takes its old text out."""
    campaign = await tally.require_campaign(HERE)
    row = campaign.row
    action = ActionWrite(
        row, row.version, "check", EventWrite(PLAYER.user_id, "Pat", "tally note", "Pat saw a kestrel", {})
    )
    store = tally.store
    written, erased = await asyncio.gather(
        store.write(action), store.write(lambda tx: tx.forget_member(PLAYER.user_id, row.id))
    )
    assert sum(c.events for c in erased.campaigns) >= 1 and written.event_id
    indexed, keys, markers = _index(tally)
    assert indexed == keys and markers == 0
    assert await _found(tally, row.id, "Pat saw") == []  # the erased name left the index...
    assert await _found(tally, row.id, "saw a kestrel") == [3]  # ...and the rest of the text is found as before
    db = sqlite3.connect(store.path)  # type: ignore[attr-defined]
    try:
        db.execute("INSERT INTO events_text (events_text, rank) VALUES ('integrity-check', 0)")
    finally:
        db.close()


async def test_another_connections_events_are_indexed_by_the_trigger(tally: TableService) -> None:
    campaign = await tally.require_campaign(HERE)
    db = sqlite3.connect(tally.store.path, isolation_level=None)  # type: ignore[attr-defined]
    try:
        db.execute(
            "INSERT INTO events (campaign_id, seq, at, actor_id, actor_name, command, summary, result)"
            " VALUES (?, 3, '2026-01-01T00:00:00+00:00', 1, 'Gwen', 'note', 'the heron flies', '{}')",
            (campaign.row.id,),
        )
    finally:
        db.close()
    assert await _found(tally, campaign.row.id, "heron") == [3]
    indexed, keys, markers = _index(tally)
    assert indexed == keys and markers == 0


async def test_migration_13_builds_the_index_again_without_sizes_and_finds_the_older_log(tmp_path, registry) -> None:
    """A database the previous Magister made (its index kept each entry's sizes): opened, the index is built again
    from the log, every event in it once, found by its text, and no table of sizes is left."""
    import random

    from bot.storage.database import open_store
    from bot.storage.sqlite import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("bot.storage.sqlite.MIGRATIONS", MIGRATIONS[:12])
        store = await open_store(str(path))
        old = TableService(store, registry, random.Random(1))
        await old.start_campaign(HERE, GM, "tally", "Crows")
        await old.run(HERE, PLAYER, "tally", "create", {"name": "Quicksilver Gate"})
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM events_text_docsize").fetchone()[0] == 2  # the old index, with sizes
    db.close()
    store = await open_store(str(path))
    try:
        service = TableService(store, registry, random.Random(1))
        assert await store.schema_version() == len(MIGRATIONS) == 13
        campaign = await service.require_campaign(HERE)
        assert await _found(service, campaign.row.id, "quicksilver") == [2]
        await service.run(HERE, PLAYER, "tally", "create", {"name": "Lantern"})
        assert await _found(service, campaign.row.id, "lantern") == [3]
        indexed, keys, markers = _index(service)
        assert indexed == keys == [(campaign.row.id << 32) + seq for seq in (1, 2, 3)] and markers == 0
    finally:
        await store.close()
    db = sqlite3.connect(path)
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    assert "events_text_docsize" not in tables and "events_text_data" in tables
