"""/campaign log filters: a player's events, a command's, the GM's secret ones, a text; pages keep them."""

from __future__ import annotations

import re

from tests.conftest import Console
from tests.support.runic import SEEK_MAGE


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


def test_page_buttons_carry_where_they_seek_from_when_it_fits() -> None:
    """A filtered page's Next carries its last event's number (Previous its first), in base 36 after the page; a
    custom_id that would pass 100 characters goes by page number alone, which is slower on a deep page, never
    wrong. Discord ids are at most 19 digits; a filter of the widest still carries it past a million events."""
    from bot.adapter.views import PageButton, pager
    from bot.table.campaigns import LOG_TEXT_MAX, LogFilter

    widest = LogFilter(
        player_id=2**63 - 1, command="serpent battle encounter-add", secrets=True, text="ü" * LOG_TEXT_MAX
    )
    owner = 2**63 - 1
    for ends, seeks in (((5_000_001, 4_999_000), True), ((2**40, 2**40 - 9), False)):
        view = pager("log", owner, 100_000, 100_001, widest.arg(), ends)
        assert view is not None
        for item, at in zip(view.children, ends, strict=True):
            custom_id = item.custom_id  # type: ignore[attr-defined]
            assert len(custom_id) <= 100
            match = PageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
            assert match is not None and match["arg"] == widest.arg()
            assert (int(match["at"], 36) == at) if seeks else match["at"] is None


# ---------------------------------------------------------------------- issue 23: a long log, read by its indexes

SNAPSHOT = '{"state_delta":[],"settings_delta":[],"characters":[]}'
OLD_EVENTS = (  # (actor id, actor, command, summary, result) as a campaign of schema 7 logged them
    (11, "Gwen", "campaign start", "started campaign 'Crows' (tally)", "{}"),
    (22, "Pat", "roll", "Pat rolled 1d6 for fire bolt: 4", "{}"),
    (22, "Pat", "roll", "made a secret roll", '{"secret":{"summary":"hidden door: 17"}}'),
    (33, "Oz", "roll", "Oz rolled 1d8 for ice lance: 3", '{"private":{"summary":"Oz hides the map","readers":[33]}}'),
)


async def _schema_7(path) -> None:
    """A database as the previous Magister left it (schema 7: no log indexes), with a campaign's log in it."""
    from bot.storage.postgres.migrations import BOOKKEEPING, PG_MIGRATIONS
    from bot.storage.sqlite import MIGRATIONS, statements
    from tests.support import db as test_db

    campaign = (
        "INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_ids, settings, state, created_at)"
        " VALUES (1001, 2002, 'tally', 'Crows', '[11]', '{}', '{\"count\":0}', 't')"
    )
    event = (
        "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, seq)"
        " VALUES (1, '2026-01-01T00:00:00+00:00', ?, ?, ?, ?, ?, ?)"
    )
    rows = [(*event_, seq) for seq, event_ in enumerate(OLD_EVENTS, start=1)]
    target = test_db.target(path)
    if isinstance(target, str):  # the PostgreSQL pass: the same, in PostgreSQL's dialect
        import asyncpg

        from bot.storage.postgres.statements import placeholders

        connection = await asyncpg.connect(target)
        try:
            await connection.execute(BOOKKEEPING)
            for number in range(1, 8):
                await connection.execute(PG_MIGRATIONS[number])
            await connection.execute("UPDATE magister_schema SET version = 7")
            await connection.execute(campaign)
            await connection.executemany(placeholders(event), rows)
        finally:
            await connection.close()
        return
    import sqlite3

    db = sqlite3.connect(path)
    for script in MIGRATIONS[:7]:
        for statement in statements(script):
            db.execute(statement)
    db.execute("PRAGMA user_version = 7")
    db.execute(campaign)
    db.executemany(event, rows)
    db.commit()
    db.close()


async def test_migration_8_indexes_the_log_a_campaign_already_has(tmp_path, registry) -> None:
    """The text index, and the player's and secret events' indexes, hold what was logged before them; and the
    text index follows a rewrite of an old entry (forgetting a member)."""
    import random

    from bot.storage.database import open_store
    from bot.storage.sqlite import MIGRATIONS
    from bot.table import campaigns
    from bot.table.service import TableService
    from tests.conftest import GM, HERE, PLAYER
    from tests.support import db as test_db

    path = tmp_path / "schema7.sqlite3"
    await _schema_7(path)
    store = await open_store(test_db.target(path))
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 8
        service = TableService(store, registry, random.Random(1))

        async def found(caller, **filters) -> list[str]:
            page, _ = await campaigns.log_page(service, HERE, 1, caller, campaigns.LogFilter(**filters))
            return [e["summary"] for e in page.outcome.data["events"]]

        assert await found(PLAYER, text="FIRE BOLT") == ["Pat rolled 1d6 for fire bolt: 4"]
        assert await found(GM, text="hidden door") == ["made a secret roll"]  # the GM's side, found by the GM
        assert await found(PLAYER, text="hidden door") == []  # and never by a player
        assert await found(GM, text="hides the map") == ["Oz rolled 1d8 for ice lance: 3"]
        assert await found(GM, secrets=True) == ["Oz rolled 1d8 for ice lance: 3", "made a secret roll"]
        assert await found(GM, player_id=22) == ["made a secret roll", "Pat rolled 1d6 for fire bolt: 4"]
        assert await found(GM, text="Oz") == ["Oz rolled 1d8 for ice lance: 3"]  # short: the newest events
        await store.write(lambda tx: tx.forget_member(33))  # "Oz" leaves: his entry is rewritten
        assert await found(GM, text="Oz rolled") == []
        assert await found(GM, text="former member rolled") == ["a former member rolled 1d8 for ice lance: 3"]
        # and new events are indexed as they are logged
        await service.run(HERE, PLAYER, "tally", "create", {"name": "Lantern"})
        assert await found(PLAYER, text="lantern") == ["created Lantern"]
    finally:
        await store.close()


async def _long_log(console: Console, events: int) -> list[int]:
    """A campaign whose log has ``events`` more entries (straight into the database); the numbers of those naming
    "fire bolt", newest first."""
    from tests.bot.test_log_cost import _rows
    from tests.support.db import insert_many

    await console.ok("/campaign start ruleset:tally name:Crows")
    service = console.table.bot.service
    campaign = await service.campaign(console.table._place())
    assert campaign is not None
    rows = list(_rows(campaign.row.id, events, 2))  # #1 is the campaign's start
    await insert_many(
        service.store,
        "INSERT INTO events (campaign_id, at, actor_id, actor_name, command, summary, result, seq)"
        " VALUES (?, '2026-01-01T00:00:00+00:00', ?, ?, ?, ?, ?, ?)",
        rows,
    )
    return sorted((row[-1] for row in rows if "fire bolt" in row[4]), reverse=True)


def _numbers(result: dict) -> list[int]:
    """The event numbers a log page shows, as its reader sees them (a pressed button's page has no data)."""
    return [int(number) for number in re.findall(r"`#(\d+)`", result["text"])]


async def test_a_long_filtered_log_pages_by_event_number_and_every_page_is_reachable(console: Console) -> None:
    matches = await _long_log(console, 2_500)  # 250 name "fire bolt": more than the count goes to
    first = await console.ok('/campaign log text:"fire bolt"')
    assert _numbers(first) == matches[:10]
    assert "Page 1 of 21+" in first["text"] and "over 200 events" in first["text"]
    assert first["data"]["filters"]["more"] is True and first["data"]["pages"] == 21
    message = console.table.last_with_buttons
    assert message is not None
    next_id = next(b["custom_id"] for b in message.buttons() if b["label"] == "Next")
    assert next_id.split(":")[4] == f"2.{_base36(matches[9])}"  # page 2, seeking below the page's last event

    second = await console.ok("@press Next")
    assert _numbers(second) == matches[10:20] and "Page 2 of 21+" in second["text"]
    third = await console.ok("@press Next")
    assert _numbers(third) == matches[20:30]
    back = await console.ok("@press Previous")
    assert _numbers(back) == matches[10:20] and "Page 2 of" in back["text"]

    # a page typed by number: any page there is, and past the last one, the last one
    assert _numbers(await console.ok('/campaign log text:"fire bolt" page:13')) == matches[120:130]
    last = await console.ok('/campaign log text:"fire bolt" page:26')
    assert _numbers(last) == matches[240:250] and "Page 25 of 25 ·" in last["text"] and "250 events" in last["text"]
    assert last["data"]["filters"]["more"] is False
    whole = await console.ok("/campaign log page:150000")  # past 100,000: accepted, and the last page shown
    assert _numbers(whole) == [1] and "Page 251 of 251" in whole["text"]
    assert _numbers(await console.ok("/campaign log page:126")) == list(range(1251, 1241, -1))


async def test_a_search_of_one_or_two_characters_reads_the_newest_events_and_says_so(console: Console) -> None:
    from bot.storage.rows import SHORT_TEXT_WINDOW

    await _long_log(console, SHORT_TEXT_WINDOW + 400)
    short = await console.ok("/campaign log text:Oz")
    assert all("Oz" in event["summary"] for event in short["data"]["events"])
    assert f"a search of 1 or 2 characters reads the newest {SHORT_TEXT_WINDOW} events" in short["text"]
    newest = SHORT_TEXT_WINDOW + 401
    found = await console.ok("/campaign log text:Oz page:999")  # its last page: within the window
    assert min(_numbers(found)) > newest - SHORT_TEXT_WINDOW
    longer = await console.ok('/campaign log text:"Oz r"')  # three characters or more: the whole log
    assert "1 or 2 characters" not in longer["text"]
    assert min(_numbers(await console.ok('/campaign log text:"Oz r" page:999'))) < newest - SHORT_TEXT_WINDOW


def _base36(number: int) -> str:
    from bot.table.campaigns import base36

    return base36(number)


async def test_a_database_that_cannot_build_the_text_index_says_what_it_needs(tmp_path) -> None:
    """Migration 8 needs SQLite's FTS5 trigram tokenizer, or PostgreSQL's pg_trgm: without it the start stops
    with what to install, and the database stays at its previous schema."""
    import pytest

    from bot.storage.database import open_store
    from bot.storage.postgres.migrations import PG_MIGRATIONS
    from bot.storage.rows import StoreOpenError
    from bot.storage.sqlite import MIGRATIONS
    from tests.support import db as test_db

    path = test_db.target(tmp_path / "old.sqlite3")
    with pytest.MonkeyPatch.context() as patch:  # the previous Magister made it
        patch.setattr("bot.storage.sqlite.MIGRATIONS", MIGRATIONS[:7])
        patch.setattr("bot.storage.postgres.migrations.MIGRATIONS", MIGRATIONS[:7])
        await (await open_store(path)).close()
    with pytest.MonkeyPatch.context() as patch:  # a SQLite without the trigram tokenizer, a server without pg_trgm
        missing = MIGRATIONS[7].replace("tokenize = 'trigram'", "tokenize = 'trigram_missing'")
        patch.setattr("bot.storage.sqlite.MIGRATIONS", (*MIGRATIONS[:7], missing))
        patch.setitem(PG_MIGRATIONS, 8, PG_MIGRATIONS[8].replace("EXISTS pg_trgm", "EXISTS pg_trgm_missing"))
        with pytest.raises(StoreOpenError) as refused:
            await open_store(path)
    message = str(refused.value)
    if test_db.ON_POSTGRES:
        assert "pg_trgm" in message and "CREATE EXTENSION pg_trgm" in message
    else:
        assert "SQLite 3.34 or newer with FTS5" in message and "trigram_missing" in message
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("bot.storage.sqlite.MIGRATIONS", MIGRATIONS[:7])
        patch.setattr("bot.storage.postgres.migrations.MIGRATIONS", MIGRATIONS[:7])
        store = await open_store(path)
        try:
            assert await store.schema_version() == 7
        finally:
            await store.close()


async def test_a_text_searchs_pages_read_the_newest_events_first_then_the_older_ones(
    console: Console, monkeypatch
) -> None:
    """Issue 23: on PostgreSQL a text search's page reads the newest events first (a window the planner sees as
    numbers, so a rare text no longer reads its every match's row), then the older ones when the window holds too
    few. Shrunk to 40 events here, its pages are the same as a search of the whole log: the first page, Next,
    a typed page, the last; and a player's search still never finds the GM's secret side."""
    from bot.storage.postgres import store as pg_store

    monkeypatch.setattr(pg_store, "TEXT_WINDOW", 40)  # a "fire bolt" at the window's edge, every time
    fire = await _long_log(console, 2_500)  # "fire bolt" in one event of 10: 3 or 4 in a window
    lanterns = [2009, 1009, 9]  # "lantern" in one of 1,000: none, or 1, in a window
    first = await console.ok('/campaign log text:"fire bolt"')
    assert _numbers(first) == fire[:10] and "over 200 events" in first["text"]
    assert _numbers(await console.ok("@press Next")) == fire[10:20]  # seeking below the page's last event
    assert _numbers(await console.ok('/campaign log text:"fire bolt" page:13')) == fire[120:130]
    assert _numbers(await console.ok('/campaign log text:"fire bolt" page:26')) == fire[240:250]
    rare = await console.ok("/campaign log text:lantern")
    assert _numbers(rare) == lanterns and "3 events" in rare["text"]
    # "the guard saw …" is only ever the secret side (one event in 20): the GM finds those, a player none
    guarded = await console.ok('/campaign log text:"guard saw"')
    assert len(_numbers(guarded)) == 10 and all(n % 20 == 5 for n in _numbers(guarded))
    await console.ok("@as Pat")
    assert _numbers(await console.ok('/campaign log text:"guard saw"')) == []
    assert _numbers(await console.ok("/campaign log text:lantern")) == lanterns


async def test_a_secret_information_roll_is_among_the_gms_secrets_with_its_true_result(console: Console) -> None:
    """A runic Information spell rolls in secret: the log's GM side reads the true result (and the question), so
    `secrets:true` finds it; the player's log shows only what was paid."""
    await console.ok("/campaign start ruleset:runic name:Tower")
    await console.ok("@as Pat")
    for line in SEEK_MAGE:
        await console.ok(line)
    await console.ok('/runic info ask spell:Seek question:"Where is the well?"')
    await console.ok("/runic cast spell:Seek")
    await console.ok("@gm")
    listed = (await console.ok("/campaign log secrets:true"))["data"]["events"]
    assert [e["command"] for e in listed] == ["runic cast", "runic info ask"]  # newest first
    assert all(re.match(r"Merlin casts Seek: (critical )?(success|failure)", e["secret"]) for e in listed), listed
    assert "(asks: Where is the well?)" in listed[1]["secret"]
    await console.ok("@as Pat")
    mine = (await console.ok("/campaign log player:Pat"))["data"]["events"]
    casts = [e for e in mine if e["command"] in ("runic cast", "runic info ask")]
    assert len(casts) == 2 and all("secret" not in e for e in casts)
    assert all("(Information): paid" in e["summary"] and "success" not in e["summary"] for e in casts)
