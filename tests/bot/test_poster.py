"""The Discord poster: what a timer posts goes out with exactly its pings and the buttons that answer it.

``DiscordPoster`` runs for real here, through discord.py's ``channel.send``; only Discord's HTTP API is the
in-process one (``bot.cli.virtual.ChannelPosts``), which records the message as Discord would receive it.
"""

from __future__ import annotations

from pathlib import Path

from bot.adapter.posting import DiscordPoster
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser
from bot.table.registry import Registry
from tests.integration.serpent.test_window_timer import SETUP


async def test_a_timers_message_goes_out_with_its_pings_and_buttons(tmp_path: Path, registry: Registry) -> None:
    db = tmp_path / "poster.sqlite3"
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        table.bot.poster = DiscordPoster()
        posts = table.virtual.record_posts()
        for line in (*SETUP, "@as Wanda", "/serpent cast spell:Fireball target:Black", "/serpent pass", "@wait 30m"):
            result = await table.execute(line)
            assert result is not None and result.ok, (line, result and result.text)
        (message,) = posts.sent
        bert = VirtualUser("Bert").id
        allowed = message.allowed_mentions or {}
        assert allowed["parse"] == [] and [int(user) for user in allowed["users"]] == [bert]  # exactly Bert
        assert message.content is not None and message.content.startswith(f"<@{bert}> reminder:")
        assert message.embeds[0]["title"] == "Reminder: Black"
        assert [b["label"] for b in message.buttons()] == ["Respond", "Pass"]
    finally:
        await table.close()

    fresh = await ConsoleTable.open(db, seed=3, registry=registry)  # a restart: the message is all it has
    try:
        button = next(b for b in message.buttons() if b["label"] == "Pass")
        interaction, sent = await fresh.virtual.press(VirtualUser("Bert"), message, button)
        passed = fresh._result("@press Pass", interaction, sent)
        assert passed.ok and passed.data["action"] == "pass" and passed.data["battle"]["window"] is None
    finally:
        await fresh.close()


async def test_the_live_board_carries_picture_and_it_draws_after_a_restart(tmp_path: Path, registry: Registry) -> None:
    """The serpent board message (posted, then edited after each change) carries the lasting Picture button."""
    db = tmp_path / "board.sqlite3"
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        table.bot.poster = DiscordPoster()
        posts = table.virtual.record_posts()
        for line in (*SETUP, "@as Gwen", "/campaign board"):
            result = await table.execute(line)
            assert result is not None and result.ok, (line, result and result.text)
        (board,) = posts.sent
        assert board.embeds[0]["footer"]["text"].endswith("Live board")
        assert posts.pinned == [board.id]  # pinned where the bot may pin
        (picture,) = board.buttons()
        assert picture["label"] == "Picture" and picture["custom_id"].startswith("m:pic:serpent:")
    finally:
        await table.close()

    fresh = await ConsoleTable.open(db, seed=3, registry=registry)  # a restart: the message is all it has
    try:
        interaction, sent = await fresh.virtual.press(VirtualUser("Wanda"), board, picture)
        drawn = fresh._result("@press Picture", interaction, sent)
        assert drawn.ok and drawn.ephemeral and drawn.data == {"picture": "battle.png"}
    finally:
        await fresh.close()


async def test_a_board_without_a_picture_carries_no_buttons(tmp_path: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(tmp_path / "runic.sqlite3", seed=3, registry=registry)
    try:
        for line in ("@as Gwen", "/campaign start ruleset:runic name:Camelot", "/campaign board"):
            result = await table.execute(line)
            assert result is not None and result.ok, (line, result and result.text)
        poster = table.bot.poster
        assert list(poster.board_buttons.values()) == [[]]  # type: ignore[attr-defined]
    finally:
        await table.close()


async def test_the_console_shows_the_live_boards_picture_button(tmp_path: Path, registry: Registry) -> None:
    """The console's recording poster reads a lasting button's label (it wraps a button): Picture shows."""
    table = await ConsoleTable.open(tmp_path / "serpent.sqlite3", seed=3, registry=registry)
    try:
        for line in (*SETUP, "@as Gwen", "/campaign board"):
            result = await table.execute(line)
            assert result is not None and result.ok, (line, result and result.text)
        poster = table.bot.poster
        assert list(poster.board_buttons.values()) == [["Picture"]]  # type: ignore[attr-defined]
        (message_id,) = poster.boards  # type: ignore[attr-defined]
        assert table.board_text(message_id).endswith("[buttons: Picture]")
    finally:
        await table.close()
