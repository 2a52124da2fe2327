"""Where a ``/say`` post goes: through a channel webhook Magister keeps (the character's name and picture), or,
without the Manage Webhooks permission, as the bot itself with the character's name.

One webhook per channel, named :data:`HOOK_NAME`: found among the channel's webhooks or created once, then
remembered; a thread posts through its parent's webhook (``thread=``). :class:`RecordingSpeaker` is the console's
and the tests' twin, as :class:`bot.adapter.posting.RecordingPoster` is the poster's.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.table.service import Place

log = logging.getLogger("magister.speaking")

HOOK_NAME = "Magister"
MAX_USERNAME = 80
FORBIDDEN_IN_NAME = re.compile(r"discord|clyde", re.IGNORECASE)  # Discord refuses a webhook name holding these
NO_PINGS = discord.AllowedMentions.none()


def webhook_name(name: str) -> str:
    """A character's name as a webhook may carry it: at most 80 characters, and never "discord" or "clyde"
    (a zero-width space breaks the word, so the name still reads the same)."""
    name = " ".join(name.split())[:MAX_USERNAME] or "?"
    name = FORBIDDEN_IN_NAME.sub(lambda m: m.group(0)[0] + "\u200b" + m.group(0)[1:], name)
    return name[:MAX_USERNAME]


@dataclass(frozen=True)
class Voice:
    """Who speaks and what: the character's name and picture, and the message as each way of posting words it."""

    name: str
    avatar: str | None
    as_character: str
    as_bot: str


@dataclass(frozen=True)
class Spoken:
    message_id: int
    as_bot: bool  # posted by the bot itself (no webhook): its own edits and deletes


class Speaker(Protocol):
    async def say(self, bot: discord.Client, place: Place, voice: Voice, *, webhooks: bool) -> Spoken:
        """Post the words; ``webhooks``: the bot may manage webhooks here, so it posts as the character."""
        ...

    async def edit(self, bot: discord.Client, place: Place, message_id: int, text: str, *, as_bot: bool) -> bool:
        """Change a post's words; False when its message is gone."""
        ...

    async def delete(self, bot: discord.Client, place: Place, message_id: int, *, as_bot: bool) -> bool:
        """Take a post down; False when its message was gone already."""
        ...


class DiscordSpeaker:
    def __init__(self) -> None:
        self._hooks: dict[int, discord.Webhook] = {}  # channel id -> the webhook Magister posts through there

    async def _channel(self, bot: discord.Client, channel_id: int) -> Any:
        return bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)

    async def _hook(self, bot: discord.Client, channel_id: int) -> discord.Webhook:
        if channel_id in self._hooks:
            return self._hooks[channel_id]
        channel = await self._channel(bot, channel_id)
        me = bot.user.id if bot.user else None
        found = None
        for hook in await channel.webhooks():
            if hook.name == HOOK_NAME and hook.token and (hook.user is None or hook.user.id == me):
                found = hook
                break
        if found is None:
            found = await channel.create_webhook(name=HOOK_NAME, reason="Magister posts as characters here (/say)")
        self._hooks[channel_id] = found
        return found

    @staticmethod
    def _thread(place: Place) -> dict[str, Any]:
        return {"thread": discord.Object(place.thread_id)} if place.thread_id else {}

    async def say(self, bot: discord.Client, place: Place, voice: Voice, *, webhooks: bool) -> Spoken:
        if webhooks:
            for _ in range(2):  # a webhook someone deleted: forget it and make a new one, once
                try:
                    hook = await self._hook(bot, place.channel_id)
                    message = await hook.send(
                        voice.as_character,
                        username=webhook_name(voice.name),
                        avatar_url=voice.avatar or discord.utils.MISSING,
                        allowed_mentions=NO_PINGS,
                        wait=True,
                        **self._thread(place),
                    )
                    return Spoken(message.id, as_bot=False)
                except discord.NotFound:
                    self._hooks.pop(place.channel_id, None)
                except discord.Forbidden:
                    log.info("no webhook in channel %s: posting as the bot", place.channel_id)
                    break
        channel = await self._channel(bot, place.thread_id or place.channel_id)
        message = await channel.send(voice.as_bot, allowed_mentions=NO_PINGS)
        return Spoken(message.id, as_bot=True)

    async def edit(self, bot: discord.Client, place: Place, message_id: int, text: str, *, as_bot: bool) -> bool:
        try:
            if as_bot:
                channel = await self._channel(bot, place.thread_id or place.channel_id)
                await channel.get_partial_message(message_id).edit(content=text, allowed_mentions=NO_PINGS)
            else:
                hook = await self._hook(bot, place.channel_id)
                await hook.edit_message(message_id, content=text, allowed_mentions=NO_PINGS, **self._thread(place))
        except discord.NotFound:
            return False
        return True

    async def delete(self, bot: discord.Client, place: Place, message_id: int, *, as_bot: bool) -> bool:
        try:
            if as_bot:
                channel = await self._channel(bot, place.thread_id or place.channel_id)
                await channel.get_partial_message(message_id).delete()
            else:
                hook = await self._hook(bot, place.channel_id)
                await hook.delete_message(message_id, **self._thread(place))
        except discord.NotFound:
            return False
        return True


@dataclass
class SpokenPost:
    place: Place
    name: str
    avatar: str | None
    content: str
    as_bot: bool


@dataclass
class RecordingSpeaker:
    """For the console and tests: the posts as the channel shows them now, and what happened to each."""

    posts: dict[int, SpokenPost] = field(default_factory=dict)
    log: list[tuple[str, int]] = field(default_factory=list)  # ("post" | "edit" | "delete", message id)
    _next_id: int = 950_000_000_000_000_000

    async def say(self, bot: discord.Client, place: Place, voice: Voice, *, webhooks: bool) -> Spoken:
        self._next_id += 1
        name = webhook_name(voice.name) if webhooks else "Magister"
        text = voice.as_character if webhooks else voice.as_bot
        self.posts[self._next_id] = SpokenPost(place, name, voice.avatar, text, not webhooks)
        self.log.append(("post", self._next_id))
        return Spoken(self._next_id, as_bot=not webhooks)

    async def edit(self, bot: discord.Client, place: Place, message_id: int, text: str, *, as_bot: bool) -> bool:
        if message_id not in self.posts:
            return False
        self.posts[message_id].content = text
        self.log.append(("edit", message_id))
        return True

    async def delete(self, bot: discord.Client, place: Place, message_id: int, *, as_bot: bool) -> bool:
        if self.posts.pop(message_id, None) is None:
            return False
        self.log.append(("delete", message_id))
        return True

    def text(self, message_id: int) -> str:
        """A post as the channel shows it: the name it goes by, then its words."""
        post = self.posts[message_id]
        return f"{post.name}\n{post.content}"
