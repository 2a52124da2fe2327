"""Issue 22, the console a new GM meets first: its clock in every time it shows, members by name, the board it
posts printed, as `python -m bot console` prints them (``run`` with a script for stdin)."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path

from bot.cli import console as console_cli
from bot.cli.shell import with_names
from bot.cli.virtual import snowflake_for
from tests.conftest import Console
from tests.support.db import target

CLOCK = "2030-03-01T09:00:00+00:00"


async def _play(tmp_path: Path, script: str, *flags: str) -> str:
    """What the console prints for ``script``, on the test's database."""
    out = io.StringIO()
    db = str(target(tmp_path / "console.sqlite3"))
    argv = ["--db", db, "--seed", "7", "--files", str(tmp_path / "exports"), *flags]
    assert await console_cli.run(argv, io.StringIO(script), out) == 0
    return out.getvalue()


async def test_the_log_and_every_date_shown_read_the_console_clock(tmp_path: Path) -> None:
    script = "\n".join(
        [
            '/campaign start ruleset:runic name:"Long Winter"',
            "/roll expression:3d6",
            "@wait 2h",
            "/roll expression:1d6",
            "/campaign log",
            "/campaign status",
            "@gm",
            "/campaign export",
        ]
    )
    shown = await _play(tmp_path, script, "--clock", CLOCK)
    assert "`#2` 2030-03-01 09:00 **Alice** /roll" in shown
    assert "`#3` 2030-03-01 11:00 **Alice** /roll" in shown  # the clock moved by @wait, and the log with it
    assert "since 2030-03-01" in shown
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    assert today not in shown, shown  # no wall-clock date anywhere
    (export,) = (tmp_path / "exports").glob("*.json")
    document = json.loads(export.read_text())
    assert document["exported_at"].startswith("2030-03-01T11:00")
    assert document["campaign"]["created_at"].startswith("2030-03-01T09:00")
    assert [event["at"][:16] for event in document["events"]][:3] == ["2030-03-01T09:00"] * 2 + ["2030-03-01T11:00"]


async def test_a_member_only_named_in_an_option_prints_by_name(tmp_path: Path) -> None:
    script = "\n".join(
        [
            '/campaign start ruleset:runic name:"Long Winter"',
            "/campaign gm add member:Carol",
            "/campaign gmchannel channel:gm-only",
            "/campaign status",
        ]
    )
    shown = await _play(tmp_path, script)
    assert "@Carol is now a GM of Long Winter." in shown
    assert "GMs: @Alice, @Carol" in shown
    assert "#gm-only" in shown
    assert not re.search(r"[@#]\d{4,}", shown), shown  # no raw snowflake
    assert "<@" not in shown and "<#" not in shown


def test_mentions_read_as_names_or_as_discord_reads_an_unknown_one() -> None:
    carol, players, lounge = snowflake_for("Carol"), snowflake_for("@Players"), snowflake_for("#lounge")
    assert with_names(f"<@{carol}> and <@!12> and <@56>", {12: "Pat"}) == "@Carol and @Pat and @unknown-user"
    assert with_names(f"<@&{players}> in <#{lounge}>, then <#2002>", {}) == "@Players in #lounge, then #2002"
    assert with_names("<@&77>", {}) == "@unknown-role"


async def test_campaign_board_prints_the_board_it_posts(console: Console, tmp_path: Path) -> None:
    await console.ok('/campaign start ruleset:runic name:"Long Winter"')
    posted = await console.ok("/campaign board")
    board = posted["board"]
    assert board["message_id"] == posted["data"]["message_id"]
    assert "== The party: Long Winter ==" in board["text"] and "(Live board)" in board["text"]
    assert "board" not in await console.ok("/roll expression:1d6")  # an edit is not printed again
    shown = await _play(tmp_path, '/campaign start ruleset:runic name:"Long Winter"\n/campaign board\n')
    assert "Posted in this channel, for everyone:\n== The party: Long Winter ==" in shown


async def test_the_serpent_gm_wait_names_its_command_once(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:serpent name:Duel")
    for magi in ("White", "Black"):
        await console.ok(f"@as {magi}")
        await console.ok(f'/serpent magi create name:{magi} codex:"Fireball x2, Dissolve Tissue x2"')
    await console.ok("@gm")
    await console.ok("/serpent battle start")
    await console.ok("@as White")
    await console.ok("/serpent battle join")
    await console.ok("@as Black")
    joined = await console.ok("/serpent battle join")  # its ping names what the GM is waited on for
    waiting = await console.ok("/campaign waiting")
    for text in (joined["text"], waiting["text"]):
        (line,) = [line for line in text.splitlines() if "run round 1" in line]
        assert "**GM**: run round 1 (`/serpent battle round`)" in line and line.count("/serpent battle round") == 1
