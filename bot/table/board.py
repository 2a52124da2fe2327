"""The live board: one message per campaign in its channel, edited after each change.

A GM posts it with ``/campaign board`` (again: it moves to the bottom). After every change the bot marks the
campaign's board stale; :class:`BoardKeeper` re-renders it once per ``delay`` however many changes came in that
time (a burst of actions makes one edit, well inside Discord's rate limits). If the message was deleted, the
next change posts a new one. What the board shows is the ruleset's ``board`` hook or its read-only
``board_action``, run as a player would see it (secrets stay hidden): serpent's battle, realm's day, colors
and spells in play, saga's table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.table.service import Caller, Campaign, TableService
from rules.base import Card, RuleError

if TYPE_CHECKING:
    pass

log = logging.getLogger("magister.board")

BOARD_VIEWER = Caller(0, "Board")  # no GM: the board is public


def board_card(service: TableService, campaign: Campaign) -> Card:
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, BOARD_VIEWER)
    own = ruleset.board(table)  # a ruleset's own board hook first, else its read-only board action
    action = ruleset.actions.get(ruleset.board_action or "")
    if own is None and action is None:
        raise RuleError(f"{ruleset.name} has no live board yet. Its commands show the table as usual.")
    try:
        card = own if own is not None else action.run(table, action.options()).card  # type: ignore[union-attr]
    except RuleError as error:  # nothing to show yet (no battle...): say so on the board
        card = Card(title=f"Board: {campaign.row.name}", description=str(error))
    return card.model_copy(update={"footer": (card.footer + " · " if card.footer else "") + "Live board"})
