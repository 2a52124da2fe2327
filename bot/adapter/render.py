"""One Card, three faces: a Discord embed, console text and JSON, in the same words.

Discord rejects an embed over its limits with an HTTP error at send time, and
discord.py does not check them, so :func:`embed_problems` does, and every
renderer test runs it.
"""

from __future__ import annotations

import discord

from rules.base import Card

TONE_COLOURS: dict[str, int] = {
    "neutral": 0x5865F2,
    "success": 0x3BA55D,
    "failure": 0xED4245,
    "critical_success": 0xF1C40F,
    "critical_failure": 0x992D22,
    "warning": 0xE67E22,
    "secret": 0x2C2F33,
}

LIMITS = {"title": 256, "description": 4096, "fields": 25, "field_name": 256, "field_value": 1024, "footer": 2048}
EMBED_TOTAL = 6000


def clip(text: str, limit: int) -> str:
    """Shorten text to a limit, saying so, rather than let Discord reject the message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_embed(card: Card) -> discord.Embed:
    embed = discord.Embed(
        title=clip(card.title, LIMITS["title"]),
        description=clip(card.description, LIMITS["description"]) or None,
        colour=TONE_COLOURS[card.tone],
    )
    for item in card.fields[: LIMITS["fields"]]:
        embed.add_field(
            name=clip(item.name, LIMITS["field_name"]) or "\u200b",
            value=clip(item.value, LIMITS["field_value"]) or "\u200b",
            inline=item.inline,
        )
    if card.footer:
        embed.set_footer(text=clip(card.footer, LIMITS["footer"]))
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
    if len(title) > LIMITS["title"]:
        problems.append(f"title has {len(title)} characters (max {LIMITS['title']})")
    if len(description) > LIMITS["description"]:
        problems.append(f"description has {len(description)} characters (max {LIMITS['description']})")
    if len(fields) > LIMITS["fields"]:
        problems.append(f"{len(fields)} fields (max {LIMITS['fields']})")
    total = len(title) + len(description) + len(footer) + len(author)
    for index, item in enumerate(fields):
        name, value = item.get("name", ""), item.get("value", "")
        total += len(name) + len(value)
        if not 1 <= len(name) <= LIMITS["field_name"]:
            problems.append(f"field {index + 1} name has {len(name)} characters (1 to {LIMITS['field_name']})")
        if not 1 <= len(value) <= LIMITS["field_value"]:
            problems.append(f"field {index + 1} value has {len(value)} characters (1 to {LIMITS['field_value']})")
    if len(footer) > LIMITS["footer"]:
        problems.append(f"footer has {len(footer)} characters (max {LIMITS['footer']})")
    if total > EMBED_TOTAL:
        problems.append(f"{total} characters in all (max {EMBED_TOTAL})")
    return problems


def card_problems(card: Card) -> list[str]:
    """Limits checked on the card itself, before any clipping hides an overflow."""
    problems = []
    if len(card.title) > LIMITS["title"]:
        problems.append(f"title has {len(card.title)} characters (max {LIMITS['title']})")
    if len(card.description) > LIMITS["description"]:
        problems.append(f"description has {len(card.description)} characters (max {LIMITS['description']})")
    if len(card.fields) > LIMITS["fields"]:
        problems.append(f"{len(card.fields)} fields (max {LIMITS['fields']})")
    for index, item in enumerate(card.fields):
        if len(item.name) > LIMITS["field_name"] or len(item.value) > LIMITS["field_value"]:
            problems.append(f"field {index + 1} ({item.name[:30]!r}) is over its limits")
    if len(card.footer) > LIMITS["footer"]:
        problems.append(f"footer has {len(card.footer)} characters (max {LIMITS['footer']})")
    total = len(card.title) + len(card.description) + len(card.footer)
    total += sum(len(item.name) + len(item.value) for item in card.fields)
    if total > EMBED_TOTAL:
        problems.append(f"{total} characters in all (max {EMBED_TOTAL})")
    return problems
