"""Plain English for numbers and names in awakened's text: ``1 success``, ``3 dice``, ``an Aurora``.

No imports from the rest of the ruleset, so the book's own descriptions can use it too.
"""

from __future__ import annotations

PLURALS = {"success": "successes", "die": "dice"}


def quantity(number: int, noun: str) -> str:
    """``1 success``, ``3 successes``, ``1 die``, ``2 hours``: a number with its noun in the right number."""
    return f"{number} {noun if number == 1 else PLURALS.get(noun, noun + 's')}"


def article(word: str) -> str:
    """``an Aurora``, ``a Corona``: the indefinite article a word takes (by its first letter)."""
    return f"{'an' if word[:1].casefold() in 'aeiou' else 'a'} {word}"
