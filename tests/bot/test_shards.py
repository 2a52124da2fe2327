"""``python -m bot --shards 0-3 --shard-count 8``: several processes split a large bot's gateway shards.

The client is discord.py's real AutoShardedBot, connected to a stand-in Discord on a loopback port
(tests/support/fake_discord.py), so the shards it identifies as are the ones Discord would see.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from discord.ext import commands

from bot.__main__ import ShardPlan, build_bot, shard_plan
from bot.config import Settings
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
