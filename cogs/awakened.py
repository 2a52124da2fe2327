"""/awakened: every action of the awakened ruleset, generated from its options models (see cogs/_ruleset.py)."""

from __future__ import annotations

from bot.adapter.client import MagisterBot
from cogs._ruleset import build_group
from rules.awakened import RULESET


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
