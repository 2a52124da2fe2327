"""Pickers where a list beats typing: co-GMs, the GM channel, a sheet from the character list, and the characters a
command left without one could act with (``character_choice``; the lists on replies are ``bot.adapter.views``).

Each picker is a lasting ``DynamicItem`` whose ``custom_id`` names its owner and the
campaign it was made for, so it still works after a restart and refuses plainly once
that campaign has ended. What is picked goes through the same ``bot.table.campaigns`` call
as ``/campaign gm add`` and ``/campaign gmchannel``: the same checks, log and undo.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.views import OptionSelect, Owned
from bot.table import campaigns
from bot.table.secrecy import suggestions
from bot.table.service import Campaign, Reply
from rules.base import Card, Outcome, RuleError

MAX_PICKED_GMS = 5
GM_CHANNEL_TYPES = [discord.ChannelType.text, discord.ChannelType.private_thread]


async def _same_campaign(interaction: discord.Interaction, campaign_id: int) -> None:
    campaign = await service_of(interaction).campaign(place_of(interaction))
    if campaign is None or campaign.row.id != campaign_id:
        raise RuleError("That campaign has ended here; nothing was changed. Run the command again.")


class GMUserPicker(Owned, discord.ui.DynamicItem[discord.ui.UserSelect], template=r"m:gmu:(?P<owner>\d+):(?P<c>\d+)"):
    """ "Add co-GMs…": each member picked who is not a GM yet becomes one, one logged change each."""

    def __init__(self, owner_id: int, campaign_id: int) -> None:
        super().__init__(
            discord.ui.UserSelect(
                placeholder="Add co-GMs…",
                custom_id=f"m:gmu:{owner_id}:{campaign_id}",
                min_values=1,
                max_values=MAX_PICKED_GMS,
            )
        )
        self.owner_id, self.campaign_id = owner_id, campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.UserSelect, match: re.Match[str]
    ) -> GMUserPicker:
        return cls(int(match["owner"]), int(match["c"]))

    async def choose(self, interaction: discord.Interaction) -> None:
        await _same_campaign(interaction, self.campaign_id)
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
        campaign = await service.require_campaign(place)
        picked = [user for user in self.item.values if not user.bot]
        new = [user for user in picked if user.id not in campaign.row.gm_ids]
        if not new:
            names = ", ".join(user.display_name for user in picked) or "Bots"
            raise RuleError(f"{names}: already GMs of this campaign (bots cannot be GMs). Nothing was changed.")
        for user in new:
            reply = await campaigns.gm_add(service, place, caller, user.id, user.display_name)
            await send_reply(interaction, reply)


class GMChannelPicker(
    Owned, discord.ui.DynamicItem[discord.ui.ChannelSelect], template=r"m:gmc:(?P<owner>\d+):(?P<c>\d+)"
):
    """ "Secret results go to…": the GM channel, as ``/campaign gmchannel channel:`` sets it."""

    def __init__(self, owner_id: int, campaign_id: int) -> None:
        super().__init__(
            discord.ui.ChannelSelect(
                placeholder="Secret results go to…",
                custom_id=f"m:gmc:{owner_id}:{campaign_id}",
                channel_types=GM_CHANNEL_TYPES,
            )
        )
        self.owner_id, self.campaign_id = owner_id, campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.ChannelSelect, match: re.Match[str]
    ) -> GMChannelPicker:
        return cls(int(match["owner"]), int(match["c"]))

    async def choose(self, interaction: discord.Interaction) -> None:
        await _same_campaign(interaction, self.campaign_id)
        (channel,) = self.item.values
        if channel.type not in GM_CHANNEL_TYPES:  # Discord filters by type; a crafted payload is refused here too
            raise RuleError("Pick a text channel (or a private thread) that only the GMs can read.")
        reply = await campaigns.gm_channel(
            service_of(interaction), place_of(interaction), caller_of(interaction), channel.id
        )
        await send_reply(interaction, reply)


class SheetPicker(Owned, discord.ui.DynamicItem[discord.ui.Select], template=r"m:sheet:(?P<owner>\d+):(?P<c>\d+)"):
    """ "Show a sheet…" under the character list: the sheet as ``/character show`` shows it to the picker."""

    def __init__(self, owner_id: int, campaign_id: int, names: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=name[:100], value=name[:100]) for name in (names or [])[:25]]
        super().__init__(
            discord.ui.Select(
                placeholder="Show a sheet…",
                custom_id=f"m:sheet:{owner_id}:{campaign_id}",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.owner_id, self.campaign_id = owner_id, campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> SheetPicker:
        return cls(int(match["owner"]), int(match["c"]))

    async def choose(self, interaction: discord.Interaction) -> None:
        await _same_campaign(interaction, self.campaign_id)
        (name,) = self.item.values
        reply = await campaigns.character_show(
            service_of(interaction), place_of(interaction), caller_of(interaction), name
        )
        await send_reply(interaction, reply)


async def character_choice(
    interaction: discord.Interaction, ruleset: str, action: str, options: dict[str, Any]
) -> tuple[str, discord.ui.View] | None:
    """A command that needed a character and was given none (nor anything else): the characters the actor may
    act with (a GM: every one), one pick away from running the same command with it: the words and the list, or
    None when it does not fit.
    """
    service = service_of(interaction)
    entry = service.registry.get(ruleset).ruleset
    fields = entry.actions[action].options.model_fields
    option = entry.character_option if entry.character_option in fields else None
    if option is None or any(value is not None for value in options.values()):
        return None  # other options typed: re-running with only a character would drop them
    campaign = await service.campaign(place_of(interaction))
    if campaign is None or not OptionSelect.fits(ruleset, action, option):
        return None
    table = service.table_for(campaign, caller_of(interaction))
    names = suggestions(entry, table, action, option, "") or (
        sorted(c.name for c in campaign.characters.values()) if table.actor.is_gm else []
    )
    if not names:
        return None
    view = discord.ui.View(timeout=None)
    label = f"Pick the {option}…" + (f" (the first 25 of {len(names)})" if len(names) > 25 else "")
    view.add_item(OptionSelect(ruleset, interaction.user.id, campaign.row.id, action, option, names, label))
    return f"Or pick the {option} to act with below.", view


def sheet_picker(owner_id: int, campaign: Campaign) -> discord.ui.View | None:
    """A list of the campaign's characters (the first 25 by name), or None when there are none."""
    names = sorted((c.name for c in campaign.characters.values()), key=str.casefold)
    if not names:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SheetPicker(owner_id, campaign.row.id, names))
    return view


def gm_pickers(owner_id: int, campaign_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GMUserPicker(owner_id, campaign_id))
    view.add_item(GMChannelPicker(owner_id, campaign_id))
    return view


def gm_card(campaign: Campaign) -> Reply:
    """Who runs the table now, above the pickers that change it."""
    row = campaign.row
    card = Card(title=f"GMs of {row.name}")
    card.add("GMs", ", ".join(f"<@{gm}>" for gm in row.gm_ids))
    card.add("Secret results go to", f"<#{row.gm_channel_id}>" if row.gm_channel_id else "the GMs' direct messages")
    card.footer = "Pick below. /campaign gm remove takes a GM off; /campaign gmchannel with no channel goes back to DMs"
    data = {"gm_ids": row.gm_ids, "gm_channel_id": row.gm_channel_id}
    return Reply(Outcome(card=card, summary="viewed GMs", data=data, ephemeral=True), row)


PICKER_ITEMS = (GMUserPicker, GMChannelPicker, SheetPicker)
