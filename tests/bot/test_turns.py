"""/turn (issue 13): a turn order for any ruleset; each turn pings its player and runs the turn deadline.

A runic campaign, as the issue asks: the deadline hands a turn nobody took to the GM, or skips it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.table.registry import Registry
from tests.conftest import Console

START = "2030-05-01T08:00:00+00:00"


@pytest.fixture
async def runic(tmp_path: Path, registry: Registry):
    table = await ConsoleTable.open(tmp_path / "turns.sqlite3", seed=3, registry=registry, clock=START)
    console = Console(table)
    for line in (
        "@as Gwen",
        "/campaign start ruleset:runic name:Camelot",
        "/campaign settings key:turn_deadline value:1d",
        "@as Pat",
        "/runic mage create name:Merlin magery:3 iq:15 ht:11 hp:14 thaumatology:15",
        "@as Oz",
        "/runic mage create name:Nimue magery:2 iq:14 ht:12 thaumatology:14",
        "@as Gwen",
    ):
        await console.ok(line)
    yield console
    await table.close()


async def test_each_turn_pings_its_player_and_npcs_are_the_gms(runic: Console) -> None:
    started = await runic.ok('/turn start order:"merlin, Goblin, Nimue"')
    assert started["pings"] == ["Pat"] and started["data"]["order"] == ["Merlin", "Goblin", "Nimue"]
    await runic.ok("@as Oz")
    assert "only their player or a GM" in (await runic.fails("/turn next"))["text"]
    await runic.ok("@as Pat")
    goblin = await runic.ok("/turn next")
    assert goblin["pings"] == ["Gwen"] and goblin["data"]["current"] == "Goblin"
    await runic.ok("@as Gwen")
    nimue = await runic.ok("/turn next")
    assert nimue["pings"] == ["Oz"]
    waits = (await runic.ok("/campaign waiting"))["data"]["waits"]
    assert [(w["who"], w["what"]) for w in waits] == [("Nimue", "take Nimue's turn (round 1)")]
    await runic.ok("@as Oz")
    again = await runic.ok("/turn next")
    assert again["data"]["round"] == 2 and again["pings"] == ["Pat"]
    await runic.ok("@as Gwen")
    await runic.ok("/turn end")
    assert (await runic.ok("/campaign waiting"))["data"]["waits"] == []


async def test_the_deadline_hands_the_turn_to_the_gm_after_one_nudge(runic: Console) -> None:
    await runic.ok('/turn start order:"Merlin, Nimue"')
    await runic.ok("@wait 12h")
    (nudge,) = runic.timers()
    assert nudge["data"]["timer"] == "nudge" and nudge["pings"] == ["Pat"]
    await runic.ok("@wait 12h")
    (deadline,) = runic.timers()
    assert deadline["data"]["rule"] == "gm" and deadline["pings"] == ["Gwen"]
    assert "Time is up for Merlin" in deadline["text"]
    await runic.ok("@wait 2d")
    assert runic.timers() == []
    taken = await runic.ok("/turn next")  # the GM decides: on to Nimue, with her own day
    assert taken["pings"] == ["Oz"]


async def test_with_skip_the_deadline_moves_the_turn_on(runic: Console) -> None:
    await runic.ok("/campaign settings key:turn_timeout value:skip")
    await runic.ok('/turn start order:"Merlin, Nimue"')
    await runic.ok("@wait 1d")
    fired = runic.timers()
    assert [f["data"]["timer"] for f in fired] == ["deadline"]  # the nudge came due too, too late to matter
    assert fired[0]["data"]["current"] == "Nimue" and fired[0]["pings"] == ["Oz"]
    assert "turn_timeout: skip" in fired[0]["text"]
    await runic.ok("@wait 1d")
    assert runic.timers()[0]["data"]["current"] == "Merlin"


async def test_turns_undo_and_refuse_bad_orders(runic: Console) -> None:
    assert "once" in (await runic.fails('/turn start order:"Merlin, merlin"'))["text"]
    assert "No turn order" in (await runic.fails("/turn next"))["text"]
    await runic.ok('/turn start order:"Merlin, Nimue"')
    await runic.ok("/turn skip")
    undone = await runic.ok("/campaign undo")
    assert undone["pings"] == ["Pat"]
    await runic.ok("@as Pat")
    assert "needs the GM" in (await runic.fails("/turn skip"))["text"]


async def test_a_turn_prompt_carries_end_turn_and_pressing_it_moves_the_turn_on(runic: Console) -> None:
    started = await runic.ok('/turn start order:"Merlin, Nimue"')
    assert started["buttons"] == ["End turn"]
    await runic.ok("@as Oz")
    refused = await runic("@press End turn")  # Nimue's player, on Merlin's turn: the command's own check
    assert not refused["ok"] and "only their player or a GM" in refused["text"]
    await runic.ok("@as Pat")
    pressed = await runic.ok("@press End turn")
    assert pressed["data"]["current"] == "Nimue" and pressed["pings"] == ["Oz"]
    assert pressed["buttons"] == ["End turn"]
    await runic.ok("@as Gwen")
    ended = await runic.ok("/turn end")
    assert "buttons" not in ended or not ended["buttons"]
