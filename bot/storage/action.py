"""One action's writes as data: :class:`ActionWrite`, the shape of nearly every write the table service makes.

An action (``/tally add``, ``/runic cast``, a ``/roll`` logged in a campaign) writes the same few things each
time: the campaign's state (and settings), or only a claim on its version, or only a check of it; the characters
it changed, removed or added; one log entry; the waits it began or ended and their timers. Said as data rather
than as code, a store can run many of them at once: PostgreSQL runs a whole group commit of them in a handful of
statements (:mod:`bot.storage.postgres.batch`). An ActionWrite is also an ordinary write job (call it with a
:class:`bot.storage.protocol.WriteTx`), which is how SQLite runs it, statement by statement as before, and how
PostgreSQL runs the few it does not batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.storage.rows import CampaignRow, StoredWait

Mode = Literal["check", "touch", "state", "settings"]
# each mode as a number, for a batch's SQL: above 0 moves the version, from 2 writes the state, 3 the settings too
MODE_NUMBERS: dict[str, int] = {"check": 0, "touch": 1, "state": 2, "settings": 3}


@dataclass(slots=True)  # not frozen: a frozen init sets each field through object.__setattr__, 5x the cost (issue 23)
class EventWrite:
    """The action's log entry (see :meth:`bot.storage.protocol.WriteTx.append_event`); never changed once made."""

    actor_id: int
    actor_name: str
    command: str
    summary: str
    result: dict
    snapshot: dict | None = None
    thread_id: int | None = None


@dataclass(frozen=True)
class TimerWrite:
    """A timer a new wait sets (its nudge or its deadline)."""

    kind: str
    due: int
    wait_key: str | None


@dataclass(slots=True)  # made for every action on the writer thread: not frozen, as EventWrite
class ActionDone:
    """What an action's write made: its event's row id, and the ids of the characters it added, in order."""

    event_id: int
    added: list[int]


@dataclass(eq=False)
class ActionWrite:
    """Everything one action writes, in one transaction.

    ``mode`` says what happens to the campaign row, each refusing the write (:class:`StaleCampaignError`) if the
    campaign is no longer at ``version``: ``state`` writes its state, ``settings`` its state and settings,
    ``touch`` only moves its version (an action that changed only characters), ``check`` moves nothing (an action
    that only logs) and also refuses an archived campaign, as ``touch`` does. On success the store sets
    ``campaign.version`` to the version the campaign now has.

    ``also`` is more work in the same transaction (a timer's claim, so it fires exactly once), run after the log
    entry and before the waits; a store runs an ActionWrite with one statement by statement.
    """

    campaign: CampaignRow
    version: int
    mode: Mode
    event: EventWrite
    updated: list[tuple[int, int, dict]] = field(default_factory=list)  # (character id, owner id, sheet)
    deleted: list[int] = field(default_factory=list)  # character ids
    added: list[tuple[int, str, dict]] = field(default_factory=list)  # (owner id, name, sheet)
    waits_ended: list[str] = field(default_factory=list)
    waits_put: list[StoredWait] = field(default_factory=list)
    timers: list[TimerWrite] = field(default_factory=list)
    also: Callable[[Any], None] | None = None
    encoded: Any = None  # a store's own encoding of it, made on the event loop as it queues

    @property
    def batchable(self) -> bool:
        """Can a store run this as data, with others in one statement? Not with ``also`` (code), nor when it both
        removes and adds characters (one added may take a removed one's name: the removal must land first)."""
        return self.also is None and not (self.deleted and self.added)

    def __call__(self, tx: Any) -> ActionDone:
        """Statement by statement on a :class:`bot.storage.protocol.WriteTx`, as any write job."""
        campaign = self.campaign
        campaign.version = self.version  # a write retried after a failed group expects the same version again
        if self.mode in ("state", "settings"):
            tx.update_state(campaign, with_settings=self.mode == "settings")
        elif self.mode == "touch":
            tx.touch_campaign(campaign)
        else:
            tx.check_campaign(campaign)
        for character_id, owner_id, sheet in self.updated:
            tx.update_character(character_id, owner_id, sheet)
        for character_id in self.deleted:
            tx.delete_character(character_id)
        added = [tx.insert_character(campaign.id, owner_id, name, sheet) for owner_id, name, sheet in self.added]
        event = self.event
        event_id = tx.append_event(
            campaign.id,
            event.actor_id,
            event.actor_name,
            event.command,
            event.summary,
            event.result,
            event.snapshot,
            thread_id=event.thread_id,
        )
        if self.also is not None:  # first: ending the wait below deletes its unfired timers
            self.also(tx)
        for key in self.waits_ended:
            tx.drop_wait(campaign.id, key)
        for wait in self.waits_put:
            tx.put_wait(campaign.id, wait.key, wait.user_id, wait.body, wait.since, wait.deadline)
        for timer in self.timers:
            tx.add_timer(
                campaign.id, campaign.guild_id, campaign.channel_id, timer.kind, timer.due, {}, wait_key=timer.wait_key
            )
        return ActionDone(event_id, added)


@dataclass
class Split:
    """A group's jobs: the actions to batch (by their index in the group), and the rest, in order."""

    batch: list[tuple[int, ActionWrite]] = field(default_factory=list)
    others: list[int] = field(default_factory=list)


def split(jobs: Sequence[Any], accepts: Callable[[ActionWrite], bool] = lambda action: action.batchable) -> Split:
    """Which jobs of a group a store runs as one batch (PostgreSQL's :mod:`bot.storage.postgres.batch`, SQLite's
    :mod:`bot.storage.sqlite_batch`): each campaign's first action the store ``accepts``, if no job before it in
    the group was of the same campaign; the rest run statement by statement, in group order, after the batch."""
    found = Split()
    seen: set[int] = set()
    for index, job in enumerate(jobs):
        if isinstance(job, ActionWrite):
            campaign_id = job.campaign.id
            if campaign_id not in seen and accepts(job):
                found.batch.append((index, job))
            else:
                found.others.append(index)
            seen.add(campaign_id)
        else:
            found.others.append(index)
    return found


def settled(action: ActionWrite) -> None:
    """After a batch's commit: the campaign row now has the version its write gave it."""
    action.campaign.version = action.version + (0 if action.mode == "check" else 1)
