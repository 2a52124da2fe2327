"""Health checks for an orchestrator: ``GET /livez`` (restart me?) and ``GET /readyz`` (working?).

Off unless ``MAGISTER_HEALTH_PORT`` is set; bound to 127.0.0.1 unless ``MAGISTER_HEALTH_HOST`` says otherwise.
Both answer JSON, 200 when the answer is yes and 503 when it is no, so any HTTP probe can read the code alone.

Liveness fails only where a restart is the cure: the database file was deleted or replaced under the process (the
store then refuses every write until a restart). An unreachable Discord or database does not fail it: the process
retries on its own, and restarting would only lose its place in the backoff. The server runs on the bot's own event
loop, so an answer at all shows the loop is not blocked.

Readiness needs all three: every shard this process runs connected to the gateway, the database taking a write,
and the oldest due timer waiting no longer than ``max_lag`` seconds (timers fire every 20 s; a longer wait means
the schedule is stuck or far behind, e.g. catching up after downtime).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.storage.rows import DatabaseGoneError
from bot.table.pbp import epoch

if TYPE_CHECKING:
    from bot.adapter.client import MagisterBot

PROBE_TIMEOUT = 5.0  # seconds a database probe may take before it counts as unreachable


class Health:
    """Answers both checks for the client ``current()`` returns (a retry replaces the client, not the store)."""

    def __init__(
        self, current: Callable[[], MagisterBot], *, max_lag: float = 120, probe_timeout: float = PROBE_TIMEOUT
    ) -> None:
        self.current = current
        self.max_lag = max_lag
        self.probe_timeout = probe_timeout

    async def liveness(self) -> tuple[bool, dict[str, Any]]:
        database = await self.database()
        live = not database.get("gone", False)
        body: dict[str, Any] = {"live": live}
        if not live:
            body["problems"] = [f"restart needed: {database['error']}"]
        return live, body

    async def readiness(self) -> tuple[bool, dict[str, Any]]:
        checks = {"gateway": self.gateway(), "database": await self.database(), "timers": await self.timers()}
        problems = [check["problem"] for check in checks.values() if not check["ok"]]
        body: dict[str, Any] = {"ready": not problems, "checks": checks}
        if problems:
            body["problems"] = problems
        return not problems, body

    def gateway(self) -> dict[str, Any]:
        """Each shard this process runs: connected (with its heartbeat latency) or not."""
        bot = self.current()
        running = bot.shards
        expected = bot.shard_ids if bot.shard_ids is not None else range(bot.shard_count or 0)
        shards: dict[str, dict[str, Any]] = {}
        for shard_id in sorted({*expected, *running}):
            info = running.get(shard_id)
            if info is None:
                shards[str(shard_id)] = {"state": "not started"}
            elif info.is_closed():
                shards[str(shard_id)] = {"state": "disconnected"}
            else:
                latency = info.latency
                shards[str(shard_id)] = {
                    "state": "connected",
                    "latency_ms": round(latency * 1000, 1) if math.isfinite(latency) else None,
                }
        down = [shard_id for shard_id, shard in shards.items() if shard["state"] != "connected"]
        result: dict[str, Any] = {"ok": bool(shards) and not down and bot.is_ready(), "shard_count": bot.shard_count}
        result["shards"] = shards
        if not shards:
            result["problem"] = "the gateway is not connected yet (no shard started)"
        elif down:
            result["problem"] = f"shard {', '.join(down)} not connected"
        elif not result["ok"]:
            result["problem"] = "the shards are connected but Discord has not sent every guild yet"
        return result

    async def database(self) -> dict[str, Any]:
        """An empty write transaction: proves the database is reachable and will take writes."""
        started = time.perf_counter()
        try:
            await asyncio.wait_for(self.current().service.store.write(_nothing), self.probe_timeout)
        except DatabaseGoneError as error:
            return {"ok": False, "gone": True, "error": str(error), "problem": f"database: {error}"}
        except TimeoutError:
            why = f"no answer within {self.probe_timeout:g} s"
            return {"ok": False, "error": why, "problem": f"database: {why}"}
        except Exception as error:  # unreachable, refused, locked: the reason in a line, no traceback
            why = (str(error).splitlines() or [type(error).__name__])[0][:200]
            return {"ok": False, "error": why, "problem": f"database: {why}"}
        return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}

    async def timers(self) -> dict[str, Any]:
        """How late the oldest due timer is (0 when none is due)."""
        service = self.current().service
        now = epoch(service.clock())
        try:
            due = await asyncio.wait_for(service.store.due_timers(now, limit=1), self.probe_timeout)
        except Exception:  # the database check says why
            return {"ok": False, "problem": "timers: the database could not be read"}
        lag = max(0, now - due[0].due) if due else 0
        result: dict[str, Any] = {"ok": lag <= self.max_lag, "oldest_due_lag_s": lag, "max_lag_s": self.max_lag}
        if due:
            result["oldest_due"] = {"id": due[0].id, "kind": due[0].kind}
        if not result["ok"]:
            result["problem"] = f"timers: the oldest due timer is {lag} s late (at most {self.max_lag:g} s)"
        return result

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/livez", self._answer(self.liveness))
        app.router.add_get("/readyz", self._answer(self.readiness))
        return app

    @staticmethod
    def _answer(check: Callable[[], Any]) -> Callable[[web.Request], Any]:
        async def handler(request: web.Request) -> web.Response:
            ok, body = await check()
            return web.json_response(body, status=200 if ok else 503)

        return handler


def _nothing(tx: object) -> None:
    """The probe's write job: a transaction that changes nothing."""


async def start_health(health: Health, host: str, port: int) -> web.AppRunner:
    """Serve ``health`` on host:port (0: any free port; see :func:`bound_port`). Stop with ``runner.cleanup()``."""
    runner = web.AppRunner(health.app(), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the server listens on (the one the system chose, for port 0)."""
    return next(iter(runner.addresses))[1]
