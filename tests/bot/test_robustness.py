"""Valid input never becomes an incident; errors from buttons and long input reach the user (issue 12, 6-9).

Each test here failed before its fix: through the real command tree, the console harness and
the virtual Discord, which refuses any payload over Discord's limits with a 400, as Discord does.
"""

from __future__ import annotations

import logging

import discord
import pytest

from bot.adapter.limits import autocomplete_problems, message_problems
from bot.table import campaigns
from tests.conftest import Console


async def test_a_change_past_a_sheet_bound_is_a_clear_error_that_changes_nothing(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("/runic mage create name:Merlin magery:3 iq:15 thaumatology:15")
    before = await console.ok("/runic mage show mage:Merlin")
    refused = await console.fails("/runic adjust character:Merlin field:mp value:-2500 reason:x")
    assert "out of its range" in refused["text"] and "`fp`" in refused["text"]
    assert "Nothing was changed" in refused["text"]
    after = await console.ok("/runic mage show mage:Merlin")
    assert after["data"] == before["data"]


async def test_a_name_with_doubled_spaces_deletes_the_character(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok('/runic mage create name:"Merlin the Wise" thaumatology:12')
    deleted = await console.ok('/character delete name:"Merlin  the Wise"')
    assert deleted["data"] == {"deleted": "Merlin the Wise"}
    assert (await console.ok("/character list"))["data"]["characters"] == []


async def test_deeply_nested_setting_is_refused_plainly(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    before = await console.ok("/campaign settings")
    refused = await console.fails("/campaign settings key:word_times value:" + "[" * 3000 + "]" * 3000)
    assert "nests too deeply" in refused["text"]
    assert (await console.ok("/campaign settings"))["data"] == before["data"]


async def test_errors_that_echo_long_input_fit_in_a_message(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Camelot")
    refused = await console.fails('/character show name:"' + "x" * 2100 + '"')
    assert "There is no character named" in refused["text"] and len(refused["text"]) < 400


async def test_confirm_pressed_after_losing_gm_is_a_clear_error(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm add member:Pat")
    await console.ok("@as Pat")
    await console.ok("/campaign end")
    await console.ok("@as Gwen")
    await console.ok("/campaign gm remove member:Pat")
    await console.ok("@as Pat")
    pressed = await console("@press Confirm")
    assert not pressed["ok"] and pressed["ephemeral"]
    assert "needs the GM" in pressed["text"] and "incident" not in pressed
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Crows"  # still running


async def test_a_bug_in_a_button_gets_an_incident_id(console: Console, monkeypatch, caplog) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign end")

    async def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(campaigns, "end", broken)
    with caplog.at_level(logging.ERROR, logger="magister"):
        pressed = await console("@press Confirm")
    assert not pressed["ok"] and pressed["incident"] in pressed["text"]
    assert any(pressed["incident"] in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        ({"content": "x" * 2001}, "content has 2001 characters"),
        ({"embeds": [{"title": "t", "description": "d" * 4097}]}, "description has 4097"),
        ({"embeds": [{"title": "t" * 100, "description": "d"}] * 11}, "11 embeds"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "6001 embed characters"),
        ({"components": [{"type": 1, "components": [{"type": 2, "label": "x"}] * 6}]}, "6 components in a row"),
    ],
)
def test_message_limits_are_checked(payload: dict, problem: str) -> None:
    assert any(problem in found for found in message_problems(payload)), message_problems(payload)


def test_a_message_within_limits_passes() -> None:
    embed = discord.Embed(title="t" * 256, description="d" * 4096)
    assert message_problems({"content": "x" * 2000, "embeds": [embed.to_dict()]}) == []
    assert autocomplete_problems([{"name": "n", "value": "v"}] * 25) == []
    assert autocomplete_problems([{"name": "n", "value": "v"}] * 26) != []


async def test_no_message_pings_anyone(console: Console) -> None:
    """Sheets, logs and status name players as <@id>; Discord must not notify them for it."""
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/character list")
    await console.ok("/campaign status")
    adapter = console.table.virtual.adapter
    messages = [sent for sent in adapter.sent if sent.kind in ("message", "followup", "edit")]
    assert any("<@" in str(sent.embeds) for sent in messages)
    for sent in messages:
        assert sent.allowed_mentions == {"parse": []}, sent
