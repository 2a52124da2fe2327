"""The nudge (house rule `nudge_hours`): the cog's sweep, called directly with a fake clock, against real SQLite."""

from __future__ import annotations

import pytest

from cogs.saga import NUDGE_NAME, SagaNudge
from tests.conftest import Console

NOON = "2030-01-01T12:00:00+00:00"


class Clock:
    def __init__(self, now: str) -> None:
        self.now = now

    def __call__(self) -> str:
        return self.now


@pytest.fixture
def clock(console: Console) -> Clock:
    clock = Clock(NOON)
    console.table.bot.service.clock = clock
    return clock


@pytest.fixture
def nudger(console: Console) -> SagaNudge:
    cog = console.table.bot.get_cog("SagaNudge")
    assert type(cog).__name__ == SagaNudge.__name__
    return cog  # type: ignore[return-value]


async def test_a_quiet_step_10_is_nudged_once(console: Console, clock: Clock, nudger: SagaNudge) -> None:
    for line in ("@as Gwen", "/campaign start ruleset:saga name:Stars", "@as Pat",
                 "/saga start deck:sample seed:168", '/saga move to:"Sample Cellar"', "/saga continue"):  # fmt: skip
        await console.ok(line)
    await console.ok("/saga continue")  # step 10 waits from noon
    assert await nudger.sweep() == []  # nudge_hours is 0: off
    await console.ok("@as Gwen")
    await console.ok("/campaign settings key:nudge_hours value:12")
    clock.now = "2030-01-01T23:59:00+00:00"
    assert await nudger.sweep() == []
    clock.now = "2030-01-02T00:00:00+00:00"
    (reply,) = await nudger.sweep()
    assert "waits at step 10" in reply.outcome.card.description and "/saga end" in reply.outcome.card.description
    assert await nudger.sweep() == []  # once per wait
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert log[0]["command"] == "saga nudge" and log[0]["actor"] == NUDGE_NAME
    await console.ok("@as Pat")
    await console.ok('/saga end cycle:"Sample Song of Dusk"')  # step 1 now: nothing to nudge
    clock.now = "2030-01-05T00:00:00+00:00"
    assert await nudger.sweep() == []
    assert "needs the GM" in (await console.fails("/saga nudge"))["text"]
