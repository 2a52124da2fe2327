"""Where a test's database lives: a SQLite file, or (the PostgreSQL pass) a fresh PostgreSQL database.

``MAGISTER_TEST_DB=postgresql://…`` (set by ``python -m tests.support.pg_cluster``, which ``make test`` uses)
runs the suite on PostgreSQL: each SQLite path a test names maps to its own database in that cluster, made
on first use and dropped when the test ends, so two stores opened on one path share one database just as
they would share one file.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

SERVER = os.environ.get("MAGISTER_TEST_DB", "")
ON_POSTGRES = SERVER.startswith(("postgresql://", "postgres://"))
_made: dict[str, str] = {}  # database name -> URL, made during the current test


def _url(name: str) -> str:
    parts = urlsplit(SERVER)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _run(coroutine) -> None:
    """Run a coroutine to the end on its own loop (a test may be inside a running loop)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coroutine).result()


async def _admin(*statements: str) -> None:
    connection = await asyncpg.connect(SERVER)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def target(path: Path | str) -> Path | str:
    """What to open for ``path``: the path itself on SQLite, a PostgreSQL URL on the PostgreSQL pass."""
    text = str(path)
    if not ON_POSTGRES or text.startswith(("postgresql://", "postgres://", "sqlite:///")):  # named outright
        return path
    name = "t_" + hashlib.sha1(str(Path(text).resolve()).encode()).hexdigest()[:20]
    if name not in _made:
        _run(_admin(f"CREATE DATABASE {name} STRATEGY FILE_COPY"))
        _made[name] = _url(name)
    return _made[name]


def drop_made() -> None:
    """At a test's end: drop every database it made (WITH FORCE: a store a failed test left open)."""
    if _made:
        names = list(_made)
        _made.clear()
        _run(_admin(*(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)" for name in names)))


def write_tx_class(store: object) -> type:
    """The class whose methods the store's write jobs call (a test patches it to inject a failure). On PostgreSQL
    this also turns the store's batching off: actions then run statement by statement through that class too, as
    on SQLite, instead of as data in one statement (tests/bot/test_pg_batch.py tests the batch's failures)."""
    writer = store._writer  # type: ignore[attr-defined]
    if hasattr(writer, "batching"):
        writer.batching = False
    return type(writer._tx)


async def fetch(store: object, sql: str, *parameters: object) -> list[tuple]:
    """A test's own query (``?`` placeholders, SQL both dialects read the same) on either backend."""
    from bot.storage.postgres import PgStore
    from bot.storage.postgres.statements import placeholders

    if isinstance(store, PgStore):
        return [tuple(row) for row in await store._pool.fetch(placeholders(sql), *parameters)]
    return [tuple(row) for row in await store._reader.execute_fetchall(sql, parameters)]  # type: ignore[attr-defined]


async def insert_many(store: object, sql: str, rows: Iterable[Sequence[object]]) -> None:
    """Rows straight into the database (``?`` placeholders), for a test that needs a long history fast."""
    from bot.storage.postgres import PgStore
    from bot.storage.postgres.statements import placeholders

    if isinstance(store, PgStore):
        async with store._pool.acquire() as connection:
            await connection.executemany(placeholders(sql), list(rows))
        return
    path = store.path  # type: ignore[attr-defined]

    def insert() -> None:
        db = sqlite3.connect(path)
        with db:
            db.executemany(sql, rows)
        db.close()

    await asyncio.to_thread(insert)


async def execute(store: object, sql: str, *parameters: object) -> None:
    """A test's own write (``?`` placeholders), committed, on either backend: to stage what an older version wrote."""
    from bot.storage.postgres import PgStore
    from bot.storage.postgres.statements import placeholders

    if isinstance(store, PgStore):
        await store._pool.execute(placeholders(sql), *parameters)
        return
    await store.write(lambda tx: tx._db.execute(sql, parameters))  # type: ignore[attr-defined]
