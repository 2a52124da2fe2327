"""Buttons outlive the process: pressed after a restart, by a fresh client on the same database (issue 13).

Each button carries what it needs in its ``custom_id``; the fresh client has never seen the
message, as after a restart, and answers it through the dynamic-item registry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapter.views import action_buttons
from bot.cli.console import ConsoleTable, Result
from bot.cli.virtual import Sent, VirtualUser
from bot.table.registry import Registry
from rules.base import LookupEntry


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "lasting.sqlite3"


async def _open(db: Path, registry) -> ConsoleTable:
    return await ConsoleTable.open(db, seed=5, registry=registry)


async def _run(table: ConsoleTable, *lines: str) -> Result:
    result = None
    for line in lines:
        result = await table.execute(line)
        assert result is not None and result.ok, (line, result and result.text)
    assert result is not None
    return result


async def _press_after_restart(db: Path, registry, message: Sent, label: str, user: str) -> Result:
    """A fresh process on the same file presses ``label`` on a message an earlier process sent."""
    table = await _open(db, registry)
    try:
        button = next(b for b in message.buttons() if b["label"] == label)
        interaction, sent = await table.virtual.press(VirtualUser(user), message, button)
        return table._result(f"@press {label}", interaction, sent)
    finally:
        await table.close()


async def test_log_pages_turn_after_a_restart(db: Path, registry) -> None:
    table = await _open(db, registry)
    await _run(table, "@as Gwen", "/campaign start ruleset:tally name:Crows", "@as Pat", "/tally create name:Pip")
    for _ in range(30):
        await _run(table, "/tally add name:Pip")
    first = await _run(table, "/campaign log")
    message = table.last_with_buttons
    await table.close()
    assert first.data["page"] == 1 and message is not None

    turned = await _press_after_restart(db, registry, message, "Next", "Pat")
    assert turned.ok and "Page 2 of" in turned.text
    refused = await _press_after_restart(db, registry, message, "Next", "Oz")
    assert "belong to whoever ran the command" in refused.text


async def test_confirm_ends_the_campaign_after_a_restart(db: Path, registry) -> None:
    table = await _open(db, registry)
    await _run(table, "@as Gwen", "/campaign start ruleset:tally name:Crows", "/campaign end")
    message = table.last_with_buttons
    await table.close()

    ended = await _press_after_restart(db, registry, message, "Confirm", "Gwen")
    assert ended.ok and "Campaign ended: Crows" in ended.text
    again = await _press_after_restart(db, registry, message, "Confirm", "Gwen")
    assert not again.ok and "already ended" in again.text


async def test_confirm_for_an_ended_campaign_never_ends_the_next_one(db: Path, registry) -> None:
    table = await _open(db, registry)
    await _run(table, "@as Gwen", "/campaign start ruleset:tally name:Crows", "/campaign end")
    stale = table.last_with_buttons
    await _run(table, "@press Confirm", "/campaign start ruleset:tally name:Ravens")
    await table.close()

    refused = await _press_after_restart(db, registry, stale, "Confirm", "Gwen")
    assert not refused.ok and "already ended" in refused.text
    table = await _open(db, registry)
    try:
        status = await _run(table, "/campaign status")
        assert status.data["campaign"] == "Ravens"
    finally:
        await table.close()


async def test_lookup_pages_turn_after_a_restart(db: Path, registry) -> None:
    long_rule = LookupEntry(
        ruleset=None, category="rule", key="long", title="A long rule", body="\n\n".join(["word " * 150] * 12)
    )
    with_long = Registry(list(registry), extra_entries=[long_rule])
    table = await _open(db, with_long)
    await _run(table, "/lookup term:long")
    message = table.last_with_buttons
    await table.close()
    assert message is not None

    turned = await _press_after_restart(db, with_long, message, "Next", table.user.name)
    assert turned.ok and "page 2 of" in turned.text


async def test_an_action_button_runs_its_action_for_whoever_presses(db: Path, registry) -> None:
    table = await _open(db, registry)
    await _run(table, "@as Gwen", "/campaign start ruleset:tally name:Crows")
    await table.close()
    view = action_buttons("tally", [("whisper", "Whisper")])
    message = Sent(kind="message", id=1_200_000_000_000_000_001, components=view.to_components())
    pressed = await _press_after_restart(db, registry, message, "Whisper", "Pat")
    assert pressed.ok and "You whispered" in pressed.text
    assert pressed.extra["secret"]["text"].startswith("== The whisper")
