"""PostgreSQL stops under a running Magister, then comes back: one clear line each time, and no restart.

Before, while the server was down every command, reads included, was an incident with a traceback in the log.
Each test runs its own throwaway PostgreSQL server (tests/support/pg_cluster.py), so stopping it touches no
other test; it needs PostgreSQL's server programs, not the PostgreSQL pass.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.cli.console import ConsoleTable
from bot.table.registry import Registry
from tests.conftest import Console
from tests.support import pg_cluster

pytestmark = [
    pytest.mark.skipif(
        pg_cluster.bindir() is None, reason="needs PostgreSQL's server programs (apt-get install postgresql)"
    ),
    pytest.mark.postgres,  # on the event loop Magister runs PostgreSQL on (bot/cli/startup.py)
]

UNREACHABLE = "The campaign database cannot be reached right now, so nothing was changed. Please try again in a minute."


@dataclass
class Cluster:
    folder: Path
    server: subprocess.Popen
    url: str

    def stop(self) -> None:
        pg_cluster.stop(self.server)

    def start(self) -> None:
        self.server = pg_cluster.serve(self.folder)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="magister-pg-"))  # short: a unix socket's path has a length limit
    try:
        server, url = pg_cluster.start(folder)
        running = Cluster(folder, server, url)
        yield running
        running.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def console(cluster: Cluster, registry: Registry, tmp_path: Path) -> AsyncIterator[Console]:
    table = await ConsoleTable.open(cluster.url, seed=7, files_dir=tmp_path / "exports", registry=registry)
    yield Console(table)
    await table.close()


def shown(result: dict) -> str:
    return result["text"].removesuffix("\n(only you can see this)")


async def test_a_stopped_server_is_one_line_to_the_user_and_play_resumes_when_it_is_back(
    cluster: Cluster, console: Console, caplog: pytest.LogCaptureFixture
) -> None:
    await console.ok("/campaign start ruleset:tally name:Outage")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally add name:Pip")
    cluster.stop()
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for line in ("/campaign log", "/campaign status", "/tally add name:Pip", "/roll expression:1d6", "@wait 1h"):
            refused = await console.fails(line)  # ephemeral, and no incident
            assert shown(refused) == UNREACHABLE, line
    assert not [record for record in caplog.records if record.exc_info]  # no traceback in the log either
    assert any("unreachable" in record.getMessage() for record in caplog.records)
    cluster.start()  # the same data, a new server process: Magister reconnects by itself
    log = await console.ok("/campaign log")
    assert "made a roll" not in log["text"]  # nothing from the outage was saved
    added = await console.ok("/tally add name:Pip")
    assert added["data"]["count"] == 2  # one before the outage, this one: none lost, none doubled


async def test_a_commit_whose_connection_broke_says_it_may_have_been_saved(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection went during COMMIT: whether it landed cannot be known, so the user is told to look,
    and the write is not run again (that could apply it twice)."""
    await console.ok("/campaign start ruleset:tally name:Broken")
    await console.ok("/tally create name:Pip")
    real = asyncpg.connection.Connection.execute
    calls: list[int] = []

    async def execute(self, query: str, *args, **kwargs) -> str:
        status = await real(self, query, *args, **kwargs)
        if query == "COMMIT":
            calls.append(1)  # it landed; the reply that says so is lost
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
        return status

    monkeypatch.setattr(asyncpg.connection.Connection, "execute", execute)
    refused = await console.fails("/tally add name:Pip")
    monkeypatch.setattr(asyncpg.connection.Connection, "execute", real)
    assert "may or may not have been saved" in shown(refused) and "/campaign log" in shown(refused)
    assert "incident" not in shown(refused)
    assert len(calls) == 1  # not retried
    status = await console.ok("/tally add name:Pip")
    assert status["data"]["count"] == 2  # the first one landed once
