"""Run a console scenario through the real command line: ``python -m bot console --json --seed N``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
SCENARIO_CLOCK = "2026-11-01T12:00:00+00:00"  # a scenario's virtual clock starts here, so every run reads the same
SEALS = re.compile(r"\b[0-9a-f]{64}\b|(?<=sealed `)[0-9a-f]{12}(?=`)|\b[0-9a-f]{32}\b")


def without_seals(value: Any) -> Any:
    """A result with its seals' hashes and salts blanked: a salt comes from ``secrets``, never the seeded dice, so
    only they differ between two runs of a scenario (docs/sealed-rolls.md)."""
    if isinstance(value, str):
        return SEALS.sub("SEAL", value)
    if isinstance(value, dict):
        return {key: without_seals(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_seals(item) for item in value]
    return value


def run_console(
    script: str, tmp_path: Path, *, seed: int = 1, db: Path | None = None, args: tuple[str, ...] = ()
) -> list[dict]:
    """Every JSON object the console printed, one per command line of ``script``."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "console",
            "--json",
            "--seed",
            str(seed),
            "--db",
            str(db or tmp_path / "s.db"),
            *(() if "--clock" in args else ("--clock", SCENARIO_CLOCK)),  # deadlines replay identically
            *args,
        ],
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def run_scenario(name: str, tmp_path: Path, *, seed: int = 1) -> list[dict]:
    return run_console((SCENARIOS / name).read_text(encoding="utf-8"), tmp_path, seed=seed)


def by_command(results: list[dict], prefix: str) -> list[dict]:
    return [r for r in results if r["command"].startswith(prefix)]
