"""A console table on its own event loop, so hypothesis (which is synchronous) can drive it line by line."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterable
from pathlib import Path
from typing import Any, TypeVar

from bot.cli.console import ConsoleTable, Result

T = TypeVar("T")


class LoopConsole:
    def __init__(self, db: Path, registry: Any, *, seed: int = 3, setup: Iterable[str] = ()) -> None:
        self.loop = asyncio.new_event_loop()
        self.table = self.call(ConsoleTable.open(db, seed=seed, registry=registry))
        try:
            for line in setup:
                result = self.run(line)
                assert result.ok, (line, result.text)
        except BaseException:
            self.close()  # an open store's thread would keep the test process alive after the failure
            raise

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    def run(self, line: str) -> Result:
        result = self.call(self.table.execute(line))
        assert result is not None, line
        return result

    def close(self) -> None:
        self.call(self.table.close())
        pending = [t for t in asyncio.all_tasks(self.loop) if not t.done()]
        if pending:  # background tasks the cogs cancelled on unload finish on the next turns of the loop
            self.call(asyncio.wait(pending, timeout=5))
        assert all(t.done() for t in pending), pending
        self.loop.close()


class CampaignConsole(LoopConsole):
    """A loop console whose setup starts a campaign, with what a "refused and nothing changed" test reads."""

    def __init__(self, db: Path, registry: Any, *, setup: Iterable[str], seed: int = 5, gm: str = "Gwen") -> None:
        self.gm = gm
        super().__init__(db, registry, seed=seed, setup=setup)
        self.events = self.status()["events"]

    def run(self, line: str, user: str | None = None) -> Result:
        if user is not None:
            self.table.switch_user(user)
        return super().run(line)

    def status(self) -> dict:
        return self.run("/campaign status", self.gm).data

    def stored(self) -> tuple:
        """The campaign as the database holds it: state, settings and every sheet."""
        store = self.table.bot.service.store
        guild, channel = self.table.virtual.guild_id, self.table.virtual.channel_id

        async def read() -> tuple:
            row = await store.campaign(guild, channel)
            characters = await store.characters(row.id)
            return row.state, row.settings, {c.name: (c.owner_id, c.sheet) for c in characters}

        return self.call(read())

    def refuses(self, result: Result) -> str:
        """A clean refusal: ephemeral, no incident, words a person can read."""
        assert not result.ok, (result.command, result.text)
        assert result.ephemeral and "incident" not in result.extra, (result.command, result.text)
        assert result.text and "Traceback" not in result.text and "ValidationError" not in result.text
        return result.text
