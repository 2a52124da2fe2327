"""The one store the table service depends on: SQLite's (:mod:`bot.storage.sqlite`) and PostgreSQL's
(:mod:`bot.storage.postgres`) both satisfy these protocols, and a test holds each to every method.

Rows and errors are :mod:`bot.storage.rows`; a write job is plain code given a :class:`WriteTx`, run inside one
transaction (and maybe one group commit) on the store's writer; a constraint that refuses a write raises
:class:`bot.storage.rows.ConstraintError` on both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Any, Protocol, TypeVar

from bot.storage.members import Erased, MemberData
from bot.storage.rows import (
    RECAP_COUNT_CAP,
    CampaignRow,
    CharacterRow,
    EventRow,
    LogQuery,
    MacroRow,
    StoredWait,
    TimerRow,
)

T = TypeVar("T")


class Store(Protocol):
    """What the table service needs of a database; SQLite's and PostgreSQL's stores both are one."""

    @property
    def clock(self) -> Callable[[], str]:
        """ "Now" for the rows it stamps (events, campaigns, sheets, macros, exports); the service sets its own."""

    @clock.setter
    def clock(self, clock: Callable[[], str]) -> None: ...

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction, statement by statement (committed on normal exit, rolled back on any exception)."""

    async def write(self, job: Callable[[WriteTx], T]) -> T:
        """Run ``job``'s writes in a committed (group) transaction; return its result. A job that is an
        :class:`bot.storage.action.ActionWrite` (an action's writes, as data) may run with others in one statement."""

    async def check_others(self) -> bool:
        """Has another process committed since we last looked? (Also checked at every write.)"""

    @property
    def generation(self) -> int:
        """Bumped each time another process is seen to have written: cached reads are suspect."""

    @property
    def checked_at(self) -> float: ...

    def snapshot(self) -> AbstractContextManager[Callable[[str, Sequence[Any]], list[tuple]]]:
        """From a worker thread: one read-only snapshot (the export's); yields ``read(sql, parameters)``."""

    async def campaign(self, guild_id: int, channel_id: int) -> CampaignRow | None:
        """The live (not archived) campaign of a channel."""

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None: ...

    async def archived_campaigns(self, guild_id: int, channel_id: int, *, limit: int = 25) -> list[CampaignRow]:
        """This channel's ended campaigns, the most recently ended first."""

    async def live_campaigns(self, ruleset: str) -> list[CampaignRow]:
        """Every campaign of a ruleset that is not archived (for background upkeep such as timeouts)."""

    async def characters(self, campaign_id: int) -> list[CharacterRow]: ...

    async def events(self, campaign_id: int, *, limit: int, offset: int = 0) -> list[EventRow]:
        """A page of the log, newest first, from ``offset`` below the newest: a seek by event number."""

    async def event_numbered(self, campaign_id: int, number: int) -> EventRow | None:
        """The event the log shows as ``#number`` (its ``seq``): one seek, however long the log."""

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
        """A filtered log page, newest first (the unfiltered log reads :meth:`events`): up to ``limit`` matches
        numbered below ``before``, or the ``limit`` just above ``after``, after skipping the ``skip`` newest."""

    async def count_matching(self, campaign_id: int, where: LogQuery, *, limit: int) -> int:
        """How many events a filter matches, counting no further than ``limit``."""

    async def commands_seen(self, campaign_id: int, *, limit: int = 200) -> list[str]:
        """Every command the campaign's log holds, in order."""

    async def events_since_last_by(
        self, campaign_id: int, actor_id: int, *, limit: int, look_back: int = RECAP_COUNT_CAP
    ) -> tuple[list[EventRow], int]:
        """Events since ``actor_id`` last acted (among the last ``look_back``): the newest ``limit``, and the count."""

    async def macros(self, owner_id: int, campaign_id: int | None) -> list[MacroRow]:
        """The member's own macros, then the campaign's, by name."""

    async def count_events(self, campaign_id: int) -> int:
        """Kept by a trigger, so it costs one row however long the log."""

    async def waits(self, campaign_id: int) -> list[StoredWait]: ...

    async def waits_on(self, guild_id: int, user_id: int) -> list[tuple[CampaignRow, StoredWait]]:
        """Every wait of the guild's live campaigns on this member: as a player, or as a GM for GM waits."""

    async def due_timers(self, now: int, *, limit: int = 100) -> list[TimerRow]:
        """Unfired timers due by ``now`` whose campaign (if any) is live and not paused, oldest first."""

    async def timer(self, timer_id: int) -> TimerRow | None: ...

    async def reminders(self, guild_id: int, channel_id: int) -> list[TimerRow]: ...

    async def actor_names(self, after: int = 0) -> tuple[dict[int, str], int]:
        """Each actor's latest name in the log's events after id ``after``, and the newest id read: the console
        names whom it pings with these, and asks again only for what was logged since."""

    async def board(self, campaign_id: int) -> tuple[int, int] | None:
        """The campaign's board message: (channel id, message id)."""

    async def web_access(self, campaign_id: int) -> dict[int, tuple[int, str]]:
        """Who may read the campaign's web pages: member id -> (link generation, name they asked with); user 0 is
        the whole campaign's generation."""

    async def web_secret(self) -> str | None:
        """The links' signing key kept in the database (hex), if one was made."""

    async def member_timezone(self, user_id: int) -> str | None: ...

    async def member_data(self, user_id: int) -> MemberData:
        """What is kept under a member's id, for ``/privacy export`` (their log entries: :meth:`member_events`)."""

    async def member_events(self, user_id: int, *, after: int = 0, limit: int = 500) -> list[EventRow]:
        """The member's log entries in every campaign, oldest first, after row id ``after`` (a page)."""

    async def event_id_of(self, campaign_id: int, seq: int) -> int | None:
        """The row id of the campaign's event number ``seq`` (one seek of the unique index)."""

    async def undoable_since(self, campaign_id: int, event_id: int, *, limit: int) -> list[EventRow]:
        """Event ``event_id`` and every later change still in force, oldest first, at most ``limit``."""

    async def last_undoable(self, campaign_id: int) -> EventRow | None:
        """The newest action with a snapshot that no later undo has reversed."""


class WriteTx(Protocol):
    """The statements of a write job, run inside one transaction on the store's writer."""

    def insert_campaign(
        self,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        name: str,
        gm_ids: Sequence[int],
        settings: dict,
        state: dict,
    ) -> int: ...

    def set_created_at(self, campaign_id: int, created_at: str) -> None:
        """An imported campaign keeps the date it began (``/campaign import``)."""

    def update_campaign(self, campaign: CampaignRow) -> None:
        """Write the campaign back; raises StaleCampaignError if another process wrote it first."""

    def update_state(self, campaign: CampaignRow, *, with_settings: bool = False) -> None:
        """Write back an action's state (and settings, when it changed them); raises StaleCampaignError as above."""

    def touch_campaign(self, campaign: CampaignRow) -> None:
        """Claim the campaign for a write that changes only its characters: the version still moves."""

    def check_campaign(self, campaign: CampaignRow) -> None:
        """For a write that only logs: the campaign must still be live and as we read it."""

    def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int: ...

    def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None: ...

    def delete_character(self, character_id: int) -> None: ...

    def append_event(
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
        """Log one event, numbered next in its campaign (one seek of the (campaign_id, seq) index); its row id."""

    def append_events(self, campaign_id: int, events: Sequence[Sequence[Any]]) -> None:
        """Log imported events with the numbers they had: each (seq, at, actor_id, actor_name, command, summary,
        result, snapshot, undoes), result and snapshot as JSON text, ``undoes`` an earlier event's number."""

    def finish_import(self, campaign_id: int, guild_id: int, channel_id: int) -> None:
        """Move an import written hidden into its channel, live (ConstraintError: the channel has a campaign)."""

    def discard_import(self, campaign_id: int, limit: int) -> bool:
        """Delete a batch of an unfinished (hidden) import; True once it is all gone."""

    def unfinished_imports(self, before: str) -> list[int]:
        """Hidden campaigns whose import began before ``before``: what a crash left behind."""

    def save_macro(self, owner_id: int, campaign_id: int | None, name: str, expression: str) -> bool:
        """Save or replace a macro; True when it replaced one of the same name in the same scope."""

    def delete_macro(self, macro_id: int) -> None: ...

    def put_wait(
        self, campaign_id: int, key: str, user_id: int | None, body: dict, since: str, deadline: str | None
    ): ...

    def drop_wait(self, campaign_id: int, key: str) -> None:
        """The wait is over: it and its unfired timers go."""

    def add_timer(
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
    ) -> int: ...

    def claim_timer(self, timer_id: int, at: str) -> None:
        """Mark a timer fired, in the transaction of what it does: if another process (or an earlier run)"""

    def pending_reminders(self, guild_id: int, channel_id: int) -> int: ...

    def cancel_timer(self, timer_id: int, *, channel: tuple[int, int] | None = None) -> bool:
        """Delete an unfired timer (of that guild and channel, if given); False if there was none."""

    def shift_timers(self, campaign_id: int, seconds: int) -> list[tuple[int, int]]:
        """A holiday's length added to every timer of the campaign still to fire; (id, new due) of each."""

    def put_back_timers(self, timers: Sequence[tuple[int, int, int]]) -> list[int]:
        """Each (id, moved due, old due) back to its old due time, unless one of them has fired: then none."""

    def set_wait_deadline(self, campaign_id: int, key: str, deadline: str | None) -> None: ...

    def set_board(self, campaign_id: int, channel_id: int, message_id: int) -> None: ...

    def set_member_timezone(self, user_id: int, timezone: str | None) -> None: ...

    def grant_web(self, campaign_id: int, user_id: int, name: str) -> tuple[int, int]:
        """The member may open the campaign's pages; the campaign's and the member's link generations."""

    def revoke_web(self, campaign_id: int, user_id: int) -> bool:
        """Every link so far of the campaign (``user_id`` 0) or of one member stops opening; False: no such member."""

    def keep_web_secret(self, secret: str) -> str:
        """Keep this signing key unless one is kept already; the one kept."""

    def forget_member(self, user_id: int, campaign_id: int | None = None) -> Erased:
        """Erase a member in one campaign, or everywhere (:mod:`bot.storage.members`); what it changed."""


class Transaction(Protocol):
    """An async write transaction, statement by statement (``async with store.transaction() as tx``)."""

    async def insert_campaign(self, *args: Any) -> int: ...

    async def update_campaign(self, campaign: CampaignRow) -> None: ...

    async def touch_campaign(self, campaign: CampaignRow) -> None: ...

    async def check_campaign(self, campaign: CampaignRow) -> None: ...

    async def insert_character(self, campaign_id: int, owner_id: int, name: str, sheet: dict) -> int: ...

    async def update_character(self, character_id: int, owner_id: int, sheet: dict) -> None: ...

    async def delete_character(self, character_id: int) -> None: ...

    async def append_event(self, *args: Any, **kwargs: Any) -> int: ...

    async def run(self, job: Callable[[WriteTx], T]) -> T:
        """Any :class:`WriteTx` work, as one hand-off, inside this transaction."""
