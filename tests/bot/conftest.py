"""Fixtures for the Discord-facing tests: a stand-in Discord on a loopback port."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from tests.support.fake_discord import FakeDiscord, no_pacing


@pytest.fixture
async def discord_here(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """discord.py's REST and gateway pointed at a FakeDiscord (which recommends 3 shards) for this test."""
    fake = FakeDiscord(recommended_shards=3)
    await fake.start()
    fake.route_client_here(monkeypatch)
    monkeypatch.setattr(discord.AutoShardedClient, "before_identify_hook", no_pacing)
    yield fake
    await fake.close()
