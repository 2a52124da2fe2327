"""Replay a console scenario and read ``Ruleset.waits`` from the stored campaign after every line.

Shared by the runic, awakened, realm and saga waits tests: the waits are checked on every state a real game
reaches through the real service and database (not only hand-built tables), against the contract's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.table.service import Caller, Place
from rules.base import Table, Wait
from tests.support.loop_console import LoopConsole
from tests.support.scenario import SCENARIOS


@dataclass
class Step:
    line: str
    ok: bool
    waits: list[Wait]


def replay(tmp_path: Path, registry, scenario: str, *, seed: int) -> list[Step]:
    """Every command line of ``scenario``, each with the waits of the campaign as stored after it."""
    lines = [line.strip() for line in (SCENARIOS / scenario).read_text(encoding="utf-8").splitlines()]
    console = LoopConsole(tmp_path / "waits.sqlite3", registry, seed=seed)
    steps = []
    try:
        for line in lines:
            if not line or line.startswith("#"):
                continue
            result = console.run(line)
            steps.append(Step(line, result.ok, console.call(_waits(console))))
    finally:
        console.close()
    return steps


async def _waits(console: LoopConsole) -> list[Wait]:
    service = console.table.bot.service
    campaign = await service.campaign(Place(console.table.virtual.guild_id, console.table.virtual.channel_id))
    if campaign is None:
        return []
    table = service.table_for(campaign, Caller(user_id=0, name="reader"))
    waits = service.registry.get(campaign.row.ruleset).ruleset.waits(table)
    check(service.registry.get(campaign.row.ruleset).ruleset, table, waits)
    return waits


def check(ruleset, table: Table, waits: list[Wait]) -> None:
    """The contract: unique keys; a character's wait is its owner's, the GM's has no user; real commands."""
    keys = [w.key for w in waits]
    assert len(keys) == len(set(keys)), keys
    for wait in waits:
        assert wait.key and wait.what and wait.commands, wait
        if wait.user_id is None:
            assert (wait.who, wait.kind) == ("GM", "gm"), wait
        else:
            record = table.characters.get(wait.who.casefold())
            assert record is not None and record.owner_id == wait.user_id and wait.kind != "gm", wait
        for command in wait.commands:
            root, _, action = command.lstrip("/").partition(" ")
            assert root == ruleset.id and action in ruleset.actions, command
        if wait.on_deadline is not None:
            action = ruleset.actions[wait.on_deadline.action]
            action.options.model_validate(wait.on_deadline.options)
            assert wait.on_deadline.says
        Wait.model_validate_json(wait.model_dump_json())
