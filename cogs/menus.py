"""Right-click shortcuts: "Roll again" and "Odds of this" on a roll, "Show sheet" on a user.

A dice reply's footer ends with the command that made it (``cogs.dice.replayable``);
the message menus read it back, so a roll is repeated or explained without retyping
it. Context menus cannot live in a cog, so they are module-level and join the tree in
``setup`` (and leave it in ``teardown``). Their errors reach the tree's one handler.
"""

from __future__ import annotations

import re
import shlex
from fractions import Fraction
from typing import Any

import discord
from discord import app_commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.table import campaigns, rolls
from bot.table.service import Reply
from cogs.dice import AGAIN
from rules.base import Card, Outcome, RuleError
from rules.dice.odds import percent, sum_distribution

REPLAYABLE = ("roll", "check", "contest", "pool")
SIMPLE_SUM = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.IGNORECASE)
MAX_ROWS = 30  # totals listed one per line; a wider spread is sampled at even steps
NOT_A_ROLL = (
    "That message is not a roll I can read back. Use it on a reply to `/roll`, `/check`, `/contest` or `/pool`."
)


def command_line(message: discord.Message) -> str:
    """The command in a dice reply's footer (the text after the last `` · `` that starts with ``/``)."""
    if message.author.id != message._state.self_id:  # type: ignore[attr-defined]
        raise RuleError(NOT_A_ROLL)
    for embed in message.embeds:
        footer = embed.footer.text or ""
        for part in reversed(footer.split(" · ")):
            if part.startswith("/"):
                return part
    raise RuleError(NOT_A_ROLL)


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``/check skill:12 modifier:-2`` -> ("check", {"skill": "12", "modifier": "-2"})."""
    try:
        tokens = shlex.split(line[1:])
    except ValueError:
        raise RuleError(NOT_A_ROLL) from None
    if not tokens:
        raise RuleError(NOT_A_ROLL)
    options = {}
    for token in tokens[1:]:
        name, sep, value = token.partition(":")
        if not sep:
            raise RuleError(NOT_A_ROLL)
        options[name] = value
    return tokens[0], options


def _typed(command: app_commands.Command, options: dict[str, str]) -> dict[str, Any]:
    """The footer's text values as the command's parameters take them."""
    kinds = discord.AppCommandOptionType
    typed: dict[str, Any] = {}
    for name, value in options.items():
        parameter = command.get_parameter(name)
        if parameter is None:
            raise RuleError(NOT_A_ROLL)
        low, high = parameter.min_value, parameter.max_value  # a footer is text: held to the command's bounds
        if parameter.type is kinds.integer:
            typed[name] = int(value)
            if (low is not None and typed[name] < low) or (high is not None and typed[name] > high):
                raise RuleError(NOT_A_ROLL)
        elif parameter.type is kinds.boolean:
            typed[name] = value == "true"
        else:
            if (high is not None and len(value) > high) or (
                parameter.choices and value not in {str(c.value) for c in parameter.choices}
            ):
                raise RuleError(NOT_A_ROLL)
            typed[name] = value
    return typed


# ---------------------------------------------------------------------- Roll again


@app_commands.context_menu(name="Roll again")
async def roll_again(interaction: discord.Interaction, message: discord.Message) -> None:
    """Re-run the command in the footer, as the presser: rolled, logged and secret-handled like the original."""
    name, options = parse_line(command_line(message))
    command = interaction.client.tree.get_command(name)  # type: ignore[attr-defined]
    if name not in REPLAYABLE or not isinstance(command, app_commands.Command):
        raise RuleError(NOT_A_ROLL)
    try:
        typed = _typed(command, options)
    except ValueError:
        raise RuleError(NOT_A_ROLL) from None
    await command.callback(command.binding, interaction, **typed)  # type: ignore[arg-type, misc]


# ---------------------------------------------------------------------- Odds of this


@app_commands.context_menu(name="Odds of this")
async def odds_of_this(interaction: discord.Interaction, message: discord.Message) -> None:
    """Exact odds for the roll in the footer; never logged, only the presser sees them."""
    name, options = parse_line(command_line(message))
    await send_reply(interaction, Reply(odds_for(name, options)))


def odds_for(name: str, options: dict[str, str]) -> Outcome:
    try:
        if name == "check":
            return rolls.odds_check(int(options["skill"]) + int(options.get("modifier", 0)))
        if name == "pool":
            again = AGAIN[options.get("again", "10-again")]
            rote = options.get("rote") == "true"
            return rolls.odds_pool(int(options["dice"]), again, rote, int(options.get("exceptional", 5)))
        if name == "roll":
            return sum_odds(options["expression"])
    except (KeyError, ValueError):
        pass
    raise RuleError(
        f"I can give odds for `/check`, `/pool` and a simple `/roll` such as `3d6+2` (NdS±K), "
        f"not for `/{name} {' '.join(f'{k}:{v}' for k, v in options.items())}`."[:1900]
    )


def sum_odds(expression: str) -> Outcome:
    """The exact distribution of NdS±K, by convolution."""
    match = SIMPLE_SUM.match(expression)
    if match is None:
        raise ValueError(expression)
    dice, sides = int(match[1] or 1), int(match[2])
    shift = int(match[4] or 0) * (-1 if match[3] == "-" else 1)
    try:
        chances = sum_distribution(dice, sides)
    except RuleError as error:
        raise RuleError(f"Odds of `{expression}`: {error}") from None
    totals = sorted(chances)
    step = max(1, -(-len(totals) // MAX_ROWS))
    lines, at_least = [], Fraction(1)
    for index, total in enumerate(totals):
        if index % step == 0:
            lines.append(f"`{total + shift:>5}` {percent(chances[total]):>7}   ≥ {percent(at_least)}")
        at_least -= chances[total]
    mean = sum((total * p for total, p in chances.items()), Fraction(0)) + shift
    name = f"{dice}d{sides}" + (f"{shift:+d}" if shift else "")
    card = Card(title=f"Odds: {name}", description="Total, exactly, and at least\n" + "\n".join(lines))
    card.add("Average", f"{float(mean):.2f}", inline=True)
    card.add("Range", f"{totals[0] + shift} to {totals[-1] + shift}", inline=True)
    card.footer = f"Exact, from all {sides}^{dice} outcomes" + ("" if step == 1 else f"; every {step}th total shown")
    data = {"expression": name, "mean": str(mean), "distribution": {t + shift: str(p) for t, p in chances.items()}}
    return Outcome(card=card, summary=f"odds of {name}", data=data, ephemeral=True)


# ---------------------------------------------------------------------- Show sheet


@app_commands.context_menu(name="Show sheet")
async def show_sheet(interaction: discord.Interaction, user: discord.User) -> None:
    """That user's characters in this channel's campaign, as ``/character show`` shows them to the presser."""
    service, place = service_of(interaction), place_of(interaction)
    campaign = await service.require_campaign(place)
    names = sorted((c.name for c in campaign.characters.values() if c.owner_id == user.id), key=str.casefold)
    if not names:
        raise RuleError(f"{user.display_name} has no character in {campaign.row.name}. `/character list` names all.")
    for name in names[:5]:  # one sheet a message; five is more than any table plays at once
        await send_reply(interaction, await campaigns.character_show(service, place, caller_of(interaction), name))


MENUS = (roll_again, odds_of_this, show_sheet)


async def setup(bot: MagisterBot) -> None:
    for menu in MENUS:
        bot.tree.add_command(menu)


async def teardown(bot: MagisterBot) -> None:
    for menu in MENUS:
        bot.tree.remove_command(menu.name, type=menu.type)
