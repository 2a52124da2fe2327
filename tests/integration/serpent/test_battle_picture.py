"""The serpent battle board as a picture (issue 15): a PNG drawn on request, sized for a phone and Discord.

The board's reply has a lasting **Picture** button; pressing it (anyone, also after a restart) answers,
only to the presser, with the battle drawn from what every player may see: life, energy, how many spells
each Magus holds prepared (never which), actions, the spells in play and what is manifesting.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapter import charts
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser
from bot.table.board import BOARD_VIEWER
from bot.table.registry import Registry
from rules.base import BattlePicture, Combatant
from rules.serpent.replies import battle_picture
from tests.bot.test_charts import _read, png_size
from tests.integration.serpent.test_buttons import SETUP, run

DISCORD_UPLOAD_LIMIT = 25 * 1024 * 1024


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "picture.sqlite3"


async def test_the_board_carries_a_picture_button_that_draws_the_battle(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry, files_dir=db.parent / "files")
    try:
        await run(table, *SETUP, "@as Wanda", "/serpent cast spell:Fireball target:Black")  # manifesting
        board = await run(table, "@as Gail", "/serpent battle board")
        assert board.extra["buttons"] == ["Respond", "Pass", "Picture"]  # what the table waits for, and the picture
        pressed = await run(table, "@press Picture")
        assert pressed.ephemeral and pressed.data == {"picture": "battle.png"}
        (path,) = pressed.extra["files"]
        body = _read(path)
        width, height = png_size(body)
        assert width == charts.BATTLE_WIDTH and 400 <= height <= 2400  # three Magi and a window
        assert len(body) < DISCORD_UPLOAD_LIMIT
        sent = table.virtual.adapter.sent[-1]
        assert sent.ephemeral and sent.embeds[0]["image"]["url"] == "attachment://battle.png"
        assert sent.embeds[0]["title"] == "Round 1 · actions phase"
    finally:
        await table.close()


async def test_the_picture_never_names_a_prepared_spell(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, *SETUP, "@as Wanda", "/serpent cast spell:Fireball target:Black")
        campaign = await table.bot.service.campaign(table._place())
        assert campaign is not None
        picture = battle_picture(table.bot.service.table_for(campaign, BOARD_VIEWER))
        beings = {being.name: being for being in picture.beings}
        assert beings["Grey"].hand == 1 and beings["Black"].hand == 1  # how many they hold, not which
        assert "Dissolve Tissue" not in repr(picture)  # Grey's prepared spell is hers to know
        assert picture.manifesting == ["#1 Fireball by White"] or picture.manifesting[0].endswith("Fireball by White")
        assert beings["White"].status == "" and beings["Black"].essence <= beings["Black"].max_essence
    finally:
        await table.close()


async def test_the_picture_button_works_after_a_restart_for_anyone(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    await run(table, *SETUP, "@as Gwen", "/serpent battle board")
    message = table.last_with_buttons
    await table.close()
    assert message is not None

    fresh = await ConsoleTable.open(db, seed=3, registry=registry, files_dir=db.parent / "later")
    try:
        button = next(b for b in message.buttons() if b["label"] == "Picture")
        interaction, sent = await fresh.virtual.press(VirtualUser("Bert"), message, button)
        result = fresh._result("@press Picture", interaction, sent)
        assert result.ok and result.ephemeral and result.extra["files"]
        await run(fresh, "@as Gwen", "/serpent battle end")  # no battle now: the old button says so, plainly
        interaction, sent = await fresh.virtual.press(VirtualUser("Bert"), message, button)
        refused = fresh._result("@press Picture", interaction, sent)
        assert not refused.ok and "no battle" in refused.text.casefold() and "files" not in refused.extra
    finally:
        await fresh.close()


async def test_a_timer_message_does_not_carry_the_picture(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, *SETUP, "@as Gwen", "/campaign settings key:response_window value:1h")
        await run(table, "@as Wanda", "/serpent cast spell:Fireball target:Black", "@wait 30m")
        (nudge,) = table.timer_results()
        assert nudge.extra["buttons"] == ["Respond", "Pass"]
    finally:
        await table.close()


def test_a_crowded_battle_stays_inside_the_limits() -> None:
    crowd = BattlePicture(
        "Round 9 · actions phase",
        "Initiative: " + " → ".join(f"Magus {n}" for n in range(30)),
        [Combatant(f"Magus {n}" * 5, f"team {n % 3}", n, 12, n, n, "1/2 actions") for n in range(30)],
        [f"#{n} A spell with a rather long name indeed · the Lore zone · on someone" for n in range(80)],
        [f"#{n} Fireball by Magus {n}" for n in range(10)],
    )
    body = charts.render_battle(crowd)
    width, height = png_size(body)
    assert width == charts.BATTLE_WIDTH and height == charts.battle_height(crowd) and height <= 3000
    assert len(body) < DISCORD_UPLOAD_LIMIT
