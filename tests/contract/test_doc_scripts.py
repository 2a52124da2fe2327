"""Check 4: every console script a docs page shows runs as the page says.

A fenced block whose info string is ``console`` (```` ```console ````) in any ``docs/*.md`` is a script for the
console table (``python -m bot console``): it runs in a fresh campaign database, line by line, and

- every command line must be accepted, except one ending in ``  # refused`` (two spaces), which must be refused;
- a comment line ``# shows: TEXT`` (the console ignores comments, so a reader can paste the block as it is) says
  what the reply just before it (with whatever timers a ``@wait`` fired) contains: the check fails if it does not.

So a page's examples cannot drift from the bot: change a command's words or behaviour and its page fails here.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.contract.support import Session, open_console

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```console[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
REFUSED = "  # refused"
SHOWS = "# shows:"


@dataclass(frozen=True)
class Script:
    """One ``console`` block: its page, the line of the page it starts on, and its lines."""

    page: str
    line: int
    lines: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def scripts() -> list[Script]:
    found = []
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            start = text.count("\n", 0, match.start()) + 2  # the block's first line, counted from 1
            found.append(Script(page.name, start, tuple(match.group(1).splitlines())))
    return found


async def play(script: Script) -> list[str]:
    """Run the block; what went wrong, one line each (empty when the page is right)."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        session = Session(await open_console(Path(folder)), Path(folder))
        try:
            shown = ""
            for number, raw in enumerate(script.lines, script.line):
                line = raw.strip()
                if line.startswith(SHOWS):
                    wanted = line.removeprefix(SHOWS).strip()
                    if wanted.casefold() not in shown.casefold():
                        problems.append(f"line {number}: the reply does not show {wanted!r}; it was:\n{shown}")
                    continue
                expect_refusal = line.endswith(REFUSED.strip()) and raw.rstrip().endswith(REFUSED)
                command = line.removesuffix(REFUSED.strip()).rstrip() if expect_refusal else line
                result = await session.run(command)
                timers = session.timers()
                if result is None:
                    continue
                shown = "\n".join([result.text, *(timer.text for timer in timers)])
                if expect_refusal and result.ok:
                    problems.append(f"line {number}: {command!r} should be refused, and ran:\n{result.text}")
                elif not expect_refusal and not result.ok:
                    problems.append(f"line {number}: {command!r} was refused:\n{result.text}")
        finally:
            await session.table.close()
    return problems


SCRIPTS = scripts()


def test_the_docs_have_console_scripts() -> None:
    """The check is not vacuous: the pages do show scripts (a renamed fence would otherwise pass silently)."""
    assert SCRIPTS, "no ```console block found in docs/"


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_a_docs_console_script_runs_as_shown(script: Script) -> None:
    problems = asyncio.run(play(script))
    assert not problems, f"{script.name}:\n" + "\n".join(problems)


def test_a_script_that_drifted_from_the_bot_fails() -> None:
    """The checker itself: a missing text, a refusal that ran and a refused line are each reported."""
    drifted = Script(
        "example.md",
        1,
        (
            "@as Gwen",
            "/campaign start ruleset:runic name:Camelot",
            "# shows: no such words anywhere",
            "/campaign settings key:turn_deadline value:1d  # refused",
            "/campaign settings key:turn_deadline value:soon",
        ),
    )
    problems = asyncio.run(play(drifted))
    assert [problem.split(":")[0] for problem in problems] == ["line 3", "line 4", "line 5"], problems
