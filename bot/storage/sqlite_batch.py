"""A group commit's :class:`bot.storage.action.ActionWrite` s on SQLite, in three statements whatever their number.

Run one by one, each action is two or three statements on the writer thread, and each statement hands the GIL
back and forth with the event loop: while the loop is busy, the writer waits for it at every statement (Python's
switch interval, 5 ms), so the two threads take turns instead of working side by side (issue 23's profile). Here
a whole group's actions are one JSON array each for

1. the campaigns' UPDATE with each one's version check (``check`` and ``touch`` also need the campaign live),
2. the characters' sheets they changed, and
3. the log's INSERT, each event numbered max(seq) + 1 in its campaign, its text indexed by the trigger within the
   same call, and the events' row ids known from the last one's (the writer's transaction is the only one
   writing, and SQLite gives each new row the largest row id plus one),

so SQLite does the whole group's work in three calls, the GIL released for each.

An action whose version check fails makes the batch raise :class:`StaleCampaignError`; the group rolls back and
group commit runs each job alone, as after any failure, so only that action is refused. Which actions are batched
is :func:`bot.storage.action.split`'s rule (shared with PostgreSQL's batch), narrowed to those that only change
the campaign, its characters' sheets and the log (:func:`batched`): an action that adds or removes characters,
begins or ends a wait or sets a timer runs statement by statement after the batch, in group order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from bot.storage.action import MODE_NUMBERS, ActionDone, ActionWrite
from bot.storage.rows import StaleCampaignError, dumps

CAMPAIGNS = """
UPDATE campaigns SET
    state = CASE WHEN a.mode >= 2 THEN a.state ELSE campaigns.state END,
    settings = CASE WHEN a.mode = 3 THEN a.settings ELSE campaigns.settings END,
    version = campaigns.version + (a.mode > 0)
FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS version,
             json_extract(value, '$[2]') AS mode, json_extract(value, '$[3]') AS state,
             json_extract(value, '$[4]') AS settings
      FROM json_each(?)) AS a
WHERE campaigns.id = a.id AND campaigns.version = a.version AND (a.mode >= 2 OR campaigns.archived_at IS NULL)
"""
SHEETS = """
UPDATE characters SET owner_id = c.owner_id, sheet = c.sheet, updated_at = ?
FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS owner_id,
             json_extract(value, '$[2]') AS sheet
      FROM json_each(?)) AS c
WHERE characters.id = c.id
"""
EVENTS = """
INSERT INTO events
    (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, thread_id, seq)
SELECT e.campaign_id, ?1, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot,
       e.thread_id, coalesce((SELECT max(seq) FROM events x WHERE x.campaign_id = e.campaign_id), 0) + 1
FROM (SELECT key, json_extract(value, '$[0]') AS campaign_id, json_extract(value, '$[1]') AS actor_id,
             json_extract(value, '$[2]') AS actor_name, json_extract(value, '$[3]') AS command,
             json_extract(value, '$[4]') AS summary, json_extract(value, '$[5]') AS result,
             json_extract(value, '$[6]') AS snapshot, json_extract(value, '$[7]') AS thread_id
      FROM json_each(?2)) AS e
ORDER BY e.key
"""


def batched(action: ActionWrite) -> bool:
    """Can this batch write everything the action writes? Only its campaign, the sheets it changed and its event:
    no code to run (``also``), no characters added or removed, no waits or timers. And no NUL in the event's
    text columns: SQLite's ``json_extract`` ends a string at one (the JSON columns escape theirs as ``\\u0000``)."""
    event = action.event
    return (
        action.also is None
        and not (action.added or action.deleted or action.waits_ended or action.waits_put or action.timers)
        and "\x00" not in event.summary
        and "\x00" not in event.actor_name
        and "\x00" not in event.command
    )


Encoded = tuple[str, str, str]  # an action's elements of the three arrays: its campaign, its sheets, its event


def encode(action: ActionWrite) -> Encoded:
    """The action's elements of the batch's three JSON arrays (its campaign, its sheets joined, its event). The
    writer calls this on the event loop as the action is queued (:meth:`bot.storage.writer.Writer._prepare`): the
    writer thread then only joins strings, and holds the GIL the busy loop also wants for less time (issue 23)."""
    row, mode = action.campaign, MODE_NUMBERS[action.mode]
    state = dumps(row.state) if mode >= 2 else None
    campaign = dumps((row.id, action.version, mode, state, dumps(row.settings) if mode == 3 else None))
    sheets = ",".join([dumps((character_id, owner, dumps(sheet))) for character_id, owner, sheet in action.updated])
    event = action.event
    snapshot = dumps(event.snapshot) if event.snapshot is not None else None
    logged = (row.id, event.actor_id, event.actor_name, event.command, event.summary, dumps(event.result), snapshot)
    return campaign, sheets, dumps((*logged, event.thread_id))


def run_batch(db: sqlite3.Connection, actions: Sequence[ActionWrite], now: str) -> list[ActionDone]:
    """Every action's writes, inside the writer's open transaction. Raises :class:`StaleCampaignError` (the caller
    rolls back) if any action's version check fails."""
    encoded: list[Encoded] = [action.encoded for action in actions]  # Writer._prepare's, made as each queued
    campaigns = ",".join([campaign for campaign, _, _ in encoded])
    if db.execute(CAMPAIGNS, (f"[{campaigns}]",)).rowcount != len(actions):
        raise StaleCampaignError(actions[0].campaign.id)  # which one: each retried alone finds it
    sheets = ",".join([sheets for _, sheets, _ in encoded if sheets])
    if sheets:
        db.execute(SHEETS, (now, f"[{sheets}]"))
    events = ",".join([event for _, _, event in encoded])
    last = db.execute(EVENTS, (now, f"[{events}]")).lastrowid
    first = last - len(actions) + 1  # one writer, rows inserted in order: each next row id is the largest plus one
    return [ActionDone(first + number, []) for number in range(len(actions))]
