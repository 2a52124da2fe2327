"""`python -m bot port`: a real scenario's database round-trips between backends with identical content.

On the PostgreSQL pass the middle hop is a real PostgreSQL database (SQLite → PostgreSQL → SQLite); on the
SQLite pass it is a second SQLite file, so the copy, the verification and the refusals are checked either way.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.storage.port import TABLES, PortError, SqliteSide, checksum, port
from bot.table.registry import Registry
from tests.support import db as test_db
from tests.support.scenario import ROOT, SCENARIO_CLOCK, SCENARIOS, run_console

ONE_MAGE = "@gm\n/campaign start ruleset:runic name:One\n/runic mage create name:Pip magery:2 iq:14 thaumatology:14\n"


def _middle(tmp_path: Path) -> str:
    """The other backend when there is one: this test's PostgreSQL database, else a second SQLite file."""
    return str(test_db.target(tmp_path / "middle.sqlite3"))


def _played(tmp_path: Path) -> Path:
    """A database as a months-long table leaves it: two campaigns, a battle in play-by-post with timers and
    waits, undo, macros, an ended campaign."""
    db = tmp_path / "played.sqlite3"
    serpent = (SCENARIOS / "serpent_pbp_days.txt").read_text(encoding="utf-8")
    runic = (SCENARIOS / "runic_campaign.txt").read_text(encoding="utf-8")
    extra = "\n".join(
        [
            "@channel 5002",
            "@gm",
            "/campaign start ruleset:saga name:Ended",
            "/campaign end",
            "@press Confirm",
            "@channel 5003",
            "/macro save name:fireball expression:8d6",
            '/remind set when:3d text:"bring snacks"',
        ]
    )
    run_console(f"{serpent}\n@channel 5001\n{runic}\n{extra}\n", tmp_path, db=db)
    return db


async def _sums(path: Path) -> dict[str, tuple[int, str]]:
    side = SqliteSide(path)
    try:
        columns = {table: await side.columns(table) for table, _ in TABLES}
        return {
            table: ((report := await checksum(side, table, columns[table], order)).rows, report.checksum)
            for table, order in TABLES
        }
    finally:
        await side.close()


async def test_round_trip_gives_identical_content(tmp_path: Path, registry: Registry) -> None:
    source = _played(tmp_path)
    before = await _sums(source)
    assert before["events"][0] > 40 and before["timers"][0] > 0 and before["waits"][0] > 0
    assert before["macros"][0] == 1 and before["campaigns"][0] == 3

    middle = _middle(tmp_path)
    there = await port(str(source), middle)
    back = tmp_path / "back.sqlite3"
    again = await port(middle, str(back))

    assert [(r.table, r.rows, r.checksum) for r in there] == [(r.table, r.rows, r.checksum) for r in again]
    assert await _sums(back) == before

    # The ported database plays on: new rows get fresh ids past the copied ones (PostgreSQL's identity
    # sequences were moved), and what a player reads is what they read before the move.
    for db in (middle, f"sqlite:///{back}"):  # named outright: the PostgreSQL pass maps bare paths
        table = await ConsoleTable.open(
            db,
            channel=5001,
            seed=3,
            registry=registry,
            files_dir=tmp_path / "files",
            clock=SCENARIO_CLOCK,
        )
        try:
            status = (await table.execute("/campaign status")).as_json()
            assert status["ok"] and "Camelot" in status["text"], (db, status)
            # the copy filled the text index as it wrote the events: a search finds the copied entries
            oldest = (await table.execute("/campaign log page:999")).as_json()["data"]["events"][-1]
            words = oldest["summary"][:12].strip()
            found = (await table.execute(f'/campaign log text:"{words}"')).as_json()["data"]["events"]
            assert oldest["id"] in [event["id"] for event in found], (db, words, found)
            table.switch_user("Gwen")
            undone = (await table.execute("/campaign undo")).as_json()
            assert undone["ok"], undone  # writes a new event: a fresh id past the copied ones
        finally:
            await table.close()


async def test_refuses_a_target_that_holds_data_and_replace_overwrites_it(tmp_path: Path) -> None:
    source = tmp_path / "a.sqlite3"
    run_console(
        ONE_MAGE,
        tmp_path,
        db=source,
    )
    target = tmp_path / "b.sqlite3"
    run_console("@gm\n/campaign start ruleset:runic name:Other\n", tmp_path, db=target)
    held = await _sums(target)

    with pytest.raises(PortError, match="already holds data: campaigns \\(1\\)"):
        await port(str(source), str(target))
    assert await _sums(target) == held  # refused: nothing written

    await port(str(source), str(target), replace=True)
    assert await _sums(target) == await _sums(source)


async def test_a_copy_that_does_not_verify_writes_nothing(tmp_path: Path) -> None:
    """A target that changes what it is given (here a trigger, a real fault) fails verification: rolled back."""
    source = tmp_path / "a.sqlite3"
    run_console(
        ONE_MAGE,
        tmp_path,
        db=source,
    )
    assert (await _sums(source))["characters"][0] == 1
    target = tmp_path / "b.sqlite3"
    await port(str(source), str(target))  # creates and migrates it
    with sqlite3.connect(target) as db:
        db.execute("DELETE FROM characters")
        db.execute("DELETE FROM events")
        db.execute("DELETE FROM campaigns")
        db.execute(
            "CREATE TRIGGER meddle AFTER INSERT ON characters BEGIN "
            "UPDATE characters SET name = name || '!' WHERE id = NEW.id; END"
        )
    with pytest.raises(PortError, match="table characters did not verify"):
        await port(str(source), str(target))
    with sqlite3.connect(target) as db:
        assert db.execute("SELECT count(*) FROM campaigns").fetchone() == (0,)


async def test_refuses_to_port_a_database_onto_itself(tmp_path: Path) -> None:
    with pytest.raises(PortError, match="same database"):
        await port(str(tmp_path / "a.sqlite3"), str(tmp_path / "a.sqlite3"))


def test_the_command_line_ports_and_explains_itself(tmp_path: Path) -> None:
    source = tmp_path / "a.sqlite3"
    run_console("@gm\n/campaign start ruleset:runic name:One\n", tmp_path, db=source)

    def bot(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False
        )

    assert bot("port", "--help").returncode == 0
    ported = bot("port", "--from", str(source), "--to", str(tmp_path / "b.sqlite3"))
    assert ported.returncode == 0, ported.stderr
    assert "every table verified" in ported.stdout and "campaigns" in ported.stdout
    again = bot("port", "--from", str(source), "--to", str(tmp_path / "b.sqlite3"))
    assert again.returncode != 0 and "--replace" in again.stderr and "Traceback" not in again.stderr
    missing = bot("port", "--from", str(source))
    assert missing.returncode == 2 and "--to" in missing.stderr
