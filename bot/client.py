"""The Discord side: the bot, its one error handler, and how replies and secrets go out.

Cogs call :func:`send_reply` with what the table service returned; errors of
any command land in :meth:`MagisterTree.on_error`, which is the only place that
turns an exception into words for a user.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot import charts
from bot.board import BoardKeeper
from bot.errors import report_error
from bot.forms import FORM_ITEMS
from bot.pbp import Ping, ping_content, pinged_roles, pinged_users
from bot.pickers import PICKER_ITEMS
from bot.render import to_embed
from bot.schedule import Fired
from bot.service import Caller, Place, Reply, TableService
from bot.store import CampaignRow
from bot.views import LASTING_ITEMS, answer_view, release
from rules.base import Card

log = logging.getLogger("magister")

CHART_FILE = "chart.png"
COGS_DIR = Path(__file__).resolve().parent.parent / "cogs"


# ---------------------------------------------------------------------- secrets


class Courier(Protocol):
    """Carries a secret card to a campaign's GMs; returns where it went, in words."""

    async def to_gm(self, bot: MagisterBot, campaign: CampaignRow, card: Card) -> str: ...


class DiscordCourier:
    """The GM channel if one is set, otherwise a DM to each GM."""

    async def to_gm(self, bot: MagisterBot, campaign: CampaignRow, card: Card) -> str:
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

    async def to_gm(self, bot: MagisterBot, campaign: CampaignRow, card: Card) -> str:
        destination = f"gm channel {campaign.gm_channel_id}" if campaign.gm_channel_id else "gm dm"
        self.sent.append(SentSecret(destination, card))
        return "the GM channel" if campaign.gm_channel_id else "the GM by direct message"


# ---------------------------------------------------------------------- messages nobody asked for


def mentions(pings: list[Ping]) -> discord.AllowedMentions:
    """Exactly these users may be pinged; never a role, never everyone."""
    roles = [discord.Object(r) for r in pinged_roles(pings)]
    return discord.AllowedMentions(
        everyone=False,
        roles=roles or False,
        replied_user=False,
        users=[discord.Object(u) for u in pinged_users(pings)],
    )


class Poster(Protocol):
    """Posts what nobody asked for in a channel: what a timer did (pinging exactly ``pings``), and the live board."""

    async def post(
        self,
        bot: MagisterBot,
        place: Place,
        card: Card | None,
        pings: list[Ping],
        *,
        view: discord.ui.View | None = None,
    ) -> bool:
        """Post in the place's channel; ``view`` holds the lasting buttons that answer the message."""
        ...

    async def board(
        self,
        bot: MagisterBot,
        channel_id: int,
        message_id: int | None,
        card: Card,
        *,
        view: discord.ui.View | None = None,
    ) -> int | None:
        """Edit the board message, or post (and pin) a new one if there is none or it was deleted; its id.
        ``view`` holds the board's lasting buttons (a ruleset's Picture)."""
        ...

    async def delete(self, bot: MagisterBot, channel_id: int, message_id: int) -> None: ...


class DiscordPoster:
    async def post(
        self,
        bot: MagisterBot,
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
        bot: MagisterBot,
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

    async def delete(self, bot: MagisterBot, channel_id: int, message_id: int) -> None:
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
        bot: MagisterBot,
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
        bot: MagisterBot,
        channel_id: int,
        message_id: int | None,
        card: Card,
        *,
        view: discord.ui.View | None = None,
    ) -> int | None:
        labels = [str(getattr(item, "label", "")) for item in (view.children if view is not None else [])]
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

    async def delete(self, bot: MagisterBot, channel_id: int, message_id: int) -> None:
        if self.boards.pop(message_id, None) is not None:
            self.board_log.append(("delete", message_id))


async def post_fired(bot: MagisterBot, fired: Fired) -> discord.ui.View | None:
    """Post what a timer did, with the buttons a command's reply would carry there now; the view it sent."""
    view = answer_view(fired.answers)
    await bot.poster.post(bot, fired.place, fired.card, fired.pings, view=view)
    if fired.campaign_id is not None:  # a deadline may have changed the game: its board catches up
        bot.boards.touch(fired.campaign_id, fired.place)
    return view


# ---------------------------------------------------------------------- the bot


class MagisterTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, getattr(error, "original", error))


class MagisterBot(commands.AutoShardedBot):
    """Sharded from the start: one process may run every shard, or a range of them (``python -m bot --shards``).

    ``shard_ids`` and ``shard_count`` None: Discord's recommended count, all in this process. Whichever process
    holds a guild's shard gets its interactions; DMs come to shard 0; timers fire from any process (they post by
    channel id over HTTP, which needs no shard).
    """

    def __init__(
        self,
        service: TableService,
        *,
        courier: Courier | None = None,
        poster: Poster | None = None,
        dev_guild: int | None = None,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
    ):
        super().__init__(
            shard_ids=shard_ids,
            shard_count=shard_count,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=MagisterTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # a sheet or log naming <@id> must not ping anyone
        )
        self.service = service
        self.courier: Courier = courier or DiscordCourier()
        self.poster: Poster = poster or DiscordPoster()
        self.boards = BoardKeeper(self)
        self.dev_guild = dev_guild

    async def setup_hook(self) -> None:
        await self.load_cogs()

    async def load_cogs(self) -> None:
        """The cogs, and the lasting buttons: a button sent before a restart still answers after it."""
        self.add_dynamic_items(*LASTING_ITEMS, *FORM_ITEMS, *PICKER_ITEMS)
        for module in pkgutil.iter_modules([str(COGS_DIR)]):
            if not module.name.startswith("_"):
                await self.load_extension(f"cogs.{module.name}")
        set_where_commands_run(self.tree)

    async def on_ready(self) -> None:
        shards = ",".join(str(shard) for shard in sorted(self.shards))
        log.info(
            "connected as %s to %d guilds on shards %s of %s", self.user, len(self.guilds), shards, self.shard_count
        )


# ---------------------------------------------------------------------- helpers for cogs


# Dice, odds, lookup and help work anywhere, also where a user installed the app for themselves (DMs, group
# DMs); everything that reads or changes a campaign belongs to a server's channel.
ANYWHERE = frozenset(
    {"roll", "check", "contest", "pool", "odds", "lookup", "help", "macro", "Roll again", "Odds of this"}
)


def set_where_commands_run(tree: app_commands.CommandTree) -> None:
    for command in tree.get_commands():
        if command.name in ANYWHERE:
            command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
            command.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)
        else:
            command.allowed_contexts = app_commands.AppCommandContext(guild=True)
            command.allowed_installs = app_commands.AppInstallationType(guild=True)


def place_of(interaction: discord.Interaction) -> Place:
    """The channel's place; in a thread or forum post, its parent's, with the thread noted (``Place``)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return Place(interaction.guild_id or 0, channel.parent_id, channel.id)
    return Place(interaction.guild_id or 0, interaction.channel_id or 0)


def caller_of(interaction: discord.Interaction) -> Caller:
    user = interaction.user
    return Caller(user.id, user.display_name, bool(interaction.guild_id) and interaction.permissions.manage_guild)


def service_of(interaction: discord.Interaction) -> TableService:
    return interaction.client.service  # type: ignore[attr-defined]


async def send_reply(
    interaction: discord.Interaction,
    reply: Reply,
    *,
    secret: bool = False,
    view: discord.ui.View | None = None,
    files: list[discord.File] | None = None,
) -> None:
    """Show an outcome; its secret card goes to the GM. With ``secret``, the caller is told where it went."""
    outcome = reply.outcome
    interaction.extras["outcome"] = outcome
    card, ephemeral = outcome.card, outcome.ephemeral
    if outcome.secret is not None and reply.campaign is not None:
        bot: MagisterBot = interaction.client  # type: ignore[assignment]
        secret_card = outcome.secret.model_copy(update={"footer": f"From {interaction.user.display_name}"})
        where = await bot.courier.to_gm(bot, reply.campaign, secret_card)
        interaction.extras["secret"] = {"to": where, "card": secret_card, "data": outcome.secret_data}
        if secret:
            card = card.model_copy(update={"description": f"Your roll went to {where}."})
    embed = to_embed(card)
    if outcome.chart is not None:  # drawn in a worker thread: the loop keeps answering meanwhile
        png = await asyncio.to_thread(charts.render, outcome.chart)
        files = [*(files or []), discord.File(io.BytesIO(png), filename=CHART_FILE)]
        embed.set_image(url=f"attachment://{CHART_FILE}")
    kwargs: dict[str, Any] = {"embed": embed, "ephemeral": ephemeral}
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = files
    pings = reply.pings
    interaction.extras["pings"] = pinged_users(pings)
    if pings and not ephemeral:  # the reply itself names who the table now waits on, and pings only them
        kwargs["content"] = ping_content(pings)
        kwargs["allowed_mentions"] = mentions(pings)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)
    release(view)
    if pings and ephemeral:  # only the actor sees the reply: the ping goes to the channel on its own
        await interaction.followup.send(content=ping_content(pings), allowed_mentions=mentions(pings))
    if reply.event_id is not None and reply.campaign is not None:  # a change: the live board, if any, catches up
        boards = getattr(interaction.client, "boards", None)
        if boards is not None:
            boards.touch(reply.campaign.id, place_of(interaction))
