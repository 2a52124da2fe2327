"""A table for serpent tests: real actions, real book, in-memory state, every card checked against embed limits."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from bot.table.books import load_book
from rules.base import Actor, Card, CharacterRecord, Outcome, Table
from rules.serpent import RULESET
from rules.serpent.book import SerpentBook
from rules.serpent.state import Battle, Being, CardState, SerpentSettings, SerpentState

DATA = Path(__file__).resolve().parents[3] / "data" / "serpent"


@cache
def book() -> SerpentBook:
    return load_book(SerpentBook, DATA)


def assert_card_fits(card: Card) -> None:
    """Discord's embed limits: title 256, description 4096, 25 fields (256/1024), footer 2048, 6000 in all."""
    assert 0 < len(card.title) <= 256, card.title
    assert len(card.description) <= 4096
    assert len(card.fields) <= 25
    for field in card.fields:
        assert 0 < len(field.name) <= 256
        assert 0 < len(field.value) <= 1024
    assert len(card.footer) <= 2048
    total = len(card.title) + len(card.description) + len(card.footer)
    total += sum(len(f.name) + len(f.value) for f in card.fields)
    assert total <= 6000, total


class Game:
    """Players by name; the GM is user 1. ``do`` runs one action exactly as the service would."""

    def __init__(self, seed: int = 7, **settings: Any) -> None:
        self.book = book()
        self.state = SerpentState()
        self.settings = SerpentSettings(**settings)
        self.characters: dict[str, CharacterRecord] = {}
        self.rng = random.Random(seed)
        self.users: dict[str, int] = {"gm": 1}
        self.outcomes: list[Outcome] = []
        self.now = ""  # Table.now: the action's UTC ISO time ("" = no clock, as before the service supplied one)

    def user(self, name: str) -> int:
        return self.users.setdefault(name, len(self.users) + 1)

    def table(self, who: str) -> Table:
        actor = Actor(user_id=self.user(who), name=who, is_gm=who == "gm")
        return Table(
            ruleset_id="serpent",
            campaign_name="test",
            actor=actor,
            rng=self.rng,
            book=self.book,
            settings=self.settings,
            state=self.state,
            characters=self.characters,
            now=self.now,
        )

    def do(self, who: str, action: str, **options: Any) -> Outcome:
        spec = RULESET.actions[action]
        opts = spec.options.model_validate(options)
        table = self.table(who)
        # as the service does: each action gets a fresh state, kept only if the action succeeds
        table.state = SerpentState.model_validate_json(self.state.model_dump_json())
        out = spec.run(table, opts)
        assert_card_fits(out.card)
        if out.secret is not None:
            assert_card_fits(out.secret)
        assert out.summary
        self.outcomes.append(out)
        # what the service stores between two play-by-post actions: the state as JSON, read back
        reloaded = SerpentState.model_validate_json(table.state.model_dump_json())
        assert reloaded == table.state
        self.state = reloaded
        return out

    # -- reading the battle ------------------------------------------------------
    @property
    def battle(self) -> Battle:
        assert self.state.battle is not None
        return self.state.battle

    def being(self, name: str) -> Being:
        return self.battle.beings[name.casefold()]

    def in_play(self, title: str) -> list[CardState]:
        return [c for c in self.battle.in_play() if c.title == title]

    def text(self, out: Outcome | None = None) -> str:
        out = out or self.outcomes[-1]
        return out.card.description + "\n" + "\n".join(f.value for f in out.card.fields)


def energies(being: Being) -> dict[str, int | None]:
    return {"essence": being.essence, "resonance": being.resonance, "harmony": being.harmony}


def duel(white: str, black: str, *, resonance: int = 10, spells: dict[str, dict] | None = None) -> Game:
    """White and Black in a started duel after round 1's Resonance roll (White wins the roll-off).

    ``spells`` are campaign definitions the GM makes first, beside Universum Negation's Dispel target.
    """
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    for name, values in (spells or {}).items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=resonance, rolloff="White")
    return g
