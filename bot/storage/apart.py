"""Long work in a Python process of its own: a large export's writing, a large import's check.

A worker thread keeps the work off the event loop, but not off the interpreter: the loop needs the interpreter's
lock back every few milliseconds, and on a busy machine the thread holding it may wait its turn for a core while
the loop waits for it (issue 23 measured stalls of 60 ms and more that way). A process of its own has its own
lock, and runs at a lower priority than the bot, so the loop comes first for the cores.

:func:`run_apart` starts ``python -c`` (told what to run on its stdin, answering on its stdout, pickled), so
nothing of this process's threads, connections or locks goes with it, whatever started the bot; the child
imports as this process does. A refusal the work raises (a RuleError) comes back as itself; anything else as an
error naming what went wrong. Given up (the task cancelled), the child is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from rules.base import RuleError

T = TypeVar("T")
NICE = 10  # how much lower the child's priority is


class ApartError(RuntimeError):
    """The work failed in its process for a reason that is no refusal: a bug, or a process that died."""


async def run_apart(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a new Python process (a module-level function; picklable arguments); its result."""
    asked = pickle.dumps((function, args))
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from bot.storage.apart import child; child()",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": import_path()},
    )
    try:
        answer, errors = await child.communicate(asked)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            child.kill()
        await child.wait()
        raise
    if child.returncode != 0 or not answer:
        raise ApartError(f"{function.__name__} ended with status {child.returncode}: {errors.decode()[-2000:]}")
    kind, value = pickle.loads(answer)
    if kind == "refused":
        raise RuleError(value)
    if kind == "failed":
        raise ApartError(f"{function.__name__} failed in its own process:\n{value}")
    return value


def import_path() -> str:
    """This process's import path, for the child to import what this one does (a test's own ruleset too)."""
    return os.pathsep.join(os.path.abspath(entry or os.curdir) for entry in sys.path)


def child() -> None:
    """The child's side: run what stdin asks, answer on stdout (anything else printed goes to stderr)."""
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: a system without nice
        os.nice(NICE)
    answer_to = sys.stdout.buffer
    sys.stdout = sys.stderr
    function, args = pickle.loads(sys.stdin.buffer.read())
    try:
        answer: tuple[str, Any] = ("done", function(*args))
    except RuleError as refusal:
        answer = ("refused", str(refusal))
    except Exception:
        answer = ("failed", traceback.format_exc())
    answer_to.write(pickle.dumps(answer))
    answer_to.flush()
