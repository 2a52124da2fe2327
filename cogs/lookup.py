"""/lookup: every table, rule and glossary term of every book, with fuzzy autocomplete."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import place_of, send_reply, service_of
from bot.adapter.views import page_renderer, pager
from bot.table.lookup import LookupIndex, entry_page, found_note, not_found
from bot.table.service import Reply


class LookupCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="lookup", description="Look up any rule table, row or term, e.g. calamity 17")
    @app_commands.describe(term="What to look up: start typing for suggestions", page="Page of a long entry")
    async def lookup(self, interaction: discord.Interaction, term: app_commands.Range[str, 1, 100], page: int = 1):
        index = service_of(interaction).registry.lookup
        campaign = await service_of(interaction).campaign(place_of(interaction))
        ruleset = campaign.row.ruleset if campaign else None
        found = index.find(term, ruleset)
        if found is None:
            raise not_found(index, term, ruleset)
        outcome, pages = entry_page(found.entry, page)
        found_note(index, found, term, outcome)
        view = pager("lookup", interaction.user.id, outcome.data["page"], pages, index.ref(found.entry))
        await send_reply(interaction, Reply(outcome), view=view)

    @lookup.autocomplete("term")
    async def _terms(self, interaction: discord.Interaction, current: str):
        index: LookupIndex = service_of(interaction).registry.lookup
        campaign = await service_of(interaction).campaign(place_of(interaction))
        entries = index.search(current, ruleset=campaign.row.ruleset if campaign else None)
        return [app_commands.Choice(name=index.label(e), value=index.label(e)) for e in entries]


@page_renderer("lookup")
async def _entry_page(interaction: discord.Interaction, ref: str, page: int):
    outcome, pages = entry_page(service_of(interaction).registry.lookup.by_ref(ref), page)
    return outcome.card, pages


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(LookupCog(bot))
