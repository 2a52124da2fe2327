"""A saga table without the service: the rules called directly, for fast unit tests and seed searches."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table.books import load_book
from rules.base import Actor, RuleError, Table
from rules.saga import RULESET
from rules.saga.area import Ctx, game_of
from rules.saga.book import SagaBook
from rules.saga.state import SagaSettings, SagaState

BOOK: SagaBook = load_book(SagaBook, Path(__file__).resolve().parents[3] / "data" / "saga")
PLAYER = Actor(user_id=22, name="Pat")
GM = Actor(user_id=11, name="Gwen", is_gm=True)


def make_table(seed: int = 1, settings: SagaSettings | None = None, actor: Actor = PLAYER) -> Table:
    return Table(
        ruleset_id="saga", campaign_name="Stars", actor=actor, rng=random.Random(seed), book=BOOK,
        settings=settings or SagaSettings(), state=SagaState(), characters={},
    )  # fmt: skip


def run(table: Table, action: str, **options):
    """Run one action as the service would (options validated by the action's model)."""
    act = RULESET.actions[action]
    return act.run(table, act.options.model_validate(options))


def refused(table: Table, action: str, **options) -> str:
    """The refusal's message; the rules checked before changing anything, so the state is untouched."""
    before = table.state.model_dump_json()
    try:
        run(table, action, **options)
    except RuleError as exc:
        assert table.state.model_dump_json() == before, f"{action} {options} changed the state before refusing"
        return str(exc)
    raise AssertionError(f"{action} {options} was not refused")


def ctx(table: Table) -> Ctx:
    return game_of(table)
