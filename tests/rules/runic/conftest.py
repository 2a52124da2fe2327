"""Fixtures for the runic tests: the real book, rigged dice and hand-built tables."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.table.books import load_book
from rules.base import Actor, Card, CharacterRecord, Outcome, Table
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet, RunicSettings, RunicState

ROOT = Path(__file__).resolve().parents[3]
SEED = Path("/work/shared/seeds/001_58fc3b8f7e90b932.txt")
PLAYER, OTHER, GM = 101, 202, 999


class Rigged(random.Random):
    """Hands out the given d6 faces in order; running out is a test bug, so it fails loudly."""

    def __init__(self, dice: Iterable[int] = (), choices: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.dice = list(dice)
        self.choices = list(choices)
        self.used: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), f"unexpected randint({a}, {b})"
        assert self.dice, f"ran out of rigged dice after {self.used}"
        face = self.dice.pop(0)
        self.used.append(face)
        return face

    def choice(self, seq: Any) -> Any:
        return seq[self.choices.pop(0) if self.choices else 0]

    def extend(self, *faces: int) -> Rigged:
        self.dice.extend(faces)
        return self


@pytest.fixture(scope="session")
def book() -> RunicBook:
    return load_book(RunicBook, ROOT / "data" / "runic")


def mage_sheet(book: RunicBook, **fields: Any) -> MageSheet:
    """A ready mage: Magery 2, IQ 13, Thaumatology 14, full MP unless told otherwise."""
    base: dict[str, Any] = {"magery": 2, "iq": 13, "ht": 11, "will": 13, "thaumatology": 14}
    base.update(fields)
    mp = base.pop("mp", None)
    sheet = MageSheet(**base)
    mana.refresh_mp_max(sheet, book)
    sheet.mp = sheet.mp_max if mp is None else mp
    return sheet


TableMaker = Callable[..., Table]


@pytest.fixture
def make_table(book: RunicBook) -> TableMaker:
    def make(
        *,
        actor: int = PLAYER,
        gm: bool = False,
        dice: Iterable[int] = (),
        rng: random.Random | None = None,
        settings: RunicSettings | None = None,
        state: RunicState | None = None,
        mages: dict[str, tuple[int, MageSheet]] | None = None,
    ) -> Table:
        characters = {
            name.casefold(): CharacterRecord(owner_id=owner, name=name, sheet=sheet)
            for name, (owner, sheet) in (mages or {}).items()
        }
        return Table(
            ruleset_id="runic",
            campaign_name="Test",
            actor=Actor(user_id=actor, name=f"user{actor}", is_gm=gm),
            rng=rng if rng is not None else Rigged(dice),
            book=book,
            settings=settings or RunicSettings(),
            state=state or RunicState(),
            characters=characters,
        )

    return make


def card_problems(card: Card) -> list[str]:
    """Discord's embed limits, strictly: empty field names or values are rejected too."""
    problems = []
    if not card.title or len(card.title) > 256:
        problems.append(f"title has {len(card.title)} characters")
    if len(card.description) > 4096:
        problems.append("description over 4096")
    if len(card.fields) > 25:
        problems.append(f"{len(card.fields)} fields")
    for index, item in enumerate(card.fields):
        if not 1 <= len(item.name) <= 256 or not 1 <= len(item.value) <= 1024:
            problems.append(f"field {index} ({item.name[:30]!r}) is empty or too long")
    if len(card.footer) > 2048:
        problems.append("footer over 2048")
    total = len(card.title) + len(card.description) + len(card.footer)
    total += sum(len(f.name) + len(f.value) for f in card.fields)
    if total > 6000:
        problems.append(f"{total} characters in all")
    return problems


def assert_fits(outcome: Outcome) -> None:
    """Every card of an outcome fits an embed, and its data is JSON."""
    for card in (outcome.card, outcome.secret):
        if card is not None:
            assert card_problems(card) == [], card_problems(card)
    json.dumps(outcome.data)
    assert outcome.summary
    assert "\n" not in outcome.summary
