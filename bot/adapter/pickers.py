"""Pickers where a list beats typing: co-GMs, the GM channel, a sheet from the character list, and the known
things (spells, targets) an action's option takes, on the replies where they help (``OptionSelect``).

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
from bot.adapter.forms import Owned
from bot.adapter.views import LastingButton, buttons_for
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


class OptionSelect(
    Owned,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"m:opt:(?P<r>[a-z]+):(?P<owner>\d+):(?P<c>\d+):(?P<action>[a-z0-9.-]+):(?P<option>[a-z_]+)"
    r"(?:>(?P<then>[a-z_]+))?(?::(?P<key>[a-z_]+)=(?P<value>[^:]{1,30}))?",
):
    """A list of known things (spells, targets, characters) for one option of a ruleset action: picking one runs
    that action with it, as the command would (``/runic cast spell:<picked> mage:<fixed>``), for its owner only.

    The choices are in the message; the ``custom_id`` says which action and option, and at most one option that
    stays fixed, so the pick works after a restart, and is refused plainly once the campaign has ended. With
    ``then``, a pick does not run yet: it offers (only to the picker) a second list, for the option ``then``, the
    first pick kept fixed (a spell, then its target); that list starts with "No target" (``NONE``).
    """

    def __init__(
        self,
        ruleset: str,
        owner_id: int,
        campaign_id: int,
        action: str,
        option: str,
        choices: list[str],
        placeholder: str = "Pick…",
        fixed: tuple[str, str] | None = None,
        then: str | None = None,
    ) -> None:
        custom_id = f"m:opt:{ruleset}:{owner_id}:{campaign_id}:{action.replace(' ', '.')}:{option}"
        if then is not None:
            custom_id += f">{then}"
        if fixed is not None:
            custom_id += f":{fixed[0]}={fixed[1]}"
        options = [discord.SelectOption(label=name[:100], value=name[:100]) for name in choices[:25]]
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder[:150],
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.ruleset, self.owner_id, self.campaign_id = ruleset, owner_id, campaign_id
        self.action, self.option, self.fixed, self.then = action, option, fixed, then

    @staticmethod
    def fits(ruleset: str, action: str, option: str, fixed: tuple[str, str] | None = None) -> bool:
        """Whether a custom_id for these stays inside Discord's 100 characters with any owner (a name may not)."""
        room = len(f"m:opt:{ruleset}:{'9' * 20}:{'9' * 8}:{action}:{option}")
        if fixed is not None:
            room += 2 + len(fixed[0]) + len(fixed[1])
            if len(fixed[1]) > 30 or ":" in fixed[1]:
                return False
        return room <= 100

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> OptionSelect:
        fixed = (match["key"], match["value"]) if match["key"] else None
        action = match["action"].replace(".", " ")
        owner, campaign = int(match["owner"]), int(match["c"])
        return cls(match["r"], owner, campaign, action, match["option"], [], fixed=fixed, then=match["then"])

    async def choose(self, interaction: discord.Interaction) -> None:

        await _same_campaign(interaction, self.campaign_id)
        (value,) = self.item.values
        if self.then is not None:
            await offer(interaction, self.ruleset, self.action, self.then, fixed=(self.option, value))
            return
        options = dict([self.fixed] if self.fixed else [])
        if value != NONE:
            options[self.option] = value
        service = service_of(interaction)
        reply = await service.run(place_of(interaction), caller_of(interaction), self.ruleset, self.action, options)
        await send_reply(interaction, reply, view=buttons_for(self.ruleset, reply, interaction.user.id))


NONE = "-"  # the value of "No target": the option is left out


async def offer(
    interaction: discord.Interaction,
    ruleset: str,
    action: str,
    option: str,
    *,
    fixed: tuple[str, str] | None = None,
    then: str | None = None,
) -> None:
    """Show whoever acts, only to them, the choices they have for ``option`` of ``action`` now (the ruleset's
    own suggestions, as autocomplete lists them: their own prepared spells, the beings in the battle)."""
    service = service_of(interaction)
    campaign = await service.require_campaign(place_of(interaction))
    ruleset_ = service.registry.get(ruleset).ruleset
    choices = suggestions(ruleset_, service.table_for(campaign, caller_of(interaction)), action, option, "")
    verb = action.split()[-1]
    if fixed is not None:
        if not OptionSelect.fits(ruleset, action, option, fixed):
            raise RuleError(f'Type this one: `/{ruleset} {action} {fixed[0]}:"{fixed[1]}" {option}:…`.')
        choices = [NONE, *choices[:24]]
    if not choices:
        raise RuleError(f"You have nothing to {verb} now. `/{ruleset} {action}` says why when you type it.")
    select = OptionSelect(
        ruleset,
        interaction.user.id,
        campaign.row.id,
        action,
        option,
        choices,
        f"{fixed[1]}: {option}…" if fixed else f"{verb.capitalize()}…",
        fixed=fixed,
        then=then,
    )
    if fixed is not None:  # "No target" reads better than its value
        select.item.options[0].label = f"No {option}"
    view = discord.ui.View(timeout=None)
    view.add_item(select)
    what = f"{fixed[1]}: pick the {option}" if fixed else f"Pick what to {verb}"
    await interaction.response.send_message(f"{what} (only you can see this list).", view=view, ephemeral=True)
    view.stop()


class OfferButton(
    LastingButton,
    template=r"m:ofr:(?P<r>[a-z]+):(?P<c>\d+):(?P<action>[a-z0-9.-]+):(?P<option>[a-z_]+)(?:>(?P<then>[a-z_]+))?",
):
    """A button on a public message (a turn: **Cast**) that shows whoever presses it their own choices, only to them.

    What a player could pick may be secret (a Magus's prepared spells), so the public message carries this
    button and the list is the presser's own.
    """

    def __init__(self, ruleset: str, campaign_id: int, action: str, option: str, label: str, then: str | None = None):
        custom_id = f"m:ofr:{ruleset}:{campaign_id}:{action.replace(' ', '.')}:{option}" + (f">{then}" if then else "")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id))
        self.ruleset, self.campaign_id, self.action, self.option, self.then = ruleset, campaign_id, action, option, then

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> OfferButton:
        action = match["action"].replace(".", " ")
        label = item.label or action.capitalize()
        return cls(match["r"], int(match["c"]), action, match["option"], label, match["then"])

    async def press(self, interaction: discord.Interaction) -> None:
        await _same_campaign(interaction, self.campaign_id)
        await offer(interaction, self.ruleset, self.action, self.option, then=self.then)


CHARACTER_OPTIONS = ("character", "mage", "magi")


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
    option = next((name for name in CHARACTER_OPTIONS if name in fields), None)
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


PICKER_ITEMS = (GMUserPicker, GMChannelPicker, SheetPicker, OptionSelect, OfferButton)
