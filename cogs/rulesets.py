"""One ``/<id>`` command per ruleset, generated from its actions (``cogs._ruleset.build_group``).

No ruleset is listed here: every ruleset the table service's registry discovered (``rules/<id>/`` packages and
installed ``magister.rulesets`` entry points, ``bot/table/registry.py``) gets its command tree, and what its
replies carry, its board, picture and help come from its own declarations (``rules.base.Ruleset``).
"""

from __future__ import annotations

from bot.adapter.client import MagisterBot
from cogs._ruleset import build_group


async def setup(bot: MagisterBot) -> None:
    for loaded in bot.service.registry:
        bot.tree.add_command(build_group(loaded.ruleset))


async def teardown(bot: MagisterBot) -> None:
    for loaded in bot.service.registry:
        bot.tree.remove_command(loaded.id)
