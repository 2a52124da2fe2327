"""The play-by-post timer's background sweep (cogs/serpent.py), against a real SQLite file with a fake clock.

The sweep coroutine is called directly: no one waits a minute. What it decides
comes from ``rules.serpent.timer``; here we check that it finds the overdue
windows of live serpent campaigns, closes them through the table service as the
GM (logged like any action), posts where it can, and leaves everything else alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.service import Caller, Place
from cogs.serpent import TIMER_NAME, ResponseWindowTimer
from rules.base import RuleError
from tests.conftest import Console

NOON = "2030-01-01T12:00:00+00:00"


class Clock:
    def __init__(self, now: str) -> None:
        self.now = now

    def __call__(self) -> str:
        return self.now


class FakeChannel(discord.abc.Messageable):
    """A channel the bot can see: it keeps what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append({"content": content, **kwargs})


async def duel_with_open_window(
    console: Console, channel: int = 2002, name: str = "Duel", magi: tuple[str, str] = ("White", "Black")
) -> None:
    """The user White's Fireball at the user Black's Magi, who holds Universum Negation: the window waits."""
    caster, target = magi
    await console.ok(f"@channel {channel}")
    await console.ok("@as Gwen")
    await console.ok(f'/campaign start ruleset:serpent name:"{name}"')
    await console.ok('/serpent spell define name:"Universum Negation" dispel_to:discard')
    await console.ok("@as White")
    await console.ok(f"/serpent magi create name:{caster} codex:Fireball")
    await console.ok("@as Black")
    await console.ok(f'/serpent magi create name:{target} codex:"Universum Negation"')
    await console.ok("@as Gwen")
    await console.ok("/serpent battle start")
    for user in ("White", "Black"):
        await console.ok(f"@as {user}")
        await console.ok("/serpent battle join")
    await console.ok("@as Gwen")
    await console.ok(f"/serpent battle round resonance:10 rolloff:{caster}")
    await console.ok("@as White")
    await console.ok("/serpent prepare spells:Fireball")
    await console.ok("@as Black")
    await console.ok("/serpent prepare")
    await console.ok("@as White")
    cast = await console.ok(f"/serpent cast spell:Fireball target:{target}")
    assert cast["data"]["battle"]["window"]["effect"] == "Fireball"


@pytest.fixture
def timer(console: Console) -> ResponseWindowTimer:
    cog = console.table.bot.get_cog("ResponseWindowTimer")
    # the bot loaded cogs/serpent.py as an extension: a fresh module, so compare by name, not class identity
    assert type(cog).__name__ == ResponseWindowTimer.__name__
    return cog  # type: ignore[return-value]


@pytest.fixture
def clock(console: Console) -> Clock:
    clock = Clock(NOON)
    console.table.bot.service.clock = clock
    return clock


async def board(console: Console, channel: int = 2002) -> dict[str, Any]:
    await console.ok(f"@channel {channel}")
    return (await console.ok("/serpent battle board"))["data"]["battle"]


async def test_the_sweep_closes_only_overdue_windows_as_the_gm(
    console: Console, timer: ResponseWindowTimer, clock: Clock
) -> None:
    await duel_with_open_window(console)
    clock.now = "2030-01-01T12:30:00+00:00"
    await duel_with_open_window(
        console, channel=2003, name="Later duel", magi=("Whitney", "Blake")
    )  # its window opens at 12:30
    store = console.table.bot.service.store
    assert [row.channel_id for row in await store.live_campaigns("serpent")] == [2002, 2003]

    clock.now = "2030-01-01T12:59:59+00:00"
    assert await timer.sweep() == []
    assert (await board(console))["window"]["effect"] == "Fireball"

    clock.now = "2030-01-01T13:00:00+00:00"
    (reply,) = await timer.sweep()  # 2002's hour is up; 2003's is not
    card = reply.outcome.card
    assert "⏰ The response window on Fireball" in card.description
    assert "closed at 2030-01-01 13:00 UTC, 60 minutes after it opened: Black did not respond and pass." in (
        card.description
    )
    assert "Fireball deals 2 Essence Dmg to Black" in card.description
    first = await board(console)
    assert first["window"] is None and first["beings"]["Black"]["essence"] == 10
    later = await board(console, 2003)
    assert later["window"]["effect"] == "Fireball" and later["beings"]["Blake"]["essence"] == 12

    # logged like any action, by the timer acting as the GM
    await console.ok("@channel 2002")
    await console.ok("@as Gwen")
    log = (await console.ok("/campaign log"))["data"]["events"]
    (closed,) = [e for e in log if e["command"] == "serpent battle close-window"]
    assert closed["actor"] == TIMER_NAME
    assert closed["summary"].endswith("closed: its time ran out")

    assert await timer.sweep() == []  # nothing left to do at 13:00
    clock.now = "2030-01-01T13:30:00+00:00"
    (reply,) = await timer.sweep()
    assert "Blake did not respond and pass" in reply.outcome.card.description
    assert (await board(console, 2003))["window"] is None


async def test_a_window_closed_meanwhile_is_left_alone(
    console: Console, timer: ResponseWindowTimer, clock: Clock
) -> None:
    await duel_with_open_window(console)
    battle = await board(console)
    stale = battle["window"]["id"]
    await console.ok("@as Black")
    await console.ok("/serpent pass")  # Black answers before the timer
    service = console.table.bot.service
    with pytest.raises(RuleError, match=r"not open|No response window"):
        await service.run(
            Place(1001, 2002),
            Caller(0, TIMER_NAME, manages_guild=True),
            "serpent",
            "battle close-window",
            {"window": stale},
        )
    clock.now = "2030-01-01T15:00:00+00:00"
    assert await timer.sweep() == []


async def test_no_time_limit_other_rulesets_and_ended_campaigns_are_skipped(
    console: Console, timer: ResponseWindowTimer, clock: Clock
) -> None:
    await duel_with_open_window(console)
    await console.ok("@as Gwen")
    await console.ok("/campaign settings key:response_window_minutes value:0")
    await console.ok("@channel 2004")
    await console.ok("/campaign start ruleset:tally name:Counting")
    clock.now = "2030-01-09T12:00:00+00:00"
    assert await timer.sweep() == []
    assert (await board(console))["window"]["effect"] == "Fireball"

    await console.ok("@as Gwen")
    await console.ok("/campaign settings key:response_window_minutes value:30")
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    assert await console.table.bot.service.store.live_campaigns("serpent") == []
    assert await timer.sweep() == []


async def test_the_result_is_posted_where_the_bot_can_see_the_channel(
    console: Console, timer: ResponseWindowTimer, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await duel_with_open_window(console)
    channel = FakeChannel()
    monkeypatch.setattr(console.table.bot, "get_channel", lambda channel_id: channel if channel_id == 2002 else None)
    clock.now = "2030-01-01T14:00:00+00:00"
    (reply,) = await timer.sweep()
    (sent,) = channel.sent
    embed: discord.Embed = sent["embed"]
    assert embed.title == reply.outcome.card.title
    assert "⏰ The response window on Fireball" in (embed.description or "")


async def test_the_loop_runs_every_minute_and_stops_with_the_cog(console: Console, timer: ResponseWindowTimer) -> None:
    bot = console.table.bot
    assert timer.sweeper.minutes == 1
    await bot.unload_extension("cogs.serpent")
    await asyncio.sleep(0)
    assert not timer.sweeper.is_running()
    assert bot.tree.get_command("serpent") is None
    await bot.load_extension("cogs.serpent")
    assert bot.tree.get_command("serpent") is not None
