"""/campaign log's filters seek their indexes however long the log grows (issue 23).

On SQLite every query a filtered page runs is read back through EXPLAIN QUERY PLAN (no full scan of the
events; a text through its trigram index), and its work is counted in virtual-machine steps at two log
lengths (a progress handler, as test_history_cost does: exact on a busy machine). On PostgreSQL each query is
read back through EXPLAIN with the values it ran with: no sequential scan of the events.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable

import pytest

from bot.storage.rows import SHORT_TEXT_WINDOW
from bot.table import campaigns
from bot.table.campaigns import LogFilter
from bot.table.service import Caller, TableService
from tests.bot.test_history_cost import steps
from tests.conftest import GM, HERE, PLAYER
from tests.support.db import ON_POSTGRES, fetch, insert_many

ACTORS = ((PLAYER.user_id, "Pat"), (33, "Oz"), (44, "Ann"), (55, "Bo"))
COMMANDS = ("roll", "runic cast", "tally add", "roll", "serpent cast")
SPELLS = ("ice lance", "healing word", "shield", "lightning", "stone skin", "mage hand", "far sight", "warding")

# (what, who reads, the filter): each filter alone, the texts long and short, and some together
VIEWS: tuple[tuple[str, Caller, LogFilter], ...] = (
    ("player", GM, LogFilter(player_id=PLAYER.user_id)),
    ("command", GM, LogFilter(command="runic cast")),
    ("secrets", GM, LogFilter(secrets=True)),
    ("common text, GM", GM, LogFilter(text="fire bolt")),
    ("rare text, player", PLAYER, LogFilter(text="lantern")),
    ("secret text, GM", GM, LogFilter(text="guard saw")),
    ("2-character text", GM, LogFilter(text="Oz")),
    ("player and text", GM, LogFilter(player_id=PLAYER.user_id, text="fire bolt")),
    ("command and secrets", GM, LogFilter(command="roll", secrets=True)),
)
# the index each view's reads seek (SQLite), for the views one index answers
SQLITE_INDEX = {
    "player": "events_by_actor",
    "command": "events_by_command",
    "secrets": "events_secret",
    "common text, GM": "events_text VIRTUAL TABLE",
    "rare text, player": "events_text VIRTUAL TABLE",
    "secret text, GM": "events_text VIRTUAL TABLE",
    "2-character text": "events_seq",
}


def _rows(campaign_id: int, count: int, first: int):
    """A table's log: four players, a few commands; "fire bolt" in one event of 10, "lantern" in one of 1,000;
    one event in 20 secret ("the guard saw …" on the GM's side), one in 50 private."""
    for i in range(count):
        actor_id, actor = ACTORS[i % len(ACTORS)]
        spell = "fire bolt" if i % 10 == 0 else "lantern" if i % 1000 == 7 else SPELLS[i % len(SPELLS)]
        if i % 20 == 3:
            result = json.dumps({"secret": {"summary": f"the guard saw {i % 20}"}})
        elif i % 50 == 11:
            result = json.dumps({"private": {"summary": f"a note {i}", "readers": [actor_id]}})
        else:
            result = "{}"
        command = COMMANDS[i % len(COMMANDS)]
        summary = f"{actor} rolled 1d20 for {spell}: {i % 20 + 1}"
        yield (campaign_id, actor_id, actor, command, summary, result, first + i)


async def grow(service: TableService, count: int) -> int:
    """``count`` more events in HERE's campaign, numbered on from its newest, straight into the database."""
    row = await service.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    first = await service.store.count_events(row.id) + 1
    await insert_many(
        service.store,
        "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, seq)"
        " VALUES (?, '2026-01-01T00:00:00+00:00', ?, ?, ?, ?, ?, ?)",
        list(_rows(row.id, count, first)),
    )
    return row.id


async def turn_every_way(service: TableService, caller: Caller, filters: LogFilter) -> None:
    """What a reader does with a filtered log: its first page, Next (seeking from the page's last event),
    Previous from the page after (from its first), and a page typed by number."""
    first, _ = await campaigns.log_page(service, HERE, 1, caller, filters)
    ends = campaigns.page_ends(first)
    if ends is None:
        return
    second, _ = await campaigns.log_page(service, HERE, 2, caller, filters, older_than=ends[1])
    if (after := campaigns.page_ends(second)) is not None:
        third, _ = await campaigns.log_page(service, HERE, 3, caller, filters, older_than=after[1])
        if (later := campaigns.page_ends(third)) is not None:
            await campaigns.log_page(service, HERE, 2, caller, filters, newer_than=later[0])
    await campaigns.log_page(service, HERE, 5, caller, filters)


async def _traced(service: TableService, read: Callable[[], Awaitable[object]]) -> list[str]:
    """Every statement the SQLite reader ran during ``read``, with its values written in."""
    statements: list[str] = []
    await service.store._reader.set_trace_callback(statements.append)  # type: ignore[attr-defined]
    try:
        await read()
    finally:
        await service.store._reader.set_trace_callback(None)  # type: ignore[attr-defined]
    internal = "'main'.'events_text_"  # FTS5's own reads of the tables behind the text index
    return [s for s in statements if s.lstrip().upper().startswith("SELECT") and "events" in s and internal not in s]


FULL_SCAN = re.compile(r"^SCAN (events|e)\b(?! VIRTUAL)")
EVENTS_STEP = re.compile(r"^(SCAN|SEARCH) (events|e)\b(?! VIRTUAL)")
NEWEST = "SEARCH events USING COVERING INDEX events_seq (campaign_id=?)"  # max(seq): one seek, the window's end


@pytest.mark.sqlite_only(reason="SQLite's query plans (PostgreSQL's: the next test)")
@pytest.mark.parametrize(("name", "caller", "filters"), VIEWS, ids=[name for name, _, _ in VIEWS])
async def test_every_filtered_read_seeks_an_index(tally: TableService, name: str, caller: Caller, filters) -> None:
    """No read scans the events; a filter one index answers reads the events through that index alone (a
    text: the trigram index, then each hit's own event by its number)."""
    await grow(tally, 3_000)
    queries = await _traced(tally, lambda: turn_every_way(tally, caller, filters))
    assert len(queries) >= 4, queries
    steps_on_events = []
    for sql in queries:
        plan = [row[3] for row in await fetch(tally.store, f"EXPLAIN QUERY PLAN {sql}")]
        assert not [step for step in plan if FULL_SCAN.match(step)], (sql, plan)
        steps_on_events += [step for step in plan if EVENTS_STEP.match(step)]
        if "events_text" in SQLITE_INDEX.get(name, ""):
            assert any("events_text VIRTUAL TABLE INDEX" in step and ":M" in step for step in plan), (sql, plan)
    if name not in SQLITE_INDEX:
        return
    index = SQLITE_INDEX[name]
    for step in steps_on_events:
        if index.startswith("events_text"):  # each hit seeks its event by number
            assert step.startswith("SEARCH e USING INDEX events_seq (campaign_id=? AND seq=?)"), (step, name)
        elif index == "events_seq":  # the short search's window: a range of numbers, from the newest back
            assert step == NEWEST or (index in step and "seq>? AND seq<?" in step), (step, name)
        else:
            assert f"INDEX {index} (" in step, (step, name)


async def _costs(service: TableService) -> dict[str, int]:
    found = {}
    for name, caller, filters in VIEWS:
        found[name] = await steps(service.store, lambda c=caller, f=filters: turn_every_way(service, c, f))
    found["middle page"] = await steps(service.store, lambda: _middle_page(service))
    return found


async def _middle_page(service: TableService) -> None:
    _, pages = await campaigns.log_page(service, HERE, 1, GM)
    await campaigns.log_page(service, HERE, max(1, pages // 2), GM)


@pytest.mark.sqlite_only(reason="counts SQLite VM steps (PostgreSQL's plans: the next test)")
async def test_filtered_reads_cost_the_same_however_long_the_log(tally: TableService) -> None:
    """From a log longer than the short search's window to one 13 times as long: each filter's first page,
    its Next and Previous, a page typed by number, and the whole log's middle page cost about the same."""
    await grow(tally, SHORT_TEXT_WINDOW + 500)
    small = await _costs(tally)
    await grow(tally, 30_000)
    large = await _costs(tally)
    for name in small:
        assert large[name] <= small[name] * 2 + 2_000, (name, small[name], large[name])


def _plan_nodes(plan: dict) -> list[tuple[str, str, str]]:
    """Every (node type, relation, index) in an EXPLAIN (FORMAT JSON) plan."""
    found = [(plan.get("Node Type", ""), plan.get("Relation Name", ""), plan.get("Index Name", ""))]
    for child in plan.get("Plans", []):
        found += _plan_nodes(child)
    return found


@pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL's plans: runs on the PostgreSQL pass")
async def test_every_filtered_read_seeks_an_index_on_postgresql(tally: TableService) -> None:
    """With 200 000 events in two campaigns, no filtered read (as planned for its own values) scans the events;
    a rare text is found through the trigram index."""
    from bot.storage.postgres import PgStore

    store = tally.store
    assert isinstance(store, PgStore)
    await tally.start_campaign(type(HERE)(HERE.guild_id, 9999), GM, "tally", "Elsewhere")
    async with store._pool.acquire() as connection, connection.transaction():
        for row in await store.live_campaigns("tally"):
            first = await store.count_events(row.id) + 1
            rows = [(*r[:1], "t", *r[1:]) for r in _rows(row.id, 100_000, first)]
            columns = ("campaign_id", "at", "actor_id", "actor_name", "command", "summary", "result", "seq")
            await connection.copy_records_to_table("events", records=rows, columns=columns)
    await fetch(store, "ANALYZE")
    queries: list[tuple[str, tuple]] = []
    for method in ("_fetch", "_fetchval", "_fetch_planned"):  # every read the store makes, with its values
        run = getattr(store, method)

        async def noted(sql: str, *args: object, run=run) -> object:
            queries.append((sql, args))
            return await run(sql, *args)

        setattr(store, method, noted)
    by_view: dict[str, list[tuple[str, tuple]]] = {}
    for name, caller, filters in VIEWS:
        start = len(queries)
        await turn_every_way(tally, caller, filters)
        by_view[name] = [(sql, args) for sql, args in queries[start:] if "FROM events WHERE" in sql]
    async with store._pool.acquire() as connection:
        for name, reads in by_view.items():
            assert reads, name
            nodes = []
            for sql, args in reads:
                explained = await connection.fetchval(f"EXPLAIN (FORMAT JSON) {sql}", *args)
                (plan,) = json.loads(explained)
                nodes += _plan_nodes(plan["Plan"])
            assert not [n for n in nodes if n[0] == "Seq Scan" and n[1] == "events"], (name, nodes)
            if name == "rare text, player":
                assert any(index == "events_text" for _, _, index in nodes), (name, nodes)
