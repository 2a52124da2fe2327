"""/runic: every action of the runic ruleset, generated from its options models (see cogs/_ruleset.py).

Plus a select where a list beats typing: a mage's sheet (``/runic mage show``), shown to its player or a GM,
carries **Cast a spell…**, the mage's own saved spells; picking one runs ``/runic cast spell:<it> mage:<mage>``
for whoever ran the command (``bot.adapter.pickers.OptionSelect``: it lasts across restarts). ``/runic`` is near
Discord's size limit for one command, so this adds no option to it.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter.client import MagisterBot
from bot.adapter.pickers import OptionSelect
from bot.adapter.views import REPLY_SELECTS
from bot.table.service import Reply
from cogs._ruleset import build_group
from rules.runic import RULESET


def runic_selects(reply: Reply, owner_id: int) -> list[discord.ui.Item[Any]]:
    """On a mage's sheet, for its player (or a GM): Cast a spell…, the mage's saved spells by name."""
    data: Any = reply.outcome.data
    campaign = reply.campaign
    if campaign is None or not isinstance(data, dict) or not isinstance(data.get("sheet"), dict):
        return []
    mage = str(data.get("mage") or "")
    if data.get("owner_id") != owner_id and owner_id not in campaign.gm_ids:
        return []  # anyone may read a sheet; only its player (or a GM) casts from it
    spells = sorted((s.get("name", "") for s in (data["sheet"].get("spells") or {}).values()), key=str.casefold)
    spells = [name for name in spells if name]
    if not spells or not OptionSelect.fits(RULESET.id, "cast", "spell", ("mage", mage)):
        return []
    placeholder = f"Cast a spell as {mage}…"
    return [OptionSelect(RULESET.id, owner_id, campaign.id, "cast", "spell", spells, placeholder, ("mage", mage))]


async def setup(bot: MagisterBot) -> None:
    REPLY_SELECTS[RULESET.id] = runic_selects
    bot.tree.add_command(build_group(RULESET))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
