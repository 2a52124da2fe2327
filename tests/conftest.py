"""Shared fixtures: a real SQLite file per test (or, on the PostgreSQL pass, a real PostgreSQL database
per test: see tests/support/db.py), the tally ruleset, a console table."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli import startup
from bot.cli.console import ConsoleTable, Result
from bot.storage import database
from bot.storage.sqlite import SqliteStore
from bot.table.registry import Registry, discover_rulesets
from bot.table.service import Caller, Place, TableService
from tests.support import db as test_db
from tests.support.tally import TallyRuleset

HERE = Place(1001, 2002)
GM = Caller(11, "Gwen")
PLAYER = Caller(22, "Pat")
OTHER = Caller(33, "Oz")


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Every real ruleset plus the test-only tally ruleset, books loaded once."""
    return Registry.build([*discover_rulesets(), TallyRuleset()])


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict:
    """Every async test on the event loop ``python -m bot`` runs on with its database (bot/cli/startup.py): uvloop
    with SQLite, asyncio's own with PostgreSQL (the PostgreSQL pass, and tests marked ``postgres``)."""
    on_postgres = test_db.ON_POSTGRES or item.get_closest_marker("postgres") is not None
    return {"loop": startup.loop_factory("postgresql://" if on_postgres else None)}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs a PostgreSQL server of its own, on the SQLite pass too")
    config.addinivalue_line(
        "markers", "sqlite_only(reason): about SQLite files themselves; skipped on the PostgreSQL pass, with the reason"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not test_db.ON_POSTGRES:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "SQLite only")
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


@pytest.fixture(autouse=True)
def database_per_test(monkeypatch: pytest.MonkeyPatch):
    """On the PostgreSQL pass, every store a test opens by a file path opens a fresh PostgreSQL database."""
    if not test_db.ON_POSTGRES:
        yield
        return
    real = database.open_store

    async def open_store(target, **kwargs):
        return await real(test_db.target(target), **kwargs)

    monkeypatch.setattr(database, "open_store", open_store)
    yield
    test_db.drop_made()


async def open_store(path: Path | str, **kwargs) -> SqliteStore:
    """The test's store at ``path``: that SQLite file, or its PostgreSQL database on the PostgreSQL pass."""
    return await database.open_store(path, **kwargs)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    db = await open_store(tmp_path / "magister.sqlite3")
    yield db
    await db.close()


@pytest.fixture
def service(store: SqliteStore, registry: Registry) -> TableService:
    return TableService(store, registry, random.Random(1))


@pytest.fixture
async def tally(service: TableService) -> TableService:
    """A service whose channel HERE runs a tally campaign with GM Gwen and Pat's character Pip."""
    await service.start_campaign(HERE, GM, "tally", "Counting Crows")
    await service.run(HERE, PLAYER, "tally", "create", {"name": "Pip"})
    return service


class Console:
    """A console table for tests: ``await console("/roll expression:3d6")`` returns the JSON object."""

    def __init__(self, table: ConsoleTable) -> None:
        self.table = table

    async def __call__(self, line: str) -> dict:
        result = await self.table.execute(line)
        assert isinstance(result, Result), line
        return result.as_json()

    async def ok(self, line: str) -> dict:
        result = await self(line)
        assert result["ok"], result["text"]
        return result

    async def undo(self, line: str = "/campaign undo", *, ok: bool = True) -> dict:
        """An undo, confirmed when it asks first (another's change, or something came after it): the answer it
        ends with, which must succeed (or, with ``ok=False``, be refused plainly)."""
        result = await self(line)
        if result["ok"] and result["data"].get("confirm"):
            result = await self("@press Confirm")
        if ok:
            assert result["ok"], result["text"]
        else:
            assert not result["ok"] and result["ephemeral"] and "incident" not in result, result
        return result

    def timers(self) -> list[dict]:
        """What timers posted since the last look (after ``@wait``), one JSON object each."""
        return [result.as_json() for result in self.table.timer_results()]

    async def fails(self, line: str) -> dict:
        result = await self(line)
        assert not result["ok"], result
        assert result["ephemeral"], result
        assert "incident" not in result, result
        return result


@pytest.fixture
async def console(tmp_path: Path, registry: Registry) -> AsyncIterator[Console]:
    table = await ConsoleTable.open(
        tmp_path / "console.sqlite3", seed=7, files_dir=tmp_path / "exports", registry=registry
    )
    yield Console(table)
    await table.close()
