"""/help is generated from the live command tree: every command, an example that parses, and each ruleset's start."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import discord

from bot.adapter.help import example, leaves, ruleset_example
from bot.cli.console import ConsoleError
from tests.conftest import Console


async def test_help_lists_every_top_level_command(console: Console) -> None:
    shown = await console.ok("/help")
    tree = console.table.virtual.tree
    assert shown["ephemeral"]
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        assert f"`/{command.name}`" in shown["text"]
    for menu in ("Roll again", "Odds of this", "Show sheet"):  # the right-click menus are named too
        assert menu in shown["text"]


async def test_every_command_has_help_with_an_example_discord_would_accept(console: Console, tmp_path: Path) -> None:
    table = console.table
    registry = table.bot.service.registry
    for command in leaves(table.virtual.tree):
        shown = await console.ok(f'/help command:"{command.qualified_name}"')
        typed = ruleset_example(registry, command) or example(command)  # the ruleset's own, where it gives one
        assert shown["data"]["example"] == typed
        upload = tmp_path / "upload.json"  # a user picks a file where the example says <a file>
        upload.write_text("{}")
        tokens = shlex.split(typed[1:].replace("<a file>", str(upload)))
        path = command.qualified_name.split()
        try:
            table._convert(command, tokens[len(path) :])  # typed and bounded as Discord's client checks them
        except ConsoleError as error:
            raise AssertionError(f"{typed}: {error}") from None


async def test_each_ruleset_has_a_getting_started_card_naming_real_commands(console: Console) -> None:
    tree = console.table.virtual.tree
    known = {c.qualified_name for c in leaves(tree)}
    for ruleset in console.table.bot.service.registry:
        if ruleset.id == "tally":  # the tests' own ruleset
            continue
        card = await console.ok(f"/help command:{ruleset.id}")
        steps = ruleset.ruleset.getting_started
        assert steps and "Getting started" in card["text"], ruleset.id
        for step in steps:
            for named in re.findall(r"`/([a-z -]+?)(?: [a-z_]+:|`)", step):
                assert named.strip() in known, (ruleset.id, named)


async def test_an_unknown_command_suggests_the_nearest(console: Console) -> None:
    refused = await console.fails("/help command:cst")
    assert "There is no command `/cst`" in refused["text"]
    near = await console.fails("/help command:preview")
    assert "`/runic preview`" in near["text"]


async def test_a_new_campaign_says_what_to_do_next(console: Console) -> None:
    started = await console.ok("/campaign start ruleset:runic name:Camelot")
    assert "1. Each player creates a mage: `/runic mage create" in started["text"]
    assert "`/help command:runic`" in started["text"]
