"""/form: any action of this channel's ruleset as a Discord form, for option lists too long to type."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.forms import action_form, action_names
from cogs._common import matching


class FormCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="form", description="Fill in a ruleset action as a form, e.g. defining a spell")
    @app_commands.describe(action="The action, as in its command: `spell define`, `mage create`...")
    async def form(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, 100]):
        await interaction.response.send_modal(await action_form(interaction, action))

    @form.autocomplete("action")
    async def _actions(self, interaction: discord.Interaction, current: str):
        return matching(await action_names(interaction), current)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(FormCog(bot))
