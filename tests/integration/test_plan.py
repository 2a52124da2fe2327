"""The spell planner at the table (issue 26): `/runic plan` and `/awakened plan` through the console's real
Discord interactions, the **Cast plan N** buttons (lasting: pressed by a fresh process), and who may press."""

from __future__ import annotations

from pathlib import Path

from bot.adapter.views import CUSTOM_ID_MAX
from bot.cli.console import ConsoleTable, Result
from bot.cli.virtual import Sent, VirtualUser
from tests.conftest import Console

RUNIC = [
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "/runic mage word word:Ort skill:14",
    "/runic mage word word:Sanct skill:14",
    "/runic spell define name:Sleep words:Ort-Sanct resisted:HT known:true",
]
AWAKENED = [
    "@as Gwen",
    "/campaign start ruleset:awakened name:Boston",
    "@as Pat",
    '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
    'gnosis:3 arcana:"Life 3, Spirit 2"',
    "/awakened spell cast mode:rote spell:Mend arcana:Life aspect:covert",
]


async def test_runic_plan_shows_three_plans_and_cast_plan_casts_exactly_that(console: Console) -> None:
    for line in RUNIC:
        await console.ok(line)
    shown = await console.ok("/runic plan spell:Sleep resistance:12")
    assert shown["ephemeral"]
    assert "Plan 1: the highest chance of success" in shown["text"]
    assert "Critical success: 9.26% (5/54)" in shown["text"]
    assert "[buttons: Cast plan 1 | Cast plan 2 | Cast plan 3]" in shown["text"]
    planned = shown["data"]["plans"][0]
    mp = (await console.ok("/runic mage show"))["data"]["sheet"]["mp"]
    await console.ok("/runic plan spell:Sleep resistance:12")
    cast = await console.ok("@press Cast plan 1")
    assert cast["data"]["skill"]["effective"] == planned["effective"] == 16
    assert "Precise ritual (double time): +1" in cast["text"]
    expected = {"critical_success": 0, "success": planned["energy"], "critical_failure": planned["energy"]}
    after = (await console.ok("/runic mage show"))["data"]["sheet"]["mp"]
    assert mp - after == expected.get(cast["data"]["outcome"], 1)


async def test_only_the_casters_player_or_a_gm_may_cast_a_plan(console: Console) -> None:
    for line in RUNIC:
        await console.ok(line)
    await console.ok("/runic plan spell:Sleep resistance:12")
    await console.ok("@as Oz")
    refused = await console.fails("@press Cast plan 2")
    assert "Merlin belongs to another player" in refused["text"]
    await console.ok("@gm")
    assert "Merlin casts Sleep" in (await console.ok("@press Cast plan 2"))["text"]


async def test_awakened_plan_casts_then_shapes_on_one_press(console: Console) -> None:
    for line in AWAKENED:
        await console.ok(line)
    shown = await console.ok("/awakened plan spell:Mend")
    assert "Plan 2: the cheapest plan with success ≥ 90%" in shown["text"]
    assert "Paradox: 65.70% (657/1000)" in shown["text"]  # a vulgar Shaping adds Gnosis 3 dice to the pool
    pressed = await console.ok("@press Cast plan 2")
    assert "Cast: Ash — #1 Mend" in pressed["text"] and "Shaping: Ash — #1 Mend" in pressed["text"]
    assert pressed["data"]["pool"] == shown["data"]["plans"][1]["pool"] == 6


async def test_a_bad_goal_and_an_unreachable_one_say_what_would_work(console: Console) -> None:
    for line in RUNIC:
        await console.ok(line)
    bad = await console.fails('/runic plan spell:Sleep resistance:12 goal:"as good as can be"')
    assert "`best`, `success>=90%` or `calamity<=5%`" in bad["text"]
    far = await console.ok('/runic plan spell:Sleep resistance:12 goal:"success ≥ 99%"')
    assert "No plan reaches success ≥ 99%. Nearest: `/runic cast spell:Sleep" in far["text"]
    assert "buttons" not in far["text"]


async def test_cast_plan_buttons_last_across_a_restart(tmp_path: Path, registry) -> None:
    db = tmp_path / "plan.sqlite3"
    table = await ConsoleTable.open(db, seed=5, registry=registry)
    for line in RUNIC:
        result = await table.execute(line)
        assert result is not None and result.ok, line
    result = await table.execute("/runic plan spell:Sleep resistance:12")
    assert result is not None and result.ok
    message: Sent | None = table.last_with_buttons
    await table.close()
    assert message is not None
    assert all(len(button["custom_id"]) <= CUSTOM_ID_MAX for button in message.buttons())

    fresh = await ConsoleTable.open(db, seed=5, registry=registry)
    try:
        button = next(b for b in message.buttons() if b["label"] == "Cast plan 3")
        interaction, sent = await fresh.virtual.press(VirtualUser("Pat"), message, button)
        pressed: Result = fresh._result("@press Cast plan 3", interaction, sent)
        assert pressed.ok and "Merlin casts Sleep" in pressed.text
    finally:
        await fresh.close()


async def test_one_goal_labels_its_plans_first_second_and_third(console: Console) -> None:
    """One goal shows its three best plans: only the first is "the cheapest" (or likeliest); the others say where
    they rank, so a reader does not take three plans of different costs for three cheapest ones."""
    for line in RUNIC:
        await console.ok(line)
    shown = await console.ok('/runic plan spell:Sleep resistance:12 goal:"success>=90%"')
    whys = [plan["why"] for plan in shown["data"]["plans"]]
    assert whys == [
        "the cheapest plan with success ≥ 90%",
        "the second cheapest plan with success ≥ 90%",
        "the third cheapest plan with success ≥ 90%",
    ]
    costs = [plan["cost"] for plan in shown["data"]["plans"]]
    assert costs == sorted(costs) and len({tuple(cost) for cost in costs}) > 1
    assert "Plan 2: the second cheapest plan with success ≥ 90%" in shown["text"]
    assert shown["text"].count("the cheapest plan") == 1
    risk = await console.ok('/runic plan spell:Sleep resistance:12 goal:"calamity<=5%"')
    assert [plan["why"] for plan in risk["data"]["plans"]][:2] == [
        "the likeliest plan with calamity ≤ 5%",
        "the second likeliest plan with calamity ≤ 5%",
    ]
    best = await console.ok("/runic plan spell:Sleep resistance:12 goal:best")
    assert [plan["why"] for plan in best["data"]["plans"]][:2] == [
        "the highest chance of success",
        "the second highest chance of success",
    ]
