"""Settings from ``.env`` and the environment (issue 23 read them without pydantic-settings, which took a twentieth
of start-up): the same names in any case, the environment over ``.env`` over the defaults, arguments over all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
DOTENV = """# a comment
DISCORD_TOKEN="from.the.file"
export MAGISTER_LOG_LEVEL=warning
magister_web_link_days = 7   # lower case, spaced, commented
MAGISTER_DEV_GUILD=
MAGISTER_DB
MAGISTER_HEALTH_PORT='8081'
SOMETHING_ELSE=ignored
"""


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith(("DISCORD_", "MAGISTER_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dotenv_then_environment_then_arguments(clean_environment: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().token is None and Settings().magister_db == "magister.sqlite3"  # no .env: the defaults
    (clean_environment / ".env").write_text(DOTENV, encoding="utf-8")
    settings = load_settings()
    assert settings.token == "from.the.file"
    assert "from.the.file" not in repr(settings)  # a secret, even in a repr
    assert settings.magister_log_level == "WARNING"
    assert settings.magister_web_link_days == 7
    assert settings.magister_dev_guild is None  # blank: unset
    assert settings.magister_db == "magister.sqlite3"  # a bare name sets nothing
    assert settings.magister_health_port == 8081
    assert not hasattr(settings, "something_else")
    monkeypatch.setenv("DISCORD_TOKEN", "from.the.environment")
    monkeypatch.setenv("magister_web_link_days", "9")
    settings = load_settings()
    assert settings.token == "from.the.environment" and settings.magister_web_link_days == 9
    assert settings.magister_health_port == 8081  # the file still fills what the environment leaves
    assert load_settings(magister_web_link_days=3).magister_web_link_days == 3
    assert Settings(_env_file=None).magister_health_port is None  # no file: only the environment


def test_a_bad_value_in_dotenv_exits_2_naming_the_variable(
    clean_environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (clean_environment / ".env").write_text("MAGISTER_HEALTH_PORT=70000\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        load_settings()
    assert stopped.value.code == 2
    assert "bad configuration: MAGISTER_HEALTH_PORT: Input should be less than or equal to 65535" in (
        capsys.readouterr().err
    )


def test_the_console_reads_its_database_from_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("MAGISTER_DB=from-dotenv.sqlite3\nMAGISTER_LOG_LEVEL=error\n", encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--json"],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        input="/campaign start ruleset:runic name:Camelot\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["ok"] is True
    assert (tmp_path / "from-dotenv.sqlite3").is_file()
