"""/roll and the system dice: rolls that work in any channel and are logged in a campaign."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import rolls
from bot.table.expressions import roll_text
from bot.table.service import Reply
from rules.base import Outcome, RuleError
from rules.runic.calamity import calamity_odds

AGAIN = {"10-again": 10, "9-again": 9, "8-again": 8, "none": None}
AgainChoice = Literal["10-again", "9-again", "8-again", "none"]
Label = app_commands.Range[str, 1, 100]
ROLL_OPTIONS = {"label": "What the roll is for", "secret": "Send the result to the GM only"}
POOL_OPTIONS = {
    "dice": "Dice in the pool; 0 or less rolls a chance die",
    "again": "Which faces reroll and add (default 10-again)",
    "rote": "Reroll each failed die once",
    "exceptional": "Successes for an exceptional success (default 5)",
}


def replayable(outcome: Outcome, line: str) -> Outcome:
    """The command that made a roll, in its footer: what "Roll again" and "Odds of this" read back."""
    card = outcome.card
    card.footer = f"{card.footer} · {line}" if card.footer else line
    return outcome


def _line(command: str, **options: object) -> str:
    parts = [f"/{command}"]
    for name, value in options.items():
        if value is None or value is False:
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        parts.append(f'{name}:"{text}"' if " " in text or ";" in text else f"{name}:{text}")
    return " ".join(parts)


async def _record(interaction: discord.Interaction, command: str, outcome: Outcome, secret: bool) -> None:
    service = service_of(interaction)
    reply = await service.record(place_of(interaction), caller_of(interaction), command, outcome, secret=secret)
    await send_reply(interaction, reply, secret=secret)


class DiceCog(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    odds = app_commands.Group(name="odds", description="Exact chances, worked out rather than sampled")

    @app_commands.command(name="roll", description="Roll dice: 3d6+2, 4d6kh3, 1d20+5 [fire]. Shows every die")
    @app_commands.describe(
        expression="Dice in d20 syntax, e.g. 3d6+2 or 2d10e10",
        **ROLL_OPTIONS,
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, 200],
        label: Label | None = None,
        secret: bool = False,
    ):
        outcome = roll_text(expression, service_of(interaction).rng, label=label)
        replayable(outcome, _line("roll", expression=expression, label=label))
        await _record(interaction, "roll", outcome, secret)

    @app_commands.command(name="check", description="3d6 roll-under against a skill, with GURPS criticals")
    @app_commands.describe(
        skill="Effective skill before the modifier",
        modifier="Added to the skill, e.g. -2",
        **ROLL_OPTIONS,
    )
    async def check(
        self,
        interaction: discord.Interaction,
        skill: app_commands.Range[int, -50, 100],
        modifier: app_commands.Range[int, -50, 50] = 0,
        label: Label | None = None,
        secret: bool = False,
    ):
        outcome = rolls.check(service_of(interaction).rng, skill, modifier, label)
        replayable(outcome, _line("check", skill=skill, modifier=modifier or None, label=label))
        await _record(interaction, "check", outcome, secret)

    @app_commands.command(name="contest", description="A Quick Contest, or a resisted roll with the Rule of 16")
    @app_commands.describe(
        skill="Your effective skill",
        against="The opponent's skill, or the subject's resistance",
        resisted="A resisted roll: you roll first; the subject resists only if you succeed",
        living="The subject is living or sapient (the Rule of 16 applies); false for a spell",
        **ROLL_OPTIONS,
    )
    async def contest(
        self,
        interaction: discord.Interaction,
        skill: app_commands.Range[int, -50, 100],
        against: app_commands.Range[int, -50, 100],
        resisted: bool = False,
        living: bool = True,
        label: Label | None = None,
        secret: bool = False,
    ):
        if not resisted and not living:
            raise RuleError("`living` only matters for a resisted roll; add `resisted:true`.")
        outcome = rolls.contest(
            service_of(interaction).rng, skill, against, resisted=resisted, living=living, label=label
        )
        line = _line(
            "contest", skill=skill, against=against, resisted=resisted, living=resisted and living, label=label
        )
        replayable(outcome, line)
        await _record(interaction, "contest", outcome, secret)

    @app_commands.command(name="pool", description="A d10 success pool: 8+ succeeds, n-again, rote, chance die")
    @app_commands.describe(**POOL_OPTIONS, **ROLL_OPTIONS)
    async def pool(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[int, -20, 60],
        again: AgainChoice = "10-again",
        rote: bool = False,
        exceptional: app_commands.Range[int, 1, 20] = 5,
        label: Label | None = None,
        secret: bool = False,
    ):
        rng = service_of(interaction).rng
        outcome = rolls.pool(rng, dice, again=AGAIN[again], rote=rote, exceptional_at=exceptional, label=label)
        replayable(outcome, _line("pool", dice=dice, again=again, rote=rote, exceptional=exceptional, label=label))
        await _record(interaction, "pool", outcome, secret)

    # ------------------------------------------------------------------ /odds

    @odds.command(name="check", description="Chances of a 3d6 roll at a skill: success and criticals")
    async def odds_check(self, interaction: discord.Interaction, skill: app_commands.Range[int, 3, 100]):
        await send_reply(interaction, _plain(rolls.odds_check(skill)))

    @odds.command(name="discord", description="Chance of a Discord event (or Harmony gain) on 2d10")
    @app_commands.describe(level="The Discord (or Harmony) level", harmony="Harmony instead of Discord")
    async def odds_discord(
        self, interaction: discord.Interaction, level: app_commands.Range[int, 0, 30], harmony: bool = False
    ):
        await send_reply(interaction, _plain(rolls.odds_threshold(level, "harmony" if harmony else "discord")))

    @odds.command(name="pool", description="Chances of a d10 pool: any success, exceptional, expected successes")
    @app_commands.describe(**POOL_OPTIONS)
    async def odds_pool(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[int, -20, 60],
        again: AgainChoice = "10-again",
        rote: bool = False,
        exceptional: app_commands.Range[int, 1, 20] = 5,
    ):
        await send_reply(interaction, _plain(rolls.odds_pool(dice, AGAIN[again], rote, exceptional)))

    @odds.command(name="calamity", description="Chance of each band of the runic Calamity Table at an MP")
    @app_commands.describe(mp="Current MP after the casting (negative: below zero)")
    async def odds_calamity(self, interaction: discord.Interaction, mp: app_commands.Range[int, -500, 0]):
        registry = service_of(interaction).registry
        if "runic" not in registry:
            raise RuleError("The runic ruleset is not installed, so there is no Calamity Table.")
        await send_reply(interaction, _plain(calamity_odds(registry.get("runic").book, mp)))


def _plain(outcome: Outcome) -> Reply:
    """Odds change nothing and are not logged."""
    return Reply(outcome)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(DiceCog(bot))
