"""Text as every ruleset handles it: names folded for comparing, and text within Discord's limits.

A cut always says so: it ends in "…" (one character, counted in the limit), never in a space before it.
Fitting a whole card (``rules.base.fit``) builds on these.
"""

from __future__ import annotations

from collections.abc import Iterable

# Discord's embed limits (docs/design.md, "Embed limits"); bot/adapter/render.py checks them again on the way out.
TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000

ELLIPSIS = "…"


def fold(name: str) -> str:
    """Names compare without case or stray blanks, as players type them."""
    return " ".join(name.split()).casefold()


def clip(text: str, limit: int = FIELD_VALUE) -> str:
    """``text`` if it fits in ``limit`` characters, else cut to fit and ending in "…"."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + ELLIPSIS


def listing(lines: Iterable[str], limit: int = FIELD_VALUE, *, keep_last: int = 0) -> str:
    """Lines joined until the limit, then "… and N more", so nothing is silently lost.

    Blank lines are left out. ``keep_last`` lines (a total, what was paid) are always shown: the cut falls
    before them.
    """
    items = [line for line in lines if line]
    if keep_last and len(items) > keep_last:
        tail = [clip(line.strip(), limit // 2) for line in items[-keep_last:]]
        head = listing(items[:-keep_last], max(1, limit - sum(len(t) + 1 for t in tail)))
        return clip("\n".join([head, *tail]).strip(), limit)
    out: list[str] = []
    used = 0
    for index, line in enumerate(items):
        tail = f"{ELLIPSIS} and {len(items) - index} more"
        if used + len(line) + 1 > limit - len(tail) - 1:
            out.append(tail)
            break
        out.append(line)
        used += len(line) + 1
    return clip("\n".join(out).strip(), limit)
