"""Web links: a signed capability for one member to read one campaign's pages (docs/web.md).

A link is ``<base>/w/<token>/``. The token is the link's terms and an HMAC-SHA256 of them under the links' key
(``MAGISTER_WEB_SECRET``, or one made once and kept in the database), so nobody can make or change one:

- the campaign and the member it is for; the page shows that member's view (a GM's, or a player's) as it stands
  when the page is read, so a GM removed from the campaign reads what any player reads;
- the campaign's and the member's link generations when it was made: ``/campaign web revoke`` bumps one, and every
  link made before no longer opens;
- when it stops opening.

Who may open a campaign's pages is kept in ``web_access``: a member who asked for a link while they were one of its
GMs or players (the owner of a character, or anyone who has acted in its log). Forgetting a member (``/campaign
player forget``, ``/privacy forget``) deletes their row, so their links stop opening. Nothing here writes the game:
asking for a link, revoking links and reading pages change no campaign and add nothing to its log.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import struct
import weakref
from dataclasses import dataclass, field

from bot.storage.rows import CampaignRow, CharacterRow, LogQuery
from bot.table.pbp import epoch, iso_at
from bot.table.secrecy import Reader
from bot.table.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, Outcome, RuleError

TERMS = struct.Struct(">BQQIIQ")  # version, campaign id, member id, campaign generation, member generation, expiry
VERSION = 1
MAC_BYTES = 16  # an HMAC-SHA256 cut to 128 bits: forging one is 2^128 guesses
DAY = 86_400
MAX_DAYS = 365


@dataclass(frozen=True)
class WebLinks:
    """Where links point and the key that signs them; None on a bot whose pages are off."""

    base_url: str
    key: bytes = field(repr=False)
    days: int = 30

    def url(self, token: str) -> str:
        return f"{self.base_url}/w/{token}/"


@dataclass(frozen=True)
class Link:
    """A link's terms, as signed."""

    campaign_id: int
    user_id: int
    campaign_generation: int
    member_generation: int
    expires: int  # seconds since the epoch (UTC)


class LinkRefusedError(Exception):
    """A link that does not open (now). ``reason``: ``bad`` (not a link of ours, or changed), ``expired``,
    ``revoked``, ``removed`` (the member is no longer one of the campaign's) or ``gone`` (no such campaign)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def web_links(service: TableService, base_url: str, secret: str | None, days: int = 30) -> WebLinks:
    """The links' settings: the given secret, else the key kept in the database (made the first time)."""
    if secret:
        key = hashlib.sha256(secret.encode()).digest()
    else:
        kept = await service.store.web_secret()
        if kept is None:
            made = secrets.token_hex(32)
            kept = await service.store.write(lambda tx: tx.keep_web_secret(made))
        key = bytes.fromhex(kept)
    return WebLinks(base_url.rstrip("/"), key, days)


def sign(key: bytes, link: Link) -> str:
    terms = TERMS.pack(
        VERSION, link.campaign_id, link.user_id, link.campaign_generation, link.member_generation, link.expires
    )
    mac = hmac.new(key, terms, hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(terms + mac).decode().rstrip("=")


def read(key: bytes, token: str) -> Link:
    """The terms of a token signed with ``key``; :class:`LinkRefusedError` ("bad") for anything else."""
    if len(token) > 200 or not token.isascii():
        raise LinkRefusedError("bad")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except ValueError:
        raise LinkRefusedError("bad") from None
    if len(raw) != TERMS.size + MAC_BYTES:
        raise LinkRefusedError("bad")
    terms, mac = raw[: TERMS.size], raw[TERMS.size :]
    if not hmac.compare_digest(mac, hmac.new(key, terms, hashlib.sha256).digest()[:MAC_BYTES]):
        raise LinkRefusedError("bad")
    version, campaign_id, user_id, campaign_generation, member_generation, expires = TERMS.unpack(terms)
    if version != VERSION:
        raise LinkRefusedError("bad")
    return Link(campaign_id, user_id, campaign_generation, member_generation, expires)


# ---------------------------------------------------------------------- who may read a campaign


# a live campaign's channel, by id, for each service (each is its own database): its pages read it from the
# service's cache
_known_places: weakref.WeakKeyDictionary[TableService, dict[int, Place]] = weakref.WeakKeyDictionary()


async def campaign_by_id(service: TableService, campaign_id: int) -> Campaign | None:
    """A campaign, live (from the service's cache) or ended, with its characters and waits."""
    _places = _known_places.setdefault(service, {})
    place = _places.get(campaign_id)
    if place is not None:
        live = await service.campaign(place)
        if live is not None and live.row.id == campaign_id:
            return live
        _places.pop(campaign_id, None)  # ended, or another campaign runs there now (pages read at once): afresh
    row = await service.store.campaign_by_id(campaign_id)
    if row is None:
        return None
    if not row.archived_at:
        live = await service.campaign(Place(row.guild_id, row.channel_id))
        if live is not None and live.row.id == row.id:
            if len(_places) > 10_000:
                _places.clear()
            _places[campaign_id] = Place(row.guild_id, row.channel_id)
            return live
    characters = {c.name.casefold(): c for c in await service.store.characters(row.id)}
    waits = {} if row.archived_at else {w.key: w for w in await service.store.waits(row.id)}
    return Campaign(row, characters, waits)


async def is_member(service: TableService, row: CampaignRow, characters: dict[str, CharacterRow], user_id: int) -> bool:
    """One of the campaign's GMs or players: a GM, the owner of a character, or anyone who has acted in its log."""
    if user_id == 0:
        return False
    if user_id in row.gm_ids or any(c.owner_id == user_id for c in characters.values()):
        return True
    return bool(await service.store.events_matching(row.id, LogQuery(actor_id=user_id), limit=1))


@dataclass
class Access:
    """An open link: whose page it is and of which campaign, as it stands now."""

    campaign: Campaign
    user_id: int
    names: dict[int, str]  # members with web access, by id: the names they asked with
    expires: int

    @property
    def is_gm(self) -> bool:
        """A GM of the moment (the campaign's list: a server manager who is not on it reads as a player)."""
        return self.user_id in self.campaign.row.gm_ids

    @property
    def name(self) -> str:
        return self.names.get(self.user_id) or "you"

    @property
    def caller(self) -> Caller:
        return Caller(self.user_id, self.name)

    @property
    def reader(self) -> Reader:
        return Reader(self.user_id, self.is_gm)


async def open_link(service: TableService, links: WebLinks, token: str) -> Access:
    """The access a token gives now, or :class:`LinkRefusedError` saying why it does not open."""
    link = read(links.key, token)
    if link.expires <= epoch(service.clock()):
        raise LinkRefusedError("expired")
    access = await service.store.web_access(link.campaign_id)
    if link.user_id not in access or link.user_id == 0:
        raise LinkRefusedError("removed")
    generations = (access.get(0, (0, ""))[0], access[link.user_id][0])
    if generations != (link.campaign_generation, link.member_generation):
        raise LinkRefusedError("revoked")
    campaign = await campaign_by_id(service, link.campaign_id)
    if campaign is None:
        raise LinkRefusedError("gone")
    names = {user_id: name for user_id, (_, name) in access.items() if user_id}
    return Access(campaign, link.user_id, names, link.expires)


# ---------------------------------------------------------------------- /campaign web link and revoke

OFF = (
    "The web pages are off on this Magister: whoever runs it turns them on with MAGISTER_WEB_PORT "
    "(and MAGISTER_WEB_URL behind a proxy)."
)


async def _target(service: TableService, place: Place, archived: int | None) -> Campaign:
    """This channel's campaign, or one that ended here (``archived``: its # in /campaign archive list)."""
    if archived is None:
        return await service.require_campaign(place)
    campaign = await campaign_by_id(service, archived)
    row = None if campaign is None else campaign.row
    if row is None or (row.guild_id, row.channel_id) != (place.guild_id, place.channel_id) or not row.archived_at:
        raise RuleError(f"This channel has no ended campaign #{archived}; `/campaign archive list` shows them.")
    assert campaign is not None
    return campaign


async def issue(
    service: TableService,
    links: WebLinks | None,
    place: Place,
    caller: Caller,
    *,
    archived: int | None = None,
    days: int | None = None,
) -> Reply:
    """A link for the caller alone to this channel's campaign (or an ended one), shown only to them."""
    if links is None:
        raise RuleError(OFF)
    days = links.days if days is None else days
    if not 1 <= days <= MAX_DAYS:
        raise RuleError(f"A link opens for 1 to {MAX_DAYS} days; `days:30` is a month.")
    campaign = await _target(service, place, archived)
    row = campaign.row
    member = caller.manages_guild or await is_member(service, row, campaign.characters, caller.user_id)
    if not member:
        raise RuleError(
            "The web pages are for this campaign's GMs and players: make a character or play here first "
            "(a roll counts), then ask again."
        )
    generations = await service.store.write(lambda tx: tx.grant_web(row.id, caller.user_id, caller.name))
    expires = epoch(service.clock()) + days * DAY
    url = links.url(sign(links.key, Link(row.id, caller.user_id, *generations, expires)))
    gm = caller.user_id in row.gm_ids
    view = "the GM's view: every secret of the campaign" if gm else "your view: what you may read here, your secrets"
    card = Card(
        title=f"Your page of {row.name}",
        description=(
            f"{url}\n\nIt shows {view}; it changes nothing. It is yours alone: whoever holds it reads as you, so do "
            f"not post it. It opens until {iso_at(expires)[:10]}; `/campaign web link` makes a new one, and "
            "`/campaign web revoke member:` (yourself) closes every one you were given."
        ),
    )
    data = {"url": url, "campaign": row.name, "view": "gm" if gm else "player", "expires": iso_at(expires)}
    return Reply(Outcome(card=card, summary="asked for a web link", data=data, ephemeral=True), row)


async def revoke(
    service: TableService,
    place: Place,
    caller: Caller,
    member: tuple[int, str] | None = None,
    *,
    archived: int | None = None,
) -> Reply:
    """Every link made so far stops opening: the campaign's (a GM), or one member's (a GM, or that member)."""
    campaign = await _target(service, place, archived)
    row = campaign.row
    gm = campaign.is_gm(caller) or (archived is not None and caller.user_id in row.gm_ids)
    if member is None and not gm:
        raise RuleError(
            "Closing every link of the campaign needs the GM. To close your own links: "
            "`/campaign web revoke member:` naming yourself."
        )
    if member is not None and member[0] != caller.user_id and not gm:
        raise RuleError("Only a GM closes another member's links; you may close your own (`member:` yourself).")
    target = 0 if member is None else member[0]
    revoked = await service.store.write(lambda tx: tx.revoke_web(row.id, target))
    if member is None:
        text = (
            f"Every web link of {row.name} made until now no longer opens. "
            "Members ask for new ones with `/campaign web link`."
        )
    elif revoked:
        text = f"Every web link {member[1]} was given for {row.name} no longer opens."
    else:
        text = f"{member[1]} has no web link for {row.name}: nothing to close."
    card = Card(title="Web links closed" if revoked else "No web links", description=text)
    data = {"campaign": row.name, "member_id": target or None, "revoked": revoked}
    return Reply(Outcome(card=card, summary="closed web links", data=data, ephemeral=True), row)
