"""One index per order of a campaign's events (issue 23): ``events_by_campaign`` (campaign_id, id) was
``events_seq`` (campaign_id, seq) again, in the same order, and every logged event paid for both. Migration 11
drops it; the reads that walked it (the recap, the export, a member's erasure, an unfinished import's removal)
walk ``events_seq`` in number order, still without a sort or a scan of other campaigns' events."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any
from unittest.mock import patch

import pytest

from bot.storage import export
from bot.storage.imports import discard
from bot.storage.members import Execute, Query, Step, drive, erase
from bot.storage.writer import _step
from bot.table import campaigns
from bot.table.service import TableService
from tests.bot.test_log_cost import _traced
from tests.conftest import GM, HERE, PLAYER
from tests.support.db import ON_POSTGRES, fetch


async def _indexes(service: TableService) -> set[str]:
    if ON_POSTGRES:
        rows = await fetch(service.store, "SELECT indexname FROM pg_indexes WHERE tablename = 'events'")
    else:
        rows = await fetch(service.store, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
    return {row[0] for row in rows}


async def test_events_keep_one_index_in_campaign_order(tally: TableService) -> None:
    indexes = await _indexes(tally)
    assert "events_seq" in indexes
    assert "events_by_campaign" not in indexes


async def test_recap_and_export_follow_the_event_numbers(tally: TableService) -> None:
    """The recap still shows what came after the reader's own last action, in order; the export still
    lists every event oldest first (pages seek on by number)."""
    for name in ("Ann", "Bo", "Cy"):
        await tally.run(HERE, GM, "tally", "create", {"name": name})
    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    for name in ("Di", "Ed"):
        await tally.run(HERE, GM, "tally", "create", {"name": name})
    recap = (await campaigns.recap(tally, HERE, PLAYER)).outcome.data
    assert [event["summary"] for event in recap["events"]] == ["created Di", "created Ed"]
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    loop = asyncio.get_running_loop()

    def read(sql: str, parameters: tuple = ()) -> list[tuple]:  # on a worker thread, through the loop
        return asyncio.run_coroutine_threadsafe(fetch(tally.store, sql, *parameters), loop).result()

    with patch.object(export, "PAGE", 3):  # several pages, each seeking on from the last one's number
        pages = await asyncio.to_thread(lambda: list(export._events(read, row.id)))
    numbers = [event[1] for page in pages for event in page]
    assert len(pages) >= 3 and numbers == list(range(1, await tally.store.count_events(row.id) + 1))


def _plan(connection: sqlite3.Connection, sql: str, parameters: Any = ()) -> list[str]:
    return [row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {sql}", parameters).fetchall()]


def _walks_numbers(plan: list[str]) -> bool:
    """The plan reads the events through events_seq (one campaign's range of it), sorts nothing, scans no table
    of events (a subquery's few rows it may)."""
    return (
        any("events_seq (campaign_id=?" in step for step in plan)
        and not any("TEMP B-TREE" in step for step in plan)
        and not any(step.startswith(("SCAN events", "SCAN e ")) for step in plan)
    )


@pytest.mark.sqlite_only(reason="SQLite's query plans")
async def test_reads_in_campaign_order_walk_the_event_numbers(tally: TableService) -> None:
    """Every read of a campaign's events in order, as planned: the recap's three, the export's page, and the
    ordered reads of a member's erasure and of an unfinished import's removal (run, then rolled back)."""
    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    recap = await _traced(tally, lambda: campaigns.recap(tally, HERE, PLAYER))
    connection = sqlite3.connect(tally.store.path, isolation_level=None)  # type: ignore[attr-defined]
    try:
        ordered = [sql for sql in recap if "ORDER BY" in sql]
        assert len(ordered) == 3, recap
        exported: list[str] = []
        list(export._events(lambda sql, parameters=(): exported.append(sql) or [], row.id))
        plans = [_plan(connection, sql) for sql in ordered] + [_plan(connection, exported[0], (row.id, 0, 500))]
        for program in (erase(PLAYER.user_id, row.id), discard(row.id, 10)):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE campaigns SET channel_id = -1 WHERE id = ?", (row.id,))  # as if an import

            def step(found: Step) -> object:
                if isinstance(found, Query | Execute) and "ORDER BY seq" in found.sql:
                    plans.append(_plan(connection, found.sql, found.parameters))
                return _step(connection, found)

            drive(program, step)
            connection.execute("ROLLBACK")
        assert len(plans) == 6, plans
        assert all(_walks_numbers(plan) for plan in plans), plans
    finally:
        connection.close()
