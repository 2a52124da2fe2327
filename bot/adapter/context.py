"""What every part of the Discord adapter needs of an interaction: where, who, the service, and how a reply goes out.

The bottom of the adapter: views, forms, pickers, posting and cogs import this, and it imports none of them,
so the adapter has no import circle. :class:`Host` is the bot as these parts see it.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any, Protocol

import discord

from bot.adapter import charts
from bot.adapter.render import to_embed
from bot.adapter.speaking import Speaker
from bot.storage.rows import CampaignRow
from bot.table.pbp import Ping, ping_content, pinged_roles, pinged_users
from bot.table.sealing import commitment_card
from bot.table.service import Caller, Place, Reply, TableService
from rules.base import Card

CHART_FILE = "chart.png"


class Courier(Protocol):
    """Carries a secret card to a campaign's GMs; returns where it went, in words."""

    async def to_gm(self, bot: discord.Client, campaign: CampaignRow, card: Card) -> str: ...


class Poster(Protocol):
    """Posts what nobody asked for in a channel: what a timer did (pinging exactly ``pings``), and the live board."""

    async def post(
        self,
        bot: discord.Client,
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
        bot: discord.Client,
        channel_id: int,
        message_id: int | None,
        card: Card,
        *,
        view: discord.ui.View | None = None,
    ) -> int | None:
        """Edit the board message, or post (and pin) a new one if there is none or it was deleted; its id.
        ``view`` holds the board's lasting buttons (a ruleset's Picture)."""
        ...

    async def delete(self, bot: discord.Client, channel_id: int, message_id: int) -> None: ...


class Boards(Protocol):
    """The live boards: told when a campaign changed, so its board catches up."""

    def touch(self, campaign_id: int, place: Place) -> None: ...


class Host(Protocol):
    """The bot as the adapter's parts use it (:class:`bot.adapter.client.MagisterBot` is one)."""

    service: TableService
    courier: Courier
    poster: Poster
    boards: Boards
    speaker: Speaker


def mentions(pings: list[Ping]) -> discord.AllowedMentions:
    """Exactly these users may be pinged; never a role, never everyone."""
    roles = [discord.Object(r) for r in pinged_roles(pings)]
    return discord.AllowedMentions(
        everyone=False,
        roles=roles or False,
        replied_user=False,
        users=[discord.Object(u) for u in pinged_users(pings)],
    )


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
    """Show an outcome; its secret card goes to the GM. With ``secret``, the caller is told where it went.

    A private card (the owner's and the GMs') goes to the caller alone: instead of an ephemeral card, or after
    the public one as an ephemeral follow-up. A sealed secret result's commitment follows, in the channel.
    """
    outcome = reply.outcome
    interaction.extras["outcome"] = outcome
    card, ephemeral = outcome.card, outcome.ephemeral
    private = outcome.private
    if private is not None or outcome.private_data:
        interaction.extras["private"] = {"card": private, "data": outcome.private_data}
    if private is not None and ephemeral:  # the caller sees the whole result, and nobody else anything
        card, private = private, None
    where = await send_secret(interaction, reply)
    if where is not None and secret:
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
    if private is not None:
        await interaction.followup.send(embed=to_embed(private), ephemeral=True)
    if pings and ephemeral:  # only the actor sees the reply: the ping goes to the channel on its own
        await interaction.followup.send(content=ping_content(pings), allowed_mentions=mentions(pings))
    await send_seal(interaction, reply)
    if reply.event_id is not None and reply.campaign is not None:  # a change: the live board, if any, catches up
        boards = getattr(interaction.client, "boards", None)
        if boards is not None:
            boards.touch(reply.campaign.id, place_of(interaction))


async def send_seal(interaction: discord.Interaction, reply: Reply) -> None:
    """A sealed secret result's commitment, in the channel: everyone reads it, and nothing of the result."""
    if reply.seal is not None:
        await interaction.followup.send(embed=to_embed(commitment_card(reply.seal)))


async def send_secret(interaction: discord.Interaction, reply: Reply) -> str | None:
    """Carry a reply's secret card to the campaign's GMs (the one way every secret result goes); where it went,
    in words, or None when it has no secret part."""
    outcome = reply.outcome
    if outcome.secret is None or reply.campaign is None:
        return None
    bot: Host = interaction.client  # type: ignore[assignment]
    secret_card = outcome.secret.model_copy(update={"footer": f"From {interaction.user.display_name}"})
    where = await bot.courier.to_gm(bot, reply.campaign, secret_card)
    interaction.extras["secret"] = {"to": where, "card": secret_card, "data": outcome.secret_data}
    return where


def release(view: discord.ui.View | None) -> None:
    """Once sent, a view of lasting buttons needs no live object: the dynamic-item registry answers them.

    Stopping it drops the 15-minute timeout discord.py gives views on ephemeral messages.
    """
    if view is not None and all(isinstance(item, discord.ui.DynamicItem) for item in view.children):
        view.stop()
