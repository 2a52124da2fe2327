"""/orders: standing orders for when a deadline passes while a player is away (bot/table/orders.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import orders
from cogs._common import MAX_CHOICES, matching


class OrdersCog(
    commands.GroupCog, group_name="orders", group_description="What Magister does for you when a deadline passes"
):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="set", description="Leave a standing order: what to do for you at a missed deadline")
    @app_commands.describe(
        order="One of the orders this campaign's ruleset offers (see /orders show)",
        option="What the order needs, if anything: the cards to cycle, the chit to play…",
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        order: app_commands.Range[str, 1, 60],
        option: app_commands.Range[str, 1, 200] | None = None,
    ):
        reply = await orders.order_set(
            service_of(interaction), place_of(interaction), caller_of(interaction), order, option or ""
        )
        await send_reply(interaction, reply)

    @set_.autocomplete("order")
    async def _order(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await orders.order_names(service_of(interaction), place_of(interaction), current)
        return [app_commands.Choice(name=label[:100], value=value) for label, value in found[:MAX_CHOICES]]

    @set_.autocomplete("option")
    async def _option(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        order = str(getattr(interaction.namespace, "order", "") or "")
        found = await orders.option_choices(
            service_of(interaction), place_of(interaction), caller_of(interaction), order, current
        )
        return matching(found, current)

    @app_commands.command(name="show", description="Your standing order and what you can order; all: everyone's (GM)")
    @app_commands.describe(all="Every player's standing order (GM)")
    async def show(self, interaction: discord.Interaction, all: bool = False):
        reply = await orders.order_show(service_of(interaction), place_of(interaction), caller_of(interaction), all)
        await send_reply(interaction, reply)

    @app_commands.command(name="clear", description="Take back your standing order")
    async def clear(self, interaction: discord.Interaction):
        reply = await orders.order_clear(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(OrdersCog(bot))
