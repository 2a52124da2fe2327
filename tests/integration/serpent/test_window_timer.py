"""Response windows in play-by-post through the core's schedule (``bot/table/schedule.py``), at the console.

The old serpent-only sweep is gone: each Magi a window waits on is a wait with the campaign's
``response_window`` deadline; at the deadline the schedule runs ``battle close-window magi:`` as the GM
(logged like any action), and a caster who lets her priority run out passes only herself, the others
getting their full time from then (ruling 19).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.conftest import Console

SETUP = (
    "@as Gwen",
    "/campaign start ruleset:serpent name:Windows",
    "/campaign settings key:response_window value:1h",
    '/serpent spell define name:"Universum Negation" dispel_to:discard',
    "@as Wanda",
    '/serpent magi create name:White codex:"Fireball, Universum Negation"',
    "@as Bert",
    '/serpent magi create name:Black codex:"Universum Negation, Dissolve Tissue"',
    "@as Gwen",
    "/serpent battle start",
    "@as Wanda",
    "/serpent battle join",
    "@as Bert",
    "/serpent battle join",
    "@as Gwen",
    "/serpent battle round resonance:10 rolloff:White",
    "@as Wanda",
    "/serpent prepare spells:Fireball",
    "@as Bert",
    '/serpent prepare spells:"Dissolve Tissue"',
)


async def setup(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)
    assert console.timers() == []


async def test_a_priority_run_out_passes_the_caster_then_the_others_get_their_full_time(console: Console) -> None:
    await setup(console)
    await console.ok("@as Wanda")
    cast = await console.ok("/serpent cast spell:Fireball target:Black")
    assert cast["pings"] == ["Wanda"]  # her priority: she may answer her own spell first
    await console.ok("@wait 59m")
    assert [t["data"]["timer"] for t in console.timers()] == ["nudge"]
    await console.ok("@wait 1m")
    (priority,) = console.timers()
    assert priority["data"]["ran"] == "battle close-window" and priority["data"]["who"] == "White"
    assert priority["pings"] == ["Bert"]  # now the window waits on Black, for a full hour from now
    assert priority["data"]["battle"]["window"]["effect"] == "Fireball"
    (wait,) = (await console.ok("/campaign waiting"))["data"]["waits"]
    assert wait["who"] == "Black"
    opened = datetime.fromisoformat(cast["data"]["battle"]["window"]["opened_at"])
    assert datetime.fromisoformat(wait["since"]) == opened + timedelta(hours=1)  # when her priority ran out
    assert datetime.fromisoformat(wait["deadline"]) == opened + timedelta(hours=2)  # a full hour from then


async def test_the_deadline_passes_for_the_magi_as_the_gm_and_is_logged(console: Console) -> None:
    await setup(console)
    await console.ok("@as Wanda")
    await console.ok("/serpent cast spell:Fireball target:Black")
    await console.ok("/serpent pass")  # her priority
    await console.ok("@wait 30m")
    await console.ok("@wait 30m")
    nudge, deadline = console.timers()
    assert nudge["command"] == "@timer nudge" and nudge["data"]["who"] == "Black"
    assert deadline["data"]["ran"] == "battle close-window" and deadline["data"]["battle"]["window"] is None
    assert "Black did not answer Fireball in time, so they passed" in deadline["text"]
    events = (await console.ok("/campaign log"))["data"]["events"]
    assert (events[0]["command"], events[0]["actor"]) == ("serpent battle close-window", "Magister (timer)")
    await console.ok("@wait 1d")
    # the window is over, its timers with it; only the turn it handed on (Black's, 2 days) is reminded at half time
    assert [(t["data"]["timer"], t["data"]["who"]) for t in console.timers()] == [("nudge", "Black")]


async def test_answering_in_time_cancels_the_reminder_and_the_deadline(console: Console) -> None:
    await setup(console)
    await console.ok("@as Wanda")
    await console.ok("/serpent cast spell:Fireball target:Black")
    await console.ok("/serpent pass")
    await console.ok("@as Bert")
    await console.ok("/serpent pass")
    await console.ok("@wait 2h")
    assert console.timers() == []


async def test_the_old_setting_is_refused_with_its_replacement(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:serpent name:Windows")
    refused = await console.fails("/campaign settings key:response_window_minutes value:30")
    assert "response_window_minutes" in refused["text"]
