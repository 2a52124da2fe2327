"""The campaign's pages in a real browser (docs/web.md): Debian's Chromium, driven by Playwright, against a real
bot web server on 127.0.0.1 over a real database (a SQLite file; on the PostgreSQL pass, a PostgreSQL database).

Over every ruleset the contract suite checks (the five built in and the guide's sixth): each first session is played
in a channel of its own and every page renders; each ruleset's secrets script (the contract sweep's,
``Ruleset.secrets_case``) is played in another, and another player's link never shows one of its markers while the
GM's shows them; expired, revoked and tampered links are refused; a phone's width has no horizontal scroll, scripts
off, in both themes. A screenshot of each page type is saved under artifacts/web/<store>/.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import uuid
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, Page

from bot.adapter.help import command_path
from bot.cli.console import ConsoleTable, Result
from bot.cli.health import bound_port
from bot.web.app import start_web, web_app
from rules.base import Ruleset
from tests.contract.support import RULESETS, registry
from tests.support import db as test_db
from tests.support.scenario import SCENARIO_CLOCK

T = TypeVar("T")
GM, PLAYER, OTHER = "Gwen", "Pat", "Oz"
STORE = "postgresql" if test_db.ON_POSTGRES else "sqlite"
FIRST, SWEEP = 3100, 3200  # channels: a ruleset's first session at FIRST + i, its secrets script at SWEEP + i
PHONE = {"width": 360, "height": 740}


class Served:
    """A console table and the bot's web server on their own event loop, in a thread, while the browser reads."""

    def __init__(self, folder: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="web-under-test", daemon=True)
        self.thread.start()
        self.database: str | None = None
        where: Path | str = folder / "browser.sqlite3"
        if test_db.ON_POSTGRES:  # a database of the module's own, kept across its tests
            self.database = f"web_{uuid.uuid4().hex[:12]}"
            test_db._run(test_db._admin(f"CREATE DATABASE {self.database}"))
            where = test_db._url(self.database)
        self.table: ConsoleTable = self.call(
            ConsoleTable.open(
                where,
                seed=7,
                files_dir=folder / "exports",
                registry=registry(),
                clock=SCENARIO_CLOCK,
                web_url="http://127.0.0.1",
            )
        )
        links = self.table.bot.web_links
        assert links is not None
        self.runner = self.call(start_web(web_app(self.table.bot.service, links), "127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{bound_port(self.runner)}"
        self.table.bot.web_links = type(links)(self.base, links.key, links.days)
        self.folder = folder

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=180)

    def line(self, text: str) -> Result:
        result = self.call(self.table.execute(text.replace("file:exports/", f"file:{self.folder}/exports/")))
        assert result is not None, text
        return result

    def ok(self, text: str) -> Result:
        result = self.line(text)
        assert result.ok, (text, result.text)
        return result

    def link(self, user: str, channel: int, options: str = "") -> str:
        self.ok(f"@channel {channel}")
        self.ok(f"@as {user}")
        return self.ok(f"/campaign web link {options}".strip()).data["url"]

    def close(self) -> None:
        self.call(self.runner.cleanup())
        self.call(self.table.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
        if self.database is not None:
            test_db._run(test_db._admin(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"))


def play_first_session(served: Served, ruleset: Ruleset, channel: int) -> None:
    served.ok(f"@channel {channel}")
    for line in ruleset.first_session:
        served.line(line)  # the contract suite holds each line to running; here it only sets the table up


def play_secrets(served: Served, ruleset: Ruleset, channel: int) -> tuple[str, ...]:
    """The contract sweep's script for ``ruleset`` at a fresh table, Oz at the table too; its markers."""
    case = ruleset.secrets_case()
    served.ok(f"@channel {channel}")
    served.ok(f"@as {GM}")
    served.ok(f"/campaign start ruleset:{ruleset.id} name:Sweep")
    served.ok(f"@as {OTHER}")
    served.ok('/roll expression:1d6 label:"Oz plays"')
    if case is None:
        return ()
    for step in (*case.setup, *case.steps):
        served.ok("@gm" if step.as_gm else f"@as {PLAYER}")
        group, name = command_path(step.action)
        result = served.call(
            served.table.run_command([ruleset.id, *([group] if group else []), name], dict(step.options))
        )
        assert result.ok, (step, result.text)
    return case.markers


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    from tests.web.conftest import chromium_or_skip

    chromium_or_skip()
    site = Served(tmp_path_factory.mktemp("web"))
    try:
        for number, ruleset in enumerate(RULESETS):
            play_first_session(site, ruleset, FIRST + number)
        yield site
    finally:
        site.close()


@pytest.fixture(scope="module")
def shots(artifacts: Path) -> Path:
    folder = artifacts / STORE
    shutil.rmtree(folder, ignore_errors=True)  # this run's screenshots only
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def opened(page: Page, url: str, status: int = 200) -> str:
    """The page at ``url`` as the browser shows it: loaded, with the status expected, no script on it."""
    response = page.goto(url)
    assert response is not None and response.status == status, (url, response and response.status)
    assert page.evaluate("document.scripts.length") == 0
    assert page.locator("h1").count() == 1 and page.locator("main").count() == 1
    return page.content()


def test_every_page_renders_for_every_ruleset(served: Served, page: Page, shots: Path) -> None:
    seen = 0
    for number, ruleset in enumerate(RULESETS):
        url = served.link(GM, FIRST + number)
        home = opened(page, url)
        assert ruleset.name in home and "a GM: secret results are shown" in home
        assert page.get_by_role("navigation", name="Campaign pages").count() == 1
        pages = ["log", "log?order=oldest", "board", "archive"]
        if "Lists" in home:
            pages.append("lists")
        sheets = [link.get_attribute("href") for link in page.locator("table a").all()][:2]
        for path in pages:
            html = opened(page, url + path)
            if path == "log?order=oldest":
                assert "#1</span>" in html  # the log's own numbers, from the first event
        for href in sheets:
            assert href is not None
            opened(page, served.base + href)
        seen += 1 + len(pages) + len(sheets)
        if ruleset.id == "serpent":  # one screenshot of each page type: serpent's battle has a picture
            for name, path in [("campaign", ""), ("log", "log"), ("board", "board"), ("lists", "lists")]:
                opened(page, url + path)
                page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
            if sheets:
                opened(page, served.base + str(sheets[0]))
                page.screenshot(path=str(shots / "sheet.png"), full_page=True)
            opened(page, url + "archive")
            page.screenshot(path=str(shots / "archive.png"), full_page=True)
    assert seen >= 6 * len(RULESETS)


def test_a_players_link_never_shows_another_players_secret(served: Served, page: Page) -> None:
    """The contract sweep's markers: nowhere on another player's pages; the GM's pages hold each of them."""
    checked = 0
    for number, ruleset in enumerate(RULESETS):
        markers = play_secrets(served, ruleset, SWEEP + number)
        if not markers:
            continue
        other = served.link(OTHER, SWEEP + number)
        gm = served.link(GM, SWEEP + number)
        read: dict[str, list[str]] = {OTHER: [], GM: []}
        for who, url in ((OTHER, other), (GM, gm)):
            home = opened(page, url)
            sheets = [str(link.get_attribute("href")) for link in page.locator("table a").all()]
            read[who].append(home)
            log = opened(page, url + "log")
            read[who].append(log)
            pages = int(page.locator("p.muted").first.inner_text().split(" of ")[1].split(" ")[0].replace(",", ""))
            for number_ in range(2, pages + 1):
                read[who].append(opened(page, f"{url}log?page={number_}"))
            for path in ("board", "lists", "archive"):
                read[who].append(opened(page, url + path))
            for marker in markers:  # the reader typed the marker: a match at all would tell it is there
                found = opened(page, f"{url}log?text={marker}")
                if who == OTHER:
                    assert "No event matches" in found, (ruleset.id, marker)
                else:
                    read[who].append(found.split("</form>", 1)[1])
            for href in sheets:
                read[who].append(opened(page, served.base + href))
        theirs = "\n".join(read[OTHER]).casefold()
        leaked = [marker for marker in markers if marker.casefold() in theirs]
        assert not leaked, (ruleset.id, leaked)
        gms = "\n".join(read[GM]).casefold()
        assert all(marker.casefold() in gms for marker in markers), (ruleset.id, markers)
        checked += 1
    assert checked >= 3


def test_expired_revoked_and_tampered_links_are_refused(served: Served, page: Page, shots: Path) -> None:
    channel = FIRST  # the first ruleset's table
    url = served.link(PLAYER, channel)
    token = url.split("/w/")[1].strip("/")
    tampered = url.replace(token, token[:10] + ("A" if token[10] != "A" else "B") + token[11:])
    assert "not a working link" in opened(page, tampered, 403)
    page.screenshot(path=str(shots / "refused.png"))
    assert "Pat" in opened(page, url)
    served.ok(f"@channel {channel}")
    served.ok(f"@as {PLAYER}")
    served.ok(f"/campaign web revoke member:{PLAYER}")
    assert "This link was closed" in opened(page, url, 403)
    short = served.link(PLAYER, channel, "days:1")
    assert "Pat" in opened(page, short)
    served.ok("@wait 25h")
    assert "This link has expired" in opened(page, short, 403)
    everyone = served.link(GM, channel)
    served.ok("@as " + GM)
    served.ok("/campaign web revoke")
    assert "This link was closed" in opened(page, everyone, 403)


def test_a_phone_reads_every_page_with_scripts_off_in_both_themes(
    served: Served, browser: Browser, shots: Path
) -> None:
    url = served.link(GM, FIRST + [r.id for r in RULESETS].index("serpent"))
    backgrounds = set()
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, java_script_enabled=False, color_scheme=scheme)
        phone = context.new_page()
        try:
            for path in ("", "log", "board", "lists", "archive"):
                phone.goto(url + path)
                width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= width[1], (scheme, path, width)
            phone.goto(url + "log")  # the filters are a plain form: it works without a script
            phone.select_option("#order", "oldest")
            with phone.expect_navigation():
                phone.click("button[type=submit]")
            assert "order=oldest" in phone.url and "oldest first" in phone.content()
            phone.screenshot(path=str(shots / f"phone-log-{scheme}.png"), full_page=True)
            backgrounds.add(phone.evaluate("getComputedStyle(document.body).backgroundColor"))
        finally:
            context.close()
    assert len(backgrounds) == 2, backgrounds  # light and dark differ
