"""Context menus through the real tree: message menus on a roll, a user menu on a member."""

from __future__ import annotations

from fractions import Fraction

import discord
import pytest

from bot.cli.virtual import VirtualUser
from cogs.menus import sum_odds
from rules.base import RuleError
from rules.dice.odds import check_odds
from tests.conftest import Console


async def test_roll_again_reruns_the_footer_as_the_presser_and_logs_it(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    first = await console.ok("/check skill:12 modifier:-2 label:Stealth")
    await console.ok("@as Bob")
    again = await console.ok("@menu Roll again")
    assert not again["ephemeral"]
    assert "(/check skill:12 modifier:-2 label:Stealth)" in again["text"]
    assert again["data"]["skill"] == first["data"]["skill"] == 10 and again["data"]["label"] == "Stealth"
    await console.ok("@as Alice")
    events = (await console.ok("/campaign log"))["data"]["events"]
    assert [(e["command"], e["actor"]) for e in events[:2]] == [("check", "Bob"), ("check", "Alice")]


async def test_roll_again_on_a_pool_and_a_multi_roll(console: Console) -> None:
    await console.ok("/pool dice:6 again:8-again rote:true exceptional:4")
    again = await console.ok("@menu Roll again")
    assert "(/pool dice:6 again:8-again rote:true exceptional:4)" in again["text"]
    await console.ok('/roll expression:"3d6; 1d20" label:"two rolls"')
    again = await console.ok("@menu Roll again")
    assert '(/roll expression:"3d6; 1d20" label:"two rolls")' in again["text"]


async def test_odds_of_a_check_a_pool_and_a_sum(console: Console) -> None:
    await console.ok("/check skill:12 modifier:-2")
    odds = await console.ok("@menu Odds of this")
    assert odds["ephemeral"] and odds["data"]["skill"] == 10
    assert Fraction(odds["data"]["success"]) == check_odds(10).success == Fraction(1, 2)
    await console.ok("/pool dice:6 again:8-again rote:true")
    odds = await console.ok("@menu Odds of this")
    assert odds["data"]["dice"] == 6 and odds["data"]["again"] == 8 and odds["data"]["rote"] is True
    await console.ok("/roll expression:2d6-1")
    odds = await console.ok("@menu Odds of this")
    distribution = {int(k): Fraction(v) for k, v in odds["data"]["distribution"].items()}
    assert min(distribution) == 1 and max(distribution) == 11
    assert distribution[6] == Fraction(6, 36) and sum(distribution.values()) == 1
    assert Fraction(odds["data"]["mean"]) == 6


def test_sum_odds_of_a_wide_roll_stay_within_an_embed() -> None:
    outcome = sum_odds("20d20+3")
    assert outcome.card.title == "Odds: 20d20+3"
    assert len(outcome.card.description or "") < 4096
    assert Fraction(outcome.data["mean"]) == Fraction(213)


async def test_odds_say_plainly_what_they_cover(console: Console) -> None:
    await console.ok('/roll expression:"3d6; 1d20"')
    refused = await console.fails("@menu Odds of this")
    assert "`/check`, `/pool` and a simple `/roll`" in refused["text"]
    await console.ok("/contest skill:12 against:10")
    assert "/check" in (await console.fails("@menu Odds of this"))["text"]


async def test_menus_refuse_a_message_that_is_not_a_roll(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign status")
    refused = await console.fails("@menu Roll again")
    assert "not a roll" in refused["text"]
    refused = await console.fails("@menu Odds of this")
    assert "not a roll" in refused["text"]


async def test_show_sheet_on_a_user_shows_their_characters(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally create name:Quill")
    await console.ok("@as Alice")
    shown = await console.ok("@menu Show sheet: Pat")
    assert "Pip" in shown["text"] and "Quill" in shown["text"]
    nobody = await console.fails("@menu Show sheet: Zed")
    assert "Zed has no character in Crows" in nobody["text"]


async def test_menus_are_real_context_menu_interactions(console: Console) -> None:
    table = console.table
    await console.ok("/roll expression:1d6")
    interaction, sent = await table.virtual.context_menu(VirtualUser("Bob"), "Roll again", message=table.last_message)
    assert interaction.type is discord.InteractionType.application_command
    assert isinstance(interaction.command, discord.app_commands.ContextMenu)
    assert interaction.command.type is discord.AppCommandType.message
    assert sent and sent[0].embeds[0]["footer"]["text"].endswith("/roll expression:1d6")
    users = [c.name for c in table.virtual.tree.get_commands(type=discord.AppCommandType.user)]
    assert users == ["Show sheet"]


async def test_menu_directive_says_what_exists(console: Console) -> None:
    assert "There is no message" in (await console.fails("@menu Roll again"))["text"]
    assert "Menus: Roll again, Odds of this" in (await console.fails("@menu Reroll"))["text"]


async def test_roll_again_works_in_a_dm_where_show_sheet_is_not_offered(console: Console) -> None:
    payloads = {c.name: c.to_dict(console.table.virtual.tree) for c in console.table.virtual.tree.get_commands()}
    assert payloads["Roll again"]["contexts"] == [0, 1, 2] and payloads["Odds of this"]["integration_types"] == [0, 1]
    assert payloads["Show sheet"]["contexts"] == [0]
    await console.ok("@guild 0")
    await console.ok("/roll expression:2d6")
    again = await console.ok("@menu Roll again")
    assert len(again["data"]["dice"]) == 2


def test_a_footer_is_held_to_the_commands_bounds() -> None:
    """A footer is text on a message; Roll again never runs what the command itself would refuse."""
    from discord.ext import commands

    from cogs.dice import DiceCog
    from cogs.menus import _typed

    cog = DiceCog(commands.Bot(command_prefix="!", intents=discord.Intents.none()))  # type: ignore[arg-type]
    pool = next(c for c in cog.get_app_commands() if c.name == "pool")
    assert _typed(pool, {"dice": "6", "again": "8-again"}) == {"dice": 6, "again": "8-again"}
    for bad in ({"dice": "100000"}, {"dice": "6", "again": "3-again"}, {"dice": "6", "label": "x" * 101}):
        with pytest.raises(RuleError):
            _typed(pool, bad)
