"""What both stores hand back and raise: rows as plain dataclasses, and the errors the service catches.

Nothing here knows SQLite or PostgreSQL, so the table service depends on these and on
:mod:`bot.storage.protocol`, never on a backend.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson

from rules.base import RuleError

SYNCHRONOUS = ("FULL", "NORMAL")  # the durability settings both stores accept
RECAP_COUNT_CAP = 1000  # "since you last acted" counts this far, then says "more than"
TEXT_INDEXED_FROM = 3  # a log search this long seeks the text index (trigrams); a shorter one reads a window
SHORT_TEXT_WINDOW = 2000  # a 1- or 2-character search reads the newest this many events, however long the log


@dataclass
class CampaignRow:
    id: int
    guild_id: int
    channel_id: int
    ruleset: str
    name: str
    gm_ids: list[int]
    gm_channel_id: int | None
    settings: dict[str, Any]
    state: dict[str, Any]
    version: int
    created_at: str
    archived_at: str | None
    pbp: dict[str, Any] = field(default_factory=dict)  # play-by-post settings and pause (bot/table/pbp.py)


@dataclass
class StoredWait:
    """A wait as the store keeps it: the ruleset's :class:`rules.base.Wait`, since when, until when."""

    campaign_id: int
    key: str
    user_id: int | None
    body: dict[str, Any]
    since: str
    deadline: str | None


@dataclass
class TimerRow:
    id: int
    campaign_id: int | None
    guild_id: int
    channel_id: int
    kind: str  # "nudge", "deadline", "remind"
    wait_key: str | None
    due: int  # epoch seconds
    body: dict[str, Any]
    created_by: int | None
    fired_at: str | None


@dataclass
class CharacterRow:
    id: int
    campaign_id: int
    owner_id: int
    name: str
    sheet: dict[str, Any]


@dataclass
class EventRow:
    id: int
    campaign_id: int
    at: str
    actor_id: int
    actor_name: str
    command: str
    summary: str
    result: dict[str, Any]
    snapshot: dict[str, Any] | None
    undoes: int | None
    thread_id: int | None = None  # the thread of the campaign's channel it came from, if any
    seq: int = 0  # its number in the campaign, from 1: the number users see (``id`` is global and internal)


@dataclass(frozen=True)
class LogQuery:
    """What a filtered log shows: one actor's events, one command's, only secret ones, a text in the summary.

    ``reveal`` (a GM reads it) lets the text match the secret and private sides of an entry too, and ``secret_only``
    lists the entries with either; a player's search never reads them. The text matches anywhere, whatever the
    case; one of :data:`TEXT_INDEXED_FROM` characters or more seeks the text index, a shorter one looks through
    the newest :data:`SHORT_TEXT_WINDOW` events only (no index holds one- or two-letter pieces).
    """

    actor_id: int | None = None
    command: str | None = None
    secret_only: bool = False
    text: str | None = None
    reveal: bool = False

    @property
    def short_text(self) -> bool:
        """A search too short for the text index: it reads the newest :data:`SHORT_TEXT_WINDOW` events."""
        return bool(self.text) and len(self.text or "") < TEXT_INDEXED_FROM


@dataclass
class MacroRow:
    id: int
    owner_id: int
    campaign_id: int | None  # None: the member's own, usable everywhere
    name: str
    expression: str


class StoreOpenError(Exception):
    """The database cannot be opened or used; the message names it (never a password) and says what to do."""


class DatabaseGoneError(RuleError):
    """The database file was deleted or replaced under the running process: saving would be lost."""


class DatabaseUnavailableError(Exception):
    """The database server cannot be reached now (stopped, restarting, refusing connections, too slow to answer).

    Nothing was done, and the next command tries again on a new connection, so play resumes by itself when the
    server is back; ``bot/adapter/errors.py`` words it for the user, and ``reason`` (the driver's words, never a
    password) is for the log. ``maybe_saved``: the connection went during COMMIT, so whether the write landed
    cannot be known; it is not retried, since that could apply it twice."""

    def __init__(self, reason: str, *, maybe_saved: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.maybe_saved = maybe_saved


class SchemaTooNewError(Exception):
    """The database was migrated by a newer Magister than this one: opening it could misread or damage it."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"it was made by a newer Magister (schema {found}; this version knows {known}): upgrade Magister, "
            "or restore a backup made by this version"
        )
        self.found, self.known = found, known


class TimerClaimedError(Exception):
    """Another process (or an earlier run) already fired this timer; the transaction rolls back."""


class StaleCampaignError(Exception):
    """Another process changed the campaign since we read it; reload and retry."""


class ConstraintError(Exception):
    """A constraint refused the write (a unique name taken meanwhile): both stores raise this one kind."""


def redact(url: str) -> str:
    """A database URL with any password replaced, for messages and logs."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not a URL urllib can read (a bad port, a stray bracket): keep only its scheme
        return url.partition("://")[0] + "://…"
    query = re.sub(r"(?i)(^|&)(password=)[^&]*", r"\1\2***", parts.query)
    netloc = parts.netloc
    if password is not None:
        netloc = netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


_NOW: tuple[int, str] = (0, "")  # the last second formatted, and its text: one per second, not one per call


def utcnow() -> str:
    """Now, UTC, ISO to the second. Every action and every log row asks (loop and writer thread): the text is
    made once a second (a tuple swapped whole, so either thread reads a matching pair)."""
    global _NOW
    second = int(time.time())
    cached = _NOW
    if cached[0] == second:
        return cached[1]
    text = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
    _NOW = (second, text)
    return text


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_FAST = orjson.dumps
_FAST_OPTIONS = orjson.OPT_NON_STR_KEYS  # a dict's int keys as strings, as the standard library writes them


def dumps(value: Any) -> str:
    """Compact JSON for a column, as ``json.dumps`` writes it. orjson writes the same text about eight times as fast
    (issue 23: every action dumps its state and its log entry), a float's notation aside (``0.0001`` for ``1e-04``,
    the same number); what it refuses (an integer past 64 bits, a lone surrogate) goes to the standard library's
    encoder, which writes it as before or raises as before."""
    try:
        return _FAST(value, option=_FAST_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return _ENCODER.encode(value)


def pg_text(value: str) -> str:
    """PostgreSQL's text cannot hold NUL (SQLite's can): a NUL someone typed is stored as U+FFFD instead. The one
    place that rule lives: text columns (:func:`pg_texts`) and JSON (:func:`dumps_text`) both call it."""
    return value.replace("\x00", "\ufffd") if "\x00" in value else value


def pg_texts(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A statement's arguments with :func:`pg_text` applied to each string."""
    return tuple(pg_text(arg) if isinstance(arg, str) else arg for arg in args)


def dumps_text(value: Any) -> str:
    """:func:`dumps` for PostgreSQL, whose JSON functions refuse ``\\u0000`` too (the log's text index reads
    results as JSON): a NUL in any string of the value becomes U+FFFD, as in its text columns."""
    encoded = dumps(value)
    return dumps(_without_nul(value)) if "\\u0000" in encoded else encoded


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return pg_text(value)
    if isinstance(value, dict):
        return {_without_nul(key): _without_nul(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_without_nul(item) for item in value]
    return value


# ---------------------------------------------------------------- from a database row (by column name)


def campaign_row(row: Any) -> CampaignRow:
    return CampaignRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        ruleset=row["ruleset"],
        name=row["name"],
        gm_ids=json.loads(row["gm_ids"]),
        gm_channel_id=row["gm_channel_id"],
        settings=json.loads(row["settings"]),
        state=json.loads(row["state"]),
        version=row["version"],
        created_at=row["created_at"],
        archived_at=row["archived_at"],
        pbp=json.loads(row["pbp"]),
    )


def stored_wait(row: Any) -> StoredWait:
    return StoredWait(
        row["campaign_id"], row["key"], row["user_id"], json.loads(row["body"]), row["since"], row["deadline"]
    )


def timer_row(row: Any) -> TimerRow:
    return TimerRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        wait_key=row["wait_key"],
        due=row["due"],
        body=json.loads(row["body"]),
        created_by=row["created_by"],
        fired_at=row["fired_at"],
    )


def event_row(row: Any) -> EventRow:
    return EventRow(
        id=row["id"],
        campaign_id=row["campaign_id"],
        at=row["at"],
        actor_id=row["actor_id"],
        actor_name=row["actor_name"],
        command=row["command"],
        summary=row["summary"],
        result=json.loads(row["result"]),
        snapshot=json.loads(row["snapshot"]) if row["snapshot"] else None,
        undoes=row["undoes"],
        thread_id=row["thread_id"],
        seq=row["seq"],
    )
