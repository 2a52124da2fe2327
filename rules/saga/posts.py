"""What every turn post shares: the table card with its kismet card, the player check, the luck recheck."""

from __future__ import annotations

from rules.base import Outcome, Table
from rules.saga import optional, turn
from rules.saga.area import Ctx, game_of, playing
from rules.saga.cards import kismet_fields, public_data, table_card
from rules.saga.harmony import LUCK_WORDS


def turn_outcome(ctx: Ctx, title: str, notes: list[str], summary: str, data: dict | None = None) -> Outcome:
    ctx.game.waiting_since, ctx.game.nudged = ctx.table.now, False  # the table waits for the player from now
    card = table_card(ctx, title, notes)
    if (
        ctx.game.luck
        and ctx.game.step in (8, 9, 10)
        and title.startswith(("Turn", "Step", "Move", "Continue", "Report"))
    ):
        kismet_fields(ctx, card)
    return Outcome(card=card, summary=summary, data={"notes": notes, "table": public_data(ctx), **(data or {})})


def recheck(ctx: Ctx, notes: list[str]) -> list[str]:
    """S12/L435: at step 8 (checked, not yet acknowledged) a change to the table re-runs the luck check."""
    game = ctx.game
    if game.step != 8 or not game.luck:
        return notes
    before = {hero: record.result for hero, record in game.luck.items()}
    turn.record_luck(ctx)
    for hero, record in game.luck.items():
        if before.get(hero) != record.result:
            notes.append(f"Luck checked again: {hero} now has {LUCK_WORDS[record.result]} ({record.reason}).")
    return notes


def turn_ctx(table: Table) -> Ctx:
    ctx = game_of(table)
    playing(ctx)
    ctx.require_player()
    return ctx


def names(text: str | None) -> list[str]:
    return optional.split_names(text)
