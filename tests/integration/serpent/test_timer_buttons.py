"""What a timer posts carries the buttons that answer it (issue 13), as a command's reply does.

A reminder of a response window has Respond and Pass; a deadline that passes the window and hands the turn
on has End turn; a /turn deadline that skips a turn has End turn for the next one. Each is pressed through
the real tree, also by a fresh process on the same database (a restart), and the console shows the
buttons as it shows a command reply's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable, Result
from bot.cli.virtual import Sent, VirtualUser
from bot.table.registry import Registry
from tests.integration.serpent.test_buttons import run
from tests.integration.serpent.test_window_timer import SETUP


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "timer-buttons.sqlite3"


async def press(db: Path, registry: Registry, message: Sent, label: str, user: str) -> Result:
    """A fresh process (a restart) presses ``label`` on a message the earlier one's timer posted."""
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        button = next(b for b in message.buttons() if b["label"] == label)
        interaction, sent = await table.virtual.press(VirtualUser(user), message, button)
        return table._result(f"@press {label}", interaction, sent)
    finally:
        await table.close()


async def window_for_black(db: Path, registry: Registry) -> ConsoleTable:
    """White's Fireball at Black, White's priority passed: the window waits an hour on Black."""
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    await run(table, *SETUP, "@as Wanda", "/serpent cast spell:Fireball target:Black", "/serpent pass")
    return table


async def test_the_reminder_of_a_window_carries_respond_and_pass_and_pass_works(db: Path, registry: Registry) -> None:
    table = await window_for_black(db, registry)
    try:
        await run(table, "@wait 30m")
        (nudge,) = table.timer_results()
        assert nudge.data["timer"] == "nudge" and nudge.extra["pings"] == ["Bert"]
        assert nudge.extra["buttons"] == ["Respond", "Pass"]
        assert nudge.text.endswith("[buttons: Respond | Pass]")  # as a command reply's text shows them
        refused = await table.execute("@press Pass")  # Wanda (White) has no part in this window any more
        assert refused is not None and not refused.ok and "is not waiting for White" in refused.text
        await run(table, "@as Bert")
        passed = await run(table, "@press Pass")
        assert passed.data["action"] == "pass" and passed.data["battle"]["window"] is None
        assert passed.extra["buttons"] == ["Cast", "End turn"]  # Black's turn
    finally:
        await table.close()


async def test_a_timers_buttons_work_after_a_restart(db: Path, registry: Registry) -> None:
    table = await window_for_black(db, registry)
    await run(table, "@wait 30m")
    nudge_message = table.last_with_buttons
    table.timer_results()
    await table.close()
    assert nudge_message is not None

    offer = await press(db, registry, nudge_message, "Respond", "Wanda")  # White holds no Response to make
    assert not offer.ok and "no Response you could make now" in offer.text
    offer = await press(db, registry, nudge_message, "Respond", "Bert")  # Black's own, shown only to him
    assert offer.ok and offer.ephemeral and "[select: Respond with… Universum Negation]" in offer.text
    passed = await press(db, registry, nudge_message, "Pass", "Bert")
    assert passed.ok and passed.data["action"] == "pass" and passed.data["battle"]["window"] is None
    again = await press(db, registry, nudge_message, "Pass", "Bert")  # the window is over: refused, unchanged
    assert not again.ok


async def test_a_deadline_that_hands_the_turn_on_carries_end_turn(db: Path, registry: Registry) -> None:
    table = await window_for_black(db, registry)
    await run(table, "@wait 30m", "@wait 30m")
    _nudge, deadline = table.timer_results()
    assert deadline.data["ran"] == "battle close-window" and deadline.data["battle"]["window"] is None
    assert deadline.extra["buttons"] == ["Cast", "End turn"] and deadline.extra["pings"] == ["Bert"]  # Black's turn
    message = table.last_with_buttons
    await table.close()
    assert message is not None and [b["label"] for b in message.buttons()] == ["Cast", "End turn"]

    refused = await press(db, registry, message, "End turn", "Wanda")  # not White's turn
    assert not refused.ok
    ended = await press(db, registry, message, "End turn", "Bert")
    assert ended.ok and ended.data["action"] == "end-turn"


async def test_a_skipped_turn_hands_on_with_an_end_turn_button(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry, clock="2030-05-01T08:00:00+00:00")
    await run(
        table,
        "@as Gwen",
        "/campaign start ruleset:runic name:Camelot",
        "/campaign settings key:turn_deadline value:1d",
        "/campaign settings key:turn_timeout value:skip",
        "/campaign settings key:nudge value:0",
        "@as Pat",
        "/runic mage create name:Merlin magery:3 iq:15 ht:11 hp:14 thaumatology:15",
        "@as Oz",
        "/runic mage create name:Nimue magery:2 iq:14 ht:12 thaumatology:14",
        "@as Gwen",
        '/turn start order:"Merlin, Nimue"',
        "@wait 1d",
    )
    (skipped,) = table.timer_results()
    assert skipped.data["rule"] == "skip" and skipped.data["current"] == "Nimue" and skipped.extra["pings"] == ["Oz"]
    assert skipped.extra["buttons"] == ["End turn"]
    message = table.last_with_buttons
    await table.close()
    assert message is not None

    refused = await press(db, registry, message, "End turn", "Pat")  # Merlin's player: not his turn now
    assert not refused.ok and "only their player or a GM" in refused.text
    ended = await press(db, registry, message, "End turn", "Oz")
    assert ended.ok and ended.data["current"] == "Merlin" and ended.data["round"] == 2
    assert ended.extra["buttons"] == ["End turn"] and ended.extra["pings"] == ["Pat"]  # named after a restart


async def test_a_reminder_set_with_remind_has_no_buttons(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, '/remind set when:1h text:"post my turn"', "@wait 1h")
        (reminder,) = table.timer_results()
        assert reminder.data["timer"] == "remind" and "buttons" not in reminder.extra
        assert table.last_with_buttons is None
    finally:
        await table.close()
