"""/help: every command with one line and an example, generated from the command tree itself."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import help as guide
from bot.adapter.client import MagisterBot
from bot.adapter.context import send_reply, service_of
from bot.table.service import Reply
from cogs._common import matching


class HelpCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Magister can do; a command with an example; how to begin")
    @app_commands.describe(command="A command or a ruleset, e.g. runic, or runic cast")
    async def help(self, interaction: discord.Interaction, command: app_commands.Range[str, 1, 100] | None = None):
        tree = self.bot.tree
        if command is None:
            outcome = guide.overview(tree)
        else:
            outcome = guide.about(tree, service_of(interaction).registry, command)
        await send_reply(interaction, Reply(outcome))

    @help.autocomplete("command")
    async def _commands(self, interaction: discord.Interaction, current: str):
        return matching(guide.names(self.bot.tree), current)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(HelpCog(bot))
