"""Every registered command fits Discord's payload limits; the checker catches what doesn't."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapter.limits import command_problems
from bot.adapter.render import card_problems, embed_problems, to_embed
from rules.base import Card
from tests.conftest import Console


def serialized(tree: app_commands.CommandTree) -> list[dict]:
    return [command.to_dict(tree) for command in tree.get_commands()]


async def test_every_registered_command_fits(console: Console) -> None:
    tree = console.table.virtual.tree
    payloads = serialized(tree)
    names = {p["name"] for p in payloads}
    assert {"campaign", "character", "roll"} <= names
    assert command_problems(payloads) == []


async def test_checker_catches_a_bad_command() -> None:
    """A command registered the normal way, which discord.py accepts but Discord would reject."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))

    @tree.command(name="shout", description="x" * 101)
    @app_commands.choices(value=[app_commands.Choice(name=f"c{i}", value=str(i)) for i in range(26)])
    async def shout(interaction: discord.Interaction, value: str) -> None: ...

    problems = command_problems(serialized(tree))
    assert any("/shout: description has 101" in p for p in problems)
    assert any("26 choices" in p for p in problems)


def test_checker_catches_structural_limits() -> None:
    options = [{"name": f"o{i}", "description": "d", "type": 3} for i in range(26)]
    assert any("26 options" in p for p in command_problems([{"name": "wide", "description": "d", "options": options}]))
    assert any("name 'Loud'" in p for p in command_problems([{"name": "Loud", "description": "d"}]))
    assert any("101 global commands" in p for p in command_problems([{"name": "a", "description": "d"}] * 101))
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    option = {"name": "o", "description": "d" * 100, "type": 3, "choices": choices}
    assert any(
        "max 8000" in p for p in command_problems([{"name": "huge", "description": "d", "options": [option] * 4}])
    )


def test_embed_check_catches_every_limit() -> None:
    fine = Card(title="t", description="d").add("name", "value")
    assert embed_problems(to_embed(fine)) == [] and card_problems(fine) == []
    embed = discord.Embed(title="t" * 257, description="d" * 4097)
    for index in range(26):
        embed.add_field(name="n" * 257 if index == 0 else "n", value="v" * 1025 if index == 1 else "v")
    embed.set_footer(text="f" * 2049)
    problems = " | ".join(embed_problems(embed))
    for expected in (
        "title has 257",
        "description has 4097",
        "26 fields",
        "field 1 name",
        "field 2 value",
        "footer has 2049",
        "in all",
    ):
        assert expected in problems
    over_total = Card(title="t", description="d" * 4000)
    for _ in range(3):
        over_total.add("n", "v" * 1000)
    assert any("in all" in p for p in card_problems(over_total))


def test_renderer_clips_instead_of_breaking_discord() -> None:
    card = Card(title="t" * 300, description="d" * 5000, footer="f" * 3000)
    card.add("n" * 300, "v" * 2000)
    embed = to_embed(card)
    assert [p for p in embed_problems(embed) if "in all" not in p] == []
    assert embed.title.endswith("…")


def test_checker_knows_context_menus() -> None:
    assert command_problems([{"name": "Roll again", "type": 3, "description": ""}]) == []
    assert any("1 to 32" in p for p in command_problems([{"name": "R" * 33, "type": 2, "description": ""}]))
