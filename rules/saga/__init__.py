"""Spell Saga 2nd Edition, the demo "All Our Uncounted Stars" (the Spell Saga demo rulebook; RULINGS 18-19).

A solo card game the bot keeps for the player, one post at a time: the deck and
its secret order, five piles with their stacks, the hand, the hero token and the
step pointer of the ten mandatory steps. Modules, in reading order: ``book`` (the
data and the card model), ``harmony`` (order, bonus costs, luck), ``state``,
``area`` (piles and primitives), ``turn`` (setup and the steps), ``battle``,
``optional`` (purchases, items), ``bonus``, ``primitives`` (search, put), ``odds``, ``catalog``,
``cards`` (what the channel reads), ``waits`` (who the table waits on), then the commands: ``posts``
(what every turn post shares), ``catalog_actions``, ``turn_actions``, ``optional_actions``, ``checks``,
and ``actions`` (the registry).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import BaseModel

from rules.base import (
    Action,
    BenchCase,
    BenchStep,
    Card,
    CharacterRecord,
    LookupEntry,
    OrderOffer,
    OrderRun,
    Outcome,
    Replied,
    ReplyItem,
    Ruleset,
    StandingOrder,
    Table,
    Wait,
)
from rules.saga import lookup, replies, web
from rules.saga import waits as saga_orders
from rules.saga.actions import ACTIONS
from rules.saga.area import Ctx
from rules.saga.book import SagaBook
from rules.saga.cards import public_data, table_card
from rules.saga.guide import FIRST_SESSION, GETTING_STARTED, HELP_EXAMPLES
from rules.saga.state import SagaSettings, SagaSheet, SagaState
from rules.saga.suggest import suggestions
from rules.saga.waits import saga_waits


class SagaRuleset(Ruleset):
    id: ClassVar[str] = "saga"
    page_lists = web.page_lists  # the campaign's web page: rules/saga/web.py
    name: ClassVar[str] = "Spell Saga (solo card game)"
    sheet_model: ClassVar[type[BaseModel]] = SagaSheet
    state_model: ClassVar[type[BaseModel]] = SagaState
    settings_model: ClassVar[type[BaseModel]] = SagaSettings
    book_model: ClassVar[type[BaseModel] | None] = SagaBook
    getting_started = GETTING_STARTED
    help_examples = HELP_EXAMPLES
    first_session = FIRST_SESSION
    actions: ClassVar[dict[str, Action]] = ACTIONS

    board_action = "table"
    character_option = None  # solo play: the hero pile is no one's to pick

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """A post waiting for ``/saga continue`` (step 3 or 8): Next step."""
        return replies.reply_items(replied)

    def waits(self, table: Table) -> list[Wait]:
        """The player, for the post the step pointer needs next; nobody once the game is won or lost."""
        return saga_waits(table)

    orders: ClassVar[tuple[OrderOffer, ...]] = saga_orders.ORDERS

    def check_order(self, table: Table, order: StandingOrder) -> StandingOrder:
        return saga_orders.check_order(table, order)

    def order_choices(self, table: Table, order: str, current: str) -> list[str]:
        """The cards in hand, for ``end-turn``'s cards to cycle."""
        return saga_orders.order_choices(table, current)

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """Step 10: the turn ends, cycling the named cards the source limit needs."""
        return saga_orders.run_order(table, wait, order)

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        return list(lookup.entries(book))

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        return suggestions(table, action, option, current)

    def character_summary(self, record: CharacterRecord) -> str:
        return f"{record.name} (Spell Saga hero pile)"

    def character_card(self, record: CharacterRecord) -> Card:
        return Card(title=record.name, description="The hero pile of a Spell Saga table: `/saga table` shows it.")

    def show_character(self, table: Table, record: CharacterRecord) -> Outcome:
        """The table as anyone may see it: every pile face-up, the deck only as a count (its order is secret)."""
        state: SagaState = table.state
        game = state.game
        if game is None or game.character.casefold() != record.name.casefold():
            return Outcome(
                card=self.character_card(record),
                summary=f"showed {record.name}",
                data={"name": record.name, "owner_id": record.owner_id, "sheet": {"hero": record.name}},
            )
        ctx = Ctx(table, state, game, table.settings)
        card = table_card(ctx, f"{record.name}: the table", [])
        return Outcome(
            card=card,
            summary=f"showed {record.name}",
            data={"name": record.name, "owner_id": record.owner_id, "sheet": public_data(ctx)},
        )

    def bench_case(self) -> BenchCase:
        """A turn's heaviest post: steps 4-7 (draws, harmonic check, luck) and the table with its kismet card."""
        return BenchCase(
            title="saga continue (steps 4-7 and the kismet card)",
            setup=(BenchStep("start", {"deck": "sample", "seed": 168}), BenchStep("move", {"to": "Sample Cellar"})),
            measured=BenchStep("continue"),
        )


RULESET = SagaRuleset()
