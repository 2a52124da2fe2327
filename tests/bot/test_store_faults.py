"""What a SQLite file is checked for at open (issue 21); the start-up lines themselves are tested on the real
process in test_entry_points.py (`test_a_database_magister_cannot_use_stops_the_start_with_one_line`)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import sqlite
from bot.storage.sqlite import SqliteOpenError, SqliteStore
from tests.bot.test_entry_points import damage, magister_database

pytestmark = pytest.mark.sqlite_only(reason="the checks a SQLite file gets at open")


async def test_a_file_too_big_for_quick_check_is_read_at_each_tables_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = await _made(tmp_path / "big.sqlite3")
    monkeypatch.setattr(sqlite, "QUICK_CHECK_BYTES", 0)  # every file is "too big" now
    store = await SqliteStore.open(path)  # a healthy one opens
    await store.close()
    damage(path)
    with pytest.raises(SqliteOpenError, match=r"is damaged .* restore it from a backup"):
        await SqliteStore.open(path)


async def test_the_write_probe_changes_nothing(tmp_path: Path) -> None:
    path = await _made(tmp_path / "probe.sqlite3")
    before = path.read_bytes()
    store = await SqliteStore.open(path)
    await store.close()
    assert path.read_bytes() == before  # the probe's write was rolled back
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(sqlite.MIGRATIONS)


async def _made(path: Path) -> Path:
    """A real Magister database (made on its own loop, in a thread: this test's loop is running)."""
    return await asyncio.to_thread(magister_database, path)
