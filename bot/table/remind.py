"""/remind: a reminder posted in a channel at a time, through the same schedule as every deadline.

``when`` is a duration (``2h``, ``1d 12h``) or anything dateparser reads (``in 3 days``,
``tomorrow 18:00``, ``2030-03-01 20:00``, ``friday 8pm``), read in the caller's own time zone
(``/remind timezone``), else the campaign's (``/campaign settings key:timezone``), else UTC.
A reminder to oneself needs nothing; one to another member, a role or everyone in the campaign
needs a GM of the channel's campaign (or Manage Server), so nobody can ping others at will.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.storage.protocol import WriteTx
from bot.storage.rows import TimerRow
from bot.table.pbp import MAX_SECONDS, epoch, iso_at, parse_duration, pbp_settings, when, zone
from bot.table.service import Caller, Place, Reply, TableService
from rules.base import Card, Outcome, RuleError, quoted

MAX_REMINDERS = 25  # pending, per channel


def _channel(place: Place) -> int:
    """A reminder set in a thread is posted in that thread."""
    return place.thread_id or place.channel_id


async def time_zone(service: TableService, place: Place, caller: Caller) -> str:
    mine = await service.store.member_timezone(caller.user_id)
    if mine:
        return mine
    campaign = await service.campaign(place)
    return pbp_settings(campaign.row).timezone if campaign is not None else "UTC"


def _parse_date(text: str, **kwargs: Any) -> datetime | None:
    """dateparser, which can overflow on odd input: anything it cannot read is simply not a date."""
    try:
        import dateparser  # 0.15 s to import: paid by the first reminder, not by start-up

        return dateparser.parse(text, **kwargs)
    except (ValueError, OverflowError, OSError, TypeError, RecursionError):
        return None


def parse_when(text: str, now_iso: str, timezone: str) -> int:
    """Epoch seconds for ``text``, in the future and within a year; a RuleError that says what works."""
    now = epoch(now_iso)
    try:
        seconds = parse_duration(text)
    except RuleError:
        seconds = None
        local = datetime.fromtimestamp(now, zone(timezone)).replace(tzinfo=None)
        found = _parse_date(
            text,
            languages=["en"],
            settings={
                "RELATIVE_BASE": local,
                "TIMEZONE": timezone,
                "TO_TIMEZONE": "UTC",
                "RETURN_AS_TIMEZONE_AWARE": True,
                "PREFER_DATES_FROM": "future",
            },
        )
        if found is None:
            raise RuleError(
                f"I cannot read {quoted(text)} as a time. Try `2h`, `1d 12h`, `in 3 days`, `tomorrow 18:00` "
                f"or `2030-03-01 20:00` (read in {timezone})."
            ) from None
        try:
            due = int(found.timestamp())
        except (OverflowError, OSError, ValueError):
            due = now + 10 * MAX_SECONDS  # beyond any range: refused below as too far
    else:
        if seconds is None:
            raise RuleError("A reminder needs a time: `2h`, `in 3 days`, `tomorrow 18:00`…")
        due = now + seconds
    if due <= now:
        raise RuleError(f"{quoted(text)} is {when(iso_at(due))}, which has passed. Give a time still to come.")
    if due - now > MAX_SECONDS:
        raise RuleError("A reminder can be at most a year ahead.")
    return due


async def remind(
    service: TableService,
    place: Place,
    caller: Caller,
    when_text: str,
    text: str,
    *,
    user: tuple[int, str] | None = None,
    role: tuple[int, str] | None = None,
    everyone: bool = False,
) -> Reply:
    text = " ".join(text.split())
    if not 1 <= len(text) <= 1000:
        raise RuleError("A reminder's text needs 1 to 1,000 characters.")
    campaign = await service.campaign(place)
    others = everyone or role is not None or (user is not None and user[0] != caller.user_id)
    if others and not (caller.manages_guild or (campaign is not None and campaign.is_gm(caller))):
        raise RuleError(
            "Reminding someone else, a role or everyone needs a GM of this channel's campaign. "
            "Leave out `who:`, `role:` and `everyone:` to remind yourself."
        )
    if everyone and campaign is None:
        raise RuleError("`everyone:` means everyone in this channel's campaign, and there is none here.")
    zone_name = await time_zone(service, place, caller)
    due = parse_when(when_text, service.clock(), zone_name)
    if everyone and campaign is not None:
        owners = (c.owner_id for c in campaign.characters.values() if c.owner_id)  # 0: a forgotten member's
        user_ids = sorted({*campaign.row.gm_ids, *owners})
        target = f"everyone in {campaign.row.name}"
    elif user is not None:
        user_ids, target = [user[0]], user[1]
    elif role is not None:
        user_ids, target = [], f"@{role[1]}"
    else:
        user_ids, target = [caller.user_id], caller.name
    body = {"text": text, "by": caller.name, "user_ids": user_ids, "target": target}
    if role is not None:
        body["role_id"] = role[0]
    campaign_id = campaign.row.id if campaign is not None else None

    def write(tx: WriteTx) -> int:
        if tx.pending_reminders(place.guild_id, _channel(place)) >= MAX_REMINDERS:
            raise RuleError(f"This channel already has {MAX_REMINDERS} reminders waiting. Cancel one first.")
        return tx.add_timer(
            campaign_id, place.guild_id, _channel(place), "remind", due, body, created_by=caller.user_id
        )

    reminder_id = await service.store.write(write)
    card = Card(
        title=f"Reminder #{reminder_id} set",
        description=f"{when(iso_at(due))} I will remind {target}: {text}",
        footer=f"Read in {zone_name}. /remind cancel id:{reminder_id} to cancel it.",
        tone="success",
    )
    data = {"id": reminder_id, "due": iso_at(due), "timezone": zone_name, "target": target, "text": text}
    return Reply(Outcome(card=card, summary=f"set reminder #{reminder_id}", data=data, ephemeral=True))


def _line(timer: TimerRow) -> str:
    body = timer.body
    return f"`#{timer.id}` {when(iso_at(timer.due))} for {body.get('target')}: {body.get('text', '')[:200]}"


async def listing(service: TableService, place: Place) -> Reply:
    timers = await service.store.reminders(place.guild_id, _channel(place))
    card = Card(
        title="Reminders in this channel",
        description="\n".join(_line(t) for t in timers) or "No reminders are waiting here.",
    )
    data = {
        "reminders": [
            {"id": t.id, "due": iso_at(t.due), "target": t.body.get("target"), "text": t.body.get("text")}
            for t in timers
        ]
    }
    return Reply(Outcome(card=card, summary="listed reminders", data=data, ephemeral=True))


async def cancel(service: TableService, place: Place, caller: Caller, reminder_id: int) -> Reply:
    timer = await service.store.timer(reminder_id)
    here = timer is not None and (timer.guild_id, timer.channel_id) == (place.guild_id, _channel(place))
    if timer is None or not here or timer.kind != "remind" or timer.fired_at is not None:
        raise RuleError(f"There is no reminder #{reminder_id} waiting in this channel. See `/remind list`.")
    campaign = await service.campaign(place)
    gm = caller.manages_guild or (campaign is not None and campaign.is_gm(caller))
    if timer.created_by != caller.user_id and not gm:
        raise RuleError("Only whoever set a reminder, or a GM, can cancel it.")
    if not await service.store.write(
        lambda tx: tx.cancel_timer(reminder_id, channel=(place.guild_id, _channel(place)))
    ):
        raise RuleError(f"Reminder #{reminder_id} has just fired or been cancelled.")
    card = Card(title=f"Reminder #{reminder_id} cancelled", description=timer.body.get("text", ""))
    return Reply(
        Outcome(
            card=card, summary=f"cancelled reminder #{reminder_id}", data={"cancelled": reminder_id}, ephemeral=True
        )
    )


async def set_time_zone(service: TableService, caller: Caller, name: str) -> Reply:
    """The caller's own time zone for /remind, in every campaign; ``none`` goes back to the campaign's."""
    cleared = name.strip().lower() in {"none", "off", "clear", "campaign"}
    key = None if cleared else zone(name.strip()).key
    await service.store.write(lambda tx: tx.set_member_timezone(caller.user_id, key))
    description = (
        "Your reminders now read times in each campaign's time zone."
        if key is None
        else f"Your reminders now read times in **{key}**."
    )
    card = Card(title="Time zone set", description=description, tone="success")
    return Reply(Outcome(card=card, summary="set time zone", data={"timezone": key}, ephemeral=True))


__all__ = ["cancel", "listing", "parse_when", "remind", "set_time_zone"]
