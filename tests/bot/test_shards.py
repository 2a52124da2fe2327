"""``python -m bot --shards 0-3 --shard-count 8``: several processes split a large bot's gateway shards.

The client is discord.py's real AutoShardedBot, connected to a stand-in Discord on a loopback port
(tests/support/fake_discord.py), so the shards it identifies as are the ones Discord would see.
"""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import pytest
from discord.ext import commands

from bot.__main__ import ShardPlan, build_bot, serve, shard_plan
from bot.adapter.client import MagisterBot
from bot.cli.config import Settings
from bot.table.pbp import epoch
from tests.bot.test_entry_points import run
from tests.support.fake_discord import FakeDiscord, connected


@pytest.mark.parametrize(
    ("shards", "count", "ids"),
    [
        ("0-3", "8", (0, 1, 2, 3)),
        ("4-7", "8", (4, 5, 6, 7)),
        ("5", "8", (5,)),
        ("0-1,6-7", "8", (0, 1, 6, 7)),
        (" 2-3 ", "4", (2, 3)),
        (None, "4", None),  # all four shards in this process
        (None, None, None),  # Discord's recommended count, all here
    ],
)
def test_shard_ranges(shards: str | None, count: str | None, ids: tuple[int, ...] | None) -> None:
    plan = shard_plan(shards, count)
    assert plan.ids == ids
    assert plan.count == (int(count) if count else None)


@pytest.mark.parametrize(
    ("shards", "count", "says"),
    [
        ("0-3", None, "needs --shard-count"),
        ("0-8", "8", "shard 8 does not exist with --shard-count 8 (shards are numbered 0 to 7)"),
        ("3-1", "8", "runs backwards; write 1-3"),
        ("a-b", "8", "'a-b' is not a shard number or a range like 0-3"),
        ("-1", "8", "is not a shard number"),
        ("0-", "8", "is not a shard number"),
        ("", "8", "is not a shard number"),
        ("0-2,2", "8", "names a shard twice"),
        ("0", "0", "--shard-count '0' is not a whole number of shards (1 or more)"),
        (None, "many", "is not a whole number of shards"),
    ],
)
def test_bad_shard_ranges_say_what_would_work(shards: str | None, count: str | None, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        shard_plan(shards, count)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--shards", "0-3"], "--shards 0-3 needs --shard-count"),
        (["--shards", "0-9", "--shard-count", "8"], "shard 9 does not exist"),
        (["--shards", "1", "console"], "not for `console`"),
    ],
)
def test_bad_shards_on_the_command_line_exit_2_with_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    result = run(args, tmp_path, DISCORD_TOKEN="not.a.real.token")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("magister: ") and says in lines[0]


def test_help_shows_the_shard_options(tmp_path: Path) -> None:
    result = run(["--help"], tmp_path)
    assert result.returncode == 0
    assert "--shards 0-3 --shard-count 8" in result.stdout


async def test_the_client_is_an_auto_sharded_bot_with_this_process_shards(tmp_path: Path) -> None:
    bot = await build_bot(Settings(_env_file=None, magister_db=tmp_path / "s.sqlite3"), shard_plan("0-3", "8"))
    try:
        assert isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_ids == [0, 1, 2, 3]
        assert bot.shard_count == 8
    finally:
        await bot.service.store.close()


@pytest.mark.parametrize(
    ("plan", "identified"),
    [
        (ShardPlan((1, 2), 4), [(1, 4), (2, 4)]),  # one process of several: only its shards identify
        (ShardPlan(None, 2), [(0, 2), (1, 2)]),  # --shard-count alone: all of them here
        (ShardPlan(), [(0, 3), (1, 3), (2, 3)]),  # no flags: Discord's recommended count (3 here)
    ],
)
async def test_a_process_identifies_exactly_its_shards(
    tmp_path: Path, discord_here: FakeDiscord, plan: ShardPlan, identified: list[tuple[int, int]]
) -> None:
    bot = await build_bot(Settings(_env_file=None, magister_db=tmp_path / "s.sqlite3"), plan)
    try:
        task = await connected(bot)
        assert sorted(discord_here.identified) == identified
        assert sorted(bot.shards) == [shard for shard, _ in identified]
        assert all(not shard.is_closed() for shard in bot.shards.values())
        await bot.close()
        await asyncio.wait_for(task, 10)
    finally:
        await bot.service.store.close()


async def test_two_processes_split_the_shards(tmp_path: Path, discord_here: FakeDiscord) -> None:
    """Two clients on one database, shards 0-1 and 2-3 of 4: between them, every shard once."""
    settings = Settings(_env_file=None, magister_db=tmp_path / "shared.sqlite3")
    bots = [await build_bot(settings, shard_plan(ids, "4")) for ids in ("0-1", "2-3")]
    try:
        tasks = [await connected(bot) for bot in bots]
        assert sorted(discord_here.identified) == [(0, 4), (1, 4), (2, 4), (3, 4)]
        assert [sorted(bot.shards) for bot in bots] == [[0, 1], [2, 3]]
        for bot, task in zip(bots, tasks, strict=True):
            await bot.close()
            await asyncio.wait_for(task, 10)
    finally:
        for bot in bots:
            await bot.service.store.close()


async def test_sigterm_leaves_discord_and_closes_the_database(tmp_path: Path, discord_here: FakeDiscord) -> None:
    """What `docker stop` does to ``python -m bot --shards 0-1 --shard-count 2``: a clean exit 0."""
    settings = Settings(_env_file=None, discord_token="fake.token.here", magister_db=tmp_path / "t.sqlite3")
    running = asyncio.create_task(serve(settings, shard_plan("0-1", "2")))
    while len(discord_here.sockets) < 2:  # both shards identified
        assert not running.done(), running
        await asyncio.sleep(0.05)
    signal.raise_signal(signal.SIGTERM)  # to this process: serve's handler takes it
    assert await asyncio.wait_for(running, 10) == 0
    for _ in range(100):  # each shard's gateway socket closed (Discord's side notices a moment later)
        if not discord_here.sockets:
            break
        await asyncio.sleep(0.05)
    assert discord_here.sockets == {}
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # and the handler is gone with serve


SHARD_3_OF_4 = 3 << 22  # a guild id on shard 3 of 4: (id >> 22) % 4
CHANNEL = 555


async def due_reminder(bot: MagisterBot) -> None:
    """A /remind timer for a channel of a shard-3 guild, due a minute ago (as if set before a restart)."""
    due = epoch(bot.service.clock()) - 60
    body = {"text": "Pack the scrolls", "by": "Gwen", "user_ids": [], "target": ""}
    await bot.service.store.write(lambda tx: tx.add_timer(None, SHARD_3_OF_4, CHANNEL, "remind", due, body))


async def until_posted(discord_here: FakeDiscord) -> None:
    for _ in range(200):
        if discord_here.posted:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("nothing was posted within 10 s")


async def test_a_process_fires_the_timers_of_shards_it_does_not_run(tmp_path: Path, discord_here: FakeDiscord) -> None:
    """Shards 0-1 of 4 here; the reminder's guild is on shard 3, run elsewhere: posted over HTTP all the same."""
    discord_here.guild_of[CHANNEL] = SHARD_3_OF_4
    bot = await build_bot(Settings(_env_file=None, magister_db=tmp_path / "s.sqlite3"), shard_plan("0-1", "4"))
    try:
        await due_reminder(bot)
        task = await connected(bot)  # the timer loop starts once connected, and looks at once
        await until_posted(discord_here)
        [(channel, message)] = discord_here.posted
        assert channel == CHANNEL
        assert message["embeds"][0]["title"] == "Reminder"
        assert message["embeds"][0]["description"] == "Pack the scrolls"
        await bot.close()
        await asyncio.wait_for(task, 10)
    finally:
        await bot.service.store.close()


async def test_two_processes_fire_a_due_timer_once(tmp_path: Path, discord_here: FakeDiscord) -> None:
    """Both processes' timer loops see the same due reminder at start; whichever claims it first posts it."""
    discord_here.guild_of[CHANNEL] = SHARD_3_OF_4
    settings = Settings(_env_file=None, magister_db=tmp_path / "shared.sqlite3")
    bots = [await build_bot(settings, shard_plan(ids, "4")) for ids in ("0-1", "2-3")]
    try:
        await due_reminder(bots[0])
        tasks = await asyncio.gather(*(connected(bot) for bot in bots))  # both start, and look, at once
        await until_posted(discord_here)
        for bot in bots:  # another pass of each loop, as 20 s later: nothing is due any more
            assert await bot.get_cog("Timers").tick() == []  # type: ignore[union-attr]
        assert len(discord_here.posted) == 1
        for bot, task in zip(bots, tasks, strict=True):
            await bot.close()
            await asyncio.wait_for(task, 10)
    finally:
        for bot in bots:
            await bot.service.store.close()
