"""The schedule: every timer (a wait's nudge and deadline, a /remind) fires exactly once.

Timers live in the store's ``timers`` table. :func:`fire_due` reads those due by the service's
clock and fires each in one transaction with its claim (``fired_at`` set only if still unset): an
action a deadline runs, or the log line of a nudge, commits together with the claim or not at all.
So a timer fires once whether the bot restarts, crashes half-way (the transaction rolls back and
the timer is still due) or shares the file with another process (whoever claims second rolls back).
A timer that came due while the bot was down is simply due at the next look, at start.

What a timer did is returned as :class:`Fired` messages; the caller posts them (``bot.poster``) or,
at the console, prints them. Posting is after the commit: a crash between the two loses the message,
never the effect, and the log keeps it.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.storage.protocol import WriteTx
from bot.storage.rows import DatabaseUnavailableError, StoredWait, TimerClaimedError, TimerRow
from bot.table.board import BOARD_VIEWER
from bot.table.orders import offer_named, order_of
from bot.table.pbp import Ping, epoch, iso_at, pbp_settings, wait_line, wait_users, when
from bot.table.service import BY_ORDER, Caller, Campaign, Place, Reply, TableService
from bot.table.turns import advance, tracker
from rules.base import Card, Outcome, RuleError, StandingOrder, Wait

log = logging.getLogger("magister.schedule")

TIMER_NAME = "Magister (timer)"
SYSTEM_ID = 0  # the log's actor for what the clock did


@dataclass
class Fired:
    """One message a timer produced: where, what, and exactly whom it pings."""

    place: Place
    kind: str
    card: Card
    pings: list[Ping] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    campaign_id: int | None = None
    answers: Reply | None = None  # the table after the timer: the message carries the buttons its reply would


async def fire_due(service: TableService, *, limit: int = 100) -> list[Fired]:
    """Fire every timer due by the service's clock, oldest first; returns what each said."""
    now = epoch(service.clock())
    fired: list[Fired] = []
    for timer in await service.store.due_timers(now, limit=limit):
        try:
            result = await fire(service, timer)
        except TimerClaimedError:  # another process (or an earlier run) fired it: nothing to say
            log.info("timer %s was already fired", timer.id)
            continue
        except DatabaseUnavailableError as error:  # the rest would wait for it too: they stay due for the next pass
            log.warning("the database is unreachable (%s); due timers wait for the next pass", error.reason)
            break
        except Exception:
            # a bug, or the database refused: the transaction rolled back, so the timer is still due
            log.exception("timer %s (%s) failed; it stays due and is tried again", timer.id, timer.kind)
            continue
        if result is not None:
            result.campaign_id = timer.campaign_id
            fired.append(result)
    return fired


async def fire(service: TableService, timer: TimerRow) -> Fired | None:
    place = Place(timer.guild_id, timer.channel_id)
    if timer.kind == "remind":
        return await _remind(service, place, timer)

    async def work() -> Fired | None:
        campaign = await service.campaign(place)
        live = campaign is not None and campaign.row.id == timer.campaign_id
        wait = campaign.waits.get(timer.wait_key or "") if live and campaign is not None else None
        if campaign is None or wait is None:  # the wait ended, or the campaign did: nothing to do
            await service.store.write(lambda tx: tx.claim_timer(timer.id, service.clock()))
            return None
        if timer.kind == "nudge":
            return await _nudge(service, place, campaign, wait, timer)
        return await _deadline(service, place, campaign, wait, timer)

    return await service.locked(place, work)


def _claim(service: TableService, timer: TimerRow) -> Any:
    at = service.clock()
    return lambda tx: tx.claim_timer(timer.id, at)


async def _nudge(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow
) -> Fired | None:
    who, what = wait.body.get("who", "?"), wait.body.get("what", "")
    summary = f"reminded {who}: {what}"
    if not wait.deadline or epoch(wait.deadline) <= epoch(service.clock()):
        # the deadline passed too (the bot was down): a reminder of it would only be noise
        await service.store.write(lambda tx: tx.claim_timer(timer.id, service.clock()))
        return None

    def write(tx: WriteTx) -> None:
        tx.claim_timer(timer.id, service.clock())
        tx.append_event(campaign.row.id, SYSTEM_ID, TIMER_NAME, "timer nudge", summary, {"wait": wait.key})

    await service.store.write(write)
    card = Card(
        title=f"Reminder: {who}",
        description=f"The table is waiting on **{who}**: {what}. The deadline is {when(wait.deadline)}.",
        tone="warning",
    )
    ping = Ping(wait_users(campaign.row, wait), "reminder: " + wait_line(wait))
    data = {"wait": wait.key, "who": who, "deadline": wait.deadline}
    return Fired(place, "nudge", card, [ping], data, answers=table_now(service, campaign))


async def _deadline(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow
) -> Fired:
    """The player's standing order, if they left one that covers this wait; else (or if it cannot run) what the
    ruleset's rule or the campaign's says, with the post saying why the order did not run."""
    order = order_of(campaign.row, wait.user_id)
    refused = ""
    if order is not None:
        ordered = await _by_order(service, place, campaign, wait, timer, order)
        if isinstance(ordered, Fired):
            return ordered
        refused = ordered
    fired = await _without_order(service, place, campaign, wait, timer)
    if refused:
        fired.card = fired.card.model_copy(update={"description": f"{refused}\n{fired.card.description}".strip()})
        fired.pings = [*fired.pings, Ping((wait.user_id,), f"your standing order did not run: {refused}")]
        fired.data = {**fired.data, "order_refused": refused}
    return fired


async def _by_order(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow, order: StandingOrder
) -> Fired | str:
    """Run the player's standing order as them, through the same checks as a typed command, logged "by standing
    order" with the timer's claim; a Fired, or why it could not run ("" when the order does not cover this wait)."""
    body = Wait.model_validate({k: v for k, v in wait.body.items() if k != "timed_out"})
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    player = Caller(int(wait.user_id or 0), f"{body.who} ({BY_ORDER})")
    refused = f"{body.who}'s standing order (`{order.order}`) could not run"
    try:
        offer_named(ruleset, order.order)
        planned = ruleset.run_order(service.table_for(campaign, player), body, order)
    except RuleError as error:
        return f"{refused}: {error}"
    if planned is None:
        return ""
    says = planned.says or (f"`{planned.action}` ran" if planned.action else "nothing was done")
    ping = Ping((player.user_id,), f"your standing order acted for **{body.who}** ({body.what}): {says}")
    base = {"wait": wait.key, "who": body.who, "deadline": wait.deadline, "by_order": order.order}
    if planned.action is None:  # the order is to let it go by: the wait times out, and no GM is asked to decide
        fired = await _expire(service, place, campaign, wait, timer, "order", f"by {body.who}'s standing order, {says}")
        fired.pings = [ping]
        fired.data = {**fired.data, **base}
        return fired
    try:
        reply = await service.run_as_timer(
            place, player, planned.action, planned.options, also=_claim(service, timer), by_order=True
        )
    except RuleError as error:  # the rules refuse it now, exactly as they would refuse the player typing it
        return f"{refused}: {error}"
    card = reply.outcome.card.model_copy(deep=True)
    card.description = (
        f"⏰ **Time is up for {body.who}** ({body.what}): by {body.who}'s standing order, {says}.\n{card.description}"
    ).strip()
    data = {**base, "ran": planned.action, **reply.outcome.data}
    return Fired(place, "deadline", card, [ping, *reply.pings], data, answers=reply)


async def _without_order(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow
) -> Fired:
    row = campaign.row
    body = Wait.model_validate({k: v for k, v in wait.body.items() if k != "timed_out"})
    gm = Caller(row.gm_ids[0] if row.gm_ids else SYSTEM_ID, TIMER_NAME, manages_guild=True)
    base = {"wait": wait.key, "who": body.who, "deadline": wait.deadline}
    if body.on_deadline is not None:
        try:
            reply = await service.run_as_timer(
                place, gm, body.on_deadline.action, body.on_deadline.options, also=_claim(service, timer)
            )
        except RuleError as error:  # the ruleset refuses what the deadline would do: the GM decides
            return await _hand_to_gm(
                service, place, campaign, wait, timer, f"`{body.on_deadline.action}` could not run: {error}"
            )
        why = body.on_deadline.says or f"the deadline passed, so `{body.on_deadline.action}` ran"
        card = reply.outcome.card.model_copy(deep=True)
        card.description = f"⏰ **Time is up for {body.who}** ({body.what}): {why}.\n{card.description}".strip()
        data = {**base, "ran": body.on_deadline.action, **reply.outcome.data}
        return Fired(place, "deadline", card, reply.pings, data, answers=reply)
    rule = pbp_settings(row).turn_timeout if body.kind == "turn" else "gm"
    if rule == "skip" and wait.key.startswith("turn ") and tracker(row) is not None:  # the /turn tracker moves on
        why = f"nobody posted by the deadline, so the campaign's rule `turn_timeout: skip` skipped {body.who}'s turn"

        async def skip(draft: Campaign, _: object) -> Outcome:
            return advance(draft.row, skipped=True, why=why)

        reply = await service.change_campaign(place, gm, "turn skip", skip, also=_claim(service, timer), locked=True)
        after = await service.campaign(place)
        data = {**base, "rule": "skip", **reply.outcome.data}
        answers = table_now(service, after) if after is not None else None
        return Fired(place, "deadline", reply.outcome.card, reply.pings, data, answers=answers)
    if rule == "skip":
        return await _expire(
            service,
            place,
            campaign,
            wait,
            timer,
            "skip",
            f"nobody posted for {body.who} by the deadline, so the table moves on without them "
            "(the campaign's rule `turn_timeout: skip`)",
        )
    because = (
        "the campaign's rule `turn_timeout: gm` hands a turn nobody took to the GM"
        if body.kind == "turn"
        else "the ruleset has no rule for it, so the GM decides"
    )
    return await _hand_to_gm(service, place, campaign, wait, timer, because)


async def _hand_to_gm(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow, because: str
) -> Fired:
    fired = await _expire(service, place, campaign, wait, timer, "gm", f"the GM decides now: {because}")
    fired.pings = [
        Ping(tuple(campaign.row.gm_ids), f"GM: decide for **{wait.body.get('who')}** ({wait.body.get('what')})")
    ]
    return fired


async def _expire(
    service: TableService, place: Place, campaign: Campaign, wait: StoredWait, timer: TimerRow, rule: str, why: str
) -> Fired:
    """The deadline passed with nothing to run: the wait stays (the ruleset still waits) but times out."""
    who, what = wait.body.get("who", "?"), wait.body.get("what", "")
    body = {**wait.body, "timed_out": rule}
    summary = f"deadline passed for {who} ({what}): {why}"

    def write(tx: WriteTx) -> None:
        tx.claim_timer(timer.id, service.clock())
        tx.put_wait(campaign.row.id, wait.key, wait.user_id, body, wait.since, None)
        tx.append_event(
            campaign.row.id, SYSTEM_ID, TIMER_NAME, "timer deadline", summary, {"wait": wait.key, "rule": rule}
        )

    await service.store.write(write)
    service.forget(place)
    card = Card(
        title=f"⏰ Time is up for {who}",
        description=f"The table was waiting on {who}: {what}. {why[0].upper()}{why[1:]}.",
        tone="warning",
    )
    data = {"wait": wait.key, "who": who, "rule": rule, "deadline": wait.deadline}
    return Fired(place, "deadline", card, [], data, answers=table_now(service, campaign))


def table_now(service: TableService, campaign: Campaign) -> Reply:
    """The table as everyone may see it now (the board's read-only action), for the buttons that answer it."""
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    action = ruleset.actions.get(ruleset.board_action or "")
    outcome = Outcome(card=Card(title=campaign.row.name), summary="the table now")
    if action is not None:
        with contextlib.suppress(RuleError):  # nothing to show (no battle): nothing to answer either
            outcome = action.run(service.table_for(campaign, BOARD_VIEWER), action.options())
    return Reply(outcome, campaign.row)


async def _remind(service: TableService, place: Place, timer: TimerRow) -> Fired:
    body = timer.body
    await service.store.write(lambda tx: tx.claim_timer(timer.id, service.clock()))
    users = tuple(body.get("user_ids") or ())
    card = Card(title="Reminder", description=body.get("text", ""), footer=f"Set by {body.get('by', '?')}")
    roles = (body["role_id"],) if body.get("role_id") else ()
    pings = [Ping(users, body.get("target", ""), roles)] if users or roles else []
    return Fired(
        place, "remind", card, pings, {"reminder": timer.id, "text": body.get("text", ""), "due": iso_at(timer.due)}
    )
