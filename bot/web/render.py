"""Rendering: the Jinja2 templates under ``bot/web/templates`` and the one filter that turns a card's Discord
text into HTML.

Every value is escaped: the environment autoescapes, and :func:`discord_html` escapes the whole text first and
only then marks up what Discord would (``**bold**``, ``*italic*``, `` `code` ``, ``~~struck~~``, ``||spoiler||``,
links, mentions, ``<t:…>`` times), so nothing a player typed can become markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

USER = re.compile(r"&lt;@!?(\d{1,20})&gt;")
ROLE = re.compile(r"&lt;@&amp;(\d{1,20})&gt;")
CHANNEL = re.compile(r"&lt;#(\d{1,20})&gt;")
TIME = re.compile(r"&lt;t:(-?\d{1,12})(?::[tTdDfFR])?&gt;")
LINK = re.compile(r"https?://[^\s<>&\"']+(?:&amp;[^\s<>&\"']+)*")
STRONG = re.compile(r"\*\*(.+?)\*\*")
EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)")
STRUCK = re.compile(r"~~(.+?)~~")
SPOILER = re.compile(r"\|\|(.+?)\|\|")


def when(iso: str | None) -> str:
    """An ISO time as a person reads it: ``2026-11-26 14:03 UTC``."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _time(match: re.Match[str]) -> str:
    try:
        moment = datetime.fromtimestamp(int(match.group(1)), UTC)
    except (OverflowError, OSError, ValueError):
        return match.group(0)
    return f'<time datetime="{moment.isoformat()}">{moment.strftime("%Y-%m-%d %H:%M UTC")}</time>'


def _inline(text: str) -> str:
    """Discord's inline marks on text that is already escaped (no code in it)."""
    text = STRONG.sub(r"<strong>\1</strong>", text)
    text = EMPHASIS.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    text = STRUCK.sub(r"<del>\1</del>", text)
    return SPOILER.sub(r'<span class="spoiler">\1</span>', text)


MARKS = frozenset("*_~|`<")  # a text without any of these (and without a link) has nothing to mark up


def discord_html(text: str | None, names: Mapping[int, str] | None = None) -> Markup:
    """A card's text (Discord's Markdown) as safe HTML: escaped first, then marked up. A plain text (most log
    lines: "Pat rolled 1d20 for …") is only escaped: the marks below need one of :data:`MARKS` or a link, and
    running them all on every line was a tenth of a log page's CPU."""
    if not text:
        return Markup("")
    if MARKS.isdisjoint(text) and "http" not in text:
        return Markup("<br>\n".join(str(escape(text)).split("\n")))
    return marked_up(text, names or {})


def marked_up(text: str, names: Mapping[int, str]) -> Markup:
    """:func:`discord_html`'s whole markup, for a text that may hold some."""
    safe = str(escape(text))
    safe = ROLE.sub("@a role", safe)
    safe = USER.sub(lambda m: "@" + str(escape(names.get(int(m.group(1))) or "a member")), safe)
    safe = CHANNEL.sub("#a channel", safe)
    safe = TIME.sub(_time, safe)
    parts = safe.split("`")
    out = []
    for index, part in enumerate(parts):
        if index % 2 and index < len(parts) - 1:  # between two backticks: code, nothing else marked up
            out.append(f"<code>{part}</code>")
        else:
            linked = LINK.sub(lambda m: f'<a href="{m.group(0)}" rel="noopener noreferrer">{m.group(0)}</a>', part)
            pieces = re.split(r"(<a [^>]*>.*?</a>)", linked)  # never mark up inside a link
            out.append("".join(p if p.startswith("<a ") else _inline(p) for p in pieces))
    return Markup("<br>\n".join("".join(out).split("\n")))


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the templates ship with the code: no look at their files on every page
    )
    env.filters["discord"] = discord_html
    env.filters["when"] = when
    env.filters["day"] = lambda iso: when(iso)[:10]
    env.filters["day_of"] = lambda seconds: datetime.fromtimestamp(int(seconds), UTC).strftime("%Y-%m-%d")
    return env


ENVIRONMENT = environment()


def render(template: str, context: dict[str, Any]) -> Iterator[str]:
    """The page in pieces, as Jinja2 makes them (the server sends them as they come)."""
    return ENVIRONMENT.get_template(template).generate(**context)
