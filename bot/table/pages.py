"""What each web page shows its reader (docs/web.md): plain data, drawn by the same table functions and through
the same secrecy as Discord's commands, for :mod:`bot.web` to render.

A page is read by the member a link is for (:class:`bot.table.weblinks.Access`): a GM of the moment reads the GM's
view; anyone else what a player reads in Discord (their own private sides, no one else's, nothing secret). The log
is the log of ``/campaign log`` (its numbers, filters and pages; :func:`bot.table.campaigns.event_data` decides
what each entry shows), a sheet is ``/character show``'s, the board the live board's (everyone's), and a ruleset's
own lists (``Ruleset.page_lists``) pass through :func:`bot.table.secrecy.guard_view` like any view.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from bot.storage.rows import LogQuery
from bot.table import campaigns
from bot.table.board import BOARD_VIEWER, board_card
from bot.table.campaigns import LOG_PAGE_SIZE, LOG_TEXT_MAX, LogFilter, event_data
from bot.table.pbp import is_paused
from bot.table.secrecy import guard_view
from bot.table.service import Campaign, TableService
from bot.table.weblinks import Access
from rules.base import BattlePicture, Card, Outcome, PageList, Pronouns, RuleError, Table

NOBODY = "no one"  # a forgotten member's characters belong to no one
SOMEONE = "a member"  # a member the pages know no name for (they never asked for a link)


def name_of(access: Access, user_id: int | None) -> str:
    if not user_id:
        return NOBODY
    return access.names.get(user_id) or SOMEONE


NAMES_KEPT = 600.0  # seconds the names read from a campaign's newest events are kept for its pages
NAMES_LOOKED_AT = 200  # the newest events whose actors' names the pages learn (a bounded read, however long the log)
_names: dict[int, tuple[float, dict[int, str]]] = {}


async def learn_names(service: TableService, access: Access) -> None:
    """Names for the GMs and players the pages show: the name each asked for a link with, else the one of their
    newest entry among the log's newest events (read once in a while, never the whole log); else "a member"."""
    row = access.campaign.row
    now = time.monotonic()
    kept = _names.get(row.id)
    if kept is None or now - kept[0] > NAMES_KEPT:
        _names[row.id] = kept = (now, kept[1] if kept else {})  # one reader reads them; the others use what is kept
        if len(_names) > 10_000:
            _names.clear()
        found: dict[int, str] = {}
        for event in await service.store.events(row.id, limit=NAMES_LOOKED_AT):
            if event.actor_id and not event.actor_name.endswith("(timer)"):
                found.setdefault(event.actor_id, event.actor_name)
        _names[row.id] = kept = (now, found)
    for user_id, name in kept[1].items():
        access.names.setdefault(user_id, name)


@dataclass(frozen=True)
class CharacterLine:
    name: str
    owner: str
    summary: str
    yours: bool


@dataclass(frozen=True)
class WaitLine:
    who: str
    what: str
    commands: tuple[str, ...]
    since: str
    deadline: str | None


@dataclass(frozen=True)
class Ended:
    id: int
    name: str
    ruleset: str
    began: str
    ended: str


@dataclass
class CampaignPage:
    name: str
    ruleset_id: str
    ruleset_name: str
    began: str
    ended: str | None
    paused: bool
    gms: list[str]
    players: list[str]
    characters: list[CharacterLine]
    waits: list[WaitLine]
    events: int


async def campaign_page(service: TableService, access: Access) -> CampaignPage:
    """The campaign: its ruleset, GMs, players, characters (one line each, as the reader may see them), what the
    table waits on and how long its log is."""
    await learn_names(service, access)
    campaign = access.campaign
    row = campaign.row
    ruleset = service.registry.get(row.ruleset).ruleset
    table = service.table_for(campaign, access.caller)

    def listed(view: Table) -> Outcome:
        rows = [
            [record.name, ruleset.character_summary(record)]
            for record in sorted(view.characters.values(), key=lambda r: r.name.casefold())
        ]
        return Outcome(card=Card(title=row.name), summary="", data={"rows": rows}, ephemeral=True)

    shown = guard_view(listed, table, ruleset, access.reader).data["rows"]
    owners = {c.name: c.owner_id for c in campaign.characters.values()}
    characters = [
        CharacterLine(name, name_of(access, owners.get(name)), summary, owners.get(name) == access.user_id)
        for name, summary in shown
    ]
    player_ids = sorted({c.owner_id for c in campaign.characters.values() if c.owner_id} - set(row.gm_ids))
    player_ids += sorted(set(access.names) - set(player_ids) - set(row.gm_ids))
    waits = [
        WaitLine(
            str(w.body.get("who", "?")),
            str(w.body.get("what", "")),
            tuple(str(c) for c in w.body.get("commands", [])[:4]),
            w.since,
            w.deadline,
        )
        for w in sorted(campaign.waits.values(), key=lambda w: (w.since, w.key))
    ]
    return CampaignPage(
        name=row.name,
        ruleset_id=ruleset.id,
        ruleset_name=ruleset.name,
        began=row.created_at,
        ended=row.archived_at,
        paused=is_paused(row),
        gms=[name_of(access, gm) for gm in row.gm_ids],
        players=[name_of(access, player) for player in player_ids],
        characters=characters,
        waits=waits,
        events=await service.store.count_events(row.id),
    )


# ---------------------------------------------------------------------- the log


@dataclass
class LogPage:
    page: int
    pages: int
    total: int
    oldest_first: bool
    events: list[dict[str, Any]]
    filters: LogFilter
    commands: list[str]
    members: list[tuple[int, str]]
    reveal: bool
    refused: str = ""


_commands: dict[int, tuple[int, list[str]]] = {}  # campaign id -> (its event count then, the commands its log holds)


async def commands_seen(service: TableService, campaign: Campaign, events: int) -> list[str]:
    """The commands the log's filter offers: read again only when the log has grown since (pages are read far
    more often than a table writes)."""
    kept = _commands.get(campaign.row.id)
    if kept is None or kept[0] != events:
        if len(_commands) > 10_000:
            _commands.clear()
        kept = _commands[campaign.row.id] = (events, await campaigns.commands_seen(service, campaign))
    return kept[1]


def log_filter(access: Access, player: str, command: str, text: str, secrets: bool) -> LogFilter:
    """The log's filters from a page's query, checked as `/campaign log` checks its options; RuleError says why."""
    player_id = int(player) if player.isascii() and player.isdigit() and len(player) < 21 else None
    name = name_of(access, player_id) if player_id else None
    if text and len(text.strip()) > LOG_TEXT_MAX:
        raise RuleError(f"A log search takes at most {LOG_TEXT_MAX} characters; try a shorter word from the summary.")
    filters = campaigns.clean_filter(player_id, name, command or None, secrets, text or None)
    if filters.secrets and not access.is_gm:
        raise RuleError("Only a GM can list the secret events: their results are the GM's.")
    return filters


WEB_COUNT_CAP = 5_000  # matches a filtered web log counts (500 pages): a walk of the filter's index, never a scan


async def log_page(
    service: TableService, access: Access, page: int, filters: LogFilter, *, oldest_first: bool = False
) -> LogPage:
    """One page of the log as `/campaign log` shows it to this reader (newest first, or oldest first to read it
    as a story): ten events, numbered as in Discord. Only the page is read, however long the log."""
    row = access.campaign.row
    reveal = access.is_gm
    query = LogQuery(filters.player_id, filters.command, filters.secrets, filters.text, reveal)
    # a filtered count is a walk of the filter's index: it stops at WEB_COUNT_CAP matches (the pages past them,
    # newest first, are the oldest of those matches; docs/web.md)
    read = await campaigns.read_log_page(
        service.store, row.id, query if filters else None, page, count_cap=WEB_COUNT_CAP, oldest_first=oldest_first
    )
    # the whole log's page counted its events already: a read fewer for the page readers open most
    logged = await service.store.count_events(row.id) if filters else read.matches
    page, total, events = read.page, read.matches, read.events
    pages = max(1, math.ceil(total / LOG_PAGE_SIZE), page + 1 if read.more else page)
    readers = set(access.names)  # members with web access now (a forgotten one's row is gone)
    await learn_names(service, access)
    wanted = {*row.gm_ids, *readers, *(c.owner_id for c in access.campaign.characters.values())} - {0}
    members = {user_id: name_of(access, user_id) for user_id in wanted}
    for event in events:
        if event.actor_id:
            members.setdefault(event.actor_id, event.actor_name)
    return LogPage(
        page=page,
        pages=pages,
        total=total,
        oldest_first=oldest_first,
        events=[event_data(e, reveal=reveal, reader=access.user_id) for e in events],
        filters=filters,
        commands=await commands_seen(service, access.campaign, logged),
        members=sorted(members.items(), key=lambda item: item[1].casefold()),
        reveal=reveal,
    )


# ---------------------------------------------------------------------- sheets, the board, the ruleset's lists


def sheet(service: TableService, access: Access, name: str) -> Card:
    """A character's sheet as `/character show` shows it to this reader (what they may not see is hidden)."""
    campaign = access.campaign
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, access.caller)
    record = table.find_character(name)

    def shown(view: Table) -> Outcome:
        outcome = ruleset.show_character(view, view.find_character(record.name))
        outcome.card.add("Pronouns", Pronouns.of(record.pronouns).shown, inline=True)
        return outcome.model_copy(update={"ephemeral": True})

    return guard_view(shown, table, ruleset, access.reader).card


@dataclass
class BoardPage:
    card: Card | None
    picture: BattlePicture | None
    note: str = ""


def board(service: TableService, access: Access) -> BoardPage:
    """The live board as the channel reads it (nobody's secrets), and its picture as data, where the ruleset
    draws one."""
    campaign: Campaign = access.campaign
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    try:
        card: Card | None = board_card(service, campaign)
    except RuleError as error:
        return BoardPage(None, None, str(error))
    picture = None
    note = ""
    if ruleset.draws_picture:
        try:
            picture = ruleset.picture(service.table_for(campaign, BOARD_VIEWER))
        except RuleError as error:  # nothing to draw now (no battle)
            note = str(error)
    return BoardPage(card, picture, note)


@dataclass
class ListsPage:
    lists: list[PageList] = field(default_factory=list)


def lists(service: TableService, access: Access) -> ListsPage:
    """The ruleset's own lists (spells in effect, a Codex, cards, rotes) as this reader may see them."""
    campaign = access.campaign
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, access.caller)

    def drawn(view: Table) -> Outcome:
        found = [
            {
                "title": item.title,
                "columns": list(item.columns),
                "rows": [list(r) for r in item.rows],
                "empty": item.empty,
                "note": item.note,
            }
            for item in ruleset.page_lists(view)
        ]
        return Outcome(card=Card(title=campaign.row.name), summary="", data={"lists": found}, ephemeral=True)

    guarded = guard_view(drawn, table, ruleset, access.reader).data["lists"]
    return ListsPage(
        [
            PageList(
                item["title"],
                tuple(item["columns"]),
                tuple(tuple(str(cell) for cell in r) for r in item["rows"]),
                item["empty"],
                item["note"],
            )
            for item in guarded
        ]
    )


async def ended_here(service: TableService, access: Access) -> list[Ended]:
    """The campaigns that ended in this campaign's channel, as `/campaign archive list` lists them."""
    row = access.campaign.row
    return [
        Ended(r.id, r.name, r.ruleset, r.created_at, r.archived_at or "")
        for r in await service.store.archived_campaigns(row.guild_id, row.channel_id)
    ]
