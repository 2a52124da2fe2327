"""The health checks (``MAGISTER_HEALTH_PORT``), served for real on a loopback port and asked over HTTP.

The bot is the real process's ``serve`` (or a real client) connected to a stand-in Discord
(tests/support/fake_discord.py), on a real SQLite file.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import build_bot, serve, shard_plan
from bot.adapter.client import MagisterBot
from bot.cli.config import Settings
from bot.cli.health import Health, bound_port, start_health
from tests.bot.test_database_gone import remove
from tests.bot.test_entry_points import ROOT, run
from tests.conftest import Console
from tests.support.fake_discord import FakeDiscord, connected


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def ask(port: int, path: str) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.json()


async def until_ready(port: int, *, within: float = 30) -> dict[str, Any]:
    """Poll /readyz until it says 200 (an orchestrator's readiness probe does the same)."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        try:
            status, body = await ask(port, "/readyz")
        except aiohttp.ClientConnectionError:
            status, body = 0, {}
        if status == 200:
            return body
        assert asyncio.get_running_loop().time() < deadline, body
        await asyncio.sleep(0.1)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[MagisterBot, int]]:
    """A client for shards 0-3 of 8, never connected, with its health checks on a free loopback port."""
    bot = await build_bot(Settings(_env_file=None, magister_db=tmp_path / "h.sqlite3"), shard_plan("0-3", "8"))
    runner = await start_health(Health(lambda: bot), "127.0.0.1", 0)
    yield bot, bound_port(runner)
    await runner.cleanup()
    await bot.service.store.close()


@pytest.mark.sqlite_only(reason="a SQLite file deleted under the running process")
async def test_a_connected_process_is_live_and_ready_until_its_database_is_gone(
    tmp_path: Path, discord_here: FakeDiscord
) -> None:
    """``serve`` as ``python -m bot --shards 0-1 --shard-count 2`` runs it, with MAGISTER_HEALTH_PORT set."""
    port = free_port()
    database = tmp_path / "live.sqlite3"
    settings = Settings(
        _env_file=None, discord_token="fake.token.here", magister_db=database, magister_health_port=port
    )
    running = asyncio.create_task(serve(settings, shard_plan("0-1", "2")))
    try:
        body = await until_ready(port)
        assert body["ready"] is True and "problems" not in body
        gateway = body["checks"]["gateway"]
        assert gateway["ok"] is True and gateway["shard_count"] == 2
        assert sorted(gateway["shards"]) == ["0", "1"]
        assert all(shard["state"] == "connected" and shard["latency_ms"] >= 0 for shard in gateway["shards"].values())
        assert body["checks"]["database"]["ok"] is True
        assert body["checks"]["timers"] == {"ok": True, "oldest_due_lag_s": 0, "max_lag_s": 120}
        assert await ask(port, "/livez") == (200, {"live": True})

        remove(database)  # deleted under the running bot: only a restart helps
        status, ready = await ask(port, "/readyz")
        assert status == 503 and ready["ready"] is False
        assert ready["checks"]["gateway"]["ok"] is True  # Discord is fine; the database is not
        assert ready["checks"]["database"]["ok"] is False
        assert any("deleted or replaced" in problem for problem in ready["problems"])
        status, live = await ask(port, "/livez")
        assert status == 503 and live["live"] is False
        assert live["problems"][0].startswith("restart needed: ") and "deleted or replaced" in live["problems"][0]
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
    with pytest.raises(aiohttp.ClientConnectionError):  # the health server went with the bot
        await ask(port, "/livez")


async def test_before_the_gateway_connects_it_is_live_but_not_ready(served: tuple[MagisterBot, int]) -> None:
    _, port = served
    assert await ask(port, "/livez") == (200, {"live": True})
    status, body = await ask(port, "/readyz")
    assert status == 503
    gateway = body["checks"]["gateway"]
    assert gateway["ok"] is False and gateway["shard_count"] == 8
    assert gateway["shards"] == {str(shard): {"state": "not started"} for shard in range(4)}
    assert body["problems"] == ["shard 0, 1, 2, 3 not connected"]
    assert body["checks"]["database"]["ok"] is True  # only the gateway is missing


async def test_only_the_two_paths_are_served(served: tuple[MagisterBot, int]) -> None:
    _, port = served
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/") as response:
            assert response.status == 404
        async with session.post(f"http://127.0.0.1:{port}/readyz") as response:
            assert response.status == 405


async def test_the_oldest_due_timer_lag_is_reported(console: Console) -> None:
    """A reminder due in 1 h, the clock 3 h on and the schedule not yet run: 2 h late; once fired, none late."""
    await console.ok('/remind set when:1h text:"Pack the scrolls"')
    table = console.table
    runner = await start_health(Health(lambda: table.bot, max_lag=60), "127.0.0.1", 0)
    try:
        port = bound_port(runner)
        table.now += 3 * 3600  # the virtual clock moves; nothing fires until the schedule runs
        status, body = await ask(port, "/readyz")
        assert status == 503
        timers = body["checks"]["timers"]
        assert timers["ok"] is False and timers["oldest_due_lag_s"] == 2 * 3600 and timers["max_lag_s"] == 60
        assert timers["oldest_due"]["kind"] == "remind"
        assert "timers: the oldest due timer is 7200 s late (at most 60 s)" in body["problems"]

        assert await table.tick() == 1  # what the bot's timer loop does every 20 s
        _, body = await ask(port, "/readyz")
        assert body["checks"]["timers"] == {"ok": True, "oldest_due_lag_s": 0, "max_lag_s": 60}
    finally:
        await runner.cleanup()


def test_health_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(_env_file=None)
    assert settings.magister_health_port is None  # off by default
    assert settings.magister_health_host == "127.0.0.1"  # loopback unless told otherwise
    assert settings.magister_health_max_lag == 120
    monkeypatch.setenv("MAGISTER_HEALTH_PORT", " ")
    assert Settings(_env_file=None).magister_health_port is None
    monkeypatch.setenv("MAGISTER_HEALTH_PORT", "8080")
    assert Settings(_env_file=None).magister_health_port == 8080


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"MAGISTER_HEALTH_PORT": "70000"}, "MAGISTER_HEALTH_PORT"),
        ({"MAGISTER_HEALTH_PORT": "web"}, "MAGISTER_HEALTH_PORT"),
        ({"MAGISTER_HEALTH_MAX_LAG": "0"}, "MAGISTER_HEALTH_MAX_LAG"),
    ],
)
def test_bad_health_settings_exit_2_with_one_line(tmp_path: Path, env: dict[str, str], named: str) -> None:
    result = run([], tmp_path, DISCORD_TOKEN="not.a.real.token", **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "bad configuration" in lines[0]


def test_a_port_in_use_is_one_line_naming_the_setting(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run([], tmp_path, timeout=30, DISCORD_TOKEN="not.a.real.token", MAGISTER_HEALTH_PORT=str(port))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"cannot serve health checks on 127.0.0.1:{port}" in lines[0] and "MAGISTER_HEALTH_PORT" in lines[0]


async def test_the_real_process_answers_while_discord_is_unreachable(tmp_path: Path) -> None:
    """``python -m bot`` with no network: retrying Discord, alive (a restart would not help), not ready."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {
        "MAGISTER_DB": str(tmp_path / "net.sqlite3"),
        "DISCORD_TOKEN": "abc.def.ghi",
        "MAGISTER_HEALTH_PORT": str(port),
        "PYTHONPATH": str(ROOT),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=environment, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        first = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()  # type: ignore[union-attr]
        if process.returncode == 2 or "refused" in first:
            return  # Discord reachable after all: the fake token is refused, and the process ends
        assert first.startswith("magister: cannot reach Discord"), first
        assert await ask(port, "/livez") == (200, {"live": True})
        status, body = await ask(port, "/readyz")
        assert status == 503
        assert body["checks"]["database"]["ok"] is True and body["checks"]["timers"]["ok"] is True
        assert body["problems"] == ["the gateway is not connected yet (no shard started)"]
    finally:
        process.kill()
        await process.wait()


def test_every_setting_is_in_the_env_example_and_the_health_and_web_ones_in_the_deploy_docs() -> None:
    example = (ROOT / ".env.example").read_text()
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in example, name
        if name.startswith(("magister_health", "magister_web")):
            assert f"`{name.upper()}`" in deploy, name


async def test_a_shard_that_drops_makes_the_process_not_ready_until_it_is_back(
    tmp_path: Path, discord_here: FakeDiscord
) -> None:
    bot = await build_bot(Settings(_env_file=None, magister_db=tmp_path / "d.sqlite3"), shard_plan("0-1", "2"))
    runner = await start_health(Health(lambda: bot), "127.0.0.1", 0)
    port = bound_port(runner)
    try:
        task = await connected(bot)
        assert (await until_ready(port))["checks"]["gateway"]["shards"].keys() == {"0", "1"}
        await bot.shards[1].disconnect()  # as when Discord drops one connection
        status, body = await ask(port, "/readyz")
        assert status == 503
        assert body["checks"]["gateway"]["shards"]["0"]["state"] == "connected"
        assert body["checks"]["gateway"]["shards"]["1"] == {"state": "disconnected"}
        assert body["problems"] == ["shard 1 not connected"]
        assert await ask(port, "/livez") == (200, {"live": True})  # it reconnects by itself: no restart
        await bot.shards[1].reconnect()
        assert (await until_ready(port))["ready"] is True
        await bot.close()
        await asyncio.wait_for(task, 10)
    finally:
        await runner.cleanup()
        await bot.service.store.close()
