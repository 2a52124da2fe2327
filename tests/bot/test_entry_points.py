"""Config and the command line, run as a user would run them."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli.config import Settings, load_settings
from tests.support.db import target

ROOT = Path(__file__).resolve().parents[2]


def run(
    args: list[str],
    tmp_path: Path,
    stdin: str | None = None,
    timeout: float = 60,
    preexec_fn: Callable[[], None] | None = None,
    **env: str,
) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment.update({"MAGISTER_DB": str(target(tmp_path / "cli.sqlite3")), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env here
        env={**environment, "PYTHONPATH": str(ROOT)},
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def test_console_json_is_seeded_and_reports_errors(tmp_path: Path) -> None:
    script = "/roll expression:3d6+2\n/roll expression:1d0\n"
    first = run(["console", "--json", "--seed", "7"], tmp_path, stdin=script)
    assert first.returncode == 0, first.stderr
    good, bad = (json.loads(line) for line in first.stdout.splitlines())
    assert good["ok"] is True
    assert len(good["data"]["dice"]) == 3
    assert all(1 <= d <= 6 for d in good["data"]["dice"])
    assert good["data"]["total"] == sum(good["data"]["dice"]) + 2
    assert bad["ok"] is False
    assert "0-sided" in bad["text"]
    again = run(["console", "--json", "--seed", "7"], tmp_path, stdin=script)
    assert json.loads(again.stdout.splitlines()[0])["data"]["dice"] == good["data"]["dice"]


def test_no_token_and_a_pipe_plays_the_pipe_at_the_console(tmp_path: Path) -> None:
    """`printf '/roll expression:3d6\\n' | python -m bot` (and `make run` without a terminal): the README's console."""
    result = run([], tmp_path, stdin="/roll expression:3d6\n/lookup term:harmonic\n")
    assert result.returncode == 0, result.stderr
    assert "== Roll: " in result.stdout and "3d6 (" in result.stdout
    assert "== Harmonic order (section 12) ==" in result.stdout
    assert "no DISCORD_TOKEN is set, so this is the console table" in result.stderr  # the why, off stdout
    assert "DISCORD_TOKEN" not in result.stdout
    empty_pipe = run([], tmp_path, stdin="")  # a pipe that ends at once: the console ends at once, fine
    assert empty_pipe.returncode == 0 and empty_pipe.stdout == "", empty_pipe.stderr


def test_no_token_and_nothing_to_read_exits_2_saying_why(tmp_path: Path) -> None:
    """`docker run -d` or a service manager without a token: stdin is /dev/null, so no console can be played;
    exit 2 with the reason, as before the console read pipes, so the deployment's log and status say what is wrong."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**environment, "MAGISTER_DB": str(tmp_path / "cli.sqlite3"), "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert "no DISCORD_TOKEN is set" in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    ("env", "named"),
    [({"MAGISTER_DEV_GUILD": "not-a-number"}, "MAGISTER_DEV_GUILD"), ({"MAGISTER_LOG_LEVEL": "LOUD"}, "LOG_LEVEL")],
)
def test_bad_config_exits_2_with_one_clear_line(tmp_path: Path, env: dict, named: str) -> None:
    result = run(["console"], tmp_path, stdin="", **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert named in lines[0]
    assert "bad configuration" in lines[0]


def test_unknown_subcommand_exits_2(tmp_path: Path) -> None:
    result = run(["fly"], tmp_path)
    assert result.returncode == 2
    assert "python -m bot console" in result.stderr


def test_sync_without_token_says_so(tmp_path: Path) -> None:
    result = run(["sync"], tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr


def test_token_is_a_secret(monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "super.secret.token")
    settings = load_settings()
    assert settings.token == "super.secret.token"
    assert "super.secret.token" not in repr(settings)
    assert "super.secret.token" not in str(settings.model_dump())


def test_blank_values_mean_unset(monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "  ")
    monkeypatch.setenv("MAGISTER_DEV_GUILD", "")
    settings = Settings(_env_file=None)
    assert settings.token is None
    assert settings.magister_dev_guild is None


def unopenable(tmp_path: Path, kind: str) -> Path:
    """A database path Magister cannot use, of each kind a user meets."""
    if kind == "not a database":
        path = tmp_path / "notes.sqlite3"
        path.write_text("these are my campaign notes, not a database " * 10)
        return path
    if kind == "a directory":
        path = tmp_path / "folder.sqlite3"
        path.mkdir()
        return path
    blocker = tmp_path / "file"
    blocker.write_text("x")
    return blocker / "sub" / "magister.sqlite3"  # "under a file": its folder cannot be made


@pytest.mark.parametrize("kind", ["not a database", "a directory", "under a file"])
@pytest.mark.parametrize("args", [["console", "--json"], []], ids=["console", "bot"])
def test_unusable_database_exits_with_one_line_naming_it(tmp_path: Path, kind: str, args: list[str]) -> None:
    """Start-up must never hang on a half-opened connection (the real process, with a timeout)."""
    path = unopenable(tmp_path, kind)
    token = {} if args else {"DISCORD_TOKEN": "not.a.real.token"}  # the store opens before any login
    result = run(args, tmp_path, stdin="/roll expression:1d6\n", timeout=30, MAGISTER_DB=str(path), **token)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0]
    assert "MAGISTER_DB" in lines[0]


def magister_database(path: Path) -> Path:
    """A real, empty Magister database at ``path`` (SQLite: these faults are about the file itself)."""
    from bot.storage.sqlite import SqliteStore

    async def make() -> None:
        store = await SqliteStore.open(path)
        await store.close()  # the last connection out folds the WAL into the file

    asyncio.run(make())
    return path


def damage(path: Path) -> None:
    """Overwrite the campaigns table's root page with noise: the header and the schema still read fine."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'campaigns'").fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    with path.open("r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\xa5" * size)


def no_write_permission() -> Callable[[], None] | None:
    """For a child process: what makes a 0444 file unwritable to it. Root writes any file, so as root the child
    drops CAP_DAC_OVERRIDE (and CAP_FOWNER, which would let it chmod the file back) from its bounding set."""
    if os.geteuid() != 0:
        return None
    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for capability in (1, 3):  # CAP_DAC_OVERRIDE, CAP_FOWNER (linux/capability.h)
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")

    return drop


def unwritable(path: str, preexec: Callable[[], None] | None) -> bool:
    """Does a child process started so really fail to open ``path`` for writing?"""
    try:
        probe = subprocess.run(
            [sys.executable, "-c", f"open({path!r}, 'r+b')"], preexec_fn=preexec, capture_output=True, check=False
        )
    except subprocess.SubprocessError:  # the preexec_fn itself failed (no CAP_SETPCAP to drop capabilities with)
        return False
    return probe.returncode != 0


def faulty(tmp_path: Path, kind: str) -> str:
    """MAGISTER_DB for a database Magister opens today but cannot use (issue 21): each must stop the start."""
    if kind == "damaged":
        path = magister_database(tmp_path / "damaged.sqlite3")
        damage(path)
        return str(path)
    if kind == "read-only":
        path = magister_database(tmp_path / "read-only.sqlite3")
        path.chmod(0o444)
        return str(path)
    if kind == "newer":
        path = magister_database(tmp_path / "newer.sqlite3")
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute("PRAGMA user_version = 999")
        return str(path)
    return "mysql://magister:hunter2@localhost/campaigns"


NAMED = {  # what the one line must say: the problem, and the fix
    "damaged": ("is damaged", "restore"),
    "read-only": ("may not write", "permission"),
    "newer": ("newer Magister", "upgrade Magister, or restore a backup"),
    "mysql": (
        "mysql://magister:***@localhost/campaigns: Magister keeps its campaigns in SQLite or PostgreSQL",
        "postgresql://",
    ),
}


@pytest.mark.parametrize("kind", list(NAMED))
@pytest.mark.parametrize("args", [["console", "--json"], []], ids=["console", "bot"])
def test_a_database_magister_cannot_use_stops_the_start_with_one_line(
    tmp_path: Path, kind: str, args: list[str]
) -> None:
    """Before, each of these started: then every command (damaged), every write (read-only) was an incident, a
    newer schema opened silently, and a mysql:// URL became a SQLite path (a folder named with the password)."""
    db = faulty(tmp_path, kind)
    preexec = no_write_permission() if kind == "read-only" else None
    if kind == "read-only" and not unwritable(db, preexec):
        pytest.skip("cannot make a file unwritable here: running as root, and dropping CAP_DAC_OVERRIDE failed")
    before = set(tmp_path.iterdir())
    token = {} if args else {"DISCORD_TOKEN": "not.a.real.token"}  # the store opens before any login
    result = run(
        args, tmp_path, stdin="/roll expression:1d6\n", timeout=30, preexec_fn=preexec, MAGISTER_DB=db, **token
    )
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    problem, fix = NAMED[kind]
    assert problem in lines[0] and fix in lines[0] and "MAGISTER_DB" in lines[0], lines[0]
    assert "hunter2" not in result.stderr + result.stdout
    if kind == "mysql":
        assert set(tmp_path.iterdir()) == before  # nothing made: no folder named after the URL and its password
    else:
        assert db in lines[0]


def test_backup_refuses_another_kind_of_url_without_its_password(tmp_path: Path) -> None:
    """Before, `backup` took mysql://… for a path and said "there is no database at mysql:/magister:hunter2@…"."""
    result = run(["backup", "copy.sqlite3"], tmp_path, MAGISTER_DB="mysql://magister:hunter2@localhost/campaigns")
    assert result.returncode == 2 and "hunter2" not in result.stderr + result.stdout
    (line,) = result.stderr.strip().splitlines()
    assert "not mysql" in line and "sqlite:///" in line


def test_the_first_console_reply_does_not_wait_for_the_dice_parser(tmp_path: Path) -> None:
    """d20 builds its grammar at import, matplotlib and dateparser take longer still: a reply that rolls, charts
    and reminds nothing must not pay for them."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment.update(MAGISTER_DB=str(target(tmp_path / "cli.sqlite3")), PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", "console", "--json"],
        cwd=tmp_path,
        env=environment,
        input="/campaign status\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.splitlines()[0])["command"] == "/campaign status"
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if "|" in line}
    assert not {"d20", "matplotlib", "dateparser"} & imported


def test_a_store_left_open_does_not_keep_the_process_alive(tmp_path: Path) -> None:
    """A crash between opening and closing the store (or a failed test) must still let Python exit."""
    script = (
        "import asyncio, sys\n"
        "from bot.storage.sqlite import SqliteStore\n"
        "async def main():\n"
        f"    store = await SqliteStore.open({str(tmp_path / 'open.sqlite3')!r})\n"
        "    await store.count_events(1)\n"
        "asyncio.run(main())\n"
        "print('done')\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"


@pytest.mark.parametrize("args", [["--help"], ["console", "--help"], ["sync", "--help"], ["backup", "--help"]])
def test_every_help_exits_0_with_usage(tmp_path: Path, args: list[str]) -> None:
    result = run(args, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "usage: python -m bot" in result.stdout


def test_help_usage_names_the_subcommands(tmp_path: Path) -> None:
    shown = run(["--help"], tmp_path).stdout
    usage = shown.splitlines()[0]
    assert all(word in usage for word in ("console", "sync", "backup", "port", "forget")), usage
    assert "with none set, the console table (typed, or piped in)" in shown  # what `python -m bot` does here


@pytest.mark.parametrize("args", [["console"], []])  # `python -m bot` with no token is the console too
def test_console_into_a_closed_pipe_exits_quietly(tmp_path: Path, args: list[str]) -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment.update({"MAGISTER_DB": str(target(tmp_path / "cli.sqlite3")), "PYTHONPATH": str(ROOT)})
    reader = subprocess.Popen(["head", "-1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    console = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=environment,
        stdin=subprocess.PIPE,
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert reader.stdin is not None
    reader.stdin.close()
    _, errors = console.communicate("/help\n/help\n/roll expression:3d6\n" * 20, timeout=60)
    assert reader.stdout is not None
    reader.stdout.read()
    reader.wait(timeout=10)
    assert "Traceback" not in errors and "BrokenPipe" not in errors, errors
    assert console.returncode == 0


@pytest.mark.sqlite_only(reason="SQLite's online backup of a file (PostgreSQL: pg_dump, test_postgres.py)")
def test_backup_copies_a_live_database_and_never_overwrites(tmp_path: Path) -> None:
    made = run(["console", "--json"], tmp_path, stdin="/campaign start ruleset:runic name:Camelot\n")
    assert made.returncode == 0, made.stderr
    copy = tmp_path / "backup.sqlite3"
    copied = run(["backup", str(copy)], tmp_path)
    assert copied.returncode == 0, copied.stderr
    assert "integrity ok" in copied.stdout
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT name FROM campaigns").fetchall() == [("Camelot",)]
    again = run(["backup", str(copy)], tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr
    missing = run(["backup", str(tmp_path / "b2.sqlite3")], tmp_path, MAGISTER_DB=str(tmp_path / "none.sqlite3"))
    assert missing.returncode == 2 and "no database" in missing.stderr


def test_unreachable_discord_is_one_line_and_a_retry_not_a_traceback(tmp_path: Path) -> None:
    """No network (as here) gives one line per attempt with a growing wait; a refused token would exit 2."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {"MAGISTER_DB": str(tmp_path / "net.sqlite3"), "DISCORD_TOKEN": "abc.def.ghi"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stderr.readline()  # type: ignore[union-attr]
        if process.poll() is not None and process.returncode == 2:
            assert "refused" in first  # Discord reachable after all: the fake token is refused, cleanly
            return
        assert first.startswith("magister: cannot reach Discord (") and "retrying in 2 s" in first, first
        second = process.stderr.readline()  # type: ignore[union-attr]
        assert "retrying in 4 s" in second and "Traceback" not in first + second
    finally:
        process.kill()
        process.wait(timeout=10)


def test_sigterm_during_the_backoff_exits_0_at_once(tmp_path: Path) -> None:
    """`docker stop` sends SIGTERM: the process ends cleanly, not after its backoff and not by a kill."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {"MAGISTER_DB": str(tmp_path / "term.sqlite3"), "DISCORD_TOKEN": "abc.def.ghi"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stderr.readline()  # type: ignore[union-attr]
        if "refused" in first:
            return  # Discord reachable after all: the fake token is refused, and the process ended
        assert "retrying in 2 s" in first, first
        second = process.stderr.readline()  # type: ignore[union-attr]
        assert "retrying in 4 s" in second, second  # now in a 4 s backoff
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=3) == 0  # well inside the backoff
        assert "Traceback" not in process.stderr.read()  # type: ignore[union-attr]
    finally:
        process.kill()
        process.wait(timeout=10)
