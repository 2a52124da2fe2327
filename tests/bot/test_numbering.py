"""Each campaign numbers its events from 1, and that one number is the one every reply shows and undo takes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.sqlite import MIGRATIONS, SqliteStore, statements
from tests.conftest import Console


async def test_each_campaign_counts_from_one_and_undo_takes_that_number(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    await console.ok("@channel 2003")
    await console.ok("/campaign start ruleset:tally name:Ravens")  # global ids move on; this campaign starts at 1
    await console.ok("/tally create name:Owl")
    await console.ok("/tally add name:Owl")
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert [(e["id"], e["summary"]) for e in reversed(log)] == [
        (1, "started campaign 'Ravens' (tally)"),
        (2, "created Owl"),
        (3, "Owl +1"),
    ]
    assert "`#2`" in (await console.ok("/campaign log"))["text"]
    undone = await console.fails("/campaign undo event:2")  # refused: #3 depends on Owl
    assert "#3" in undone["text"]
    undone = await console.ok("/campaign undo event:3")
    assert undone["data"]["undone_event"] == 3 and "#3" in undone["text"]
    newest = (await console.ok("/campaign log"))["data"]["events"][0]
    assert newest["id"] == 4 and newest["undoes"] == 3 and newest["summary"].startswith("undid #3 ")
    await console.ok("@channel 2002")
    assert [e["id"] for e in (await console.ok("/campaign log"))["data"]["events"]] == [2, 1]
    missing = await console.fails("/campaign undo event:9")
    assert "#9 is not a change of this campaign" in missing["text"]


def _version_6(path: Path) -> None:
    """A database as Magister left it before numbering: two campaigns' events interleaved, one undo."""
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:6]:
        for statement in statements(script):
            db.execute(statement)
    db.execute("PRAGMA user_version = 6")
    for channel in (1, 2):
        db.execute(
            "INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_ids, settings, state, created_at)"
            " VALUES (1, ?, 'tally', 'c', '[11]', '{}', '{}', 't')",
            (channel,),
        )
    snapshot = '{"state_delta":[],"settings_delta":[],"characters":[]}'
    insert = (
        "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, undoes)"
        " VALUES (?, 't', 11, 'Gwen', ?, ?, ?, ?, ?)"
    )
    db.execute(insert, (1, "campaign start", "started", "{}", None, None))  # id 1
    db.execute(insert, (2, "campaign start", "started", "{}", None, None))  # id 2
    db.execute(insert, (2, "tally add", "Owl +1", "{}", snapshot, None))  # id 3: campaign 2's #2
    db.execute(insert, (1, "roll", "rolled 7", "{}", None, None))  # id 4: campaign 1's #2
    db.execute(insert, (2, "campaign undo", "undid #3 (tally add: Owl +1)", '{"undone":3}', None, 3))  # id 5
    db.commit()
    db.close()


async def test_migration_7_numbers_old_events_per_campaign_and_renames_undo_entries(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _version_6(path)
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 7
        first = [(e.seq, e.summary) for e in await store.events(1, limit=10)]
        second = [(e.seq, e.summary, e.result) for e in await store.events(2, limit=10)]
        assert first == [(2, "rolled 7"), (1, "started")]
        assert second == [
            (3, "undid #2 (tally add: Owl +1)", {"undone": 2}),
            (2, "Owl +1", {}),
            (1, "started", {}),
        ]
        assert await store.event_id_of(2, 2) == 3
        # new events go on from each campaign's own last number
        number = await store.write(lambda tx: tx.append_event(1, 11, "Gwen", "roll", "rolled 9", {}))
        assert (await store.events(1, limit=1))[0].seq == 3 and number == 6
    finally:
        await store.close()
    db = sqlite3.connect(path)
    try:
        duplicate = "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, seq)"
        duplicate += " VALUES (1, 't', 1, 'x', 'roll', 'x', '{}', 3)"
        try:
            db.execute(duplicate)
        except sqlite3.IntegrityError:
            pass
        else:
            raise AssertionError("two events of one campaign share a number")
    finally:
        db.close()
