"""/remind (issue 13): durations and dates in the reader's time zone, fired once by the schedule, listed, cancelled."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.table.registry import Registry
from tests.conftest import Console

START = "2030-01-01T12:00:00+00:00"  # a Tuesday


@pytest.fixture
async def clocked(tmp_path: Path, registry: Registry):
    table = await ConsoleTable.open(tmp_path / "remind.sqlite3", seed=7, registry=registry, clock=START)
    console = Console(table)
    for line in ("@as Gwen", "/campaign start ruleset:tally name:Crows", "@as Pat", "/tally create name:Pip"):
        await console.ok(line)
    yield console
    await table.close()


async def test_a_reminder_to_oneself_fires_once_and_pings_only_its_setter(clocked: Console) -> None:
    set_ = await clocked.ok('/remind set when:2h text:"post my turn"')
    assert set_["ephemeral"] and set_["data"]["due"] == "2030-01-01T14:00:00+00:00"
    assert "pings" not in set_
    listed = await clocked.ok("/remind list")
    assert [r["text"] for r in listed["data"]["reminders"]] == ["post my turn"]
    await clocked.ok("@wait 1h")
    assert clocked.timers() == []
    await clocked.ok("@wait 1h")
    (fired,) = clocked.timers()
    assert fired["data"]["timer"] == "remind" and fired["pings"] == ["Pat"] and "post my turn" in fired["text"]
    await clocked.ok("@wait 1d")
    assert clocked.timers() == []
    assert (await clocked.ok("/remind list"))["data"]["reminders"] == []


@pytest.mark.parametrize(
    ("when", "due"),
    [
        ('"in 3 days"', "2030-01-04T12:00:00+00:00"),
        ('"1d 12h"', "2030-01-03T00:00:00+00:00"),
        ('"tomorrow 18:00"', "2030-01-02T17:00:00+00:00"),  # 18:00 in Paris
        ('"2030-03-01 20:00"', "2030-03-01T19:00:00+00:00"),
    ],
)
async def test_dates_are_read_in_the_users_time_zone(clocked: Console, when: str, due: str) -> None:
    await clocked.ok("/remind timezone zone:Europe/Paris")
    assert (await clocked.ok(f"/remind set when:{when} text:x"))["data"]["due"] == due


async def test_the_campaign_time_zone_applies_when_the_user_has_none(clocked: Console) -> None:
    await clocked.ok("@as Gwen")
    await clocked.ok("/campaign settings key:timezone value:America/New_York")
    set_ = await clocked.ok('/remind set when:"tomorrow 9:00" text:x')
    assert set_["data"]["due"] == "2030-01-02T14:00:00+00:00" and set_["data"]["timezone"] == "America/New_York"
    await clocked.ok("/remind timezone zone:UTC")
    assert (await clocked.ok('/remind set when:"tomorrow 9:00" text:x'))["data"]["due"] == "2030-01-02T09:00:00+00:00"


async def test_bad_times_say_what_works(clocked: Console) -> None:
    assert "cannot read" in (await clocked.fails("/remind set when:soonish text:x"))["text"]
    assert "has passed" in (await clocked.fails("/remind set when:yesterday text:x"))["text"]
    assert "a year" in (await clocked.fails('/remind set when:"in 3 years" text:x'))["text"]
    for zone in ("Mars/Base", "America", "x" * 64, ".."):
        assert "not a time zone" in (await clocked.fails(f"/remind timezone zone:{zone}"))["text"]


async def test_reminding_others_needs_the_gm_and_pings_exactly_them(clocked: Console) -> None:
    assert "needs a GM" in (await clocked.fails("/remind set when:1h text:x who:Oz"))["text"]
    assert "needs a GM" in (await clocked.fails("/remind set when:1h text:x everyone:true"))["text"]
    await clocked.ok("@as Oz")  # the console names only members it has met
    await clocked.ok("@as Gwen")
    await clocked.ok('/remind set when:1h text:"session tonight" everyone:true')
    await clocked.ok('/remind set when:2h text:"you too" who:Oz')
    await clocked.ok("@wait 1h")
    (everyone,) = clocked.timers()
    assert sorted(everyone["pings"]) == ["Gwen", "Pat"]
    await clocked.ok("@wait 1h")
    (one,) = clocked.timers()
    assert one["pings"] == ["Oz"]


async def test_only_the_setter_or_a_gm_cancels(clocked: Console) -> None:
    set_ = await clocked.ok("/remind set when:1h text:x")
    number = set_["data"]["id"]
    await clocked.ok("@as Oz")
    assert "Only whoever set" in (await clocked.fails(f"/remind cancel id:{number}"))["text"]
    await clocked.ok("@as Gwen")
    await clocked.ok(f"/remind cancel id:{number}")
    assert "no reminder" in (await clocked.fails(f"/remind cancel id:{number}"))["text"]
    await clocked.ok("@wait 2h")
    assert clocked.timers() == []
