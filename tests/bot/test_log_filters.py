"""/campaign log filters: a player's events, a command's, the GM's secret ones, a text; pages keep them."""

from __future__ import annotations

import re

from tests.conftest import Console


async def _table(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    for number in range(12):
        await console.ok(f'/roll expression:1d6 label:"fire bolt {number}"')
    await console.ok('/roll expression:1d20 label:"hidden door" secret:true')
    await console.ok("@as Oz")
    await console.ok('/roll expression:1d8 label:"ice lance"')


async def test_filters_narrow_the_log_and_the_page_buttons_keep_them(console: Console) -> None:
    await _table(console)
    await console.ok("@gm")
    by_pat = await console.ok("/campaign log player:Pat command:roll")
    assert by_pat["data"]["filters"]["matches"] == 13 and by_pat["data"]["pages"] == 2
    assert {e["actor"] for e in by_pat["data"]["events"]} == {"Pat"}
    assert {e["command"] for e in by_pat["data"]["events"]} == {"roll"}
    assert "Next" in by_pat["buttons"]
    turned = await console.ok("@press Next")  # page 2 of the same filters, not of the whole log
    assert "Page 2 of 2" in turned["text"] and "by Pat, /roll" in turned["text"] and "/roll" in turned["text"]
    assert "ice lance" not in turned["text"] and "created Pip" not in turned["text"]
    assert turned["text"].count("Pat") >= 3
    searched = await console.ok('/campaign log text:"ICE lan"')  # case does not matter
    assert [e["actor"] for e in searched["data"]["events"]] == ["Oz"]
    assert re.search(r"`#16` \d{4}-\d\d-\d\d \d\d:\d\d \*\*Oz\*\*", searched["text"])  # dates carry the year


async def test_secrets_are_the_gms_alone(console: Console) -> None:
    await _table(console)
    await console.ok("@gm")
    secret = await console.ok("/campaign log secrets:true")
    assert [e["actor"] for e in secret["data"]["events"]] == ["Pat"] and "secret" in secret["data"]["events"][0]
    await console.ok("@as Pat")
    refused = await console.fails("/campaign log secrets:true")
    assert "Only a GM" in refused["text"] and "events" not in refused["data"]
    mine = await console.ok("/campaign log player:Pat")
    hidden = next(e for e in mine["data"]["events"] if "secret" in e["summary"] or "hidden" in e["summary"])
    assert "secret" not in hidden  # the entry shows, its secret side does not
    # a player cannot find an entry by the words of its secret side (that would leak it); the GM can
    assert "hidden door" in secret["data"]["events"][0]["secret"]
    assert (await console.ok('/campaign log text:"hidden door"'))["data"]["events"] == []
    await console.ok("@gm")
    found = (await console.ok('/campaign log text:"hidden door"'))["data"]["events"]
    assert [e["summary"] for e in found] == ["made a secret roll"]


async def test_bad_filters_are_refused_plainly(console: Console) -> None:
    await _table(console)
    await console.ok("@gm")
    nothing = await console.ok("/campaign log command:saga")
    assert nothing["data"]["events"] == [] and "No event matches" in nothing["text"]
    too_long = await console("/campaign log text:" + "x" * 31)
    assert not too_long["ok"]


def test_the_longest_filters_fit_a_page_buttons_custom_id_and_read_back() -> None:
    """Discord allows 100 characters in a custom_id: the widest owner, page and filters still fit and parse."""
    from bot.adapter.views import PageButton
    from bot.table.campaigns import LOG_TEXT_MAX, LogFilter

    widest = LogFilter(
        player_id=2**64 - 1, command="serpent battle encounter-add", secrets=True, text="~: ü" * (LOG_TEXT_MAX // 4)
    )
    button = PageButton("log", 2**64 - 1, 100_000, "n", widest.arg())
    custom_id = button.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    match = PageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None and match["arg"] == widest.arg()
    player, secrets, command_key, text = match["arg"].split("~", 3)
    assert int(player, 36) == widest.player_id and secrets == "s" and text == widest.text
