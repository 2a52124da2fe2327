"""A quiet saga table is reminded by the core's schedule (``bot/table/schedule.py``), no longer by a saga-only sweep.

The old house rule ``nudge_hours`` is retired: the campaign's ``turn_deadline`` and ``nudge`` apply to every
step the table waits on (``rules/saga/waits.py``), and the reminder pings the player. ``/saga nudge`` stays
as the GM's reminder by hand.
"""

from __future__ import annotations

from rules.saga.state import SagaSettings
from tests.conftest import Console

GAME = (
    "@as Gwen",
    "/campaign start ruleset:saga name:Stars",
    "/campaign settings key:turn_deadline value:1d",
    "@as Pat",
    "/saga start deck:sample seed:168",
    '/saga move to:"Sample Cellar"',
    "/saga continue",
)


async def test_a_quiet_step_10_is_reminded_once_then_handed_to_the_gm(console: Console) -> None:
    for line in GAME:
        await console.ok(line)
    waiting = await console.ok("/saga continue")  # step 10 waits from now
    assert waiting["pings"] == ["Pat"]
    console.timers()
    await console.ok("@wait 11h")
    assert console.timers() == []
    await console.ok("@wait 1h")
    (nudge,) = console.timers()
    assert (nudge["data"]["timer"], nudge["pings"]) == ("nudge", ["Pat"])
    assert "step 10" in nudge["data"]["wait"]
    await console.ok("@wait 12h")
    (deadline,) = console.timers()
    assert (deadline["data"]["timer"], deadline["data"]["rule"], deadline["pings"]) == ("deadline", "gm", ["Gwen"])
    await console.ok("@wait 3d")
    assert console.timers() == []  # each once
    await console.ok("@as Gwen")
    by_hand = await console.ok("/saga nudge")  # the GM may still remind by hand
    assert "waits at step 10" in by_hand["text"]


async def test_old_campaigns_with_nudge_hours_still_load(console: Console) -> None:
    assert SagaSettings.model_validate({"nudge_hours": 12}) == SagaSettings()
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:saga name:Stars")
    refused = await console.fails("/campaign settings key:nudge_hours value:12")
    assert "nudge_hours" in refused["text"]
