"""The console as a shell: Tab completion from the tree, names for mentions, and a real terminal session."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

from bot.cli.shell import complete, completions, with_names
from tests.conftest import Console
from tests.support.db import target

ROOT = Path(__file__).resolve().parents[2]


async def test_completion_offers_the_trees_commands_and_their_options(console: Console) -> None:
    candidates = completions(console.table.virtual.tree)
    assert "/runic cast " in candidates and "/runic cast spell:" in candidates
    assert complete("/runic ca", candidates) == ["/runic cast "]
    assert "/runic cast spell:Sleep boost:" in complete("/runic cast spell:Sleep bo", candidates)
    assert not any(m.endswith(" spell:") for m in complete("/runic cast spell:Sleep sp", candidates))  # given once
    assert complete("@q", candidates) == ["@quit"]


def test_mentions_read_as_names() -> None:
    assert with_names("<@12> pings <@!34> and <@56>", {12: "Pat", 34: "Oz"}) == "@Pat pings @Oz and @unknown-user"
    assert with_names("until <t:1795660010:f>", {}) == "until 2026-11-26 02:26 UTC"


def test_a_terminal_session_edits_cancels_helps_and_quits(tmp_path: Path) -> None:
    """Under a real pseudo-terminal: a command, Ctrl-C cancelling a line, @help, @quit, history written."""
    history = tmp_path / "history"
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {"MAGISTER_DB": str(target(tmp_path / "t.sqlite3")), "MAGISTER_HISTORY": str(history)}
    environment |= {"PYTHONPATH": str(ROOT), "TERM": "dumb"}
    pid, leader = pty.fork()  # the child gets the terminal as its controlling one, so Ctrl-C is a real SIGINT
    if pid == 0:
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "bot", "console", "--seed", "3"], environment)
    seen = b""

    def read_until(needle: bytes, timeout: float = 30, times: int = 1) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while seen.count(needle) < times and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(leader, 4096)
                except OSError:
                    break
        assert needle in seen, seen[-800:]

    def interrupt() -> None:
        """Ctrl-C, as a person presses it. CPython's readline loop only notices a signal that interrupts its
        select(); one that lands while it is handling the keys typed just before is held until the next
        wake-up. A second Ctrl-C is that wake-up, and the two count as one (Python's signal flag is a flag,
        not a counter), so pressing again after a pause can never cancel twice."""
        os.write(leader, b"\x03")
        with contextlib.suppress(AssertionError):
            read_until(b"line cancelled", timeout=10)
            return
        os.write(leader, b"\x03")
        read_until(b"line cancelled")

    try:
        read_until(b"Alice> ")
        os.write(leader, b"/roll expression:2d6\r")
        read_until(b"2d6 (")
        read_until(b"Alice> ", times=2)  # type only at the prompt, as a person does
        os.write(leader, b"/roll half typed")
        read_until(b"half typed")
        interrupt()
        os.write(leader, b"@help\r")
        read_until(b"@quit")
        os.write(leader, b"@quit\r")
        deadline = time.monotonic() + 30
        while (status := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status[0] == pid and os.waitstatus_to_exitcode(status[1]) == 0, seen[-800:]
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(leader)
    assert b"Traceback" not in seen
    assert "/roll expression:2d6" in history.read_text()
