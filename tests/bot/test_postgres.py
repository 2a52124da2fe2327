"""The PostgreSQL store: the same API as SQLite's, the same migrations, and PostgreSQL's own guarantees.

The first tests need no server. The rest run on the PostgreSQL pass (``make test`` starts a throwaway
cluster, tests/support/pg_cluster.py); every other test file runs on both backends.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.storage import database, protocol
from bot.storage.postgres import PgStore, PgStoreOpenError
from bot.storage.postgres.migrations import PG_MIGRATIONS
from bot.storage.postgres.writer import PgTransaction, PgWriteTx
from bot.storage.sqlite import MIGRATIONS, SqliteStore, Transaction, WriteTx
from bot.table import campaigns
from bot.table.service import TableService
from tests.conftest import GM, HERE, PLAYER, open_store
from tests.support.db import ON_POSTGRES, fetch, insert_many

ROOT = Path(__file__).resolve().parents[2]
on_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL: runs on the PostgreSQL pass (make test)")


def public(cls: type) -> dict[str, inspect.Signature | None]:
    """Public methods (with their signatures) and properties of a class."""
    found: dict[str, inspect.Signature | None] = {}
    for name, member in inspect.getmembers(cls):
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            found[name] = None
        elif callable(member):
            found[name] = inspect.signature(member)
    return found


@pytest.mark.parametrize(
    ("sqlite", "postgres"), [(SqliteStore, PgStore), (WriteTx, PgWriteTx), (Transaction, PgTransaction)]
)
def test_the_postgres_store_offers_every_public_method_of_the_sqlite_one(sqlite: type, postgres: type) -> None:
    """Anything added to the SQLite store without a PostgreSQL twin fails here."""
    theirs, ours = public(sqlite), public(postgres)
    missing = sorted(set(theirs) - set(ours))
    assert not missing, f"{postgres.__name__} lacks {missing}"
    for name, signature in theirs.items():
        if signature is not None and name not in ("open", "__init__"):
            if postgres in (PgWriteTx, PgTransaction):
                continue  # bridged: (*args, **kwargs) passed through to the twin checked below
            assert list(ours[name].parameters) == list(signature.parameters), name  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("declared", "sqlite", "postgres"),
    [
        (protocol.Store, SqliteStore, PgStore),
        (protocol.WriteTx, WriteTx, PgWriteTx),
        (protocol.Transaction, Transaction, PgTransaction),
    ],
)
def test_both_stores_are_the_protocol_the_service_depends_on(declared: type, sqlite: type, postgres: type) -> None:
    """The protocol is all the service may use, and both backends offer all of it with the same parameters."""
    wanted = public(declared)
    for backend in (sqlite, postgres):
        offered = public(backend)
        assert sorted(set(wanted) - set(offered)) == [], backend.__name__
    extra = sorted(set(public(sqlite)) - set(wanted) - {"open", "__init__", "path"})
    assert extra == [], f"public on the SQLite store but not in bot/storage/protocol.py: {extra}"
    for name, signature in wanted.items():
        if signature is not None:
            assert list(public(sqlite)[name].parameters) == list(signature.parameters), name  # type: ignore[union-attr]


def test_the_statements_take_what_write_tx_takes() -> None:
    from bot.storage.postgres.statements import Statements

    for name, signature in public(WriteTx).items():
        assert list(inspect.signature(getattr(Statements, name)).parameters) == list(signature.parameters), name


def test_the_log_filters_are_worded_as_their_indexes_were_made() -> None:
    """Checked without a server: each clause in the words of migration 8's index (the partial index's condition,
    the trigram index's expressions), so PostgreSQL's planner can match them; a text is ILIKE, escaped."""
    from bot.storage.postgres.statements import HIDDEN_SIDES, SECRET_SIDE, log_where
    from bot.storage.rows import SHORT_TEXT_WINDOW, LogQuery

    query = LogQuery(actor_id=7, command="roll", secret_only=True, text="50%", reveal=True)
    sql, parameters = log_where(3, query)
    assert parameters == (3, 7, "roll", "%50\\%%", "%50\\%%", "%50\\%%")
    assert "json_extract" not in sql and " LIKE " not in sql and sql.count(" ILIKE ") == 3
    migration = " ".join(PG_MIGRATIONS[8].split())
    assert SECRET_SIDE in sql and " ".join(SECRET_SIDE.split()) in migration
    assert all(f"{side} gin_trgm_ops" in migration and f"{side} ILIKE ?" in sql for side in HIDDEN_SIDES)
    # a hidden side's JSON is read only when the stored text holds its key (issue 23: a GM's search parsed every one)
    assert "strpos(result, '\"secret\"') > 0 AND" in sql and "strpos(result, '\"private\"') > 0 AND" in sql
    assert 'command COLLATE "C" = ?' in sql and 'command COLLATE "C", seq' in migration
    player, _ = log_where(3, LogQuery(text="50%"))  # a player's search reads the public summary alone
    assert "result" not in player and player.count(" ILIKE ") == 1
    short, found = log_where(3, LogQuery(text="hp"), newest=9_000)  # no trigram: the newest events only
    assert "seq > ?" in short and found[-1] == 9_000 - SHORT_TEXT_WINDOW


def test_every_migration_has_a_postgres_version_under_the_same_number() -> None:
    assert sorted(PG_MIGRATIONS) == list(range(1, len(MIGRATIONS) + 1))


async def test_the_url_chooses_the_backend_and_a_bad_one_is_named_without_its_password(tmp_path: Path) -> None:
    store = await database.open_store(f"sqlite:///{tmp_path / 'by-url.sqlite3'}")
    assert isinstance(store, SqliteStore) and (tmp_path / "by-url.sqlite3").exists()
    await store.close()
    with pytest.raises(PgStoreOpenError) as refused:
        await database.open_store(f"postgresql://magister:hunter2@/nowhere?host={tmp_path / 'no-server'}")
    message = str(refused.value)
    assert "hunter2" not in message and "magister:***@" in message and "MAGISTER_DB" in message


@on_postgres
async def test_synchronous_maps_to_synchronous_commit(tmp_path: Path) -> None:
    full = await open_store(tmp_path / "full.sqlite3")
    normal = await open_store(tmp_path / "normal.sqlite3", synchronous="NORMAL")
    assert await fetch(full, "SHOW synchronous_commit") == [("on",)]
    assert await fetch(normal, "SHOW synchronous_commit") == [("off",)]
    await full.close()
    await normal.close()


@on_postgres
async def test_a_failed_migration_leaves_the_schema_as_it_was(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "m.sqlite3")
    await store.close()
    with pytest.MonkeyPatch.context() as patch:  # a migration 7 that fails half-way
        patch.setattr("bot.storage.postgres.migrations.MIGRATIONS", (*MIGRATIONS, "-- 7"))
        patch.setitem(PG_MIGRATIONS, len(MIGRATIONS) + 1, "CREATE TABLE half (id INT); SELECT 1/0;")
        with pytest.raises(Exception, match="division by zero"):
            await open_store(tmp_path / "m.sqlite3")
    again = await open_store(tmp_path / "m.sqlite3")
    assert await again.schema_version() == len(MIGRATIONS)
    assert await fetch(again, "SELECT count(*) FROM pg_tables WHERE tablename = 'half'") == [(0,)]
    await again.close()


def _scans(plan: dict) -> list[tuple[str, str]]:
    """Every (node type, relation) in an EXPLAIN (FORMAT JSON) plan."""
    found = [(plan.get("Node Type", ""), plan.get("Relation Name", ""))]
    for child in plan.get("Plans", []):
        found += _scans(child)
    return found


@on_postgres
async def test_undo_status_and_log_pages_seek_indexes_however_long_the_log(tally: TableService) -> None:
    """PostgreSQL's twin of test_history_cost: with 60 000 events in the table, no read scans the events."""
    store = tally.store
    assert isinstance(store, PgStore)
    await tally.start_campaign(type(HERE)(HERE.guild_id, 9999), GM, "tally", "Elsewhere")
    for campaign in await store.live_campaigns("tally"):
        first = await store.count_events(campaign.id) + 1  # numbered on, as append_event numbers them
        await insert_many(
            store,
            "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, seq)"
            " VALUES (?, 't', 11, 'Gwen', ?, 'x', '{}', ?, ?)",
            (
                (campaign.id, "roll" if i % 10 else "tally add", None if i % 10 else "{}", first + i)
                for i in range(30_000)
            ),
        )
    await fetch(store, "ANALYZE")
    queries = []
    held = [await store._pool.acquire() for _ in range(store._pool.get_max_size())]
    for connection in held:
        connection.add_query_logger(queries.append)
    for connection in held:
        await store._pool.release(connection)
    row = await store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    _, pages = await campaigns.log_page(tally, HERE, 1, GM)
    await store.last_undoable(row.id)
    await campaigns.status(tally, HERE)
    await campaigns.log_page(tally, HERE, pages, GM)
    await campaigns.log_page(tally, HERE, pages // 2, GM)
    await store.events_since_last_by(row.id, GM.user_id, limit=10)
    await asyncio.sleep(0)  # the loggers are called soon after each query
    reads = [q for q in queries if "events" in q.query]
    assert len(reads) >= 6, [q.query for q in queries]
    async with store._pool.acquire() as connection:
        for query in reads:
            (plan,) = json.loads(await connection.fetchval(f"EXPLAIN (FORMAT JSON) {query.query}", *query.args))
            scans = _scans(plan["Plan"])
            assert ("Seq Scan", "events") not in scans, (query.query, scans)


@on_postgres
async def test_a_nul_someone_typed_is_kept_as_a_replacement_character(store: PgStore) -> None:
    """PostgreSQL text cannot hold NUL, and its JSON functions (the log's text index reads results as JSON) refuse
    ``\\u0000``: the write succeeds, as on SQLite, with U+FFFD in its place, in text and in JSON alike."""
    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C\x00", [9], {}, {"note": "a\x00b"})
        await tx.append_event(
            campaign_id, 9, "Gwen\x00", "x", "did\x00x", {"label": "\x00", "secret": {"summary": "s\x00"}}
        )
    row = await store.campaign(1, 2)
    assert row is not None and row.name == "C\ufffd" and row.state == {"note": "a\ufffdb"}
    (event,) = await store.events(campaign_id, limit=5)
    assert (event.actor_name, event.summary) == ("Gwen\ufffd", "did\ufffdx")
    assert event.result == {"label": "\ufffd", "secret": {"summary": "s\ufffd"}}


@on_postgres
async def test_connections_the_server_dropped_are_replaced_without_losing_an_action(tally: TableService) -> None:
    """What a server restart does to idle connections: the next actions reconnect, none is refused."""
    store = tally.store
    assert isinstance(store, PgStore)
    async with store._pool.acquire() as connection:
        mine = await connection.fetchval("SELECT pg_backend_pid()")
    admin = await asyncpg.connect(store.url)
    try:
        dropped = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    assert dropped >= 1
    for _ in range(3):
        await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    campaign = await tally.campaign(HERE)
    assert campaign is not None and campaign.row.state["count"] == 3
    async with store._pool.acquire() as connection:
        assert await connection.fetchval("SELECT pg_backend_pid()") != mine


def run_bot(args: list[str], tmp_path: Path, db: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {"MAGISTER_DB": db, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=environment,
        input="/roll expression:1d6\n",
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_unreachable_postgres_stops_the_console_with_one_line(tmp_path: Path) -> None:
    result = run_bot(["console", "--json"], tmp_path, f"postgresql://magister:hunter2@/magister?host={tmp_path}")
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "cannot open the database postgresql://magister:***@/magister" in line and "MAGISTER_DB" in line
    assert "hunter2" not in result.stderr + result.stdout


@on_postgres
async def test_a_database_from_a_newer_magister_stops_the_start_with_one_line(tmp_path: Path) -> None:
    """Before, a schema newer than this version's opened silently (issue 21)."""
    store = await open_store(tmp_path / "newer.sqlite3")
    assert isinstance(store, PgStore)
    await store._pool.execute("UPDATE magister_schema SET version = 999")
    url = store.url
    await store.close()
    result = await asyncio.to_thread(run_bot, ["console", "--json"], tmp_path, url)
    assert result.returncode == 2, result.stdout + result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "made by a newer Magister (schema 999; this version knows" in line
    assert "upgrade Magister, or restore a backup" in line and "MAGISTER_DB" in line


def test_backup_says_to_use_pg_dump_for_postgres(tmp_path: Path) -> None:
    result = run_bot(["backup", str(tmp_path / "copy.sqlite3")], tmp_path, "postgresql://magister@/magister")
    assert result.returncode == 2 and "pg_dump" in result.stderr
    assert not (tmp_path / "copy.sqlite3").exists()


def test_a_write_tx_method_outside_a_write_job_is_refused_plainly() -> None:
    """PostgreSQL's sync jobs await each statement from a greenlet (bot/storage/postgres/bridge.py); called anywhere
    else the method says what to use instead, and its statement is never left un-awaited."""
    from bot.storage.postgres.bridge import await_only

    async def statement() -> int:
        return 1

    coroutine = statement()
    with pytest.raises(RuntimeError, match=r"use store\.write"):
        await_only(coroutine)
    assert coroutine.cr_frame is None  # closed


@on_postgres
async def test_write_jobs_never_leave_the_event_loop(store: PgStore) -> None:
    """No worker thread: a group of 64 sync jobs wakes the loop from another thread not once (SQLite's writer
    thread: at most 4, tests/bot/test_store.py), and each job runs on the loop's own thread."""
    import threading

    async with store.transaction() as tx:
        campaign_id = await tx.insert_campaign(1, 2, "tally", "C", [9], {}, {})
    loop = asyncio.get_running_loop()
    original, wakeups, threads = loop.call_soon_threadsafe, 0, set()

    def counting(*args, **kwargs):
        nonlocal wakeups
        wakeups += 1
        return original(*args, **kwargs)

    def job(tx) -> int:
        threads.add(threading.get_ident())
        return tx.append_event(campaign_id, 9, "G", "x", "e", {})

    loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
    try:
        ids = await asyncio.gather(*(store.write(job) for _ in range(64)))
    finally:
        del loop.call_soon_threadsafe
    assert (wakeups, threads, len(set(ids))) == (0, {threading.get_ident()}, 64)
