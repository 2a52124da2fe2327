"""The schedule's background task: every ``INTERVAL`` seconds, fire the timers that are due.

Deadlines, nudges and reminders all live in the store (``bot/table/schedule.py`` fires each exactly once);
this cog only keeps looking, starting once the bot is connected, so a timer that came due while the
bot was down fires at start. The console has no gateway: it fires timers itself, at start and on
``@wait`` (its virtual clock), so this loop stops there.
"""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

from bot.adapter.client import MagisterBot
from bot.adapter.posting import post_fired
from bot.storage.rows import DatabaseUnavailableError
from bot.table.schedule import Fired, fire_due

log = logging.getLogger("magister.schedule")
INTERVAL = 20  # seconds: a deadline is never more than this late


class Timers(commands.Cog):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.ticker.start()

    async def cog_unload(self) -> None:
        self.ticker.cancel()
        self.bot.boards.stop()

    @tasks.loop(seconds=INTERVAL)
    async def ticker(self) -> None:
        try:
            await self.tick()
        except DatabaseUnavailableError as error:  # PostgreSQL down or restarting: one line, not a traceback
            log.warning("the timer pass cannot reach the database (%s); trying again in %s s", error.reason, INTERVAL)
        except Exception:  # never let one bad pass stop the schedule
            log.exception("the timer pass failed; trying again in %s s", INTERVAL)

    @ticker.before_loop
    async def _wait_until_connected(self) -> None:
        try:
            await self.bot.wait_until_ready()
        except RuntimeError:  # never logged in (the console's virtual Discord): the console ticks itself
            self.ticker.stop()

    async def tick(self) -> list[Fired]:
        """Fire what is due and post each message to its channel."""
        fired = await fire_due(self.bot.service)
        for item in fired:
            await post_fired(self.bot, item)
        return fired


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(Timers(bot))
