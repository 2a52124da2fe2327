"""Export: deferred, streamed off the event loop in bounded memory, within Discord's upload limit.

A large history is inserted straight into the database (fast); the export then runs
through the service (memory and event-loop figures) and through the command
tree (the defer, and files that must be compressed and split).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
import tracemalloc
from pathlib import Path

import pytest

from bot.storage import export as exporting
from bot.table import campaigns
from bot.table.service import TableService
from tests.conftest import GM, HERE, Console
from tests.support.db import insert_many

LIMIT = 8 * 1024
SECRET_RESULT = {"total": 17, "secret": {"dice": [6, 6, 5], "note": "the GM's eyes only"}}


async def bulk_events(store: object, campaign_id: int, count: int, *, result: dict | None = None) -> None:
    body = json.dumps(result or {"dice": [3, 4, 5], "total": 12, "text": "x" * 400})
    await insert_many(
        store,
        "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, seq)"
        " VALUES (?, '2026-01-01T00:00:00+00:00', 22, 'Pat', 'roll', ?, ?,"
        " (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = ?))",
        ((campaign_id, f"rolled 3d6 = {i % 16 + 3}", body, campaign_id) for i in range(count)),
    )


@pytest.mark.parametrize("where", ["thread", "process"])
async def test_a_large_export_keeps_memory_bounded_and_the_loop_answering(
    tally: TableService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """On a worker thread (memory measured here), or past ``APART_EVENTS`` in a process of its own."""
    if where == "thread":
        monkeypatch.setattr(exporting, "APART_EVENTS", 10**9)
    else:
        assert exporting.APART_EVENTS <= 40_000
    row = await tally.store.campaign(HERE.guild_id, HERE.channel_id)
    await bulk_events(tally.store, row.id, 40_000)  # about 20 MB of JSON
    await bulk_events(tally.store, row.id, 1, result=SECRET_RESULT)
    worst_gap = 0.0
    stop = asyncio.Event()

    async def heartbeat() -> None:
        nonlocal worst_gap
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            worst_gap, last = max(worst_gap, now - last), now

    beating = asyncio.create_task(heartbeat())
    tracemalloc.start()
    try:
        reply, batches = await campaigns.export(tally, HERE, GM, tmp_path / "out", limit=10 * 1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        stop.set()
        await beating
    assert peak < 20 * 1024 * 1024, f"export held {peak / 1e6:.0f} MB"
    assert worst_gap < 0.5, f"the event loop stalled for {worst_gap * 1000:.0f} ms"  # generous: a shared CI box
    files = [path for batch in batches for path in batch]
    assert all(path.stat().st_size <= 10 * 1024 * 1024 for path in files)
    assert sum(len(batch) for batch in batches) == len(files) and all(len(batch) <= 10 for batch in batches)
    assert reply.outcome.data["events"] == 40_000 + 3
    assert reply.outcome.data["compressed"] is True  # 20 MB does not fit 10 MB raw
    document = json.loads(gzip.decompress(joined([p for p in files if ".json" in p.name])))
    assert len(document["events"]) == 40_000 + 3
    assert document["events"][-1]["result"] == SECRET_RESULT  # GM-only: the whole result, secret part included
    assert document["characters"][0]["name"] == "Pip"


async def test_small_exports_stay_plain_files(tally: TableService, tmp_path: Path) -> None:
    reply, batches = await campaigns.export(tally, HERE, GM, tmp_path / "out", limit=10 * 1024 * 1024)
    assert [[p.name for p in batch] for batch in batches] == [["counting-crows.json", "counting-crows-log.md"]]
    assert reply.outcome.data["compressed"] is False and reply.outcome.data["parts"] == 2
    document = json.loads(batches[0][0].read_text())
    assert document["format"] == "magister-campaign/2"
    assert [(e["seq"], e["command"]) for e in document["events"]] == [(1, "campaign start"), (2, "tally create")]
    markdown = batches[0][1].read_text()
    assert "`#2`" in markdown and "tally create" in markdown
    assert markdown.endswith("\n") and not markdown.endswith("\n\n")  # one final newline, as a text file ends


async def test_the_command_defers_then_sends_compressed_parts(console: Console, tmp_path: Path, monkeypatch) -> None:
    from cogs import campaign as campaign_cog

    await console.ok("/campaign start ruleset:tally name:Crows")
    row = await console.table.bot.service.store.campaign(1001, 2002)
    await bulk_events(console.table.bot.service.store, row.id, 3_000)
    monkeypatch.setattr(campaign_cog, "upload_limit", lambda interaction: LIMIT)  # force parts
    adapter = console.table.virtual.adapter
    before = len(adapter.sent)
    result = await console.ok("/campaign export")
    sent = adapter.sent[before:]
    assert sent[0].kind == "defer"  # within Discord's 3 seconds, however long the export takes
    assert "split" in result["text"] and "gzip" in result["text"]
    names = sorted(Path(p).name for p in result["files"])
    assert any(".part" in name for name in names)
    assert all(sum(len(body) for _, body in message.files) <= LIMIT for message in sent)
    document = json.loads(gzip.decompress(joined([Path(p) for p in result["files"] if ".json.gz" in p])))
    assert len(document["events"]) == 3_001


def joined(parts: list[Path]) -> bytes:
    """What `cat NAME.gz.part* > NAME.gz` makes."""
    return b"".join(part.read_bytes() for part in sorted(parts))
