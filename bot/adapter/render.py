"""One Card, three faces: a Discord embed, console text and JSON, in the same words.

Discord rejects an embed over its limits with an HTTP error at send time, and
discord.py does not check them, so :func:`embed_problems` does, and every
renderer test runs it.
"""

from __future__ import annotations

import discord

from rules.base import Card
from rules.text import DESCRIPTION, EMBED_TOTAL, FIELD_NAME, FIELD_VALUE, FIELDS, FOOTER, TITLE, clip

TONE_COLOURS: dict[str, int] = {
    "neutral": 0x5865F2,
    "success": 0x3BA55D,
    "failure": 0xED4245,
    "critical_success": 0xF1C40F,
    "critical_failure": 0x992D22,
    "warning": 0xE67E22,
    "secret": 0x2C2F33,
}


def to_embed(card: Card) -> discord.Embed:
    embed = discord.Embed(
        title=clip(card.title, TITLE),
        description=clip(card.description, DESCRIPTION) or None,
        colour=TONE_COLOURS[card.tone],
    )
    for item in card.fields[:FIELDS]:
        embed.add_field(
            name=clip(item.name, FIELD_NAME) or "\u200b",
            value=clip(item.value, FIELD_VALUE) or "\u200b",
            inline=item.inline,
        )
    if card.footer:
        embed.set_footer(text=clip(card.footer, FOOTER))
    return embed


def to_text(card: Card) -> str:
    """Plain text for the console: the same words as the embed."""
    lines = [f"== {card.title} =="]
    if card.description:
        lines.append(card.description)
    for item in card.fields:
        lines.append(f"-- {item.name}: {item.value}" if "\n" not in item.value else f"-- {item.name}:\n{item.value}")
    if card.footer:
        lines.append(f"({card.footer})")
    return "\n".join(lines)


def embed_problems(embed: discord.Embed) -> list[str]:
    """Every way this embed breaks Discord's limits (empty when it fits)."""
    problems = []
    data = embed.to_dict()
    title = data.get("title", "")
    description = data.get("description", "")
    fields = data.get("fields", [])
    footer = data.get("footer", {}).get("text", "")
    author = data.get("author", {}).get("name", "")
    if len(title) > TITLE:
        problems.append(f"title has {len(title)} characters (max {TITLE})")
    if len(description) > DESCRIPTION:
        problems.append(f"description has {len(description)} characters (max {DESCRIPTION})")
    if len(fields) > FIELDS:
        problems.append(f"{len(fields)} fields (max {FIELDS})")
    total = len(title) + len(description) + len(footer) + len(author)
    for index, item in enumerate(fields):
        name, value = item.get("name", ""), item.get("value", "")
        total += len(name) + len(value)
        if not 1 <= len(name) <= FIELD_NAME:
            problems.append(f"field {index + 1} name has {len(name)} characters (1 to {FIELD_NAME})")
        if not 1 <= len(value) <= FIELD_VALUE:
            problems.append(f"field {index + 1} value has {len(value)} characters (1 to {FIELD_VALUE})")
    if len(footer) > FOOTER:
        problems.append(f"footer has {len(footer)} characters (max {FOOTER})")
    if total > EMBED_TOTAL:
        problems.append(f"{total} characters in all (max {EMBED_TOTAL})")
    return problems


def card_problems(card: Card) -> list[str]:
    """Limits checked on the card itself, before any clipping hides an overflow."""
    problems = []
    if len(card.title) > TITLE:
        problems.append(f"title has {len(card.title)} characters (max {TITLE})")
    if len(card.description) > DESCRIPTION:
        problems.append(f"description has {len(card.description)} characters (max {DESCRIPTION})")
    if len(card.fields) > FIELDS:
        problems.append(f"{len(card.fields)} fields (max {FIELDS})")
    for index, item in enumerate(card.fields):
        if len(item.name) > FIELD_NAME or len(item.value) > FIELD_VALUE:
            problems.append(f"field {index + 1} ({item.name[:30]!r}) is over its limits")
    if len(card.footer) > FOOTER:
        problems.append(f"footer has {len(card.footer)} characters (max {FOOTER})")
    total = len(card.title) + len(card.description) + len(card.footer)
    total += sum(len(item.name) + len(item.value) for item in card.fields)
    if total > EMBED_TOTAL:
        problems.append(f"{total} characters in all (max {EMBED_TOTAL})")
    return problems
