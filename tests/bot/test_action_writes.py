"""An action's writes as data (bot/storage/action.py), run in groups: on PostgreSQL a group's actions are two
statements (bot/storage/postgres/batch.py), on SQLite one (bot/storage/sqlite_batch.py) for the actions that only
change their campaign, sheets and log, the rest statement by statement; both must keep each action apart.

Each test runs on both backends. On PostgreSQL the campaigns used share one writer lane (id % LANES), so their
writes meet in one group commit, and the tests check the batch really ran them together.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import writer
from bot.storage.action import ActionDone, ActionWrite, EventWrite
from bot.storage.postgres import batch
from bot.storage.postgres.writer import LANES
from bot.storage.protocol import Store
from bot.storage.rows import StaleCampaignError
from bot.storage.writer import SWITCH_INTERVAL
from bot.table.registry import Registry
from bot.table.service import ConcurrentChangeError, Place, TableService
from tests.conftest import GM, PLAYER, open_store
from tests.support.db import ON_POSTGRES, execute, fetch

SAME_LANE = [1, 1 + LANES, 1 + 2 * LANES]  # campaign ids that share PostgreSQL's writer lane


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store with campaigns 1 to 9, none with an event yet."""
    opened = await open_store(tmp_path / "actions.sqlite3")
    async with opened.transaction() as tx:
        for channel in range(1, 10):
            await tx.insert_campaign(1, channel, "tally", f"c{channel}", [11], {}, {"count": 0})
    yield opened
    await opened.close()


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The campaign ids of each batch the store runs."""
    seen: list[list[int]] = []
    real, real_sqlite = batch.run_batch, writer.run_batch

    async def counted(connection, actions, now=None):
        seen.append([action.campaign.id for action in actions])
        return await real(connection, actions, now)

    def counted_sqlite(db, actions, now):
        seen.append([action.campaign.id for action in actions])
        return real_sqlite(db, actions, now)

    monkeypatch.setattr(batch, "run_batch", counted)
    monkeypatch.setattr(writer, "run_batch", counted_sqlite)
    return seen


async def _row(store: Store, campaign_id: int):
    row = await store.campaign_by_id(campaign_id)
    assert row is not None
    return row


def _action(row, mode: str = "state", *, count: int = 1, version: int | None = None, **kwargs) -> ActionWrite:
    row.state = {"count": count}
    event = EventWrite(11, "Gwen", "tally add", f"count {count}", {"count": count})
    return ActionWrite(row, row.version if version is None else version, mode, event, **kwargs)  # type: ignore[arg-type]


async def _seqs(store: Store, campaign_id: int) -> list[int]:
    rows = await fetch(store, "SELECT seq FROM events WHERE campaign_id = ? ORDER BY id", campaign_id)
    return [row[0] for row in rows]


async def test_a_stale_action_in_a_group_fails_alone(store: Store, batches: list[list[int]]) -> None:
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    stale = rows[1]
    await execute(store, "UPDATE campaigns SET version = version + 1 WHERE id = ?", stale.id)  # another process
    results = await asyncio.gather(*(store.write(_action(row)) for row in rows), return_exceptions=True)
    assert isinstance(results[1], StaleCampaignError) and results[1].args == (stale.id,)
    assert all(isinstance(results[i], ActionDone) for i in (0, 2)), results
    for index, campaign_id in enumerate(SAME_LANE):
        after = await _row(store, campaign_id)
        if campaign_id == stale.id:
            assert (after.state, after.version, await _seqs(store, campaign_id)) == ({"count": 0}, 1, [])
        else:
            assert (after.state, after.version, await _seqs(store, campaign_id)) == ({"count": 1}, 1, [1])
            assert rows[index].version == 1  # the writer's copy moved with the row
            (event,) = await store.events(campaign_id, limit=5)
            assert event.id == results[index].event_id  # type: ignore[union-attr]
    if ON_POSTGRES:  # one batch of three, refused; the two others again, committed
        assert batches == [SAME_LANE, [SAME_LANE[0], SAME_LANE[2]]]
    else:  # one batch of three, rolled back; then each alone
        assert batches == [SAME_LANE, *([campaign_id] for campaign_id in SAME_LANE)]


async def test_an_archived_campaign_refuses_a_check_or_touch_but_not_the_others(
    store: Store, batches: list[list[int]]
) -> None:
    """The checks of SQLite's WriteTx, in the batch: a log-only or character-only action refuses an ended
    campaign; the others in its group land."""
    await execute(store, "UPDATE campaigns SET archived_at = 'then' WHERE id IN (?, ?)", SAME_LANE[0], SAME_LANE[1])
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    writes = [_action(rows[0], "check"), _action(rows[1], "touch"), _action(rows[2], "check")]
    results = await asyncio.gather(*(store.write(write) for write in writes), return_exceptions=True)
    assert [type(result).__name__ for result in results] == ["StaleCampaignError", "StaleCampaignError", "ActionDone"]
    assert [await _seqs(store, campaign_id) for campaign_id in SAME_LANE] == [[], [], [1]]
    assert (await _row(store, SAME_LANE[2])).version == 0  # a check moves nothing


async def test_events_are_numbered_without_gaps_across_a_group(store: Store, batches: list[list[int]]) -> None:
    """Several actions of one campaign in one group: log-only ones, and state ones each expecting the version the
    one before leaves; every one lands, numbered in order, beside another campaign's."""
    first, second = await _row(store, SAME_LANE[0]), await _row(store, SAME_LANE[1])
    checks = [_action(first, "check") for _ in range(4)]
    chained = [_action(second.__class__(**vars(second)), count=n, version=n - 1) for n in (1, 2, 3)]
    results = await asyncio.gather(*(store.write(write) for write in [*checks, *chained]))
    assert all(isinstance(result, ActionDone) for result in results)
    assert await _seqs(store, first.id) == [1, 2, 3, 4]
    assert await _seqs(store, second.id) == [1, 2, 3]
    after = await _row(store, second.id)
    assert (after.state, after.version) == ({"count": 3}, 3)
    assert [write.campaign.version for write in chained] == [1, 2, 3]
    assert (await store.count_events(first.id), await store.count_events(second.id)) == (4, 3)
    # each campaign's first action in the batch, the rest after it in the same transaction
    assert batches == [[first.id, second.id]]


async def test_characters_added_in_one_group_get_their_own_ids(store: Store, batches: list[list[int]]) -> None:
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    writes = [
        _action(row, "touch", added=[(22, f"Pip {i}", {"points": i}), (33, f"Oz {i}", {"points": 0})])
        for i, row in enumerate(rows)
    ]
    results = await asyncio.gather(*(store.write(write) for write in writes))
    for row, result, write in zip(rows, results, writes, strict=True):
        stored = {c.name: (c.id, c.owner_id, c.sheet) for c in await store.characters(row.id)}
        assert [stored[name][0] for _, name, _ in write.added] == result.added
        assert [stored[name][1:] for _, name, _ in write.added] == [(owner, sheet) for owner, _, sheet in write.added]
    assert batches == ([SAME_LANE] if ON_POSTGRES else [])  # SQLite's batch leaves added characters to WriteTx


async def test_two_processes_hammering_the_same_campaigns_stay_consistent(tmp_path: Path, registry: Registry) -> None:
    """Two stores on one database (two processes), each acting in the same ten channels at once, so both write
    every campaign in group after group: each campaign's count is its acknowledged actions, each acknowledged
    count was given once, and its log is numbered 1, 2, 3… without a gap."""
    path = tmp_path / "shared.sqlite3"
    stores = [await open_store(path), await open_store(path)]
    services = [TableService(store, registry, random.Random(i)) for i, store in enumerate(stores)]
    channels = [Place(1, channel) for channel in range(1, 11)]
    for place in channels:
        await services[0].start_campaign(place, GM, "tally", "Shared")
        await services[0].run(place, PLAYER, "tally", "create", {"name": "Pip"})
    counts: dict[Place, list[int]] = {place: [] for place in channels}

    async def add(service: TableService, place: Place) -> None:
        try:
            reply = await service.run(place, PLAYER, "tally", "add", {"name": "Pip"})
        except ConcurrentChangeError:  # refused twice, nothing saved: not acknowledged
            return
        counts[place].append(reply.outcome.data["count"])

    try:
        for _ in range(8):
            await asyncio.gather(*(add(service, place) for service in services for place in channels))
        for place in channels:
            row = await stores[0].campaign(place.guild_id, place.channel_id)
            assert row is not None
            acknowledged = sorted(counts[place])
            assert acknowledged == list(range(1, len(acknowledged) + 1)), place  # none given twice, none lost
            assert row.state["count"] == len(acknowledged)
            seqs = await _seqs(stores[0], row.id)
            assert seqs == list(range(1, len(seqs) + 1))
            assert len(seqs) == 2 + len(acknowledged)  # start, create, the adds
            assert await stores[1].count_events(row.id) == len(seqs)
        assert sum(map(len, counts.values())) >= 80  # most land: a refusal needs losing the retry too
    finally:
        for store in stores:
            await store.close()


async def test_a_process_never_takes_its_own_writes_for_another_s(store: Store, tmp_path: Path) -> None:
    """Its writes commit on several connections (PostgreSQL's lanes) and each is counted for the other processes:
    its own counts must never look like someone else's, or every write would empty its cache. Another process's
    write is seen."""
    before = store.generation
    rows = [await _row(store, campaign_id) for campaign_id in range(1, 10)]  # every lane
    for _ in range(5):
        await asyncio.gather(*(store.write(_action(row, "check")) for row in rows))
    assert store.generation == before and not await store.check_others()
    other = await open_store(tmp_path / "actions.sqlite3")
    try:
        await other.write(_action(await _row(other, 1), "check"))
    finally:
        await other.close()
    assert await store.check_others() and store.generation == before + 1


async def test_sheets_changed_in_a_group_are_written_each_to_its_character(
    store: Store, batches: list[list[int]]
) -> None:
    """The batch's sheets: each character gets its own sheet and owner, and no other character moves."""
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    born = await asyncio.gather(
        *(store.write(_action(row, "touch", added=[(22, "Pip", {"hp": 1}), (33, "Oz", {"hp": 2})])) for row in rows)
    )
    pips = [done.added[0] for done in born]
    writes = [
        _action(row, "touch", count=2, updated=[(pip, 44, {"hp": 10 + i})])
        for i, (row, pip) in enumerate(zip(rows, pips, strict=True))
    ]
    results = await asyncio.gather(*(store.write(write) for write in writes))
    assert all(isinstance(result, ActionDone) for result in results)
    for i, row in enumerate(rows):
        stored = {c.name: (c.owner_id, c.sheet) for c in await store.characters(row.id)}
        assert stored == {"Pip": (44, {"hp": 10 + i}), "Oz": (33, {"hp": 2})}
        assert (await _row(store, row.id)).version == 2  # touched twice
    assert batches[-1] == SAME_LANE


def _statements(store: Store) -> list[str]:
    """The first words of every statement the SQLite writer's connection runs from now on."""
    seen: list[str] = []
    store._writer._db.set_trace_callback(lambda sql: seen.append(" ".join(sql.split()[:3])))  # type: ignore[attr-defined]
    return seen


@pytest.mark.skipif(ON_POSTGRES, reason="SQLite's batch statement")
async def test_a_group_of_batched_actions_is_one_statement_committed_as_it_ends(
    store: Store, batches: list[list[int]]
) -> None:
    """No BEGIN, no COMMIT of its own: the batch's INSERT is the transaction (one hand-off of the GIL, issue 23).
    What it wrote is there for another connection, so it was committed."""
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    statements = _statements(store)
    results = await asyncio.gather(*(store.write(_action(row, count=5)) for row in rows))
    # SQLite's trace names the outer statement again as each row's trigger program starts: one statement, no other
    assert {sql for sql in statements if sql.split()[0] in ("BEGIN", "COMMIT", "INSERT", "UPDATE")} == {
        "INSERT INTO batch_actions"
    }
    assert batches == [SAME_LANE]
    other = sqlite3.connect(store._writer.path)  # type: ignore[attr-defined]
    try:
        stored = other.execute(
            f"SELECT id, campaign_id, seq FROM events WHERE campaign_id IN ({','.join('?' * 3)}) ORDER BY id",
            SAME_LANE,
        ).fetchall()
        states = other.execute("SELECT state, version FROM campaigns WHERE id = ?", (SAME_LANE[1],)).fetchall()
    finally:
        other.close()
    assert stored == [(done.event_id, campaign_id, 1) for done, campaign_id in zip(results, SAME_LANE, strict=True)]
    assert states == [('{"count":5}', 1)]


@pytest.mark.skipif(ON_POSTGRES, reason="SQLite's batch statement")
@pytest.mark.parametrize(
    ("code", "calls"),
    [
        # BUSY_SNAPSHOT: outside BEGIN, SQLite refuses at once, without waiting for the lock, a statement whose read
        # snapshot another process's commit made stale; the group then takes the lock first in BEGIN IMMEDIATE
        (writer.SQLITE_BUSY_SNAPSHOT, [False, True]),
        # BUSY comes after the statement waited out the busy timeout: the group fails at once (each job is then
        # tried alone, as after any failure) rather than waiting for the lock again in BEGIN IMMEDIATE
        (5, [False, False, False, False]),
    ],
    ids=["stale snapshot: in a transaction", "lock held past the timeout: not waited for twice"],
)
async def test_a_busy_batch_is_written_once_nothing_doubled(
    store: Store, monkeypatch: pytest.MonkeyPatch, code: int, calls: list[bool]
) -> None:
    real = writer.run_batch
    seen: list[bool] = []

    def busy_once(db, actions, now):
        seen.append(db.in_transaction)
        if len(seen) == 1:
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorcode = code  # type: ignore[attr-defined]  # as SQLite's own errors carry it
            raise error
        return real(db, actions, now)

    monkeypatch.setattr(writer, "run_batch", busy_once)
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    results = await asyncio.gather(*(store.write(_action(row)) for row in rows))
    assert seen == calls
    assert all(isinstance(result, ActionDone) for result in results)
    assert [await _seqs(store, campaign_id) for campaign_id in SAME_LANE] == [[1], [1], [1]]
    assert [(await _row(store, campaign_id)).version for campaign_id in SAME_LANE] == [1, 1, 1]


@pytest.mark.skipif(ON_POSTGRES, reason="SQLite's writer thread (PostgreSQL's writes run on the event loop)")
async def test_a_sqlite_store_lets_its_writer_thread_have_the_gil_soon(store: Store) -> None:
    """At Python's default 5 ms switch interval the writer thread waited for a busy loop at every statement."""
    assert sys.getswitchinterval() <= SWITCH_INTERVAL < 0.005


@pytest.mark.parametrize("nul", ["", "\x00"])
async def test_a_batched_event_keeps_every_character_of_its_text(
    store: Store, batches: list[list[int]], nul: str
) -> None:
    """SQLite's batch carries an event through JSON: quotes, backslashes, emoji and accents come back exactly, and
    the result's JSON with them. A NUL in its text (PostgreSQL stores U+FFFD for it), which SQLite's JSON functions
    would cut the text at, sends the action statement by statement instead, and it is kept too."""
    odd = f'Zoë "the \\ bold" 🐉{nul}end'
    stored_odd = odd.replace("\x00", "\ufffd") if ON_POSTGRES else odd
    rows = [await _row(store, campaign_id) for campaign_id in SAME_LANE]
    writes = []
    for row in rows:
        row.state = {"name": odd, "big": 2**53 + 1, "ratio": 0.1}
        event = EventWrite(11, odd, odd, odd, {"text": odd, "n": 2**53 + 1, "x": 1e-7}, {"state_delta": [odd]}, 77)
        writes.append(ActionWrite(row, row.version, "state", event))
    done = await asyncio.gather(*(store.write(write) for write in writes))
    for row, result in zip(rows, done, strict=True):
        (event,) = await store.events(row.id, limit=5)
        assert event.id == result.event_id  # each action told its own event's row id
        assert (event.actor_name, event.command, event.summary) == (stored_odd, stored_odd, stored_odd)
        assert event.result == {"text": stored_odd, "n": 2**53 + 1, "x": 1e-7}
        assert event.thread_id == 77
        assert (await _row(store, row.id)).state == {"name": stored_odd, "big": 2**53 + 1, "ratio": 0.1}
    assert batches == ([] if nul and not ON_POSTGRES else [SAME_LANE])
