"""/saga: every action of the Spell Saga ruleset, generated from its options models (see cogs/_ruleset.py)."""

from __future__ import annotations

from bot.client import MagisterBot
from cogs._ruleset import build_group
from rules.saga import RULESET


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
