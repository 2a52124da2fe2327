"""The database file deleted or replaced under a running bot: writes stop, loudly.

Before, writes were acknowledged into the unlinked file and lost at restart.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

from bot.storage.rows import DatabaseGoneError
from bot.table.service import TableService
from rules.base import RuleError
from tests.conftest import HERE, PLAYER, Console

pytestmark = pytest.mark.sqlite_only(reason="a SQLite file deleted or replaced under the running bot")


def remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def replace(path: Path) -> None:
    other = path.with_name("restored-from-backup.sqlite3")
    sqlite3.connect(other).close()
    os.replace(other, path)


@pytest.mark.parametrize("change", [remove, replace], ids=["deleted", "replaced"])
async def test_writes_stop_when_the_file_is_gone(tally: TableService, change, caplog) -> None:
    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    change(tally.store.path)
    with caplog.at_level(logging.ERROR), pytest.raises(DatabaseGoneError) as refused:
        await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    assert isinstance(refused.value, RuleError)  # the user is told, not handed an incident
    assert "restart" in str(refused.value)
    lines = [r.getMessage() for r in caplog.records if str(tally.store.path) in r.getMessage()]
    assert len(lines) == 1 and "deleted or replaced" in lines[0]
    with pytest.raises(DatabaseGoneError):  # and it stays refused, logged once
        await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
    assert len([r for r in caplog.records if str(tally.store.path) in r.getMessage()]) == 1


async def test_the_console_user_sees_a_clear_error(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Gone")
    remove(console.table.bot.service.store.path)
    result = await console.fails("/tally create name:Pip")
    assert "deleted or replaced" in result["text"]
