"""The card catalog: the player's own deck, one card at a time or imported whole from TOML or JSON.

The book never lists its deck, so the bot never invents a card: a value left out
stays unknown, and a rule that needs it says which. An import is all-or-nothing
and reports every error with its line and card name.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from pydantic import ValidationError

from rules.base import RuleError, plain_error
from rules.saga.book import Bonus, CardDef, read_color
from rules.text import fold

MAX_ERRORS = 15


def parse_deck(text: str, fmt: str = "auto") -> list[CardDef]:
    """TOML (``[[card]]`` tables, or ``card = [{...}, {...}]`` on one line) or JSON (a list, or {"card": [...]})."""
    text = text.strip()
    if not text:
        raise RuleError("The deck text is empty. Paste TOML ([[card]] tables) or JSON (a list of cards).")
    kind = fmt if fmt != "auto" else ("json" if text[0] in "[{" and not text.startswith("[[") else "toml")
    try:
        raw: Any = json.loads(text) if kind == "json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError(f"Not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}.") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"Not valid TOML: {exc}.") from exc
    rows = raw.get("card") if isinstance(raw, dict) else raw
    if not isinstance(rows, list) or not rows:
        raise RuleError('No cards found: TOML needs [[card]] tables (or card = [...]); JSON a list or {"card": [...]}.')
    lines = _card_lines(text, kind, len(rows))
    cards, errors, seen = [], [], {}
    for index, row in enumerate(rows):
        name = row.get("name", "?") if isinstance(row, dict) else "?"
        where = f"card {index + 1} {name!r}" + (f" (line {lines[index]})" if lines[index] else "")
        if not isinstance(row, dict):
            errors.append(f"{where}: a card is a table of fields")
            continue
        try:
            card = CardDef.model_validate(row)
        except ValidationError as exc:
            for error in exc.errors():
                field = ".".join(str(p) for p in error["loc"]) or "card"
                errors.append(f"{where}: {field}: {_message(error)}")
            continue
        except RuleError as exc:
            errors.append(f"{where}: {exc}")
            continue
        key = fold(card.name)
        if key in seen:
            errors.append(f"{where}: the name repeats card {seen[key]}; each card of a deck is named once")
            continue
        seen[key] = index + 1
        cards.append(card)
    if errors:
        more = f"\n…and {len(errors) - MAX_ERRORS} more." if len(errors) > MAX_ERRORS else ""
        raise RuleError(
            f"The deck has {len(errors)} error(s); nothing was imported:\n- " + "\n- ".join(errors[:MAX_ERRORS]) + more
        )
    return cards


def _message(error: dict) -> str:
    return plain_error(error)


def _card_lines(text: str, kind: str, count: int) -> list[int | None]:
    """The line each card starts on: the n-th ``[[card]]`` header, or the n-th ``name`` key / inline table."""
    lines = text.splitlines()
    if kind == "toml":
        headers = [i + 1 for i, line in enumerate(lines) if re.match(r"\s*\[\[\s*card\s*\]\]", line)]
    else:
        headers = []
    if len(headers) != count:
        headers = [i + 1 for i, line in enumerate(lines) for _ in re.finditer(r'"?name"?\s*[:=]', line)]
    if len(headers) != count:
        return [None] * count
    return list(headers)  # type: ignore[arg-type]


def parse_bonus(text: str | None) -> Bonus | None:
    """``"B, V, R: Draw (1) card"`` → a bonus; ``"hand: ..."`` is the same-harmonic-hand condition (F-R31)."""
    if not text:
        return None
    cost_text, _, effect = text.partition(":")
    if cost_text.strip().casefold() == "hand":
        return Bonus(hand_same_harmonic=True, text=effect.strip())
    tokens = [t for t in re.split(r"[\s,/]+", cost_text.strip()) if t]
    cost = ["any" if t.casefold() == "any" else read_color(t) for t in tokens]
    if not cost:
        raise RuleError('A bonus is "colors: text", e.g. "B, V, R: Draw (1) card", or "hand: text".')
    return Bonus(cost=cost, text=effect.strip())  # type: ignore[arg-type]


def read_cost(text: str) -> int | str:
    word = text.strip().casefold()
    if word in ("blank", "start"):
        return word
    if word.isdigit():
        return int(word)
    raise RuleError(f"Source cost {text!r}: a number (0 or more), blank, or start (the source icon).")


def read_cost_list(text: str | None) -> list[str]:
    tokens = [t for t in re.split(r"[\s,/]+", (text or "").strip()) if t]
    return ["any" if t.casefold() == "any" else read_color(t) for t in tokens]
