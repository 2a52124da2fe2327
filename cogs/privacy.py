"""/privacy: a member's own data, as Discord's developer policy expects: a copy of it, or erasing it
(bot/table/privacy.py; docs/campaigns.md, "Your data: export and erasure")."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, send_reply, service_of
from bot.adapter.views import confirm
from bot.table import privacy
from bot.table.service import Reply


def upload_limit(interaction: discord.Interaction) -> int:
    """Bytes one message may attach here: the guild's (boosts raise it), or Discord's default in DMs."""
    return interaction.guild.filesize_limit if interaction.guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES


class PrivacyCog(commands.GroupCog, group_name="privacy", group_description="Your own data: a copy, or erase it"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="export", description="Your data as a JSON file: characters, log entries, macros…")
    async def export(self, interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)  # a long log takes a moment to read
        reply, name, body = await privacy.export(
            service_of(interaction), caller_of(interaction), limit=upload_limit(interaction)
        )
        await send_reply(interaction, reply, files=[discord.File(io.BytesIO(body), filename=name)])

    @app_commands.command(
        name="forget", description="Erase what Magister keeps about you, everywhere (after confirming)"
    )
    async def forget(self, interaction: discord.Interaction):
        caller = caller_of(interaction)
        prompt = await privacy.forget_prompt(service_of(interaction), caller)
        await send_reply(interaction, Reply(prompt), view=confirm("forget", caller.user_id, 0))


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(PrivacyCog(bot))
