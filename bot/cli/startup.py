"""Start-up without the cyclic garbage collector, and the event loop everything runs on.

Starting builds ~130,000 objects that live as long as the process (modules, ~450 pydantic models, the command tree,
the books) and leaves almost no cyclic garbage (a few hundred objects). The collector's passes over that growing
heap were a fifth of the time to the console's first reply (issue 23), so ``python -m bot`` pauses it while it
starts; once started, what start-up built is frozen (``gc.freeze``: kept out of every later pass, as it lives until
exit anyway) and collection resumes for what play allocates, whose full passes are cheaper for it.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.database import is_url

try:  # not on Windows (requirements.txt installs it elsewhere): asyncio's own loop there
    import uvloop
except ImportError:  # pragma: no cover - exercised only where uvloop is missing
    uvloop = None  # type: ignore[assignment]

T = TypeVar("T")
_paused = False


def loop_factory(database: str | Path | None = None) -> Callable[[], asyncio.AbstractEventLoop]:
    """The event loop for a process whose database is ``database``: uvloop's for SQLite, where it is installed.

    uvloop runs the loop's own scheduling (handles, timers, the self-pipe the writer thread wakes it through) in C:
    at saturation the SQLite store did 4-6% more actions a second on it, with 3 µs less of the loop's CPU an action
    (issue 23, six interleaved runs against asyncio's loop). PostgreSQL stays on asyncio's loop: there asyncpg under
    uvloop left a pool connection acquired after the server was stopped mid-play (a read during the outage: the
    pool's release skips a connection already marked closed, counting on its close callback to free it, which had
    not run), so each outage could cost the pool a connection and closing the store waited out its 10 s limit
    (``tests/bot/test_database_unreachable.py``); PostgreSQL's figures meet their targets on asyncio's loop."""
    if uvloop is None or is_url(database):
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T], database: str | Path | None = None) -> T:
    """``asyncio.run`` on :func:`loop_factory`'s loop: every entry point (the bot, the console, the bench) runs so."""
    with asyncio.Runner(loop_factory=loop_factory(database)) as runner:
        return runner.run(main)


def pause_collector() -> None:
    """Called first thing by ``python -m bot`` for the bot and the console, whose start-up :func:`started` ends."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def started() -> None:
    """Start-up is over: freeze what it built and collect again. Does nothing unless :func:`pause_collector` paused
    the collector (a test opening a console in its own process keeps its collector as it was)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
