"""Buttons shared by several commands: paging and confirmation.

Only the person who ran the command may press them; anyone else is told so. An
error in a button goes through the same handler as a command's (``bot.errors``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.errors import report_error
from bot.render import to_embed
from rules.base import Card

PageRenderer = Callable[[int], Awaitable[tuple[Card, int]]]  # page number -> (card, page count)


class MagisterView(discord.ui.View):
    """Every view of the bot: its errors reach the user as a command's do, never as "interaction failed"."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item) -> None:
        await report_error(interaction, error)


class OwnedView(MagisterView):
    def __init__(self, owner_id: int, *, timeout: float = 600) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(
            "These buttons belong to whoever ran the command. Run it yourself to get your own.", ephemeral=True
        )
        return False


class Pager(OwnedView):
    """Previous/Next buttons that re-render a page in place."""

    def __init__(self, owner_id: int, render: PageRenderer, page: int, pages: int) -> None:
        super().__init__(owner_id)
        self.render = render
        self.page = page
        self.pages = pages
        self._sync()

    def _sync(self) -> None:
        self.previous.disabled = self.page <= 1
        self.next.disabled = self.page >= self.pages

    async def _show(self, interaction: discord.Interaction, page: int) -> None:
        card, self.pages = await self.render(page)
        self.page = max(1, min(page, self.pages))
        self._sync()
        await interaction.response.edit_message(embed=to_embed(card), view=self)

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self._show(interaction, self.page - 1)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self._show(interaction, self.page + 1)


class Confirm(OwnedView):
    """Confirm/Cancel for a step that is hard to take back."""

    def __init__(self, owner_id: int, on_confirm: Callable[[discord.Interaction], Awaitable[None]]) -> None:
        super().__init__(owner_id, timeout=300)
        self.on_confirm = on_confirm

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.on_confirm(interaction)
        self.stop()  # only once it worked: after an error the buttons still answer

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(
            embed=to_embed(Card(title="Cancelled", description="Nothing was changed.")), view=None
        )
