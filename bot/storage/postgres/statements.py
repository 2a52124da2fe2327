"""The SQL of every write: :class:`Statements`, the PostgreSQL twin of SQLite's ``WriteTx``, as coroutines on the
open write transaction's connection; the helper that translates SQL written for SQLite (``?`` placeholders);
and the event log's filtered reads."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import asyncpg

from bot.storage.members import Erased, Execute, Query, Step, drive_async, erase
from bot.storage.postgres.imports import ImportStatements
from bot.storage.rows import (
    SHORT_TEXT_WINDOW,
    CampaignRow,
    ConstraintError,
    LogQuery,
    StaleCampaignError,
    TimerClaimedError,
    pg_texts,
)
from bot.storage.rows import (
    dumps_text as dumps,
)
from bot.storage.sqlite import like_pattern


def _count(status: str) -> int:
    """Rows an INSERT/UPDATE/DELETE touched, from its command tag ("UPDATE 1")."""
    return int(status.rsplit(" ", 1)[-1])


def placeholders(sql: str) -> str:
    """SQLite's ``?`` to PostgreSQL's ``$1, $2…`` (for the few portable queries written for both)."""
    numbers = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


SECRET_SIDE = (  # word for word events_secret's condition (migration 8), so the planner sees the index holds these
    "((result::json #>> '{secret,summary}') IS NOT NULL OR (result::json #>> '{private,summary}') IS NOT NULL)"
)
HIDDEN_SIDES = ("(result::json #>> '{secret,summary}')", "(result::json #>> '{private,summary}')")
# each hidden side's text search, behind a test of the stored text for its key: walking back from the newest
# event (a common text's plan), most results have no secret or private side, and parsing each one's JSON to find
# that out cost a GM's search 1.8 ms at 10,000 events and 5.5 ms at a million (issue 23); the trigram index still
# answers the search itself (its expression, word for word)
HIDDEN_SEARCHES = tuple(
    f"(strpos(result, '\"{key}\"') > 0 AND {side} ILIKE ?)"
    for key, side in zip(("secret", "private"), HIDDEN_SIDES, strict=True)
)


def log_where(campaign_id: int, where: LogQuery, newest: int = 0) -> tuple[str, tuple]:
    """The WHERE clauses of a filtered log read (SQLite's :class:`bot.storage.sqlite.LogSearch`, in one table):
    each in the words its index was made with, so the planner can seek it. A text is ILIKE (SQLite's LIKE, and
    the trigram index's operator); a short one (no trigram to seek) reads only the events after ``newest``
    (the campaign's newest number) less :data:`SHORT_TEXT_WINDOW`, a bound the planner sees as a value."""
    clauses, parameters = ["campaign_id = ?"], [campaign_id]
    if where.actor_id is not None:
        clauses.append("actor_id = ?")
        parameters.append(where.actor_id)
    if where.command is not None:
        clauses.append('command COLLATE "C" = ?')
        parameters.append(where.command)
    if where.secret_only:
        clauses.append(SECRET_SIDE)
    if where.text:
        searches = ["summary ILIKE ?", *(HIDDEN_SEARCHES if where.reveal else ())]
        clauses.append("(" + " OR ".join(searches) + ")")
        parameters += [like_pattern(where.text)] * len(searches)
        if where.short_text:
            clauses.append("seq > ?")
            parameters.append(newest - SHORT_TEXT_WINDOW)
    return " AND ".join(clauses), tuple(parameters)


def log_select(
    campaign_id: int,
    where: LogQuery,
    *,
    numbers_only: bool,
    limit: int,
    offset: int = 0,
    before: int | None = None,
    after: int | None = None,
    oldest_first: bool = False,
    newest: int = 0,
) -> tuple[str, tuple]:
    """Matching events (or their numbers) between ``after`` and ``before`` (exclusive), in number order."""
    sql, parameters = log_where(campaign_id, where, newest)
    bounds = []
    if before is not None:
        bounds.append(before)
        sql += " AND seq < ?"
    if after is not None:
        bounds.append(after)
        sql += " AND seq > ?"
    columns = "seq" if numbers_only else "*"
    order = "ASC" if oldest_first else "DESC"
    return (
        placeholders(f"SELECT {columns} FROM events WHERE {sql} ORDER BY seq {order} LIMIT ? OFFSET ?"),
        (*parameters, *bounds, limit, offset),
    )


class OpenTransaction(Protocol):
    """What :class:`Statements` reads of its writer (:class:`bot.storage.postgres.writer.PgWriter`): the open
    write transaction's connection, and the campaigns it has advisory-locked."""

    _connection: asyncpg.Connection | None
    _locked: set[int]
    clock: Callable[[], str]  # the time rows are stamped with


class Statements(ImportStatements):
    """The writes themselves, as coroutines on the open transaction's connection. Jobs reach them through
    :class:`~bot.storage.postgres.writer.PgWriteTx` (sync), ``async with store.transaction()`` through
    :class:`~bot.storage.postgres.writer.PgTransaction`."""

    def __init__(self, writer: OpenTransaction) -> None:
        self._writer = writer

    @property
    def _db(self) -> asyncpg.Connection:
        connection = self._writer._connection
        if connection is None:
            raise RuntimeError("no write transaction is open")
        return connection

    async def _execute(self, sql: str, *args: Any) -> str:
        return await self._db.execute(sql, *pg_texts(args))

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        return await self._db.fetchval(sql, *pg_texts(args))

    async def _lock(self, campaign_id: int) -> None:
        """Serialize this campaign's actions across processes until the transaction ends (once per transaction)."""
        if campaign_id not in self._writer._locked:
            await self._execute("SELECT pg_advisory_xact_lock($1)", campaign_id)
            self._writer._locked.add(campaign_id)

    async def _insert(self, sql: str, *args: Any) -> int:
        try:
            return int(await self._fetchval(sql, *args))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConstraintError(str(error)) from None

    async def insert_campaign(
        self,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        name: str,
        gm_ids: Sequence[int],
        settings: dict,
        state: dict,
    ) -> int:
        return await self._insert(
            """INSERT INTO campaigns (guild_id, channel_id, ruleset, name, gm_ids, settings, state, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id""",
            guild_id,
            channel_id,
            ruleset,
            name,
            dumps(list(gm_ids)),
            dumps(settings),
            dumps(state),
            self._writer.clock(),
        )

    async def set_created_at(self, campaign_id: int, created_at: str) -> None:
        await self._execute("UPDATE campaigns SET created_at = $1 WHERE id = $2", created_at, campaign_id)

    async def update_campaign(self, campaign: CampaignRow) -> None:
        await self._lock(campaign.id)
        status = await self._execute(
            """UPDATE campaigns SET name = $1, gm_ids = $2, gm_channel_id = $3, settings = $4, state = $5,
                      version = version + 1, archived_at = $6, pbp = $7
               WHERE id = $8 AND version = $9""",
            campaign.name,
            dumps(campaign.gm_ids),
            campaign.gm_channel_id,
            dumps(campaign.settings),
            dumps(campaign.state),
            campaign.archived_at,
            dumps(campaign.pbp),
            campaign.id,
            campaign.version,
        )
        if _count(status) != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    async def update_state(self, campaign: CampaignRow, *, with_settings: bool = False) -> None:
        await self._lock(campaign.id)
        if with_settings:
            status = await self._execute(
                "UPDATE campaigns SET state = $1, settings = $2, version = version + 1 WHERE id = $3 AND version = $4",
                dumps(campaign.state),
                dumps(campaign.settings),
                campaign.id,
                campaign.version,
            )
        else:
            status = await self._execute(
                "UPDATE campaigns SET state = $1, version = version + 1 WHERE id = $2 AND version = $3",
                dumps(campaign.state),
                campaign.id,
                campaign.version,
            )
        if _count(status) != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    async def touch_campaign(self, campaign: CampaignRow) -> None:
        await self._lock(campaign.id)
        status = await self._execute(
            "UPDATE campaigns SET version = version + 1 WHERE id = $1 AND version = $2 AND archived_at IS NULL",
            campaign.id,
            campaign.version,
        )
        if _count(status) != 1:
            raise StaleCampaignError(campaign.id)
        campaign.version += 1

    async def check_campaign(self, campaign: CampaignRow) -> None:
        await self._lock(campaign.id)
        found = await self._fetchval(
            "SELECT 1 FROM campaigns WHERE id = $1 AND version = $2 AND archived_at IS NULL",
            campaign.id,
            campaign.version,
        )
        if found is None:
            raise StaleCampaignError(campaign.id)

    async def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int:
        await self._lock(campaign_id)
        now = self._writer.clock()
        return await self._insert(
            """INSERT INTO characters (campaign_id, owner_id, name, name_key, sheet, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id""",
            campaign_id,
            owner_id,
            name,
            name.casefold(),
            dumps(sheet),
            now,
            now,
        )

    async def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None:
        await self._execute(
            "UPDATE characters SET owner_id = $1, sheet = $2, updated_at = $3 WHERE id = $4",
            owner_id,
            dumps(sheet),
            self._writer.clock(),
            character_id,
        )

    async def delete_character(self, character_id: int) -> None:
        await self._execute("DELETE FROM characters WHERE id = $1", character_id)

    async def append_event(
        self,
        campaign_id: int,
        actor_id: int,
        actor_name: str,
        command: str,
        summary: str,
        result: dict,
        snapshot: dict | None = None,
        undoes: int | None = None,
        thread_id: int | None = None,
        *,
        at: str | None = None,
    ) -> int:
        """Numbered next in its campaign: safe, since the campaign's advisory lock is held."""
        await self._lock(campaign_id)
        return await self._insert(
            """INSERT INTO events
                   (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, undoes, thread_id, seq)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
                       (SELECT coalesce(max(seq), 0) + 1 FROM events WHERE campaign_id = $1)) RETURNING id""",
            campaign_id,
            at or self._writer.clock(),
            actor_id,
            actor_name,
            command,
            summary,
            dumps(result),
            dumps(snapshot) if snapshot is not None else None,
            undoes,
            thread_id,
        )

    async def save_macro(self, owner_id: int, campaign_id: int | None, name: str, expression: str) -> bool:
        key = name.casefold()
        if campaign_id is None:
            status = await self._execute(
                "DELETE FROM macros WHERE owner_id = $1 AND campaign_id IS NULL AND name_key = $2", owner_id, key
            )
        else:
            status = await self._execute(
                "DELETE FROM macros WHERE campaign_id = $1 AND name_key = $2", campaign_id, key
            )
        await self._insert(
            "INSERT INTO macros (owner_id, campaign_id, name, name_key, expression, created_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            owner_id,
            campaign_id,
            name,
            key,
            expression,
            self._writer.clock(),
        )
        return _count(status) > 0

    async def delete_macro(self, macro_id: int) -> None:
        await self._execute("DELETE FROM macros WHERE id = $1", macro_id)

    async def put_wait(
        self, campaign_id: int, key: str, user_id: int | None, body: dict, since: str, deadline: str | None
    ) -> None:
        await self._execute(
            """INSERT INTO waits (campaign_id, key, user_id, body, since, deadline) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (campaign_id, key) DO UPDATE SET user_id = EXCLUDED.user_id, body = EXCLUDED.body,
                   since = EXCLUDED.since, deadline = EXCLUDED.deadline""",
            campaign_id,
            key,
            user_id,
            dumps(body),
            since,
            deadline,
        )

    async def drop_wait(self, campaign_id: int, key: str) -> None:
        await self._execute("DELETE FROM waits WHERE campaign_id = $1 AND key = $2", campaign_id, key)
        await self._execute(
            "DELETE FROM timers WHERE campaign_id = $1 AND wait_key = $2 AND fired_at IS NULL", campaign_id, key
        )

    async def add_timer(
        self,
        campaign_id: int | None,
        guild_id: int,
        channel_id: int,
        kind: str,
        due: int,
        body: dict,
        *,
        wait_key: str | None = None,
        created_by: int | None = None,
    ) -> int:
        return await self._insert(
            """INSERT INTO timers (campaign_id, guild_id, channel_id, kind, wait_key, due, body, created_by)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id""",
            campaign_id,
            guild_id,
            channel_id,
            kind,
            wait_key,
            due,
            dumps(body),
            created_by,
        )

    async def claim_timer(self, timer_id: int, at: str) -> None:
        """Fired exactly once: a timer another transaction is claiming is skipped, not waited for."""
        status = await self._execute(
            """UPDATE timers SET fired_at = $1 WHERE id = (
                   SELECT id FROM timers WHERE id = $2 AND fired_at IS NULL FOR UPDATE SKIP LOCKED)""",
            at,
            timer_id,
        )
        if _count(status) != 1:
            raise TimerClaimedError(timer_id)

    async def pending_reminders(self, guild_id: int, channel_id: int) -> int:
        return int(
            await self._fetchval(
                "SELECT count(*) FROM timers"
                " WHERE guild_id = $1 AND channel_id = $2 AND kind = 'remind' AND fired_at IS NULL",
                guild_id,
                channel_id,
            )
        )

    async def cancel_timer(self, timer_id: int, *, channel: tuple[int, int] | None = None) -> bool:
        if channel is None:
            status = await self._execute("DELETE FROM timers WHERE id = $1 AND fired_at IS NULL", timer_id)
        else:
            status = await self._execute(
                "DELETE FROM timers WHERE id = $1 AND fired_at IS NULL AND guild_id = $2 AND channel_id = $3",
                timer_id,
                *channel,
            )
        return _count(status) == 1

    async def shift_timers(self, campaign_id: int, seconds: int) -> list[tuple[int, int]]:
        rows = await self._db.fetch(
            "UPDATE timers SET due = due + $1 WHERE campaign_id = $2 AND fired_at IS NULL RETURNING id, due",
            seconds,
            campaign_id,
        )
        return sorted((int(row[0]), int(row[1])) for row in rows)

    async def put_back_timers(self, timers: Sequence[tuple[int, int, int]]) -> list[int]:
        fired = [
            timer_id
            for timer_id, moved, _ in timers
            if await self._db.fetchval(
                "SELECT 1 FROM timers WHERE id = $1 AND due = $2 AND fired_at IS NOT NULL", timer_id, moved
            )
        ]
        if fired:
            return fired
        for timer_id, moved, old in timers:
            await self._execute(
                "UPDATE timers SET due = $1 WHERE id = $2 AND due = $3 AND fired_at IS NULL", old, timer_id, moved
            )
        return []

    async def set_wait_deadline(self, campaign_id: int, key: str, deadline: str | None) -> None:
        await self._execute(
            "UPDATE waits SET deadline = $1 WHERE campaign_id = $2 AND key = $3", deadline, campaign_id, key
        )

    async def set_board(self, campaign_id: int, channel_id: int, message_id: int) -> None:
        await self._execute(
            """INSERT INTO boards (campaign_id, channel_id, message_id) VALUES ($1, $2, $3)
               ON CONFLICT (campaign_id) DO UPDATE SET channel_id = EXCLUDED.channel_id,
                   message_id = EXCLUDED.message_id""",
            campaign_id,
            channel_id,
            message_id,
        )

    async def set_member_timezone(self, user_id: int, timezone: str | None) -> None:
        await self._execute(
            "INSERT INTO members (user_id, timezone) VALUES ($1, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET timezone = EXCLUDED.timezone",
            user_id,
            timezone,
        )

    async def grant_web(self, campaign_id: int, user_id: int, name: str) -> tuple[int, int]:
        await self._execute(
            "INSERT INTO web_access (campaign_id, user_id, name) VALUES ($1, $2, $3)"
            " ON CONFLICT (campaign_id, user_id) DO UPDATE SET name = EXCLUDED.name",
            campaign_id,
            user_id,
            name,
        )
        rows = await self._db.fetch(
            "SELECT user_id, generation FROM web_access WHERE campaign_id = $1 AND user_id IN (0, $2)",
            campaign_id,
            user_id,
        )
        found = {int(row[0]): int(row[1]) for row in rows}
        return found.get(0, 0), found[user_id]

    async def revoke_web(self, campaign_id: int, user_id: int) -> bool:
        if user_id == 0:
            await self._execute(
                "INSERT INTO web_access (campaign_id, user_id, generation) VALUES ($1, 0, 1)"
                " ON CONFLICT (campaign_id, user_id) DO UPDATE SET generation = web_access.generation + 1",
                campaign_id,
            )
            return True
        status = await self._execute(
            "UPDATE web_access SET generation = generation + 1 WHERE campaign_id = $1 AND user_id = $2",
            campaign_id,
            user_id,
        )
        return _count(status) > 0

    async def keep_web_secret(self, secret: str) -> str:
        await self._execute("INSERT INTO web_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING", secret)
        return str(await self._fetchval("SELECT secret FROM web_secret WHERE id = 1"))

    async def forget_member(self, user_id: int, campaign_id: int | None = None) -> Erased:
        """SQLite's program (:mod:`bot.storage.members`), statement by statement in this transaction; each campaign
        it touches is advisory-locked first, in id order."""

        async def run(step: Step) -> Any:
            if isinstance(step, Query):
                return [tuple(row) for row in await self._db.fetch(placeholders(step.sql), *pg_texts(step.parameters))]
            if isinstance(step, Execute):
                return _count(await self._execute(placeholders(step.sql), *step.parameters))
            await self._lock(step.campaign_id)
            return None

        return await drive_async(erase(user_id, campaign_id), run)
