"""Undo reverts only what its caller named (issue 21, item 3): it says what, asks first, and can be redone.

`/campaign undo` names the change it would revert (#N, who, what, as its reader may read it) and asks for
**Confirm** when that change is not the caller's own newest action (a roll or another action came after it, or
someone else made it); `/campaign redo` brings back a mistaken undo, logged and itself undoable; and
`/serpent battle round`, which ends the round for every Magus at once, asks first while Magi still have actions.
All through the real command tree: the console's, and real ``discord.Interaction`` objects.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.cli.virtual import Sent, VirtualUser, snowflake_for
from tests.conftest import Console
from tests.support.discord_harness import ok, slash
from tests.support.serpent import DUEL

PROMPT = ["Confirm", "Cancel"]


async def _characters(console: Console) -> list[str]:
    return (await console.ok("/campaign status"))["data"]["characters"]


async def _runic_mage_then_a_secret_roll(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("@as Pat")
    await console.ok("/runic mage create name:Merlin magery:3 iq:15 thaumatology:15")
    await console.ok("/roll expression:1d20+1000 label:stealth secret:true")
    await console.ok("@as Gwen")


async def test_an_undo_after_a_secret_roll_names_the_new_mage_and_asks(console: Console) -> None:
    await _runic_mage_then_a_secret_roll(console)
    asked = await console.ok("/campaign undo")
    assert asked["buttons"] == PROMPT and asked["ephemeral"], asked
    assert asked["data"]["confirm"] and asked["data"]["event"] == 2
    text = asked["text"]
    assert "#2" in text and "Pat" in text and "/runic mage create" in text and "#3" in text, text
    assert await _characters(console) == ["Merlin"]  # asking changed nothing
    cancelled = await console.ok("@press Cancel")
    assert "Nothing was changed" in cancelled["text"]
    assert await _characters(console) == ["Merlin"]
    await console.ok("/campaign undo")
    undone = await console.ok("@press Confirm")
    assert undone["data"]["undone_event"] == 2
    assert await _characters(console) == []
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert log[0]["command"] == "campaign undo" and log[0]["undoes"] == 2


async def test_saga_start_is_not_reverted_behind_a_roll(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:saga name:Stars")
    await console.ok("@as Pat")
    await console.ok("/saga start deck:sample seed:168")
    await console.ok("/roll expression:1d6 secret:true")
    await console.ok("@as Gwen")
    asked = await console.ok("/campaign undo")
    assert asked["buttons"] == PROMPT and "/saga start" in asked["text"]
    await console.ok("/saga table")  # the game is still there


async def test_the_callers_own_newest_changes_are_undone_at_once(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign settings key:step value:2")
    await console.ok("/campaign settings key:step value:3")
    first = await console.ok("/campaign undo")
    assert "buttons" not in first and first["data"]["undone_event"] == 3
    assert "Gwen" in first["text"] and "#3" in first["text"]
    second = await console.ok("/campaign undo")  # after #2: only her own change, undone, and her undo
    assert "buttons" not in second and second["data"]["undone_event"] == 2


async def test_another_members_change_asks_even_when_it_is_the_newest(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm add member:Oz")
    await console.ok("@as Oz")
    await console.ok("/campaign settings key:step value:5")
    await console.ok("@as Gwen")
    asked = await console.ok("/campaign undo")
    assert asked["buttons"] == PROMPT and "Oz" in asked["text"] and "#3" in asked["text"]
    await console.ok("@press Confirm")
    shown = await console.ok("/campaign settings key:step")
    assert shown["data"]["settings"]["step"] == 1


async def test_undo_of_a_chosen_event_asks_unless_it_is_the_callers_newest(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("@as Gwen")
    await console.ok("/campaign settings key:step value:2")
    asked = await console.ok("/campaign undo event:2")
    assert asked["buttons"] == PROMPT and asked["data"]["event"] == 2 and "Pat" in asked["text"]
    assert await _characters(console) == ["Pip"]
    await console.ok("@press Confirm")
    assert await _characters(console) == []
    own = await console.ok("/campaign undo event:3")
    assert "buttons" not in own and own["data"]["undone_event"] == 3


async def test_redo_brings_back_a_mistaken_undo_and_is_itself_undone(console: Console) -> None:
    await _runic_mage_then_a_secret_roll(console)
    await console.ok("/campaign undo")
    await console.ok("@press Confirm")
    assert await _characters(console) == []
    redone = await console.ok("/campaign redo")
    assert not redone["ephemeral"] and redone["data"]["redone_event"] == 2 and redone["data"]["undo_event"] == 4
    assert await _characters(console) == ["Merlin"]
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert log[0]["command"] == "campaign redo" and "#2" in log[0]["summary"]
    again = await console.fails("/campaign redo")
    assert "nothing to redo" in again["text"].lower()
    undone = await console.ok("/campaign undo")  # the redo is her own newest change
    assert "buttons" not in undone and undone["data"]["undone_event"] == 5
    assert await _characters(console) == []
    await console.ok("/campaign redo")
    assert await _characters(console) == ["Merlin"]
    await console.ok("@as Pat")
    assert "needs the GM" in (await console.fails("/campaign redo"))["text"]


async def test_redo_refuses_once_something_changed_since_the_undo(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm add member:Oz")
    await console.ok("/campaign undo")
    await console.ok("/roll expression:1d6")  # a roll changes nothing: redo still may
    await console.ok("/campaign redo")
    assert (await console.ok("/campaign status"))["data"]["gm_ids"][1:] == [snowflake_for("Oz")]
    await console.ok("/campaign undo")
    await console.ok("/campaign settings key:step value:4")
    refused = await console.fails("/campaign redo")
    assert "#" in refused["text"] and "changed since" in refused["text"], refused["text"]
    assert len((await console.ok("/campaign status"))["data"]["gm_ids"]) == 1


async def test_undo_and_redo_messages_keep_secrets_from_the_channel(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Whispers")
    await console.ok("@as Pat")
    await console.ok("/tally whisper")
    await console.ok("/roll expression:1d6")
    await console.ok("@as Gwen")
    asked = await console.ok("/campaign undo")
    assert asked["ephemeral"] and asked["buttons"] == PROMPT  # the GM's to read, and only hers
    adapter = console.table.virtual.adapter
    before = len(adapter.sent)
    await console.ok("@press Confirm")
    await console.ok("/campaign redo")
    public = [s for s in adapter.sent[before:] if not s.ephemeral and s.kind in ("message", "followup")]
    assert public, "the undo and the redo are posted in the channel"
    assert all("swordfish" not in str(s.embeds) + str(s.content) for s in public)


# ---------------------------------------------------------------------- serpent's round for every Magus at once

SERPENT = [
    *DUEL,
    "/serpent battle round resonance:7 rolloff:Black",  # round 1: preparation, nobody has actions yet
    "/serpent battle round",  # preparation closes: the action phase begins
]


async def _battle(console: Console) -> dict:
    return (await console.ok("/serpent battle board"))["data"]["battle"]


async def test_a_round_that_would_end_the_magis_actions_asks_first(console: Console) -> None:
    for line in SERPENT:
        await console.ok(line)
    before = await _battle(console)
    asked = await console.ok("/serpent battle round")
    assert asked["buttons"] == PROMPT and asked["ephemeral"], asked
    assert "White" in asked["text"] and "Black" in asked["text"] and "round 1" in asked["text"].lower()
    await console.ok("@press Cancel")  # the question's buttons, before the board's below
    assert await _battle(console) == before
    await console.ok("/serpent battle round")
    ended = await console.ok("@press Confirm")
    assert ended["data"]["battle"]["round"] == 2, ended["data"]
    # typed outright, `confirm:true` answers in advance
    await console.ok("/serpent battle round")  # preparation of round 2 closes: no question
    forced = await console.ok("/serpent battle round confirm:true")
    assert "buttons" not in forced or forced["buttons"] != PROMPT
    assert forced["data"]["battle"]["round"] == 3


async def test_the_round_asks_nothing_when_nobody_has_actions_left(console: Console) -> None:
    for line in SERPENT:
        await console.ok(line)
    await console.ok("@as Black")
    await console.ok("/serpent end-turn")
    await console.ok("@as White")
    await console.ok("/serpent end-turn")
    await console.ok("@gm")
    ran = await console.ok("/serpent battle round")
    assert ran.get("buttons") != PROMPT and ran["data"]["battle"]["round"] == 2


# ---------------------------------------------------------------------- through Discord, and after a restart


async def test_through_discord_the_prompt_is_the_callers_and_confirm_posts_publicly(console: Console) -> None:
    table = console.table
    await _runic_mage_then_a_secret_roll(console)
    gwen = VirtualUser("Gwen")
    asked = await ok(table, gwen, "campaign undo")
    assert asked.ephemeral and [b["label"] for b in asked.message.buttons()] == PROMPT
    confirm = next(b for b in asked.message.buttons() if b["label"] == "Confirm")
    interaction, sent = await table.virtual.press(VirtualUser("Pat"), asked.message, confirm)
    assert [s.ephemeral for s in sent] == [True] and "belong to whoever" in str(sent[0].content)
    assert await _characters(console) == ["Merlin"]
    interaction, sent = await table.virtual.press(gwen, asked.message, confirm)
    assert "incident" not in interaction.extras and interaction.extras.get("error") is None
    edited = [s for s in sent if s.kind == "edit"]
    posted = [s for s in sent if s.kind in ("message", "followup") and not s.ephemeral]
    assert edited and edited[0].components == []  # the prompt's buttons are gone
    assert posted and "Undone" in posted[0].embeds[0]["title"]
    assert await _characters(console) == []


async def test_through_discord_the_round_prompt_runs_the_round_as_asked(console: Console) -> None:
    table = console.table
    for line in SERPENT:
        await console.ok(line)
    gm = table.user
    asked = await slash(table, gm, "serpent battle round", resonance=5)
    assert asked.error is None and asked.ephemeral
    confirm = next(b for b in asked.message.buttons() if b["label"] == "Confirm")
    interaction, sent = await table.virtual.press(gm, asked.message, confirm)
    assert interaction.extras.get("error") is None and "incident" not in interaction.extras
    battle = interaction.extras["outcome"].data["battle"]
    assert battle["round"] == 2
    assert "Resonance roll: **5**" in str([s.embeds for s in sent])  # the options it was asked with


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "undo.sqlite3"


async def _press_after_restart(db: Path, registry, message: Sent, label: str, user: str):
    table = await ConsoleTable.open(db, seed=5, registry=registry)
    try:
        button = next(b for b in message.buttons() if b["label"] == label)
        interaction, sent = await table.virtual.press(VirtualUser(user), message, button)
        return table._result(f"@press {label}", interaction, sent)
    finally:
        await table.close()


async def test_an_undo_prompt_outlives_a_restart_and_undoes_only_what_it_named(db: Path, registry) -> None:
    table = await ConsoleTable.open(db, seed=5, registry=registry)
    for line in ("@as Gwen", "/campaign start ruleset:tally name:Crows", "@as Pat", "/tally create name:Pip"):
        assert (await table.execute(line)).ok
    await table.execute("@as Gwen")
    asked = await table.execute("/campaign undo")
    assert asked.ok and asked.data["event"] == 2
    message = table.last_with_buttons
    assert (await table.execute("/campaign settings key:step value:2")).ok  # a later change, untouched by it
    await table.close()

    undone = await _press_after_restart(db, registry, message, "Confirm", "Gwen")
    assert undone.ok and undone.data["undone_event"] == 2, undone.text
    again = await _press_after_restart(db, registry, message, "Confirm", "Gwen")
    assert not again.ok and "#2" in again.text
    table = await ConsoleTable.open(db, seed=5, registry=registry)
    try:
        status = await table.execute("/campaign status")
        assert status.data["characters"] == []
        step = await table.execute("/campaign settings key:step")
        assert step.data["settings"]["step"] == 2
    finally:
        await table.close()
