"""A group commit's :class:`bot.storage.action.ActionWrite` s on PostgreSQL, in two statements whatever their number.

Run one by one, each action costs three to six round trips to the server (its advisory lock, the campaign's UPDATE,
the log's INSERT, its characters and waits); sixty actions in a group, two to three hundred. Here the whole group is

1. one ``pg_advisory_xact_lock`` per campaign, in id order, in the statement that begins the transaction (two
   processes, or two of our writer connections, taking overlapping sets always take them in the same order, so
   they never deadlock), and
2. one statement of data-modifying CTEs over ``unnest``-ed arrays: the campaigns' UPDATE with each one's version
   check (and the plain check of a log-only action), the characters' UPDATE, DELETE and INSERT, the events' INSERT
   numbered per campaign (max(seq) + 1: one event per campaign here, and the lock is held), the waits ended and put,
   the new timers. It returns which actions' version checks held, the new characters' ids and the events' ids.

The locks must come before the big statement, not inside it: under READ COMMITTED each statement reads the data
committed when it began, so a lock granted while the big statement ran could come after another process committed
events it cannot see, and max(seq) would repeat a number.

An action whose check failed (another process moved the campaign) is refused alone: :func:`run_batch` says which,
and the caller rolls the group back and runs it again without them, as group commit retries after any failure.
Each campaign appears at most once in a batch (:func:`bot.storage.action.split`): a second action of the same
campaign in one group, rare since the service serializes a campaign's actions, runs statement by statement after the
batch.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import asyncpg

from bot.storage.action import MODE_NUMBERS, ActionDone, ActionWrite
from bot.storage.rows import ConstraintError, StaleCampaignError, pg_text, utcnow
from bot.storage.rows import dumps_text as dumps

APPLY = """
WITH a AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[], $5::text[]) WITH ORDINALITY
        AS a (id, version, mode, state, settings, n)
),
moved AS (
    UPDATE campaigns c SET
        state = CASE WHEN a.mode >= 2 THEN a.state ELSE c.state END,
        settings = CASE WHEN a.mode = 3 THEN a.settings ELSE c.settings END,
        version = c.version + 1
    FROM a
    WHERE c.id = a.id AND c.version = a.version AND a.mode > 0 AND (a.mode >= 2 OR c.archived_at IS NULL)
    RETURNING a.n
),
checked AS (
    SELECT a.n FROM a JOIN campaigns c ON c.id = a.id AND c.version = a.version AND c.archived_at IS NULL
    WHERE a.mode = 0
),
sheets AS (
    UPDATE characters ch SET owner_id = u.owner_id, sheet = u.sheet, updated_at = $6
    FROM unnest($7::bigint[], $8::bigint[], $9::text[]) AS u (id, owner_id, sheet)
    WHERE ch.id = u.id
),
removed AS (
    DELETE FROM characters WHERE id = ANY($10::bigint[])
),
born AS (
    INSERT INTO characters (campaign_id, owner_id, name, name_key, sheet, created_at, updated_at)
    SELECT campaign_id, owner_id, name, name_key, sheet, $6, $6
    FROM unnest($11::bigint[], $12::bigint[], $13::text[], $14::text[], $15::text[])
        AS b (campaign_id, owner_id, name, name_key, sheet)
    RETURNING id, campaign_id, name_key
),
logged AS (
    INSERT INTO events
        (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, thread_id, seq)
    SELECT e.campaign_id, $6, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot, e.thread_id,
           coalesce((SELECT max(seq) FROM events x WHERE x.campaign_id = e.campaign_id), 0) + 1
    FROM unnest($16::bigint[], $17::bigint[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[],
                $23::bigint[]) AS e (campaign_id, actor_id, actor_name, command, summary, result, snapshot, thread_id)
    RETURNING id, campaign_id
),
ended AS (
    DELETE FROM waits w USING unnest($24::bigint[], $25::text[]) AS d (campaign_id, key)
    WHERE w.campaign_id = d.campaign_id AND w.key = d.key
),
unset AS (
    DELETE FROM timers t USING unnest($24::bigint[], $25::text[]) AS d (campaign_id, key)
    WHERE t.campaign_id = d.campaign_id AND t.wait_key = d.key AND t.fired_at IS NULL
),
waiting AS (
    INSERT INTO waits (campaign_id, key, user_id, body, since, deadline)
    SELECT * FROM unnest($26::bigint[], $27::text[], $28::bigint[], $29::text[], $30::text[], $31::text[])
    ON CONFLICT (campaign_id, key) DO UPDATE SET user_id = EXCLUDED.user_id, body = EXCLUDED.body,
        since = EXCLUDED.since, deadline = EXCLUDED.deadline
),
timed AS (
    INSERT INTO timers (campaign_id, guild_id, channel_id, kind, wait_key, due, body)
    SELECT campaign_id, guild_id, channel_id, kind, wait_key, due, '{}'
    FROM unnest($32::bigint[], $33::bigint[], $34::bigint[], $35::text[], $36::text[], $37::bigint[])
        AS t (campaign_id, guild_id, channel_id, kind, wait_key, due)
)
SELECT (SELECT array_agg(n) FROM (SELECT n FROM moved UNION ALL SELECT n FROM checked) AS held),
       (SELECT array_agg(id) FROM born), (SELECT array_agg(campaign_id) FROM born),
       (SELECT array_agg(name_key) FROM born),
       (SELECT array_agg(id) FROM logged), (SELECT array_agg(campaign_id) FROM logged)
"""


def _arguments(actions: Sequence[ActionWrite], now: str) -> list[Any]:
    """The batch's arrays, in APPLY's parameter order."""
    ids, versions, modes, states, settings = [], [], [], [], []
    sheet_ids, sheet_owners, sheet_bodies, removed = [], [], [], []
    born_campaigns, born_owners, born_names, born_keys, born_sheets = [], [], [], [], []
    event_columns: list[list[Any]] = [[] for _ in range(8)]
    ended_campaigns, ended_keys = [], []
    wait_columns: list[list[Any]] = [[] for _ in range(6)]
    timer_columns: list[list[Any]] = [[] for _ in range(6)]
    for action in actions:
        row, mode = action.campaign, MODE_NUMBERS[action.mode]
        ids.append(row.id)
        versions.append(action.version)
        modes.append(mode)
        states.append(dumps(row.state) if mode >= 2 else None)
        settings.append(dumps(row.settings) if mode == 3 else None)
        for character_id, owner_id, sheet in action.updated:
            sheet_ids.append(character_id)
            sheet_owners.append(owner_id)
            sheet_bodies.append(dumps(sheet))
        removed.extend(action.deleted)
        for owner_id, name, sheet in action.added:
            born_campaigns.append(row.id)
            born_owners.append(owner_id)
            born_names.append(pg_text(name))
            born_keys.append(pg_text(name.casefold()))
            born_sheets.append(dumps(sheet))
        event = action.event
        for column, value in zip(
            event_columns,
            (
                row.id,
                event.actor_id,
                pg_text(event.actor_name),
                pg_text(event.command),
                pg_text(event.summary),
                dumps(event.result),
                dumps(event.snapshot) if event.snapshot is not None else None,
                event.thread_id,
            ),
            strict=True,
        ):
            column.append(value)
        for key in action.waits_ended:
            ended_campaigns.append(row.id)
            ended_keys.append(pg_text(key))
        for wait in action.waits_put:
            values = (row.id, pg_text(wait.key), wait.user_id, dumps(wait.body), wait.since, wait.deadline)
            for column, value in zip(wait_columns, values, strict=True):
                column.append(value)
        for timer in action.timers:
            values = (row.id, row.guild_id, row.channel_id, timer.kind, timer.wait_key, timer.due)
            for column, value in zip(timer_columns, values, strict=True):
                column.append(value)
    return [
        ids,
        versions,
        modes,
        states,
        settings,
        now,
        sheet_ids,
        sheet_owners,
        sheet_bodies,
        removed,
        born_campaigns,
        born_owners,
        born_names,
        born_keys,
        born_sheets,
        *event_columns,
        ended_campaigns,
        ended_keys,
        *wait_columns,
        *timer_columns,
    ]


def locking(campaign_ids: Collection[int]) -> str:
    """The statement that takes every campaign's advisory lock, in id order; sent with BEGIN in one round trip,
    so its ids are written into it (integers, nothing else)."""
    ids = ",".join(str(int(campaign_id)) for campaign_id in sorted(campaign_ids))
    return f"SELECT count(pg_advisory_xact_lock(id)) FROM unnest('{{{ids}}}'::bigint[]) AS id"


async def run_batch(
    connection: asyncpg.Connection, actions: Sequence[ActionWrite], now: str | None = None
) -> list[ActionDone | StaleCampaignError]:
    """Every action's writes in one statement, their campaigns' locks held (:func:`lock`): each action's
    :class:`ActionDone`, or the :class:`StaleCampaignError` that refuses it. If any is refused, the others' writes
    are in the transaction too: the caller rolls back and runs them again without it."""
    try:
        held, born_ids, born_campaigns, born_keys, event_ids, event_campaigns = await connection.fetchrow(
            APPLY, *_arguments(actions, now or utcnow())
        )
    except asyncpg.IntegrityConstraintViolationError as error:
        raise ConstraintError(str(error)) from None
    ok = set(held or ())
    events = dict(zip(event_campaigns or (), event_ids or (), strict=True))
    characters = dict(zip(zip(born_campaigns or (), born_keys or (), strict=True), born_ids or (), strict=True))
    outcomes: list[ActionDone | StaleCampaignError] = []
    for number, action in enumerate(actions, 1):
        row = action.campaign
        if number not in ok:
            outcomes.append(StaleCampaignError(row.id))
            continue
        added = [characters[(row.id, pg_text(name.casefold()))] for _, name, _ in action.added]
        outcomes.append(ActionDone(events[row.id], added))
    return outcomes
