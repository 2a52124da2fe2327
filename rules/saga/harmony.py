"""Harmonic order, bonus costs and the luck check: the pure core of Spell Saga (RULINGS 18-19, spec F-R6..F-R9).

Everything here works on colors and plain card views, so it can be checked on
demand (``/saga harmonic``, ``/saga luck``) and enumerated exactly (``/saga odds``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.saga.book import COLORS, Color

Cost = Sequence[Color | Literal["any"]]
Direction = Literal["forward", "backward", "none"]
INDEX = {color: i for i, color in enumerate(COLORS)}


@dataclass(frozen=True)
class View:
    """A card as harmonics and luck see it: its name, glyph and effective harmonics."""

    name: str
    harmonics: frozenset[Color]
    glyph: str | None = None


@dataclass
class Order:
    """Whether a sequence is harmonic, and why: the colors read, collapsed, and the first bad step."""

    harmonic: bool
    direction: Direction
    colors: list[Color]
    collapsed: list[Color]
    first_bad_step: int | None = None  # index into ``collapsed`` of the step's second color
    reason: str = ""


def collapse(colors: Sequence[Color]) -> list[Color]:
    """Adjacent repeats count once (L477)."""
    out: list[Color] = []
    for color in colors:
        if not out or out[-1] != color:
            out.append(color)
    return out


def step_of(a: Color, b: Color) -> Direction | None:
    """One place along the cycle B→V→R→Y→G→B forwards or backwards, or None for any other step."""
    diff = (INDEX[b] - INDEX[a]) % 5
    return "forward" if diff == 1 else "backward" if diff == 4 else None


def color_order(colors: Sequence[Color]) -> Order:
    """RULINGS 19: collapse repeats; then every step moves one place along the cycle, one direction throughout."""
    collapsed = collapse(colors)
    direction: Direction = "none"
    for i in range(1, len(collapsed)):
        step = step_of(collapsed[i - 1], collapsed[i])
        a, b = collapsed[i - 1].upper(), collapsed[i].upper()
        if step is None:
            return Order(False, "none", list(colors), collapsed, i, f"{a} → {b} is not a step of the cycle")
        if direction != "none" and step != direction:
            return Order(False, "none", list(colors), collapsed, i, f"{a} → {b} turns back ({direction} before)")
        direction = step
    return Order(True, direction, list(colors), collapsed, None, _harmonic_reason(direction))


def _harmonic_reason(direction: Direction) -> str:
    if direction == "none":
        return "a single color (after collapsing repeats) is in harmonic order"
    return f"every step moves one place {direction}s along B→V→R→Y→G→B"


def card_order(cards: Sequence[View]) -> Order:
    """F-R8: cards are in harmonic order if some choice of one harmonic per card is; else the best failure.

    A dynamic programme over (last color, direction) finds a witness without trying every combination.
    A card without a harmonic can never be in harmonic order.
    """
    for i, card in enumerate(cards):
        if not card.harmonics:
            return Order(False, "none", [], [], i, f"{card.name} has no harmonic")
    states: dict[tuple[Color, Direction], list[Color]] = {}
    for color in sorted(cards[0].harmonics, key=INDEX.get) if cards else []:
        states[(color, "none")] = [color]
    for i in range(1, len(cards)):
        nxt: dict[tuple[Color, Direction], list[Color]] = {}
        for (last, direction), path in states.items():
            for color in sorted(cards[i].harmonics, key=INDEX.get):
                if color == last:
                    key = (color, direction)
                else:
                    step = step_of(last, color)
                    if step is None or (direction != "none" and step != direction):
                        continue
                    key = (color, step)
                nxt.setdefault(key, [*path, color])
        if not nxt:
            shown = " · ".join(f"{c.name} ({_letters(c.harmonics)})" for c in cards[: i + 1])
            return Order(False, "none", [], [], i, f"no choice of colors keeps harmonic order up to {shown}")
        states = nxt
    if not states:
        return Order(True, "none", [], [], None, "no cards")
    (color, direction), path = next(iter(sorted(states.items(), key=lambda kv: (kv[0][1] == "none", kv[1]))))
    order = color_order(path)
    order.reason = f"read as {' '.join(c[0].upper() for c in path)}: {order.reason}"
    return order


def _letters(colors: frozenset[Color] | Sequence[Color]) -> str:
    ordered = [c for c in COLORS if c in colors]
    return "/".join(c[0].upper() for c in ordered) or "none"


# ---------------------------------------------------------------- bonus costs (F-R9, F-R6)


@dataclass
class Match:
    met: bool
    where: str
    cards: list[str] = field(default_factory=list)  # in cost order
    direction: Direction = "none"
    reason: str = ""


def _fits(token: Color | Literal["any"], card: View) -> bool:
    return bool(card.harmonics) if token == "any" else token in card.harmonics


def run_match(cost: Cost, cards: Sequence[View], where: str, *, circle: bool = False) -> Match:
    """A cost on adjacent cards: k consecutive different cards, forwards or backwards (RULINGS 19, F-R9).

    With ``circle`` the row wraps around (the place pile, F-R7/F-R22), still never reusing a card.
    """
    k, n = len(cost), len(cards)
    if k == 0:
        return Match(False, where, reason="the cost names no color")
    if k > n:
        return Match(False, where, reason=f"{k} colors need {k} adjacent cards; {where} has {n}")
    starts = range(n) if circle else range(n - k + 1)
    for direction, tokens in (("forward", list(cost)), ("backward", list(reversed(cost)))):
        for start in starts:
            window = [cards[(start + j) % n] for j in range(k)]
            if all(_fits(t, c) for t, c in zip(tokens, window, strict=True)):
                used = [c.name for c in window]
                if direction == "backward":
                    used.reverse()
                return Match(
                    True,
                    where,
                    used,
                    direction,
                    f"found {'forwards' if direction == 'forward' else 'backwards'} on adjacent cards",
                )  # type: ignore[arg-type]
    return Match(False, where, reason=f"no {k} adjacent cards of {where} carry {_cost_text(cost)} in order")


def group_match(cost: Cost, cards: Sequence[View], where: str, *, sharing: bool = True) -> Match:
    """An attached group is a set (F-R6): each cost position gets a different card of the group.

    With ``sharing`` every card stands for any color of the group's union (L495); without it, each card only
    for its own colors, found by bipartite matching.
    """
    k = len(cost)
    if k == 0:
        return Match(False, where, reason="the cost names no color")
    if k > len(cards):
        return Match(False, where, reason=f"{k} colors need {k} cards; {where} has {len(cards)}")
    if sharing:
        union = frozenset().union(*(c.harmonics for c in cards))
        cards = [View(c.name, union, c.glyph) for c in cards]
    assignment: dict[int, int] = {}  # card index -> cost position

    def place(position: int, seen: set[int]) -> bool:
        for i, card in enumerate(cards):
            if i in seen or not _fits(cost[position], card):
                continue
            seen.add(i)
            if i not in assignment or place(assignment[i], seen):
                assignment[i] = position
                return True
        return False

    for position in range(k):
        if not place(position, set()):
            missing = cost[position]
            return Match(False, where, reason=f"no card left in {where} for {str(missing).upper()}")
    by_position = {pos: cards[i].name for i, pos in assignment.items()}
    return Match(True, where, [by_position[p] for p in range(k)], "none", "found on an attached group (any order)")


def _cost_text(cost: Cost) -> str:
    return "(" + ", ".join(str(t).upper() for t in cost) + ")"


def same_harmonic(hand: Sequence[View]) -> frozenset[Color]:
    """F-R31: the colors every hand card carries; empty for an empty hand or a card without harmonic."""
    if not hand:
        return frozenset()
    common = frozenset(COLORS)
    for card in hand:
        common &= card.harmonics
    return common


# ---------------------------------------------------------------- luck (RULINGS 18)

LUCK_WORDS = {"good": "good luck", "bad": "bad luck", "none": "no luck"}


@dataclass
class Luck:
    result: Literal["good", "bad", "none"]
    reason: str
    shared: list[Color] = field(default_factory=list)  # the harmonic match of step 6

    @property
    def advantage(self) -> Literal["heroes", "enemies", "no battle"]:
        return {"good": "no battle", "bad": "enemies", "none": "heroes"}[self.result]  # type: ignore[return-value]


def harmonic_match(kismet: Sequence[View | None]) -> frozenset[Color]:
    """Step 6: the colors all three kismet cards share (S14); none when a card is missing (F-R18)."""
    if len(kismet) != 3 or any(card is None for card in kismet):
        return frozenset()
    common = frozenset(COLORS)
    for card in kismet:
        assert card is not None
        common &= card.harmonics
    return common


def luck_check(kismet: Sequence[View | None], labels: Sequence[str] = ("place", "action card", "luck card")) -> Luck:
    """RULINGS 18: a shared harmonic is good luck; a missing glyph is no luck; else all/none/some glyphs match."""
    missing = [labels[i] for i, card in enumerate(kismet) if card is None]
    if missing:
        # cites F-R18
        return Luck("none", f"no {', '.join(missing)}: a missing kismet card gives no luck")
    shared = harmonic_match(kismet)
    if shared:
        colors = ", ".join(c for c in COLORS if c in shared)
        return Luck(
            "good", f"all three share {colors}: matching harmonics give good luck", sorted(shared, key=INDEX.get)
        )
    cards = [card for card in kismet if card is not None]
    bare = [card.name for card in cards if not card.glyph]
    if bare:
        return Luck("none", f"{', '.join(bare)} {'has' if len(bare) == 1 else 'have'} no glyph: no luck")
    glyphs = [card.glyph for card in cards]
    distinct = len(set(glyphs))
    if distinct == 1:
        return Luck("good", f"all three glyphs match ({glyphs[0]})")
    if distinct == len(glyphs):
        return Luck("bad", f"all three glyphs differ ({', '.join(g or '' for g in glyphs)})")
    return Luck("none", "two glyphs match, one differs: some matching is no luck")
