"""Two processes on one database file: no write is lost, nobody writes into what the other ended.

The console defaults to the bot's database, so this happens for real. Most
tests use two Store/TableService pairs on one file (each is what one process
holds); the last drives two real ``python -m bot console`` processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.rows import StaleCampaignError
from bot.table import campaigns
from bot.table.registry import Registry
from bot.table.service import ConcurrentChangeError, TableService
from rules.base import Card, Outcome, RuleError
from tests.conftest import GM, HERE, open_store
from tests.support.db import target, write_tx_class

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def pair(tmp_path: Path, registry: Registry) -> AsyncIterator[tuple[TableService, TableService]]:
    """Process A and process B; A started a runic campaign with Merlin, and both have loaded it."""
    path = tmp_path / "shared.sqlite3"
    stores = [await open_store(path), await open_store(path)]
    a, b = (TableService(store, registry, random.Random(i)) for i, store in enumerate(stores))
    await a.start_campaign(HERE, GM, "runic", "Shared")
    await a.run(HERE, GM, "runic", "mage create", {"name": "Merlin", "magery": 2, "iq": 12, "thaumatology": 12})
    for service in (a, b):
        await campaigns.status(service, HERE)  # each holds the campaign in its cache now
    yield a, b
    for store in stores:
        await store.close()


async def sheet(service: TableService, name: str) -> dict:
    row = await service.store.campaign(HERE.guild_id, HERE.channel_id)
    assert row is not None
    (found,) = [c for c in await service.store.characters(row.id) if c.name == name]
    return found.sheet


async def test_character_only_writes_from_two_processes_both_land(pair) -> None:
    a, b = pair
    await a.run(HERE, GM, "runic", "mage set", {"field": "age", "value": 70, "mage": "Merlin"})
    await b.run(HERE, GM, "runic", "mage set", {"field": "iq", "value": 16, "mage": "Merlin"})
    await a.run(HERE, GM, "runic", "mage set", {"field": "ht", "value": 12, "mage": "Merlin"})
    merlin = await sheet(a, "Merlin")
    assert (merlin["age"], merlin["iq"], merlin["ht"]) == (70, 16, 12)


async def test_a_character_created_by_the_other_process_is_seen(pair) -> None:
    a, b = pair
    await b.run(HERE, GM, "runic", "mage create", {"name": "Nimue", "magery": 1, "thaumatology": 12})
    reply = await a.run(HERE, GM, "runic", "mage set", {"field": "iq", "value": 14, "mage": "Nimue"})
    assert reply.outcome.data["after"] == 14
    with pytest.raises(RuleError):  # a clear refusal, not an IntegrityError incident
        await a.run(HERE, GM, "runic", "mage create", {"name": "Nimue", "magery": 1, "thaumatology": 12})
    assert (await sheet(b, "Nimue"))["iq"] == 14


async def test_nobody_writes_into_a_campaign_the_other_process_ended(pair) -> None:
    a, b = pair
    await campaigns.end(b, HERE, GM)
    with pytest.raises(RuleError, match="no campaign"):
        await a.run(HERE, GM, "runic", "mage set", {"field": "age", "value": 80, "mage": "Merlin"})
    outcome = Outcome(card=Card(title="1d6"), summary="rolled 1d6 = 4", data={})
    reply = await a.record(HERE, GM, "roll", outcome)
    assert reply.event_id is None  # shown, but not logged into the ended campaign
    row = await a.store.campaign_by_id(1)
    assert row is not None and row.archived_at is not None
    assert (await a.store.events(row.id, limit=1))[0].command == "campaign end"


class ConsoleProcess:
    """A real ``python -m bot console --json`` driven one line at a time."""

    def __init__(self, db: Path | str, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
        env.update(MAGISTER_DB=str(db), PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", "console", "--json"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def __call__(self, line: str) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        assert reply, self.process.stderr.read() if self.process.stderr else "no reply"
        return json.loads(reply)

    def close(self) -> None:
        try:
            self.process.communicate(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()


async def test_two_real_console_processes_lose_nothing(tmp_path: Path) -> None:
    db = target(tmp_path / "magister.sqlite3")  # a file, or a PostgreSQL database on the PostgreSQL pass
    a = ConsoleProcess(db, tmp_path)
    b = ConsoleProcess(db, tmp_path)
    try:
        assert a("/campaign start ruleset:runic name:Shared")["ok"]
        assert a("/runic mage create name:Merlin magery:2 iq:12 thaumatology:12")["ok"]
        assert b("/character show name:Merlin")["ok"]  # B has it loaded now
        assert a("/runic mage set field:age value:70 mage:Merlin")["ok"]
        assert b("/runic mage set field:iq value:16 mage:Merlin")["ok"]
        assert b("/runic mage create name:Nimue magery:1 thaumatology:12")["ok"]
        assert a("/runic mage set field:iq value:14 mage:Nimue")["ok"], "A must see the mage B created"
        assert b("/campaign end")["ok"]
        assert b("@press Confirm")["ok"]
        late = a("/runic mage set field:ht value:12 mage:Merlin")
        assert not late["ok"] and "no campaign" in late["text"].lower(), late
    finally:
        a.close()
        b.close()
    store = await open_store(db)
    (row,) = await store.archived_campaigns(HERE.guild_id, HERE.channel_id)
    sheets = {character.name: character.sheet for character in await store.characters(row.id)}
    commands = [event.command for event in reversed(await store.events(row.id, limit=100))]
    await store.close()
    assert (sheets["Merlin"]["age"], sheets["Merlin"]["iq"], sheets["Merlin"]["ht"]) == (70, 16, 10)
    assert sheets["Nimue"]["iq"] == 14
    assert commands[-1] == "campaign end"


async def test_a_writer_stale_twice_is_told_clearly(pair, monkeypatch) -> None:
    """Another process winning both the write and its retry: a clear refusal, nothing half-saved."""
    a, _ = pair
    before = await sheet(a, "Merlin")

    def always_stale(self, campaign) -> None:
        raise StaleCampaignError(campaign.id)

    monkeypatch.setattr(write_tx_class(a.store), "touch_campaign", always_stale)
    with pytest.raises(ConcurrentChangeError, match="try again"):
        await a.run(HERE, GM, "runic", "mage set", {"field": "age", "value": 70, "mage": "Merlin"})
    assert await sheet(a, "Merlin") == before


async def test_both_processes_starting_a_campaign_in_one_channel(tmp_path: Path, registry: Registry) -> None:
    path = tmp_path / "race.sqlite3"
    stores = [await open_store(path), await open_store(path)]
    a, b = (TableService(store, registry, random.Random(i)) for i, store in enumerate(stores))
    results = await asyncio.gather(
        a.start_campaign(HERE, GM, "runic", "First"),
        b.start_campaign(HERE, GM, "runic", "Second"),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1, results
    assert isinstance(refused[0], RuleError) and "already runs the campaign" in str(refused[0]), refused
    for store in stores:
        await store.close()
