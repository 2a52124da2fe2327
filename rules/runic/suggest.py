"""Autocomplete for ``/runic`` options, read from the channel's campaign and the book (at most 25 choices).

``spell`` offers the saved spells of the actor's mages and of the campaign
grimoire (the spells on, for ``maintain`` and ``drop``); ``word`` the 26 Words
with their meanings; ``words`` and ``parameters`` complete what is being typed;
``mage``, ``character`` and ``target`` the campaign's characters; ``grimoire``
and ``item`` the mage's own. A GM's "own" mages are all of them.
"""

from __future__ import annotations

import re

from rules.base import CharacterRecord, Table
from rules.runic.book import RunicBook
from rules.runic.mages import ADJUST_FIELDS
from rules.runic.sheet import MageSheet, RunicState

MAX_CHOICES = 25
SHOW_ANYONE = {"mage show", "spell show"}  # reading a sheet or a spell is open to every player
SPELL_ACTIONS = {"mage learn", "mage grimoire", "spell show", "spell forget", "cast", "spell define", "info ask",
                 "info answer", "lasting inscribe", "recognize"}  # fmt: skip
LASTING_ACTIONS = {"lasting trigger", "lasting end"}
WORD_SEPARATOR = re.compile(r"[\s,\-–—+/·.]+")
PARAMETER_EXAMPLES = (  # one per kind, as docs/runic.md writes them
    "duration: 10 minutes",
    "damage: 3d burning",
    "area: 5 yd",
    "range: 20 yd",
    "targets: 3",
    "traits: +20",
    "affliction: stun",
    "bonus: +2 moderate",
    "penalty: -2 moderate",
    "persistence: 20 seconds",
    "condition: +9 until sunrise",
    "modifier: +50%",
    "exclude: 2",
    "time: 3 days",
    "dimensions: 1",
    "speed: 20 yd/s",
    "weight: 1,000 lbs",
    "creation: 4 oz",
    "extra: +3 glows",
)


def suggestions(table: Table, action: str, option: str, current: str) -> list[str]:
    """Choices for one option, those starting with what was typed first, then those containing it."""
    book = table.book if isinstance(table.book, RunicBook) else None
    found = list(dict.fromkeys(_choices(table, book, action, option, current)))
    typed = current.strip().casefold()
    starts = [c for c in found if c.casefold().startswith(typed)]
    contains = [c for c in found if typed in c.casefold() and c not in starts]
    return [c[:100] for c in starts + contains][:MAX_CHOICES]


def _mine(table: Table) -> list[CharacterRecord]:
    return sorted(
        (c for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id),
        key=lambda c: c.name.casefold(),
    )


def _sheets(table: Table) -> list[MageSheet]:
    return [c.sheet for c in _mine(table) if isinstance(c.sheet, MageSheet)]


def _choices(table: Table, book: RunicBook | None, action: str, option: str, current: str) -> list[str]:
    if option in ("mage", "character"):
        everyone = action in SHOW_ANYONE or (option == "character" and table.actor.is_gm)
        return sorted(c.name for c in (table.characters.values() if everyone else _mine(table)))
    if option in ("target", "to", "donor"):
        return sorted(c.name for c in table.characters.values())
    if option == "name" and action in LASTING_ACTIONS:
        sheets = [c.sheet for c in table.characters.values() if isinstance(c.sheet, MageSheet)]
        owned = _sheets(table) if not table.actor.is_gm else sheets
        return sorted({item.name for sheet in owned for item in sheet.lasting})
    if option == "trigger" and book is not None:
        return [*book.casting.lasting.default_trigger.values(), *_complete_words(book, current)]
    if option == "trigger_parameters":
        return _complete_parameters(current)
    if option == "question" and action == "info answer":
        state = table.state if isinstance(table.state, RunicState) else None
        return sorted({a.question for a in state.answers.values()}) if state else []
    if option == "spell":
        return _spells(table, action)
    if option == "name" and action == "spell define":
        return _spells(table, action)
    if option == "word" and book is not None:
        return [f"{w.name} ({w.meaning})" for w in book.words.word]
    if option == "words" and book is not None:
        return _complete_words(book, current)
    if option == "parameters":
        return _complete_parameters(current)
    if option == "field" and action == "adjust":
        return list(ADJUST_FIELDS)
    if option == "grimoire":
        return sorted({g.name for sheet in _sheets(table) for g in sheet.grimoires.values()})
    if option == "item":
        return sorted({i.name for sheet in _sheets(table) for i in sheet.items.values()})
    if option == "name" and action == "mage implement":
        return sorted({s.implement.name for s in _sheets(table) if s.implement is not None})
    if option == "name" and action == "adjust" and book is not None:
        sheets = [c.sheet for c in table.characters.values() if isinstance(c.sheet, MageSheet)]
        named = sorted(
            {c.name for s in sheets for c in s.conditions} | {i.name for s in sheets for i in s.items.values()}
        )
        return named + [w.name for w in book.words.word]
    return []


def _spells(table: Table, action: str) -> list[str]:
    sheets = _sheets(table)
    if action in ("maintain", "drop"):
        on = [s.name for sheet in sheets for s in sheet.spells_on]
        return on + (["all"] if action == "drop" and on else [])
    if action not in SPELL_ACTIONS:
        return []
    own = sorted({s.name for sheet in sheets for s in sheet.spells.values()}, key=str.casefold)
    state = table.state if isinstance(table.state, RunicState) else None
    shared = sorted({s.name for s in state.spells.values()}, key=str.casefold) if state else []
    return own + shared


def _complete_words(book: RunicBook, current: str) -> list[str]:
    """``Vas-Jux-F`` → ``Vas-Jux-Flam``: the Words not yet used that start with the last one typed."""
    match = re.search(r"[^\s,\-–—+/·.]*$", current)
    partial = match.group(0) if match else ""
    prefix = current[: len(current) - len(partial)]  # ends with a separator, or is empty
    used = {t.casefold() for t in WORD_SEPARATOR.split(prefix) if t}
    factor_used = any(w.time_factor is not None and w.name.casefold() in used for w in book.words.word)
    return [
        f"{prefix}{w.name}"
        for w in book.words.word
        if w.name.casefold() not in used
        and not (factor_used and w.time_factor is not None)  # Des and Vas never together
        and w.name.casefold().startswith(partial.casefold())
    ]


def _complete_parameters(current: str) -> list[str]:
    """Complete the Parameter being typed after the last ``;`` with an example of each kind."""
    cut = current.rfind(";") + 1
    last = current[cut:]
    typed = last.lstrip()
    prefix = current[: len(current) - len(typed)]  # what was typed before, kept exactly
    return [prefix + example for example in PARAMETER_EXAMPLES if example.startswith(typed.casefold())]
