"""/realm: every action of the realm ruleset, generated from its options models (see cogs/_ruleset.py).

Plus a select where a list beats typing: the campaign's spell list (``/realm spell list``) carries **Show a
spell…**, picking one shows it as ``/realm spell show`` does, for whoever listed them (``bot.adapter.pickers``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter.client import MagisterBot
from bot.adapter.pickers import OptionSelect
from bot.adapter.views import REPLY_SELECTS
from bot.table.service import Reply
from cogs._ruleset import build_group
from rules.realm import RULESET


def realm_selects(reply: Reply, owner_id: int) -> list[discord.ui.Item[Any]]:
    """Under the spell list: Show a spell…, the first 25 by name (the list is sorted)."""
    data: Any = reply.outcome.data
    spells = data.get("spells") if isinstance(data, dict) else None
    if reply.campaign is None or not isinstance(spells, list) or not spells:
        return []
    names = [str(spell.get("name", "")) for spell in spells if isinstance(spell, dict) and spell.get("name")]
    more = f" (the first 25 of {len(names)})" if len(names) > 25 else ""
    return [OptionSelect(RULESET.id, owner_id, reply.campaign.id, "spell show", "spell", names, f"Show a spell…{more}")]


async def setup(bot: MagisterBot) -> None:
    REPLY_SELECTS[RULESET.id] = realm_selects
    bot.tree.add_command(build_group(RULESET))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
