"""Fixtures for the awakened rules tests: the real book, rigged d10s and a hand-built table to play on."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.table.books import load_book
from rules.awakened import RULESET
from rules.awakened.book import AwakenedBook
from rules.awakened.sheet import AwakenedSettings, AwakenedSheet, AwakenedState
from rules.base import Actor, CharacterRecord, Outcome, Table

ROOT = Path(__file__).resolve().parents[3]
PLAYER, OTHER, GM = 101, 202, 999


class Rigged(random.Random):
    """Hands out the given d10 faces in order; running out is a test bug, so it fails loudly."""

    def __init__(self) -> None:
        super().__init__(0)
        self.dice: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10), f"unexpected randint({a}, {b})"
        assert self.dice, "ran out of rigged dice"
        return self.dice.pop(0)


@pytest.fixture(scope="session")
def book() -> AwakenedBook:
    return load_book(AwakenedBook, ROOT / "data" / "awakened")


ASH = {
    "name": "Ash",
    "path": "Thyrsus",
    "ruling": "Life, Spirit",
    "inferior": "Matter",
    "resistance": "composure",
    "gnosis": 3,
    "arcana": "Forces 3, Life 3, Spirit 3, Prime 2, Space 4, Time 2, Mind 1",
    "attributes": "Intelligence 3, Composure 4, Resolve 2",
    "skills": "Occult 3, Investigation 2",
    "mana_max": 15,
    "high_speech": True,
    "health": 7,
    "willpower": 5,
}


class Game:
    """One campaign's table, played action by action as a player or the GM, with rigged dice."""

    def __init__(self, book: AwakenedBook, settings: AwakenedSettings | None = None) -> None:
        self.rng = Rigged()
        self.table = Table(
            ruleset_id="awakened",
            campaign_name="Test",
            actor=Actor(user_id=PLAYER, name="Pat"),
            rng=self.rng,
            book=book,
            settings=settings or AwakenedSettings(),
            state=AwakenedState(),
            characters={},
        )

    def act(self, command: str, /, *, user: int = PLAYER, rolls: Iterable[int] = (), **options: Any) -> Outcome:
        self.table.actor = Actor(user_id=user, name="Gwen" if user == GM else "Pat", is_gm=user == GM)
        self.rng.dice = list(rolls)
        chosen = RULESET.actions[command]
        outcome = chosen.run(self.table, chosen.options(**options))
        assert not self.rng.dice, f"{command} left rigged dice unused: {self.rng.dice}"
        return outcome

    def gm(self, command: str, /, **options: Any) -> Outcome:
        return self.act(command, user=GM, **options)

    def mage(self, name: str = "Ash", **changes: Any) -> AwakenedSheet:
        self.act("mage create", **{**ASH, "name": name, **changes})
        return self.sheet(name)

    def sheet(self, name: str = "Ash") -> AwakenedSheet:
        return self.table.characters[name.casefold()].sheet

    def record(self, name: str = "Ash") -> CharacterRecord:
        return self.table.characters[name.casefold()]

    @property
    def state(self) -> AwakenedState:
        return self.table.state


@pytest.fixture
def game(book: AwakenedBook) -> Game:
    return Game(book)
