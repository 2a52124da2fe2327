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
