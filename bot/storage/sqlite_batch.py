"""A group commit's :class:`bot.storage.action.ActionWrite` s on SQLite, in one statement whatever their number.

Every SQLite call the writer thread makes releases the GIL, and to go on it must take the GIL back from the busy
event loop: a wait of Python's switch interval and two thread wake-ups, paid by both threads, for each statement
that runs long enough for the loop to take it meanwhile (issue 23: 200-260 µs each at saturation, three a group).
So a whole group's actions go in as one ``INSERT`` of a JSON array (one element per action, made on the loop by
:func:`encode`) into a TEMP view, whose INSTEAD OF trigger does each action's writes in order:

1. its campaign's UPDATE with the version check (``check`` and ``touch`` also need the campaign live), refusing
   the whole statement (``RAISE(ABORT)``) if it changed no row,
2. the characters' sheets it changed, and
3. its log entry, numbered max(seq) + 1 in its campaign, its text indexed by the log's own trigger, its row id
   kept in a TEMP table: the group's events have consecutive row ids (the writer's statement is the only one
   writing, and SQLite gives each new row the largest row id plus one), so the last one numbers them all.

When a group holds nothing else, that one statement is its whole transaction (the writer runs it outside BEGIN:
SQLite commits it as it ends), so BEGIN, the UPDATEs, the INSERT and COMMIT are one call. The TEMP objects are the
writing connection's own (:func:`prepare`): nothing in the database file changes, and no migration is needed.

An action whose version check fails makes the batch raise :class:`StaleCampaignError`; the group is undone and
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

STALE = "stale campaign"  # the trigger's refusal (a RAISE message may not hold an apostrophe)
PREPARE = (
    """CREATE TEMP VIEW IF NOT EXISTS batch_actions (campaign_id, version, mode, state, settings, sheets, at,
           actor_id, actor_name, command, summary, result, snapshot, thread_id)
       AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL""",
    "CREATE TEMP TABLE IF NOT EXISTS batch_last_event (one INTEGER PRIMARY KEY CHECK (one = 1), id INTEGER)",
    f"""CREATE TEMP TRIGGER IF NOT EXISTS batch_action INSTEAD OF INSERT ON batch_actions BEGIN
        UPDATE campaigns SET
            state = CASE WHEN NEW.mode >= 2 THEN NEW.state ELSE state END,
            settings = CASE WHEN NEW.mode = 3 THEN NEW.settings ELSE settings END,
            version = version + (NEW.mode > 0)
        WHERE id = NEW.campaign_id AND version = NEW.version AND (NEW.mode >= 2 OR archived_at IS NULL);
        SELECT RAISE(ABORT, '{STALE}') WHERE changes() = 0;
        UPDATE characters SET
            (owner_id, sheet) = (SELECT json_extract(value, '$[1]'), json_extract(value, '$[2]')
                                 FROM json_each(NEW.sheets) WHERE json_extract(value, '$[0]') = characters.id),
            updated_at = NEW.at
        WHERE NEW.sheets IS NOT NULL AND id IN (SELECT json_extract(value, '$[0]') FROM json_each(NEW.sheets));
        INSERT INTO events
            (campaign_id, at, actor_id, actor_name, command, summary, result, snapshot, thread_id, seq)
        VALUES (NEW.campaign_id, NEW.at, NEW.actor_id, NEW.actor_name, NEW.command, NEW.summary, NEW.result,
                NEW.snapshot, NEW.thread_id,
                coalesce((SELECT max(seq) FROM events x WHERE x.campaign_id = NEW.campaign_id), 0) + 1);
        INSERT OR REPLACE INTO batch_last_event (one, id) VALUES (1, last_insert_rowid());
    END""",
)
ACTIONS = """
INSERT INTO batch_actions
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
       json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), ?1,
       json_extract(value, '$[6]'), json_extract(value, '$[7]'), json_extract(value, '$[8]'),
       json_extract(value, '$[9]'), json_extract(value, '$[10]'), json_extract(value, '$[11]'),
       json_extract(value, '$[12]')
FROM json_each(?2)
ORDER BY key
"""
# the batch's last event, and whether another process has committed since the writer last looked: one call
AFTER = "SELECT (SELECT id FROM batch_last_event), (SELECT data_version FROM pragma_data_version)"


def prepare(db: sqlite3.Connection) -> None:
    """The batch's TEMP view, trigger and table on this connection (each connection its own; they go with it)."""
    for statement in PREPARE:
        db.execute(statement)


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


def encode(action: ActionWrite) -> str:
    """The action's element of the batch's JSON array. The writer calls this on the event loop as the action is
    queued (:meth:`bot.storage.writer.Writer._prepare`): the writer thread then only joins strings, and holds the
    GIL the busy loop also wants for less time (issue 23)."""
    row, mode, event = action.campaign, MODE_NUMBERS[action.mode], action.event
    return dumps(
        (
            row.id,
            action.version,
            mode,
            dumps(row.state) if mode >= 2 else None,
            dumps(row.settings) if mode == 3 else None,
            [(character_id, owner, dumps(sheet)) for character_id, owner, sheet in action.updated] or None,
            event.actor_id,
            event.actor_name,
            event.command,
            event.summary,
            dumps(event.result),
            dumps(event.snapshot) if event.snapshot is not None else None,
            event.thread_id,
        )
    )


def run_batch(db: sqlite3.Connection, actions: Sequence[ActionWrite], now: str) -> tuple[list[ActionDone], int]:
    """Every action's writes in one statement: committed as it ends when the writer runs it outside a transaction,
    else part of the writer's open one. Each action's result, and the connection's ``data_version`` just after (read
    in the same call as the event ids: every call costs the writer a hand-off of the GIL). Raises
    :class:`StaleCampaignError` (nothing of it written) if any action's version check fails."""
    elements = ",".join([action.encoded for action in actions])  # Writer._prepare's, made as each queued
    try:
        db.execute(ACTIONS, (now, f"[{elements}]"))
    except sqlite3.IntegrityError as error:
        if str(error) == STALE:
            raise StaleCampaignError(actions[0].campaign.id) from None  # which one: each retried alone finds it
        raise
    last, data_version = db.execute(AFTER).fetchone()
    first = last - len(actions) + 1  # one writer, rows inserted in order: each next row id is the largest plus one
    return [ActionDone(first + number, []) for number in range(len(actions))], data_version
