"""/verify: anyone checks a revealed secret result against the commitment posted when it was sealed."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import sealed


class SealedCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="verify", description="Check a revealed secret result against its seal (only you see it)"
    )
    @app_commands.describe(event="The sealed result, by its # in the log (🔐)")
    async def verify(self, interaction: discord.Interaction, event: app_commands.Range[int, 1, 2**53]):
        await send_reply(interaction, await sealed.verify(service_of(interaction), place_of(interaction), event))

    @verify.autocomplete("event")
    async def _sealed_events(self, interaction: discord.Interaction, current: str):
        found = await sealed.choices(
            service_of(interaction), place_of(interaction), caller_of(interaction), current, to_reveal=False
        )
        return [app_commands.Choice(name=label, value=number) for label, number in found]


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(SealedCog(bot))
