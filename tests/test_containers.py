"""The Dockerfile and compose.yaml, checked without a Docker engine (this machine has none to build with).

No YAML parser is installed, so compose.yaml is read by its key lines; what can be checked against the code is:
the shard ranges its processes run (through the same parser ``python -m bot --shards`` uses), the health port its
healthcheck asks, and where the database lives.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from bot.__main__ import shard_plan
from bot.adapter.client import COGS_DIR
from bot.table.books import DATA_DIR

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()


def instructions(text: str) -> list[tuple[str, str]]:
    """A Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def final_stage() -> list[tuple[str, str]]:
    steps = instructions(DOCKERFILE)
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


def test_every_requirement_is_pinned_and_the_image_installs_exactly_that_file() -> None:
    requirements = [
        line.split("#")[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines() if line.strip()
    ]
    pins = [line for line in requirements if line]
    # an exact version each, with at most an environment marker (uvloop: `; sys_platform != "win32"`)
    pinned = r"[A-Za-z0-9_.\-\[\]]+==[0-9][\w.]*(\s*;\s*[a-z_]+\s*[!=<>]=?\s*\"[\w.]+\")?"
    assert pins and all(re.fullmatch(pinned, pin) for pin in pins), pins
    steps = instructions(DOCKERFILE)
    copied = [args for keyword, args in steps if keyword == "COPY" and "requirements.txt" in args]
    assert copied == ["requirements.txt /tmp/requirements.txt"]
    installs = [args for keyword, args in steps if keyword == "RUN" and "pip install" in args]
    assert len(installs) == 1 and "-r /tmp/requirements.txt" in installs[0]
    assert "requirements-dev" not in DOCKERFILE  # tests and lint stay out of the image


def test_the_image_runs_as_a_non_root_user() -> None:
    users = [args.split(":")[0] for keyword, args in final_stage() if keyword == "USER"]
    assert users, "the final stage sets no USER: it would run as root"
    assert users[-1] not in {"root", "0"}
    created = [args for keyword, args in final_stage() if keyword == "RUN" and "useradd" in args]
    assert created and f" {users[-1]}" in created[0]


def test_the_image_holds_what_the_bot_reads_at_run_time(tmp_path: Path) -> None:
    """The image's file tree rebuilt from the final stage's COPY lines alone, then run as the image runs it
    (PYTHONPATH at the copy, working in the volume): a file the bot reads that the image lacks fails here."""
    app, volume = tmp_path / "app", tmp_path / "data"
    volume.mkdir()
    for keyword, args in final_stage():
        if keyword != "COPY" or "--from" in args:
            continue
        source, destination = args.split()
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, app / destination, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (app / destination).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / source, app / destination)
    assert {"bot", COGS_DIR.name, "rules", DATA_DIR.name} <= {path.name for path in app.iterdir()}
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_", "PYTHON"))}
    environment |= {"PYTHONPATH": str(app), "MAGISTER_DB": str(volume / "magister.sqlite3")}
    lines = ["/help", '/lookup term:"ruling 15"', "/odds check skill:12", "/campaign start ruleset:runic name:Image"]
    ran = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--json"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=volume,
        env=environment,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    results = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [r["ok"] for r in results] == [True] * len(lines), results
    assert ("ENTRYPOINT", '["python", "-m", "bot"]') in final_stage()
    python = re.search(r"FROM python:(\d+)\.(\d+)", DOCKERFILE)
    assert python is not None and (int(python[1]), int(python[2])) >= (3, 11)  # pyproject: requires-python >=3.11


def test_secrets_and_databases_stay_out_of_the_build_context() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignore = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert ignore[0] == "*"  # everything out first ...
    allowed = {line[1:].rstrip("/") for line in ignore if line.startswith("!")}
    copied = {args.split()[0].rstrip("/") for keyword, args in instructions(DOCKERFILE) if keyword == "COPY"}
    assert allowed == copied - {"--from=build"}  # ... then only what the image copies


def compose_services() -> dict[str, str]:
    """Each service's block of compose.yaml (its lines, as text), by name."""
    body = COMPOSE.split("\nservices:\n", 1)[1].split("\nvolumes:\n", 1)[0]
    blocks = re.split(r"^  ([\w-]+):\n", body, flags=re.MULTILINE)
    return dict(zip(blocks[1::2], blocks[2::2], strict=True))


def test_by_default_one_bot_on_a_sqlite_volume() -> None:
    services = compose_services()
    bot = services["bot"]
    assert "profiles: [sqlite]" in bot
    assert "MAGISTER_DB: /data/magister.sqlite3" in bot and "- magister-data:/data" in bot
    assert "command:" not in bot  # every shard in the one process
    assert "\nvolumes:\n  magister-data:\n" in COMPOSE
    assert "MAGISTER_DB=/data/" in DOCKERFILE  # the image's own default is the same folder
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^COMPOSE_PROFILES=sqlite$", example, flags=re.MULTILINE)  # what `docker compose up` starts


def test_the_postgres_profile_runs_postgres_and_two_bots_splitting_every_shard_once() -> None:
    services = compose_services()
    assert "profiles: [postgres]" in services["postgres"] and "image: postgres:" in services["postgres"]
    anchor = COMPOSE.split("x-postgres-bot: &postgres-bot\n", 1)[1].split("\n\n", 1)[0]
    assert "profiles: [postgres]" in anchor and "condition: service_healthy" in anchor
    bots = [name for name, block in services.items() if "<<: *postgres-bot" in block]
    assert len(bots) == 2
    assert re.search(r"MAGISTER_DB: postgresql://magister:\S+@postgres:5432/magister", COMPOSE)
    plans = []
    for name in bots:
        command = re.search(r"command: \[(.*)\]", services[name])
        assert command is not None, name
        args = [shlex.split(arg)[0] for arg in command[1].split(",")]
        assert args[0] == "--shards" and args[2] == "--shard-count", args
        plans.append(shard_plan(args[1], args[3]))
    assert len({plan.count for plan in plans}) == 1
    shards = sorted(shard for plan in plans for shard in plan.ids or ())
    assert shards == list(range(plans[0].count or 0))  # each shard in exactly one process


def test_the_healthcheck_asks_the_port_the_bots_serve() -> None:
    port = re.search(r'MAGISTER_HEALTH_PORT: "(\d+)"', COMPOSE)
    assert port is not None
    assert f"http://127.0.0.1:{port[1]}/readyz" in COMPOSE
    assert "pg_isready" in compose_services()["postgres"]
    assert "condition: service_healthy" in COMPOSE  # the bots wait for PostgreSQL to take connections


def test_the_code_is_importable_and_a_relative_database_lands_in_the_volume() -> None:
    stage = final_stage()
    workdirs = [args for keyword, args in stage if keyword == "WORKDIR"]
    environment = " ".join(args for keyword, args in stage if keyword == "ENV")
    volume = re.search(r'VOLUME \["(/\w+)"\]', DOCKERFILE)
    assert volume is not None
    assert workdirs[-1] == volume[1]  # `python -m bot` runs in the volume: MAGISTER_DB=magister.sqlite3 lands there
    assert f"MAGISTER_DB={volume[1]}/" in environment
    assert f"PYTHONPATH={workdirs[-2]}" in environment  # where bot/ cogs/ rules/ data/ were copied
