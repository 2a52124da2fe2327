"""Issue 23: a long campaign's export and import, exact, off the event loop, in batches, leaving nothing behind.

A real runic table is played through the console (the bench's seed session), its log grown to 50,000 events
straight into the database (``bot/bench/port.py``), then `/campaign export` and `/campaign import` run through the
command tree, both in processes of their own. The imported campaign must be the same campaign, event for event.
The loop's longest stall is recorded but only checked leniently here (a shared test machine): the figures come
from ``python -m bot.bench``.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.bench import measure_port, targets
from bot.bench.port import SEED, LagProbe, digest, grow
from bot.storage import export as exporting
from bot.storage.export import address_of
from bot.table import importer
from bot.table.service import Caller, Place
from rules.base import RuleError
from tests.conftest import Console
from tests.support import db as test_db
from tests.support.db import fetch

EVENTS = 50_000
HIDDEN_EVENTS = "SELECT 1 FROM events e JOIN campaigns c ON c.id = e.campaign_id WHERE c.channel_id < 0 LIMIT 1"
SOURCE, TARGET = Place(1001, 2002), Place(1001, 2003)


async def _long_campaign(console: Console, events: int) -> tuple[int, Caller]:
    """The bench's runic table, grown to ``events`` events; its id and its GM."""
    for line in SEED:
        await console.ok(line)
    service = console.table.bot.service
    row = (await service.require_campaign(SOURCE)).row
    target = address_of(service.store)
    assert target is not None
    await grow(target, row.id, events, random.Random(23))
    service.forget(SOURCE)
    return row.id, Caller(row.gm_ids[0], "Gwen")


async def _hidden(console: Console) -> list[tuple]:
    """Campaigns an import is writing, or left behind: at a negative channel."""
    return await fetch(console.table.bot.service.store, "SELECT id FROM campaigns WHERE channel_id < 0")


async def test_a_long_campaign_round_trips_exactly_through_the_commands(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cogs import campaign as campaign_cog

    monkeypatch.setattr(campaign_cog, "QUICK", 0)  # as on a machine where 50,000 events take over 2 seconds
    campaign_id, _ = await _long_campaign(console, EVENTS)
    service = console.table.bot.service
    async with LagProbe() as exported:
        result = await console.ok("/campaign export")
    assert result["data"]["events"] == EVENTS and result["data"]["compressed"] is True
    (packed,) = [Path(p) for p in result["files"] if p.endswith(".json.gz")]
    document = json.loads(gzip.decompress(packed.read_bytes()))
    assert [e["seq"] for e in document["events"][:3]] == [1, 2, 3] and len(document["events"]) == EVENTS

    await console.ok("@channel 2003")
    adapter = console.table.virtual.adapter
    before = len(adapter.sent)
    async with LagProbe() as imported:
        result = await console.ok(f"/campaign import file:{packed}")
    sent = adapter.sent[before:]
    # a check longer than Discord waits: a deferral only the importer sees, then the card for everyone, after the
    # importer's own answer says it is done
    assert (sent[0].kind, sent[0].ephemeral) == ("defer", True)
    assert [(s.kind, s.ephemeral) for s in sent[1:]] == [("edit", True), ("followup", False)]
    assert sent[2].embeds[0]["title"] == "Campaign imported: Camelot"
    assert result["data"]["events"] == EVENTS

    copy = (await service.require_campaign(TARGET)).row
    assert await digest(service, copy.id, EVENTS) == await digest(service, campaign_id, EVENTS)
    assert await service.store.count_events(copy.id) == EVENTS + 1  # and the import itself
    assert await _hidden(console) == []
    # the copy's undo works as the original's would: its newest change still in force
    undone = await console.undo()
    assert undone["data"]["undone_event"] < EVENTS
    # lenient: a shared machine; `python -m bot.bench` holds the 50 ms target
    assert exported.worst_ms < 1000 and imported.worst_ms < 1000, (exported.worst_ms, imported.worst_ms)


async def test_a_long_damaged_export_is_refused_by_its_checking_process(console: Console, tmp_path: Path) -> None:
    """Past ``APART_BYTES`` the check runs in a process of its own: its refusal comes back in the same words."""
    await _long_campaign(console, 15_000)
    result = await console.ok("/campaign export")
    exported = Path(next(p for p in result["files"] if p.endswith(".json")))
    document = json.loads(await asyncio.to_thread(exported.read_text))  # 15,000 events: plain, under the limit
    document["events"][-1]["actor_id"] = 2**70
    padded = tmp_path / "damaged.json"
    await asyncio.to_thread(padded.write_text, json.dumps(document, indent=2))
    assert len(json.dumps(document, indent=2)) >= importer.APART_BYTES
    store = console.table.bot.service.store
    (before,) = await fetch(store, "SELECT count(*) FROM events")
    await console.ok("@channel 2003")
    refused = await console.fails(f"/campaign import file:{padded}")
    assert "event #15000's `actor_id`" in refused["text"] and "Discord id" in refused["text"], refused["text"]
    assert await fetch(store, "SELECT count(*) FROM events") == [before]
    assert await _hidden(console) == []


async def test_the_import_writes_in_batches_other_channels_act_between(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each batch is its own short transaction: an action elsewhere is logged while the import is being written,
    and the import stays hidden (no list shows it) until its last transaction moves it in."""
    monkeypatch.setattr(importer, "BATCH", 100)
    campaign_id, gm = await _long_campaign(console, 3_000)
    service = console.table.bot.service
    await console.ok("@channel 2004")
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Elsewhere")
    path, _ = await _export(service, gm, Path(console.table.files_dir))
    prepared = await importer.prepare(service, TARGET, gm, path)
    writing = asyncio.create_task(importer.import_campaign(service, TARGET, gm, prepared))
    for _ in range(3000):  # until its first batch is in
        if await fetch(service.store, HIDDEN_EVENTS):
            break
        await asyncio.sleep(0.01)
    assert await service.campaign(TARGET) is None  # hidden while it is written
    elsewhere = await service.run(Place(1001, 2004), gm, "tally", "create", {"name": "Pip"})
    done = await writing
    assert done.event_id is not None and elsewhere.event_id is not None
    assert elsewhere.event_id < done.event_id  # logged between two of the import's batches
    copy = (await service.require_campaign(TARGET)).row
    assert await digest(service, copy.id, 3_000) == await digest(service, campaign_id, 3_000)


async def _export(service, gm: Caller, folder: Path) -> tuple[Path, list]:
    from bot.table import campaigns

    reply, batches = await campaigns.export(service, SOURCE, gm, folder / "out", limit=importer.DEFAULT_LIMIT)
    (path,) = [p for batch in batches for p in batch if ".json" in p.name]
    return path, batches


async def test_a_channel_taken_while_the_import_is_written_keeps_it_and_nothing_is_left(console: Console) -> None:
    _, gm = await _long_campaign(console, 2_000)
    service = console.table.bot.service
    path, _ = await _export(service, gm, Path(console.table.files_dir))
    prepared = await importer.prepare(service, TARGET, gm, path)
    await console.ok("@channel 2003")
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:First")  # after the check, before the write
    (before,) = await fetch(service.store, "SELECT count(*) FROM events")
    with pytest.raises(RuleError, match="This channel runs 'First'"):
        await importer.import_campaign(service, TARGET, gm, prepared)
    assert await fetch(service.store, "SELECT count(*) FROM events") == [before]
    assert await _hidden(console) == []
    assert (await service.require_campaign(TARGET)).row.name == "First"


async def test_a_write_that_fails_midway_is_deleted_and_a_crashed_ones_leftovers_swept(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "BATCH", 500)
    _, gm = await _long_campaign(console, 2_000)
    service = console.table.bot.service
    path, _ = await _export(service, gm, Path(console.table.files_dir))
    (events_before,) = await fetch(service.store, "SELECT count(*) FROM events")
    real = importer._events
    written = 0

    def failing(campaign_id: int, rows: list, tx: object) -> None:
        nonlocal written
        if written == 2:
            raise RuntimeError("disk full")
        written += 1
        real(campaign_id, rows, tx)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "_events", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        await importer.import_campaign(service, TARGET, gm, await importer.prepare(service, TARGET, gm, path))
    assert await _hidden(console) == []  # deleted on the way out
    assert await fetch(service.store, "SELECT count(*) FROM events") == [events_before]

    # a crash: nothing deletes it then; the next import's sweep does, once it is a day old
    written = 0
    monkeypatch.setattr(importer, "_discard", _nothing)
    with pytest.raises(RuntimeError, match="disk full"):
        await importer.import_campaign(service, TARGET, gm, await importer.prepare(service, TARGET, gm, path))
    ((left,),) = await _hidden(console)
    monkeypatch.undo()
    await importer.sweep(service.store)  # not a day old yet: maybe an import still under way
    assert await _hidden(console) == [(left,)]
    await importer.sweep(service.store, now=datetime.now(UTC) + importer.STALE * 2)
    assert await _hidden(console) == []
    assert await fetch(service.store, "SELECT count(*) FROM events") == [events_before]
    assert await fetch(service.store, "SELECT count(*) FROM characters WHERE campaign_id = ?", left) == [(0,)]


async def _nothing(store: object, campaign_id: int) -> None:
    """A crash: the import's own clean-up never runs."""


async def test_the_bench_case_runs_and_prints_its_targets() -> None:
    figures = await measure_port(300, test_db.SERVER if test_db.ON_POSTGRES else None, idle_seconds=0.1)
    assert figures["same_campaign"] is True and figures["events"] == 300
    assert figures["export_stall_ms"] >= 0 and figures["import_stall_ms"] >= 0 and figures["file_mb"] >= 0
    load = {"service_p99_ms": 1, "rate_per_s": 1}
    result = {"saturation": {"ratio_to_raw": 1}, "raw": "x", "channels": 1, "offered_load": load, "port": figures}
    rows = {name: (figure, met) for name, figure, met in targets(result)}
    # the round trip is a million events: 300 the same is shown, and is not the target met
    assert rows["export + import of 1,000,000 events round-trips"] == ("300, the same campaign", False)
    assert sum("longest event-loop stall" in name for name in rows) == 2


def test_exports_switch_to_gzip_as_they_grow_and_read_back_the_same(tmp_path: Path) -> None:
    """The files are written plain until together they pass the limit, then gzipped from there on: they read back
    the same as a plain export of the same log."""
    header = ("Crows", "tally", 1, 2, "[1]", None, "{}", '{"count":0}', "2026-01-01T00:00:00+00:00", "{}")
    events = [
        (i, i, "2026-01-01T00:00:00+00:00", 1, "Pat", "roll", f"rolled {i}", f'{{"total":{i}}}', None, None, None)
        for i in range(1, 3_001)
    ]

    def snapshot(sql: str, parameters: tuple = ()) -> list[tuple]:
        if "FROM events" in sql:
            return [e for e in events if e[0] > parameters[1]][: parameters[2]]
        return [header] if "FROM campaigns" in sql else [("Pip", 1, "{}")]

    plain = exporting._export(
        snapshot, 1, tmp_path / "plain", "crows", 10**9, lambda row: row.summary, "2026-01-01T00:00:00+00:00"
    )
    packed = exporting._export(
        snapshot, 1, tmp_path / "packed", "crows", 100_000, lambda row: row.summary, "2026-01-01T00:00:00+00:00"
    )
    assert (plain.compressed, packed.compressed, plain.events, packed.events) == (False, True, 3_000, 3_000)
    assert sorted(p.name for p in (tmp_path / "packed").iterdir()) == ["crows-log.md.gz", "crows.json.gz"]

    def document(path: Path) -> dict:
        body = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        return {**json.loads(body), "exported_at": None}

    assert document(tmp_path / "packed" / "crows.json.gz") == document(tmp_path / "plain" / "crows.json")
    markdown = gzip.decompress((tmp_path / "packed" / "crows-log.md.gz").read_bytes()).decode()
    assert markdown == (tmp_path / "plain" / "crows-log.md").read_text()
