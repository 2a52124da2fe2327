"""/remind: reminders in a channel at a duration or a date, in your own time zone (bot/table/remind.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import remind


class RemindCog(commands.GroupCog, group_name="remind", group_description="Reminders posted in this channel"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="set", description="Remind you (or, as GM, someone, a role, everyone) here later")
    @app_commands.describe(
        when="2h, 1d 12h, in 3 days, tomorrow 18:00, 2030-03-01 20:00…",
        text="What to remind",
        who="A member to remind (GM); default: you",
        role="A role to remind (GM)",
        everyone="Everyone in this channel's campaign (GM)",
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        when: app_commands.Range[str, 1, 100],
        text: app_commands.Range[str, 1, 1000],
        who: discord.User | None = None,
        role: discord.Role | None = None,
        everyone: bool = False,
    ):
        reply = await remind.remind(
            service_of(interaction),
            place_of(interaction),
            caller_of(interaction),
            when,
            text,
            user=(who.id, who.display_name) if who else None,
            role=(role.id, role.name) if role else None,
            everyone=everyone,
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="list", description="The reminders waiting in this channel")
    async def list_(self, interaction: discord.Interaction):
        await send_reply(interaction, await remind.listing(service_of(interaction), place_of(interaction)))

    @app_commands.command(name="cancel", description="Cancel a reminder (yours, or any as GM)")
    @app_commands.describe(id="The reminder's number, from /remind list")
    async def cancel(self, interaction: discord.Interaction, id: app_commands.Range[int, 1, 2**53]):
        reply = await remind.cancel(service_of(interaction), place_of(interaction), caller_of(interaction), id)
        await send_reply(interaction, reply)

    @app_commands.command(name="timezone", description="Your own time zone for reminders (e.g. Europe/Paris, none)")
    @app_commands.describe(zone="An IANA time zone such as Europe/Paris, or none for the campaign's")
    async def timezone(self, interaction: discord.Interaction, zone: app_commands.Range[str, 1, 64]):
        await send_reply(interaction, await remind.set_time_zone(service_of(interaction), caller_of(interaction), zone))


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(RemindCog(bot))
