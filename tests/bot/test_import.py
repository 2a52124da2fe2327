"""/campaign import: an export becomes a campaign elsewhere, identical; a bad file changes nothing."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.conftest import Console
from tests.support.db import fetch

OTHER = "@channel 2003"


async def _played(console: Console) -> Path:
    """A tally campaign with characters of two owners, a change undone, a secret roll; exported; its JSON."""
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign settings key:response_window value:2h")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally add name:Pip")
    await console.ok('/roll expression:1d20 label:"hidden door" secret:true')
    await console.ok("@as Oz")
    await console.ok("/tally create name:Owl")
    await console.ok("/tally add name:Owl")
    await console.ok("@gm")
    await console.ok("/campaign undo")  # Oz's Owl +1: asks first
    await console.ok("@press Confirm")
    exported = await console.ok("/campaign export")
    return next(Path(p) for p in exported["files"] if p.endswith(".json"))


async def _content(db: object, channel: int) -> dict:
    """What a campaign holds, as the store has it, without its database ids."""
    ((campaign_id, state, settings, pbp, name, created),) = await fetch(
        db,
        "SELECT id, state, settings, pbp, name, created_at FROM campaigns WHERE channel_id = ? AND archived_at IS NULL",
        channel,
    )
    characters = await fetch(
        db, "SELECT name, owner_id, sheet FROM characters WHERE campaign_id = ? ORDER BY name", campaign_id
    )
    events = await fetch(
        db,
        "SELECT e.seq, e.at, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot, u.seq"
        " FROM events e LEFT JOIN events u ON u.id = e.undoes WHERE e.campaign_id = ? ORDER BY e.seq",
        campaign_id,
    )
    return {
        "campaign": (name, json.loads(state), json.loads(settings), json.loads(pbp), created),
        "characters": [(n, owner, json.loads(sheet)) for n, owner, sheet in characters],
        "events": [(*e[:6], json.loads(e[6]), e[7] and json.loads(e[7]), e[8]) for e in events],
    }


async def test_export_then_import_elsewhere_round_trips_the_campaign(console: Console) -> None:
    path = await _played(console)
    db = console.table.bot.service.store
    before = await _content(db, 2002)
    await console.ok(OTHER)
    imported = await console.ok(f"/campaign import file:{path}")
    assert not imported["ephemeral"] and imported["data"]["events"] == len(before["events"])
    after = await _content(db, 2003)
    assert after["campaign"] == before["campaign"]
    assert after["characters"] == before["characters"]  # owners kept
    assert after["events"][:-1] == before["events"]  # numbers, times, actors, results, snapshots, undo links
    assert after["events"][-1][4] == "campaign import" and after["events"][-1][0] == len(before["events"]) + 1
    # the log reads the same, numbers included, and undo keeps working on a chosen event
    log = await console.ok("/campaign log")
    assert log["data"]["events"][1]["summary"].startswith("undid #")
    adds = (await console.ok('/campaign log command:"tally add"'))["data"]["events"]
    pip_plus = next(e["id"] for e in adds if e["summary"] == "Pip +1")
    asked = await console.ok(f"/campaign undo event:{pip_plus}")  # Pat's change: asks first
    assert asked["data"]["event"] == pip_plus
    undone = await console.ok("@press Confirm")
    assert undone["data"]["undone_event"] == pip_plus
    # the source campaign is untouched
    assert await _content(db, 2002) == before


async def test_a_gzipped_export_imports_too(console: Console, tmp_path: Path) -> None:
    path = await _played(console)
    packed = tmp_path / "crows.json.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    await console.ok(OTHER)
    assert (await console.ok(f"/campaign import file:{packed}"))["data"]["characters"] == 2


async def test_bad_files_are_refused_plainly_and_change_nothing(console: Console, tmp_path: Path) -> None:
    path = await _played(console)
    document = json.loads(path.read_text())
    db = console.table.bot.service.store

    def variant(name: str, content: bytes | str) -> Path:
        target = tmp_path / name
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
        return target

    shuffled = {**document, "events": list(reversed(document["events"]))}
    slow = {"settings": {"response_window": "forever"}}
    bad_sheet = {**document, "characters": [{**document["characters"][0], "sheet": {"count": "many"}}]}
    cases = {
        variant("notes.txt", "my campaign notes"): "not JSON",
        variant("other.json", json.dumps({"hello": 1})): "no `format`",
        variant("v9.json", json.dumps({**document, "format": "magister-campaign/9"})): "Export it again",
        variant("shuffled.json", json.dumps(shuffled)): "out of order",
        variant("sheet.json", json.dumps(bad_sheet)): "the sheet of Pip",
        variant("cut.json", path.read_bytes()[:-200]): "not JSON",
        variant("cut.json.gz", gzip.compress(path.read_bytes())[:-30]): "damaged",
        variant("ruleset.json", json.dumps({**document, "campaign": {**document["campaign"], "ruleset": "chess"}})): (
            "does not run"
        ),
        variant("huge.json", b" " * (25 * 1024 * 1024 + 1)): "at most 25 MB",  # the interaction's limit
        variant("date.json", json.dumps({**document, "events": [{**document["events"][0], "at": "yesterday"}]})): (
            "not a date and time"
        ),
        variant("pbp.json", json.dumps({**document, "campaign": {**document["campaign"], "pbp": slow}})): (
            "play-by-post settings"
        ),
        variant("overflow.json", json.dumps(document).replace('"total": ', '"total": 1e999, "was": ', 1)): (
            "a number is too large"
        ),
        variant("twice.json", json.dumps(document)[:-1] + ', "events": []}'): "it holds `events` twice",
        variant("no-events.json", json.dumps({k: v for k, v in document.items() if k != "events"})): (
            "`events` is needed"
        ),
    }
    await console.ok(OTHER)
    for bad, says in cases.items():
        refused = await console.fails(f"/campaign import file:{bad}")
        assert says in refused["text"], (bad.name, refused["text"])
    await console.fails("/campaign status")  # still no campaign here
    # not one of its GMs, and no Manage Server: refused
    await console.ok("@as Pat")
    assert "one of its GMs" in (await console.fails(f"/campaign import file:{path}"))["text"]
    # a channel with a live campaign: refused, and that campaign is as it was
    await console.ok("@channel 2002")
    await console.ok("@gm")
    before = await _content(db, 2002)
    assert "This channel runs 'Crows'" in (await console.fails(f"/campaign import file:{path}"))["text"]
    assert await _content(db, 2002) == before


async def test_a_format_1_export_imports_numbered_in_order(console: Console, tmp_path: Path) -> None:
    """Exports made before events were numbered per campaign: global ids become numbers, undo links follow."""
    document = json.loads((await _played(console)).read_text())
    old_events = [
        {**{k: v for k, v in e.items() if k not in ("seq", "snapshot")}, "id": 100 + e["seq"]}
        | {"undoes": 100 + e["undoes"] if e["undoes"] else None}
        for e in document["events"]
    ]
    old = tmp_path / "old.json"
    old.write_text(json.dumps({**document, "format": "magister-campaign/1", "events": old_events}))
    await console.ok(OTHER)
    await console.ok(f"/campaign import file:{old}")
    log = (await console.ok("/campaign log"))["data"]["events"]
    undo = log[1]
    assert undo["command"] == "campaign undo" and undo["undoes"] == undo["id"] - 1
    assert [e["id"] for e in log] == list(range(len(document["events"]) + 1, 0, -1))  # 9 events: one page


async def test_through_discord_a_refusal_answers_alone_and_a_success_defers_then_posts(console: Console) -> None:
    """The attachment arrives as Discord sends it (resolved, fetched from the CDN). Every refusal is the first,
    ephemeral answer, so it never lands in a public "thinking…" message; a good file defers, then posts publicly."""
    path = await _played(console)
    adapter = console.table.virtual.adapter
    before = len(adapter.sent)
    await console.fails(f"/campaign import file:{path}")  # this channel runs Crows
    refused = adapter.sent[before:]
    assert [(s.kind, s.ephemeral) for s in refused] == [("message", True)]
    await console.ok(OTHER)
    before = len(adapter.sent)
    await console.ok(f"/campaign import file:{path}")
    sent = adapter.sent[before:]
    assert sent[0].kind == "defer" and not sent[0].ephemeral
    assert sent[1].kind in ("followup", "edit") and not sent[1].ephemeral
    assert sent[1].embeds[0]["title"] == "Campaign imported: Crows"


async def test_an_export_with_its_keys_in_another_order_imports_the_same(console: Console, tmp_path: Path) -> None:
    """Keys sorted (a tool rewrote the file): the events come before the campaign that says how to check them,
    so they wait in the spool until it has been read; the campaign imports the same."""
    path = await _played(console)
    db = console.table.bot.service.store
    before = await _content(db, 2002)
    document = json.loads(path.read_text())
    keys = list(json.loads(json.dumps(document, sort_keys=True)))
    assert keys.index("events") < keys.index("format")  # the events come first: they wait
    reordered = tmp_path / "sorted.json"
    reordered.write_text(json.dumps(document, sort_keys=True, indent=1))
    await console.ok(OTHER)
    await console.ok(f"/campaign import file:{reordered}")
    after = await _content(db, 2003)
    assert after["campaign"] == before["campaign"] and after["characters"] == before["characters"]
    assert after["events"][:-1] == before["events"]


async def test_a_long_check_defers_to_the_importer_alone_and_a_refusal_stays_theirs(
    console: Console, tmp_path: Path, monkeypatch
) -> None:
    """When the check takes longer than Discord waits for a first answer, the answer is deferred ephemerally: a
    refusal then still reaches only the importer, and nothing is written."""
    from cogs import campaign as campaign_cog

    path = await _played(console)
    document = json.loads(path.read_text())
    document["events"][-1]["actor_id"] = -5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    monkeypatch.setattr(campaign_cog, "QUICK", 0)
    await console.ok(OTHER)
    adapter = console.table.virtual.adapter
    before = len(adapter.sent)
    refused = await console.fails(f"/campaign import file:{bad}")
    assert "Discord id" in refused["text"]
    assert [(s.kind, s.ephemeral) for s in adapter.sent[before:]] == [("defer", True), ("followup", True)]
    await console.fails("/campaign status")
    before = len(adapter.sent)
    imported = await console.ok(f"/campaign import file:{path}")
    assert [(s.kind, s.ephemeral) for s in adapter.sent[before:]] == [
        ("defer", True),
        ("edit", True),
        ("followup", False),
    ]
    assert imported["data"]["events"] == len(document["events"])
