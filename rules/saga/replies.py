"""The Next step button: a turn post that waits for ``/saga continue`` (step 3 or step 8) carries a lasting button
that runs exactly that command. Reminders and deadlines are the core's (``rules.saga.waits`` says whom the table
waits on). Pure: the Discord adapter makes the button.
"""

from __future__ import annotations

from rules.base import Replied, ReplyItem, RunButton


def awaits_continue(replied: Replied) -> bool:
    """The table waits for `/saga continue` (place rules followed, or acknowledging the action cards)."""
    table = replied.data.get("table")
    return isinstance(table, dict) and table.get("outcome") == "playing" and table.get("step") in (3, 8)


def reply_items(replied: Replied) -> list[ReplyItem]:
    return [RunButton("continue", "Next step")] if awaits_continue(replied) else []
