"""The one harness for the Discord layer: real ``discord.Interaction`` objects through the bot's real CommandTree.

Every ruleset's Discord tests use it, so what "a reply" means is decided once: the messages an interaction sent
(deferrals and autocomplete answers left out), each embed checked against Discord's limits (discord.py does not),
each card of the outcome checked before any clipping, and no incident. ``path`` is the command as a user types
it without the slash (``"runic mage create"``); options are keyword arguments.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapter.render import card_problems, embed_problems
from bot.cli.console import ConsoleTable
from bot.cli.virtual import Sent, VirtualUser, command_data

User = str | VirtualUser


class Reply:
    """One interaction's answer: the messages sent, the outcome, the error if refused; limits checked."""

    def __init__(self, interaction: discord.Interaction, sent: list[Sent]) -> None:
        assert type(interaction) is discord.Interaction  # a real one, not a stand-in
        self.interaction = interaction
        messages = [s for s in sent if s.kind not in ("autocomplete", "defer")]
        # a result kept private comes after the public card, as an ephemeral follow-up only the caller sees
        self.private = [s for s in messages[1:] if s.kind == "followup" and s.ephemeral]
        # a sealed secret result's commitment follows in the channel, as a message of its own (bot/table/sealing.py)
        self.seals = [s for s in messages[1:] if s.kind == "followup" and not s.ephemeral and _is_seal(s)]
        self.messages = [s for s in messages if s not in self.private and s not in self.seals]
        for message in self.messages:
            for embed in message.embeds:
                assert embed_problems(discord.Embed.from_dict(embed)) == [], embed
        self.outcome = interaction.extras.get("outcome")
        self.error: str | None = interaction.extras.get("error")
        assert "incident" not in interaction.extras, self.error
        if self.outcome is not None:
            for card in (self.outcome.card, self.outcome.secret):
                if card is not None:
                    assert card_problems(card) == [], card_problems(card)

    @property
    def data(self) -> dict[str, Any]:
        return self.outcome.data if self.outcome is not None else {}

    @property
    def message(self) -> Sent:
        (message,) = self.messages
        return message

    @property
    def embed(self) -> dict[str, Any]:
        (embed,) = self.message.embeds
        return embed

    @property
    def fields(self) -> dict[str, str]:
        return {f["name"]: f["value"] for f in self.embed.get("fields", [])}

    @property
    def title(self) -> str:
        return self.embed["title"]

    @property
    def description(self) -> str:
        return self.embed.get("description", "")

    @property
    def ephemeral(self) -> bool:
        return self.messages[0].ephemeral

    @property
    def text(self) -> str:
        """The first message as a reader sees it: its content, else its embed's title, description and fields."""
        message = self.messages[0]
        if message.content:
            return message.content
        embed = message.embeds[0]
        return "\n".join([embed.get("title", ""), embed.get("description", ""), *self.fields.values()])


def _is_seal(message: Sent) -> bool:
    return len(message.embeds) == 1 and str(message.embeds[0].get("title", "")).startswith("Sealed #")


def _user(user: User) -> VirtualUser:
    return user if isinstance(user, VirtualUser) else VirtualUser(user)


async def slash(table: ConsoleTable, user: User, path: str, /, **options: object) -> Reply:
    """``/<path> option:value`` as ``user`` sends it from Discord."""
    words = path.split()
    data = command_data(table.virtual.tree, words, options, guild_id=table.virtual.guild_id)
    interaction, sent = await table.virtual.command(_user(user), data)
    assert interaction.command is not None and interaction.command.qualified_name == " ".join(words)
    return Reply(interaction, sent)


async def ok(table: ConsoleTable, user: User, path: str, /, **options: object) -> Reply:
    """As :func:`slash`, and it must succeed."""
    reply = await slash(table, user, path, **options)
    assert reply.error is None, reply.error
    return reply


async def refused(table: ConsoleTable, user: User, path: str, /, **options: object) -> Reply:
    """As :func:`slash`, and it must be refused: one ephemeral message saying why, and no outcome."""
    reply = await slash(table, user, path, **options)
    assert reply.error is not None and reply.outcome is None
    assert reply.ephemeral and reply.text == reply.error
    return reply


async def choices(
    table: ConsoleTable, user: User, path: str, option: str, typed: str = "", /, **options: object
) -> list[str]:
    """What Discord's autocomplete offers ``user`` for ``option`` while they type ``typed``, within Discord's limits
    (25 choices, names of 1 to 100 characters). An ``option`` also given in ``options`` takes that value instead."""
    data = command_data(
        table.virtual.tree, path.split(), {option: typed, **options}, focused=option, guild_id=table.virtual.guild_id
    )
    found = await table.virtual.autocomplete(_user(user), data)
    assert len(found) <= 25, found
    assert all(1 <= len(choice["name"]) <= 100 for choice in found), found
    return [choice["value"] for choice in found]
