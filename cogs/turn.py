"""/turn: a turn order for any ruleset, each turn a wait that pings its player and runs the turn deadline."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.views import answer_view
from bot.table import turns
from bot.table.service import Reply
from cogs._common import gm_only


def _prompt(interaction: discord.Interaction, reply: Reply) -> discord.ui.View | None:
    """The turn prompt's buttons: End turn, and what the ruleset's table waits for."""
    return answer_view(service_of(interaction).registry, reply)


class TurnCog(commands.GroupCog, group_name="turn", group_description="A turn order for this campaign, any ruleset"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description="Start a turn order: names, comma-separated (GM)")
    @app_commands.describe(order="Characters (or NPCs, the GM's turns) in order: Alice, Goblin, Bob")
    @gm_only()
    async def start(self, interaction: discord.Interaction, order: app_commands.Range[str, 1, 1500]):
        reply = await turns.turn_start(service_of(interaction), place_of(interaction), caller_of(interaction), order)
        await send_reply(interaction, reply, view=_prompt(interaction, reply))

    @app_commands.command(name="next", description="End the current turn (its player or a GM); the next is pinged")
    async def next_(self, interaction: discord.Interaction):
        reply = await turns.turn_next(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply, view=_prompt(interaction, reply))

    @app_commands.command(name="skip", description="Skip the current turn (GM)")
    @gm_only()
    async def skip(self, interaction: discord.Interaction):
        reply = await turns.turn_skip(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply, view=_prompt(interaction, reply))

    @app_commands.command(name="end", description="Stop the turn order (GM)")
    @gm_only()
    async def end(self, interaction: discord.Interaction):
        reply = await turns.turn_end(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(TurnCog(bot))
