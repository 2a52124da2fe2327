"""/saga: every action of the Spell Saga ruleset, generated from its options models (see cogs/_ruleset.py).

Plus, for play-by-post, a **Next step** button on a turn post that waits for ``/saga continue``
(step 3 or step 8), running exactly that command for the person the post answered; like every
button it lasts (``bot.adapter.views``), across restarts. Reminders and deadlines are the core's
(``rules.saga.waits`` says whom the table waits on; ``bot/table/schedule.py`` pings and reminds).
"""

from __future__ import annotations

from bot.adapter.client import MagisterBot
from bot.table.service import Reply
from cogs._ruleset import build_group
from rules.saga import RULESET


def awaits_continue(reply: Reply) -> bool:
    """The table waits for `/saga continue` (place rules followed, or acknowledging the action cards)."""
    table = reply.outcome.data.get("table") if isinstance(reply.outcome.data, dict) else None
    return bool(table) and table.get("outcome") == "playing" and table.get("step") in (3, 8)


def next_step(reply: Reply) -> list[tuple[str, str]]:
    """A reply waiting for `/saga continue` carries a lasting Next step button that runs it."""
    return [("continue", "Next step")] if awaits_continue(reply) else []


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET, reply_buttons=next_step))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
