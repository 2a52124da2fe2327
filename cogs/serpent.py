"""/serpent: every action of the serpent ruleset, generated from its options models (see cogs/_ruleset.py).

Plus the play-by-post response-window timer: once a minute, every live serpent
campaign whose open response window is overdue (``rules.serpent.timer``
decides) gets ``/serpent battle close-window`` run for it as the GM, and the
result is posted to its channel when the bot can see that channel. Any
``/serpent`` battle action arriving after the deadline closes the window too,
so the timer only saves a quiet table from waiting for its next message.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from bot.client import MagisterBot
from bot.render import to_embed
from bot.service import Caller, Place, Reply
from cogs._ruleset import build_group
from rules.base import RuleError
from rules.serpent import RULESET
from rules.serpent.timer import overdue_window_id

log = logging.getLogger("magister.serpent")

TIMER_NAME = "Response-window timer"


class ResponseWindowTimer(commands.Cog):
    """Closes play-by-post response windows whose time (``response_window_minutes``) ran out."""

    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()

    @tasks.loop(minutes=1)
    async def sweeper(self) -> None:
        await self.sweep()

    @sweeper.before_loop
    async def _wait_until_connected(self) -> None:
        try:
            await self.bot.wait_until_ready()
        except RuntimeError:  # never logged in (the console's virtual Discord): actions close overdue windows there
            self.sweeper.stop()

    async def sweep(self) -> list[Reply]:
        """Close every overdue window now; returns what each close-window produced."""
        service = self.bot.service
        now = service.clock()
        replies = []
        for row in await service.store.live_campaigns(RULESET.id):
            try:
                window = overdue_window_id(row.state, row.settings, now)
            except ValueError:  # a state this version cannot read: not the timer's business
                log.warning("campaign %s: unreadable serpent state, skipped by the window timer", row.id)
                continue
            if window is None:
                continue
            place = Place(row.guild_id, row.channel_id)
            try:
                reply = await service.run(place, self._caller(), RULESET.id, "battle close-window", {"window": window})
            except RuleError as error:  # someone acted first: the window is closed or another is open
                log.info("campaign %s: window #%s not closed by the timer: %s", row.id, window, error)
                continue
            except Exception:
                log.exception("campaign %s: the window timer failed to close window #%s", row.id, window)
                continue
            replies.append(reply)
            await self._post(row.channel_id, reply)
        return replies

    def _caller(self) -> Caller:
        user = self.bot.user
        return Caller(user.id if user else 0, TIMER_NAME, manages_guild=True)

    async def _post(self, channel_id: int, reply: Reply) -> None:
        channel = self.bot.get_channel(channel_id)  # cached channels only: no fetch, and none in the console
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.send(embed=to_embed(reply.outcome.card))
        except discord.HTTPException:
            log.warning("could not post the window timer's result to channel %s", channel_id, exc_info=True)


async def setup(bot: MagisterBot) -> None:
    bot.tree.add_command(build_group(RULESET))
    await bot.add_cog(ResponseWindowTimer(bot))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
