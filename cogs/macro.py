"""/macro: save a roll under a name and roll it again with one command."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import macros
from cogs._common import matching

Name = app_commands.Range[str, 1, 32]


class MacroCog(commands.GroupCog, group_name="macro", group_description="Rolls saved under a name"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="save", description="Save a roll: 1d20+5; 2d6+3 # longsword")
    @app_commands.describe(
        name="What to call it",
        expression="Dice as /roll takes them; several with ; and a comment after #",
        scope="Yours everywhere, or shared at this campaign's table",
    )
    async def save(
        self,
        interaction: discord.Interaction,
        name: Name,
        expression: app_commands.Range[str, 1, 200],
        scope: Literal["mine", "campaign"] = "mine",
    ):
        reply = await macros.save(
            service_of(interaction), place_of(interaction), caller_of(interaction), name, expression, scope
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="roll", description="Roll a saved macro; every die shown")
    @app_commands.describe(name="The macro", secret="Send the result to the GM only")
    async def roll(self, interaction: discord.Interaction, name: Name, secret: bool = False):
        reply = await macros.roll(service_of(interaction), place_of(interaction), caller_of(interaction), name, secret)
        await send_reply(interaction, reply, secret=secret)

    @app_commands.command(name="list", description="Your macros, and this campaign's")
    async def list(self, interaction: discord.Interaction):
        reply = await macros.listing(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(name="delete", description="Delete a macro (yours, or any as a GM)")
    @app_commands.describe(name="The macro")
    async def delete(self, interaction: discord.Interaction, name: Name):
        reply = await macros.delete(service_of(interaction), place_of(interaction), caller_of(interaction), name)
        await send_reply(interaction, reply)

    @roll.autocomplete("name")
    @delete.autocomplete("name")
    @save.autocomplete("name")
    async def _names(self, interaction: discord.Interaction, current: str):
        found = await macros.names(service_of(interaction), place_of(interaction), caller_of(interaction))
        return matching(found, current)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(MacroCog(bot))
