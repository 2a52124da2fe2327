"""Sync write jobs on the event loop, without a thread: :func:`run_sync` and :func:`await_only`.

A write job is plain code given a ``WriteTx`` (:mod:`bot.storage.protocol`), written once for both stores; SQLite runs
it on its writer thread. asyncpg's statements are coroutines. Running the job on a worker thread and handing every
statement back to the loop (``run_coroutine_threadsafe``) cost two thread switches per statement and kept the loop
waiting on a busy thread. Instead the job runs in a greenlet on the loop's own thread: each statement switches back
to :func:`run_sync`, which awaits it like any coroutine and switches the job on with its result. SQLAlchemy's asyncio
layer runs its sync ORM on asyncpg the same way (``greenlet_spawn`` / ``await_only``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import greenlet

T = TypeVar("T")


class _Job(greenlet.greenlet):
    """A sync job's own stack; ``driver`` is the task that runs it (:func:`run_sync`)."""

    def __init__(self, function: Callable[..., Any], driver: greenlet.greenlet) -> None:
        super().__init__(function, driver)
        self.driver = driver


async def run_sync(function: Callable[..., T], *args: Any) -> T:
    """Run ``function(*args)`` (sync code that may call :func:`await_only`) to its end; its result or its error."""
    job = _Job(function, greenlet.getcurrent())
    result = job.switch(*args)
    while not job.dead:
        try:
            value = await result
        except BaseException:
            result = job.throw(*sys.exc_info())
        else:
            result = job.switch(value)
    return result


def await_only(coroutine: Coroutine[Any, Any, T]) -> T:
    """From sync code under :func:`run_sync`: await ``coroutine`` on the loop; its result (or its error, raised)."""
    current = greenlet.getcurrent()
    if not isinstance(current, _Job):
        coroutine.close()
        raise RuntimeError("a PostgreSQL WriteTx method ran outside a write job: use store.write or tx.run")
    return current.driver.switch(coroutine)
