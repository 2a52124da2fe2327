"""A stand-in for Discord on a loopback port: the REST calls a login makes, a gateway that says READY, and a
channel to post in.

Enough of Discord's side for discord.py's real client (and its real shards) to log in, identify each shard, heartbeat,
become ready and send a message, so sharding, timers and health checks are tested against the library as it runs,
with no network. Each shard's IDENTIFY and each message sent are recorded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import discord
import pytest
import yarl
from aiohttp import WSMsgType, web

from bot.cli.health import bound_port

BOT_USER = {"id": "4242", "username": "magister", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
    "id": "4343",
    "name": "Magister",
    "description": "",
    "icon": None,
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
    "verify_key": "0" * 64,
    "flags": 0,
}


class FakeDiscord:
    """Serves ``/api/v10/...`` and a gateway at ``/gateway``; start with :meth:`start`, point discord.py at it with
    :meth:`route_client_here`."""

    def __init__(self, recommended_shards: int = 2) -> None:
        self.recommended_shards = recommended_shards  # what /gateway/bot recommends to a client given no count
        self.identified: list[tuple[int, int]] = []  # (shard id, shard count) of each IDENTIFY
        self.sockets: dict[int, web.WebSocketResponse] = {}  # shard id -> its open gateway socket
        self.posted: list[tuple[int, dict[str, Any]]] = []  # (channel id, message body) of each message sent
        self.guild_of: dict[int, int] = {}  # channel id -> its guild, for GET /channels/{id}
        self._ids = itertools.count(10**17)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._sessions = itertools.count(1)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self._json(BOT_USER))
        app.router.add_get("/api/v10/oauth2/applications/@me", self._json(APPLICATION))
        app.router.add_get("/api/v10/gateway/bot", self._bot_gateway)
        app.router.add_get("/api/v10/channels/{channel}", self._channel)
        app.router.add_post("/api/v10/channels/{channel}/messages", self._message)
        app.router.add_get("/gateway", self._gateway)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = bound_port(self._runner)

    async def close(self) -> None:
        for socket in list(self.sockets.values()):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def route_client_here(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """discord.py's REST base and default gateway, for this test only."""
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{self.port}/api/v10")
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url))

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @staticmethod
    def _json(body: dict[str, Any]):
        async def handler(request: web.Request) -> web.Response:  # exactly Discord's content type, no charset
            return web.Response(body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})

        return handler

    async def _bot_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        body = {"url": self.gateway_url, "shards": self.recommended_shards, "session_start_limit": limit}
        return await self._json(body)(request)

    async def _channel(self, request: web.Request) -> web.Response:
        channel = int(request.match_info["channel"])
        if channel not in self.guild_of:
            return web.json_response({"message": "Unknown Channel", "code": 10003}, status=404)
        body = {"id": str(channel), "type": 0, "guild_id": str(self.guild_of[channel]), "name": "table", "position": 0}
        return await self._json(body)(request)

    async def _message(self, request: web.Request) -> web.Response:
        channel = int(request.match_info["channel"])
        sent = await request.json()
        self.posted.append((channel, sent))
        message = {
            "id": str(next(self._ids)),
            "channel_id": str(channel),
            "author": BOT_USER,
            "content": sent.get("content") or "",
            "timestamp": "2026-11-25T20:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": sent.get("embeds") or [],
            "pinned": False,
            "type": 0,
        }
        return await self._json(message)(request)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """HELLO, then READY for the shard the client identifies as, then heartbeat ACKs until it leaves."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None})
        shard: int | None = None
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                break
            payload = message.json()
            if payload["op"] == 1:  # heartbeat
                await socket.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif payload["op"] == 2:  # identify
                shard, count = payload["d"]["shard"]
                self.identified.append((shard, count))
                self.sockets[shard] = socket
                await socket.send_json({"op": 0, "s": 1, "t": "READY", "d": self._ready(shard, count)})
        if shard is not None:
            self.sockets.pop(shard, None)
        return socket

    def _ready(self, shard: int, count: int) -> dict[str, Any]:
        return {
            "v": 10,
            "user": BOT_USER,
            "guilds": [],
            "session_id": f"session-{next(self._sessions)}",
            "resume_gateway_url": self.gateway_url,
            "shard": [shard, count],
            "application": {"id": APPLICATION["id"], "flags": 0},
        }


async def connected(bot: discord.Client) -> asyncio.Task[None]:
    """Start ``bot`` (against a FakeDiscord); return its running task once every shard of it is ready."""
    task = asyncio.create_task(bot.start("fake.token.here"))
    waiting = asyncio.create_task(bot.wait_until_ready())
    await asyncio.wait([task, waiting], timeout=30, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if task.done():
        task.result()  # the start failed: show why
    assert bot.is_ready(), "the bot did not become ready within 30 s"
    return task


async def no_pacing(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
    """Discord lets a bot IDENTIFY one shard per 5 s, so discord.py waits between shards; a FakeDiscord need not."""
