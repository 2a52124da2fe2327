"""SQLite's write-ahead log is copied back into the database by a thread of its own (bot/storage/writer.py
Checkpointer), not by the commit that made it long: what it must never do is lose a write, keep the process alive,
or bring a deleted database back."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from bot.storage.database import open_store
from bot.storage.writer import WRITER_CHECKPOINT_PAGES
from bot.table.service import Place, TableService
from tests.conftest import GM, HERE, PLAYER
from tests.support.db import ON_POSTGRES

pytestmark = pytest.mark.skipif(ON_POSTGRES, reason="SQLite's write-ahead log")


def _checkpointers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "magister-checkpointer"]


async def test_commits_are_checkpointed_by_the_thread_and_nothing_is_lost(tmp_path, registry) -> None:
    import random

    path = tmp_path / "table.sqlite3"
    store = await open_store(str(path))
    before = len(_checkpointers())
    try:
        service = TableService(store, registry, random.Random(1))
        places = [Place(HERE.guild_id, 700 + n) for n in range(20)]
        for place in places:
            await service.start_campaign(place, GM, "tally", f"Table {place.channel_id}")
            await service.run(place, PLAYER, "tally", "create", {"name": "Wren"})
        for _ in range(5):
            await asyncio.gather(*(service.run(p, PLAYER, "tally", "add", {"name": "Wren"}) for p in places))
        checkpointer = store._writer._checkpointer  # type: ignore[attr-defined]
        for _ in range(200):  # it runs beside the writer: give it its turn
            if checkpointer.checkpoints:
                break
            await asyncio.sleep(0.01)
        assert checkpointer.checkpoints > 0 and len(_checkpointers()) == before + 1
        assert await store.write(lambda tx: tx._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == (
            WRITER_CHECKPOINT_PAGES
        )
    finally:
        await store.close()
    assert len(_checkpointers()) == before  # closed with the store
    db = sqlite3.connect(path)
    try:  # every write is there, read from the file alone
        (tallies,) = db.execute("SELECT count(*) FROM events WHERE command = 'tally add'").fetchone()
        assert tallies == 100
    finally:
        db.close()


async def test_a_deleted_database_is_not_brought_back_by_the_checkpointer(tmp_path) -> None:
    from bot.storage.writer import Checkpointer

    path = tmp_path / "gone.sqlite3"
    sqlite3.connect(path).close()
    path.unlink()
    checkpointer = Checkpointer(path)
    checkpointer.wake()
    await asyncio.to_thread(checkpointer.stop)
    assert not path.exists() and checkpointer.checkpoints == 0
