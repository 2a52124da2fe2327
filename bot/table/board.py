"""The live board: one message per campaign in its channel, edited after each change.

A GM posts it with ``/campaign board`` (again: it moves to the bottom). After every change the bot marks the
campaign's board stale; :class:`BoardKeeper` re-renders it once per ``delay`` however many changes came in that
time (a burst of actions makes one edit, well inside Discord's rate limits). If the message was deleted, the
next change posts a new one. What the board shows is a ruleset's own read-only action, run as a player would
see it (secrets stay hidden): serpent's battle, realm's day, colors and spells in play, saga's table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.table.secrecy import public_card
from bot.table.service import Caller, Campaign, TableService
from rules.base import Card, RuleError, Table

if TYPE_CHECKING:
    pass

log = logging.getLogger("magister.board")

# ruleset -> its read-only action whose card is the board (extend as rulesets gain one; runic has none yet)
BOARD_ACTIONS: dict[str, str] = {"serpent": "battle board", "realm": "spells", "saga": "table"}
BOARD_VIEWER = Caller(0, "Board")  # no GM: the board is public


def board_card(service: TableService, campaign: Campaign) -> Card:
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, BOARD_VIEWER)
    own = ruleset.board(table)  # a ruleset's own board hook first, else its read-only board action
    name = BOARD_ACTIONS.get(ruleset.id)
    action = ruleset.actions.get(name or "")
    if own is None and action is None:
        raise RuleError(f"{ruleset.name} has no live board yet. Its commands show the table as usual.")

    def drawn(view: Table) -> Card:
        mine = ruleset.board(view)
        return mine if mine is not None else action.run(view, action.options()).card  # type: ignore[union-attr]

    try:
        card = own if own is not None else drawn(table)
        card = public_card(drawn, table, ruleset, card)  # the channel reads it: nobody's secrets
    except RuleError as error:  # nothing to show yet (no battle...): say so on the board
        card = Card(title=f"Board: {campaign.row.name}", description=str(error))
    return card.model_copy(update={"footer": (card.footer + " · " if card.footer else "") + "Live board"})
