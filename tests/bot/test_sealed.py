"""Sealed secret results (docs/sealed-rolls.md): every secret result posts a commitment anyone can later check.

At the console and through real discord.Interaction objects: the commitment in the channel and on the log's public
side (the text and salt only on the GM's), `/campaign reveal` (GMs) and `/verify` (anyone), the documented
``printf '%s' 'TEXT|SALT' | sha256sum`` on a real event, undo (a reveal cannot be undone; undoing a sealed change
withdraws its seal), autocomplete for each reader, the export and an import of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from bot.table import sealing
from rules.base import Card, Outcome
from tests.conftest import Console
from tests.support.db import execute
from tests.support.discord_harness import choices, ok, refused
from tests.support.runic import SEEK_MAGE

GM, PAT, OZ = "Gwen", "Pat", "Oz"
MARK = "XqSealMark"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


async def _start(console: Console, ruleset: str = "tally") -> None:
    await console.ok(f"@as {GM}")
    await console.ok(f"/campaign start ruleset:{ruleset} name:Seals")


async def _events(console: Console) -> list:
    service = console.table.bot.service
    campaign = await service.campaign(console.table._place())
    assert campaign is not None
    return list(reversed(await service.store.events(campaign.row.id, limit=1000)))


async def _read(path: str) -> str:
    return await asyncio.to_thread(Path(path).read_text, encoding="utf-8")


def _public(event) -> str:
    """An event as a player's view of the log is made of: its summary and its result without the hidden sides."""
    return json.dumps([event.summary, {k: v for k, v in event.result.items() if k not in ("secret", "private")}])


# ---------------------------------------------------------------------- pure


def test_the_commitment_is_sha256_of_text_bar_salt_and_the_salt_is_fresh_128_bits() -> None:
    outcome = Outcome(card=Card(title="Roll"), summary="rolled 1d20 = 7").kept_secret("roll")
    first, second = sealing.seal(outcome), sealing.seal(outcome)
    assert first is not None and second is not None
    assert first.text == second.text == "Secret: Roll"  # the GM's card as one line
    assert re.fullmatch(r"[0-9a-f]{32}", first.salt) and first.salt != second.salt
    assert first.sha256 == hashlib.sha256(f"{first.text}|{first.salt}".encode()).hexdigest()
    assert first.sha256 != second.sha256
    assert sealing.seal(Outcome(card=Card(title="Open"), summary="x")) is None  # nothing secret: nothing sealed


def test_the_canonical_text_is_the_gms_card_on_one_line_else_the_summary_else_the_data() -> None:
    card = Card(title="Secret: Seek", description="**Question:** Where?\n  Success  by 5", footer="From Pat")
    card.add("Roll", "3d6 [3+2+4]\n= 9")
    assert sealing.canonical_text(Outcome(card=Card(title="x"), summary="x", secret=card)) == (
        "Secret: Seek · **Question:** Where? Success by 5 · Roll: 3d6 [3+2+4] = 9"
    )
    assert sealing.canonical_text(Outcome(card=Card(title="x"), summary="x", secret_summary=" healed\nAsh ")) == (
        "healed Ash"
    )
    data = Outcome(card=Card(title="x"), summary="x", secret_data={"b": 2, "a": "é"})
    assert sealing.canonical_text(data) == '{"a": "é", "b": 2}'


def test_the_hand_check_quotes_a_single_quote_for_the_shell() -> None:
    assert sealing.hand_check("it's", "ab") == "printf '%s' 'it'\\''s|ab' | sha256sum"


# ---------------------------------------------------------------------- console


async def test_a_secret_roll_is_sealed_revealed_by_a_gm_and_verified_by_anyone(console: Console) -> None:
    await _start(console)
    await console.ok(f"@as {PAT}")
    rolled = await console.ok(f'/roll expression:1d20 label:"{MARK}" secret:true')
    assert rolled["ephemeral"] and "Sealed #2" in rolled["text"]
    posted = console.table.last_message  # the commitment: a public message in the channel
    assert posted is not None and not posted.ephemeral and posted.embeds[0]["title"] == "Sealed #2"
    (commitment,) = HEX64.findall(posted.embeds[0]["description"])
    assert MARK not in json.dumps(posted.embeds)

    sealed = (await _events(console))[-1]
    assert sealed.result["sealed"] == {"sha256": commitment}
    text, salt = sealing.kept(sealed.result) or ("", "")
    assert MARK in text and salt not in _public(sealed) and MARK not in _public(sealed)

    await console.ok(f"@as {OZ}")
    logged = await console.ok("/campaign log")
    assert f"🔐 sealed `{commitment[:12]}`" in logged["text"] and MARK not in logged["text"]
    assert logged["data"]["events"][0]["sealed"] == commitment
    still = await console.ok("/verify event:2")
    assert still["ephemeral"] and "still sealed" in still["text"] and commitment in still["text"]
    assert "needs the GM" in (await console.fails("/campaign reveal event:2"))["text"]

    await console.ok(f"@as {GM}")
    revealed = await console.ok("/campaign reveal event:2")
    assert not revealed["ephemeral"] and MARK in revealed["text"] and salt in revealed["text"]
    assert revealed["data"] == {"reveals": 2, "text": text, "salt": salt, "sha256": commitment}
    # the documented arithmetic, on what the channel was shown: sha256(TEXT|SALT) is the hash posted before
    assert hashlib.sha256(f"{revealed['data']['text']}|{revealed['data']['salt']}".encode()).hexdigest() == commitment
    again = await console.fails("/campaign reveal event:2")
    assert "revealed already, by #3" in again["text"]

    await console.ok(f"@as {OZ}")
    checked = await console.ok("/verify event:2")
    assert checked["ephemeral"] and "#2 matches" in checked["text"]
    assert "matches the commitment posted at" in checked["text"] and checked["data"]["status"] == "matches"
    assert checked["data"]["recomputed"] == commitment
    assert "revealed #2" in (await console.ok("/campaign log"))["text"]

    # a reveal is posted for good: undo refuses it, and it stays (docs/rulings.md, "Sealed secret results")
    await console.ok(f"@as {GM}")
    undo = await console.fails("/campaign undo event:3")
    assert "cannot be undone" in undo["text"] or "is not a change" in undo["text"]
    assert (await _events(console))[-1].command == "campaign reveal"


@pytest.mark.skipif(shutil.which("sha256sum") is None or shutil.which("bash") is None, reason="no sha256sum here")
async def test_the_documented_shell_command_gives_the_posted_hash(console: Console) -> None:
    await _start(console)
    await console.ok('/roll expression:2d6 label:"Ash\'s ambush" secret:true')
    await console.ok("/campaign reveal event:2")
    checked = await console.ok("/verify event:2")
    (command,) = re.findall(r"```\n(printf .*)\n```", checked["text"])
    shell = await asyncio.create_subprocess_exec("bash", "-c", command, stdout=asyncio.subprocess.PIPE)
    out, _ = await shell.communicate()
    assert shell.returncode == 0 and out.decode().split()[0] == checked["data"]["sha256"]


async def test_a_reveal_that_does_not_match_is_said_plainly(console: Console) -> None:
    await _start(console)
    await console.ok("/roll expression:1d20 secret:true")
    await console.ok("/campaign reveal event:2")
    store = console.table.bot.service.store
    reveal = (await _events(console))[-1]
    forged = {**reveal.result, "text": reveal.result["text"] + " (changed)"}
    await execute(store, "UPDATE events SET result = ? WHERE id = ?", json.dumps(forged), reveal.id)
    checked = await console.ok("/verify event:2")
    assert "#2 does not match" in checked["text"] and "does NOT match" in checked["text"]
    assert checked["data"]["status"] == "differs"


async def test_refusals_say_what_would_work_and_change_nothing(console: Console) -> None:
    await _start(console)
    await console.ok("/roll expression:1d20")
    before = len(await _events(console))
    assert "no #9" in (await console.fails("/campaign reveal event:9"))["text"]
    assert "not a sealed result" in (await console.fails("/campaign reveal event:2"))["text"]
    assert "not a sealed result" in (await console.fails("/verify event:1"))["text"]
    assert len(await _events(console)) == before
    await console.ok("@channel 4040")
    assert "no campaign" in (await console.fails("/verify event:1"))["text"].casefold()


async def test_an_information_spell_is_sealed_and_undoing_it_withdraws_the_seal(console: Console) -> None:
    await _start(console, "runic")
    await console.ok(f"@as {PAT}")
    for line in SEEK_MAGE:
        await console.ok(line)
    asked = await console.ok('/runic info ask spell:Seek question:"Where is the well?"')
    assert "Sealed #6" in asked["text"]
    event = (await _events(console))[-1]
    text, _ = sealing.kept(event.result) or ("", "")
    assert "3d6" in text and "Where is the well?" in text  # the GM's card: the roll the player does not see
    assert "3d6 [" not in _public(event)

    await console.ok("@gm")
    answered = await console.ok(
        f'/runic info answer spell:Seek question:"Where is the well?" mage:Merlin answer:{MARK}'
    )
    assert "Sealed #7" in answered["text"]
    assert MARK in (sealing.kept((await _events(console))[-1].result) or ("",))[0]

    reveal_choices = await console.table.autocomplete(["campaign", "reveal"], {"event": ""}, "event")
    assert [c["value"] for c in reveal_choices] == [7, 6]
    undone = await console.undo("/campaign undo event:7")
    assert "seal is withdrawn" in undone["text"] and MARK not in undone["text"]
    refused_reveal = await console.fails("/campaign reveal event:7")
    assert "undone, and its seal withdrawn" in refused_reveal["text"]
    await console.ok(f"@as {OZ}")
    assert "#7 was withdrawn" in (await console.ok("/verify event:7"))["text"]
    await console.ok("@gm")
    reveal_choices = await console.table.autocomplete(["campaign", "reveal"], {"event": ""}, "event")
    assert [c["value"] for c in reveal_choices] == [6]
    await console.ok("/campaign redo")  # the change comes back, its seal does not
    assert "withdrawn" in (await console.fails("/campaign reveal event:7"))["text"]


async def test_autocomplete_shows_a_gm_the_sealed_text_and_anyone_else_only_the_public_side(console: Console) -> None:
    await _start(console)
    await console.ok(f'/roll expression:1d20 label:"{MARK}" secret:true')
    await console.ok("/roll expression:1d20 secret:true")
    await console.ok("/campaign reveal event:3")
    gm_reveal = await console.table.autocomplete(["campaign", "reveal"], {"event": ""}, "event")
    assert [c["value"] for c in gm_reveal] == [2] and MARK in gm_reveal[0]["name"]
    for reader in (PAT, OZ):
        await console.ok(f"@as {reader}")
        assert await console.table.autocomplete(["campaign", "reveal"], {"event": ""}, "event") == []
        offered = await console.table.autocomplete(["verify"], {"event": ""}, "event")
        assert [c["value"] for c in offered] == [3, 2]
        assert "(revealed" in offered[0]["name"] and "(sealed" in offered[1]["name"]
        assert MARK not in json.dumps(offered)
        typed = await console.table.autocomplete(["verify"], {"event": "#2"}, "event")
        assert [c["value"] for c in typed] == [2]


async def test_the_export_keeps_the_seal_and_an_import_reveals_and_verifies_it(console: Console) -> None:
    await _start(console)
    await console.ok(f'/roll expression:1d20 label:"{MARK}" secret:true')
    await console.ok("/roll expression:1d6 secret:true")
    await console.ok("/campaign reveal event:3")
    sealed = (await _events(console))[1]
    exported = await console.ok("/campaign export")
    source = next(name for name in exported["files"] if name.endswith((".json", ".json.gz")))
    markdown = next(name for name in exported["files"] if name.endswith(".md"))
    events = json.loads(await _read(source))["events"]
    assert events[1]["result"]["sealed"] == sealed.result["sealed"]
    assert events[1]["result"]["secret"]["seal"] == sealed.result["secret"]["seal"]
    assert events[3]["command"] == "campaign reveal" and events[3]["result"]["reveals"] == 3
    assert f"🔐 sealed `{sealed.result['sealed']['sha256'][:12]}`" in await _read(markdown)

    await console.ok("@channel 2003")
    await console.ok(f"/campaign import file:{source}")
    assert "matches" in (await console.ok("/verify event:3"))["text"]
    await console.ok(f"@as {PAT}")
    assert "still sealed" in (await console.ok("/verify event:2"))["text"]
    assert MARK not in json.dumps(await console.ok("/campaign log"))
    await console.ok(f"@as {GM}")
    revealed = await console.ok("/campaign reveal event:2")
    assert MARK in revealed["text"]
    assert "#2 matches" in (await console.ok("/verify event:2"))["text"]


async def test_a_damaged_seal_in_an_export_is_refused_plainly(console: Console, tmp_path) -> None:
    await _start(console)
    await console.ok("/roll expression:1d20 secret:true")
    exported = await console.ok("/campaign export")
    source = next(name for name in exported["files"] if name.endswith(".json"))
    document = json.loads(await _read(source))
    document["events"][1]["result"]["sealed"] = {"sha256": "not a hash"}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    await console.ok("@channel 2003")
    refused_import = await console.fails(f"/campaign import file:{bad}")
    assert "commitment" in refused_import["text"] and "#2" in refused_import["text"]


# ---------------------------------------------------------------------- Discord


async def test_through_discord_the_commitment_is_a_public_message_and_reveal_and_verify_answer(
    console: Console,
) -> None:
    table = console.table
    await ok(table, GM, "campaign start", ruleset="tally", name="Seals")
    rolled = await ok(table, PAT, "roll", expression="1d20", label=MARK, secret=True)
    assert rolled.ephemeral and len(rolled.seals) == 1
    (seal,) = rolled.seals
    assert not seal.ephemeral and seal.embeds[0]["title"] == "Sealed #2"
    assert MARK not in json.dumps(seal.embeds)
    (commitment,) = HEX64.findall(seal.embeds[0]["description"])

    still = await ok(table, OZ, "verify", event=2)
    assert still.ephemeral and still.title == "#2 is still sealed"
    await refused(table, PAT, "campaign reveal", event=2)
    assert await choices(table, PAT, "campaign reveal", "event") == []
    assert await choices(table, GM, "campaign reveal", "event") == [2]
    assert await choices(table, OZ, "verify", "event") == [2]

    revealed = await ok(table, GM, "campaign reveal", event=2)
    assert not revealed.ephemeral and revealed.title == "Revealed #2" and MARK in revealed.description
    text, salt = revealed.data["text"], revealed.data["salt"]
    assert hashlib.sha256(f"{text}|{salt}".encode()).hexdigest() == commitment
    checked = await ok(table, OZ, "verify", event=2)
    assert checked.ephemeral and checked.title == "#2 matches"
    assert await choices(table, GM, "campaign reveal", "event") == []


async def test_a_reveal_is_found_however_many_came_after_it(console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.table.sealed.PAGE", 2)  # reveals are read a page at a time: make the pages small
    await _start(console)
    for _ in range(5):
        await console.ok("/roll expression:1d20 secret:true")
    for number in range(2, 7):
        await console.ok(f"/campaign reveal event:{number}")
    assert "revealed already, by #7" in (await console.fails("/campaign reveal event:2"))["text"]
    assert "#2 matches" in (await console.ok("/verify event:2"))["text"]
