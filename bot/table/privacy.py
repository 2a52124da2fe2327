"""A member's data: export it (``/privacy export``), erase it (``/privacy forget``, ``python -m bot forget``), or,
as a GM, remove a departed player from a campaign (``/campaign player forget``); and giving a character whose
owner is gone to someone else (``/character owner``).

What erasing does is :mod:`bot.storage.members` (one write job, one transaction, on both backends). The rulings:

- **Everywhere, at the member's request** (``/privacy forget``, and the operator's ``python -m bot forget``): every
  campaign of every server, live or ended, and their own macros and time zone. They stop being a GM even where
  they were the only one: the member asked, and a request to be forgotten is not refused. Such a campaign keeps
  running with no GM; a member who manages the server acts as its GM (as everywhere) and can add one with
  ``/campaign gm add``.
- **One campaign, by its GM** (``/campaign player forget``): only that campaign's data (characters, log, waits,
  reminders and shared macros there); the member's own macros and time zone are theirs, not the table's. It
  refuses to remove the campaign's last GM: add another GM first.
- Neither can be undone, and neither changes a log entry's number or removes one: the story stays, told of "a
  former member". Undoing an older change afterwards cannot bring the member's id back (the undo snapshots are
  rewritten too).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

from bot.storage.members import FORMER_MEMBER, PLACEHOLDER_ID, CampaignErased, Erased
from bot.storage.protocol import Store, WriteTx
from bot.storage.rows import CampaignRow, EventRow
from bot.table.orders import offer_named, orders_of
from bot.table.sealed import Revealed, reveals, withdrawn
from bot.table.sealing import commitment
from bot.table.secrecy import may_read_private, private_summary
from bot.table.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, NeedsGMError, Outcome, RuleError, Table, sheet_parts
from rules.text import listing

EXPORT_FORMAT = "magister-member/1"
EVENTS_PAGE = 500


# ---------------------------------------------------------------------- everywhere: the member's own request


async def forget_prompt(service: TableService, caller: Caller) -> Outcome:
    """What ``/privacy forget`` will do, before **Confirm**: the campaigns it leaves with no GM, named."""
    data = await service.store.member_data(caller.user_id)
    alone = [row for row in data.gm_of if row.gm_ids == [caller.user_id]]
    description = (
        "Magister forgets you in every server: your macros, reminders and time zone are deleted. In every campaign "
        "your characters stay, with no owner (a GM can give them to someone with `/character owner`), and the log "
        f"keeps what happened, saying *{FORMER_MEMBER}* instead of your name. You stop being a GM.\n\n"
        "This cannot be undone. Want a copy first? `/privacy export`. Press **Confirm** to be forgotten."
    )
    card = Card(title="Forget everything Magister keeps about you?", description=description, tone="warning")
    if alone:
        lines = [f"**{row.name}** (<#{row.channel_id}>)" for row in alone]
        card.add(
            "You are the only GM of",
            listing(lines, 900) + "\nThey keep running with no GM: a member who manages the server acts as GM.",
        )
    data = {"confirm": True, "only_gm_of": len(alone)}
    return Outcome(card=card, summary="asked to forget", data=data, ephemeral=True)


async def forget_everywhere(store: Store, user_id: int) -> Erased:
    """Erase ``user_id`` in every campaign of every server, and their own macros and time zone: one transaction."""
    return await store.write(lambda tx: tx.forget_member(user_id, None))


async def forget_me(service: TableService, caller: Caller) -> Reply:
    """``/privacy forget``, confirmed: the caller, everywhere."""
    erased = await forget_everywhere(service.store, caller.user_id)
    drop_cached(service, erased)
    card = Card(
        title="Forgotten",
        description="Magister has forgotten you. "
        + (summary_of(erased) if not erased.empty else "It kept nothing about you.")
        + " Messages already posted in Discord are Discord's: delete them there if you wish.",
        tone="success",
    )
    return Reply(Outcome(card=card, summary="forgot a member", data=erased_data(erased), ephemeral=True))


def drop_cached(service: TableService, erased: Erased) -> None:
    """This process's cache of each campaign it changed goes (other processes see the version move)."""
    for campaign in erased.campaigns:
        service.forget(Place(campaign.guild_id, campaign.channel_id))


def summary_of(erased: Erased) -> str:
    """What an erasure did, in a sentence or two, naming no one."""
    characters = sum(c.characters for c in erased.campaigns)
    events = sum(c.events for c in erased.campaigns)
    reminders = erased.reminders + sum(c.reminders for c in erased.campaigns)
    parts = [
        f"{len(erased.campaigns)} campaign{_s(len(erased.campaigns))} changed",
        f"{characters} character{_s(characters)} now without an owner",
        f"{events} log entr{'y' if events == 1 else 'ies'} now saying *{FORMER_MEMBER}*",
        f"{erased.macros} macro{_s(erased.macros)} and {reminders} reminder{_s(reminders)} deleted",
    ]
    gm = [c for c in erased.campaigns if c.was_gm]
    text = "; ".join(parts) + (", and your time zone." if erased.timezone else ".")
    if gm:
        text += f" No longer a GM of {len(gm)} campaign{_s(len(gm))}."
    return text


def erased_data(erased: Erased) -> dict[str, Any]:
    """For scripts: the counts, and each campaign by its id and name (never the member's id)."""
    data = erased.as_dict()
    data.pop("user_id")
    return data


def report_lines(erased: Erased) -> list[str]:
    """``python -m bot forget``'s report, one line for each campaign and one for the rest."""
    lines = []
    for c in erased.campaigns:
        what = [f"{c.characters} character{_s(c.characters)} now without an owner"] if c.characters else []
        what += [f"{c.events} log entr{'y' if c.events == 1 else 'ies'} rewritten"] if c.events else []
        what += [f"{c.waits} wait{_s(c.waits)} now on the GMs"] if c.waits else []
        what += [f"{c.reminders} reminder{_s(c.reminders)} deleted"] if c.reminders else []
        what += [f"{c.macros} shared macro{_s(c.macros)} kept without an owner"] if c.macros else []
        what += [f"{c.other} other record{_s(c.other)} cleaned"] if c.other else []
        if c.was_gm:
            what.append("removed as GM" + ("" if c.gms_left else " (it has no GM now: Manage Server acts as GM)"))
        ended = ", ended" if c.archived else ""
        lines.append(
            f"campaign #{c.id} {c.name!r} (guild {c.guild_id}, channel {c.channel_id}{ended}): " + ", ".join(what)
        )
    rest = [f"{erased.macros} own macro{_s(erased.macros)} deleted"]
    rest.append(f"{erased.reminders} reminder{_s(erased.reminders)} outside campaigns deleted")
    rest.append("time zone deleted" if erased.timezone else "no time zone was set")
    lines.append(", ".join(rest))
    return lines


def _s(count: int) -> str:
    return "" if count == 1 else "s"


# ---------------------------------------------------------------------- one campaign: its GM


async def _gm_campaign(service: TableService, place: Place, caller: Caller, member_id: int) -> Campaign:
    campaign = await service.require_campaign(place)
    if not campaign.is_gm(caller):
        raise NeedsGMError("`/campaign player forget`")
    if member_id == PLACEHOLDER_ID:
        raise RuleError("Name a member of the server.")
    if campaign.row.gm_ids == [member_id]:
        raise RuleError(
            "They are this campaign's only GM, and a campaign needs one: add another GM with `/campaign gm add` "
            "first. (A member forgets themselves everywhere with `/privacy forget`.)"
        )
    return campaign


async def forget_player_prompt(service: TableService, place: Place, caller: Caller, member_id: int, name: str) -> Reply:
    """``/campaign player forget``: what it will do to this campaign, before **Confirm** (GM)."""
    campaign = await _gm_campaign(service, place, caller, member_id)
    owned = sorted(c.name for c in campaign.characters.values() if c.owner_id == member_id)
    description = (
        f"Forget {name} in **{campaign.row.name}**: their characters stay with no owner (give them to someone with "
        f"`/character owner`), the log keeps what happened but says *{FORMER_MEMBER}* instead of their name, and "
        "their reminders here go"
        + (", and they stop being a GM" if member_id in campaign.row.gm_ids else "")
        + ". Their own macros and time zone are theirs: only they can erase those, with `/privacy forget`.\n\n"
        "This cannot be undone. Press **Confirm** to forget them here."
    )
    card = Card(title=f"Forget {name} in this campaign?", description=description, tone="warning")
    card.add("Their characters", ", ".join(owned) or "none")
    data = {"confirm": True, "characters": owned}
    return Reply(Outcome(card=card, summary="asked to forget a member", data=data, ephemeral=True), campaign.row)


async def forget_player(service: TableService, place: Place, caller: Caller, member_id: int, campaign_id: int) -> Reply:
    """Confirmed: erase ``member_id`` from this channel's campaign ``campaign_id``, logged (no undo: there is none)."""

    async def work() -> Reply:
        campaign = await _gm_campaign(service, place, caller, member_id)
        if campaign.row.id != campaign_id:
            raise RuleError("That campaign has ended here; nothing was changed.")
        row = campaign.row

        def write(tx: WriteTx) -> tuple[Erased, int, Outcome]:
            tx.check_campaign(row)  # live, as read, and (PostgreSQL) locked for this transaction
            erased = tx.forget_member(member_id, row.id)
            if erased.empty:
                raise RuleError(f"Magister keeps nothing of theirs in {row.name}: nothing was changed.")
            outcome = _forgot_outcome(erased.campaigns[0])
            event_id = tx.append_event(
                row.id,
                caller.user_id,
                caller.name,
                "campaign player forget",
                outcome.summary,
                outcome.logged_result(),
                thread_id=place.thread_id,
            )
            return erased, event_id, outcome

        _, event_id, outcome = await service.store.write(write)
        service.forget(place)
        fresh = await service.campaign(place)
        return Reply(outcome, fresh.row if fresh is not None else row, event_id)

    return await service.locked(place, work)


def _forgot_outcome(done: CampaignErased) -> Outcome:
    """The log entry and reply of a GM's forget: counts only, so it names no one."""
    parts = [f"{done.characters} character{_s(done.characters)} now without an owner"]
    parts.append(f"{done.events} log entr{'y' if done.events == 1 else 'ies'} now saying {FORMER_MEMBER}")
    if done.reminders:
        parts.append(f"{done.reminders} reminder{_s(done.reminders)} deleted")
    if done.was_gm:
        parts.append("one GM fewer")
    card = Card(title="Member forgotten", description="Done: " + "; ".join(parts) + ".", tone="success")
    data = {k: getattr(done, k) for k in ("characters", "events", "waits", "reminders", "macros", "was_gm")}
    return Outcome(card=card, summary="forgot a departed member: " + "; ".join(parts), data=data)


# ---------------------------------------------------------------------- a character with no owner


async def character_owner(
    service: TableService, place: Place, caller: Caller, name: str, member_id: int, member_name: str
) -> Reply:
    """``/character owner``: a GM gives a character to a member (a forgotten member's, or anyone's). Undoable."""

    def change(table: Table) -> Outcome:
        table.require_gm("Giving a character to a player")
        record = table.find_character(name)
        if record.owner_id == member_id:
            raise RuleError(f"{record.name} is {member_name}'s already.")
        record.owner_id = member_id
        return Outcome(
            card=Card(
                title=f"{record.name} is {member_name}'s", description=f"<@{member_id}> plays {record.name} now."
            ),
            summary=f"gave {record.name} to {member_name}",
            data={"name": record.name, "owner_id": member_id},
        )

    return await service.act(place, caller, "character owner", change, gm_only=True)


# ---------------------------------------------------------------------- export


async def export(service: TableService, caller: Caller, *, limit: int) -> tuple[Reply, str, bytes]:
    """``/privacy export``: the caller's data as JSON (gzipped if over ``limit``): their characters as they may see
    them, the summaries of their own log entries they may read (the GM's side only where they are a GM; a sealed
    one's commitment and state, its text only once a GM revealed it), their macros, reminders, standing orders and
    time zone. Never another member's secrets."""
    store = service.store
    data = await store.member_data(caller.user_id)
    campaigns: dict[int, CampaignRow | None] = {}

    async def campaign_of(campaign_id: int) -> CampaignRow | None:
        if campaign_id not in campaigns:
            campaigns[campaign_id] = await store.campaign_by_id(campaign_id)
        return campaigns[campaign_id]

    characters = []
    for character in data.characters:
        row = await campaign_of(character.campaign_id)
        if row is not None:
            characters.append(await _character(service, row, character.name, caller))
    events = []
    revealed: dict[int, dict[int, Revealed]] = {}  # campaign id -> sealed entry's number -> its reveal
    after = 0
    while page := await store.member_events(caller.user_id, after=after, limit=EVENTS_PAGE):
        for event in page:
            row = await campaign_of(event.campaign_id)
            if row is None:
                continue
            entry = _event(event, row, caller.user_id)
            if (hashed := commitment(event.result)) is not None:
                if row.id not in revealed:
                    revealed[row.id] = await reveals(service, row.id)
                entry["sealed"] = await _sealed(service, event, hashed, revealed[row.id])
            events.append(entry)
        after = page[-1].id
    macros = []
    for macro in data.macros:
        row = await campaign_of(macro.campaign_id) if macro.campaign_id is not None else None
        macros.append(
            {"name": macro.name, "expression": macro.expression, "campaign": row.name if row is not None else None}
        )
    reminders = [
        {
            "id": timer.id,
            "guild_id": timer.guild_id,
            "channel_id": timer.channel_id,
            "due": timer.due,
            "text": timer.body.get("text"),
            "for": timer.body.get("target"),
            "fired_at": timer.fired_at,
        }
        for timer in data.reminders
    ]
    orders = [_order(service, row, caller.user_id) for row in data.orders]
    document = {
        "format": EXPORT_FORMAT,
        "user_id": caller.user_id,
        "exported_at": service.clock(),
        "time_zone": data.timezone,
        "gm_of": [_where(row) for row in data.gm_of],
        "characters": characters,
        "events": events,
        "macros": macros,
        "reminders": reminders,
        "orders": [order for order in orders if order is not None],
        "web_access": [  # campaigns whose web pages they may read (docs/web.md), with the name they asked with
            {**_where(row), "name": name}
            for campaign_id, name in data.web
            if (row := await campaign_of(campaign_id)) is not None
        ],
    }
    name, body = await asyncio.to_thread(_encoded, document, limit)
    counts = {key: len(document[key]) for key in ("characters", "events", "macros", "reminders", "orders", "gm_of")}
    description = (
        f"{counts['characters']} character{_s(counts['characters'])}, "
        f"{counts['events']} log entr{'y' if counts['events'] == 1 else 'ies'}, "
        f"{counts['macros']} macro{_s(counts['macros'])}, {counts['reminders']} reminder{_s(counts['reminders'])}, "
        f"{counts['orders']} standing order{_s(counts['orders'])}"
        + (f", time zone {data.timezone}" if data.timezone else "")
        + "."
    )
    if name.endswith(".gz"):
        description += " Compressed with gzip to fit Discord's upload limit."
    card = Card(title="Your data", description=description, footer="Only you see this. /privacy forget erases it.")
    outcome = Outcome(card=card, summary="exported own data", data={"file": name, **counts}, ephemeral=True)
    return Reply(outcome), name, body


def _where(row: CampaignRow) -> dict[str, Any]:
    return {
        "campaign": row.name,
        "ruleset": row.ruleset,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "ended": row.archived_at is not None,
    }


async def _character(service: TableService, row: CampaignRow, name: str, caller: Caller) -> dict[str, Any]:
    """A character as its owner may see it (``/character show``'s data), with where it plays."""
    entry: dict[str, Any] = {**_where(row), "name": name}
    if row.ruleset not in service.registry:
        return entry
    characters = {c.name.casefold(): c for c in await service.store.characters(row.id)}
    found = characters.get(name.casefold())
    if found is None:
        return entry
    entry["pronouns"] = sheet_parts(found.sheet)[1]
    try:
        table = service.table_for(Campaign(row, characters), Caller(caller.user_id, caller.name))
        shown = service.registry.get(row.ruleset).ruleset.show_character(table, table.find_character(name))
    except (RuleError, ValueError):  # a sheet its ruleset no longer reads: its name and place are still theirs
        return entry
    entry["sheet"] = shown.data
    return entry


def _event(event: EventRow, row: CampaignRow, user_id: int) -> dict[str, Any]:
    """One of the member's log entries as they may read it: the GM's side only if they are a GM of that campaign."""
    entry: dict[str, Any] = {
        "campaign": row.name,
        "guild_id": row.guild_id,
        "channel_id": row.channel_id,
        "number": event.seq,
        "at": event.at,
        "command": event.command,
        "summary": event.summary,
    }
    secret = event.result.get("secret")
    if user_id in row.gm_ids and isinstance(secret, dict) and secret.get("summary"):
        entry["secret"] = secret["summary"]
    if may_read_private(event.result, user_id, user_id in row.gm_ids):  # their own private side, or a GM's
        entry["private"] = private_summary(event.result)
    return entry


def _order(service: TableService, row: CampaignRow, user_id: int) -> dict[str, Any] | None:
    """The member's standing order in this campaign as ``/orders show`` tells them: its name, option and meaning."""
    order = orders_of(row).get(user_id)
    if order is None:
        return None
    entry: dict[str, Any] = {**_where(row), "order": order.order, "option": order.option or None}
    if row.ruleset in service.registry:
        try:
            entry["means"] = offer_named(service.registry.get(row.ruleset).ruleset, order.order).description
        except RuleError:  # an order the ruleset no longer offers: kept as stored, never run
            entry["means"] = "no longer offered"
    return entry


async def _sealed(service: TableService, event: EventRow, hashed: str, revealed: dict[int, Revealed]) -> dict[str, Any]:
    """A sealed entry's commitment and state, as ``/verify`` tells anyone: the sealed text and salt only once a GM
    revealed them (they were posted then), never from the GM's side of the entry."""
    if (reveal := revealed.get(event.seq)) is not None:
        return {
            "sha256": hashed,
            "status": "revealed",
            "revealed_by": reveal.event.seq,
            "text": reveal.text,
            "salt": reveal.salt,
        }
    status = "withdrawn" if await withdrawn(service, event.campaign_id, event) else "sealed"
    return {"sha256": hashed, "status": status}


def _encoded(document: dict[str, Any], limit: int) -> tuple[str, bytes]:
    body = json.dumps(document, ensure_ascii=False, indent=1).encode() + b"\n"
    if len(body) <= limit:
        return "magister-my-data.json", body
    packed = gzip.compress(body)
    if len(packed) > limit:
        raise RuleError(
            "Your data is larger than Discord lets me upload, even compressed. Ask the bot's operator for a copy."
        )
    return "magister-my-data.json.gz", packed


__all__ = [
    "character_owner",
    "export",
    "forget_everywhere",
    "forget_me",
    "forget_player",
    "forget_player_prompt",
    "forget_prompt",
    "report_lines",
]
