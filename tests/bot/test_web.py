"""The campaign on the web (docs/web.md): `/campaign web link` and `revoke` at the console and through real
discord.Interaction objects, and the pages served by a real server on 127.0.0.1 over a real database.

Who sees what: a player's page shows the public log and their own private sides, never the GM's secret ones; a
GM's page shows those; a GM removed from the campaign reads as a player; a forgotten member, a revoked link, an
expired one and a tampered one are refused. Safe by default: every value escaped, a Content-Security-Policy with
no script, no-referrer, a rate limit per link, and no link in any log line. Browser tests: tests/web/.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urljoin

import aiohttp
import pytest

from bot.cli.console import ConsoleTable
from bot.cli.health import bound_port
from bot.table import weblinks
from bot.table.registry import Registry
from bot.web.app import CSP, Limiter, start_web, web_app
from bot.web.render import discord_html
from tests.conftest import Console
from tests.support.db import ON_POSTGRES
from tests.support.discord_harness import ok, refused

GM, PAT, OZ = "Gwen", "Pat", "Oz"


@dataclasses.dataclass
class Site:
    console: Console
    port: int

    @property
    def table(self) -> ConsoleTable:
        return self.console.table

    async def link(self, user: str, line: str = "/campaign web link") -> str:
        await self.console.ok(f"@as {user}")
        result = await self.console.ok(line)
        assert result["ephemeral"], result
        return result["data"]["url"]

    async def get(self, url: str) -> tuple[int, str, dict[str, str]]:
        async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=False) as response:
            return response.status, await response.text(), dict(response.headers)


@pytest.fixture
async def site(tmp_path: Path, registry: Registry) -> AsyncIterator[Site]:
    table = await ConsoleTable.open(
        tmp_path / "web.sqlite3", seed=7, files_dir=tmp_path / "exports", registry=registry, web_url="http://x"
    )
    app = web_app(table.bot.service, table.bot.web_links, Limiter(rate=1, burst=30))
    runner = await start_web(app, "127.0.0.1", 0)
    port = bound_port(runner)
    assert table.bot.web_links is not None
    table.bot.web_links = dataclasses.replace(table.bot.web_links, base_url=f"http://127.0.0.1:{port}")
    console = Console(table)
    for line in (
        f"@as {GM}",
        '/campaign start ruleset:tally name:"Crows <script>alert(1)</script>"',
        f"@as {PAT}",
        "/tally create name:Pip",
        f"@as {GM}",
        '/roll expression:1d6 label:"XqGmOnly" secret:true',
    ):
        await console.ok(line)
    try:
        yield Site(console, port)
    finally:
        await runner.cleanup()
        await table.close()


async def test_the_console_prints_a_link_for_the_asker_alone_and_its_pages_open(site: Site) -> None:
    url = await site.link(PAT)
    result = await site.console.ok("/campaign web link days:7")
    assert result["data"]["url"] in result["text"] and result["ephemeral"]
    assert result["data"]["view"] == "player"
    odd = ("log?page=%C2%B2", "log?player=%C2%B2&text=" + "x" * 40, "log?page=-1&order=sideways")  # typed by hand
    for page in ("", "log", "sheet/Pip", "board", "lists", "archive", "log?order=oldest", "log?page=99", *odd):
        status, body, headers = await site.get(url + page)
        assert status == 200, (page, body)
        assert headers["Content-Security-Policy"] == CSP and "script-src" not in CSP
        assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"
        assert "<script" not in body  # the campaign's name is escaped, and no page has a script of its own
        assert "Crows &lt;script&gt;alert(1)&lt;/script&gt;" in body
    for missing in ("sheet/Nobody", "sheet/P%2Fip"):
        status, body, _ = await site.get(url + missing)
        assert status == 404 and "There is no character named" in body, missing


async def test_a_player_reads_no_secret_and_the_gm_reads_them(site: Site) -> None:
    player = await site.link(PAT)
    gm = await site.link(GM)
    _, theirs, _ = await site.get(player + "log")
    _, mine, _ = await site.get(gm + "log")
    assert "made a secret roll" in theirs and "XqGmOnly" not in theirs
    assert "XqGmOnly" in mine and "secret results are shown" in mine
    _, searched, _ = await site.get(player + "log?text=XqGmOnly")  # the search reads the public side only
    assert "No event matches" in searched
    status, body, _ = await site.get(player + "log?secrets=1")
    assert status == 200 and "Only a GM can list the secret events" in body and "XqGmOnly" not in body
    _, listed, _ = await site.get(gm + "log?secrets=1")
    assert "XqGmOnly" in listed
    assert '<option value="check"' not in theirs
    await site.console.ok(f"@as {PAT}")
    await site.console.ok("/check skill:12")
    assert '<option value="check"' in (await site.get(player + "log"))[1]  # the filter offers the new command


async def test_a_gm_removed_from_the_campaign_reads_as_a_player(site: Site) -> None:
    await site.console.ok(f"@as {GM}")
    await site.console.ok(f"/campaign gm add member:{OZ}")
    rex = await site.link(OZ)
    _, before, _ = await site.get(rex + "log")
    assert "XqGmOnly" in before
    await site.console.ok(f"@as {GM}")
    await site.console.ok(f"/campaign gm remove member:{OZ}")
    status, after, _ = await site.get(rex + "log")
    assert status == 200 and "XqGmOnly" not in after and "what you may read in Discord" in after


async def test_tampered_expired_revoked_and_forgotten_links_are_refused(site: Site) -> None:
    url = await site.link(PAT)
    token = url.split("/w/")[1].strip("/")
    flipped = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
    for bad in (flipped, token[:-1], "nonsense", token + "A"):
        status, body, _ = await site.get(url.replace(token, bad))
        assert status == 403 and "not a working link" in body, bad
    await site.console.ok("@wait 31d")  # the console's clock is the service's: the link's 30 days pass
    status, body, _ = await site.get(url)
    assert status == 403 and "expired" in body

    fresh = await site.link(PAT)
    gm = await site.link(GM)
    await site.console.ok(f"@as {PAT}")
    closed = await site.console.ok(f"/campaign web revoke member:{PAT}")  # a player closes their own links
    assert closed["data"]["revoked"] and closed["ephemeral"]
    assert (await site.get(fresh))[0] == 403 and "closed" in (await site.get(fresh))[1]
    assert (await site.get(gm))[0] == 200  # only Pat's
    again = await site.link(PAT)
    assert (await site.get(again))[0] == 200
    await site.console.fails("/campaign web revoke")  # every link of the campaign: the GM's to close
    await site.console.fails(f"/campaign web revoke member:{GM}")
    await site.console.ok(f"@as {GM}")
    await site.console.ok("/campaign web revoke")
    assert (await site.get(again))[0] == 403 and (await site.get(gm))[0] == 403

    last = await site.link(PAT)
    assert (await site.get(last))[0] == 200
    await site.console.ok(f"@as {GM}")
    await site.console.ok(f"/campaign player forget member:{PAT}")
    await site.console.ok("@press Confirm")
    status, body, _ = await site.get(last)
    assert status == 403 and "no longer a member" in body


async def test_who_may_ask_and_what_a_refusal_says(site: Site, tmp_path: Path, registry: Registry) -> None:
    await site.console.ok("@as Nia")  # never played here
    refusal = await site.console.fails("/campaign web link")
    assert "make a character or play here first" in refusal["text"]
    await site.console.ok("/roll expression:1d6")  # a roll makes her a player
    assert (await site.get(await site.link("Nia")))[0] == 200
    await site.console.fails("/campaign web link days:0")
    await site.console.ok("@channel 9999")
    assert "no campaign" in (await site.console.fails("/campaign web link"))["text"]
    off = await ConsoleTable.open(tmp_path / "off.sqlite3", seed=1, files_dir=tmp_path / "x", registry=registry)
    try:
        console = Console(off)
        await console.ok("/campaign start ruleset:tally name:Off")
        assert "MAGISTER_WEB_PORT" in (await console.fails("/campaign web link"))["text"]
    finally:
        await off.close()


async def test_an_ended_campaign_has_its_own_link_and_old_links_still_read_it(site: Site) -> None:
    url = await site.link(PAT)
    await site.console.ok(f"@as {GM}")
    status = await site.console.ok("/campaign status")
    await site.console.ok("/campaign end")
    await site.console.ok("@press Confirm")
    code, body, _ = await site.get(url)
    assert code == 200 and "Ended on" in body
    campaign_id = (await site.console.ok("/campaign archive list"))["data"]["campaigns"][0]["id"]
    ended = await site.link(PAT, f"/campaign web link archived:{campaign_id}")
    _, archive, _ = await site.get(ended + "archive")
    assert status["data"]["campaign"].split("<")[0] in archive and f"<td>{campaign_id}</td>" in archive
    await site.console.fails("/campaign web link archived:424242")


async def test_reading_every_page_changes_nothing(site: Site) -> None:
    url = await site.link(GM)
    await site.console.ok(f"@as {GM}")
    before = await site.console.ok("/campaign status")
    store = site.table.bot.service.store
    row = await store.campaign_by_id(1)
    for page in ("", "log", "log?order=oldest", "sheet/Pip", "board", "lists", "archive", "log?secrets=1"):
        assert (await site.get(url + page))[0] == 200
    after = await site.console.ok("/campaign status")
    assert after["data"] == before["data"]
    again = await store.campaign_by_id(1)
    assert row is not None and again is not None and (again.state, again.version) == (row.state, row.version)


async def test_the_log_pages_read_either_way_with_discords_numbers(site: Site) -> None:
    await site.console.ok(f"@as {PAT}")
    for number in range(21):
        await site.console.ok(f'/roll expression:1d6 label:"roll {number}"')
    url = await site.link(PAT)
    total = (await site.console.ok("/campaign status"))["data"]["events"]
    assert total == 24  # the start, Pip, the GM's secret roll, and these rolls

    def numbers(body: str) -> list[int]:
        return [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', body)]

    assert numbers((await site.get(url + "log"))[1]) == list(range(24, 14, -1))
    assert numbers((await site.get(url + "log?page=3"))[1]) == list(range(4, 0, -1))
    assert numbers((await site.get(url + "log?order=oldest"))[1]) == list(range(1, 11))
    assert numbers((await site.get(url + "log?order=oldest&page=3"))[1]) == list(range(21, 25))
    assert numbers((await site.get(url + "log?order=oldest&page=99"))[1]) == list(range(21, 25))  # the last page
    filtered = (await site.get(url + f"log?order=oldest&player={site.table.user_id(PAT)}"))[1]
    assert numbers(filtered)[0] == 2 and "Page 1 of 3" in filtered  # Pat's own: created Pip, then 21 rolls


async def test_a_link_asks_at_most_its_burst_then_waits(site: Site) -> None:
    url = await site.link(PAT)
    codes = [(await site.get(url))[0] for _ in range(33)]
    assert codes[:30] == [200] * 30 and 429 in codes[30:]
    other = await site.link(GM)  # another link has its own allowance
    assert (await site.get(other))[0] == 200


async def test_no_link_reaches_a_log_line(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    url = await site.link(PAT)
    token = url.split("/w/")[1].strip("/")
    for page in ("", "log", "sheet/Pip", "sheet/%ZZ", "nowhere"):
        await site.get(url + page)
    await site.get(url.replace(token, token[:-2]))
    assert token not in caplog.text and token[:20] not in caplog.text


def test_card_text_is_escaped_before_it_is_marked_up() -> None:
    html = str(
        discord_html('**bold** <img src=x onerror=alert(1)> `<b>` <@5> <t:0:f> https://a.example/?q="x"', {5: "Pat"})
    )
    assert "<img" not in html and "&lt;img" in html
    assert "<strong>bold</strong>" in html and "<code>&lt;b&gt;</code>" in html and "@Pat" in html
    assert '<time datetime="1970-01-01T00:00:00+00:00">1970-01-01 00:00 UTC</time>' in html
    assert re.search(r'<a href="https://a\.example/\?q=" rel="noopener noreferrer">', html)


def test_a_token_cannot_be_made_without_the_key() -> None:
    link = weblinks.Link(1, 22, 0, 0, 2_000_000_000)
    token = weblinks.sign(b"k" * 32, link)
    assert weblinks.read(b"k" * 32, token) == link
    with pytest.raises(weblinks.LinkRefusedError):
        weblinks.read(b"j" * 32, token)


# ---------------------------------------------------------------------- through real discord.Interaction objects


async def test_the_commands_through_discord(site: Site) -> None:
    table = site.table
    reply = await ok(table, PAT, "campaign web link", days=3)
    assert reply.ephemeral and reply.data["url"].startswith(f"http://127.0.0.1:{site.port}/w/")
    assert reply.data["url"] in reply.description
    assert (await site.get(reply.data["url"]))[0] == 200
    await refused(table, "Nia", "campaign web link")
    await refused(table, PAT, "campaign web revoke")
    closed = await ok(table, GM, "campaign web revoke", member=PAT)
    assert closed.ephemeral and closed.data["revoked"]
    assert (await site.get(reply.data["url"]))[0] == 403


async def test_one_port_serves_the_health_checks_and_the_pages_and_a_taken_port_is_one_line(tmp_path: Path) -> None:
    import socket

    from bot.__main__ import _servers, build_bot
    from bot.cli.config import Settings

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(
        _env_file=None, magister_db=tmp_path / "both.sqlite3", magister_health_port=port, magister_web_port=port
    )
    bot = await build_bot(settings)
    try:
        health, pages = await _servers(settings, bot, lambda: bot)
        assert health is not None and pages is None  # one server for both
        assert bot.web_links is not None and bot.web_links.base_url == f"http://127.0.0.1:{port}"
        site = Site(Console.__new__(Console), port)
        assert (await site.get(f"http://127.0.0.1:{port}/livez"))[0] == 200
        status, body, headers = await site.get(f"http://127.0.0.1:{port}/w/nonsense/")
        assert status == 403 and "not a working link" in body and headers["Content-Security-Policy"] == CSP
        with pytest.raises(SystemExit) as stopped:  # the port is taken now: one line, exit 2
            await _servers(settings, bot, lambda: bot)
        assert stopped.value.code == 2
        await health.cleanup()
    finally:
        await bot.service.store.close()


@pytest.mark.sqlite_only(reason="removes a log row with sqlite3 under the store, as no Magister path can")
async def test_a_log_whose_numbers_have_a_gap_is_still_read_by_position(site: Site, tmp_path: Path) -> None:
    import sqlite3

    url = await site.link(PAT)
    await site.console.ok(f"@as {PAT}")
    for number in range(12):
        await site.console.ok(f"/roll expression:1d4 label:r{number}")
    with sqlite3.connect(tmp_path / "web.sqlite3") as raw:  # a number missing: the range read comes up short
        raw.execute("DELETE FROM events WHERE seq = 10 AND command = 'roll'")
    site.table.bot.service.forget(site.table._place())
    body = (await site.get(url + "log"))[1]  # the newest ten numbers span the gap: read by position instead
    shown = [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', body)]
    assert 10 not in shown and len(shown) == 10 and shown == sorted(shown, reverse=True)


async def test_a_members_web_access_is_in_their_data_export_and_goes_when_they_are_forgotten(site: Site) -> None:
    from tests.bot.test_privacy import exported

    await site.link(PAT)
    await site.console.ok(f"@as {PAT}")
    document = exported(await site.console.ok("/privacy export"))
    assert [(entry["campaign"].split(" ")[0], entry["name"]) for entry in document["web_access"]] == [("Crows", PAT)]
    await site.console.ok("/privacy forget")
    await site.console.ok("@press Confirm")
    assert exported(await site.console.ok("/privacy export"))["web_access"] == []


async def test_a_sealed_rolls_text_and_salt_reach_a_players_page_only_once_revealed(site: Site) -> None:
    service = site.table.bot.service
    campaign = await service.campaign(site.table._place())
    assert campaign is not None
    (sealed,) = [e for e in await service.store.events(campaign.row.id, limit=50) if "sealed" in e.result]
    salt = sealed.result["secret"]["seal"]["salt"]
    player = await site.link(PAT)
    _, before, _ = await site.get(player + "log")
    assert "made a secret roll" in before and "XqGmOnly" not in before and salt not in before
    await site.console.ok(f"@as {GM}")
    await site.console.ok(f"/campaign reveal event:{sealed.seq}")
    _, after, _ = await site.get(player + "log")
    assert f"revealed #{sealed.seq}" in after and "XqGmOnly" in after and salt in after


async def test_a_link_without_its_slash_redirects_relative_to_where_it_was_asked(site: Site) -> None:
    """Behind a proxy serving Magister under a path, the redirect keeps that path: it is relative."""
    url = await site.link(PAT)
    token = url.split("/w/")[1].strip("/")
    status, _, headers = await site.get(url.rstrip("/") + "?page=2")
    assert status == 302 and headers["Location"] == f"{token}/?page=2"
    status, body, _ = await site.get(urljoin(url.rstrip("/"), headers["Location"]))
    assert status == 200 and "Crows" in body


async def test_a_whole_log_page_reads_the_count_and_its_ten_events_once(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: a log page of 1,000,000 events on PostgreSQL waited on five reads one after the other, each
    followed by asyncpg's reset query. Now: the count and the page's events, side by side, and a reader
    connection goes back to the pool with no query of its own."""
    import asyncpg

    url = await site.link(PAT)
    await site.console.ok(f"@as {PAT}")
    for number in range(25):
        await site.console.ok(f"/roll expression:1d4 label:r{number}")
    assert (await site.get(url + "log"))[0] == 200  # the names and commands the pages keep, read once
    store = site.table.bot.service.store
    reads: list[str] = []
    resets: list[object] = []
    for name in ("count_events", "events"):

        def counted(*args: object, _read=getattr(store, name), _name=name, **kwargs: object) -> object:
            reads.append(_name)
            return _read(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    original_reset = asyncpg.Connection.reset

    async def reset(self: asyncpg.Connection, **options: float | None) -> None:
        resets.append(self)
        await original_reset(self, **options)

    monkeypatch.setattr(asyncpg.Connection, "reset", reset)
    status, body, _ = await site.get(url + "log?page=2")
    assert status == 200
    shown = [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', body)]
    assert shown == list(range(18, 8, -1))  # 28 events: the start, Pip, the GM's secret roll, 25 rolls
    # one count and one page; SQLite's events() seeks from a count of its own (a read in this process)
    assert reads.count("events") == 1 and reads.count("count_events") == (1 if ON_POSTGRES else 2)
    assert resets == []
    reads.clear()
    status, body, _ = await site.get(url + "log?page=9")  # past the end: the last page, read again
    assert status == 200 and "Page 3 of 3" in body
    assert [int(n) for n in re.findall(r'<span class="num">#(\d+)</span>', body)] == list(range(8, 0, -1))
    assert reads.count("events") == 2 and reads.count("count_events") == (1 if ON_POSTGRES else 3)


def test_a_plain_text_reads_as_the_full_markup_would_draw_it() -> None:
    """The short way for text with nothing to mark up (most log lines) gives what the whole markup gives,
    escaping included; a text with a mark or a link takes the whole markup."""
    from bot.web.render import marked_up

    texts = [
        "Pat rolled 1d20 for fire bolt: 7",
        "a & b > c \"quoted\" 'single'",
        "two\nlines & more",
        "&lt;@5&gt; typed out, #general, @everyone",
        "5 * 3",
        "see https://a.example/x",
        "<@5> rolled",
        "under_score, ~~struck~~, ||spoiler||, `code`",
    ]
    for text in texts:
        assert str(discord_html(text, {5: "Pat"})) == str(marked_up(text, {5: "Pat"})), text
    assert str(discord_html("<@5> rolled", {5: "Pat"})) == "@Pat rolled"
    assert str(discord_html("a & b\nc")) == "a &amp; b<br>\nc"


async def test_a_short_page_goes_in_one_answer_and_a_long_one_in_chunks(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: a page shorter than a chunk is one answer with its length (a chunked answer took three writes
    to the socket); a longer one is still sent as it is made. Either way the same page, with the same headers."""
    from bot.web import app

    url = await site.link(PAT)
    status, whole, headers = await site.get(url + "log")
    assert status == 200 and int(headers["Content-Length"]) == len(whole.encode())
    assert "Transfer-Encoding" not in headers and headers["Content-Security-Policy"] == CSP
    monkeypatch.setattr(app, "CHUNK", 200)
    status, streamed, headers = await site.get(url + "log")
    assert status == 200 and headers["Transfer-Encoding"] == "chunked" and "Content-Length" not in headers
    assert streamed == whole and headers["Content-Security-Policy"] == CSP
