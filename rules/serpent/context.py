"""What every battle step needs at hand: the battle, the book, the RNG and a journal of what happened.

The journal is how the rules explain themselves: every roll, every payment and
every Encounter decision is written as a sentence (for the card) and as a
structured event (for ``data``), in the order it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random
from typing import Any

from rules.base import RuleError
from rules.dice.threshold import ResonanceRoll, ThresholdRoll, discord_roll, harmony_roll, resonance_roll
from rules.serpent.book import SerpentBook, Spell, find_spell
from rules.serpent.state import Battle, Being, CardState, SerpentSettings, SerpentState


@dataclass
class Journal:
    lines: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    secret: list[str] = field(default_factory=list)

    def say(self, text: str, kind: str | None = None, **fields: Any) -> None:
        """A line for the card; with ``kind`` also a structured event for ``data``."""
        self.lines.append(text)
        if kind:
            self.events.append({"type": kind, "text": text, **fields})

    def event(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})


@dataclass
class Ctx:
    battle: Battle
    state: SerpentState
    settings: SerpentSettings
    book: SerpentBook
    rng: Random
    now: str = ""  # the action's UTC ISO time (``Table.now``); "" when no clock was supplied
    j: Journal = field(default_factory=Journal)

    def spell(self, title: str) -> Spell:
        return find_spell(self.book, self.state.spellbook, title)

    def being(self, key: str) -> Being:
        return self.battle.beings[key]

    def card(self, card_id: int) -> CardState:
        return self.battle.cards[card_id]

    def name(self, key: str | None) -> str:
        if key is None:
            return "nobody"
        being = self.battle.beings.get(key)
        return being.name if being else key

    # -- dice: the GM's queued values first, then the RNG -----------------------------
    def _queued(self, kind: str) -> str | None:
        for i, die in enumerate(self.battle.dice):
            if die.kind == kind:
                del self.battle.dice[i]
                return die.value
        return None

    def d10(self, why: str) -> int:
        """One d10 (0 reads as 10) for a roll-off, a target tie or an ability chart."""
        queued = self._queued("d10")
        if queued is not None:
            value = int(queued)
            value = 10 if value == 0 else value
            self.j.event("die", why=why, sides=10, value=value, supplied=True)
            return value
        value = self.rng.randint(1, 10)
        self.j.event("die", why=why, sides=10, value=value, supplied=False)
        return value

    def resonance_roll(self, value: int | None) -> ResonanceRoll:
        return resonance_roll(self.rng, self.book.resonance.band, value=value)

    def threshold_roll(self, being: Being) -> ThresholdRoll:
        """The initiative-phase Discord or Harmony check (RULING 8), with queued dice if the GM gave some."""
        harmony = being.harmony or 0
        kind = "discord" if harmony < 0 else "harmony"
        level = -harmony if harmony < 0 else harmony
        dice: list[int] | None = None
        if level >= 7 and not (kind == "discord" and level >= 20):
            queued = self._queued("2d10")
            if queued is not None:
                dice = [int(x) for x in queued.replace("+", ",").split(",") if x.strip()]
        if kind == "discord":
            return discord_roll(self.rng, level, dice=dice)
        return harmony_roll(self.rng, level, dice=dice)

    def draw_token(self, bag: dict[str, int], out: dict[str, int], why: str) -> str:
        """Draw one token from what is left in the bag (a queued GM draw must still be in it)."""
        left = {color: bag[color] - out.get(color, 0) for color in sorted(bag)}
        pool = [color for color, n in left.items() for _ in range(max(0, n))]
        if not pool:
            raise RuleError("The draw bag is empty; the GM should check the bag reset.")
        queued = self._queued("token")
        if queued is not None:
            color = queued.strip().casefold()
            if color not in pool:
                raise RuleError(f"The GM's queued token {queued!r} is not in the bag (left: {left}).")
            self.j.event("token", why=why, color=color, supplied=True)
            return color
        color = pool[self.rng.randrange(len(pool))]
        self.j.event("token", why=why, color=color, supplied=False)
        return color
