"""The live board's card and where its message is: what :mod:`bot.adapter.posting` posts and edits.

What the board shows is the ruleset's ``board`` hook or its read-only ``board_action``, run as a player would
see it (secrets stay hidden): serpent's battle, realm's day, colors and spells in play, saga's table.
"""

from __future__ import annotations

from bot.table.secrecy import public_card
from bot.table.service import Caller, Campaign, TableService
from rules.base import Card, RuleError, Table

BOARD_VIEWER = Caller(0, "Board")  # no GM: the board is public


def board_card(service: TableService, campaign: Campaign) -> Card:
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, BOARD_VIEWER)
    own = ruleset.board(table)  # a ruleset's own board hook first, else its read-only board action
    action = ruleset.actions.get(ruleset.board_action or "")
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


async def board_message(service: TableService, campaign_id: int) -> tuple[int, int] | None:
    """The (channel id, message id) of the campaign's board, if one was posted."""
    return await service.store.board(campaign_id)


async def remember_board(service: TableService, campaign_id: int, channel_id: int, message_id: int) -> None:
    """The board now lives in this message (posted, moved, or re-posted after a deletion)."""
    await service.store.write(lambda tx: tx.set_board(campaign_id, channel_id, message_id))
