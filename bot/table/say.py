"""Speaking as a character (``/say``): the post, its inline rolls, its edits and its deletion, as the log keeps them.

A post is a log entry ``say`` (who spoke as whom, the words, each roll as shown, the message that carries it);
each inline roll is logged before it as the command it stands for (``roll``, ``check``, ``pool``), through
:meth:`TableService.record`, the one path every roll takes, so a secret one is kept secret exactly as a secret
``/roll``. An edit (``say edit``) and a deletion (``say delete``) are entries of their own: the log is append-only,
and a post's words now are its newest edit's. Posts change nothing in the game, so ``/campaign undo`` passes over
them as it passes over rolls; the rolls stay as rolled (rulings in docs/rulings.md, "Speaking as a character").

Where the post goes (a channel webhook, or the bot itself) is the adapter's business (bot/adapter/speaking.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from bot.storage.rows import CampaignRow, EventRow, LogQuery
from bot.table.inline import Marker, Rolled, parse, render, roll_all, same_roll
from bot.table.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, Outcome, RuleError
from rules.text import clip

MAX_CONTENT = 2000  # Discord's limit for a message's text
MAX_TEXT = 1800  # what a player may type: room left for the rolls and the small line naming who spoke
SCAN = 100  # log entries read at a time when looking for a post
SCAN_PAGES = 20  # how far back a post is looked for: its newest edits, or the post itself by its message
AVATARS = "avatars"  # key of the campaign's ``pbp`` JSON: character (casefolded) -> picture URL
MAX_URL = 1000


@dataclass
class Draft:
    """A post rolled and worded, not yet logged or posted: nothing is saved until it is sure to be shown."""

    campaign: CampaignRow
    character: str
    avatar: str | None
    text: str
    rolled: list[Rolled]
    body: str  # the words with every roll shown


@dataclass
class Post:
    """A post as the log knows it now: its entry, its words after the newest edit, and where its message is."""

    event: EventRow
    text: str
    body: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def number(self) -> int:
        return self.event.seq

    @property
    def message_id(self) -> int:
        return int(self.data["message_id"])

    @property
    def character(self) -> str:
        return str(self.data["character"])


def byline(character: str, player: str, *, as_bot: bool = False) -> str:
    """The small line under a post (Discord's ``-#`` subtext): who spoke, so a table always knows."""
    if as_bot:
        return f"-# {character}, played by {player}"
    return f"-# played by {player}"


def content(character: str, player: str, body: str, *, as_bot: bool) -> str:
    """The message as it goes out: as the character (the webhook shows the name), or as the bot, named."""
    text = f"**{character}**\n{body}" if as_bot else body
    return f"{text}\n{byline(character, player, as_bot=as_bot)}"


def _fits(character: str, player: str, body: str) -> None:
    size = max(len(content(character, player, body, as_bot=flag)) for flag in (True, False))
    if size > MAX_CONTENT:
        raise RuleError(
            f"With its rolls shown, that post would have {size} characters; Discord allows {MAX_CONTENT}. "
            "Shorten the words or roll fewer dice. Nothing was posted."
        )


async def draft(service: TableService, place: Place, caller: Caller, character: str | None, text: str) -> Draft:
    """Check who may speak as whom, then read and roll every inline roll: a refusal rolls and posts nothing."""
    text = text.strip()
    if not text:
        raise RuleError("Write what your character says, e.g. `I open the door. [[1d20+5 # Perception]]`.")
    if len(text) > MAX_TEXT:
        raise RuleError(f"A post takes at most {MAX_TEXT} characters; that one has {len(text)}.")
    campaign = await service.require_campaign(place)
    record = service.table_for(campaign, caller).default_character(character)
    actions = _actions(service, campaign)
    pieces, rolled = roll_all(text, service.rng, actions)
    body = render(pieces, {index: roll.shown for index, roll in enumerate(rolled)})
    _fits(record.name, caller.name, body)
    avatar = (campaign.row.pbp.get(AVATARS) or {}).get(record.name.casefold())
    return Draft(campaign.row, record.name, avatar, text, rolled, body)


def _actions(service: TableService, campaign: Campaign) -> tuple:
    ruleset = campaign.row.ruleset
    return service.registry.get(ruleset).ruleset.inline_actions if ruleset in service.registry else ()


async def log_rolls(service: TableService, place: Place, caller: Caller, post: Draft) -> list[Reply]:
    """Each inline roll logged as the command it stands for (a secret one kept secret by the same path)."""
    replies = []
    for roll in post.rolled:
        outcome = roll.outcome.model_copy(deep=True)
        outcome.card.footer = f"{outcome.card.footer} · {roll.line}" if outcome.card.footer else roll.line
        replies.append(await service.record(place, caller, roll.command, outcome, secret=roll.marker.secret))
    return replies


async def log_post(
    service: TableService,
    place: Place,
    caller: Caller,
    post: Draft,
    rolls: list[Reply],
    *,
    message_id: int,
    as_bot: bool,
) -> Reply:
    """The post's own log entry, once its message is out: what the table read, and where it is."""
    shown = [
        {"command": roll.command, "shown": roll.shown, "secret": roll.marker.secret, "written": _public(roll.marker)}
        for roll in post.rolled
    ]
    data = {
        "character": post.character,
        "text": public_text(post.text),
        "body": post.body,
        "rolls": shown,
        "message_id": message_id,
        "channel_id": place.channel_id,
        "thread_id": place.thread_id,
        "as_bot": as_bot,
    }
    summary = f"{post.character}: {clip(post.body, 200)}"
    outcome = Outcome(card=Card(title=f"Posted as {post.character}"), summary=summary, data=data, ephemeral=True)
    if any(roll.marker.secret for roll in post.rolled):  # what a secret roll was for is the GM's (and the author's)
        outcome.secret_data = {"text": post.text, "written": [roll.marker.written for roll in post.rolled]}
    reply = await service.record(place, caller, "say", outcome)
    number = await _number(service, post.campaign.id, caller, reply.event_id)
    secrets = [r for r in rolls if r.outcome.secret is not None]
    lines = [f"Posted as **{post.character}**: post #{number} in `/campaign log`."]
    if secrets:
        lines.append(
            "Its secret roll went to the GM only."
            if len(secrets) == 1
            else f"Its {len(secrets)} secret rolls went to the GM only."
        )
    lines.append(f"Change its words with `/say edit post:{number}`, or take it down with `/say delete post:{number}`.")
    if as_bot:
        lines.append(
            "I posted it as myself with the character's name: to post as the character (its name and picture), "
            "give Magister the **Manage Webhooks** permission in this channel."
        )
    reply.outcome.card.description = "\n".join(lines)
    reply.outcome.data = {**data, "number": number}
    return reply


SECRET_WRITTEN = "[[secret roll]]"


def _public(marker: Marker) -> str:
    return SECRET_WRITTEN if marker.secret else marker.written


def public_text(text: str) -> str:
    """The words as typed, each secret roll written only as ``[[secret roll]]``: its label can say what was
    looked for, so the whole of it is on the GM's side of the log (docs/rulings.md, secret results)."""
    pieces = parse(text)
    markers = [piece for piece in pieces if isinstance(piece, Marker)]
    return render(pieces, {index: _public(marker) for index, marker in enumerate(markers)})


def _hidden(event: EventRow) -> dict[str, Any]:
    """The GM's side of a post's (or an edit's) entry: its words with the secret rolls as written."""
    return ((event.result.get("secret") or {}).get("data")) or {}


async def _number(service: TableService, campaign_id: int, caller: Caller, event_id: int | None) -> int:
    """The post's number in the log (what ``/say edit post:`` takes)."""
    for event in await service.store.events_matching(
        campaign_id, LogQuery(actor_id=caller.user_id, command="say"), limit=5
    ):
        if event.id == event_id:
            return event.seq
    raise RuleError("The post went out, but I could not find its log entry. `/campaign log` lists it.")


# ---------------------------------------------------------------------- finding a post again


async def find(
    service: TableService,
    place: Place,
    caller: Caller,
    *,
    number: int | None = None,
    message_id: int | None = None,
) -> Post:
    """A post the caller may change: by its number, by its message, or else the caller's newest here.
    Its author and the GMs may change it; a deleted one is gone."""
    campaign = await service.require_campaign(place)
    cid = campaign.row.id
    event: EventRow | None = None
    if number is not None:
        found = await service.store.event_numbered(cid, number)
        event = found if found is not None and found.command == "say" else None
        if event is None:
            raise RuleError(f"#{number} is not a post of this campaign. `/campaign log command:say` lists them.")
    elif message_id is not None:
        event = await _by_message(service, cid, message_id)
        if event is None:
            raise RuleError("That message is not a post made with `/say` in this campaign (or it is too old).")
    else:
        mine = await service.store.events_matching(cid, LogQuery(actor_id=caller.user_id, command="say"), limit=25)
        for candidate in mine:
            if candidate.result.get("thread_id") == place.thread_id and not await _deleted(service, cid, candidate):
                event = candidate
                break
        if event is None:
            raise RuleError("You have no post here to change. Post with `/say as`; `post:` names another by number.")
    if event.actor_id != caller.user_id and not campaign.is_gm(caller):
        raise RuleError(f"Post #{event.seq} is {event.actor_name}'s: only they and the GMs may change it.")
    if await _deleted(service, cid, event):
        raise RuleError(f"Post #{event.seq} was deleted already.")
    data = dict(event.result)
    written = _hidden(event).get("written")
    if written:  # the secret rolls as written: what an edit matches a roll against
        data["rolls"] = [{**roll, "written": mark} for roll, mark in zip(data["rolls"], written, strict=True)]
    newest = await _newest_about(service, cid, "say edit", event.seq) or event
    text = _hidden(newest).get("text", newest.result["text"])
    return Post(event, text, newest.result["body"], data)


async def _by_message(service: TableService, campaign_id: int, message_id: int) -> EventRow | None:
    before = None
    for _ in range(SCAN_PAGES):
        page = await service.store.events_matching(campaign_id, LogQuery(command="say"), limit=SCAN, before=before)
        for event in page:
            if event.result.get("message_id") == message_id:
                return event
        if len(page) < SCAN:
            return None
        before = page[-1].seq
    return None


async def _newest_about(service: TableService, campaign_id: int, command: str, number: int) -> EventRow | None:
    """The newest ``say edit`` (or ``say delete``) of post ``number``."""
    before = None
    for _ in range(SCAN_PAGES):
        page = await service.store.events_matching(campaign_id, LogQuery(command=command), limit=SCAN, before=before)
        for event in page:
            if event.seq < number:
                return None
            if event.result.get("post") == number:
                return event
        if len(page) < SCAN:
            return None
        before = page[-1].seq
    return None


async def _deleted(service: TableService, campaign_id: int, event: EventRow) -> bool:
    return await _newest_about(service, campaign_id, "say delete", event.seq) is not None


# ---------------------------------------------------------------------- edit and delete


def edited_body(post: Post, text: str) -> str:
    """The post's new words with its rolls as rolled. Writing a roll again as it was (``[[3d6+2]]``) keeps it in
    that place; a roll left out stays, at the end; a roll that was not in the post is refused: an edit rolls
    nothing."""
    text = text.strip()
    if not text:
        raise RuleError("Give the post's new words, or delete it with `/say delete`.")
    if len(text) > MAX_TEXT:
        raise RuleError(f"A post takes at most {MAX_TEXT} characters; that one has {len(text)}.")
    pieces = parse(text)
    rolls = list(post.data.get("rolls") or [])
    left = list(range(len(rolls)))
    shown: dict[int, str] = {}
    index = 0
    for piece in pieces:
        if isinstance(piece, str):
            continue
        match = next((i for i in left if same_roll(rolls[i]["written"]) == piece.key), None)
        if match is None:
            raise RuleError(
                f"An edit cannot roll: `{clip(piece.written, 60)}` was not in post #{post.number}. The rolls stay as "
                "rolled (write one as it was to keep it in its place); roll anew in a new post."
            )
        left.remove(match)
        shown[index] = rolls[match]["shown"]
        index += 1
    body = render(pieces, shown)
    if left:
        body += "\n" + " ".join(rolls[i]["shown"] for i in left)
    _fits(post.character, post.event.actor_name, body)
    return body


async def log_edit(service: TableService, place: Place, caller: Caller, post: Post, text: str, body: str) -> Reply:
    data = {"post": post.number, "text": public_text(text.strip()), "body": body, "character": post.character}
    hidden = {"text": text.strip()} if data["text"] != text.strip() else {}
    outcome = Outcome(
        secret_data=hidden,
        card=Card(title=f"Post #{post.number} edited", description="Its words changed; its rolls stay as rolled."),
        summary=f"edited post #{post.number} ({post.character}): {clip(body, 160)}",
        data=data,
        ephemeral=True,
    )
    return await service.record(place, caller, "say edit", outcome)


async def log_delete(service: TableService, place: Place, caller: Caller, post: Post) -> Reply:
    data = {"post": post.number, "character": post.character, "message_id": post.message_id}
    outcome = Outcome(
        card=Card(
            title=f"Post #{post.number} deleted",
            description="The message is gone; the log keeps what it said and its rolls.",
        ),
        summary=f"deleted post #{post.number} ({post.character})",
        data=data,
        ephemeral=True,
    )
    return await service.record(place, caller, "say delete", outcome)


# ---------------------------------------------------------------------- avatars


def check_avatar_url(url: str) -> str:
    """A picture's address as Discord can fetch it: https, a host, not too long."""
    url = url.strip()
    parsed = urlparse(url)
    if parsed.scheme != "https" or not parsed.netloc or len(url) > MAX_URL or any(c.isspace() for c in url):
        raise RuleError(
            f"Give the picture as an https:// link of at most {MAX_URL} characters "
            "(e.g. `https://example.com/merlin.png`), or attach the picture."
        )
    return url


async def set_avatar(service: TableService, place: Place, caller: Caller, name: str, url: str | None) -> Reply:
    """A character's picture for its posts: its player's (or a GM's) to set; logged, and undone by undo."""

    async def change(campaign: Campaign, tx: Any) -> Outcome:
        record = service.table_for(campaign, caller).own_character(name)
        avatars = dict(campaign.row.pbp.get(AVATARS) or {})
        if url is None:
            avatars.pop(record.name.casefold(), None)
        else:
            avatars[record.name.casefold()] = url
        campaign.row.pbp = {**campaign.row.pbp, AVATARS: avatars}
        if url is None:
            card = Card(title=f"{record.name}: no picture", description="Its posts show the default picture now.")
        else:
            card = Card(title=f"{record.name}: new picture", description=f"Its posts show {url}", tone="success")
        return Outcome(
            card=card,
            summary=f"set {record.name}'s picture" if url else f"removed {record.name}'s picture",
            data={"name": record.name, "avatar": url},
        )

    return await service.change_campaign(place, caller, "character avatar", change, gm_only=False)
