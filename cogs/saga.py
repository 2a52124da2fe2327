"""/saga: every action of the Spell Saga ruleset, generated from its options models (see cogs/_ruleset.py).

Plus two things for play-by-post:

- a **Next step** button on a turn post that waits for ``/saga continue``
  (step 3 or step 8), running exactly that command for whoever pressed it (the
  table still checks they are the game's player or a GM);
- the nudge: with the house rule ``nudge_hours`` set, a sweep every few minutes
  posts one reminder to a channel whose battle round or step 10 has waited that
  long since the last turn post (``/saga nudge``, run as the GM and logged).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import discord
from discord.ext import commands, tasks

from bot.client import MagisterBot, caller_of, place_of, send_reply, send_text, service_of
from bot.render import to_embed
from bot.service import Caller, Place, Reply
from bot.views import OwnedView
from cogs._ruleset import build_group
from rules.base import RuleError
from rules.saga import RULESET

log = logging.getLogger("magister.saga")
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


NUDGE_NAME = "Saga nudge"


class SagaNudge(commands.Cog):
    """Reminds a quiet table, once per wait, that its battle round or step 10 is waiting."""

    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()

    @tasks.loop(minutes=5)
    async def sweeper(self) -> None:
        await self.sweep()

    @sweeper.before_loop
    async def _wait_until_connected(self) -> None:
        try:
            await self.bot.wait_until_ready()
        except RuntimeError:  # never logged in (the console's virtual Discord)
            self.sweeper.stop()

    async def sweep(self) -> list[Reply]:
        """Nudge every live saga table that has waited ``nudge_hours`` or more; returns the reminders sent."""
        service = self.bot.service
        now = _moment(service.clock())
        replies = []
        for row in await service.store.live_campaigns(RULESET.id):
            if not _due(row.state, row.settings, now):
                continue
            user = self.bot.user
            caller = Caller(user.id if user else 0, NUDGE_NAME, manages_guild=True)
            try:
                reply = await service.run(Place(row.guild_id, row.channel_id), caller, RULESET.id, "nudge", {})
            except RuleError as error:  # the player moved on meanwhile
                log.info("campaign %s: no nudge: %s", row.id, error)
                continue
            replies.append(reply)
            channel = self.bot.get_channel(row.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                try:
                    await channel.send(embed=to_embed(reply.outcome.card))
                except discord.HTTPException:
                    log.warning("could not post a saga nudge to channel %s", row.channel_id, exc_info=True)
        return replies


def _moment(text: str | None) -> datetime | None:
    try:
        moment = datetime.fromisoformat(text or "")
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _due(state: dict, settings: dict, now: datetime | None) -> bool:
    """The stored game waits at step 9 or 10, unnudged, for at least ``nudge_hours`` since its last turn post."""
    hours = (settings or {}).get("nudge_hours") or 0
    game = (state or {}).get("game") or {}
    if not hours or now is None or game.get("outcome") != "playing" or game.get("step") not in (9, 10):
        return False
    since = _moment(game.get("waiting_since"))
    return not game.get("nudged") and since is not None and now - since >= timedelta(hours=hours)


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
    await bot.add_cog(SagaNudge(bot))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
