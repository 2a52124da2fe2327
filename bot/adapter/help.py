"""`/help`: generated from the live command tree, so it can never go stale.

Every command gets one line and an example: the ruleset's own (``Ruleset.help_examples``), or one built from its
options; a ruleset's top-level command gets its getting-started card (``Ruleset.getting_started``).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.table.registry import Registry
from rules.base import Card, Outcome, RuleError
from rules.text import FIELD_VALUE, listing

OptionType = discord.AppCommandOptionType
EXAMPLE_VALUES = {
    OptionType.integer: "3",
    OptionType.number: "1.5",
    OptionType.boolean: "true",
    OptionType.user: "@player",
    OptionType.channel: "#channel",
    OptionType.attachment: "<a file>",
}


def slash_commands(tree: app_commands.CommandTree) -> list[app_commands.Command | app_commands.Group]:
    """The slash commands; the right-click menus have no slash and are named at the end of the overview."""
    return tree.get_commands(type=discord.AppCommandType.chat_input)  # type: ignore[return-value]


def menus_line(tree: app_commands.CommandTree) -> str:
    on_messages = [m.name for m in tree.get_commands(type=discord.AppCommandType.message)]
    on_users = [m.name for m in tree.get_commands(type=discord.AppCommandType.user)]
    if not on_messages and not on_users:
        return ""
    parts = [f"on a message: {', '.join(on_messages)}"] if on_messages else []
    parts += [f"on a user: {', '.join(on_users)}"] if on_users else []
    return "\nRight-click (Apps menu) " + "; ".join(parts) + "."


def leaves(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    """Every command a user can run, in the order Discord lists them."""
    found: list[app_commands.Command] = []
    for top in sorted(slash_commands(tree), key=lambda c: c.name):
        if isinstance(top, app_commands.Group):
            found += [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            found.append(top)
    return found


def command_path(action_name: str) -> tuple[str | None, str]:
    """Where a ruleset action sits under ``/<ruleset>``: ``"mage create"`` → (``"mage"``, ``"create"``); ``"cast"`` →
    (None, ``"cast"``); ``"battle encounter add"`` → (``"battle"``, ``"encounter-add"``): Discord allows one level of
    groups."""
    parts = action_name.split()
    if len(parts) == 1:
        return None, parts[0]
    return parts[0], "-".join(parts[1:])


def ruleset_example(registry: Registry, command: app_commands.Command) -> str | None:
    """The ruleset's own example for this command (``Ruleset.help_examples``), if it has one."""
    root = command.root_parent
    if root is None or root.name not in registry:
        return None
    ruleset = registry.get(root.name).ruleset
    for action, typed in ruleset.help_examples.items():
        group, name = command_path(action)
        if " ".join(part for part in (root.name, group, name) if part) == command.qualified_name:
            return typed
    return None


def example(command: app_commands.Command) -> str:
    """The command with its required options filled in, the way a user would type it (or the one it declares)."""
    if command.extras.get("example"):
        return f"/{command.qualified_name} {command.extras['example']}"
    parts = [f"/{command.qualified_name}"]
    for parameter in command.parameters:
        if not parameter.required:
            continue
        if parameter.choices:
            value = str(parameter.choices[0].value)
        elif parameter.type is OptionType.string:
            value = f"<{parameter.name}>"
        elif parameter.type in (OptionType.integer, OptionType.number):
            low, high = parameter.min_value, parameter.max_value
            value = str(max(low if low is not None else 3, min(high if high is not None else 3, 3)))
        else:
            value = EXAMPLE_VALUES.get(parameter.type, "<value>")
        parts.append(f"{parameter.name}:{value}")
    return " ".join(parts)


def overview(tree: app_commands.CommandTree) -> Outcome:
    lines = []
    for top in sorted(slash_commands(tree), key=lambda c: c.name):
        lines.append(f"`/{top.name}` {top.description}")
    card = Card(
        title="Magister: what you can do",
        description="\n".join(lines)
        + menus_line(tree)
        + "\n\n`/help command:<name>` shows a command with an example, or a ruleset's getting-started card "
        "(`/help command:runic`).",
    )
    return Outcome(card=card, summary="help", data={"commands": [c.name for c in slash_commands(tree)]}, ephemeral=True)


def about(tree: app_commands.CommandTree, registry: Registry, name: str) -> Outcome:
    """One command, or one group with its commands (and, for a ruleset, how to begin)."""
    path = name.strip().lstrip("/").split()
    node: app_commands.Command | app_commands.Group | None = tree.get_command(path[0]) if path else None
    for part in path[1:]:
        node = node.get_command(part) if isinstance(node, app_commands.Group) else None
    if node is None:
        near = [f"`/{c.qualified_name}`" for c in leaves(tree) if path and path[-1] in c.qualified_name][:8]
        raise RuleError(
            f"There is no command `/{' '.join(path)}`. "
            + (f"Did you mean {', '.join(near)}? " if near else "")
            + "`/help` lists them all."
        )
    if isinstance(node, app_commands.Command):
        card = Card(title=f"/{node.qualified_name}", description=node.description)
        options = [f"`{p.name}`{'' if p.required else ' (optional)'}: {p.description}" for p in node.parameters]
        if options:
            card.add("Options", listing(options, FIELD_VALUE))
        shown = ruleset_example(registry, node) or example(node)
        card.add("Example", f"`{shown}`")
        data = {"command": node.qualified_name, "example": shown, "options": [p.name for p in node.parameters]}
        return Outcome(card=card, summary="help", data=data, ephemeral=True)
    commands = [c for c in node.walk_commands() if isinstance(c, app_commands.Command)]
    card = Card(title=f"/{node.qualified_name}", description=node.description)
    if node.parent is None and node.name in registry:
        steps = registry.get(node.name).ruleset.getting_started
        if steps:
            card.add("Getting started", listing([f"{i}. {step}" for i, step in enumerate(steps, 1)], FIELD_VALUE))
    listed = listing([f"`/{c.qualified_name}` {c.description}" for c in commands], 3800)
    card.description = f"{node.description}\n\n{listed}"
    data = {"group": node.qualified_name, "commands": [c.qualified_name for c in commands]}
    return Outcome(card=card, summary="help", data=data, ephemeral=True)


def names(tree: app_commands.CommandTree) -> list[str]:
    """Everything `/help command:` accepts, for autocomplete."""
    found: list[str] = []
    for top in sorted(slash_commands(tree), key=lambda c: c.name):
        found.append(top.name)
        if isinstance(top, app_commands.Group):
            found += [c.qualified_name for c in top.walk_commands()]
    return found
