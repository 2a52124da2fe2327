"""What the bot posts that nobody asked for, and where secrets go: GM couriers, timer posts, the live board.

A GM posts the board with ``/campaign board`` (again: it moves to the bottom). After every change the bot marks the
campaign's board stale; :class:`BoardKeeper` re-renders it once per ``delay`` however many changes came in that
time (a burst of actions makes one edit, well inside Discord's rate limits). If the message was deleted, the
next change posts a new one. What the board shows is :func:`bot.table.board.board_card`: the table as any player
may see it. The Discord couriers and posters have recording twins for the console and the tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.adapter.context import Host, mentions, release
from bot.adapter.render import to_embed
from bot.adapter.views import PictureButton, answer_view
from bot.storage.rows import CampaignRow
from bot.table.board import board_card, board_message, remember_board
from bot.table.pbp import Ping, ping_content
from bot.table.registry import Registry
from bot.table.schedule import Fired
from bot.table.service import Caller, Campaign, Place, Reply
from rules.base import Card, Outcome, RuleError

log = logging.getLogger("magister.posting")


class DiscordCourier:
    """The GM channel if one is set, otherwise a DM to each GM."""

    async def to_gm(self, bot: Host, campaign: CampaignRow, card: Card) -> str:
        embed = to_embed(card)
        if campaign.gm_channel_id:
            try:
                channel = bot.get_channel(campaign.gm_channel_id) or await bot.fetch_channel(campaign.gm_channel_id)
                await channel.send(embed=embed)  # type: ignore[union-attr]
                return "the GM channel"
            except discord.HTTPException:
                log.warning("cannot post to GM channel %s of campaign %s", campaign.gm_channel_id, campaign.id)
        reached = 0
        for gm_id in campaign.gm_ids:
            try:
                user = bot.get_user(gm_id) or await bot.fetch_user(gm_id)
                await user.send(embed=embed)
                reached += 1
            except discord.HTTPException:
                log.warning("cannot DM GM %s of campaign %s", gm_id, campaign.id)
        if reached:
            return "the GM by direct message"
        return (
            "nobody: the GM channel and the GMs' DMs could not be reached. It is kept in the campaign log; "
            "a GM can set a channel the bot can post in with /campaign gmchannel"
        )


@dataclass
class SentSecret:
    destination: str
    card: Card


@dataclass
class RecordingCourier:
    """For the console and tests: keeps secrets instead of sending them."""

    sent: list[SentSecret] = field(default_factory=list)

    async def to_gm(self, bot: Host, campaign: CampaignRow, card: Card) -> str:
        destination = f"gm channel {campaign.gm_channel_id}" if campaign.gm_channel_id else "gm dm"
        self.sent.append(SentSecret(destination, card))
        return "the GM channel" if campaign.gm_channel_id else "the GM by direct message"


class DiscordPoster:
    async def post(
        self,
        bot: Host,
        place: Place,
        card: Card | None,
        pings: list[Ping],
        *,
        view: discord.ui.View | None = None,
    ) -> bool:
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            channel = bot.get_channel(place.channel_id) or await bot.fetch_channel(place.channel_id)
            await channel.send(  # type: ignore[union-attr]
                content=ping_content(pings) or None,
                embed=to_embed(card) if card is not None else None,
                allowed_mentions=mentions(pings),
                **kwargs,
            )
            return True
        except discord.HTTPException:
            log.warning("could not post a timer's message to channel %s", place.channel_id, exc_info=True)
            return False
        finally:
            release(view)

    async def board(
        self,
        bot: Host,
        channel_id: int,
        message_id: int | None,
        card: Card,
        *,
        view: discord.ui.View | None = None,
    ) -> int | None:
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(embed=to_embed(card), **kwargs)  # type: ignore[union-attr]
                    return message_id
                except discord.NotFound:
                    pass  # deleted: post a new one
            message = await channel.send(embed=to_embed(card), **kwargs)  # type: ignore[union-attr]
        except discord.HTTPException:
            log.warning("could not post the board in channel %s", channel_id, exc_info=True)
            return None
        finally:
            release(view)
        with contextlib.suppress(discord.HTTPException):  # pinned where the bot may pin
            await message.pin()
        return message.id

    async def delete(self, bot: Host, channel_id: int, message_id: int) -> None:
        try:
            channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
            await channel.get_partial_message(message_id).delete()  # type: ignore[union-attr]
        except discord.HTTPException:
            pass  # already gone, or not ours to delete


@dataclass
class Posted:
    place: Place
    card: Card | None
    pings: list[Ping]
    view: discord.ui.View | None = None


@dataclass
class RecordingPoster:
    """For the console and tests: keeps what timers would post, and the board messages as they stand."""

    posted: list[Posted] = field(default_factory=list)
    boards: dict[int, Card] = field(default_factory=dict)  # message id -> its card now
    board_buttons: dict[int, list[str]] = field(default_factory=dict)  # message id -> its buttons' labels
    board_log: list[tuple[str, int]] = field(default_factory=list)  # ("post" | "edit" | "delete", message id)
    _next_id: int = 900_000_000_000_000_000

    async def post(
        self,
        bot: Host,
        place: Place,
        card: Card | None,
        pings: list[Ping],
        *,
        view: discord.ui.View | None = None,
    ) -> bool:
        self.posted.append(Posted(place, card, pings, view))
        release(view)
        return True

    async def board(
        self,
        bot: Host,
        channel_id: int,
        message_id: int | None,
        card: Card,
        *,
        view: discord.ui.View | None = None,
    ) -> int | None:
        # a lasting button is a DynamicItem: its label is on the button it wraps
        items = [getattr(item, "item", item) for item in (view.children if view is not None else [])]
        labels = [str(getattr(item, "label", "") or "") for item in items]
        release(view)
        if message_id is not None and message_id in self.boards:
            self.boards[message_id] = card
            self.board_buttons[message_id] = labels
            self.board_log.append(("edit", message_id))
            return message_id
        self._next_id += 1
        self.boards[self._next_id] = card
        self.board_buttons[self._next_id] = labels
        self.board_log.append(("post", self._next_id))
        return self._next_id

    async def delete(self, bot: Host, channel_id: int, message_id: int) -> None:
        if self.boards.pop(message_id, None) is not None:
            self.board_log.append(("delete", message_id))


async def post_fired(bot: Host, fired: Fired) -> discord.ui.View | None:
    """Post what a timer did, with the buttons a command's reply would carry there now; the view it sent."""
    view = answer_view(bot.service.registry, fired.answers)
    await bot.poster.post(bot, fired.place, fired.card, fired.pings, view=view)
    if fired.campaign_id is not None:  # a deadline may have changed the game: its board catches up
        bot.boards.touch(fired.campaign_id, fired.place)
    return view


# ---------------------------------------------------------------------- the live board


def board_view(registry: Registry, campaign: Campaign) -> discord.ui.View | None:
    """The board's lasting buttons: Picture, where the ruleset draws one (``Ruleset.picture``: serpent's battle)."""
    if campaign.row.ruleset not in registry or not registry.get(campaign.row.ruleset).ruleset.draws_picture:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PictureButton(campaign.row.ruleset, campaign.row.id))
    return view


async def post_board(bot: Host, place: Place, caller: Caller) -> Reply:
    """``/campaign board`` (GM): post the board here, replacing (deleting) the previous one."""
    service = bot.service
    campaign = await service.require_campaign(place)
    if not campaign.is_gm(caller):
        raise RuleError("`/campaign board` needs the GM.")
    card = board_card(service, campaign)
    old = await board_message(service, campaign.row.id)
    channel_id = place.thread_id or campaign.row.channel_id
    if old is not None:
        await bot.poster.delete(bot, old[0], old[1])
    message_id = await bot.poster.board(bot, channel_id, None, card, view=board_view(service.registry, campaign))
    if message_id is None:
        raise RuleError("I cannot post in this channel. Check that the bot may send messages here.")
    await remember_board(service, campaign.row.id, channel_id, message_id)
    outcome = Outcome(
        card=Card(title="Board posted", description="It updates itself after each change here.", tone="success"),
        summary="posted the board",
        data={"channel_id": channel_id, "message_id": message_id, "moved": old is not None},
        ephemeral=True,
    )
    return Reply(outcome, campaign.row)


class BoardKeeper:
    """Coalesces board edits: each stale campaign is re-rendered once per ``delay`` seconds."""

    def __init__(self, bot: Host, delay: float = 2.0) -> None:
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
        where = await board_message(service, campaign_id)
        if where is None:
            return
        campaign = await service.campaign(place)
        if campaign is None or campaign.row.id != campaign_id:
            return
        card = board_card(service, campaign)
        channel_id, message_id = where
        posted = await self.bot.poster.board(
            self.bot, channel_id, message_id, card, view=board_view(service.registry, campaign)
        )
        self.edits += 1
        if posted is not None and posted != message_id:  # the old message was deleted: a new one took its place
            await remember_board(service, campaign_id, channel_id, posted)
