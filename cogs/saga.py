"""/saga: every action of the Spell Saga ruleset, generated from its options models (see cogs/_ruleset.py).

Plus one button for play-by-post on a phone: a turn post that waits for
``/saga continue`` (step 3 or step 8) carries a **Next step** button that runs
exactly that command for whoever pressed it (the table still checks they are
the game's player or a GM).
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

import discord

from bot.client import MagisterBot, caller_of, place_of, send_reply, send_text, service_of
from bot.service import Reply
from bot.views import OwnedView
from cogs._ruleset import build_group
from rules.base import RuleError
from rules.saga import RULESET

WITH_BUTTON = ("start", "move", "continue", "report", "end", "buy", "bonus", "search", "put", "use", "attach")


def awaits_continue(reply: Reply) -> bool:
    """The table waits for `/saga continue` (place rules followed, or acknowledging the action cards)."""
    table = reply.outcome.data.get("table") if isinstance(reply.outcome.data, dict) else None
    return bool(table) and table.get("outcome") == "playing" and table.get("step") in (3, 8)


class NextStep(OwnedView):
    """One button: `/saga continue`, pressed by the person the post answered.

    It never times out (a play-by-post reply may come hours later); instead only the newest post's
    button in a channel stays live, so the bot holds at most one such view per channel.
    """

    live: ClassVar[dict[int, NextStep]] = {}

    def __init__(self, owner_id: int, channel_id: int) -> None:
        super().__init__(owner_id, timeout=None)
        previous = NextStep.live.get(channel_id)
        if previous is not None:
            with contextlib.suppress(RuntimeError):  # its loop is gone (a restarted bot, a finished test)
                previous.stop()
        NextStep.live[channel_id] = self

    @discord.ui.button(label="Next step", style=discord.ButtonStyle.primary)
    async def next_step(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        service = service_of(interaction)
        try:
            reply = await service.run(place_of(interaction), caller_of(interaction), RULESET.id, "continue", {})
        except RuleError as error:
            interaction.extras["error"] = str(error)
            await send_text(interaction, str(error), ephemeral=True)
            return
        self.stop()
        await send_reply(interaction, reply, view=_view_for(interaction, reply))


def _view_for(interaction: discord.Interaction, reply: Reply) -> NextStep | None:
    return NextStep(interaction.user.id, interaction.channel_id or 0) if awaits_continue(reply) else None


def _with_button(command: discord.app_commands.Command, action: str) -> None:
    """Send the command's reply with the Next step button when the table waits for continue."""

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        service = service_of(interaction)
        reply = await service.run(place_of(interaction), caller_of(interaction), RULESET.id, action, options)
        await send_reply(interaction, reply, view=_view_for(interaction, reply))

    command._callback = callback  # the parameters stay the generated ones; only the reply changes


async def setup(bot: MagisterBot) -> None:
    group = build_group(RULESET)
    for command in group.walk_commands():
        if (
            isinstance(command, discord.app_commands.Command)
            and command.name in WITH_BUTTON
            and command.parent is group
        ):
            _with_button(command, command.name)
    bot.tree.add_command(group)


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
