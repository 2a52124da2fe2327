"""Is a GM channel the GMs' alone? Read from the channel's permission overwrites and the server's roles, as the
bot's cache holds them (``/campaign gmchannel`` and the ``/campaign gm pick`` channel picker both ask).

The table layer knows no Discord, so this is the adapter's. Who can read a text channel, in Discord's own order
(``GuildChannel.permissions_for``): @everyone's permissions, then the channel's @everyone overwrite; a role adds
its permissions and its overwrite; a member's own overwrite comes last. The ruling:

- **refused** when @everyone can view the channel (every player can), or when a member who is not a GM of the
  campaign has an overwrite of their own that lets them view it (a player, named);
- **set, with a warning in plain words** when a role can view it: Magister cannot see who holds a role (it asks
  for no member list), and a "GM" role is a good way to run a GM channel, so it names the roles and asks the GM to
  make sure only GMs hold them. Roles that administer or manage the server are not named: Magister lets their
  members act as GM anyway; nor are roles Discord manages for bots;
- a **private thread** is read only by those added to it: no check. A channel the bot cannot see at all is set
  with a warning that it could not check (and secret results would not reach it either).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import discord

from rules.base import RuleError


@dataclass
class Readers:
    """Who besides the GMs can view a channel."""

    everyone: bool = False
    roles: list[discord.Role] = field(default_factory=list)
    members: list[int] = field(default_factory=list)


def readers(channel: Any, gm_ids: Collection[int], bot_id: int | None = None) -> Readers | None:
    """Who besides the GMs (and the bot) can view ``channel`` (a cached guild channel); None if it cannot tell."""
    guild = channel.guild
    everyone = guild.default_role
    if everyone is None:
        return None
    if channel.permissions_for(everyone).view_channel:
        return Readers(everyone=True)
    roles = [
        role
        for role in guild.roles
        if not role.is_default()
        and not role.managed
        and not (role.permissions.administrator or role.permissions.manage_guild)
        and channel.permissions_for(role).view_channel
    ]
    members = [
        target.id
        for target, allowed in channel.overwrites.items()
        if not isinstance(target, discord.Role)
        and getattr(target, "type", None) is not discord.Role
        and allowed.view_channel
        and target.id not in gm_ids
        and target.id != bot_id
    ]
    return Readers(roles=roles, members=members)


async def check_gm_channel(interaction: discord.Interaction, channel: Any, gm_ids: Collection[int]) -> str:
    """Refuse a GM channel that players can read (a RuleError saying why); else "" when only the GMs can read
    it, or a warning to show with the change."""
    if channel.type is discord.ChannelType.private_thread:
        return ""
    where = f"<#{channel.id}>"
    guild = interaction.guild
    resolved = guild.get_channel(channel.id) if guild is not None else None
    bot_id = interaction.client.user.id if interaction.client.user is not None else None
    found = readers(resolved, gm_ids, bot_id) if resolved is not None else None
    if found is None:
        return (
            f"I cannot see who may read {where}: make sure only the GMs can, and that I may post there, "
            "or secret results will not stay secret."
        )
    if found.everyone:
        raise RuleError(
            f"Everyone in this server can read {where} (@everyone may View Channel there), so secret results "
            "would reach the players. Pick a channel only the GMs can read, or leave `channel:` out to send them "
            "to the GMs' direct messages."
        )
    if found.members:
        named = ", ".join(f"<@{member}>" for member in found.members[:10])
        one = len(found.members) == 1
        raise RuleError(
            f"{named} can read {where} and {'is not a GM' if one else 'are not GMs'} of this campaign, so secret "
            f"results would reach {'them' if one else 'them all'}. Take away their View Channel there, or make "
            f"{'them a GM' if one else 'them GMs'} with `/campaign gm add` first."
        )
    if found.roles:
        named = ", ".join(f"<@&{role.id}>" for role in found.roles[:10])
        which = "that role" if len(found.roles) == 1 else "those roles"
        return (
            f"Members with {named} can read {where}: if any of them is a player, they will see the secret "
            f"results. Make sure only GMs hold {which}."
        )
    return ""


def with_warning(reply: Any, warning: str) -> Any:
    """The reply to a GM-channel change, with the check's warning in it (and in its data)."""
    if warning:
        card = reply.outcome.card
        card.description = f"{card.description}\n⚠️ {warning}".strip()
        reply.outcome.data["warning"] = warning
    return reply
