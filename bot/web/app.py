"""The campaign's pages over HTTP (docs/web.md): aiohttp routes on the bot's own loop, read-only.

Every page is ``GET /w/<token>/…``: the token is a signed link for one member and one campaign
(:mod:`bot.table.weblinks`), opened afresh at each request, so a revoked link, an expired one or a member removed
from the campaign is refused at once. What a page shows comes from :mod:`bot.table.pages` (the same secrecy as
Discord); this module only routes, limits and renders.

Safe by default: templates escape every value; each answer carries a Content-Security-Policy with no script at all
(the pages need none), ``no-referrer`` (a link in a page never tells another site the token) and ``no-store``; a
link may ask at most ``burst`` pages at once and ``rate`` a second after that; no request, token or path is ever
logged (the server keeps no access log, and an unexpected error logs an incident id and the traceback only).
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from aiohttp import web

from bot.table import pages
from bot.table.service import TableService
from bot.table.weblinks import Access, LinkRefusedError, WebLinks, open_link
from bot.web.render import STATIC, render
from rules.base import Contributions, RuleError, Ruleset

log = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}
CHUNK = 16_384  # bytes of a page sent at a time

REFUSED = {
    "bad": (
        403,
        "This is not a working link",
        "Magister did not make this link, or part of it is missing. Copy the whole link again, or ask for a new "
        "one with /campaign web link in the campaign's channel.",
    ),
    "expired": (
        403,
        "This link has expired",
        "Ask for a new one with /campaign web link in the campaign's channel.",
    ),
    "revoked": (
        403,
        "This link was closed",
        "A GM (or you) closed the campaign's links with /campaign web revoke. Ask for a new one with "
        "/campaign web link in the campaign's channel.",
    ),
    "removed": (
        403,
        "You are no longer a member of this campaign",
        "Its pages open only for its GMs and players.",
    ),
    "gone": (404, "There is no such campaign", "It may have been removed from this Magister."),
}


class Limiter:
    """Per link: ``burst`` pages at once, then ``rate`` a second (a token bucket), for at most ``size`` links."""

    def __init__(self, rate: float = 2.0, burst: int = 30, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[bytes, tuple[float, float]] = OrderedDict()

    def wait(self, token: str) -> float:
        """0 when the link may have a page now; else the seconds until it may."""
        key = hashlib.sha256(token.encode()).digest()[:16]
        now = time.monotonic()
        level, then = self._buckets.pop(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - then) * self.rate)
        if level < 1:
            self._buckets[key] = (level, now)
            return (1 - level) / self.rate
        self._buckets[key] = (level - 1, now)
        while len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return 0.0


@dataclass
class Site:
    """What every page needs: the service, the links' settings, the limiter."""

    service: TableService
    links: WebLinks
    limiter: Limiter

    @property
    def root(self) -> str:
        """The path the public address adds in front (behind a proxy serving under /magister, say)."""
        return urlsplit(self.links.base_url).path.rstrip("/")


SITE = web.AppKey("magister.site", Site)
Page = Callable[[Site, web.Request, Access, str], Awaitable[tuple[str, dict[str, Any]]]]


async def send(request: web.Request, template: str, context: dict[str, Any], status: int = 200) -> web.StreamResponse:
    """Render ``template`` and send it as it is made, in chunks of about ``CHUNK`` characters. Nothing is sent
    before the first chunk is made, so a page that fails early is still answered as an incident; a page shorter
    than a chunk goes as one plain answer (a chunked one cost three writes to the socket: issue 23)."""
    pieces: Iterator[str] = render(template, context)
    response: web.StreamResponse | None = None
    buffer: list[str] = []
    size = 0
    try:
        for piece in pieces:
            buffer.append(piece)
            size += len(piece)
            if size >= CHUNK:
                if response is None:
                    response = await _prepared(request, status)
                await response.write("".join(buffer).encode())
                buffer, size = [], 0
    except Exception:
        if response is None:
            raise
        incident = uuid.uuid4().hex[:8]
        log.exception("web page incident %s (after its first part was sent)", incident)
        if request.transport is not None:
            request.transport.close()  # the reader's browser sees a cut page, never half a page as whole
        return response
    if response is None:  # the whole page in one chunk (most pages): one answer, its length known, one write
        return web.Response(
            status=status,
            body="".join(buffer).encode(),
            headers={**HEADERS, "Content-Type": "text/html; charset=utf-8"},
        )
    await response.write("".join(buffer).encode())
    await response.write_eof()
    return response


async def _prepared(request: web.Request, status: int) -> web.StreamResponse:
    response = web.StreamResponse(status=status, headers={**HEADERS, "Content-Type": "text/html; charset=utf-8"})
    await response.prepare(request)
    return response


def page(handler: Page) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A page behind a link: limited, opened, drawn; a refusal or a bad request as a page saying what would work."""

    async def answer(request: web.Request) -> web.StreamResponse:
        site = request.app[SITE]
        token = request.match_info["token"]
        context: dict[str, Any] = {"static": f"{site.root}/static/style.css", "title": "Magister", "here": ""}
        wait = site.limiter.wait(token)
        if wait:
            context |= {"heading": "Too many pages at once", "message": "Wait a few seconds, then reload."}
            return await send(request, "refused.html", context, 429)
        try:
            access = await open_link(site.service, site.links, token)
        except LinkRefusedError as refused:
            status, heading, message = REFUSED[refused.reason]
            return await send(request, "refused.html", context | {"heading": heading, "message": message}, status)
        base = f"{site.root}/w/{token}/"
        row = access.campaign.row
        ruleset = site.service.registry.get(row.ruleset).ruleset
        context |= {
            "base": base,
            "campaign": row,
            "ruleset": ruleset,
            "reader": access.name,
            "is_gm": access.is_gm,
            "expires": access.expires,
            "names": access.names,
            "has_lists": type(ruleset).page_lists is not Contributions.page_lists,
            "has_board": type(ruleset).board is not Ruleset.board or bool(ruleset.board_action),
            "sheet": lambda name: sheet_path(base, name),
        }
        try:
            template, extra = await handler(site, request, access, base)
        except RuleError as error:
            context |= {"heading": "Not here", "message": str(error), "title": row.name}
            return await send(request, "problem.html", context, 404)
        return await send(request, template, context | extra)

    return answer


async def campaign_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    shown = await pages.campaign_page(site.service, access)
    return "campaign.html", {"page": shown, "title": shown.name, "here": "campaign"}


async def log_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    query = request.query
    asked = query.get("page", "")
    number = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 10 else 1
    oldest = query.get("order") == "oldest"
    refused = ""
    try:
        filters = pages.log_filter(
            access, query.get("player", ""), query.get("command", ""), query.get("text", ""), "secrets" in query
        )
    except RuleError as error:
        refused = str(error)
        filters = pages.LogFilter()
    shown = await pages.log_page(site.service, access, number, filters, oldest_first=oldest)
    shown.refused = refused
    kept = {
        key: value
        for key, value in {
            "player": str(filters.player_id or ""),
            "command": filters.command or "",
            "text": filters.text or "",
            "secrets": "1" if filters.secrets else "",
            "order": "oldest" if oldest else "",
        }.items()
        if value
    }

    def at(number: int) -> str:
        return f"{base}log?{urlencode({**kept, 'page': number})}"

    return "log.html", {"page": shown, "title": f"Log: {access.campaign.row.name}", "here": "log", "at": at}


async def sheet_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    name = request.match_info["name"]
    card = pages.sheet(site.service, access, name)
    return "sheet.html", {"card": card, "title": card.title, "here": "campaign"}


async def board_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    shown = pages.board(site.service, access)
    return "board.html", {"page": shown, "title": f"Board: {access.campaign.row.name}", "here": "board"}


async def lists_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    shown = pages.lists(site.service, access)
    return "lists.html", {"page": shown, "title": f"Lists: {access.campaign.row.name}", "here": "lists"}


async def archive_page(site: Site, request: web.Request, access: Access, base: str) -> tuple[str, dict[str, Any]]:
    ended = await pages.ended_here(site.service, access)
    return "archive.html", {"ended": ended, "title": "Ended campaigns", "here": "archive"}


async def style(request: web.Request) -> web.Response:
    return web.Response(
        body=(STATIC / "style.css").read_bytes(),
        content_type="text/css",
        charset="utf-8",
        headers={"Cache-Control": "public, max-age=3600"},
    )


async def to_slash(request: web.Request) -> web.Response:
    """``/w/<token>`` to ``/w/<token>/``, relative to where it was asked: behind a proxy that serves Magister under
    a path (``/magister/w/<token>``), the browser stays under that path."""
    last = request.raw_path.partition("?")[0].rsplit("/", 1)[-1]
    query = f"?{request.query_string}" if request.query_string else ""
    raise web.HTTPFound(f"{last}/{query}")


@web.middleware
async def guarded(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
    """Security headers on every answer; an unexpected error is an incident (logged without the request's path)."""
    try:
        response = await handler(request)
    except web.HTTPException as error:  # no such page (404), a redirect: aiohttp's own answer, with the headers
        for name, value in HEADERS.items():
            error.headers.setdefault(name, value)
        raise
    except Exception:
        incident = uuid.uuid4().hex[:8]
        log.exception("web page incident %s", incident)  # the traceback only: the path would hold the token
        response = web.Response(
            status=500,
            text=f"Something went wrong on Magister's side (incident {incident}). Nothing was changed.",
            content_type="text/plain",
        )
    for name, value in HEADERS.items():
        if name == "Cache-Control" and "Cache-Control" in response.headers:
            continue
        if not response.prepared:
            response.headers.setdefault(name, value)
    return response


def add_pages(app: web.Application, service: TableService, links: WebLinks, limiter: Limiter | None = None) -> None:
    """The campaign's pages on ``app`` (the health checks' own application, when both share a port)."""
    app[SITE] = Site(service, links, limiter or Limiter())
    app.middlewares.append(guarded)
    routes = [
        ("/w/{token}/", campaign_page),
        ("/w/{token}/log", log_page),
        ("/w/{token}/sheet/{name:.+}", sheet_page),
        ("/w/{token}/board", board_page),
        ("/w/{token}/lists", lists_page),
        ("/w/{token}/archive", archive_page),
    ]
    for path, handler in routes:
        app.router.add_get(path, page(handler))
    app.router.add_get("/w/{token}", to_slash)
    app.router.add_get("/static/style.css", style)


def web_app(service: TableService, links: WebLinks, limiter: Limiter | None = None) -> web.Application:
    app = web.Application()
    add_pages(app, service, links, limiter)
    return app


async def start_web(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Serve ``app`` on host:port (0: any free port). No access log: a page's path holds its link."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def sheet_path(base: str, name: str) -> str:
    return f"{base}sheet/{quote(name, safe='')}"
