"""Undo, status and the last log page cost the same however long the history grows.

Work is counted in SQLite virtual-machine steps (a progress handler), not in
time, so the test is exact on a busy machine: a query that scans the log takes
steps in proportion to it; one that seeks an index does not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.storage.sqlite import SqliteStore
from bot.table import campaigns
from bot.table.service import TableService
from tests.conftest import GM, HERE
from tests.support.db import fetch, insert_many

NEXT_SEQ = "(SELECT coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = ?)"  # as WriteTx.append_event
STEP = 100  # the progress handler fires every STEP VM instructions


async def bulk_history(store: SqliteStore, campaign_id: int, events: int, *, undone_on_top: int = 0) -> None:
    """Append ``events`` log rows (a mix of rolls and changes), then ``undone_on_top`` changes each undone."""
    await insert_many(
        store,
        "INSERT INTO events"
        " (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, undoes, seq)"
        f" VALUES (?, '2026-01-01T00:00:00+00:00', 11, 'Gwen', ?, 'x', '{{}}', ?, NULL, {NEXT_SEQ})",
        (
            (campaign_id, "tally add", '{"state_delta":[],"settings_delta":[],"characters":[]}', campaign_id)
            if i % 10 == 0
            else (campaign_id, "roll", None, campaign_id)
            for i in range(events)
        ),
    )
    for _ in range(undone_on_top):
        await insert_many(
            store,
            "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, seq)"
            " VALUES (?, 't', 11, 'Gwen', 'tally add', 'x', '{}',"
            f' \'{{"state_delta":[],"settings_delta":[],"characters":[]}}\', {NEXT_SEQ})',
            [(campaign_id, campaign_id)],
        )
        await insert_many(  # undoes the change just inserted: the campaign's newest event
            store,
            "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, undoes, seq)"
            f" VALUES (?, 't', 11, 'Gwen', 'campaign undo', 'undid', '{{}}',"
            f" (SELECT max(id) FROM events WHERE campaign_id = ?), {NEXT_SEQ})",
            [(campaign_id, campaign_id, campaign_id)],
        )


async def steps(store: SqliteStore, read: Callable[[], Awaitable[object]]) -> int:
    count = 0

    def tick() -> int:
        nonlocal count
        count += 1
        return 0

    await store._reader.set_progress_handler(tick, STEP)
    try:
        await read()
    finally:
        await store._reader.set_progress_handler(None, STEP)
    return count * STEP


async def costs(service: TableService) -> dict[str, int]:
    row = await service.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    _, pages = await campaigns.log_page(service, HERE, 1, GM)
    return {
        "undo": await steps(service.store, lambda: service.store.last_undoable(row.id)),
        "status": await steps(service.store, lambda: campaigns.status(service, HERE)),
        "last log page": await steps(service.store, lambda: campaigns.log_page(service, HERE, pages, GM)),
    }


@pytest.mark.sqlite_only(reason="counts SQLite VM steps (PostgreSQL's plans: test_postgres.py)")
async def test_undo_status_and_last_log_page_do_not_scan_the_log(tally: TableService) -> None:
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    await bulk_history(tally.store, row.id, 100, undone_on_top=20)
    small = await costs(tally)
    await bulk_history(tally.store, row.id, 30_000)
    await bulk_history(tally.store, row.id, 0, undone_on_top=20)  # the same stack of undone changes on top
    large = await costs(tally)
    for name in small:
        assert large[name] <= small[name] * 2 + 2_000, (name, small[name], large[name])
    # and undo still finds the right change: the newest one no undo has reversed
    reply, _ = await tally.undo(HERE, GM)
    assert reply.outcome.data["command"] == "tally add"


@pytest.mark.sqlite_only(reason="counts SQLite VM steps (PostgreSQL's plans: test_postgres.py)")
async def test_other_campaigns_history_does_not_slow_undo(tally: TableService) -> None:
    await tally.start_campaign(type(HERE)(HERE.guild_id, 9999), GM, "tally", "Elsewhere")
    other = await tally.store.campaign(HERE.guild_id, 9999)
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    small = await steps(tally.store, lambda: tally.store.last_undoable(row.id))
    await bulk_history(tally.store, other.id, 30_000, undone_on_top=50)
    large = await steps(tally.store, lambda: tally.store.last_undoable(row.id))
    assert large <= small * 2 + 2_000, (small, large)


async def test_every_log_page_matches_a_plain_newest_first_read(tally: TableService) -> None:
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    await bulk_history(tally.store, row.id, 2_345)
    rows = await fetch(tally.store, "SELECT id FROM events WHERE campaign_id = ? ORDER BY id DESC", row.id)
    expected = [r[0] for r in rows]
    assert await tally.store.count_events(row.id) == len(expected)
    for offset in (0, 990, 1_170, 1_200, 2_340, 2_345, 2_400):
        got = [e.id for e in await tally.store.events(row.id, limit=10, offset=offset)]
        assert got == expected[offset : offset + 10], offset


async def test_undo_copies_only_what_it_changes_and_leaves_the_old_row_alone(tally: TableService) -> None:
    """Undo no longer deep-copies the whole state; the row it read must still not change under anyone."""
    await tally.run(HERE, GM, "tally", "add", {"name": "Pip"})
    before = await tally.campaign(HERE)
    assert before is not None
    old_state = before.row.state
    frozen = dict(old_state)
    reply, _ = await tally.undo(HERE, GM)
    assert old_state == frozen
    after = await tally.campaign(HERE)
    assert after is not None and after.row.state == {"count": frozen["count"] - 1}
