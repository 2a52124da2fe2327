"""How a serpent action runs: on the table's own state, with the RNG put back if it is refused.

No copy is made: the table service validates a fresh state for every action and
saves nothing from a refused one, so a half-done action is simply dropped (a
deep copy of an 18 KB state was most of a cast's CPU). Undo is the table
service's: it keeps what each action changed in the log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.base import Card, CharacterRecord, Outcome, RuleError, Table, Tone
from rules.serpent.book import SerpentBook
from rules.serpent.cards import action_card, battle_status
from rules.serpent.context import Ctx
from rules.serpent.engine import advance
from rules.serpent.magi import MagiSheet
from rules.serpent.state import Battle, Being, SerpentSettings, SerpentState


def settings_of(table: Table) -> SerpentSettings:
    if isinstance(table.settings, SerpentSettings):
        return table.settings
    return SerpentSettings.model_validate(table.settings or {})


def state_of(table: Table) -> SerpentState:
    if not isinstance(table.state, SerpentState):
        raise TypeError("the serpent ruleset expects a SerpentState")
    return table.state


def book_of(table: Table) -> SerpentBook:
    if not isinstance(table.book, SerpentBook):
        raise TypeError("the serpent ruleset expects a SerpentBook")
    return table.book


def sheet_of(record: CharacterRecord) -> MagiSheet:
    return record.sheet if isinstance(record.sheet, MagiSheet) else MagiSheet.model_validate(record.sheet)


def make_ctx(table: Table, state: SerpentState, battle: Battle | None = None) -> Ctx:
    return Ctx(
        battle=battle or state.battle or Battle(),
        state=state,
        settings=settings_of(table),
        book=book_of(table),
        rng=table.rng,
        now=table.now,
    )


def with_battle(
    table: Table,
    action: str,
    run: Callable[[Ctx], str],
    *,
    tone: Tone = "neutral",
    extra: Callable[[Ctx], dict[str, Any]] | None = None,
) -> Outcome:
    """Run a battle action; a refused one raises, and its half-done changes are never saved."""
    state = state_of(table)
    battle = state.battle
    if battle is None:
        raise RuleError("There is no battle in this channel. A GM starts one with /serpent battle start.")
    ctx = make_ctx(table, state, battle)
    rng_state = table.rng.getstate()
    try:
        title = run(ctx)
        advance(ctx)
    except RuleError:
        table.rng.setstate(rng_state)
        raise
    battle.log = [*battle.log, *ctx.j.lines][-40:]
    return outcome(ctx, action, title, tone=tone, extra=extra(ctx) if extra else None)


def outcome(
    ctx: Ctx,
    action: str,
    title: str,
    *,
    tone: Tone = "neutral",
    extra: dict[str, Any] | None = None,
    secret: Card | None = None,
) -> Outcome:
    data: dict[str, Any] = {"action": action, "events": ctx.j.events, "battle": battle_status(ctx.battle, ctx.settings)}
    if extra:
        data.update(extra)
    return Outcome(card=action_card(ctx, title, tone), summary=title, data=data, secret=secret)


def magi_in_battle(ctx: Ctx, table: Table, name: str | None) -> Being:
    """The acting player's Magi in this battle (a GM may name anyone's)."""
    record = table.default_character(name)
    key = record.name.casefold()
    being = ctx.battle.beings.get(key)
    if being is None:
        raise RuleError(f"{record.name} has not joined this battle. Join with /serpent battle join.")
    return being
