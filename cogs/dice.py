"""/roll and the system dice: rolls that work in any channel and are logged in a campaign."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MagisterBot, caller_of, place_of, send_reply, service_of
from bot.expressions import roll_expression


class DiceCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 3d6+2, 4d6kh3, 1d20+5 [fire]. Shows every die")
    @app_commands.describe(
        expression="Dice in d20 syntax, e.g. 3d6+2 or 2d10e10",
        label="What the roll is for",
        secret="Send the result to the GM only",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, 200],
        label: app_commands.Range[str, 1, 100] | None = None,
        secret: bool = False,
    ):
        service = service_of(interaction)
        outcome = roll_expression(expression, service.rng, label=label)
        reply = await service.record(place_of(interaction), caller_of(interaction), "roll", outcome)
        await send_reply(interaction, reply, secret=secret)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(DiceCog(bot))
