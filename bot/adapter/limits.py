"""Discord's limits on registered commands, which discord.py does not check before syncing."""

from __future__ import annotations

import json
import re
from typing import Any

NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_SIZE = 8000
MAX_GLOBAL_COMMANDS = 100


def command_problems(payloads: list[dict[str, Any]]) -> list[str]:
    """Every limit the serialized command tree breaks (empty when it may be synced)."""
    problems = []
    if len(payloads) > MAX_GLOBAL_COMMANDS:
        problems.append(f"{len(payloads)} global commands (max {MAX_GLOBAL_COMMANDS})")
    for payload in payloads:
        name = payload.get("name", "")
        if payload.get("type", 1) in (2, 3):  # a context menu: any case and spaces, no description or options
            if not 1 <= len(name) <= 32:
                problems.append(f"menu {name!r}: name must have 1 to 32 characters")
            if payload.get("description") or payload.get("options"):
                problems.append(f"menu {name!r}: a context menu takes no description or options")
            continue
        problems += _node_problems(payload, f"/{name}")
        size = _size(payload)
        if size > MAX_COMMAND_SIZE:
            problems.append(f"/{name}: {size} characters of names, descriptions and choices (max {MAX_COMMAND_SIZE})")
    return problems


def _node_problems(node: dict[str, Any], where: str) -> list[str]:
    problems = []
    name = node.get("name", "")
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: name {name!r} must be 1-32 lower-case letters, digits, - or _")
    description = node.get("description", "")
    if not 1 <= len(description) <= 100:
        problems.append(f"{where}: description has {len(description)} characters (1 to 100)")
    options = node.get("options") or []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options (max {MAX_OPTIONS})")
    choices = node.get("choices") or []
    if len(choices) > MAX_CHOICES:
        problems.append(f"{where}: {len(choices)} choices (max {MAX_CHOICES})")
    for choice in choices:
        if not 1 <= len(choice.get("name", "")) <= 100:
            problems.append(f"{where}: choice {choice.get('name')!r} must have 1 to 100 characters")
    for option in options:
        problems += _node_problems(option, f"{where} {option.get('name', '?')}")
    return problems


def _size(node: dict[str, Any]) -> int:
    """What Discord counts toward 8,000: names, descriptions, choice names and values."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        total += len(choice.get("name", "")) + len(json.dumps(choice.get("value", "")))
    return total + sum(_size(option) for option in node.get("options") or [])


# ---------------------------------------------------------------------- messages

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBEDS_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_BUTTON_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_AUTOCOMPLETE = 25
MAX_CHOICE_TEXT = 100


def message_problems(data: dict[str, Any]) -> list[str]:
    """Every way a message payload breaks Discord's limits; Discord answers such a send with 400."""
    import discord

    from bot.adapter.render import embed_problems  # render imports discord; keep this module light

    problems = []
    content = data.get("content") or ""
    if len(content) > MAX_CONTENT:
        problems.append(f"content has {len(content)} characters (max {MAX_CONTENT})")
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds (max {MAX_EMBEDS})")
    total = 0
    for index, body in enumerate(embeds):
        embed = discord.Embed.from_dict(body)
        problems += [f"embed {index + 1}: {problem}" for problem in embed_problems(embed)]
        total += len(embed)
    if total > MAX_EMBEDS_TOTAL:
        problems.append(f"{total} embed characters in the message (max {MAX_EMBEDS_TOTAL})")
    rows = data.get("components") or []
    if len(rows) > MAX_ROWS:
        problems.append(f"{len(rows)} component rows (max {MAX_ROWS})")
    for row in rows:
        items = row.get("components") or []
        if len(items) > MAX_ROW_ITEMS:
            problems.append(f"{len(items)} components in a row (max {MAX_ROW_ITEMS})")
        for item in items:
            if len(item.get("label") or "") > MAX_BUTTON_LABEL:
                problems.append(f"button label {item['label'][:20]!r}… over {MAX_BUTTON_LABEL} characters")
            if len(item.get("custom_id") or "") > MAX_CUSTOM_ID:
                problems.append(f"custom_id over {MAX_CUSTOM_ID} characters")
    return problems


MAX_WEBHOOK_NAME = 80
WEBHOOK_NAME_FORBIDDEN = ("discord", "clyde")


def webhook_problems(data: dict[str, Any]) -> list[str]:
    """What Discord refuses in a webhook message's name: 1 to 80 characters, never "discord" or "clyde"."""
    name = data.get("username")
    if name is None:
        return []
    problems = []
    if not 1 <= len(name) <= MAX_WEBHOOK_NAME:
        problems.append(f"webhook username has {len(name)} characters (1 to {MAX_WEBHOOK_NAME})")
    for word in WEBHOOK_NAME_FORBIDDEN:
        if word in name.casefold():
            problems.append(f"webhook username may not contain {word!r}")
    return problems


def autocomplete_problems(choices: list[dict[str, Any]]) -> list[str]:
    """Discord rejects more than 25 choices, or a name or string value outside 1 to 100 characters."""
    problems = []
    if len(choices) > MAX_AUTOCOMPLETE:
        problems.append(f"{len(choices)} autocomplete choices (max {MAX_AUTOCOMPLETE})")
    for choice in choices:
        name, value = choice.get("name", ""), choice.get("value")
        if not 1 <= len(name) <= MAX_CHOICE_TEXT:
            problems.append(f"choice name of {len(name)} characters (1 to {MAX_CHOICE_TEXT})")
        if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
            problems.append(f"choice value of {len(value)} characters (max {MAX_CHOICE_TEXT})")
    return problems
