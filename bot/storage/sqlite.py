"""SQLite persistence: campaigns, characters and the append-only event log.

Writes go through :class:`bot.storage.writer.Writer`: one thread owns the writing
connection and commits actions in groups (see that module). Reads use a second
connection on aiosqlite's thread, so a reader never sees a write that may still
roll back; WAL lets the two run side by side. Migrations are append-only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.members import (
    MEMBER_CHARACTERS,
    MEMBER_EVENTS,
    MEMBER_GM_OF,
    MEMBER_MACROS,
    MEMBER_ORDERS,
    MEMBER_REMINDERS,
    MEMBER_WEB,
    MemberData,
    holds_order_of,
)
from bot.storage.rows import (
    RECAP_COUNT_CAP,
    SHORT_TEXT_WINDOW,
    SYNCHRONOUS,
    CampaignRow,
    CharacterRow,
    EventRow,
    LogQuery,
    MacroRow,
    SchemaTooNewError,
    StoredWait,
    StoreOpenError,
    TimerRow,
    campaign_row,
    event_row,
    stored_wait,
    timer_row,
)
from bot.storage.writer import Transaction, Writer, WriteTx

T = TypeVar("T")

# Append-only: never edit a migration that has shipped; add the next one.

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE campaigns (
        id            INTEGER PRIMARY KEY,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        ruleset       TEXT    NOT NULL,
        name          TEXT    NOT NULL,
        gm_ids        TEXT    NOT NULL,
        gm_channel_id INTEGER,
        settings      TEXT    NOT NULL,
        state         TEXT    NOT NULL,
        version       INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT    NOT NULL,
        archived_at   TEXT
    );
    CREATE UNIQUE INDEX campaigns_one_live_per_channel
        ON campaigns (guild_id, channel_id) WHERE archived_at IS NULL;
    CREATE TABLE characters (
        id          INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        owner_id    INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL,
        sheet       TEXT    NOT NULL,
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        UNIQUE (campaign_id, name_key)
    );
    CREATE TABLE events (
        id          INTEGER PRIMARY KEY,
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        at          TEXT    NOT NULL,
        actor_id    INTEGER NOT NULL,
        actor_name  TEXT    NOT NULL,
        command     TEXT    NOT NULL,
        summary     TEXT    NOT NULL,
        result      TEXT    NOT NULL,
        snapshot    TEXT,
        undoes      INTEGER REFERENCES events (id)
    );
    CREATE INDEX events_by_campaign ON events (campaign_id, id);
    """,
    # 2: history costs nothing. Undo seeks the newest undoable change and checks it against the
    # undoes index; status and the log read a per-campaign event count kept by a trigger.
    """
    CREATE INDEX events_undoes ON events (undoes) WHERE undoes IS NOT NULL;
    CREATE INDEX events_undoable ON events (campaign_id, id) WHERE snapshot IS NOT NULL AND undoes IS NULL;
    CREATE TABLE event_counts (
        campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id),
        events      INTEGER NOT NULL
    );
    INSERT INTO event_counts (campaign_id, events) SELECT campaign_id, count(*) FROM events GROUP BY campaign_id;
    CREATE TRIGGER events_counted AFTER INSERT ON events BEGIN
        INSERT INTO event_counts (campaign_id, events) VALUES (NEW.campaign_id, 1)
            ON CONFLICT (campaign_id) DO UPDATE SET events = events + 1;
    END;
    """,
    # 3: dice macros, a member's own (campaign_id NULL, usable everywhere) or a campaign's (shared at its table).
    """
    CREATE TABLE macros (
        id          INTEGER PRIMARY KEY,
        owner_id    INTEGER NOT NULL,
        campaign_id INTEGER REFERENCES campaigns (id),
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL,
        expression  TEXT    NOT NULL,
        created_at  TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX macros_of_a_member ON macros (owner_id, name_key) WHERE campaign_id IS NULL;
    CREATE UNIQUE INDEX macros_of_a_campaign ON macros (campaign_id, name_key) WHERE campaign_id IS NOT NULL;
    """,
    # 4: play-by-post. The campaign's own pbp settings (deadlines, pause); who each table waits on now;
    # every timer (deadlines, nudges, reminders), claimed in a transaction so each fires exactly once;
    # a member's own preferences (time zone).
    """
    ALTER TABLE campaigns ADD COLUMN pbp TEXT NOT NULL DEFAULT '{}';
    CREATE TABLE waits (
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        key         TEXT    NOT NULL,
        user_id     INTEGER,
        body        TEXT    NOT NULL,
        since       TEXT    NOT NULL,
        deadline    TEXT,
        PRIMARY KEY (campaign_id, key)
    );
    CREATE INDEX waits_by_user ON waits (user_id);
    CREATE TABLE timers (
        id          INTEGER PRIMARY KEY,
        campaign_id INTEGER REFERENCES campaigns (id),
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        wait_key    TEXT,
        due         INTEGER NOT NULL,
        body        TEXT    NOT NULL,
        created_by  INTEGER,
        fired_at    TEXT
    );
    CREATE INDEX timers_due ON timers (due) WHERE fired_at IS NULL;
    CREATE INDEX timers_by_wait ON timers (campaign_id, wait_key) WHERE fired_at IS NULL;
    CREATE TABLE members (
        user_id  INTEGER PRIMARY KEY,
        timezone TEXT
    );
    """,
    # 5: threads play in their parent channel's campaign; the log says which thread each event came from.
    """
    ALTER TABLE events ADD COLUMN thread_id INTEGER;
    """,
    # 6: each campaign's live board message, edited after each change.
    """
    CREATE TABLE boards (
        campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id),
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER NOT NULL
    );
    """,
    # 7: each campaign numbers its events from 1 (seq); the log, undo and exports show that number, never the
    # global id. Undo entries written before this named the global id: rewritten to the campaign's number.
    # The log's command filter and its autocomplete seek (campaign_id, command).
    """
    ALTER TABLE events ADD COLUMN seq INTEGER;
    UPDATE events SET seq = numbered.n
        FROM (SELECT id, row_number() OVER (PARTITION BY campaign_id ORDER BY id) AS n FROM events) AS numbered
        WHERE numbered.id = events.id;
    CREATE UNIQUE INDEX events_seq ON events (campaign_id, seq);
    CREATE INDEX events_commands ON events (campaign_id, command);
    UPDATE events SET
        summary = 'undid #' || (SELECT u.seq FROM events u WHERE u.id = events.undoes)
            || substr(summary, instr(summary, ' (')),
        result = json_set(result, '$.undone', (SELECT u.seq FROM events u WHERE u.id = events.undoes))
        WHERE undoes IS NOT NULL AND summary LIKE 'undid #% (%';
    """,
    # 8: the log's filters seek, however long the log. One player's events, one command's and the secret ones
    # each have an index in event-number order; the text search has a trigram index (FTS5), one row per event
    # keyed campaign_id << 32 | seq, so a campaign's entries are one range of it, newest last. It holds the
    # public summary, the secret side and the private side in three columns (a player's search reads only the
    # first); contentless, triggers keep it in step with events, and the events already logged are indexed here.
    """
    CREATE INDEX events_by_actor ON events (campaign_id, actor_id, seq);
    DROP INDEX events_commands;
    CREATE INDEX events_by_command ON events (campaign_id, command, seq);
    CREATE INDEX events_secret ON events (campaign_id, seq)
        WHERE (json_extract(result, '$.secret.summary') IS NOT NULL
               OR json_extract(result, '$.private.summary') IS NOT NULL);
    CREATE VIRTUAL TABLE events_text USING fts5 (summary, secret, private, content = '', tokenize = 'trigram');
    INSERT INTO events_text (rowid, summary, secret, private)
        SELECT (campaign_id << 32) + seq, summary, json_extract(result, '$.secret.summary'),
               json_extract(result, '$.private.summary')
        FROM events WHERE seq IS NOT NULL;
    CREATE TRIGGER events_text_added AFTER INSERT ON events WHEN NEW.seq IS NOT NULL BEGIN
        INSERT INTO events_text (rowid, summary, secret, private) VALUES ((NEW.campaign_id << 32) + NEW.seq,
            NEW.summary, json_extract(NEW.result, '$.secret.summary'), json_extract(NEW.result, '$.private.summary'));
    END;
    CREATE TRIGGER events_text_changed AFTER UPDATE OF campaign_id, seq, summary, result ON events BEGIN
        INSERT INTO events_text (events_text, rowid, summary, secret, private)
            SELECT 'delete', (OLD.campaign_id << 32) + OLD.seq, OLD.summary,
                   json_extract(OLD.result, '$.secret.summary'), json_extract(OLD.result, '$.private.summary')
            WHERE OLD.seq IS NOT NULL;
        INSERT INTO events_text (rowid, summary, secret, private)
            SELECT (NEW.campaign_id << 32) + NEW.seq, NEW.summary, json_extract(NEW.result, '$.secret.summary'),
                   json_extract(NEW.result, '$.private.summary')
            WHERE NEW.seq IS NOT NULL;
    END;
    CREATE TRIGGER events_text_removed AFTER DELETE ON events WHEN OLD.seq IS NOT NULL BEGIN
        INSERT INTO events_text (events_text, rowid, summary, secret, private)
            VALUES ('delete', (OLD.campaign_id << 32) + OLD.seq, OLD.summary,
                    json_extract(OLD.result, '$.secret.summary'), json_extract(OLD.result, '$.private.summary'));
    END;
    """,
    # 9: a campaign's event count is its newest event's number (numbers run 1, 2, 3… with no gaps, and events are
    # never deleted from a live campaign): one seek of events_seq. The count table and the trigger that kept it
    # cost every logged event an upsert (issue 23: a sixth of raw sqlite3's rate on the service's schema).
    """
    DROP TRIGGER events_counted;
    DROP TABLE event_counts;
    """,
    # 10: the campaign on the web (docs/web.md). Who may open a campaign's pages, and which of their links still
    # open: a row per member who asked for a link (user_id 0: the whole campaign), its generation bumped by
    # `/campaign web revoke`; a link carries the generations it was made with. The links' signing key, when
    # MAGISTER_WEB_SECRET does not give one: made once, here.
    """
    CREATE TABLE web_access (
        campaign_id INTEGER NOT NULL REFERENCES campaigns (id),
        user_id     INTEGER NOT NULL,
        generation  INTEGER NOT NULL DEFAULT 0,
        name        TEXT    NOT NULL DEFAULT '',
        PRIMARY KEY (campaign_id, user_id)
    );
    CREATE TABLE web_secret (
        id     INTEGER PRIMARY KEY CHECK (id = 1),
        secret TEXT    NOT NULL
    );
    """,
    # 11: events_by_campaign (campaign_id, id) was events_seq (campaign_id, seq) again, in the same order (a
    # campaign's numbers rise with its row ids): every logged event paid for a second copy. The recap, the export,
    # a member's erasure and an unfinished import's removal read events_seq in number order instead.
    """
    DROP INDEX events_by_campaign;
    """,
    # 12: the writer fills the log's text index once per group commit (one INSERT ... SELECT of the group's new
    # events, bot/storage/writer.py) instead of once per event: while its transaction holds a row in
    # events_text_deferred, the insert trigger stands aside. That row is put and taken away inside the one
    # transaction, so no other connection ever sees it: every other writer (an import, a second process, the
    # sqlite3 shell) is indexed by the trigger as before (issue 23: a third of the index's cost per action).
    """
    CREATE TABLE events_text_deferred (id INTEGER PRIMARY KEY CHECK (id = 1));
    DROP TRIGGER events_text_added;
    CREATE TRIGGER events_text_added AFTER INSERT ON events
    WHEN NEW.seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM events_text_deferred) BEGIN
        INSERT INTO events_text (rowid, summary, secret, private) VALUES ((NEW.campaign_id << 32) + NEW.seq,
            NEW.summary, json_extract(NEW.result, '$.secret.summary'), json_extract(NEW.result, '$.private.summary'));
    END;
    """,
    # 13: the log's text index without its per-entry sizes (columnsize = 0). FTS5 keeps them for ranking by
    # relevance, which the log never does (it lists matches by number); they were one more row per event, at a
    # place in that table of its own for each campaign (issue 23: a tenth of the writer's SQLite time per action).
    # The index is built again from the log, as migration 8 first built it; the triggers name it and stay.
    """
    DROP TABLE events_text;
    CREATE VIRTUAL TABLE events_text USING fts5 (
        summary, secret, private, content = '', tokenize = 'trigram', columnsize = 0
    );
    INSERT INTO events_text (rowid, summary, secret, private)
        SELECT (campaign_id << 32) + seq, summary, json_extract(result, '$.secret.summary'),
               json_extract(result, '$.private.summary')
        FROM events WHERE seq IS NOT NULL;
    """,
)


def statements(script: str) -> list[str]:
    """Split a migration into statements; a trigger's body holds semicolons of its own."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending.strip())
            pending = ""
    return found


class SqliteOpenError(StoreOpenError):
    """The SQLite file cannot be opened or used; the message names it and says what to do."""

    def __init__(self, path: Path, error: BaseException) -> None:
        reason = str(error) or type(error).__name__
        if isinstance(error, (DamagedError, SchemaTooNewError)):
            advice = reason
        elif isinstance(error, sqlite3.DatabaseError) and "not a database" in reason:
            advice = "it is not a Magister database (or is damaged): move it aside"
        elif isinstance(error, sqlite3.DatabaseError) and "malformed" in reason:
            advice = str(DamagedError(reason))
        elif isinstance(error, sqlite3.OperationalError) and "readonly" in reason:
            advice = (
                "Magister may not write to it (SQLite says: attempt to write a readonly database): give the user "
                "running Magister write permission on the file and its folder (chmod u+w, or chown)"
            )
        elif isinstance(error, sqlite3.OperationalError) and ("tokenizer" in reason or "fts5" in reason):
            advice = (
                f"this Python's SQLite cannot build the log's text index (SQLite says: {reason}): it needs SQLite "
                "3.34 or newer with FTS5, as in Python's official builds and Debian 12"
            )
        elif isinstance(error, OSError) and error.strerror:
            advice = f"{error.strerror.lower()}: check the folder exists and is writable"
        else:
            advice = f"{reason}: check the file and its folder are writable"
        super().__init__(f"cannot open the database {path}: {advice}, or set MAGISTER_DB to another file")


class DamagedError(Exception):
    """SQLite's own check of the file found damage: starting would make every command fail."""

    def __init__(self, found: str) -> None:
        found = " ".join(found.split())
        super().__init__(
            f"it is damaged (SQLite's check: {found[:120]}{'…' if len(found) > 120 else ''}): restore it from a "
            "backup (stop Magister, copy the backup over it), or move it aside to start afresh"
        )


# an entry with a side the table does not read: the GM's, or a private one (its owner's and the GMs'); word for
# word events_secret's condition, so the planner sees the index holds exactly these
SECRET_SIDE = (
    "(json_extract({0}result, '$.secret.summary') IS NOT NULL"
    " OR json_extract({0}result, '$.private.summary') IS NOT NULL)"
)
KEY_SHIFT = 32  # events_text's rowid: campaign_id << KEY_SHIFT | seq, so a campaign is one range of it
LAST_SEQ = (1 << KEY_SHIFT) - 1


def like_pattern(text: str) -> str:
    """``text`` anywhere, as a LIKE pattern with ``\\`` escaping its wildcards."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def match_phrase(query: LogQuery) -> str:
    """The FTS5 query for a log search: the text as one phrase (a substring, to the trigram tokenizer), in the
    public summary only, or for a GM in the secret and private sides too."""
    columns = "{summary secret private}" if query.reveal else "summary"
    return f'{columns} : "{(query.text or "").replace(chr(34), chr(34) * 2)}"'


class LogSearch:
    """One campaign's log through a :class:`LogQuery`, as SQL. A text of :data:`TEXT_INDEXED_FROM` characters or
    more drives the read from the trigram index (``events_text``) and joins each hit to its event; otherwise the
    read walks an index of events in number order (the filter's own: a player's, a command's, the secret ones),
    checking the rest of the filter row by row. Either way a page reads from a seek, newest first, and stops
    when it has enough."""

    def __init__(self, campaign_id: int, query: LogQuery) -> None:
        self.campaign_id = campaign_id
        self.indexed = bool(query.text) and not query.short_text
        prefix = "e." if self.indexed else ""  # beside events_text, whose columns share the event's names
        clauses: list[str] = []
        parameters: list[object] = []
        if query.actor_id is not None:
            clauses.append(f"{prefix}actor_id = ?")
            parameters.append(query.actor_id)
        if query.command is not None:
            clauses.append(f"{prefix}command = ?")
            parameters.append(query.command)
        if query.secret_only:
            clauses.append(SECRET_SIDE.format(prefix))
        if query.text and query.short_text:
            sides = ["summary"]
            if query.reveal:
                sides += ["json_extract(result, '$.secret.summary')", "json_extract(result, '$.private.summary')"]
            clauses.append("(" + " OR ".join(f"{side} LIKE ? ESCAPE '\\'" for side in sides) + ")")
            parameters += [like_pattern(query.text)] * len(sides)
        self.clauses, self.parameters = clauses, tuple(parameters)
        self.window = query.short_text  # only the newest SHORT_TEXT_WINDOW events: one range of the number index
        self.phrase = match_phrase(query) if self.indexed else ""

    def select(
        self,
        *,
        numbers_only: bool,
        limit: int,
        offset: int = 0,
        before: int | None = None,
        after: int | None = None,
        oldest_first: bool = False,
    ) -> tuple[str, tuple]:
        """Matching events (or only their numbers) between ``after`` and ``before`` (exclusive), in number order."""
        order = "ASC" if oldest_first else "DESC"
        low = 1 if after is None else after + 1
        high = LAST_SEQ if before is None else before - 1
        if not self.indexed:
            columns = "seq" if numbers_only else "*"
            where = "".join(f" AND {clause}" for clause in self.clauses)
            lowest, window = "?", ()
            if self.window:  # one lower bound, so the range the index seeks is the window's
                lowest, window = (
                    "max(?, (SELECT max(seq) FROM events WHERE campaign_id = ?) - ?)",
                    (
                        self.campaign_id,
                        SHORT_TEXT_WINDOW - 1,
                    ),
                )
            return (
                f"SELECT {columns} FROM events WHERE campaign_id = ?{where} AND seq BETWEEN {lowest} AND ?"
                f" ORDER BY seq {order} LIMIT ? OFFSET ?",
                (self.campaign_id, *self.parameters, low, *window, high, limit, offset),
            )
        base = self.campaign_id << KEY_SHIFT
        hits = "events_text MATCH ? AND events_text.rowid BETWEEN ? AND ?"
        tail = f" ORDER BY events_text.rowid {order} LIMIT ? OFFSET ?"
        if numbers_only and not self.clauses:  # the index alone: no event row is read
            return (
                f"SELECT events_text.rowid - ? FROM events_text WHERE {hits}{tail}",
                (base, self.phrase, base + low, base + high, limit, offset),
            )
        columns = "e.seq" if numbers_only else "e.*"
        where = "".join(f" AND {clause}" for clause in self.clauses)
        return (  # CROSS JOIN: the text index drives, in its (number) order; each hit seeks its event
            f"SELECT {columns} FROM events_text CROSS JOIN events e"
            f" ON e.campaign_id = ? AND e.seq = events_text.rowid - ? WHERE {hits}{where}{tail}",
            (self.campaign_id, base, self.phrase, base + low, base + high, *self.parameters, limit, offset),
        )

    def count(self, limit: int) -> tuple[str, tuple]:
        """How many events match, counting no further than ``limit``."""
        sql, parameters = self.select(numbers_only=True, limit=limit)
        return f"SELECT count(*) FROM ({sql})", parameters


class SqliteStore:
    """The database. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, path: Path, writer: Writer, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader

    @property
    def clock(self) -> Callable[[], str]:
        """What "now" is for the rows this store stamps (events, campaigns, sheets, macros)."""
        return self._writer.clock

    @clock.setter
    def clock(self, clock: Callable[[], str]) -> None:
        self._writer.clock = clock

    @classmethod
    async def open(cls, path: Path | str, *, synchronous: str = "FULL") -> SqliteStore:
        """Open (creating if need be) and migrate. ``synchronous``: FULL (power-loss safe) or NORMAL."""
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}")
        path = Path(path)
        writer: Writer | None = None
        reader: aiosqlite.Connection | None = None
        try:
            await asyncio.to_thread(_probe, path)
            writer = await Writer.start(path, synchronous, [statements(script) for script in MIGRATIONS])
            reader = aiosqlite.connect(path, isolation_level=None)
            reader._thread.daemon = True  # a store left open (a crash, a failed test) must not keep the process alive
            await reader
            reader.row_factory = aiosqlite.Row
            for pragma in ("busy_timeout = 5000", "foreign_keys = ON", f"synchronous = {synchronous}"):
                await reader.execute(f"PRAGMA {pragma}")
        except (OSError, sqlite3.Error, DamagedError, SchemaTooNewError) as error:
            # a connection's thread would keep the process alive after the error: close it
            if reader is not None:
                await reader.close()
            if writer is not None:
                await writer.close()
            raise SqliteOpenError(path, error) from error
        return cls(path, writer, reader)

    async def close(self) -> None:
        await self._writer.close()
        await self._reader.close()

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def _one(self, sql: str, parameters: tuple = ()) -> aiosqlite.Row | None:
        """The first row, in one hop to the reader's thread (execute + fetchone would be two)."""
        rows = await self._reader.execute_fetchall(sql, parameters)
        return next(iter(rows), None)

    # ------------------------------------------------------------------ writes

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction, statement by statement (see :meth:`Writer.transaction`)."""
        return self._writer.transaction()

    def write(self, job: Callable[[WriteTx], T]) -> Awaitable[T]:
        """Run ``job``'s writes on the writer thread in a committed (group) transaction; return its result.

        The writer's own coroutine, not one wrapped around it: every action awaits this (one frame less to
        suspend and resume)."""
        return self._writer.write(job)

    async def check_others(self) -> bool:
        """Has another process committed since we last looked? (Also checked at every write.)"""
        return await self._writer.check_others()

    @property
    def generation(self) -> int:
        """Bumped each time another process is seen to have written: cached reads are suspect."""
        return self._writer.generation

    @property
    def checked_at(self) -> float:
        return self._writer.checked_at

    @contextmanager
    def snapshot(self) -> Iterator[Callable[[str, Sequence[Any]], list[tuple]]]:
        """From a worker thread: one read-only snapshot (the export's); yields ``read(sql, parameters)``."""
        connection = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            connection.execute("BEGIN")  # one snapshot: everything read through it agrees
            yield lambda sql, parameters=(): connection.execute(sql, parameters).fetchall()
        finally:
            connection.close()

    # ------------------------------------------------------------------ reads

    async def campaign(self, guild_id: int, channel_id: int) -> CampaignRow | None:
        """The live (not archived) campaign of a channel."""
        row = await self._one(
            "SELECT * FROM campaigns WHERE guild_id = ? AND channel_id = ? AND archived_at IS NULL",
            (guild_id, channel_id),
        )
        return campaign_row(row) if row else None

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        row = await self._one("SELECT * FROM campaigns WHERE id = ?", (campaign_id,))
        return campaign_row(row) if row else None

    async def archived_campaigns(self, guild_id: int, channel_id: int, *, limit: int = 25) -> list[CampaignRow]:
        """This channel's ended campaigns, the most recently ended first."""
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM campaigns WHERE guild_id = ? AND channel_id = ? AND archived_at IS NOT NULL"
            " ORDER BY archived_at DESC LIMIT ?",
            (guild_id, channel_id, limit),
        )
        return [campaign_row(row) for row in rows]

    async def live_campaigns(self, ruleset: str) -> list[CampaignRow]:
        """Every campaign of a ruleset that is not archived (for background upkeep such as timeouts)."""
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM campaigns WHERE ruleset = ? AND archived_at IS NULL ORDER BY id", (ruleset,)
        )
        return [campaign_row(row) for row in rows]

    async def characters(self, campaign_id: int) -> list[CharacterRow]:
        rows = await self._reader.execute_fetchall(
            "SELECT id, campaign_id, owner_id, name, sheet FROM characters WHERE campaign_id = ? ORDER BY id",
            (campaign_id,),
        )
        return [
            CharacterRow(row["id"], row["campaign_id"], row["owner_id"], row["name"], json.loads(row["sheet"]))
            for row in rows
        ]

    async def events(self, campaign_id: int, *, limit: int, offset: int = 0) -> list[EventRow]:
        """Newest first, from ``offset`` events below the newest: a seek by event number, since a campaign's
        events are numbered 1 to its count without gaps, so any page costs what the first does."""
        total = await self.count_events(campaign_id)
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM events WHERE campaign_id = ? AND seq <= ? ORDER BY seq DESC LIMIT ?",
            (campaign_id, total - offset, limit),
        )
        return [event_row(row) for row in rows]

    async def event_numbered(self, campaign_id: int, number: int) -> EventRow | None:
        """The event the log shows as ``#number`` (its ``seq``): one seek of the unique index."""
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM events WHERE campaign_id = ? AND seq = ?", (campaign_id, number)
        )
        return event_row(rows[0]) if rows else None

    async def events_matching(
        self,
        campaign_id: int,
        where: LogQuery,
        *,
        limit: int,
        before: int | None = None,
        after: int | None = None,
        skip: int = 0,
    ) -> list[EventRow]:
        """A filtered log page, newest first (the unfiltered log reads :meth:`events`): up to ``limit`` matching
        events numbered below ``before``, or the ``limit`` just above ``after`` (the page before a page); ``skip``
        leaves out that many of the newest first, reading their numbers only (a jump to a page)."""
        search = LogSearch(campaign_id, where)
        if skip:
            sql, parameters = search.select(numbers_only=True, limit=1, offset=skip - 1, before=before)
            found = await self._one(sql, parameters)
            if found is None:
                return []
            before = int(found[0])
        newest_last = after is not None and before is None
        sql, parameters = search.select(
            numbers_only=False, limit=limit, before=before, after=after, oldest_first=newest_last
        )
        rows = [event_row(row) for row in await self._reader.execute_fetchall(sql, parameters)]
        return rows[::-1] if newest_last else rows

    async def count_matching(self, campaign_id: int, where: LogQuery, *, limit: int) -> int:
        """How many events a filter matches, counting no further than ``limit`` (a seek, then ``limit`` steps)."""
        row = await self._one(*LogSearch(campaign_id, where).count(limit))
        return int(row[0]) if row else 0

    async def commands_seen(self, campaign_id: int, *, limit: int = 200) -> list[str]:
        """Every command the campaign's log holds, in order: a skip-scan of (campaign_id, command), one seek each."""
        rows = await self._reader.execute_fetchall(
            """
            WITH RECURSIVE seen (command) AS (
                SELECT min(command) FROM events WHERE campaign_id = ?
                UNION ALL
                SELECT (SELECT min(command) FROM events WHERE campaign_id = ? AND command > seen.command)
                FROM seen WHERE seen.command IS NOT NULL
            )
            SELECT command FROM seen WHERE command IS NOT NULL LIMIT ?
            """,
            (campaign_id, campaign_id, limit),
        )
        return [row[0] for row in rows]

    async def events_since_last_by(
        self, campaign_id: int, actor_id: int, *, limit: int, look_back: int = RECAP_COUNT_CAP
    ) -> tuple[list[EventRow], int]:
        """Events after ``actor_id``'s newest one among the last ``look_back``: the newest ``limit`` of them,
        newest first, and how many (``look_back`` when they did nothing that recent). Bounded either way,
        and no index to pay for on every write."""
        row = await self._one(
            "SELECT count(*), coalesce(max(CASE WHEN actor_id = ? THEN seq END), 0) FROM "
            "(SELECT seq, actor_id FROM events WHERE campaign_id = ? ORDER BY seq DESC LIMIT ?)",
            (actor_id, campaign_id, look_back),
        )
        seen, since = (int(row[0]), int(row[1])) if row else (0, 0)
        counted = await self._one(
            "SELECT count(*) FROM (SELECT 1 FROM events WHERE campaign_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?)",
            (campaign_id, since, look_back),
        )
        total = int(counted[0]) if counted else 0
        if since == 0 and seen >= look_back:
            total = look_back  # not in the last look_back events: "that many or more"
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM events WHERE campaign_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?",
            (campaign_id, since, limit),
        )
        return [event_row(row) for row in rows], total

    async def macros(self, owner_id: int, campaign_id: int | None) -> list[MacroRow]:
        """The member's own macros, then the campaign's, by name."""
        rows = await self._reader.execute_fetchall(
            "SELECT id, owner_id, campaign_id, name, expression FROM macros"
            " WHERE (owner_id = ? AND campaign_id IS NULL) OR campaign_id = ?"
            " ORDER BY campaign_id IS NOT NULL, name_key",
            (owner_id, campaign_id if campaign_id is not None else -1),
        )
        return [MacroRow(*row) for row in rows]

    async def count_events(self, campaign_id: int) -> int:
        """The newest event's number (they run 1, 2, 3… with no gaps): one seek of events_seq however long the log."""
        row = await self._one("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = ?", (campaign_id,))
        return int(row[0]) if row else 0

    # ------------------------------------------------------------------ play-by-post reads

    async def waits(self, campaign_id: int) -> list[StoredWait]:
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM waits WHERE campaign_id = ? ORDER BY since, key", (campaign_id,)
        )
        return [stored_wait(row) for row in rows]

    async def waits_on(self, guild_id: int, user_id: int) -> list[tuple[CampaignRow, StoredWait]]:
        """Every wait of the guild's live campaigns on this member: as a player, or as a GM for GM waits."""
        rows = await self._reader.execute_fetchall(
            """
            SELECT c.*, w.campaign_id AS w_campaign, w.key AS w_key, w.user_id AS w_user, w.body AS w_body,
                   w.since AS w_since, w.deadline AS w_deadline
            FROM waits w JOIN campaigns c ON c.id = w.campaign_id
            WHERE c.guild_id = ? AND c.archived_at IS NULL
              AND (w.user_id = ? OR (w.user_id IS NULL AND EXISTS (SELECT 1 FROM json_each(c.gm_ids) WHERE value = ?)))
            ORDER BY w.since, c.id LIMIT 50
            """,
            (guild_id, user_id, user_id),
        )
        return [
            (
                campaign_row(row),
                StoredWait(
                    row["w_campaign"],
                    row["w_key"],
                    row["w_user"],
                    json.loads(row["w_body"]),
                    row["w_since"],
                    row["w_deadline"],
                ),
            )
            for row in rows
        ]

    async def due_timers(self, now: int, *, limit: int = 100) -> list[TimerRow]:
        """Unfired timers due by ``now`` whose campaign (if any) is live and not paused, oldest first."""
        rows = await self._reader.execute_fetchall(
            """
            SELECT t.* FROM timers t LEFT JOIN campaigns c ON c.id = t.campaign_id
            WHERE t.fired_at IS NULL AND t.due <= ?
              AND (t.campaign_id IS NULL OR json_extract(c.pbp, '$.paused_at') IS NULL)
            ORDER BY t.due, t.id LIMIT ?
            """,
            (now, limit),
        )
        return [timer_row(row) for row in rows]

    async def timer(self, timer_id: int) -> TimerRow | None:
        row = await self._one("SELECT * FROM timers WHERE id = ?", (timer_id,))
        return timer_row(row) if row else None

    async def reminders(self, guild_id: int, channel_id: int) -> list[TimerRow]:
        rows = await self._reader.execute_fetchall(
            "SELECT * FROM timers WHERE guild_id = ? AND channel_id = ? AND kind = 'remind' AND fired_at IS NULL "
            "ORDER BY due, id LIMIT 25",
            (guild_id, channel_id),
        )
        return [timer_row(row) for row in rows]

    async def actor_names(self, after: int = 0) -> tuple[dict[int, str], int]:
        """Each actor's latest name in the log after id ``after``, and the newest id read (a range of the primary
        key: the console asks only for what was logged since it last asked, never the whole log again).

        What a timer ran as the GM is logged as "Magister (timer)", a standing order as "<name> (by standing
        order)": neither is the member's name.
        """
        newest = (await self._one("SELECT coalesce(max(id), 0) FROM events", ()))[0]
        rows = await self._reader.execute_fetchall(
            "SELECT actor_id, actor_name FROM events WHERE id IN (SELECT max(id) FROM events "
            "WHERE id > ? AND id <= ? AND actor_name NOT LIKE '%(timer)' "
            "AND actor_name NOT LIKE '%(by standing order)' GROUP BY actor_id)",
            (after, newest),
        )
        return {int(row[0]): row[1] for row in rows}, int(newest)

    async def board(self, campaign_id: int) -> tuple[int, int] | None:
        """The campaign's board message: (channel id, message id)."""
        row = await self._one("SELECT channel_id, message_id FROM boards WHERE campaign_id = ?", (campaign_id,))
        return (int(row[0]), int(row[1])) if row else None

    async def web_access(self, campaign_id: int) -> dict[int, tuple[int, str]]:
        """Who may read the campaign's web pages: each member's link generation and the name they asked with
        (user 0: the whole campaign's generation), in one read."""
        rows = await self._reader.execute_fetchall(
            "SELECT user_id, generation, name FROM web_access WHERE campaign_id = ?", (campaign_id,)
        )
        return {int(row[0]): (int(row[1]), str(row[2])) for row in rows}

    async def web_secret(self) -> str | None:
        """The links' signing key kept in the database (hex), if one was made."""
        row = await self._one("SELECT secret FROM web_secret WHERE id = 1")
        return row[0] if row else None

    async def member_timezone(self, user_id: int) -> str | None:
        row = await self._one("SELECT timezone FROM members WHERE user_id = ?", (user_id,))
        return row[0] if row else None

    async def member_data(self, user_id: int) -> MemberData:
        """What is kept under a member's id, for ``/privacy export`` (their log entries: :meth:`member_events`)."""
        characters = await self._reader.execute_fetchall(MEMBER_CHARACTERS, (user_id,))
        macros = await self._reader.execute_fetchall(MEMBER_MACROS, (user_id,))
        reminders = await self._reader.execute_fetchall(MEMBER_REMINDERS, (user_id,))
        gm_of = await self._reader.execute_fetchall(MEMBER_GM_OF, (f"%{user_id}%",))
        orders = await self._reader.execute_fetchall(MEMBER_ORDERS, ('%"orders"%', f"%{user_id}%"))
        return MemberData(
            user_id,
            [CharacterRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in characters],
            [MacroRow(*row) for row in macros],
            [timer_row(row) for row in reminders],
            await self.member_timezone(user_id),
            [row for row in map(campaign_row, gm_of) if user_id in row.gm_ids],
            [(int(row[0]), str(row[1])) for row in await self._reader.execute_fetchall(MEMBER_WEB, (user_id,))],
            [row for row in map(campaign_row, orders) if holds_order_of(row.pbp, user_id)],
        )

    async def member_events(self, user_id: int, *, after: int = 0, limit: int = 500) -> list[EventRow]:
        """The member's log entries in every campaign, oldest first, after row id ``after`` (a page)."""
        rows = await self._reader.execute_fetchall(MEMBER_EVENTS, (user_id, after, limit))
        return [event_row(row) for row in rows]

    async def event_id_of(self, campaign_id: int, seq: int) -> int | None:
        """The row id of the campaign's event number ``seq`` (one seek of the unique index)."""
        row = await self._one("SELECT id FROM events WHERE campaign_id = ? AND seq = ?", (campaign_id, seq))
        return int(row[0]) if row else None

    async def undoable_since(self, campaign_id: int, event_id: int, *, limit: int) -> list[EventRow]:
        """Event ``event_id`` and every later change still in force (not undone), oldest first, at most ``limit``."""
        rows = await self._reader.execute_fetchall(
            """
            SELECT * FROM events e INDEXED BY events_undoable
            WHERE e.campaign_id = ? AND e.id >= ? AND e.snapshot IS NOT NULL AND e.undoes IS NULL
              AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.id)
            ORDER BY e.id LIMIT ?
            """,
            (campaign_id, event_id, limit),
        )
        return [event_row(row) for row in rows]

    async def last_undoable(self, campaign_id: int) -> EventRow | None:
        """The newest action with a snapshot that no later undo has reversed."""
        row = await self._one(
            """
            SELECT * FROM events e INDEXED BY events_undoable
            WHERE e.campaign_id = ? AND e.snapshot IS NOT NULL AND e.undoes IS NULL
              AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.id)
            ORDER BY e.id DESC LIMIT 1
            """,
            (campaign_id,),
        )
        return event_row(row) if row else None


QUICK_CHECK_BYTES = 1 << 30  # files up to this size get SQLite's quick_check at open: about a second per GB


def _probe(path: Path) -> None:
    """Open the file with plain sqlite3 first: a failure here leaves no connection thread behind. A damaged file
    stops the start here (``PRAGMA quick_check``; past ``QUICK_CHECK_BYTES``, reading the schema and each
    table's first and last rows), rather than failing every command after it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=5)
    try:
        for attempt in range(50):
            try:  # switching to WAL does not wait on the busy timeout while another process switches it
                connection.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or attempt == 49:
                    raise
                time.sleep(0.1)
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if path.stat().st_size <= QUICK_CHECK_BYTES:
            found = [row[0] for row in connection.execute("PRAGMA quick_check")]
            if found != ["ok"]:
                raise DamagedError("; ".join(found))
        else:  # too big to read whole at every start: each table's root and two ends, where damage shows first
            for table in tables:
                quoted = '"' + table.replace('"', '""') + '"'
                for order in ("", " ORDER BY rowid DESC"):
                    with contextlib.suppress(sqlite3.OperationalError):  # a table without rowid
                        connection.execute(f"SELECT * FROM {quoted}{order} LIMIT 1").fetchall()
    finally:
        connection.close()
