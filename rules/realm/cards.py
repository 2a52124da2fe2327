"""Cards: every value clipped to Discord's embed limits here, in one place."""

from __future__ import annotations

from collections.abc import Iterable

from rules.base import Card

FIELD_VALUE = 1024
MAX_FIELDS = 25
TOTAL = 6000


def clip(text: str, limit: int = FIELD_VALUE) -> str:
    text = text.strip() or "—"
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def listing(lines: Iterable[str], limit: int = FIELD_VALUE) -> str:
    """Lines joined until the limit, then "… and N more", so nothing is silently lost."""
    items = [line for line in lines if line]
    out: list[str] = []
    used = 0
    for index, line in enumerate(items):
        tail = f"… and {len(items) - index} more"
        if used + len(line) + 1 > limit - len(tail) - 1:
            out.append(tail)
            break
        out.append(line)
        used += len(line) + 1
    return clip("\n".join(out), limit)


def add(card: Card, name: str, value: str | Iterable[str], inline: bool = False) -> Card:
    text = value if isinstance(value, str) else listing(value)
    if len(card.fields) >= MAX_FIELDS:
        last = card.fields[-1]
        last.value = clip(f"{last.value}\n**{name}**: {text}")
        return card
    return card.add(clip(name, 256), clip(text), inline)


def fit(card: Card) -> Card:
    """The 6,000-character guard: trims the description, then the longest fields."""
    card.title = clip(card.title, 256)
    card.description = clip(card.description, 4096) if card.description else ""
    card.footer = card.footer[:2048]

    def total() -> int:
        return (
            len(card.title)
            + len(card.description)
            + len(card.footer)
            + sum(len(f.name) + len(f.value) for f in card.fields)
        )

    while total() > TOTAL:
        longest = max(card.fields, key=lambda f: len(f.value), default=None)
        if longest is None or len(longest.value) < 200:
            card.description = clip(card.description, max(100, len(card.description) - (total() - TOTAL)))
            break
        longest.value = clip(longest.value, len(longest.value) - max(100, total() - TOTAL))
    return card
