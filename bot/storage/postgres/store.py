"""The PostgreSQL store: :class:`PgStore`, the :class:`bot.storage.protocol.Store` API on an asyncpg pool. It
opens (connect, migrate) and closes the pool, reads on it (once more on a new connection if the server had
dropped one), and hands writes to its :class:`bot.storage.postgres.writer.PgWriter`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import asyncpg

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
from bot.storage.postgres.errors import UNREACHABLE, PgStoreOpenError, again_if_dropped, unavailable
from bot.storage.postgres.migrations import migrate
from bot.storage.postgres.statements import log_select, placeholders
from bot.storage.postgres.writer import WRITES_SEEN, PgWriter
from bot.storage.rows import (
    RECAP_COUNT_CAP,
    SYNCHRONOUS,
    CampaignRow,
    CharacterRow,
    EventRow,
    LogQuery,
    MacroRow,
    SchemaTooNewError,
    StoredWait,
    TimerRow,
    campaign_row,
    event_row,
    stored_wait,
    timer_row,
)

T = TypeVar("T")
CLOSE_TIMEOUT = 10.0  # seconds a closing store waits for its connections

log = logging.getLogger(__name__)
# the readers' connections (the writer's lanes hold their own): with 4, the web's readers at once queued for one
# at each of a page's reads (issue 23: 16 readers, a log page's p50 10 ms longer)
POOL_SIZE = 16
TEXT_WINDOW = 20_000  # the newest events a text search's page reads first (PgStore._text_page)


async def _reads_leave_nothing(connection: asyncpg.Connection) -> None:
    """A pool connection's release, after asyncpg has rolled back any open transaction: nothing more to undo.
    The pool's connections only read (and migrate and export, in transactions that end): no session setting,
    cursor, LISTEN or session-level advisory lock outlives a read. asyncpg's default reset sends a query
    (``RESET ALL``, ``UNLISTEN *``…) at every release: a round trip more for each read, which a web page paid
    three to five times (issue 23)."""


class PgStore:
    """The :class:`bot.storage.protocol.Store` API on PostgreSQL. Open with :meth:`open`, close with :meth:`close`."""

    path = None  # no file: SQLite-only tools (backup) say so

    def __init__(self, url: str, pool: asyncpg.Pool, writer: PgWriter) -> None:
        self.url = url
        self._pool = pool
        self._writer = writer

    @property
    def clock(self) -> Callable[[], str]:
        """What "now" is for the rows this store stamps (events, campaigns, sheets, macros)."""
        return self._writer.clock

    @clock.setter
    def clock(self, clock: Callable[[], str]) -> None:
        self._writer.clock = clock

    @classmethod
    async def open(cls, url: str, *, synchronous: str = "FULL") -> PgStore:
        """Connect and migrate. ``synchronous`` NORMAL turns off ``synchronous_commit`` (see docs/deploy.md)."""
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}")
        settings = {"synchronous_commit": "on" if synchronous == "FULL" else "off"}
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, server_settings=settings, timeout=10, reset=_reads_leave_nothing
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, TimeoutError) as error:
            raise PgStoreOpenError(url, error) from error
        try:
            async with pool.acquire() as connection:
                await migrate(connection)
                seen = int(await connection.fetchval(WRITES_SEEN))
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, SchemaTooNewError) as error:
            await pool.close()
            raise PgStoreOpenError(url, error) from error
        except BaseException:
            await pool.close()
            raise

        def connect() -> Awaitable[
            asyncpg.Connection
        ]:  # a writer lane's own connection (bot/storage/postgres/writer.py)
            return asyncpg.connect(url, server_settings=settings, timeout=10)

        return cls(url, pool, PgWriter(pool, connect, seen))

    async def close(self) -> None:
        await self._writer.close()
        try:  # graceful: waits for connections in use; one the server dropped mid-use may never come back
            await asyncio.wait_for(self._pool.close(), CLOSE_TIMEOUT)
        except TimeoutError:
            log.warning("closing the PostgreSQL pool took over %s s: its connections were terminated", CLOSE_TIMEOUT)
            self._pool.terminate()

    async def schema_version(self) -> int:
        return int(await self._fetchval("SELECT version FROM magister_schema"))

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await again_if_dropped(lambda: self._pool.fetch(sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await again_if_dropped(lambda: self._pool.fetchrow(sql, *args))

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        return await again_if_dropped(lambda: self._pool.fetchval(sql, *args))

    async def _fetch_planned(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """A read planned for these very values. asyncpg keeps each query prepared, and PostgreSQL may then plan
        it once for any values; a log search is planned per text (the trigram index for a rare one, a walk back
        from the newest for a common one), and a plan made for neither would walk a whole campaign's log. A
        statement prepared for one run is always planned with its values."""

        async def run() -> list[asyncpg.Record]:
            async with self._pool.acquire() as connection:
                statement = await connection.prepare(sql)
                return await statement.fetch(*args)

        return await again_if_dropped(run)

    # ------------------------------------------------------------------ writes

    def transaction(self) -> Any:
        """One write transaction, statement by statement: committed on normal exit, rolled back on any exception."""
        return self._writer.transaction()

    async def write(self, job: Callable[[Any], T]) -> T:
        """Run ``job`` in a committed (group) transaction; return its result. An :class:`bot.storage.action.ActionWrite`
        runs with the rest of its group in a few statements; other jobs, sync code, in a greenlet on the loop."""
        return await self._writer.write(job)

    async def check_others(self) -> bool:
        return await self._writer.check_others()

    @property
    def generation(self) -> int:
        return self._writer.generation

    @property
    def checked_at(self) -> float:
        return self._writer.checked_at

    @contextmanager
    def snapshot(self) -> Iterator[Callable[[str, Sequence[Any]], list[tuple]]]:
        """From a worker thread: a read-only, repeatable-read snapshot; yields ``read(sql, parameters)``
        taking SQLite-style ``?`` placeholders (the export's queries are written once for both)."""

        async def begin() -> tuple[asyncpg.Connection, Any]:
            connection = await self._pool.acquire()
            try:
                transaction = connection.transaction(isolation="repeatable_read", readonly=True)
                await transaction.start()
            except BaseException:
                await self._pool.release(connection)
                raise
            return connection, transaction

        async def end(connection: asyncpg.Connection, transaction: Any) -> None:
            try:
                with contextlib.suppress(*UNREACHABLE, asyncpg.InterfaceError):  # a broken one has nothing to undo
                    await transaction.rollback()
            finally:
                await self._pool.release(connection)

        def read(sql: str, parameters: Sequence[Any] = ()) -> list[tuple]:
            try:
                rows = self._writer.wait(connection.fetch(placeholders(sql), *parameters))
            except UNREACHABLE as error:
                raise unavailable(error) from error
            return [tuple(row) for row in rows]

        connection, transaction = self._writer.wait(again_if_dropped(begin))
        try:
            yield read
        finally:
            self._writer.wait(end(connection, transaction))

    # ------------------------------------------------------------------ reads

    async def campaign(self, guild_id: int, channel_id: int) -> CampaignRow | None:
        row = await self._fetchrow(
            "SELECT * FROM campaigns WHERE guild_id = $1 AND channel_id = $2 AND archived_at IS NULL",
            guild_id,
            channel_id,
        )
        return campaign_row(row) if row else None

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        row = await self._fetchrow("SELECT * FROM campaigns WHERE id = $1", campaign_id)
        return campaign_row(row) if row else None

    async def archived_campaigns(self, guild_id: int, channel_id: int, *, limit: int = 25) -> list[CampaignRow]:
        rows = await self._fetch(
            "SELECT * FROM campaigns WHERE guild_id = $1 AND channel_id = $2 AND archived_at IS NOT NULL"
            ' ORDER BY archived_at COLLATE "C" DESC LIMIT $3',
            guild_id,
            channel_id,
            limit,
        )
        return [campaign_row(row) for row in rows]

    async def live_campaigns(self, ruleset: str) -> list[CampaignRow]:
        rows = await self._fetch(
            "SELECT * FROM campaigns WHERE ruleset = $1 AND archived_at IS NULL ORDER BY id", ruleset
        )
        return [campaign_row(row) for row in rows]

    async def characters(self, campaign_id: int) -> list[CharacterRow]:
        rows = await self._fetch(
            "SELECT id, campaign_id, owner_id, name, sheet FROM characters WHERE campaign_id = $1 ORDER BY id",
            campaign_id,
        )
        return [CharacterRow(r["id"], r["campaign_id"], r["owner_id"], r["name"], json.loads(r["sheet"])) for r in rows]

    async def events(self, campaign_id: int, *, limit: int, offset: int = 0) -> list[EventRow]:
        """SQLite's seek by event number, the newest number found in the same statement (one round trip)."""
        rows = await self._fetch(
            "SELECT * FROM events WHERE campaign_id = $1"
            " AND seq <= (SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = $1) - $2"
            " ORDER BY seq DESC LIMIT $3",
            campaign_id,
            offset,
            limit,
        )
        return [event_row(row) for row in rows]

    async def event_numbered(self, campaign_id: int, number: int) -> EventRow | None:
        rows = await self._fetch("SELECT * FROM events WHERE campaign_id = $1 AND seq = $2", campaign_id, number)
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
        read = self._fetch_planned if where.text else self._fetch
        newest = await self._newest(campaign_id) if where.short_text else 0
        if skip:
            sql, parameters = log_select(
                campaign_id, where, numbers_only=True, limit=1, offset=skip - 1, before=before, newest=newest
            )
            found = await read(sql, *parameters)
            if not found:
                return []
            before = int(found[0][0])
        newest_last = after is not None and before is None
        if where.text and not where.short_text and not newest_last:
            return await self._text_page(campaign_id, where, limit, before, after)
        sql, parameters = log_select(
            campaign_id,
            where,
            numbers_only=False,
            limit=limit,
            before=before,
            after=after,
            oldest_first=newest_last,
            newest=newest,
        )
        rows = [event_row(row) for row in await read(sql, *parameters)]
        return rows[::-1] if newest_last else rows

    async def _text_page(
        self, campaign_id: int, where: LogQuery, limit: int, before: int | None, after: int | None
    ) -> list[EventRow]:
        """A text search's newest ``limit`` matches below ``before``: first among the :data:`TEXT_WINDOW` events
        below it, then, if they hold too few, below those. The trigram index finds a rare text's every match in
        the log, and sorting them by number read each one's row (a thousand at a million events); bounded by a
        number the planner sees, it reads only the window's (the index's matches and the window's numbers
        combined before any row is read), and a common text still walks back from the newest (issue 23)."""
        top = before if before is not None else await self._newest(campaign_id) + 1
        floor = top - TEXT_WINDOW  # the window: numbers above floor, below top
        rows: list[EventRow] = []
        for upper, lower in ((top, floor), (floor + 1, None)):
            if after is not None and (lower is None or after >= lower):
                lower = after
            if lower is not None and upper - lower <= 1:
                break  # nothing between them (the window reached the first event, or ``after``)
            sql, parameters = log_select(
                campaign_id, where, numbers_only=False, limit=limit - len(rows), before=upper, after=lower
            )
            rows += [event_row(row) for row in await self._fetch_planned(sql, *parameters)]
            if len(rows) >= limit or lower is None or lower < 1 or lower == after:
                break  # enough, or nothing older left to read
        return rows

    async def count_matching(self, campaign_id: int, where: LogQuery, *, limit: int) -> int:
        newest = await self._newest(campaign_id) if where.short_text else 0
        sql, parameters = log_select(campaign_id, where, numbers_only=True, limit=limit, newest=newest)
        read = self._fetch_planned if where.text else self._fetch
        return int((await read(f"SELECT count(*) FROM ({sql}) AS found", *parameters))[0][0])

    async def _newest(self, campaign_id: int) -> int:
        """The campaign's newest event number (one seek of events_seq)."""
        found = await self._fetchval("SELECT max(seq) FROM events WHERE campaign_id = $1", campaign_id)
        return int(found or 0)

    async def commands_seen(self, campaign_id: int, *, limit: int = 200) -> list[str]:
        rows = await self._fetch(
            """
            WITH RECURSIVE seen (command) AS (
                SELECT min(command COLLATE "C") FROM events WHERE campaign_id = $1
                UNION ALL
                SELECT (SELECT min(command COLLATE "C") FROM events
                        WHERE campaign_id = $1 AND command COLLATE "C" > seen.command)
                FROM seen WHERE seen.command IS NOT NULL
            )
            SELECT command FROM seen WHERE command IS NOT NULL LIMIT $2
            """,
            campaign_id,
            limit,
        )
        return [row[0] for row in rows]

    async def event_id_of(self, campaign_id: int, seq: int) -> int | None:
        found = await self._fetchval("SELECT id FROM events WHERE campaign_id = $1 AND seq = $2", campaign_id, seq)
        return int(found) if found is not None else None

    async def events_since_last_by(
        self, campaign_id: int, actor_id: int, *, limit: int, look_back: int = RECAP_COUNT_CAP
    ) -> tuple[list[EventRow], int]:
        row = await self._fetchrow(
            "SELECT count(*), coalesce(max(CASE WHEN actor_id = $1 THEN seq END), 0) FROM "
            "(SELECT seq, actor_id FROM events WHERE campaign_id = $2 ORDER BY seq DESC LIMIT $3) AS recent",
            actor_id,
            campaign_id,
            look_back,
        )
        seen, since = (int(row[0]), int(row[1])) if row else (0, 0)
        total = int(
            await self._fetchval(
                "SELECT count(*) FROM (SELECT 1 FROM events WHERE campaign_id = $1 AND seq > $2"
                " ORDER BY seq DESC LIMIT $3) AS later",
                campaign_id,
                since,
                look_back,
            )
        )
        if since == 0 and seen >= look_back:
            total = look_back
        rows = await self._fetch(
            "SELECT * FROM events WHERE campaign_id = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3",
            campaign_id,
            since,
            limit,
        )
        return [event_row(row) for row in rows], total

    async def macros(self, owner_id: int, campaign_id: int | None) -> list[MacroRow]:
        rows = await self._fetch(
            "SELECT id, owner_id, campaign_id, name, expression FROM macros"
            " WHERE (owner_id = $1 AND campaign_id IS NULL) OR campaign_id = $2"
            ' ORDER BY campaign_id IS NOT NULL, name_key COLLATE "C"',
            owner_id,
            campaign_id if campaign_id is not None else -1,
        )
        return [MacroRow(*row) for row in rows]

    async def count_events(self, campaign_id: int) -> int:
        found = await self._fetchval("SELECT coalesce(max(seq), 0) FROM events WHERE campaign_id = $1", campaign_id)
        return int(found) if found is not None else 0

    async def waits(self, campaign_id: int) -> list[StoredWait]:
        rows = await self._fetch(
            'SELECT * FROM waits WHERE campaign_id = $1 ORDER BY since COLLATE "C", key COLLATE "C"', campaign_id
        )
        return [stored_wait(row) for row in rows]

    async def waits_on(self, guild_id: int, user_id: int) -> list[tuple[CampaignRow, StoredWait]]:
        rows = await self._fetch(
            """
            SELECT c.*, w.campaign_id AS w_campaign, w.key AS w_key, w.user_id AS w_user, w.body AS w_body,
                   w.since AS w_since, w.deadline AS w_deadline
            FROM waits w JOIN campaigns c ON c.id = w.campaign_id
            WHERE c.guild_id = $1 AND c.archived_at IS NULL
              AND (w.user_id = $2 OR (w.user_id IS NULL AND c.gm_ids::jsonb @> jsonb_build_array($2::bigint)))
            ORDER BY w.since COLLATE "C", c.id LIMIT 50
            """,
            guild_id,
            user_id,
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
        rows = await self._fetch(
            """
            SELECT t.* FROM timers t LEFT JOIN campaigns c ON c.id = t.campaign_id
            WHERE t.fired_at IS NULL AND t.due <= $1
              AND (t.campaign_id IS NULL OR (c.pbp::json ->> 'paused_at') IS NULL)
            ORDER BY t.due, t.id LIMIT $2
            """,
            now,
            limit,
        )
        return [timer_row(row) for row in rows]

    async def timer(self, timer_id: int) -> TimerRow | None:
        row = await self._fetchrow("SELECT * FROM timers WHERE id = $1", timer_id)
        return timer_row(row) if row else None

    async def reminders(self, guild_id: int, channel_id: int) -> list[TimerRow]:
        rows = await self._fetch(
            "SELECT * FROM timers WHERE guild_id = $1 AND channel_id = $2 AND kind = 'remind' AND fired_at IS NULL "
            "ORDER BY due, id LIMIT 25",
            guild_id,
            channel_id,
        )
        return [timer_row(row) for row in rows]

    async def actor_names(self, after: int = 0) -> tuple[dict[int, str], int]:
        newest = int(await self._fetchval("SELECT coalesce(max(id), 0) FROM events"))
        rows = await self._fetch(
            "SELECT actor_id, actor_name FROM events WHERE id IN (SELECT max(id) FROM events "
            "WHERE id > $1 AND id <= $2 AND actor_name NOT LIKE '%(timer)' "
            "AND actor_name NOT LIKE '%(by standing order)' GROUP BY actor_id)",
            after,
            newest,
        )
        return {int(row[0]): row[1] for row in rows}, newest

    async def board(self, campaign_id: int) -> tuple[int, int] | None:
        row = await self._fetchrow("SELECT channel_id, message_id FROM boards WHERE campaign_id = $1", campaign_id)
        return (int(row[0]), int(row[1])) if row else None

    async def web_access(self, campaign_id: int) -> dict[int, tuple[int, str]]:
        rows = await self._fetch("SELECT user_id, generation, name FROM web_access WHERE campaign_id = $1", campaign_id)
        return {int(row[0]): (int(row[1]), str(row[2])) for row in rows}

    async def web_secret(self) -> str | None:
        return await self._fetchval("SELECT secret FROM web_secret WHERE id = 1")

    async def member_timezone(self, user_id: int) -> str | None:
        return await self._fetchval("SELECT timezone FROM members WHERE user_id = $1", user_id)

    async def member_data(self, user_id: int) -> MemberData:
        characters = await self._fetch(placeholders(MEMBER_CHARACTERS), user_id)
        macros = await self._fetch(placeholders(MEMBER_MACROS), user_id)
        reminders = await self._fetch(placeholders(MEMBER_REMINDERS), user_id)
        gm_of = await self._fetch(placeholders(MEMBER_GM_OF), f"%{user_id}%")
        orders = await self._fetch(placeholders(MEMBER_ORDERS), '%"orders"%', f"%{user_id}%")
        return MemberData(
            user_id,
            [CharacterRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in characters],
            [MacroRow(*row) for row in macros],
            [timer_row(row) for row in reminders],
            await self.member_timezone(user_id),
            [row for row in map(campaign_row, gm_of) if user_id in row.gm_ids],
            [(int(row[0]), str(row[1])) for row in await self._fetch(placeholders(MEMBER_WEB), user_id)],
            [row for row in map(campaign_row, orders) if holds_order_of(row.pbp, user_id)],
        )

    async def member_events(self, user_id: int, *, after: int = 0, limit: int = 500) -> list[EventRow]:
        rows = await self._fetch(placeholders(MEMBER_EVENTS), user_id, after, limit)
        return [event_row(row) for row in rows]

    async def undoable_since(self, campaign_id: int, event_id: int, *, limit: int) -> list[EventRow]:
        rows = await self._fetch(
            """
            SELECT * FROM events e
            WHERE e.campaign_id = $1 AND e.id >= $2 AND e.snapshot IS NOT NULL AND e.undoes IS NULL
              AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.id)
            ORDER BY e.id LIMIT $3
            """,
            campaign_id,
            event_id,
            limit,
        )
        return [event_row(row) for row in rows]

    async def last_undoable(self, campaign_id: int) -> EventRow | None:
        row = await self._fetchrow(
            """
            SELECT * FROM events e
            WHERE e.campaign_id = $1 AND e.snapshot IS NOT NULL AND e.undoes IS NULL
              AND NOT EXISTS (SELECT 1 FROM events u WHERE u.undoes = e.id)
            ORDER BY e.id DESC LIMIT 1
            """,
            campaign_id,
        )
        return event_row(row) if row else None
