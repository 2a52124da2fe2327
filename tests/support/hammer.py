"""One Magister process acting on a shared campaign as fast as it can (tests/bot/test_shared_database.py).

``python -m tests.support.hammer DB ACTIONS`` opens the store ``DB`` (a SQLite file or a PostgreSQL URL),
prints ``{"ready": true}`` and waits for a line on stdin (so two processes start together), then runs
ACTIONS ``/tally add`` for Pip in the channel's campaign, a few at a time, and fires due timers after each
round. It prints ``{"ack": event id}`` the moment each action is acknowledged (ACTIONS 0: forever, until
killed), then one line with every acknowledged event id, how many it refused, every timer it fired, and
when (wall clock) it began and finished acting.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time

from bot.storage.database import open_store
from bot.table.registry import Registry
from bot.table.schedule import fire_due
from bot.table.service import Caller, ConcurrentChangeError, Place, TableService
from tests.support.tally import TallyRuleset

HERE = Place(1001, 2002)
PLAYER = Caller(22, "Pat")
AT_ONCE = 4


async def main(target: str, actions: int) -> None:
    store = await open_store(target)
    service = TableService(store, Registry.build([TallyRuleset()]), random.Random())
    acked: list[int] = []
    refused = 0
    fired: list[int] = []

    async def add() -> None:
        nonlocal refused
        try:
            reply = await service.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})
        except ConcurrentChangeError:  # told "try again": not acknowledged, so it must not count
            refused += 1
            return
        assert reply.event_id is not None
        acked.append(reply.event_id)
        print(json.dumps({"ack": reply.event_id}), flush=True)

    try:
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        began = time.time()
        done = 0
        while actions == 0 or done < actions:
            batch = AT_ONCE if actions == 0 else min(AT_ONCE, actions - done)
            await asyncio.gather(*(add() for _ in range(batch)))
            done += batch
            fired += [message.data["reminder"] for message in await fire_due(service)]
        finished = time.time()
    finally:
        await store.close()
    summary = {"acked": acked, "refused": refused, "fired": fired, "began": began, "finished": finished}
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
