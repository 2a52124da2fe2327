"""Campaign administration: status, house rules, GMs, the log, export, ending, characters.

These work the same for every ruleset, so they live beside the table service
rather than in any ruleset. Each returns a :class:`Reply` for a cog to show.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.storage.export import export_files
from bot.storage.protocol import Store, Transaction
from bot.storage.rows import RECAP_COUNT_CAP, SHORT_TEXT_WINDOW, EventRow, LogQuery
from bot.table.pbp import (
    PBP_KEYS,
    PbpSettings,
    duration_text,
    epoch,
    is_paused,
    pbp_settings,
    set_pbp_setting,
    setting_refused,
    shift_for_resume,
    wait_line,
    when,
)
from bot.table.sealing import SHORT, commitment
from bot.table.secrecy import EVERYONE, Reader, guard_view, may_read_private, private_summary
from bot.table.service import Caller, Campaign, ConfirmUndoError, Place, Reply, TableService
from rules.base import Card, Outcome, Pronouns, RuleError, Table
from rules.text import DESCRIPTION, FIELD_VALUE, clip, listing

LOG_PAGE_SIZE = 10


async def commands_seen(service: TableService, campaign: Campaign) -> list[str]:
    """Every command this campaign's log holds, for the log's ``command`` filter to offer."""
    return await service.store.commands_seen(campaign.row.id)


async def status(service: TableService, place: Place) -> Reply:
    campaign = await service.require_campaign(place)
    row = campaign.row
    ruleset = service.registry.get(row.ruleset).ruleset
    events = await service.store.count_events(row.id)
    card = Card(title=f"Campaign: {row.name}")
    card.add("Ruleset", f"{ruleset.name} (`/{ruleset.id}`)", inline=True)
    card.add("GMs", ", ".join(f"<@{gm}>" for gm in row.gm_ids) or "none", inline=True)
    card.add("GM channel", f"<#{row.gm_channel_id}>" if row.gm_channel_id else "not set: secrets go by DM", inline=True)
    names = sorted(c.name for c in campaign.characters.values())
    card.add(f"Characters ({len(names)})", clip(", ".join(names), FIELD_VALUE) or "none yet")
    card.add("Log", f"{events} events since {row.created_at[:10]}", inline=True)
    data = {
        "campaign": row.name,
        "ruleset": row.ruleset,
        "gm_ids": row.gm_ids,
        "gm_channel_id": row.gm_channel_id,
        "characters": names,
        "events": events,
        "created_at": row.created_at,
    }
    return Reply(Outcome(card=card, summary="status", data=data), row)


# ---------------------------------------------------------------------- settings


def settings_fields(service: TableService, ruleset_id: str) -> dict[str, Any]:
    return service.registry.get(ruleset_id).ruleset.settings_model.model_fields


async def settings(service: TableService, place: Place, caller: Caller, key: str | None, value: str | None) -> Reply:
    """Show the house rules, or (GM only) set one, validated by the ruleset's settings model."""
    campaign = await service.require_campaign(place)
    fields = settings_fields(service, campaign.row.ruleset)
    if key in PBP_KEYS and key not in fields:
        return await pbp_setting(service, place, caller, campaign, key, value)
    if key is None:
        if value is not None:
            raise RuleError("Name the setting to change with `key:`, then give its `value:`.")
        return Reply(_settings_outcome(campaign, fields, everything=True), campaign.row)
    if key not in fields:
        known = ", ".join(sorted({*fields, *PBP_KEYS}))
        raise RuleError(f"There is no setting {key!r}. Settings: {known}.")
    if value is None:
        return Reply(_settings_outcome(campaign, {key: fields[key]}), campaign.row)

    def change(table: Table) -> Outcome:
        table.require_gm("Changing a house rule")
        model: type[BaseModel] = type(table.settings)
        current = table.settings.model_dump()
        old = current.get(key)
        try:
            table.settings = model.model_validate({**current, key: parse_setting_value(value)})
        except ValidationError as exc:
            raise RuleError(setting_refused(key, value, exc.errors()[0])) from None
        service.registry.get(table.ruleset_id).ruleset.check_settings(table.settings, table.book)
        new = getattr(table.settings, key)
        return Outcome(
            card=Card(
                title="House rule changed", description=f"**{key}**: {shown(old)} → {shown(new)}", tone="success"
            ),
            summary=f"set {key} = {shown(new)} (was {shown(old)})",
            data={"key": key, "old": _jsonable(old), "new": _jsonable(new)},
        )

    return await service.act(place, caller, "campaign settings", change, gm_only=True)


async def pbp_setting(
    service: TableService, place: Place, caller: Caller, campaign: Campaign, key: str, value: str | None
) -> Reply:
    """A play-by-post setting (deadlines, nudges, time zone): the campaign's own, for every ruleset."""
    info = PbpSettings.model_fields[key]
    if value is None:
        card = Card(title=f"Play-by-post: {key}")
        card.add(key, f"**{shown(getattr(pbp_settings(campaign.row), key))}**\n{info.description or ''}")
        data = {"pbp": {key: getattr(pbp_settings(campaign.row), key)}}
        return Reply(Outcome(card=card, summary="viewed settings", data=data, ephemeral=True), campaign.row)

    async def change(draft: Campaign, _: Transaction) -> Outcome:
        old, new = set_pbp_setting(draft.row, key, parse_setting_value(value))
        note = " It applies to waits that begin from now on." if key in ("response_window", "turn_deadline") else ""
        return Outcome(
            card=Card(
                title="Play-by-post setting changed", description=f"**{key}**: {shown(old)} → {shown(new)}.{note}"
            ),
            summary=f"set {key} = {shown(new)} (was {shown(old)})",
            data={"key": key, "old": old, "new": new},
        )

    return await service.change_campaign(place, caller, "campaign settings", change)


def parse_setting_value(text: str) -> Any:
    """``true``, ``3``, ``2.5`` and JSON lists read as such; anything else is a string."""
    lowered = text.strip().lower()
    if lowered in {"true", "yes", "on"}:
        return True
    if lowered in {"false", "no", "off"}:
        return False
    try:
        return json.loads(text)
    except RecursionError:
        raise RuleError("That value nests too deeply to read. House rules are flat lists or tables.") from None
    except ValueError:
        return text.strip()


def shown(value: Any) -> str:
    """A setting as a GM would type it back: JSON, so `true` and `{"Flam": 2}` round-trip."""
    return json.dumps(_jsonable(value), ensure_ascii=False)


def _settings_outcome(campaign: Campaign, fields: dict[str, Any], *, everything: bool = False) -> Outcome:
    card = Card(title=f"House rules: {campaign.row.name}")
    for name, info in list(fields.items())[:25]:
        current = campaign.row.settings.get(name, info.default)
        description = info.description or ""
        card.add(name, f"**{shown(current)}**" + (f"\n{description}" if description else ""))
    if not fields:
        card.description = "This ruleset has no house rules."
    pbp = pbp_settings(campaign.row)
    if everything:  # the whole list: the play-by-post settings come too
        lines = [f"**{name}**: {shown(getattr(pbp, name))}" for name in PBP_KEYS]
        card.add("Play-by-post" + (" (paused)" if is_paused(campaign.row) else ""), "\n".join(lines))
    card.fields = card.fields[:25]
    card.footer = "GMs change one with /campaign settings key:<name> value:<value>"
    data: dict[str, Any] = {"settings": {name: campaign.row.settings.get(name) for name in fields}}
    if everything:
        data["pbp"] = pbp.model_dump()
    return Outcome(card=card, summary="viewed settings", data=data, ephemeral=True)


# ---------------------------------------------------------------------- who the table waits on


def _wait_data(wait: Any, campaign: Any = None) -> dict:
    data = {
        "key": wait.key,
        "who": wait.body.get("who"),
        "user_id": wait.user_id,
        "what": wait.body.get("what"),
        "kind": wait.body.get("kind"),
        "commands": wait.body.get("commands", []),
        "since": wait.since,
        "deadline": wait.deadline,
    }
    if campaign is not None:
        data.update(campaign=campaign.name, channel_id=campaign.channel_id)
    return data


async def waiting(service: TableService, place: Place, caller: Caller, *, mine: bool = False) -> Reply:
    """Who this channel's table waits on, for what, since and until when; with ``mine``, every channel
    of the guild that waits on the caller (as a player, or as a GM for the GM's waits)."""
    if mine:
        found = await service.store.waits_on(place.guild_id, caller.user_id)
        lines = [
            f"<#{row.channel_id}> ({row.name}): {wait_line(wait)}, since {when(wait.since)}" for row, wait in found
        ]
        card = Card(
            title="Waiting on you",
            description=listing(lines, DESCRIPTION) or "No table in this server is waiting on you.",
        )
        data = {"waits": [_wait_data(wait, row) for row, wait in found]}
        return Reply(Outcome(card=card, summary="waiting mine", data=data, ephemeral=True))
    campaign = await service.require_campaign(place)
    waits = sorted(campaign.waits.values(), key=lambda w: (w.since, w.key))
    lines = [f"{wait_line(wait)}, since {when(wait.since)}" for wait in waits]
    paused = is_paused(campaign.row)
    card = Card(
        title=f"Waiting: {campaign.row.name}",
        description=listing(lines, DESCRIPTION) or "The table is not waiting on anyone.",
        footer="Timers are paused: /campaign resume (GM) starts them again." if paused else "",
    )
    data = {"waits": [_wait_data(wait) for wait in waits], "paused": paused}
    return Reply(Outcome(card=card, summary="waiting", data=data, ephemeral=True), campaign.row)


async def pause(service: TableService, place: Place, caller: Caller) -> Reply:
    """Hold every timer of the campaign (a holiday): nothing nudges or passes its deadline until resumed."""

    async def change(draft: Campaign, _: Transaction) -> Outcome:
        if is_paused(draft.row):
            raise RuleError("The timers are already paused. `/campaign resume` starts them again.")
        draft.row.pbp = {**draft.row.pbp, "paused_at": service.clock()}
        return Outcome(
            card=Card(
                title="Timers paused",
                description="No reminders and no deadlines until a GM runs `/campaign resume`; "
                "then every deadline moves on by the time the pause lasted. Play goes on as usual.",
            ),
            summary="paused the timers",
            data={"paused_at": draft.row.pbp["paused_at"]},
        )

    return await service.change_campaign(place, caller, "campaign pause", change)


async def resume(service: TableService, place: Place, caller: Caller) -> Reply:
    """Start the timers again, every deadline and reminder later by the length of the pause."""

    async def change(draft: Campaign, tx: Transaction) -> Outcome:
        paused_at = draft.row.pbp.get("paused_at")
        if not paused_at:
            raise RuleError("The timers are not paused. `/campaign pause` holds them for a holiday.")
        held = max(0, epoch(service.clock()) - epoch(paused_at))
        draft.row.pbp = {k: v for k, v in draft.row.pbp.items() if k != "paused_at"}
        waits = dict(draft.waits)
        shifted = await tx.run(lambda wtx: shift_for_resume(wtx, draft.row.id, held, waits))
        for key, (_, deadline) in shifted["deadlines"].items():
            draft.waits[key] = dataclasses.replace(draft.waits[key], deadline=deadline)
        return Outcome(
            card=Card(
                title="Timers resumed",
                description=f"The pause lasted {duration_text(held) if held >= 60 else 'under a minute'}; "
                "every deadline and reminder moved on by as much.",
            ),
            summary=f"resumed the timers after {duration_text(held)}",
            data={"held_seconds": held, "shifted": shifted},
        )

    return await service.change_campaign(place, caller, "campaign resume", change)


# ---------------------------------------------------------------------- GMs and the GM channel


async def gm_add(service: TableService, place: Place, caller: Caller, user_id: int, name: str) -> Reply:
    async def change(campaign: Campaign, _: Transaction) -> Outcome:
        if user_id in campaign.row.gm_ids:
            raise RuleError(f"{name} is already a GM of this campaign.")
        campaign.row.gm_ids.append(user_id)
        return Outcome(
            card=Card(title="GM added", description=f"<@{user_id}> is now a GM of {campaign.row.name}."),
            summary=f"added GM {name}",
            data={"gm_ids": campaign.row.gm_ids},
        )

    return await service.change_campaign(place, caller, "campaign gm add", change)


async def gm_remove(service: TableService, place: Place, caller: Caller, user_id: int, name: str) -> Reply:
    async def change(campaign: Campaign, _: Transaction) -> Outcome:
        if user_id not in campaign.row.gm_ids:
            raise RuleError(f"{name} is not a GM of this campaign.")
        if campaign.row.gm_ids == [user_id]:
            raise RuleError("A campaign needs at least one GM. Add another GM before removing this one.")
        campaign.row.gm_ids.remove(user_id)
        return Outcome(
            card=Card(title="GM removed", description=f"<@{user_id}> is no longer a GM of {campaign.row.name}."),
            summary=f"removed GM {name}",
            data={"gm_ids": campaign.row.gm_ids},
        )

    return await service.change_campaign(place, caller, "campaign gm remove", change)


async def gm_channel(service: TableService, place: Place, caller: Caller, channel_id: int | None) -> Reply:
    async def change(campaign: Campaign, _: Transaction) -> Outcome:
        if channel_id == place.channel_id:
            raise RuleError("The GM channel must be another channel, one the players cannot read.")
        campaign.row.gm_channel_id = channel_id
        where = f"<#{channel_id}>" if channel_id else "the GMs' direct messages"
        return Outcome(
            card=Card(title="GM channel set", description=f"Secret results now go to {where}."),
            summary=f"set GM channel to {channel_id or 'DMs'}",
            data={"gm_channel_id": channel_id},
        )

    return await service.change_campaign(place, caller, "campaign gmchannel", change)


# ---------------------------------------------------------------------- the log


@dataclass(frozen=True)
class LogFilter:
    """The log's filters, as a member gave them: a player's events, a command's, the GM's secret ones, a text."""

    player_id: int | None = None
    player_name: str | None = None
    command: str | None = None
    secrets: bool = False
    text: str | None = None

    def __bool__(self) -> bool:
        return self.player_id is not None or self.command is not None or self.secrets or bool(self.text)

    def described(self) -> str:
        parts = [f"by {self.player_name or f'<@{self.player_id}>'}"] if self.player_id is not None else []
        parts += [f"/{self.command}"] if self.command else []
        parts += ["🔒 secret events"] if self.secrets else []
        parts += [f"“{self.text}”"] if self.text else []
        return ", ".join(parts)

    def arg(self) -> str:
        """The filters in a page button's custom_id (Discord allows 100 characters in all): the player's id in
        base 36, ``s`` for secrets, the command's short hash (names can be long), then the text, whole."""
        player = base36(self.player_id) if self.player_id is not None else ""
        command = _command_key(self.command) if self.command else ""
        return f"{player}~{'s' if self.secrets else ''}~{command}~{self.text or ''}"


LOG_TEXT_MAX = 30  # a search text, kept whole in the page buttons


def base36(number: int) -> str:
    """A number in base 36 (0-9a-z): short enough for the ids a Discord custom_id carries."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def _command_key(command: str) -> str:
    return hashlib.sha1(command.encode()).hexdigest()[:8]


async def filter_from_arg(service: TableService, place: Place, arg: str) -> LogFilter:
    """A page button's filters back (see :meth:`LogFilter.arg`); an empty arg is the whole log."""
    if not arg:
        return LogFilter()
    player, secrets, command_key, text = ([*arg.split("~", 3), "", "", "", ""])[:4]
    command = None
    if command_key:
        campaign = await service.require_campaign(place)
        seen = await service.store.commands_seen(campaign.row.id)
        command = next((c for c in seen if _command_key(c) == command_key), "(a command no longer in this log)")
    return LogFilter(
        player_id=int(player, 36) if player else None, command=command, secrets=secrets == "s", text=text or None
    )


def clean_filter(
    player_id: int | None, player_name: str | None, command: str | None, secrets: bool, text: str | None
) -> LogFilter:
    """The log's options as typed, checked: a leading / dropped, a search of at most LOG_TEXT_MAX characters."""
    command = " ".join((command or "").strip().lstrip("/").split()) or None
    text = (text or "").strip() or None
    if text is not None and len(text) > LOG_TEXT_MAX:
        raise RuleError(f"A log search takes at most {LOG_TEXT_MAX} characters; try a shorter word from the summary.")
    return LogFilter(player_id, player_name, command, secrets, text)


LOG_COUNT_CAP = 200  # a filtered log counts its matches this far, then says "over": counting is a walk


@dataclass
class LogSlice:
    """A log page as read: its events (in the order asked), its number, and what is known of the matches."""

    events: list[EventRow]
    page: int
    matches: int  # exact, or (``more``) a lower bound
    more: bool


async def read_log_page(
    store: Store,
    campaign_id: int,
    query: LogQuery | None,
    page: int,
    *,
    count_cap: int = LOG_COUNT_CAP,
    older: int | None = None,
    newer: int | None = None,
    oldest_first: bool = False,
) -> LogSlice:
    """Page ``page`` of a campaign's log, whole (``query`` None) or filtered: the one reader Discord's
    `/campaign log` and the web's log page share. Every read seeks by event number: the whole log's page N is
    numbers count-10N+1 to count-10N+10. A filter's pages follow its index: a page button carries the number of
    the event its page ended (``older``) or began (``newer``) at, so Next and Previous seek from there; a typed page
    number skips that many matches, reading only their numbers (in the index); the count stops at ``count_cap``,
    past which the matches are "over" it. ``oldest_first`` reads a page from the other end (the web's story order);
    a filter counts to ``count_cap`` and goes no further then."""
    size = LOG_PAGE_SIZE
    if query is None and not oldest_first and page >= 1:
        # the whole log, newest first: its count and the page asked for at once (on PostgreSQL two round trips
        # side by side, not one after the other; issue 23), read again only when the page is past the end
        total, events = await asyncio.gather(
            store.count_events(campaign_id), store.events(campaign_id, limit=size, offset=(page - 1) * size)
        )
        last = max(1, math.ceil(total / size))
        if page > last:
            page = last
            events = await store.events(campaign_id, limit=size, offset=(page - 1) * size)
        return LogSlice(events, page, total, more=False)
    if query is None or oldest_first:
        total = (
            await store.count_events(campaign_id)
            if query is None
            else await store.count_matching(campaign_id, query, limit=count_cap)
        )
        page = min(max(1, page), max(1, math.ceil(total / size)))
        offset, limit = (page - 1) * size, size
        if oldest_first:  # page 1 holds #1..#10: the same rows read from the other end
            offset, limit = max(0, total - page * size), min(size, total - (page - 1) * size)
        if limit <= 0:
            events = []
        elif query is None:
            events = await store.events(campaign_id, limit=limit, offset=offset)
        else:
            events = await store.events_matching(campaign_id, query, limit=limit, skip=offset)
        if oldest_first:
            events.reverse()
        return LogSlice(events, page, total, more=False)
    first: list[EventRow] | None = None  # the first page, read beside the count: it needs nothing the count says
    if page == 1:
        counted, first = await asyncio.gather(
            store.count_matching(campaign_id, query, limit=count_cap + 1),
            store.events_matching(campaign_id, query, limit=size + 1),
        )
    else:
        counted = await store.count_matching(campaign_id, query, limit=count_cap + 1)
    exact = counted <= count_cap
    if exact:
        page = min(page, max(1, math.ceil(counted / size)))
    rows: list[EventRow] = []
    following = False
    if page > 1 and older is not None:  # Next: the matches just older than the page it was pressed on
        rows = await store.events_matching(campaign_id, query, limit=size + 1, before=older)
        following, rows = len(rows) > size, rows[:size]
    elif page > 1 and newer is not None:  # Previous: the matches just newer, before the page it was pressed on
        rows = await store.events_matching(campaign_id, query, limit=size, after=newer)
        following, rows = True, rows if len(rows) == size else []  # a short page: the log moved; go by number
    if not rows and counted:
        rows = (
            first
            if first is not None
            else await store.events_matching(campaign_id, query, limit=size + 1, skip=(page - 1) * size)
        )
        if not rows and page > 1:  # past the last match: count them as far as this page, show the last page
            found = await store.count_matching(campaign_id, query, limit=(page - 1) * size)
            page = max(1, math.ceil(found / size))
            rows = await store.events_matching(campaign_id, query, limit=size + 1, skip=(page - 1) * size)
        following, rows = len(rows) > size, rows[:size]
    if exact:
        return LogSlice(rows, page, counted, more=False)
    if not following:  # the end, reached: every match is behind this page
        return LogSlice(rows, page, (page - 1) * size + len(rows), more=False)
    return LogSlice(rows, page, max(count_cap + 1, page * size + 1), more=True)


async def log_page(
    service: TableService,
    place: Place,
    page: int,
    caller: Caller,
    filters: LogFilter | None = None,
    *,
    older_than: int | None = None,
    newer_than: int | None = None,
) -> tuple[Reply, int]:
    """One page of the log, newest first, maybe filtered, and the number of pages (with a filter matching over
    :data:`LOG_COUNT_CAP` events, as many as are known: the page's own and one more when there is one more).
    Only a GM reads the secret side of an entry, lists the secret events, or finds an entry by the words of its
    secret side. ``older_than``/``newer_than``: the event number a filtered page's Next/Previous seeks from
    (:func:`read_log_page` reads it)."""
    campaign = await service.require_campaign(place)
    reveal = campaign.is_gm(caller)
    filters = filters or LogFilter()
    if filters.secrets and not reveal:
        raise RuleError(
            "Only a GM can list the secret events: their results are the GM's. "
            "`/campaign log` without `secrets:` shows every event as you may see it."
        )
    if page < 1:
        raise RuleError("Pages start at 1, the newest.")
    query = LogQuery(filters.player_id, filters.command, filters.secrets, filters.text, reveal)
    read = await read_log_page(
        service.store, campaign.row.id, query if filters else None, page, older=older_than, newer=newer_than
    )
    events, page, total, more = read.events, read.page, read.matches, read.more
    pages = max(1, math.ceil(total / LOG_PAGE_SIZE), page + 1 if more else page)
    if filters.player_id is not None and filters.player_name is None:  # a page button carries the id alone
        name = events[0].actor_name if events else "that member"
        filters = dataclasses.replace(filters, player_name=name)
    lines = [event_line(event, reveal=reveal, reader=caller.user_id) for event in events]
    empty = f"No event matches ({filters.described()})." if filters else "Nothing has happened yet."
    shown_filter = f" · {filters.described()}" if filters else ""
    counted = f"over {total - 1} events" if more else f"{total} events"
    window = ""
    if query.short_text and await service.store.count_events(campaign.row.id) > SHORT_TEXT_WINDOW:
        window = f" · a search of 1 or 2 characters reads the newest {SHORT_TEXT_WINDOW} events"
    card = Card(
        title=f"Log: {campaign.row.name}",
        description="\n".join(lines) or empty,
        footer=f"Page {page} of {pages}{'+' if more else ''} · newest first · {counted}{shown_filter}{window}"
        + (" · 🔒 GM only" if reveal else ""),
    )
    data: dict[str, Any] = {
        "page": page,
        "pages": pages,
        "events": [event_data(e, reveal=reveal, reader=caller.user_id) for e in events],
    }
    if filters:
        data["filters"] = {
            "player_id": filters.player_id,
            "command": filters.command,
            "secrets": filters.secrets,
            "text": filters.text,
            "matches": total,
            "more": more,
        }
    return Reply(Outcome(card=card, summary="viewed log", data=data, ephemeral=True), campaign.row), pages


def page_ends(reply: Reply) -> tuple[int, int] | None:
    """The numbers of a filtered log page's newest and oldest events: where its Previous and Next seek from."""
    data = reply.outcome.data
    events = data.get("events") or []
    if "filters" not in data or not events:
        return None
    return int(events[0]["id"]), int(events[-1]["id"])


RECAP_SIZE = 20


async def recap(service: TableService, place: Place, caller: Caller) -> Reply:
    """What happened since the caller last acted here, oldest first, as they may read it: play-by-post catch-up."""
    campaign = await service.require_campaign(place)
    reveal = campaign.is_gm(caller)
    events, total = await service.store.events_since_last_by(campaign.row.id, caller.user_id, limit=RECAP_SIZE)
    events.reverse()
    lines = [event_line(event, reveal=reveal, reader=caller.user_id) for event in events]
    if total > len(events):
        earlier = f"{total - len(events)}" if total < RECAP_COUNT_CAP else "many more"
        lines.insert(0, f"… {earlier} earlier events: see `/campaign log`.")
    card = Card(
        title=f"Since you last acted: {campaign.row.name}",
        description="\n".join(lines) or "Nothing has happened since your last action.",
        footer=f"{total if total < RECAP_COUNT_CAP else f'{RECAP_COUNT_CAP}+'} events · oldest first",
    )
    data = {"since_count": total, "events": [event_data(e, reveal=reveal, reader=caller.user_id) for e in events]}
    return Reply(Outcome(card=card, summary="recap", data=data, ephemeral=True), campaign.row)


def secret_summary(event: EventRow) -> str | None:
    """The GM's side of a log entry, if it has one."""
    secret = event.result.get("secret")
    return secret.get("summary") if isinstance(secret, dict) else None


def event_data(event: EventRow, *, reveal: bool = False, reader: int | None = None) -> dict:
    data = {
        "id": event.seq,
        "at": event.at,
        "actor": event.actor_name,
        "command": event.command,
        "summary": event.summary,
        "undoes": undone_number(event),
    }
    if event.thread_id is not None:
        data["thread_id"] = event.thread_id
    sealed = commitment(event.result)
    if sealed is not None:  # public: the commitment, never the result
        data["sealed"] = sealed
    hidden = secret_summary(event)
    if reveal and hidden:
        data["secret"] = hidden
    private = private_summary(event.result)
    if private and may_read_private(event.result, reader, reveal):
        data["private"] = private
    return data


def undone_number(event: EventRow) -> int | None:
    """The # (in this campaign) of the change an undo entry reverted; the row's ``undoes`` is the global id."""
    if event.undoes is None:
        return None
    number = event.result.get("undone")
    return number if isinstance(number, int) else None


def event_line(event: EventRow, *, reveal: bool = False, reader: int | None = None) -> str:
    """One line of the log; with ``reveal`` (GMs only), a secret entry shows its result after 🔒, and a private
    entry its private side after 🔏 to its readers (the owner) and the GMs. A sealed entry shows everyone the
    start of its commitment after 🔐."""
    hidden = secret_summary(event) if reveal else None
    private = private_summary(event.result) if may_read_private(event.result, reader, reveal) else None
    sealed = commitment(event.result)
    seal = f" 🔐 sealed `{sealed[:SHORT]}`" if sealed else ""
    summary = event.summary + seal + (f" 🔏 {private}" if private else "") + (f" 🔒 {hidden}" if hidden else "")
    where = f" in <#{event.thread_id}>" if event.thread_id is not None else ""
    line = f"`#{event.seq}` {event.at[:16].replace('T', ' ')}{where} **{event.actor_name}** /{event.command}: {summary}"
    return line[:380]


# ---------------------------------------------------------------------- export and end


async def export(
    service: TableService, place: Place, caller: Caller, folder: Path, *, limit: int, archived: int | None = None
) -> tuple[Reply, list[list[Path]]]:
    """The whole campaign as JSON, and its log as Markdown a person can read, written to ``folder``.

    Streams on a worker thread, or a long log in a process of its own (it never sits in memory, the event loop
    keeps answering), and fits Discord's upload ``limit``: returns the files in batches, one message's worth each.
    """
    if archived is None:
        campaign = await service.require_campaign(place)
        if not campaign.is_gm(caller):
            raise RuleError("Exporting needs the GM: the export holds secret results.")
        row = campaign.row
    else:
        row = await ended_campaign(service, place, caller, archived, "Exporting")
    slug = "".join(ch if ch.isalnum() else "-" for ch in row.name.lower()).strip("-") or "campaign"
    gm_line = functools.partial(event_line, reveal=True)  # the export is the GM's: secret sides included
    written = await export_files(service.store, row.id, folder, slug, limit, gm_line)
    names = [path.name for batch in written.batches for path in batch]
    description = f"{written.events} events, {written.characters} characters."
    if written.compressed:
        description += f" Compressed with gzip to fit Discord's {limit / 1024 / 1024:.0f} MB upload limit."
    if written.split:
        description += (
            f" Still too large, so split into {len(names)} parts over {len(written.batches)} messages: "
            "join each file's parts with `cat NAME.gz.part* > NAME.gz`, then `gunzip NAME.gz`."
        )
    data = {
        "files": names,
        "events": written.events,
        "compressed": written.compressed,
        "split": written.split,
        "parts": len(names),
    }
    outcome = Outcome(
        card=Card(title=f"Export: {row.name}", description=description), summary="exported", data=data, ephemeral=True
    )
    return Reply(outcome, row), written.batches


# ---------------------------------------------------------------------- archives


async def ended_campaign(service: TableService, place: Place, caller: Caller, campaign_id: int, what: str) -> Any:
    """An ended campaign of this channel that the caller was a GM of (or manages the server)."""
    row = await service.store.campaign_by_id(campaign_id)
    if row is None or (row.guild_id, row.channel_id) != (place.guild_id, place.channel_id) or not row.archived_at:
        raise RuleError(f"This channel has no ended campaign #{campaign_id}; `/campaign archive list` shows them.")
    if not (caller.manages_guild or caller.user_id in row.gm_ids):
        raise RuleError(f"{what} an ended campaign needs one of its GMs, or a member who manages the server.")
    return row


async def archive_list(service: TableService, place: Place) -> Reply:
    rows = await service.store.archived_campaigns(place.guild_id, place.channel_id)
    lines = [f"`#{r.id}` **{r.name}** ({r.ruleset}), {r.created_at[:10]} to {r.archived_at[:10]}" for r in rows]
    card = Card(
        title="Ended campaigns in this channel",
        description=listing(lines, DESCRIPTION) or "None: nothing has ended here.",
        footer="Nothing ended is deleted: `/campaign export archived:#` or `/campaign archive reopen id:#` (GM).",
    )
    data = {"campaigns": [{"id": r.id, "name": r.name, "ruleset": r.ruleset, "ended": r.archived_at} for r in rows]}
    return Reply(Outcome(card=card, summary="listed ended campaigns", data=data, ephemeral=True))


async def reopen(service: TableService, place: Place, caller: Caller, campaign_id: int) -> Reply:
    """An ended campaign runs here again, exactly as it was, if the channel is free."""

    async def work() -> Reply:
        live = await service.campaign(place)
        if live is not None:
            raise RuleError(
                f"This channel runs {live.row.name!r} now: a GM ends it with `/campaign end` (nothing is deleted) "
                "before another is reopened here."
            )
        row = await ended_campaign(service, place, caller, campaign_id, "Reopening")
        row.archived_at = None
        summary = f"reopened campaign {row.name!r}"
        async with service.store.transaction() as tx:
            await tx.update_campaign(row)
            event_id = await tx.append_event(
                row.id, caller.user_id, caller.name, "campaign archive reopen", summary, {"reopened": row.id}
            )
        service.forget(place)
        card = Card(title=f"Campaign reopened: {row.name}", description="Everything is as it was when it ended.")
        return Reply(
            Outcome(card=card, summary=summary, data={"reopened": row.id, "campaign": row.name}), row, event_id
        )

    return await service.locked(place, work)


def undo_prompt(campaign: Campaign, caller: Caller, ask: ConfirmUndoError) -> Outcome:
    """The question `/campaign undo` asks before reverting a change that is not the caller's own newest action:
    its #, who made it and what, and what came after it, each as this reader may read it (``event_line``)."""
    target, reveal = ask.target, campaign.is_gm(caller)
    lines = [event_line(target, reveal=reveal, reader=caller.user_id)]
    if target.actor_id != caller.user_id:
        lines.append(f"It is {target.actor_name}'s change, not yours.")
    if ask.later:
        lines.append("Came after it, newest first:")
        lines += [event_line(event, reveal=reveal, reader=caller.user_id) for event in ask.later]
        if ask.after > len(ask.later):
            lines.append(f"… {ask.after} events in all since #{target.seq}.")
    lines.append(
        f"Undoing #{target.seq} puts back only what it changed; what came after it stays. Press **Confirm** to undo "
        "it (`/campaign redo` brings it back), or **Cancel**."
    )
    card = Card(title=f"Undo #{target.seq}?", description=listing(lines, DESCRIPTION, keep_last=1), tone="warning")
    data = {
        "confirm": True,
        "event": target.seq,
        "command": target.command,
        "actor": target.actor_name,
        "after": [event.seq for event in ask.later],
    }
    return Outcome(card=card, summary="asked to undo", data=data, ephemeral=True)


async def undo(service: TableService, place: Place, caller: Caller, number: int | None) -> tuple[Reply, int | None]:
    """`/campaign undo`: the change reverted at once, or the question to ask first and the # it is about."""
    try:
        reply, _ = await service.undo(place, caller, number, confirmed=False)
    except ConfirmUndoError as ask:
        campaign = await service.require_campaign(place)
        return Reply(undo_prompt(campaign, caller, ask), ask.campaign), ask.target.seq
    return reply, None


def end_prompt(campaign: Campaign) -> Outcome:
    card = Card(
        title=f"End {campaign.row.name}?",
        description=(
            "The campaign is archived: nothing is deleted, it stays in the database, and the channel is free "
            "for a new campaign. Want a file of it? Run `/campaign export` first. Press **Confirm** to end it."
        ),
        tone="warning",
    )
    return Outcome(card=card, summary="asked to end", data={"confirm": True}, ephemeral=True)


async def end(service: TableService, place: Place, caller: Caller) -> Reply:
    async def change(campaign: Campaign, _: Transaction) -> Outcome:
        campaign.row.archived_at = service.clock()
        return Outcome(
            card=Card(
                title=f"Campaign ended: {campaign.row.name}",
                description="Archived. Nothing was deleted. A GM can start a new campaign here.",
            ),
            summary=f"ended campaign {campaign.row.name!r}",
            data={"archived_at": campaign.row.archived_at},
        )

    return await service.change_campaign(place, caller, "campaign end", change)


# ---------------------------------------------------------------------- characters


async def character_list(service: TableService, place: Place) -> Reply:
    campaign = await service.require_campaign(place)
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, Caller(0, "?"))

    def listed(table: Table) -> Outcome:
        lines = [
            f"**{record.name}** ({f'<@{record.owner_id}>' if record.owner_id else 'no owner'}): "
            f"{ruleset.character_summary(record)}"
            for record in sorted(table.characters.values(), key=lambda r: r.name.casefold())
        ]
        card = Card(
            title=f"Characters: {campaign.row.name}", description=listing(lines, DESCRIPTION) or "No characters yet."
        )
        data = {"characters": [{"name": r.name, "owner_id": r.owner_id} for r in table.characters.values()]}
        return Outcome(card=card, summary="listed characters", data=data)

    return Reply(guard_view(listed, table, ruleset, EVERYONE), campaign.row)  # the channel reads it


async def character_show(service: TableService, place: Place, caller: Caller, name: str) -> Reply:
    """A sheet, as the caller may see it (the ruleset hides what only the GM may know)."""
    campaign = await service.require_campaign(place)
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    table = service.table_for(campaign, caller)
    record = table.find_character(name)

    def shown(view: Table) -> Outcome:
        outcome = ruleset.show_character(view, view.find_character(record.name))
        pronouns = Pronouns.of(record.pronouns).shown
        if len(outcome.card.fields) < 25:  # an embed holds 25 fields
            outcome.card.add("Pronouns", pronouns, inline=True)
        outcome.data["pronouns"] = pronouns
        return outcome

    return Reply(guard_view(shown, table, ruleset, Reader(caller.user_id, campaign.is_gm(caller))), campaign.row)


PRONOUN_CHOICES = ("they/them", "she/her", "he/him", "it/its")


async def character_pronouns(service: TableService, place: Place, caller: Caller, name: str, pronouns: str) -> Reply:
    """How player text speaks of a character (its player's or a GM's to set): they/them by default, she/her,
    he/him, it/its, or the player's own ("xe/xem/xyr"). A character change like any: logged, and undone."""
    chosen = Pronouns.parse(pronouns)

    def change(table: Table) -> Outcome:
        record = table.own_character(name)
        old, record.pronouns = record.pronouns, chosen
        shown = Pronouns.of(chosen).shown
        return Outcome(
            card=Card(title=f"{record.name}: {shown}", description=f"Magister now speaks of {record.name} as {shown}."),
            summary=f"set {record.name}'s pronouns to {shown}",
            data={"name": record.name, "pronouns": shown, "old": Pronouns.of(old).shown},
        )

    return await service.act(place, caller, "character pronouns", change)


async def character_delete(service: TableService, place: Place, caller: Caller, name: str) -> Reply:
    def change(table: Table) -> Outcome:
        record = table.remove_character(name)
        return Outcome(
            card=Card(
                title=f"Deleted {record.name}",
                description="A GM can bring the character back with `/campaign undo` while it is the latest change.",
            ),
            summary=f"deleted character {record.name}",
            data={"deleted": record.name},
        )

    return await service.act(place, caller, "character delete", change)


def _jsonable(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value
