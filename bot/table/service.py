"""The table service: every action, from Discord or the console, goes through here.

For one action it takes the channel's lock, loads the campaign, runs the
ruleset's pure action, then saves the state, the characters and the log entry
in one transaction, and only then returns the result to be shown. If anything
raises, the transaction rolls back and the cached copy is left as it was.
"""

from __future__ import annotations

import asyncio
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.storage.action import ActionWrite, EventWrite, Mode, TimerWrite
from bot.storage.protocol import Store, Transaction, WriteTx
from bot.storage.rows import (
    CampaignRow,
    CharacterRow,
    ConstraintError,
    EventRow,
    StaleCampaignError,
    StoredWait,
    utcnow,
)
from bot.table import sealing, secrecy
from bot.table import snapshot as snapshots
from bot.table.delta import reverse_delta
from bot.table.pbp import Ping, WaitPlan, apply_plan, pings_for, plan_waits, unshift_for_undo, updated_waits
from bot.table.registry import Registry
from bot.table.turns import turn_waits
from rules.base import (
    Actor,
    Card,
    CharacterRecord,
    NeedsGMError,
    Outcome,
    RuleError,
    Secrecy,
    Table,
    Wait,
    plain_error,
    sheet_parts,
    stored_sheet,
)
from rules.text import clip

T = TypeVar("T")

CACHE_SIZE = 2048


@dataclass(frozen=True)
class Place:
    """Where an action happens. Campaigns are keyed by (guild, channel); a DM has guild 0.

    In a thread (or a forum post), ``channel_id`` is its parent and ``thread_id`` the thread: the thread
    plays in its parent's campaign, unless a GM started one only for the thread (then that one is home).
    ``thread_id`` takes no part in equality, so a thread's place is its parent's for locks and caches.
    """

    guild_id: int
    channel_id: int
    thread_id: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Caller:
    """Who asked, as Discord (or the console) vouches for them."""

    user_id: int
    name: str
    manages_guild: bool = False


@dataclass
class Campaign:
    """A campaign as loaded: its row and its characters keyed by casefolded name."""

    row: CampaignRow
    characters: dict[str, CharacterRow] = field(default_factory=dict)
    waits: dict[str, StoredWait] = field(default_factory=dict)  # who the table waits on, by key

    def is_gm(self, caller: Caller) -> bool:
        return caller.manages_guild or caller.user_id in self.row.gm_ids


@dataclass
class Reply:
    """An outcome plus where its secret part must go."""

    outcome: Outcome
    campaign: CampaignRow | None = None
    event_id: int | None = None
    pings: list[Ping] = field(default_factory=list)  # the waits this action opened: exactly these users hear it
    seal: sealing.Posted | None = None  # a secret result's commitment: the channel reads it (bot/table/sealing.py)


class NoCampaignError(RuleError):
    pass


class ConcurrentChangeError(RuleError):
    """Another process changed the campaign while this one retried too: say so rather than guess."""


class ConfirmFirstError(RuleError):
    """A ruleset action asks first in this state (``Action.confirm``): nothing ran. The adapter shows the question
    with Confirm, which runs the same action with ``confirm:true``; anywhere else it reads as a plain refusal."""

    def __init__(
        self, question: str, ruleset: str, action: str, options: dict[str, Any], campaign: CampaignRow
    ) -> None:
        super().__init__(f"{question} To go ahead, run it again with `confirm:true`.")
        self.question, self.ruleset, self.action, self.options = question, ruleset, action, options
        self.campaign = campaign


class ConfirmUndoError(RuleError):
    """`/campaign undo` would revert a change that is not the caller's own newest action: nothing ran. ``later``
    holds (at most a few of) the events after it that make it so, newest first; ``after`` counts them all."""

    def __init__(self, target: EventRow, later: list[EventRow], after: int, campaign: CampaignRow) -> None:
        super().__init__(
            f"#{target.seq} is not your own newest action: undo it with the Confirm button of `/campaign undo`."
        )
        self.target, self.later, self.after, self.campaign = target, later, after, campaign


FRESHNESS = 0.1  # seconds a cached campaign is trusted before looking for another process's writes


class TableService:
    def __init__(self, store: Store, registry: Registry, rng: random.Random | None = None) -> None:
        self.store = store
        self.registry = registry
        self.rng = rng or random.Random()
        # a channel's lock lives while someone holds or waits on it, then goes: a bot in 10,000 channels keeps
        # locks only for the few acting now (python-discord's bot/utils/lock.py does the same)
        self._locks: weakref.WeakValueDictionary[Place, asyncio.Lock] = weakref.WeakValueDictionary()
        # ...and the last few thousand stay a while (emptied whole when full): a busy channel's next action finds
        # its lock instead of making one (issue 23: a new lock and its weak entry per action, ~3 µs each)
        self._recent_locks: dict[Place, asyncio.Lock] = {}
        self.locks_kept = CACHE_SIZE
        self._cache: OrderedDict[Place, Campaign] = OrderedDict()
        self.clock = utcnow  # replaceable (tests, the console's virtual clock): the store stamps rows with it too
        self._generation = store.generation
        self._homes: dict[tuple[int, int], Place] = {}  # (guild, thread) -> the place whose campaign it plays in
        self._actors: dict[tuple[int, str, bool], Actor] = {}  # frozen, so one per caller serves every table

    # ------------------------------------------------------------------ plumbing

    @property
    def clock(self) -> Callable[[], str]:
        """ "Now", as an ISO time: timers and deadlines run by it, and the store stamps the log with it."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], str]) -> None:
        self._clock = clock
        self.store.clock = clock  # one clock: the log shows the times deadlines are judged by

    def home(self, place: Place) -> Place:
        """The place whose campaign an action here uses: a thread's own (thread-only) campaign, or its parent's.

        Known after :meth:`campaign` (or :meth:`locked`) has looked once; until then, the place as given.
        """
        if place.thread_id is None:
            return place
        return self._homes.get((place.guild_id, place.thread_id), place)

    async def _find_home(self, place: Place) -> Place:
        if place.thread_id is None:
            return place
        key = (place.guild_id, place.thread_id)
        if key not in self._homes:
            own = await self.store.campaign(place.guild_id, place.thread_id)
            self._homes[key] = Place(place.guild_id, place.thread_id, place.thread_id) if own else place
        return self._homes[key]

    def lock(self, place: Place) -> asyncio.Lock:
        place = self.home(place)
        # a recent lock is alive (held here), so it is the one _locks has: a dict look-up, not the weak one's
        lock = self._recent_locks.get(place)
        if lock is not None:
            return lock
        lock = self._locks.get(place)
        if lock is None:
            lock = self._locks[place] = asyncio.Lock()
            if len(self._recent_locks) >= self.locks_kept:
                self._recent_locks.clear()  # a lock held or awaited lives on in _locks: only idle ones go
            self._recent_locks[place] = lock
        return lock

    async def campaign(self, place: Place) -> Campaign | None:
        """The live campaign of a channel (cached; the cache only ever holds committed data).

        Another process may share the database: if it wrote since we last looked (checked at most
        every FRESHNESS seconds, and at every write), the whole cache goes. Writes never rely on
        this: each checks the campaign's version.
        """
        cached = self._cached(place)
        if cached is not None:
            return cached
        if time.monotonic() - self.store.checked_at > FRESHNESS:
            await self.store.check_others()
        if self.store.generation != self._generation:
            self._generation = self.store.generation
            self._cache.clear()
            self._homes.clear()
        if place.thread_id is not None:
            place = await self._find_home(place)
        cached = self._cache.get(place)
        if cached is not None:
            self._cache.move_to_end(place)
            return cached
        row = await self.store.campaign(place.guild_id, place.channel_id)
        if row is None:
            return None
        characters = {c.name.casefold(): c for c in await self.store.characters(row.id)}
        waits = {w.key: w for w in await self.store.waits(row.id)}
        loaded = Campaign(row, characters, waits)
        self._remember(place, loaded)
        return loaded

    def _cached(self, place: Place) -> Campaign | None:
        """:meth:`campaign` without a coroutine, when the cached copy may be trusted as it is (recently checked,
        nothing written by another process since, the place's home known): None when it takes a look first."""
        if time.monotonic() - self.store.checked_at > FRESHNESS or self.store.generation != self._generation:
            return None
        if place.thread_id is not None:
            home = self._homes.get((place.guild_id, place.thread_id))
            if home is None:
                return None
            place = home
        cached = self._cache.get(place)
        if cached is not None:
            self._cache.move_to_end(place)
        return cached

    def _remember(self, place: Place, campaign: Campaign | None) -> None:
        place = self.home(place)
        if campaign is None:
            self._cache.pop(place, None)
            return
        self._cache[place] = campaign
        self._cache.move_to_end(place)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def forget(self, place: Place) -> None:
        self._cache.pop(self.home(place), None)
        if place.thread_id is not None:
            self._homes.pop((place.guild_id, place.thread_id), None)

    async def require_campaign(self, place: Place) -> Campaign:
        campaign = await self.campaign(place)
        if campaign is None:
            raise NoCampaignError(
                "There is no campaign in this channel. A GM can start one with "
                f"`/campaign start ruleset:<{'|'.join(self.registry.ids()) or 'ruleset'}> name:<text>`."
            )
        return campaign

    async def locked(self, place: Place, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` under the channel lock; retry once if another process wrote first.

        A refusal is retried too when another process has written since we loaded: the
        character it names may be one that process just created.
        """
        if place.thread_id is not None:
            await self._find_home(place)
        lock = self.lock(place)
        await lock.acquire()  # not ``async with``: two coroutines less per action (issue 23)
        try:
            for attempt in range(2):
                try:
                    return await work()
                except StaleCampaignError:
                    self.forget(place)
                except RuleError:
                    if attempt or not await self.store.check_others():
                        raise
            raise ConcurrentChangeError(
                "Another Magister process changed this campaign at the same moment, twice; "
                "nothing was saved. Please try again."
            )
        finally:
            lock.release()

    # ------------------------------------------------------------------ ruleset actions

    async def run(self, place: Place, caller: Caller, ruleset_id: str, action_name: str, options: dict) -> Reply:
        """Run one ruleset action atomically."""
        return await self.locked(place, lambda: self._run(place, caller, ruleset_id, action_name, options))

    async def run_as_timer(
        self,
        place: Place,
        caller: Caller,
        action_name: str,
        options: dict,
        *,
        also: Callable[[WriteTx], None],
        by_order: bool = False,
    ) -> Reply:
        """A wait's ``on_deadline`` action (as the GM), or a standing order's (``by_order``: as its player, logged
        "by standing order"), with the timer's claim in its transaction. The caller holds the lock."""
        campaign = await self.require_campaign(place)
        return await self._run(place, caller, campaign.row.ruleset, action_name, options, also=also, by_order=by_order)

    async def _run(
        self,
        place: Place,
        caller: Caller,
        ruleset_id: str,
        action_name: str,
        options: dict,
        *,
        also: Callable[[WriteTx], None] | None = None,
        by_order: bool = False,
    ) -> Reply:
        campaign = self._cached(place) or await self.require_campaign(place)
        if campaign.row.ruleset != ruleset_id:
            raise RuleError(
                f"This channel's campaign uses the {campaign.row.ruleset} ruleset, not {ruleset_id}. "
                f"Use the `/{campaign.row.ruleset}` commands here."
            )
        ruleset = self.registry.get(ruleset_id).ruleset
        action = ruleset.actions.get(action_name)
        if action is None:
            known = ", ".join(sorted(ruleset.actions))
            raise RuleError(f"/{ruleset_id} has no action {action_name!r}. Actions: {known}.")
        command = f"{ruleset_id} {action_name}"
        if action.gm_only and not campaign.is_gm(caller):
            raise NeedsGMError(f"`/{command}`")
        if action.undo:
            target = await self.store.last_undoable(campaign.row.id)
            if not options.get("confirm"):
                await self._ask_before_undoing(campaign, caller, ruleset_id, action_name, target)
            reply, _ = await self._undo(place, caller, campaign, only=f"{ruleset_id} ", command=command, target=target)
            return reply
        refuse_blank(options, f"/{command}")
        parsed = validate(action.options, options, f"/{command}")
        if action.confirm is not None and not getattr(parsed, "confirm", False):
            question = action.confirm(self.table_for(campaign, caller), parsed)
            if question:
                given = {key: value for key, value in options.items() if value is not None and key != "confirm"}
                raise ConfirmFirstError(question, ruleset_id, action_name, given, campaign.row)

        def run(table: Table) -> Outcome:
            outcome = action.run(table, parsed)
            return by_standing_order(outcome) if by_order else outcome

        return await self._act(
            place,
            campaign,
            caller,
            command,
            run,
            logged=action.logged,
            also=also,
            secrecy=(action.secrecy, parsed),
        )

    async def act(
        self, place: Place, caller: Caller, command: str, run: Callable[[Table], Outcome], *, gm_only: bool = False
    ) -> Reply:
        """Run a pure function over the channel's table, whatever its ruleset (``/character delete``...)."""

        async def work() -> Reply:
            campaign = await self.require_campaign(place)
            if gm_only and not campaign.is_gm(caller):
                raise NeedsGMError(f"`/{command}`")
            return await self._act(place, campaign, caller, command, run)

        return await self.locked(place, work)

    def waits_of(self, row: CampaignRow, table: Table) -> list[Wait]:
        """Everyone the table waits on: the ruleset's waits, and the /turn tracker's current turn."""
        return [*self.registry.get(row.ruleset).ruleset.waits(table), *turn_waits(row, table.characters)]

    def table_for(self, campaign: Campaign, caller: Caller) -> Table:
        """The ruleset's view of a campaign: validated models, copies the action may change freely."""
        loaded = self.registry.get(campaign.row.ruleset)
        ruleset = loaded.ruleset
        return Table(
            ruleset_id=ruleset.id,
            campaign_name=campaign.row.name,
            actor=self._actor(caller, campaign.is_gm(caller)),
            rng=self.rng,
            book=loaded.book,
            settings=ruleset.settings_model.model_validate(campaign.row.settings),
            state=ruleset.state_model.model_validate(campaign.row.state),
            characters={key: _record(ruleset.sheet_model, row) for key, row in campaign.characters.items()}
            if campaign.characters
            else {},
            now=self.clock(),
        )

    def _actor(self, caller: Caller, is_gm: bool) -> Actor:
        """The caller as an action sees them: made once (validating one costs ~1 µs per action), kept while recent."""
        key = (caller.user_id, caller.name, is_gm)
        actor = self._actors.get(key)
        if actor is None:
            if len(self._actors) >= CACHE_SIZE:
                self._actors.clear()
            actor = self._actors[key] = Actor(user_id=caller.user_id, name=caller.name, is_gm=is_gm)
        return actor

    async def _act(
        self,
        place: Place,
        campaign: Campaign,
        caller: Caller,
        command: str,
        run: Callable[[Table], Outcome],
        *,
        logged: bool = True,
        also: Callable[[WriteTx], None] | None = None,
        secrecy: tuple[Secrecy, Any] | None = None,
    ) -> Reply:
        table = self.table_for(campaign, caller)
        try:
            outcome = run(table)
        except ValidationError as exc:  # the action set a value its model forbids: valid input, impossible result
            raise RuleError(
                f"`/{command}` would take a value out of its range ({_problems(exc)}). Nothing was changed."
            ) from None
        outcome, readers = self._kept(campaign, table, command, outcome, secrecy)
        made = sealing.seal(outcome)
        event_id, plan, row = await self._persist(
            place, campaign, caller, command, table, outcome, logged=logged, also=also, readers=readers, made=made
        )
        if event_id is None:  # a view (nothing changed, nothing logged): only what its reader may see
            outcome = self._viewed(campaign, caller, run, outcome)
        posted = None if made is None else await self._posted(row.id, event_id, made)
        return Reply(outcome, row, event_id, pings_for(row, plan) if plan.new else [], posted)

    async def _posted(self, campaign_id: int, event_id: int | None, made: sealing.Seal | None) -> sealing.Posted | None:
        """A sealed result's commitment as the channel reads it: its event's number and time, read back (the store
        numbers an event as it writes it)."""
        if made is None or event_id is None:
            return None
        for limit in (1, SCAN_PAGE):  # under the lock ours is the newest, unless another process wrote since
            for event in await self.store.events(campaign_id, limit=limit):
                if event.id == event_id:
                    return sealing.Posted(event.seq, made.sha256, event.at)
        return None

    def _kept(
        self, campaign: Campaign, table: Table, command: str, outcome: Outcome, declared: tuple[Secrecy, Any] | None
    ) -> tuple[Outcome, list[int]]:
        """The result with what its ruleset declares private or secret off its public side (``bot/table/secrecy.py``),
        and who besides the GMs reads its private side."""
        ruleset = self.registry.get(campaign.row.ruleset).ruleset
        action_secrecy, options = declared if declared is not None else (None, None)
        if not (action_secrecy or ruleset.private_fields or outcome.has_private):
            return outcome, []
        before = {key: secrecy.Sheet(row.name, row.owner_id, row.sheet) for key, row in campaign.characters.items()}
        after = {
            key: secrecy.Sheet(record.name, record.owner_id, _dump(record.sheet))
            for key, record in table.characters.items()
        }
        outcome = secrecy.enforce(
            outcome,
            command=command,
            secrecy=action_secrecy,
            options=options,
            fields=ruleset.private_fields,
            before=before,
            after=after,
        )
        if not outcome.has_private:
            return outcome, []
        return outcome, secrecy.readers(table.actor.user_id, table.actor.is_gm, before, after)

    def _viewed(self, campaign: Campaign, caller: Caller, run: Callable[[Table], Outcome], outcome: Outcome) -> Outcome:
        """A view as its reader may see it: the actor (ephemeral), or everyone (posted in the channel)."""
        ruleset = self.registry.get(campaign.row.ruleset).ruleset
        if not ruleset.private_fields:
            return outcome
        table = self.table_for(campaign, caller)  # the action ran on a copy: draw it again from a fresh one
        reader = secrecy.Reader(caller.user_id, campaign.is_gm(caller))
        return secrecy.guard_view(run, table, ruleset, reader, outcome)

    async def _persist(
        self,
        place: Place,
        campaign: Campaign,
        caller: Caller,
        command: str,
        table: Table,
        outcome: Outcome,
        *,
        logged: bool = True,
        also: Callable[[WriteTx], None] | None = None,
        readers: list[int] | None = None,
        made: sealing.Seal | None = None,
    ) -> tuple[int | None, WaitPlan, CampaignRow]:
        """Save what the action changed, with an undo snapshot and the table's new waits, then update the cache;
        the event's id (None when nothing was saved), the wait plan, and the campaign's row as it now stands.

        ``also`` writes more in the same transaction (a timer's claim, so it fires exactly once); ``made``: the
        result's seal, logged with it.
        """
        new_state = _dump(table.state)
        new_settings = _dump(table.settings)
        settings_changed = new_settings != campaign.row.settings
        state_changed = settings_changed or new_state != campaign.row.state
        # most actions change only the state: no comprehension, copy or delta is made for what did not change
        removed = {name.casefold() for name in table.removed} if table.removed else ()
        changed: list[tuple[CharacterRow, dict]] = []
        for key, record in table.characters.items():
            old = campaign.characters.get(key)
            if old is None or key in removed:
                continue
            sheet = _stored(record)
            if sheet != old.sheet or record.owner_id != old.owner_id:
                changed.append((old, sheet))
        added = (
            [(record, _stored(record)) for record in table.added if record.name.casefold() in table.characters]
            if table.added
            else []
        )
        deleted = [campaign.characters[key] for key in removed if key in campaign.characters] if removed else []
        characters_changed = bool(changed or added or deleted)

        snapshot = None
        if state_changed or characters_changed:
            snapshot = {
                "state_delta": reverse_delta(campaign.row.state, new_state),
                "settings_delta": reverse_delta(campaign.row.settings, new_settings) if settings_changed else [],
                "characters": [_character_snapshot(old) for old, _ in changed]
                + [_character_snapshot(old) for old in deleted]
                + [{"name": record.name, "before": None} for record, _ in added]
                if characters_changed
                else [],
            }

        if snapshot is None and not logged and also is None:
            return None, WaitPlan(), campaign.row  # a pure read: nothing to save, nothing worth a log line
        new_row = _copy_row(campaign.row, state=new_state, settings=new_settings)
        if snapshot is not None:  # only a change can change whom the table waits on
            plan = plan_waits(campaign.row, campaign.waits, self.waits_of(campaign.row, table), table.now)
        else:
            plan = WaitPlan()

        if state_changed:
            mode: Mode = "settings" if settings_changed else "state"
        else:
            mode = "touch" if characters_changed else "check"
        action = ActionWrite(
            new_row,
            new_row.version,
            mode,
            EventWrite(
                caller.user_id,
                caller.name,
                command,
                outcome.summary,
                _logged(outcome, readers or (), made),
                snapshot,
                place.thread_id,
            ),
            updated=[(old.id, table.characters[old.name.casefold()].owner_id, sheet) for old, sheet in changed]
            if changed
            else [],
            deleted=[old.id for old in deleted] if deleted else [],
            added=[(record.owner_id, record.name, sheet) for record, sheet in added] if added else [],
            waits_ended=list(plan.ended),
            waits_put=plan.new + plan.reworded,
            timers=[TimerWrite(timer.kind, timer.due, timer.wait_key) for timer in plan.timers] if plan.timers else [],
            also=also,
        )
        done = await self.store.write(action)
        # the cache's characters and waits are never changed in place (each change copies them): kept as they are
        # when the action left them alone
        new_characters = campaign.characters
        if characters_changed:
            new_characters = dict(new_characters)
            for (old, _), (_, owner, sheet) in zip(changed, action.updated, strict=True):
                new_characters[old.name.casefold()] = CharacterRow(old.id, old.campaign_id, owner, old.name, sheet)
            for old in deleted:
                new_characters.pop(old.name.casefold(), None)
            for (record, sheet), new_id in zip(added, done.added, strict=True):
                new_characters[record.name.casefold()] = CharacterRow(
                    new_id, campaign.row.id, record.owner_id, record.name, sheet
                )
        waits = campaign.waits if plan.empty else updated_waits(campaign.waits, plan)
        self._remember(place, Campaign(new_row, new_characters, waits))
        return done.event_id, plan, new_row

    # ------------------------------------------------------------------ campaigns

    async def start_campaign(
        self, place: Place, caller: Caller, ruleset_id: str, name: str, *, thread_only: bool = False
    ) -> Reply:
        """Open a campaign in this channel with the caller as its GM.

        In a thread, the campaign is the parent channel's (its threads all play in it), unless ``thread_only``.
        """
        loaded = self.registry.get(ruleset_id)
        ruleset = loaded.ruleset
        name = name.strip()
        if not 1 <= len(name) <= 100:
            raise RuleError("A campaign name needs 1 to 100 characters.")
        if thread_only and place.thread_id is None:
            raise RuleError("`thread_only:` is for a thread: here, the campaign is this channel's anyway.")
        target = Place(place.guild_id, place.thread_id, place.thread_id) if thread_only else place  # type: ignore[arg-type]
        where = "this thread only" if thread_only else "this channel"
        if place.thread_id is not None and not thread_only:
            where = f"the parent channel <#{place.channel_id}> and all its threads"

        async def work() -> Reply:
            existing = await self.store.campaign(target.guild_id, target.channel_id)
            if existing is not None and place.thread_id is not None and not thread_only:
                raise RuleError(
                    f"This thread plays in its parent channel's campaign {existing.name!r} ({existing.ruleset}): "
                    "its commands work here already. To run a separate campaign only in this thread, "
                    "add `thread_only:true`."
                )
            if existing is not None:
                raise RuleError(
                    f"This channel already runs the campaign {existing.name!r} ({existing.ruleset}). "
                    "A GM can end it with `/campaign end` first, or start the new one in another channel."
                )
            settings = _dump(ruleset.settings_model())
            state = _dump(ruleset.state_model())
            outcome = Outcome(
                card=Card(
                    title=f"Campaign started: {name}",
                    description=(
                        f"Ruleset: **{ruleset.name}** (`/{ruleset.id}`). GM: {caller.name}. For {where}.\n"
                        + "".join(f"\n{i}. {step}" for i, step in enumerate(ruleset.getting_started, 1))
                        + f"\n\nEvery command with an example: `/help command:{ruleset.id}`. "
                        "GMs: see `/campaign settings` for house rules."
                    ),
                    tone="success",
                ),
                summary=f"started campaign {name!r} ({ruleset.id})",
                data={"campaign": name, "ruleset": ruleset.id, "gm_ids": [caller.user_id], "thread_only": thread_only},
            )
            try:
                async with self.store.transaction() as tx:
                    campaign_id = await tx.insert_campaign(
                        target.guild_id, target.channel_id, ruleset.id, name, [caller.user_id], settings, state
                    )
                    event_id = await tx.append_event(
                        campaign_id,
                        caller.user_id,
                        caller.name,
                        "campaign start",
                        outcome.summary,
                        outcome.data,
                        thread_id=place.thread_id,
                    )
            except ConstraintError:
                raise StaleCampaignError(0) from None  # another process started one here first: reload, then refuse
            self.forget(place)
            if thread_only:
                self._homes[(place.guild_id, place.thread_id)] = target  # type: ignore[index]
            return Reply(outcome, await self.store.campaign_by_id(campaign_id), event_id)

        return await self.locked(place, work)

    # ------------------------------------------------------------------ shared actions

    async def record(
        self, place: Place, caller: Caller, command: str, outcome: Outcome, *, secret: bool = False
    ) -> Reply:
        """Log a roll made outside any ruleset (``/roll``, ``/check``...) if the channel has a campaign.

        A ``secret`` roll is logged as made, by whom, with its result on the GM's side only.
        With no campaign there is no GM, so it is shown to the roller alone.
        """

        async def work() -> Reply:
            campaign = await self.campaign(place)
            if campaign is None:
                if not secret:
                    return Reply(outcome)
                footer = "Secret roll: no campaign here, so only you see it."
                return Reply(
                    outcome.model_copy(
                        update={"card": outcome.card.model_copy(update={"footer": footer}), "ephemeral": True}
                    )
                )
            logged = outcome.kept_secret("roll" if command == "roll" else f"{command} roll") if secret else outcome
            made = sealing.seal(logged)

            # not into a campaign another process ended: the check refuses an archived or moved campaign
            action = ActionWrite(
                campaign.row,
                campaign.row.version,
                "check",
                EventWrite(
                    caller.user_id,
                    caller.name,
                    command,
                    logged.summary,
                    _logged(logged, (), made),
                    thread_id=place.thread_id,
                ),
            )
            event_id = (await self.store.write(action)).event_id
            return Reply(logged, campaign.row, event_id, seal=await self._posted(campaign.row.id, event_id, made))

        return await self.locked(place, work)

    async def change_campaign(
        self,
        place: Place,
        caller: Caller,
        command: str,
        change: Callable[[Campaign, Transaction], Awaitable[Outcome]],
        *,
        gm_only: bool = True,
        also: Callable[[WriteTx], None] | None = None,
        locked: bool = False,
        readers: tuple[int, ...] = (),
    ) -> Reply:
        """Run a campaign-level change (GMs, settings, archive, turns...) atomically, with an undo snapshot.

        Whom the table waits on is compared afterwards too (the /turn tracker lives here). ``also`` writes more
        in the same transaction (a timer's claim); ``locked``: the caller already holds the channel's lock;
        ``readers``: who besides the GMs may read the outcome's private side in the log (a standing order's player).
        """

        async def work() -> Reply:
            campaign = await self.require_campaign(place)
            if gm_only and not campaign.is_gm(caller):
                raise NeedsGMError(f"`/{command}`")
            before = _copy_row(campaign.row)
            draft = Campaign(_copy_row(campaign.row), dict(campaign.characters), dict(campaign.waits))
            async with self.store.transaction() as tx:
                if also is not None:
                    await tx.run(also)
                outcome = await change(draft, tx)
                plan = WaitPlan()
                if not draft.row.archived_at:
                    table = self.table_for(draft, caller)
                    plan = plan_waits(draft.row, draft.waits, self.waits_of(draft.row, table), table.now)
                    await tx.run(lambda wtx: apply_plan(wtx, draft.row, plan))
                    draft.waits = updated_waits(draft.waits, plan)
                await tx.update_campaign(draft.row)
                snapshot = {"state_delta": [], "settings_delta": [], "characters": [], "row": _meta(before)}
                event_id = await tx.append_event(
                    campaign.row.id,
                    caller.user_id,
                    caller.name,
                    command,
                    outcome.summary,
                    outcome.logged_result(readers),
                    snapshot,
                    thread_id=place.thread_id,
                )
            self._remember(place, None if draft.row.archived_at else draft)
            if draft.row.archived_at:
                self.forget(place)
            return Reply(outcome, draft.row, event_id, pings_for(draft.row, plan))

        return await work() if locked else await self.locked(place, work)

    async def undo(
        self, place: Place, caller: Caller, number: int | None = None, *, confirmed: bool = True
    ) -> tuple[Reply, str]:
        """Revert the newest action that changed anything, or the campaign's event ``number`` (its # in the
        log) when nothing later depends on what it changed; the log keeps both entries.

        Unless ``confirmed``, a change that is not the caller's own newest action (someone else made it, or a
        roll or another action came after it) is not reverted: :class:`ConfirmUndoError` says what it is."""

        async def work() -> tuple[Reply, str]:
            campaign = await self.require_campaign(place)
            if not campaign.is_gm(caller):
                raise NeedsGMError("`/campaign undo`")
            chosen = None if number is None else await self._chosen(campaign, number)
            if chosen is None:
                chosen = await self.store.last_undoable(campaign.row.id)
            if not confirmed and (ask := await self._asking(campaign, chosen, caller)) is not None:
                raise ask
            return await self._undo(place, caller, campaign, target=chosen)

        return await self.locked(place, work)

    async def _asking(self, campaign: Campaign, target: EventRow | None, caller: Caller) -> ConfirmUndoError | None:
        """The question to ask before undoing ``target``, or None: nothing to undo, or the caller's own newest
        action (someone else's, or one with a roll or another action after it, asks)."""
        if target is None or target.snapshot is None:
            return None
        later, after, own = await self._since(campaign, target, caller)
        return None if own else ConfirmUndoError(target, later, after, campaign.row)

    async def _ask_before_undoing(
        self, campaign: Campaign, caller: Caller, ruleset_id: str, action_name: str, target: EventRow | None
    ) -> None:
        """A ruleset's own undo (``Action(undo=True)``, `/serpent battle undo`) asks first, as `/campaign undo` does
        (:meth:`_asking`), in the ruleset's Confirm question; anything it would refuse, it leaves to :meth:`_undo`
        to say."""
        if not campaign.is_gm(caller) or target is None or not target.command.startswith(f"{ruleset_id} "):
            return
        ask = await self._asking(campaign, target, caller)
        if ask is None:
            return
        whose = "yours" if target.actor_id == caller.user_id else f"{target.actor_name}'s"
        since = f" {ask.after} event(s) came after it, and stay." if ask.after else ""
        question = (
            f"Undo #{target.seq}, {whose} `/{target.command}`: {clip(target.summary, QUOTED)}? It is not your own "
            f"newest action.{since}"
        )
        raise ConfirmFirstError(question, ruleset_id, action_name, {}, campaign.row)

    async def _since(self, campaign: Campaign, target: EventRow, caller: Caller) -> tuple[list[EventRow], int, bool]:
        """What came after ``target``: the events that make it not the caller's own newest action (newest first, at
        most ``SHOWN_AFTER``), how many events came after it in all, and whether it is the caller's own newest.

        Stepping back through one's own changes needs no question: after the caller's own change may come only
        their own changes already undone and their own undos."""
        after = max(0, await self.store.count_events(campaign.row.id) - target.seq)
        later: list[EventRow] = []
        undone: set[int] = set()
        own = target.actor_id == caller.user_id
        offset = 0
        while offset < UNDO_LOOK_AHEAD:
            page = await self.store.events(campaign.row.id, limit=SCAN_PAGE, offset=offset)
            offset += SCAN_PAGE
            for event in page:
                if event.seq <= target.seq:
                    return later, after, own
                if event.undoes is not None:
                    undone.add(event.undoes)
                stepping_back = event.actor_id == caller.user_id and (
                    event.undoes is not None or (event.snapshot is not None and event.id in undone)
                )
                if not stepping_back:
                    own = False
                    if len(later) < SHOWN_AFTER:
                        later.append(event)
            if len(page) < SCAN_PAGE:
                break
        return later, after, False

    async def _chosen(self, campaign: Campaign, number: int) -> EventRow:
        """Event #``number``, if it can be undone alone: no later change still in force touched what it changed."""
        event_id = await self.store.event_id_of(campaign.row.id, number)
        events = (
            []
            if event_id is None
            else await self.store.undoable_since(campaign.row.id, event_id, limit=UNDO_LOOK_AHEAD + 1)
        )
        if not events or events[0].id != event_id:
            raise RuleError(
                f"#{number} is not a change of this campaign that can be undone (a roll, a read, an undo, or "
                "already undone). `/campaign log` shows the numbers."
            )
        target, later = events[0], events[1:]
        if len(later) > UNDO_LOOK_AHEAD:
            raise RuleError(f"#{number} is more than {UNDO_LOOK_AHEAD} changes back; undo later changes first.")
        mine = touched(target.snapshot)
        blocking = [event for event in later if overlaps(mine, touched(event.snapshot))]
        if blocking:
            listed = ", ".join(f"#{e.seq} `/{e.command}` ({e.summary[:60]})" for e in blocking[:8])
            more = f" and {len(blocking) - 8} more" if len(blocking) > 8 else ""
            raise RuleError(
                f"Later changes depend on what #{number} changed, so they must be undone first: {listed}{more}."
            )
        return target

    async def _undo(
        self,
        place: Place,
        caller: Caller,
        campaign: Campaign,
        *,
        only: str = "",
        command: str = "campaign undo",
        target: EventRow | None = None,
    ) -> tuple[Reply, str]:
        """Undo under the lock. With ``only``, the newest change must be one of those commands."""
        if not campaign.is_gm(caller):
            raise NeedsGMError(f"`/{command}`")
        if target is None:
            target = await self.store.last_undoable(campaign.row.id)
        if target is None or target.snapshot is None:
            raise RuleError("There is nothing to undo in this campaign.")
        if only and not target.command.startswith(only):
            raise RuleError(
                f"The latest change is `/{target.command}` ({target.summary}), not a /{only.strip()} action. "
                "Undo it with `/campaign undo` first, if that is what you mean."
            )
        summary = f"undid #{target.seq} ({target.command}: {clip(target.summary, QUOTED)})"
        unshift = unshift_for_undo(target.command, target.result, campaign.row.id, campaign.waits)  # a resume's timers
        row, event_id, plan = await self._restore(
            place,
            caller,
            campaign,
            target,
            command=command,
            summary=summary,
            result={"undone": target.seq},
            undoes=target.id,
            unshift=unshift,
        )
        withdrawn = (
            f"\nIts seal is withdrawn with it: #{target.seq} can no longer be revealed."
            if sealing.commitment(target.result)
            else ""
        )
        outcome = Outcome(
            card=Card(
                title="Undone",
                description=f"Reverted #{target.seq} by {target.actor_name}, `/{target.command}`: {target.summary}"
                + withdrawn,
                footer="" if unshift else "/campaign redo brings it back, while nothing else changes.",
            ),
            summary=summary,
            data={
                "undone_event": target.seq,
                "command": target.command,
                "summary": target.summary,
                "actor": target.actor_name,
            },
        )
        return Reply(outcome, row, event_id, pings_for(row, plan)), target.command

    async def redo(self, place: Place, caller: Caller) -> Reply:
        """Bring back what the newest undo reverted, if nothing changed since (rolls and reads change nothing).

        The log is append-only, so a redo is a change of its own: it applies what the undo kept of itself (the
        campaign as it stood before the undo), is logged, and is undone like any change."""

        async def work() -> Reply:
            campaign = await self.require_campaign(place)
            if not campaign.is_gm(caller):
                raise NeedsGMError("`/campaign redo`")
            newest = await self._newest_change(campaign)
            if newest is None or newest.undoes is None:
                what = "" if newest is None else f" The newest change is #{newest.seq} `/{newest.command}`."
                raise RuleError(
                    "There is nothing to redo: redo brings back what the newest undo reverted, while nothing "
                    f"changed since.{what}"
                )
            if newest.snapshot is None:
                raise RuleError(
                    f"#{newest.seq} cannot be redone: an undone resume is started again with `/campaign resume`, "
                    "and an undo made before redo existed kept nothing to redo with. Nothing was changed."
                )
            undone = newest.result.get("undone")
            tail = clip(newest.summary.removeprefix("undid "), QUOTED)
            summary = f"redid {tail}, undone by #{newest.seq}"
            row, event_id, plan = await self._restore(
                place,
                caller,
                campaign,
                newest,
                command="campaign redo",
                summary=summary,
                result={"redone": undone, "undo": newest.seq},
            )
            outcome = Outcome(
                card=Card(
                    title="Redone",
                    description=f"Brought back {tail}, which #{newest.seq} had undone.",
                    footer="/campaign undo takes it back again.",
                ),
                summary=summary,
                data={"redone_event": undone, "undo_event": newest.seq, "summary": tail},
            )
            return Reply(outcome, row, event_id, pings_for(row, plan))

        return await self.locked(place, work)

    async def _newest_change(self, campaign: Campaign) -> EventRow | None:
        """The newest event that changed something: a change (it kept a snapshot), an undo, or None in sight."""
        offset = 0
        while offset < UNDO_LOOK_AHEAD:
            page = await self.store.events(campaign.row.id, limit=SCAN_PAGE, offset=offset)
            offset += SCAN_PAGE
            for event in page:
                if event.snapshot is not None or event.undoes is not None:
                    return event
            if len(page) < SCAN_PAGE:
                break
        return None

    async def _restore(
        self,
        place: Place,
        caller: Caller,
        campaign: Campaign,
        source: EventRow,
        *,
        command: str,
        summary: str,
        result: dict[str, Any],
        undoes: int | None = None,
        unshift: Any = None,
    ) -> tuple[CampaignRow, int, WaitPlan]:
        """Put back what ``source``'s snapshot kept, checked first: the snapshot read by its model, the campaign
        that results validated by the ruleset's models, and never a campaign without a GM. Logged as ``command``
        with the snapshot of this restore itself (what it changed), so it can be taken back in turn; a resume's
        undo (``unshift``) moves timers, which a redo cannot move again, so it keeps none."""
        current = campaign.row
        try:
            restored = snapshots.restore(
                snapshots.read(source.snapshot, source.seq),
                source.seq,
                state=current.state,
                settings=current.settings,
                characters={key: (row.owner_id, row.sheet) for key, row in campaign.characters.items()},
                meta=_meta(current),
            )
        except snapshots.SnapshotError as exc:
            said = str(exc)
            raise RuleError(
                f"{said[:1].upper()}{said[1:]}: it cannot be taken back, and nothing was changed."
            ) from None
        row = _copy_row(current, state=restored.state, settings=restored.settings)
        if restored.row is not None:
            meta = restored.row
            row.name, row.gm_ids, row.gm_channel_id = meta.name, list(meta.gm_ids), meta.gm_channel_id
            if meta.pbp is not None:
                row.pbp = meta.pbp
        if not row.gm_ids:  # whatever the snapshot says: a campaign always keeps a GM
            raise RuleError(f"Undoing #{source.seq} would leave the campaign with no GM, so nothing was changed.")
        characters = dict(campaign.characters)
        for entry in restored.characters:  # in memory first, to check every sheet before anything is written
            key = entry.name.casefold()
            if entry.before is None:
                characters.pop(key, None)
            else:
                old = characters.get(key)
                characters[key] = CharacterRow(
                    old.id if old else 0, row.id, entry.before.owner_id, entry.name, entry.before.sheet
                )
        waits = campaign.waits if unshift is None else unshift.waits
        try:
            table = self.table_for(Campaign(row, characters, waits), caller)
            wanted = self.waits_of(row, table)
        except ValidationError as exc:
            raise RuleError(
                f"#{source.seq} cannot be taken back: the campaign it would leave is not one this ruleset can play "
                f"({_problems(exc)}). Nothing was changed."
            ) from None
        reverse = None if unshift is not None else restored.reverse
        characters = dict(campaign.characters)
        async with self.store.transaction() as tx:
            if unshift is not None:
                await tx.run(unshift.write)
            await tx.update_campaign(row)
            for entry in restored.characters:
                before = None if entry.before is None else entry.before.model_dump()
                await _restore_character(tx, row.id, characters, entry.name, before)
            event_id = await tx.append_event(
                row.id,
                caller.user_id,
                caller.name,
                command,
                summary,
                result,
                reverse,
                undoes=undoes,
                thread_id=place.thread_id,
            )
            plan = plan_waits(row, waits, wanted, table.now)
            await tx.run(lambda wtx: apply_plan(wtx, row, plan))
        self._remember(place, Campaign(row, characters, updated_waits(waits, plan)))
        return row, event_id, plan


# ---------------------------------------------------------------------- helpers

UNDO_LOOK_AHEAD = 500  # undoing an older change checks this many later ones for a dependency
SCAN_PAGE = 50  # events read at a time when looking back through the log for what came after a change
SHOWN_AFTER = 5  # events after a change that an undo's question names
QUOTED = 200  # characters of a change's summary that an undo's (or a redo's) own summary quotes


def touched(snapshot: dict | None) -> set[tuple]:
    """What a change touched, as its undo would put back: state and settings paths, characters, the campaign row."""
    found: set[tuple] = set()
    if not snapshot:
        return found
    for part in ("state_delta", "settings_delta"):
        found.update((part, *op[0]) for op in snapshot.get(part) or [])
    found.update(("character", str(entry["name"]).casefold()) for entry in snapshot.get("characters") or [])
    if "row" in snapshot:
        found.add(("row",))
    return found


def overlaps(first: set[tuple], second: set[tuple]) -> bool:
    """Two changes depend on each other when a path of one lies at or under a path of the other."""

    def prefixes(paths: set[tuple]) -> set[tuple]:
        return {path[:depth] for path in paths for depth in range(1, len(path) + 1)}

    return bool(first & prefixes(second) or second & prefixes(first))


def refuse_blank(options: dict[str, Any], where: str) -> None:
    """A text option given but blank (only spaces or commas) is refused plainly, naming the option typed; an empty
    one (`spells:""`, "none") is the ruleset's to read."""
    for key, value in options.items():
        if isinstance(value, str) and value and not value.strip(" \t\r\n,;"):
            raise RuleError(
                f"`{where}`: `{key}` is blank. Write something after `{key}:`,"
                " or leave the option out if it is optional."
            )


def validate(model: type[BaseModel], options: dict[str, Any], where: str) -> BaseModel:
    """Validate options into the action's model, turning pydantic's errors into a user error."""
    try:
        return model.model_validate(
            options if None not in options.values() else {k: v for k, v in options.items() if v is not None}
        )
    except ValidationError as exc:
        raise RuleError(f"{where}: {_problems(exc)}.") from None


def _problems(exc: ValidationError) -> str:
    """Pydantic's complaints in a user's words: which value, and what it must be. No library text."""
    problems = []
    for error in exc.errors()[:5]:
        name = ".".join(str(part) for part in error["loc"]) or "options"
        problems.append(f"`{name}` {plain_error(error)}")
    return "; ".join(problems)


def _logged(outcome: Outcome, readers: Any, made: sealing.Seal | None) -> dict[str, Any]:
    """What the log keeps of a result: its sides, and its seal if it has one."""
    result = outcome.logged_result(readers)
    return result if made is None else sealing.sealed_result(result, made)


def _dump(model: Any) -> dict:
    """A model as stored (JSON types). Its serializer is called directly: ``model_dump(mode="json")`` does the same
    with the same defaults, through a Python layer that costs ~0.4 µs a call, and an action makes a few (issue 23)."""
    if isinstance(model, BaseModel):
        return model.__pydantic_serializer__.to_python(model, mode="json")
    return dict(model)


def _record(sheet_model: type[BaseModel], row: CharacterRow) -> CharacterRecord:
    """A stored character as an action sees it: its sheet validated, its pronouns beside it (``rules.base``)."""
    sheet, pronouns = sheet_parts(row.sheet)
    return CharacterRecord(
        id=row.id, owner_id=row.owner_id, name=row.name, sheet=sheet_model.model_validate(sheet), pronouns=pronouns
    )


def _stored(record: CharacterRecord) -> dict:
    """A character's sheet as stored: the ruleset's sheet, and its pronouns under their reserved key."""
    return stored_sheet(_dump(record.sheet), record.pronouns)


async def _restore_character(
    tx: Transaction, campaign_id: int, characters: dict[str, CharacterRow], name: str, before: dict | None
) -> None:
    """Put one character back as an undo snapshot recorded it (``None``: it did not exist)."""
    key = name.casefold()
    current = characters.get(key)
    if before is None:
        if current is not None:
            await tx.delete_character(current.id)
            del characters[key]
        return
    if current is None:
        character_id = await tx.insert_character(campaign_id, before["owner_id"], name, before["sheet"])
    else:
        character_id = current.id
        await tx.update_character(character_id, before["owner_id"], before["sheet"])
    characters[key] = CharacterRow(character_id, campaign_id, before["owner_id"], name, before["sheet"])


def _character_snapshot(row: CharacterRow) -> dict:
    return {"name": row.name, "before": {"owner_id": row.owner_id, "sheet": row.sheet}}


BY_ORDER = "by standing order"


def by_standing_order(outcome: Outcome) -> Outcome:
    """An action a standing order ran, marked so in every summary the log, the undo and the GM read."""
    note = f" ({BY_ORDER})"
    return outcome.model_copy(
        update={
            "summary": outcome.summary + note,
            "secret_summary": outcome.secret_summary + note if outcome.secret_summary else outcome.secret_summary,
            "private_summary": outcome.private_summary + note if outcome.private_summary else outcome.private_summary,
        }
    )


def _meta(row: CampaignRow) -> dict:
    return {"name": row.name, "gm_ids": list(row.gm_ids), "gm_channel_id": row.gm_channel_id, "pbp": dict(row.pbp)}


def _copy_row(row: CampaignRow, **changes: Any) -> CampaignRow:
    """A copy of a row (its GM list and pbp settings copied too) with ``changes``: every action makes one, so it is
    filled in directly, not through the dataclass's ``__init__`` (issue 23; ``test_hot_path`` checks it agrees)."""
    copied = object.__new__(CampaignRow)
    values = copied.__dict__
    values.update(row.__dict__)
    values["gm_ids"] = list(row.gm_ids)
    values["pbp"] = dict(row.pbp)
    if changes:
        values.update(changes)
    return copied
