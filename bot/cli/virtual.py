"""A Discord that lives in-process: real interactions, real CommandTree, recorded replies.

The console table and the tests drive Magister through this, so a line typed
at the console runs exactly the code a Discord user triggers. It builds
gateway-shaped interaction payloads, turns them into real
``discord.Interaction`` objects, dispatches them through the bot's
``CommandTree`` (as discord.py's own tests do with ``CommandTree._call``), and
replaces the webhook adapter behind ``interaction.response`` with a recorder.

These are discord.py internals, which is why discord.py is pinned to 2.7.x and
this is the one module that touches them.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.adapter.limits import autocomplete_problems, message_problems, webhook_problems

APPLICATION_ID = 424242424242424242
BOT_USER_ID = 424242424242424242
MANAGE_GUILD = discord.Permissions(manage_guild=True).value
PLAYER_PERMISSIONS = discord.Permissions(send_messages=True, view_channel=True, use_application_commands=True).value

# A new server's @everyone (its text part), and the bit that decides who reads a channel
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    add_reactions=True,
    embed_links=True,
    attach_files=True,
    use_application_commands=True,
    create_instant_invite=True,
    change_nickname=True,
).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
# what the bot may do in a channel (an interaction's ``app_permissions``): what its invite asks for
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_messages=True,
    manage_webhooks=True,
).value
GM_ONLY = "gm-only"  # every virtual server has this channel, which @everyone cannot view
GUILD_CHANNEL_TYPES = (0, 2, 4, 5, 13, 15, 16)  # text, voice, category, news, stage, forum, media: not threads

SELECTS = (3, 5, 6, 7, 8)
IMAGE_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}
MODAL_LIMITS = {"title": 45, "label": 45, "placeholder": 100, "value": 4000}

_snowflakes = itertools.count(1_100_000_000_000_000_000)


# Files "uploaded" with an attachment option, by URL: what Discord's CDN would serve to Attachment.read().
VIRTUAL_CDN: dict[str, bytes] = {}


async def _virtual_cdn(url: str) -> bytes:
    try:
        return VIRTUAL_CDN[url]
    except KeyError:
        raise discord.NotFound(_Gone(), "Unknown attachment") from None


class _Gone:
    status = 404
    reason = "Not Found"


def next_snowflake() -> int:
    """A fresh id, as Discord gives each new message (the console's timer messages)."""
    return next(_snowflakes)


def snowflake_for(name: str) -> int:
    """A stable id for a console name, so the same name is the same user across runs."""
    digest = hashlib.sha256(name.casefold().encode()).digest()
    snowflake = 100_000_000_000_000_000 + int.from_bytes(digest[:7], "big")
    _NAMED.setdefault(snowflake, name)
    return snowflake


_NAMED: dict[int, str] = {}  # each id a name was turned into: "Carol", "#gm-only", "@Players" (the same in any run)


def name_for(snowflake: int) -> str | None:
    """The console name an id was made from (``snowflake_for``), if any line of this process used it."""
    return _NAMED.get(snowflake)


@dataclass
class VirtualUser:
    name: str
    manages_guild: bool = False
    fixed_id: int | None = None  # a known user (the campaign's GM) whose name we may not know

    @property
    def id(self) -> int:
        return self.fixed_id if self.fixed_id is not None else snowflake_for(self.name)

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name.casefold().replace(" ", "_")[:32],
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
        }


@dataclass
class Sent:
    """One message (or edit, or autocomplete answer) the bot sent back."""

    kind: str  # "message", "followup", "edit", "autocomplete", "defer", "modal"
    id: int
    content: str | None = None
    embeds: list[dict] = field(default_factory=list)
    ephemeral: bool = False
    components: list[dict] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    choices: list[dict] = field(default_factory=list)
    allowed_mentions: dict | None = None  # who Discord would let this message ping
    form: dict | None = None  # a modal the bot opened: custom_id, title, components
    username: str | None = None  # a channel webhook's message: the name and picture it shows, and its thread
    avatar_url: str | None = None
    thread_id: int | None = None

    def inputs(self) -> list[dict]:
        """A modal's text inputs, in order."""
        return [
            item for row in (self.form or {}).get("components", []) for item in _row_items(row) if item["type"] == 4
        ]

    def selects(self) -> list[dict]:
        """Select menus of any kind: strings (3), users (5), roles (6), mentionables (7), channels (8)."""
        return [item for row in self.components for item in row.get("components", []) if item.get("type") in SELECTS]

    def buttons(self) -> list[dict]:
        found = []
        for row in self.components:
            for item in row.get("components", []):
                if item.get("type") == 2:
                    found.append(item)
        return found


class RecordingAdapter(AsyncWebhookAdapter):
    """Stands in for Discord's HTTP API behind every interaction response."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Sent] = []
        self.messages: dict[int, Sent] = {}
        self.originals: dict[str, int] = {}  # interaction token -> message id
        self.webhooks: list[Sent] = []  # what channel webhooks sent ("webhook"), edited and deleted, in order
        self.gone_hooks: set[int] = set()  # webhooks someone deleted in Discord: using one is a 404

    async def request(
        self, route: Any, session: Any = None, *, payload=None, multipart=None, files=None, params=None, **_: Any
    ):
        method, path = route.method, route.path
        body = _body(payload, multipart)
        attachments = [(f.filename or "file", _read(f)) for f in (files or [])]
        token = route.webhook_token
        if (
            path.startswith("/webhooks/") and int(route.webhook_id) != APPLICATION_ID
        ):  # a channel's webhook (``/say``), not an interaction's
            return self._channel_webhook(route, body, attachments, params or {})
        if path.endswith("/callback"):
            return self._callback(route.webhook_id, token, body, attachments)
        if method == "POST":  # followup
            sent = self._message("followup", body.get("data", body), attachments)
            return self._message_payload(sent)
        if method == "PATCH":
            message_id = self._target(path, route, token)
            sent = self._message("edit", body, attachments, message_id=message_id)
            return self._message_payload(sent)
        if method == "GET":
            return self._message_payload(self.messages[self._target(path, route, token)])
        return None  # DELETE

    def _channel_webhook(self, route: Any, body: dict, attachments: list, params: dict) -> dict | None:
        """Execute (POST), edit (PATCH) or delete (DELETE) a message through a channel webhook, as Discord would:
        over its limits (a name of more than 80 characters, or holding "discord" or "clyde") is a 400."""
        thread = int(params["thread_id"]) if params.get("thread_id") else None
        if int(route.webhook_id) in self.gone_hooks:
            raise discord.NotFound(_Gone(), "Unknown Webhook")
        if route.method == "DELETE":
            message_id = int(route.url.rsplit("/", 1)[1])
            if message_id not in self.messages:
                raise discord.NotFound(_Gone(), "Unknown Message")
            self.webhooks.append(Sent("webhook delete", message_id, thread_id=thread))
            del self.messages[message_id]
            return None
        _reject_over_limits(message_problems(body) + webhook_problems(body))
        if route.method == "PATCH":
            message_id = int(route.url.rsplit("/", 1)[1])
            previous = self.messages.get(message_id)
            if previous is None:
                raise discord.NotFound(_Gone(), "Unknown Message")
            sent = Sent(
                "webhook edit",
                message_id,
                content=body.get("content", previous.content),
                username=previous.username,
                avatar_url=previous.avatar_url,
                allowed_mentions=body.get("allowed_mentions", previous.allowed_mentions),
                thread_id=thread,
            )
        else:
            sent = Sent(
                "webhook",
                next(_snowflakes),
                content=body.get("content"),
                embeds=body.get("embeds", []),
                files=attachments,
                allowed_mentions=body.get("allowed_mentions"),
                username=body.get("username"),
                avatar_url=body.get("avatar_url"),
                thread_id=thread,
            )
        self.webhooks.append(sent)
        self.messages[sent.id] = sent
        payload = message_payload(sent, channel_id=thread or 0)
        payload["webhook_id"] = str(route.webhook_id)
        payload["author"] = {"id": str(route.webhook_id), "username": sent.username or "", "avatar": None, "bot": True}
        return payload

    def _target(self, path: str, route: Any, token: str) -> int:
        message_id = getattr(route, "message_id", None)
        if path.endswith("@original") or message_id is None:
            return self.originals[token]
        return int(message_id)

    def _callback(self, interaction_id: int, token: str, body: dict, attachments: list) -> dict:
        kind = body.get("type")
        data = body.get("data") or {}
        interaction: dict[str, Any] = {"id": str(interaction_id), "type": kind}
        if kind == 8:  # autocomplete result
            _reject_over_limits(autocomplete_problems(data.get("choices", [])))
            self.sent.append(Sent("autocomplete", next(_snowflakes), choices=data.get("choices", [])))
            return {"interaction": interaction}
        if kind in (4, 5):  # message, or deferred message
            sent = self._message("message" if kind == 4 else "defer", data, attachments)
            self.originals[token] = sent.id
            interaction.update(response_message_id=str(sent.id), response_message_ephemeral=sent.ephemeral)
        elif kind == 9:  # open a modal
            _reject_over_limits(modal_problems(data))
            self.sent.append(Sent("modal", next(_snowflakes), form=data))
        elif kind == 7:  # update the message a component sits on
            message_id = self.originals.get(token) or self.sent[-1].id
            sent = self._message("edit", data, attachments, message_id=message_id)
            interaction.update(response_message_id=str(sent.id))
        return {"interaction": interaction}

    def _message(self, kind: str, data: dict, attachments: list, *, message_id: int | None = None) -> Sent:
        _reject_over_limits(message_problems(data))
        previous = self.messages.get(message_id) if message_id else None
        sent = Sent(
            kind=kind,
            id=message_id or next(_snowflakes),
            content=data.get("content", previous.content if previous else None),
            embeds=data.get("embeds", previous.embeds if previous else []),
            ephemeral=bool(int(data.get("flags", 0) or 0) & 64) or (previous.ephemeral if previous else False),
            components=data.get("components", previous.components if previous else []),
            files=attachments,
            allowed_mentions=data.get("allowed_mentions", previous.allowed_mentions if previous else None),
        )
        self.sent.append(sent)
        self.messages[sent.id] = sent
        return sent

    def _message_payload(self, sent: Sent) -> dict:
        return message_payload(sent, channel_id=0)


def _row_items(row: dict) -> list[dict]:
    if row.get("type") == 18:  # a label around one component
        return [row["component"]]
    return row.get("components", [])


def modal_problems(form: dict) -> list[str]:
    """What Discord would refuse in a modal: too many inputs, or a title, label or value too long."""
    problems = []
    if len(form.get("title", "")) > MODAL_LIMITS["title"]:
        problems.append(f"modal title has {len(form['title'])} characters (max 45)")
    rows = form.get("components", [])
    if not 1 <= len(rows) <= 5:
        problems.append(f"a modal has {len(rows)} components (1 to 5)")
    for row in rows:
        for item in _row_items(row):
            for key in ("label", "placeholder", "value"):
                if len(item.get(key) or "") > MODAL_LIMITS[key]:
                    problems.append(f"modal input {item.get('custom_id')}: {key} over {MODAL_LIMITS[key]} characters")
    return problems


def submission_problems(form: dict, values: dict[str, str]) -> list[str]:
    """What Discord's client refuses before it sends a modal: a required field left empty, a length out of range."""
    problems = []
    inputs = {item["custom_id"]: item for row in form.get("components", []) for item in _row_items(row)}
    for name in values:
        if name not in inputs:
            problems.append(f"the form has no field `{name}` (fields: {', '.join(inputs)})")
    for name, item in inputs.items():
        value = values.get(name, item.get("value") or "")
        if item.get("required", True) and not value:
            problems.append(f"`{name}` is required")
        if value and len(value) < (item.get("min_length") or 0):
            problems.append(f"`{name}` needs at least {item['min_length']} characters")
        if len(value) > (item.get("max_length") or 4000):
            problems.append(f"`{name}` takes at most {item.get('max_length') or 4000} characters")
    return problems


class _NoPermission:
    status = 403
    reason = "Forbidden"


class _BadRequest:
    """What ``discord.HTTPException`` reads from an HTTP response."""

    status = 400
    reason = "Bad Request"


def _reject_over_limits(problems: list[str]) -> None:
    """Answer as Discord does: a payload over its limits is a 400, and nothing is shown."""
    if problems:
        raise discord.HTTPException(_BadRequest(), "Invalid Form Body: " + "; ".join(problems))  # type: ignore[arg-type]


def message_payload(sent: Sent, *, channel_id: int) -> dict:
    return {
        "id": str(sent.id),
        "channel_id": str(channel_id),
        "type": 0,
        "content": sent.content or "",
        "embeds": sent.embeds,
        "components": sent.components,
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "flags": 64 if sent.ephemeral else 0,
        "timestamp": datetime.now(UTC).isoformat(),
        "edited_timestamp": None,
        "author": {"id": str(BOT_USER_ID), "username": "magister", "discriminator": "0", "avatar": None, "bot": True},
    }


def _body(payload: dict | None, multipart: list | None) -> dict:
    if payload is not None:
        return payload
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return {}


def _read(file: discord.File) -> bytes:
    file.fp.seek(0)
    return file.fp.read()


def channel_id_for(name: str) -> int:
    """The id a console channel name stands for (``#gm-only``, ``gm-only``): the same in every run."""
    return snowflake_for(f"#{name.lstrip('#')}")


def role_id_for(name: str) -> int:
    """The id a console role name stands for, as ``role:`` options resolve it."""
    return snowflake_for(f"@{name.lstrip('@')}")


def overwrite(target_id: int, *, member: bool = False, allow: int = 0, deny: int = 0) -> dict:
    """A channel's permission overwrite for a role (or, ``member``, one member), as Discord sends it."""
    return {"id": str(target_id), "type": 1 if member else 0, "allow": str(allow), "deny": str(deny)}


class VirtualGuild:
    """A server as the bot's cache holds it after Discord's GUILD_CREATE: its roles (@everyone with a new server's
    permissions) and its channels, each with its permission overwrites. Every virtual server has ``#gm-only``,
    which @everyone cannot view; a channel a command names that was never added is an ordinary, public one.
    Each change is put into the bot's cache at once, so the adapter reads it as it would read Discord's."""

    def __init__(self, state: Any, guild_id: int) -> None:
        self._state = state
        self.id = guild_id
        self.roles: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.add_role("@everyone", EVERYONE_PERMISSIONS, role_id=guild_id)
        self.add_channel(GM_ONLY, overwrites=[overwrite(guild_id, deny=VIEW_CHANNEL)])

    def add_role(self, name: str, permissions: int = 0, *, role_id: int | None = None) -> int:
        role_id = role_id if role_id is not None else role_id_for(name)
        self.roles[role_id] = {
            "id": str(role_id),
            "name": name,
            "permissions": str(permissions),
            "position": len(self.roles),
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": True,
        }
        self._cache()
        return role_id

    def add_channel(
        self, name: str, *, overwrites: list[dict] | tuple = (), kind: int = 0, channel_id: int | None = None
    ) -> int:
        """Add (or replace) a channel; ``overwrites`` as :func:`overwrite` makes them. Its id."""
        name = name.lstrip("#")
        channel_id = channel_id if channel_id is not None else channel_id_for(name)
        payload = channel_payload(channel_id, self.id)
        payload.update(name=name, type=kind, permission_overwrites=list(overwrites))
        if kind in (2, 13):  # voice and stage channels carry these too
            payload.update(bitrate=64000, user_limit=0)
        self.channels[channel_id] = payload
        self._cache()
        return channel_id

    def know(self, channels: dict[str, dict]) -> None:
        """Channels an interaction resolves (an option, a pick) exist on the server: public, unless added before."""
        new = {
            int(key): value
            for key, value in channels.items()
            if int(key) not in self.channels and value.get("type") in GUILD_CHANNEL_TYPES  # threads are not channels
        }
        for channel_id, channel in new.items():
            self.add_channel(channel.get("name") or f"table-{channel_id}", kind=channel["type"], channel_id=channel_id)

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": f"server-{self.id}",
            "owner_id": "1",
            "member_count": 2,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": list(self.roles.values()),
            "channels": list(self.channels.values()),
        }

    def _cache(self) -> None:
        self._state._add_guild_from_data(self.payload())


class ChannelPosts:
    """Stands in for Discord's HTTP API behind what the bot posts on its own (``channel.send``: a timer's
    message, the live board): fetching a channel answers a text channel, posting in one is recorded as a
    :class:`Sent`, pinning one as its id in :attr:`pinned`."""

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        self.sent: list[Sent] = []
        self.pinned: list[int] = []
        self.hooks: dict[int, list[dict]] = {}  # channel id -> its webhooks, as Discord lists them
        self.changed: list[Sent] = []  # the bot's own messages edited ("edit") or deleted ("delete"), in order
        self.refuse_webhooks = False  # True: the bot lacks Manage Webhooks here, as Discord answers it (403)

    def hook(self, channel_id: int, name: str, *, mine: bool = True) -> dict:
        """A webhook of the channel, as someone made it (``mine``: the bot), with a token the bot may use."""
        hook_id = next(_snowflakes)
        user = {"id": str(BOT_USER_ID if mine else snowflake_for("someone")), "username": "x", "discriminator": "0"}
        body = {
            "id": str(hook_id),
            "type": 1,
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_id),
            "name": name,
            "avatar": None,
            "token": f"hook-{hook_id}",
            "application_id": str(APPLICATION_ID) if mine else None,
            "user": user | {"avatar": None, "bot": mine},
        }
        self.hooks.setdefault(channel_id, []).append(body)
        return body

    async def request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        channel_id = int(route.channel_id)
        if route.method == "GET" and route.path == "/channels/{channel_id}":
            return channel_payload(channel_id, self.guild_id)
        if route.path == "/channels/{channel_id}/webhooks":
            if self.refuse_webhooks:
                raise discord.Forbidden(_NoPermission(), "Missing Permissions")
            if route.method == "GET":
                return list(self.hooks.get(channel_id, []))
            return self.hook(channel_id, (kwargs.get("json") or {})["name"])
        if route.path == "/channels/{channel_id}/messages/{message_id}" and route.method in ("PATCH", "DELETE"):
            message_id = int(route.url.rsplit("/", 1)[1])
            if route.method == "DELETE":
                self.changed.append(Sent("delete", message_id))
                return None
            body = kwargs.get("json") or {}
            _reject_over_limits(message_problems(body))
            self.changed.append(Sent("edit", message_id, content=body.get("content")))
            return message_payload(self.changed[-1], channel_id=channel_id)
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            body = kwargs.get("json") or _body(None, [dict(part) for part in form or []])
            _reject_over_limits(message_problems(body))
            sent = Sent(
                kind="message",
                id=next(_snowflakes),
                content=body.get("content"),
                embeds=body.get("embeds", []),
                components=body.get("components", []),
                files=[(f.filename or "file", _read(f)) for f in files or []],
                allowed_mentions=body.get("allowed_mentions"),
            )
            self.sent.append(sent)
            return message_payload(sent, channel_id=channel_id)
        if route.method == "PUT" and route.path == "/channels/{channel_id}/messages/pins/{message_id}":
            self.pinned.append(int(route.url.rsplit("/", 1)[1]))  # Discord answers 204: no body
            return None
        raise NotImplementedError(f"the virtual Discord does not answer {route.method} {route.path}")


# ---------------------------------------------------------------------- the in-process Discord


class VirtualDiscord:
    """Builds and dispatches interactions for one bot, recording everything it sends."""

    def __init__(self, bot: discord.Client, *, guild_id: int, channel_id: int) -> None:
        self.bot = bot
        self.tree: app_commands.CommandTree = bot.tree  # type: ignore[attr-defined]
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.thread_id: int | None = None  # set: interactions come from this thread of channel_id
        self.adapter = RecordingAdapter()
        self.guilds: dict[int, VirtualGuild] = {}
        self.app_permissions = BOT_PERMISSIONS  # what the bot may do here; take manage_webhooks away to test without

    def server(self, guild_id: int | None = None) -> VirtualGuild:
        """The server the bot sees (this one by default): add roles and channels with permission overwrites."""
        guild_id = guild_id if guild_id is not None else self.guild_id
        if guild_id not in self.guilds:
            self.guilds[guild_id] = VirtualGuild(self.bot._connection, guild_id)
        return self.guilds[guild_id]

    async def start(self) -> None:
        """Give the client its loop (as login would) and route replies to the recorder."""
        await self.bot._async_setup_hook()  # what Client.login does first
        state = self.bot._connection
        bot_user = {"id": str(BOT_USER_ID), "username": "magister", "discriminator": "0", "avatar": None, "bot": True}
        state.user = discord.ClientUser(state=state, data=bot_user)
        state.application_id = APPLICATION_ID
        state.http.get_from_cdn = _virtual_cdn  # type: ignore[method-assign]  # attachments the console uploaded

    # -- payloads ------------------------------------------------------------------

    def interaction_payload(
        self, user: VirtualUser, kind: int, data: dict, *, channel_id: int | None = None, message: dict | None = None
    ) -> dict:
        thread = channel_id is None and self.thread_id is not None and bool(self.guild_id)
        channel_id = channel_id or (self.thread_id if thread else None) or self.channel_id
        payload: dict[str, Any] = {
            "id": str(next(_snowflakes)),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": f"virtual-{next(_snowflakes)}",
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "locale": "en-US",
            "app_permissions": str(self.app_permissions),
            "entitlements": [],
            "attachment_size_limit": 25 * 1024 * 1024,
            "authorizing_integration_owners": {},
        }
        if message is not None:
            payload["message"] = message
        if self.guild_id:
            channels = (data.get("resolved") or {}).get("channels") or {}
            self.server().know(channels)  # the bot's cache holds the server, and every channel it names
            permissions = PLAYER_PERMISSIONS | (MANAGE_GUILD if user.manages_guild else 0)
            payload.update(
                guild_id=str(self.guild_id),
                guild_locale="en-US",
                context=0,
                channel=(
                    _thread_payload(channel_id, self.channel_id, self.guild_id)
                    if thread
                    else channel_payload(channel_id, self.guild_id)
                ),
                member={
                    "user": user.payload(),
                    "roles": [],
                    "joined_at": "2024-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                    "permissions": str(permissions),
                },
            )
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:  # a DM, where only a user-installed app can answer commands
            payload.update(user=user.payload(), context=1, channel={"id": str(channel_id), "type": 1})
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        return payload

    def record_posts(self) -> ChannelPosts:
        """Answer the bot's own posts (``channel.send``, as ``DiscordPoster`` makes them) here; what it posted."""
        posts = ChannelPosts(self.guild_id)
        self.bot._connection.http.request = posts.request  # type: ignore[method-assign]
        return posts

    def stop_views(self) -> None:
        """Stop every view still waiting for a click, so no timeout task outlives the table."""
        store = self.bot._connection._view_store
        views = {item.view for items in store._views.values() for item in items.values() if item.view is not None}
        for view in views:
            view.stop()
        for modal in list(store._modals.values()):  # forms nobody submitted
            modal.stop()

    # -- dispatch ------------------------------------------------------------------

    async def command(self, user: VirtualUser, data: dict) -> tuple[discord.Interaction, list[Sent]]:
        """Run one application command; returns the interaction and what it sent."""
        async_context.set(self.adapter)  # replies from this task (and tasks it starts) go to the recorder
        interaction = discord.Interaction(data=self.interaction_payload(user, 2, data), state=self.bot._connection)
        before = len(self.adapter.sent)
        try:
            await self.tree._call(interaction)
        except app_commands.AppCommandError as error:
            await self.tree._dispatch_error(interaction, error)
        return interaction, self.adapter.sent[before:]

    async def context_menu(
        self, user: VirtualUser, name: str, *, message: Sent | None = None, target: VirtualUser | None = None
    ) -> tuple[discord.Interaction, list[Sent]]:
        """Right-click a message (``message``) or a user (``target``) and pick the app's menu ``name``."""
        data: dict[str, Any] = {"id": str(snowflake_for("menu:" + name)), "name": name}
        if message is not None:
            payload = message_payload(message, channel_id=self.thread_id or self.channel_id)
            data.update(type=3, target_id=str(message.id), resolved={"messages": {str(message.id): payload}})
        elif target is not None:
            resolved: dict[str, dict] = {"users": {str(target.id): target.payload()}}
            if self.guild_id:
                resolved["members"] = {str(target.id): member_payload()}
            data.update(type=2, target_id=str(target.id), resolved=resolved)
        else:
            raise ValueError("a context menu needs a message or a user")
        return await self.command(user, data)

    async def autocomplete(self, user: VirtualUser, data: dict) -> list[dict]:
        async_context.set(self.adapter)
        interaction = discord.Interaction(data=self.interaction_payload(user, 4, data), state=self.bot._connection)
        before = len(self.adapter.sent)
        await self.tree._call(interaction)
        answers = [s for s in self.adapter.sent[before:] if s.kind == "autocomplete"]
        return answers[-1].choices if answers else []

    async def press(self, user: VirtualUser, message: Sent, button: dict) -> tuple[discord.Interaction, list[Sent]]:
        """Click a button on a message the bot sent, through discord.py's view store."""
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._gateway(user, 3, data, message=message)

    async def select(
        self, user: VirtualUser, message: Sent, menu: dict, values: list[str], resolved: dict | None = None
    ) -> tuple[discord.Interaction, list[Sent]]:
        """Pick ``values`` in a select menu on a message; user and channel selects carry ``resolved`` entries."""
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"pick {low} to {high} values, not {len(values)}")
        if menu["type"] == 3:
            offered = {option["value"] for option in menu.get("options", [])}
            if not set(values) <= offered:
                raise ValueError(f"{values} are not all among the options {sorted(offered)}")
        data: dict[str, Any] = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": values}
        if resolved:
            data["resolved"] = resolved
        return await self._gateway(user, 3, data, message=message)

    async def submit(
        self, user: VirtualUser, form: Sent, values: dict[str, str], *, message: Sent | None = None
    ) -> tuple[discord.Interaction, list[Sent]]:
        """Submit a modal the bot opened: each field as typed, or as prefilled when not in ``values``."""
        assert form.form is not None
        problems = submission_problems(form.form, values)
        if problems:
            raise ValueError("; ".join(problems))
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": item["custom_id"], "value": value}]}
            for item in form.inputs()
            for value in [values.get(item["custom_id"], item.get("value") or "")]
        ]
        data = {"custom_id": form.form["custom_id"], "components": rows}
        return await self._gateway(user, 5, data, message=message)

    async def _gateway(
        self, user: VirtualUser, kind: int, data: dict, *, message: Sent | None
    ) -> tuple[discord.Interaction, list[Sent]]:
        """An interaction that arrives by the gateway and is answered by a view, a lasting item or a modal."""
        async_context.set(self.adapter)
        channel_id = self.thread_id or self.channel_id
        on = message_payload(message, channel_id=channel_id) if message is not None else None
        payload = self.interaction_payload(user, kind, data, message=on)
        before_tasks = asyncio.all_tasks()
        before = len(self.adapter.sent)
        if message is not None:
            self.adapter.originals[payload["token"]] = message.id
        captured: list[discord.Interaction] = []

        async def grab(interaction: discord.Interaction) -> None:
            captured.append(interaction)

        self.bot.add_listener(grab, "on_interaction")
        try:
            self.bot._connection.parse_interaction_create(payload)
            for _ in range(50):
                pending = [
                    t
                    for t in asyncio.all_tasks() - before_tasks
                    if t.get_name().startswith(
                        (
                            "discord-ui-view-dispatch",
                            "discord-ui-dynamic-item",
                            "discord-ui-modal-dispatch",
                            "discord.py: on_interaction",
                        )
                    )
                    and not t.done()
                ]
                if not pending:
                    break
                await asyncio.gather(*pending, return_exceptions=True)
        finally:
            self.bot.remove_listener(grab, "on_interaction")
        await asyncio.sleep(0)
        interaction = captured[0] if captured else None
        return interaction, self.adapter.sent[before:]  # type: ignore[return-value]


def member_payload() -> dict:
    """A member as ``resolved`` carries one: no user inside, the user sits next to it."""
    return {
        "roles": [],
        "joined_at": "2024-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(PLAYER_PERMISSIONS),
    }


def channel_payload(channel_id: int, guild_id: int) -> dict:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": f"table-{channel_id}",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "permissions": str(PLAYER_PERMISSIONS),
    }


def _thread_payload(thread_id: int, parent_id: int, guild_id: int) -> dict:
    """A public thread (a scene, or a forum post) of ``parent_id``."""
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(BOT_USER_ID),
        "name": f"scene-{thread_id}",
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2024-01-01T00:00:00+00:00",
            "locked": False,
        },
        "permissions": str(PLAYER_PERMISSIONS),
    }


# ---------------------------------------------------------------------- command data from a path and options


def command_data(
    tree: app_commands.CommandTree,
    path: list[str],
    options: dict[str, Any],
    *,
    focused: str | None = None,
    guild_id: int = 0,
) -> dict:
    """The ``data`` of an application-command interaction for ``/path option:value``.

    Values must already have the option's type; ``resolve_user``/``resolve_channel``
    style options carry an id and add the matching ``resolved`` entry.
    """
    command = find_command(tree, path)
    leaf: list[dict] = []
    resolved: dict[str, dict] = {}
    for name, value in options.items():
        parameter = command.get_parameter(name)
        if parameter is None:
            raise KeyError(name)
        entry: dict[str, Any] = {"type": parameter.type.value, "name": name, "value": value}
        if name == focused:
            entry["focused"] = True
        if parameter.type is discord.AppCommandOptionType.user:
            user = VirtualUser(str(value))
            entry["value"] = str(user.id)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if guild_id:
                resolved.setdefault("members", {})[str(user.id)] = member_payload()
        elif parameter.type is discord.AppCommandOptionType.attachment:
            filename, body = value  # (name, bytes): the console read the file
            attachment_id = next(_snowflakes)
            url = f"https://cdn.virtual.invalid/attachments/{attachment_id}/{filename}"
            VIRTUAL_CDN[url] = body
            entry["value"] = str(attachment_id)
            resolved.setdefault("attachments", {})[str(attachment_id)] = {
                "id": str(attachment_id),
                "filename": filename,
                "size": len(body),
                "url": url,
                "proxy_url": url,
                "content_type": IMAGE_TYPES.get(filename.rsplit(".", 1)[-1].casefold(), "text/plain; charset=utf-8"),
            }
        elif parameter.type is discord.AppCommandOptionType.role:
            name = str(value).lstrip("@")
            role_id = guild_id if name == "everyone" else snowflake_for(f"@{name}")
            entry["value"] = str(role_id)
            resolved.setdefault("roles", {})[str(role_id)] = {
                "id": str(role_id),
                "name": name,
                "color": 0,
                "hoist": False,
                "position": 1,
                "permissions": "0",
                "managed": False,
                "mentionable": True,
            }
        elif parameter.type is discord.AppCommandOptionType.channel:
            channel_id = value if isinstance(value, int) else snowflake_for(f"#{value}")
            entry["value"] = str(channel_id)
            channel = channel_payload(channel_id, guild_id)
            channel["name"] = str(value).lstrip("#")
            resolved.setdefault("channels", {})[str(channel_id)] = channel
        leaf.append(entry)
    nested: list[dict] = leaf
    for depth in range(len(path) - 1, 0, -1):
        kind = 1 if depth == len(path) - 1 else 2  # subcommand, then group
        nested = [{"type": kind, "name": path[depth], "options": nested}]
    data: dict[str, Any] = {"id": str(snowflake_for("/" + path[0])), "name": path[0], "type": 1, "options": nested}
    if resolved:
        data["resolved"] = resolved
    return data


def find_command(tree: app_commands.CommandTree, path: list[str]) -> app_commands.Command:
    node: Any = tree.get_command(path[0])
    for part in path[1:]:
        if not isinstance(node, app_commands.Group):
            raise KeyError(part)
        node = node.get_command(part)
        if node is None:
            raise KeyError(part)
    if not isinstance(node, app_commands.Command):
        raise KeyError(" ".join(path))
    return node
