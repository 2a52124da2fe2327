"""Secret results reach GMs only, in every place that shows history (issue 12, defect 1).

A player makes secret rolls and a ruleset action with a secret; then every role reads
every view of the history. Only GMs may find a result; everyone may see that a secret
roll was made, and by whom.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Console

SECRET_ROLLS = [
    ("/roll expression:1d20+1000 label:stealth secret:true", "roll", "stealth"),
    ("/check skill:12 modifier:1 label:perception secret:true", "check", "perception"),
    ("/pool dice:4 label:sneak secret:true", "pool", "sneak"),
    ("/contest skill:14 against:9 label:bluff secret:true", "contest", "bluff"),
]
RESULTS = ("stealth", "perception", "sneak", "bluff", "1d20", "3d6", "pool of", "Quick Contest", "swordfish")


async def _campaign_with_secrets(console: Console) -> list[dict]:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Whispers")
    await console.ok("@as Pat")
    made = [await console.ok(line) for line, _, _ in SECRET_ROLLS]
    made.append(await console.ok("/tally whisper"))
    return made


def _read_all(names: list[str]) -> str:
    return "".join(Path(name).read_text() for name in names)


def _leaks(text: str) -> list[str]:
    return [word for word in RESULTS if word in text]


async def test_the_roller_sees_only_where_the_result_went(console: Console) -> None:
    made = await _campaign_with_secrets(console)
    for result, (_, _, label) in zip(made, SECRET_ROLLS, strict=False):
        assert result["ephemeral"]
        assert "went to the GM" in result["text"]
        assert _leaks(result["text"]) == [], result["text"]
        assert result["data"] == {"secret": True}  # the roller's --json holds nothing of the result
        assert label in result["secret"]["text"]  # the GM's card has it all
    whisper = made[-1]
    assert "gm" not in whisper["data"] and whisper["data"] == {"count": 1}
    assert whisper["secret"]["data"] == {"gm": {"password": "swordfish"}}


@pytest.mark.parametrize("reader", ["Pat", "Oz"])
async def test_players_read_no_secret_result_in_the_log(console: Console, reader: str) -> None:
    await _campaign_with_secrets(console)
    await console.ok(f"@as {reader}")
    log = await console.ok("/campaign log")
    assert _leaks(log["text"]) == [], log["text"]
    assert _leaks(json.dumps(log["data"])) == []
    lines = log["text"]
    for _, command, _ in SECRET_ROLLS:
        assert f"/{command}: made a secret" in lines  # the channel sees that it was made, and by whom
    assert "**Pat**" in lines


async def test_the_gm_reads_every_secret_in_the_log(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@gm")
    log = await console.ok("/campaign log")
    for word in ("stealth", "perception", "sneak", "bluff", "swordfish"):
        assert word in log["text"], word
    secrets = [event["secret"] for event in log["data"]["events"] if "secret" in event]
    assert len(secrets) == 5


async def test_undo_messages_show_only_the_public_summary(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@gm")
    undone = await console.ok("/campaign undo")
    assert "whispered" in undone["text"] and _leaks(undone["text"]) == []
    await console.ok("@as Pat")
    log = await console.ok("/campaign log")
    assert _leaks(log["text"]) == []


async def test_export_is_the_gms_and_keeps_the_secrets(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@as Pat")
    refused = await console.fails("/campaign export")
    assert _leaks(refused["text"]) == []
    await console.ok("@gm")
    exported = await console.ok("/campaign export")
    body = _read_all(exported["files"])
    assert "swordfish" in body and "perception" in body


async def test_a_secret_roll_with_no_campaign_is_shown_to_the_roller_alone(console: Console) -> None:
    result = await console.ok("/roll expression:1d6 label:alone secret:true")
    assert result["ephemeral"] and "only you see it" in result["text"] and "alone" in result["text"]


async def test_recap_shows_what_happened_since_my_last_action(console: Console) -> None:
    await _campaign_with_secrets(console)  # Pat's last action is the whisper
    await console.ok("@as Oz")
    await console.ok("/tally create name:Owl")
    await console.ok("/tally add name:Owl")
    await console.ok("@as Pat")
    mine = await console.ok("/campaign recap")
    assert mine["ephemeral"] and mine["data"]["since_count"] == 2
    assert [e["command"] for e in mine["data"]["events"]] == ["tally create", "tally add"]  # oldest first
    await console.ok("@as Oz")
    theirs = await console.ok("/campaign recap")
    assert theirs["data"]["since_count"] == 0 and "Nothing has happened" in theirs["text"]
    await console.ok("@as Newcomer")
    everything = await console.ok("/campaign recap")
    assert everything["data"]["since_count"] == 8  # the start, four secret rolls, the whisper and Oz's two
    assert _leaks(everything["text"]) == [] and _leaks(json.dumps(everything["data"])) == []


async def test_recap_looks_back_a_bounded_distance(console: Console) -> None:
    """A member who never acted, or acted long ago, gets the newest events and "that many or more"."""
    await console.ok("/campaign start ruleset:tally name:Long")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    for _ in range(12):
        await console.ok("/tally add name:Pip")
    store = console.table.bot.service.store
    campaign = await console.table.bot.service.campaign(console.table._place())
    events, total = await store.events_since_last_by(campaign.row.id, 999, limit=5, look_back=10)
    assert total == 10 and len(events) == 5 and events[0].command == "tally add"
    pat = console.table.user.id
    events, total = await store.events_since_last_by(campaign.row.id, pat, limit=5, look_back=10)
    assert (events, total) == ([], 0)  # Pat's own add is the newest event


async def test_an_ended_campaign_is_listed_exported_and_reopened(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    listed = await console.ok("/campaign archive list")
    (ended,) = listed["data"]["campaigns"]
    assert ended["name"] == "Crows"
    exported = await console.ok(f"/campaign export archived:{ended['id']}")
    assert '"name": "Pip"' in _read_all(exported["files"]).replace('"name":"Pip"', '"name": "Pip"')
    await console.ok("@as Oz")
    assert "needs one of its GMs" in (await console.fails(f"/campaign archive reopen id:{ended['id']}"))["text"]
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Ravens")
    busy = await console.fails(f"/campaign archive reopen id:{ended['id']}")
    assert "runs 'Ravens' now" in busy["text"]
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    reopened = await console.ok(f"/campaign archive reopen id:{ended['id']}")
    assert reopened["data"]["campaign"] == "Crows"
    status = await console.ok("/campaign status")
    assert status["data"]["campaign"] == "Crows" and status["data"]["characters"] == ["Pip"]
    assert "no ended campaign #999" in (await console.fails("/campaign export archived:999"))["text"]
