"""``/campaign import``'s batches on PostgreSQL: :class:`ImportStatements`, which :class:`Statements` takes in.

An import writes its log a batch at a time, each batch one short transaction (SQLite's twin: ``WriteTx`` in
``bot/storage/writer.py``; the shared SQL and the program that removes an unfinished import:
:mod:`bot.storage.imports`). A batch is one COPY, then an UPDATE for each undo in it, linking it to the event it undid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.storage.imports import FINISH_IMPORT, UNFINISHED_IMPORTS, discard
from bot.storage.members import Execute, Query, Step, drive_async
from bot.storage.rows import ConstraintError, StaleCampaignError

COPIED = ["campaign_id", "seq", "at", "actor_id", "actor_name", "command", "summary", "result", "snapshot"]
# One undo at a time, each side found by the whole unique key (campaign_id, seq): a join of all a batch's undos
# lets the planner, whose statistics lag a log growing this fast, scan the campaign's events for each batch.
LINK_UNDO = """UPDATE events SET undoes = (SELECT u.id FROM events u WHERE u.campaign_id = $1 AND u.seq = $3)
WHERE campaign_id = $1 AND seq = $2"""


def _count(status: str) -> int:
    return int(status.rsplit(" ", 1)[-1])


def _numbered(sql: str) -> str:
    """SQLite's ``?`` as PostgreSQL's ``$1, $2…``."""
    parts = sql.split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))


class ImportStatements:
    """The import's writes, as coroutines on the open transaction's connection (mixed into Statements)."""

    @property
    def _db(self) -> asyncpg.Connection:
        raise NotImplementedError

    async def _lock(self, campaign_id: int) -> None:
        raise NotImplementedError

    async def append_events(self, campaign_id: int, events: Sequence[Sequence[Any]]) -> None:
        await self._lock(campaign_id)
        records = [(campaign_id, *event[:8]) for event in events]
        await self._db.copy_records_to_table("events", records=records, columns=COPIED)
        links = [(campaign_id, event[0], event[8]) for event in events if event[8] is not None]
        if links:
            await self._db.executemany(LINK_UNDO, links)

    async def finish_import(self, campaign_id: int, guild_id: int, channel_id: int) -> None:
        await self._lock(campaign_id)
        try:
            status = await self._db.execute(_numbered(FINISH_IMPORT), guild_id, channel_id, campaign_id)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise ConstraintError(str(error)) from None
        if _count(status) != 1:
            raise StaleCampaignError(campaign_id)

    async def discard_import(self, campaign_id: int, limit: int) -> bool:
        async def run(step: Step) -> Any:
            if isinstance(step, Query):
                return [tuple(row) for row in await self._db.fetch(_numbered(step.sql), *step.parameters)]
            if isinstance(step, Execute):
                return _count(await self._db.execute(_numbered(step.sql), *step.parameters))
            await self._lock(step.campaign_id)
            return None

        return await drive_async(discard(campaign_id, limit), run)

    async def unfinished_imports(self, before: str) -> list[int]:
        rows = await self._db.fetch(_numbered(UNFINISHED_IMPORTS), before)
        return [int(row[0]) for row in rows]
