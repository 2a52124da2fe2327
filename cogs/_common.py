"""What every cog shares: GM checks and autocomplete over the channel's campaign."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapter.context import caller_of, place_of, service_of

MAX_CHOICES = 25


def gm_only() -> app_commands.Check:
    """Refuse a non-GM before any work. The table service checks again; this just answers sooner."""

    async def predicate(interaction: discord.Interaction) -> bool:
        campaign = await service_of(interaction).campaign(place_of(interaction))
        if campaign is not None and not campaign.is_gm(caller_of(interaction)):
            command = interaction.command.qualified_name if interaction.command else "This"
            raise app_commands.CheckFailure(
                f"`/{command}` needs the GM. Ask a GM of this campaign, or have a GM add you with `/campaign gm add`."
            )
        return True

    return app_commands.check(predicate)


def matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Names that start with, then contain, what was typed; at most 25."""
    typed = current.casefold()
    starts = [n for n in names if n.casefold().startswith(typed)]
    contains = [n for n in names if typed in n.casefold() and n not in starts]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in (starts + contains)[:MAX_CHOICES]]


async def character_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    campaign = await service_of(interaction).campaign(place_of(interaction))
    if campaign is None:
        return []
    return matching(sorted(c.name for c in campaign.characters.values()), current)


async def own_character_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's characters first (all of them for a GM)."""
    campaign = await service_of(interaction).campaign(place_of(interaction))
    if campaign is None:
        return []
    caller = caller_of(interaction)
    mine = [c.name for c in campaign.characters.values() if campaign.is_gm(caller) or c.owner_id == caller.user_id]
    return matching(sorted(mine), current)
