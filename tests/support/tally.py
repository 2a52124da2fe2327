"""A tiny ruleset that exists only for tests: it counts, and it can fail on purpose."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import caller_of, place_of, send_reply, service_of
from rules.base import Action, Card, CharacterRecord, Model, Outcome, RuleError, Ruleset, Table


class TallySheet(Model):
    points: int = 0


class TallyState(Model):
    count: int = 0


class TallySettings(Model):
    step: int = 1


class NoOptions(Model):
    pass


class NameOptions(Model):
    name: str


def _create(table: Table, options: NameOptions) -> Outcome:
    table.add_character(table.actor.user_id, options.name, TallySheet())
    return Outcome(card=Card(title=f"Created {options.name}"), summary=f"created {options.name}")


def _add(table: Table, options: NameOptions) -> Outcome:
    record = table.own_character(options.name)
    record.sheet.points += table.settings.step
    table.state.count += 1
    roll = table.rng.randint(1, 6)
    return Outcome(
        card=Card(title=f"{record.name}: {record.sheet.points}", description=f"rolled {roll}"),
        summary=f"{record.name} +{table.settings.step}",
        data={"points": record.sheet.points, "count": table.state.count, "roll": roll},
    )


def _boom(table: Table, options: NoOptions) -> Outcome:
    table.state.count += 1000
    for record in table.characters.values():
        record.sheet.points = -1
    raise RuntimeError("a bug in a ruleset")


def _refuse(table: Table, options: NoOptions) -> Outcome:
    table.state.count += 1000
    raise RuleError("Not like that: try /tally add instead.")


def _reset(table: Table, options: NoOptions) -> Outcome:
    table.state.count = 0
    return Outcome(card=Card(title="Reset"), summary="reset")


def _whisper(table: Table, options: NoOptions) -> Outcome:
    """A change with a secret in every place a ruleset can put one: card, summary and ``gm`` data."""
    table.state.count += 1
    return Outcome(
        card=Card(title="You whispered"),
        summary="whispered",
        data={"count": table.state.count, "gm": {"password": "swordfish"}},
        secret=Card(title="The whisper", description="only the GM reads this: swordfish"),
        secret_summary="whispered the password swordfish",
    )


class TallyRuleset(Ruleset):
    id = "tally"
    name = "Tally (tests only)"
    sheet_model = TallySheet
    state_model = TallyState
    settings_model = TallySettings
    actions = {
        "create": Action("create", _create, NameOptions),
        "add": Action("add", _add, NameOptions),
        "boom": Action("boom", _boom, NoOptions),
        "refuse": Action("refuse", _refuse, NoOptions),
        "reset": Action("reset", _reset, NoOptions, gm_only=True),
        "whisper": Action("whisper", _whisper, NoOptions),
    }

    def character_summary(self, record: CharacterRecord) -> str:
        return f"{record.sheet.points} points"

    def check_settings(self, settings: TallySettings, book: object) -> None:
        if settings.step == 13:
            raise RuleError("13 is unlucky at this table; pick another step.")


class TallyCog(commands.GroupCog, group_name="tally", group_description="Test-only counting"):
    async def _run(self, interaction: discord.Interaction, action: str, **options) -> None:
        reply = await service_of(interaction).run(
            place_of(interaction), caller_of(interaction), "tally", action, options
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="create", description="Create a tally character")
    async def create(self, interaction: discord.Interaction, name: str):
        await self._run(interaction, "create", name=name)

    @app_commands.command(name="add", description="Add a point")
    async def add(self, interaction: discord.Interaction, name: str):
        await self._run(interaction, "add", name=name)

    @app_commands.command(name="boom", description="Fail with a bug")
    async def boom(self, interaction: discord.Interaction):
        await self._run(interaction, "boom")

    @app_commands.command(name="refuse", description="Fail with a user error")
    async def refuse(self, interaction: discord.Interaction):
        await self._run(interaction, "refuse")

    @app_commands.command(name="reset", description="GM: reset the count")
    async def reset(self, interaction: discord.Interaction):
        await self._run(interaction, "reset")

    @app_commands.command(name="whisper", description="Send a secret to the GM")
    async def whisper(self, interaction: discord.Interaction):
        await self._run(interaction, "whisper")
