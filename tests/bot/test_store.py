"""The store against a real SQLite file: migrations, WAL, transactions, stale writes."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from bot.cli.config import load_settings
from bot.storage.rows import ConstraintError, StaleCampaignError
from bot.storage.sqlite import MIGRATIONS, SqliteStore
from bot.storage.writer import MAX_BATCH
from tests.conftest import open_store


async def test_migrations_set_user_version_and_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    store = await open_store(path)
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    again = await open_store(path)  # reopening runs nothing twice
    assert await again.schema_version() == len(MIGRATIONS)
    await again.close()


@pytest.mark.sqlite_only(reason="the file's journal mode and PRAGMA synchronous (PostgreSQL: test_postgres.py)")
async def test_wal_and_synchronous_full_by_default(store: SqliteStore) -> None:
    """FULL: a commit a player saw survives power loss, not only a killed process."""
    connection = sqlite3.connect(store.path)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.close()
    assert await store._writer.pragma("synchronous") == 2  # FULL


@pytest.mark.sqlite_only(reason="PRAGMA synchronous (PostgreSQL's synchronous_commit: test_postgres.py)")
async def test_synchronous_normal_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAGISTER_SYNCHRONOUS", "normal")
    settings = load_settings()
    assert settings.magister_synchronous == "NORMAL"
    store = await open_store(tmp_path / "n.sqlite3", synchronous=settings.magister_synchronous)
    assert await store._writer.pragma("synchronous") == 1  # NORMAL
    await store.close()
    monkeypatch.setenv("MAGISTER_SYNCHRONOUS", "OFF")
    with pytest.raises(SystemExit):
        load_settings()


async def test_committed_data_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "keep.sqlite3"
    store = await open_store(path)
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "Kept", [9], {}, {"count": 3})
        await tx.append_event(campaign_id, 9, "Gwen", "x", "did x", {})
    await store.close()
    reopened = await open_store(path)
    row = await reopened.campaign(1, 2)
    assert row is not None and row.state == {"count": 3} and row.gm_ids == [9]
    assert [e.summary for e in await reopened.events(row.id, limit=5)] == ["did x"]
    await reopened.close()


async def test_exception_rolls_the_whole_transaction_back(store: SqliteStore) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            campaign_id = await tx.insert_campaign(1, 2, "tally", "Gone", [9], {}, {})
            await tx.append_event(campaign_id, 9, "Gwen", "x", "did x", {})
            raise RuntimeError("boom")
    assert await store.campaign(1, 2) is None
    # and the writer is usable afterwards
    async with store.transaction() as tx:
        await tx.insert_campaign(1, 2, "tally", "Next", [9], {}, {})
    assert (await store.campaign(1, 2)).name == "Next"


async def test_one_live_campaign_per_channel(store: SqliteStore) -> None:
    async with store.transaction() as tx:
        await tx.insert_campaign(1, 2, "tally", "First", [9], {}, {})
    with pytest.raises(ConstraintError):
        async with store.transaction() as tx:
            await tx.insert_campaign(1, 2, "tally", "Second", [9], {}, {})


async def test_stale_version_is_detected(store: SqliteStore) -> None:
    async with store.transaction() as tx:
        await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
    first = await store.campaign(1, 2)
    second = await store.campaign(1, 2)
    async with store.transaction() as tx:
        first.state = {"count": 1}
        await tx.update_campaign(first)
    with pytest.raises(StaleCampaignError):
        async with store.transaction() as tx:
            second.state = {"count": 2}
            await tx.update_campaign(second)
    assert (await store.campaign(1, 2)).state == {"count": 1}


async def test_group_commit_isolates_a_failing_write(tmp_path: Path) -> None:
    """Writes that arrive together share a transaction; one failure rolls back only itself."""
    path = tmp_path / "group.sqlite3"
    store = await open_store(path)
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})

    def job(number: int):
        def write(tx) -> int:
            event_id = tx.append_event(campaign_id, 9, "Gwen", "x", f"event {number}", {})
            if number == 13:
                raise ValueError("unlucky")
            return event_id

        return write

    results = await asyncio.gather(*(store.write(job(n)) for n in range(30)), return_exceptions=True)
    failures = [r for r in results if isinstance(r, Exception)]
    assert [str(f) for f in failures] == ["unlucky"]
    assert len({r for r in results if isinstance(r, int)}) == 29
    await store.close()
    reopened = await open_store(path)  # what each write returned is durable
    summaries = {e.summary for e in await reopened.events(campaign_id, limit=100)}
    assert summaries == {f"event {n}" for n in range(30) if n != 13}
    await reopened.close()


async def test_group_commit_uses_fewer_transactions_than_writes(store: SqliteStore) -> None:
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
    commits = 0
    lanes = getattr(store._writer, "_lanes", None)  # PostgreSQL: the lane plain jobs take
    writer = lanes[0] if lanes else store._writer
    original = writer._settle if lanes else writer._group  # SQLite: the writer thread's transaction of a group

    async def counting(jobs):
        nonlocal commits
        commits += 1
        return await original(jobs)

    def counting_on_the_thread(jobs):
        nonlocal commits
        commits += 1
        return original(jobs)

    if lanes:
        writer._settle = counting
    else:
        writer._group = counting_on_the_thread
    await asyncio.gather(
        *(store.write(lambda tx: tx.append_event(campaign_id, 9, "G", "x", "e", {})) for _ in range(50))
    )
    assert 1 <= commits < 50


@pytest.mark.sqlite_only(reason="hand-offs to the SQLite writer thread; on PostgreSQL each statement is a round trip")
async def test_a_group_commit_is_one_hand_off_to_the_writer_thread(store: SqliteStore) -> None:
    """Not one per statement: every thread hop costs the event loop a wake-up (counted, not timed)."""
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
    await store.write(lambda tx: tx.append_event(campaign_id, 9, "G", "x", "warm", {}))
    loop = asyncio.get_running_loop()
    original = loop.call_soon_threadsafe
    wakeups = 0

    def counting(*args, **kwargs):
        nonlocal wakeups
        wakeups += 1
        return original(*args, **kwargs)

    loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
    try:
        await asyncio.gather(
            *(store.write(lambda tx: tx.append_event(campaign_id, 9, "G", "x", "e", {})) for _ in range(64))
        )
    finally:
        del loop.call_soon_threadsafe
    assert wakeups <= 4, wakeups


async def test_actor_names_read_only_what_was_logged_since(store: SqliteStore) -> None:
    """The console learns names each time timers fire: it reads the events after the last it read, never the
    whole log again, and takes neither a timer's nor a standing order's name for a member's."""
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
        await tx.append_event(campaign_id, 9, "Gwen", "x", "e", {})
        await tx.append_event(campaign_id, 7, "Pat", "x", "e", {})
    names, read_to = await store.actor_names()
    assert names == {9: "Gwen", 7: "Pat"} and read_to > 0
    assert await store.actor_names(read_to) == ({}, read_to)  # nothing new: nothing read
    async with store.transaction() as tx:
        await tx.append_event(campaign_id, 7, "Patricia", "x", "renamed", {})
        await tx.append_event(campaign_id, 9, "Magister (timer)", "x", "a deadline", {})
        await tx.append_event(campaign_id, 5, "Oz (by standing order)", "x", "an order", {})
    names, newer = await store.actor_names(read_to)
    assert names == {7: "Patricia"} and newer > read_to


@pytest.mark.sqlite_only(reason="SQLite's writer thread drains the queue itself; PostgreSQL's lanes commit per group")
async def test_an_async_transaction_gets_its_turn_while_writes_keep_coming(store: SqliteStore) -> None:
    """The writer thread takes group after group while writes keep arriving; a transaction() waiting for the
    writer must still get it between two groups, not when the writes stop."""
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
    stop, written, draining = False, 0, asyncio.Event()

    def slow_write(tx):  # slower on the thread than the loop refills the queue: it is never empty
        time.sleep(0.0005)
        return tx.append_event(campaign_id, 9, "G", "x", "busy", {})

    async def keep_writing() -> None:
        nonlocal written
        while not stop:
            await store.write(slow_write)
            written += 1
            if written >= 200:
                draining.set()

    writers = [asyncio.create_task(keep_writing()) for _ in range(3 * MAX_BATCH)]  # more than a group
    await draining.wait()  # the thread is taking group after group

    async def in_a_transaction() -> None:
        async with store.transaction() as tx:
            await tx.append_event(campaign_id, 9, "G", "x", "between groups", {})

    await asyncio.wait_for(in_a_transaction(), timeout=5)
    assert not any(task.done() for task in writers)  # the writes were still coming
    stop = True
    await asyncio.gather(*writers)
    summaries = [event.summary for event in await store.events(campaign_id, limit=written + 5)]
    assert "between groups" in summaries and len(summaries) == written + 1
