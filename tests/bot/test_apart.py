"""Work run in a process of its own (bot/storage/apart.py): its result, its refusals in their own words, a bug
as an error that says what failed, and a child killed when the work is given up."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from bot.storage.apart import ApartError, run_apart
from rules.base import RuleError


def add(a: int, b: int) -> tuple[int, int]:
    return a + b, os.getpid()


def refuse(words: str) -> None:
    raise RuleError(words)


def divide(a: int) -> float:
    return a / 0


def wait_forever(marker: str) -> None:
    Path(marker).write_text(str(os.getpid()))
    time.sleep(600)


async def test_the_result_comes_back_from_another_process() -> None:
    total, pid = await run_apart(add, 2, 3)
    assert total == 5 and pid != os.getpid()


async def test_a_refusal_comes_back_in_its_own_words_and_a_bug_names_itself() -> None:
    with pytest.raises(RuleError, match=r"^That export is damaged: event #7\.$"):
        await run_apart(refuse, "That export is damaged: event #7.")
    with pytest.raises(ApartError, match="ZeroDivisionError"):
        await run_apart(divide, 1)


async def test_a_given_up_child_is_killed(tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    task = asyncio.create_task(run_apart(wait_forever, str(marker)))
    for _ in range(500):
        if marker.exists() and marker.read_text():
            break
        await asyncio.sleep(0.02)
    pid = int(marker.read_text())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
