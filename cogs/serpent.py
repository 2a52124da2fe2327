"""/serpent: every action of the serpent ruleset, generated from its options models (see cogs/_ruleset.py).

Play-by-post needs nothing of its own here: the ruleset says whom a battle waits on
(``rules.serpent.waits``), and the core's schedule (``bot/schedule.py``) pings, reminds and,
at a response window's deadline, passes for the Magi who did not answer.
"""

from __future__ import annotations

from bot.client import MagisterBot
from cogs._ruleset import build_group
from rules.serpent import RULESET


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
