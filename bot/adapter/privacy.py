"""The Discord side of a member's data (``bot.table.privacy``): the lasting **Confirm** of ``/privacy forget`` (a
:class:`~bot.adapter.views.ConfirmButton` of kind ``forget``) and of ``/campaign player forget``
(:class:`ForgetPlayerButton`, which names the campaign and the member it is about)."""

from __future__ import annotations

import re

import discord

from bot.adapter.context import caller_of, place_of, service_of
from bot.adapter.render import to_embed
from bot.adapter.views import ConfirmButton, LastingButton
from bot.table import privacy
from rules.base import Card


async def _forget_me(interaction: discord.Interaction, _: int, __: int | None) -> Card:
    """Confirm on ``/privacy forget``: only its owner can press it, and it forgets whoever that is."""
    reply = await privacy.forget_me(service_of(interaction), caller_of(interaction))
    interaction.extras["outcome"] = reply.outcome
    return reply.outcome.card


ConfirmButton.CONFIRMATIONS["forget"] = _forget_me


class ForgetPlayerButton(LastingButton, template=r"m:fg:(?P<owner>\d+):(?P<c>\d+):(?P<member>\d+):(?P<choice>[yn])"):
    """Confirm or Cancel on ``/campaign player forget``: for the GM who asked, about one member in one campaign
    (a press after that campaign ended changes nothing and says so)."""

    def __init__(self, owner_id: int, campaign_id: int, member_id: int, choice: str) -> None:
        confirm = choice == "y"
        super().__init__(
            discord.ui.Button(
                label="Confirm" if confirm else "Cancel",
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"m:fg:{owner_id}:{campaign_id}:{member_id}:{choice}",
            )
        )
        self.owner_id, self.campaign_id, self.member_id, self.confirm = owner_id, campaign_id, member_id, confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ForgetPlayerButton:
        return cls(int(match["owner"]), int(match["c"]), int(match["member"]), match["choice"])

    async def press(self, interaction: discord.Interaction) -> None:
        if not self.confirm:
            await interaction.response.edit_message(
                embed=to_embed(Card(title="Cancelled", description="Nothing was changed.")), view=None
            )
            return
        place = place_of(interaction)
        reply = await privacy.forget_player(
            service_of(interaction), place, caller_of(interaction), self.member_id, self.campaign_id
        )
        interaction.extras["outcome"] = reply.outcome
        await interaction.response.edit_message(embed=to_embed(reply.outcome.card), view=None)
        boards = getattr(interaction.client, "boards", None)
        if boards is not None and reply.campaign is not None:  # owners may show on the board
            boards.touch(reply.campaign.id, place)


def forget_player_view(owner_id: int, campaign_id: int, member_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetPlayerButton(owner_id, campaign_id, member_id, "y"))
    view.add_item(ForgetPlayerButton(owner_id, campaign_id, member_id, "n"))
    return view


PRIVACY_ITEMS = (ForgetPlayerButton,)
