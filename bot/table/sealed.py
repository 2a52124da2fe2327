"""`/campaign reveal` and `/verify`: a sealed secret result revealed by a GM, and checked by anyone.

The service seals every secret result as it logs it (``bot/table/sealing.py``). A GM's reveal posts the text and
salt the result was sealed with, and logs them on the reveal's public side; `/verify` recomputes the hash from
what the reveal posted and compares it with the commitment posted at the time: it reads only public sides.

Rulings (docs/rulings.md, "Sealed secret results"): a reveal is posted for good, so it cannot be undone (like a
roll); undoing a sealed change withdraws its seal, so it can no longer be revealed (a redo does not bring the
seal back); each sealed result is revealed once.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.action import ActionWrite, EventWrite
from bot.storage.rows import EventRow, LogQuery
from bot.table.sealing import commitment, digest, hand_check, kept, when
from bot.table.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, NeedsGMError, Outcome, RuleError
from rules.text import clip

REVEAL = "campaign reveal"
PAGE = 100  # reveals read at a time when looking for an event's reveal
LOOKED_AT = 500  # the newest events autocomplete looks through for sealed ones
CHOICES = 25
SHOWN_TEXT = 3000  # characters of a revealed text its card shows (the log and /verify keep it whole)


@dataclass(frozen=True)
class Revealed:
    """A reveal as its public side logged it."""

    event: EventRow
    text: str
    salt: str


async def _event(service: TableService, campaign: Campaign, number: int) -> EventRow:
    """Event #``number``, sealed: refused plainly if there is none, or it is not a sealed result."""
    event = await service.store.event_numbered(campaign.row.id, number)
    if event is None:
        raise RuleError(f"There is no #{number} in this campaign's log. `/campaign log` shows the numbers.")
    if commitment(event.result) is None:
        raise RuleError(
            f"#{number} is not a sealed result: only secret results are sealed (`/campaign log` marks them 🔐)."
        )
    return event


async def reveals(service: TableService, campaign_id: int) -> dict[int, Revealed]:
    """Every reveal a GM posted in the campaign, by the sealed entry's number (the newest, were one revealed twice).
    Reveals are few: read by the log's command index, a page at a time."""
    found: dict[int, Revealed] = {}
    before = None
    while True:
        page = await service.store.events_matching(campaign_id, LogQuery(command=REVEAL), limit=PAGE, before=before)
        for event in page:
            number, text = event.result.get("reveals"), event.result.get("text")
            if type(number) is int and isinstance(text, str):
                found.setdefault(number, Revealed(event, text, str(event.result.get("salt", ""))))
        if len(page) < PAGE:
            return found
        before = page[-1].seq


async def reveal_of(service: TableService, campaign_id: int, number: int) -> Revealed | None:
    """The reveal of event #``number``, if a GM revealed it."""
    return (await reveals(service, campaign_id)).get(number)


async def withdrawn(service: TableService, campaign_id: int, event: EventRow) -> bool:
    """Was this sealed change undone? Its seal went with it (a roll, which changes nothing, is never undone)."""
    if event.snapshot is None:
        return False
    still = await service.store.undoable_since(campaign_id, event.id, limit=1)
    return not still or still[0].id != event.id


async def reveal(service: TableService, place: Place, caller: Caller, number: int) -> Reply:
    """`/campaign reveal event:N` (GM): post the text and salt #N was sealed with, and log them publicly."""

    async def work() -> Reply:
        campaign = await service.require_campaign(place)
        if not campaign.is_gm(caller):
            raise NeedsGMError("`/campaign reveal`")
        event = await _event(service, campaign, number)
        earlier = await reveal_of(service, campaign.row.id, number)
        if earlier is not None:
            raise RuleError(
                f"#{number} was revealed already, by #{earlier.event.seq}: `/verify event:{number}` checks it."
            )
        if await withdrawn(service, campaign.row.id, event):
            raise RuleError(f"#{number} was undone, and its seal withdrawn with it: it cannot be revealed.")
        sealed = kept(event.result)
        if sealed is None:
            raise RuleError(f"#{number}'s log entry keeps no sealed text to reveal, so nothing was posted.")
        text, salt = sealed
        hashed = commitment(event.result) or ""
        summary = f"revealed #{number}: {clip(text, 1500)} (salt {salt})"
        card = Card(
            title=f"Revealed #{number}",
            description=(
                f"Sealed at {when(event.at)} by {event.actor_name}, `/{event.command}`. The result:\n"
                f"```\n{clip(text, SHOWN_TEXT)}\n```\nSalt: `{salt}`\n"
                f"Anyone can check it with `/verify event:{number}`, or by hand: the SHA-256 of the text, `|` and "
                f"the salt must be `{hashed}`."
            ),
            tone="success",
        )
        data = {"reveals": number, "text": text, "salt": salt, "sha256": hashed}
        outcome = Outcome(card=card, summary=summary, data=data)
        write = ActionWrite(
            campaign.row,
            campaign.row.version,
            "check",
            EventWrite(caller.user_id, caller.name, REVEAL, summary, data, thread_id=place.thread_id),
        )
        event_id = (await service.store.write(write)).event_id
        return Reply(outcome, campaign.row, event_id)

    return await service.locked(place, work)


async def verify(service: TableService, place: Place, number: int) -> Reply:
    """`/verify event:N` (anyone, to them alone): does what the reveal posted hash to the commitment posted at the
    time? Only public sides are read."""
    campaign = await service.require_campaign(place)
    event = await _event(service, campaign, number)
    hashed = commitment(event.result) or ""
    posted = f"the commitment posted at {when(event.at)}"
    found = await reveal_of(service, campaign.row.id, number)
    data: dict = {"event": number, "sha256": hashed, "sealed_at": event.at}
    if found is None:
        if await withdrawn(service, campaign.row.id, event):
            title, status = f"#{number} was withdrawn", "withdrawn"
            said = (
                f"#{number} was undone, and its seal withdrawn with it: it will not be revealed. Its commitment, "
                f"posted at {when(event.at)}, was `{hashed}`."
            )
        else:
            title, status = f"#{number} is still sealed", "sealed"
            said = (
                f"Nobody has revealed #{number} yet. Its commitment, posted at {when(event.at)}, is `{hashed}`. "
                f"When a GM reveals it (`/campaign reveal event:{number}`), check it here again."
            )
        card = Card(title=title, description=said, tone="neutral")
        return Reply(Outcome(card=card, summary="verify", data={**data, "status": status}, ephemeral=True))
    again = digest(found.text, found.salt)
    matches = again == hashed
    data |= {"status": "matches" if matches else "differs", "revealed_by": found.event.seq, "recomputed": again}
    how = f"By hand:\n```\n{clip(hand_check(found.text, found.salt), 1500)}\n```"
    if matches:
        card = Card(
            title=f"#{number} matches",
            description=(
                f"What #{found.event.seq} revealed matches {posted}: the SHA-256 of its text, `|` and its salt is "
                f"`{again}`, the hash posted before anyone knew the result.\n{how}"
            ),
            tone="success",
        )
    else:
        card = Card(
            title=f"#{number} does not match",
            description=(
                f"What #{found.event.seq} revealed does NOT match {posted}: the SHA-256 of its text, `|` and its "
                f"salt is `{again}`, but the commitment was `{hashed}`.\n{how}"
            ),
            tone="failure",
        )
    return Reply(Outcome(card=card, summary="verify", data=data, ephemeral=True))


async def choices(
    service: TableService, place: Place, caller: Caller, current: str, *, to_reveal: bool
) -> list[tuple[str, int]]:
    """Autocomplete of sealed events, newest first, as (label, number). ``to_reveal`` (`/campaign reveal`): a GM's
    unrevealed ones, each labelled with its secret text (a player gets none). Else (`/verify`): every sealed one,
    labelled only with what the log's public side says."""
    campaign = await service.campaign(place)
    if campaign is None:
        return []
    is_gm = campaign.is_gm(caller)
    if to_reveal and not is_gm:
        return []
    events = await service.store.events(campaign.row.id, limit=LOOKED_AT)
    revealed = {e.result.get("reveals") for e in events if e.command == REVEAL}
    typed = current.strip().lstrip("#")
    found: list[tuple[str, int]] = []
    for event in events:
        hashed = commitment(event.result)
        if hashed is None or (typed and not str(event.seq).startswith(typed)):
            continue
        done = event.seq in revealed
        if to_reveal:
            if done or await withdrawn(service, campaign.row.id, event):
                continue
            sealed = kept(event.result)
            label = f"#{event.seq} {event.actor_name} /{event.command}: {sealed[0] if sealed else event.summary}"
        else:
            state = "revealed" if done else "sealed"
            label = f"#{event.seq} {event.actor_name} /{event.command}: {event.summary} ({state} {hashed[:8]})"
        found.append((clip(label, 100), event.seq))
        if len(found) == CHOICES:
            break
    return found
