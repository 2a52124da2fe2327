"""/serpent: every action of the serpent ruleset, generated from its options models (see cogs/_ruleset.py).

Play-by-post needs little of its own here: the ruleset says whom a battle waits on
(``rules.serpent.waits``), and the core's schedule (``bot/schedule.py``) pings, reminds and,
at a response window's deadline, passes for the Magi who did not answer. What this adds is the
buttons that answer a wait, on the reply that starts it (``serpent_buttons``); they last across
restarts (``bot.views``).
"""

from __future__ import annotations

from typing import Any

from bot.client import MagisterBot
from bot.service import Reply
from bot.views import ActionButton, ReplyItem, RespondButton
from cogs._ruleset import build_group
from rules.serpent import RULESET


def serpent_buttons(reply: Reply) -> list[ReplyItem]:
    """A response window: Respond (your own Responses, shown only to you) and Pass; a Magi's turn: End turn.

    Anyone may press them: the rules then act for the presser's own Magi, and refuse whoever has no part
    in the wait (a window that does not wait on them, a turn that is not theirs).
    """
    data: Any = reply.outcome.data
    battle = data.get("battle") if isinstance(data, dict) else None
    if not isinstance(battle, dict) or reply.campaign is None or battle.get("phase") == "over":
        return []
    window = battle.get("window")
    if window:
        return [RespondButton(RULESET.id, reply.campaign.id, window["id"]), ActionButton(RULESET.id, "pass", "Pass")]
    turn = battle.get("turn")
    being = (battle.get("beings") or {}).get(turn) if turn else None
    if battle.get("phase") == "actions" and being and being.get("kind") in ("magi", "koishaka"):
        return [ActionButton(RULESET.id, "end-turn", "End turn")]
    return []


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET, reply_buttons=serpent_buttons))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
