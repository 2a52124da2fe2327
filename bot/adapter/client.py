"""The bot itself: its command tree with the one error handler, its cogs and lasting components, and where
commands may run.

Errors of any command land in :meth:`MagisterTree.on_error`, which hands them to :mod:`bot.adapter.errors`, the
only place that turns an exception into words for a user. How a reply goes out: :mod:`bot.adapter.context`.
"""

from __future__ import annotations

import logging
import pkgutil
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.context import Courier, Poster
from bot.adapter.errors import report_error
from bot.adapter.forms import FORM_ITEMS
from bot.adapter.pickers import PICKER_ITEMS
from bot.adapter.posting import BoardKeeper, DiscordCourier, DiscordPoster
from bot.adapter.privacy import PRIVACY_ITEMS
from bot.adapter.speaking import DiscordSpeaker, Speaker
from bot.adapter.views import LASTING_ITEMS
from bot.table.service import TableService
from bot.table.weblinks import WebLinks

log = logging.getLogger("magister")

COGS_DIR = Path(__file__).resolve().parents[2] / "cogs"


# ---------------------------------------------------------------------- the bot


class MagisterTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, getattr(error, "original", error))


class MagisterBot(commands.AutoShardedBot):
    """Sharded from the start: one process may run every shard, or a range of them (``python -m bot --shards``).

    ``shard_ids`` and ``shard_count`` None: Discord's recommended count, all in this process. Whichever process
    holds a guild's shard gets its interactions; DMs come to shard 0; timers fire from any process (they post by
    channel id over HTTP, which needs no shard).
    """

    def __init__(
        self,
        service: TableService,
        *,
        courier: Courier | None = None,
        poster: Poster | None = None,
        speaker: Speaker | None = None,
        dev_guild: int | None = None,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
    ):
        super().__init__(
            shard_ids=shard_ids,
            shard_count=shard_count,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=MagisterTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # a sheet or log naming <@id> must not ping anyone
        )
        self.service = service
        self.courier: Courier = courier or DiscordCourier()
        self.poster: Poster = poster or DiscordPoster()
        self.speaker: Speaker = speaker or DiscordSpeaker()  # /say posts: through a channel webhook
        self.boards = BoardKeeper(self)
        self.dev_guild = dev_guild
        self.web_links: WebLinks | None = None  # the campaigns' web pages (docs/web.md), when they are on

    async def setup_hook(self) -> None:
        await self.load_cogs()

    async def load_cogs(self) -> None:
        """The cogs, and the lasting buttons: a button sent before a restart still answers after it."""
        self.add_dynamic_items(*LASTING_ITEMS, *FORM_ITEMS, *PICKER_ITEMS, *PRIVACY_ITEMS)
        for module in pkgutil.iter_modules([str(COGS_DIR)]):
            if not module.name.startswith("_"):
                await self.load_extension(f"cogs.{module.name}")
        set_where_commands_run(self.tree)

    async def on_ready(self) -> None:
        shards = ",".join(str(shard) for shard in sorted(self.shards))
        log.info(
            "connected as %s to %d guilds on shards %s of %s", self.user, len(self.guilds), shards, self.shard_count
        )


# ---------------------------------------------------------------------- helpers for cogs


# Dice, odds, lookup, help, macros and a member's own data (/privacy) work anywhere, also where a user installed the
# app for themselves (DMs, group DMs); everything that reads or changes a campaign belongs to a server's channel.
ANYWHERE = frozenset(
    {"roll", "check", "contest", "pool", "odds", "lookup", "help", "macro", "privacy", "Roll again", "Odds of this"}
)


def set_where_commands_run(tree: app_commands.CommandTree) -> None:
    for command in tree.get_commands():
        if command.name in ANYWHERE:
            command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
            command.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)
        else:
            command.allowed_contexts = app_commands.AppCommandContext(guild=True)
            command.allowed_installs = app_commands.AppInstallationType(guild=True)
