"""The live board: one message per campaign in its channel, edited after each change.

A GM posts it with ``/campaign board`` (again: it moves to the bottom). After every change the bot marks the
campaign's board stale; :class:`BoardKeeper` re-renders it once per ``delay`` however many changes came in that
time (a burst of actions makes one edit, well inside Discord's rate limits). If the message was deleted, the
next change posts a new one. What the board shows is a ruleset's own read-only action, run as a player would
see it (secrets stay hidden): serpent's battle, realm's day, colors and spells in play, saga's table.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, Outcome, RuleError

if TYPE_CHECKING:
    from bot.client import MagisterBot

log = logging.getLogger("magister.board")

# ruleset -> its read-only action whose card is the board (extend as rulesets gain one; runic has none yet)
BOARD_ACTIONS: dict[str, str] = {"serpent": "battle board", "realm": "spells", "saga": "table"}
BOARD_VIEWER = Caller(0, "Board")  # no GM: the board is public


def board_card(service: TableService, campaign: Campaign) -> Card:
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, BOARD_VIEWER)
    own = ruleset.board(table)  # a ruleset's own board hook first, else its read-only board action
    name = BOARD_ACTIONS.get(ruleset.id)
    action = ruleset.actions.get(name or "")
    if own is None and action is None:
        raise RuleError(f"{ruleset.name} has no live board yet. Its commands show the table as usual.")
    try:
        card = own if own is not None else action.run(table, action.options()).card  # type: ignore[union-attr]
    except RuleError as error:  # nothing to show yet (no battle...): say so on the board
        card = Card(title=f"Board: {campaign.row.name}", description=str(error))
    return card.model_copy(update={"footer": (card.footer + " · " if card.footer else "") + "Live board"})


def board_view(campaign: Campaign) -> discord.ui.View | None:
    """The board's lasting buttons: the ruleset's Picture, where it draws one (serpent's battle)."""
    from bot.views import PICTURES, PictureButton  # bot.views imports this module

    if campaign.row.ruleset not in PICTURES:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PictureButton(campaign.row.ruleset, campaign.row.id))
    return view


async def post_board(bot: MagisterBot, place: Place, caller: Caller) -> Reply:
    """``/campaign board`` (GM): post the board here, replacing (deleting) the previous one."""
    service = bot.service
    campaign = await service.require_campaign(place)
    if not campaign.is_gm(caller):
        raise RuleError("`/campaign board` needs the GM.")
    card = board_card(service, campaign)
    old = await service.store.board(campaign.row.id)
    channel_id = place.thread_id or campaign.row.channel_id
    if old is not None:
        await bot.poster.delete(bot, old[0], old[1])
    message_id = await bot.poster.board(bot, channel_id, None, card, view=board_view(campaign))
    if message_id is None:
        raise RuleError("I cannot post in this channel. Check that the bot may send messages here.")
    await service.store.write(lambda tx: tx.set_board(campaign.row.id, channel_id, message_id))
    outcome = Outcome(
        card=Card(title="Board posted", description="It updates itself after each change here.", tone="success"),
        summary="posted the board",
        data={"channel_id": channel_id, "message_id": message_id, "moved": old is not None},
        ephemeral=True,
    )
    return Reply(outcome, campaign.row)


class BoardKeeper:
    """Coalesces board edits: each stale campaign is re-rendered once per ``delay`` seconds."""

    def __init__(self, bot: MagisterBot, delay: float = 2.0) -> None:
        self.bot = bot
        self.delay = delay
        self._stale: dict[int, Place] = {}  # campaign id -> where
        self._task: asyncio.Task[None] | None = None
        self.edits = 0

    def touch(self, campaign_id: int, place: Place) -> None:
        self._stale[campaign_id] = place
        if self.delay > 0 and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._later(), name="magister-board")

    async def _later(self) -> None:
        await asyncio.sleep(self.delay)
        await self.flush()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def flush(self) -> None:
        """Edit every stale board now (the console calls this after each line)."""
        stale, self._stale = self._stale, {}
        for campaign_id, place in stale.items():
            try:
                await self._refresh(campaign_id, place)
            except Exception:  # a board is a convenience: never let it break play
                log.exception("could not refresh the board of campaign %s", campaign_id)

    async def _refresh(self, campaign_id: int, place: Place) -> None:
        service = self.bot.service
        where = await service.store.board(campaign_id)
        if where is None:
            return
        campaign = await service.campaign(place)
        if campaign is None or campaign.row.id != campaign_id:
            return
        card = board_card(service, campaign)
        channel_id, message_id = where
        posted = await self.bot.poster.board(self.bot, channel_id, message_id, card, view=board_view(campaign))
        self.edits += 1
        if posted is not None and posted != message_id:  # the old message was deleted: a new one took its place
            await service.store.write(lambda tx: tx.set_board(campaign_id, channel_id, posted))
