"""/saga: every action of the Spell Saga ruleset, generated from its options models (see cogs/_ruleset.py).

Plus two things for play-by-post:

- a **Next step** button on a turn post that waits for ``/saga continue``
  (step 3 or step 8), running exactly that command for the person the post
  answered; like every button it lasts (``bot.views``), across restarts;
- the nudge: with the house rule ``nudge_hours`` set, a sweep every few minutes
  posts one reminder to a channel whose battle round or step 10 has waited that
  long since the last turn post (``/saga nudge``, run as the GM and logged).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import discord
from discord.ext import commands, tasks

from bot.client import MagisterBot
from bot.render import to_embed
from bot.service import Caller, Place, Reply
from cogs._ruleset import build_group
from rules.base import RuleError
from rules.saga import RULESET

log = logging.getLogger("magister.saga")
WITH_BUTTON = ("start", "move", "continue", "report", "end", "buy", "bonus", "search", "put", "use", "attach")


def awaits_continue(reply: Reply) -> bool:
    """The table waits for `/saga continue` (place rules followed, or acknowledging the action cards)."""
    table = reply.outcome.data.get("table") if isinstance(reply.outcome.data, dict) else None
    return bool(table) and table.get("outcome") == "playing" and table.get("step") in (3, 8)


def next_step(reply: Reply) -> list[tuple[str, str]]:
    """A reply waiting for `/saga continue` carries a lasting Next step button that runs it."""
    return [("continue", "Next step")] if awaits_continue(reply) else []


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
    bot.tree.add_command(build_group(RULESET, reply_buttons=next_step))
    await bot.add_cog(SagaNudge(bot))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
