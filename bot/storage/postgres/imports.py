"""``/campaign import``'s batches on PostgreSQL: :class:`ImportStatements`, which :class:`Statements` takes in.

An import writes its log a batch at a time, each batch one short transaction (SQLite's twin: ``WriteTx`` in
``bot/storage/writer.py``; the shared SQL and the program that removes an unfinished import:
:mod:`bot.storage.imports`). A batch is one COPY, then one UPDATE that links its undos to the events they undid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.storage.imports import FINISH_IMPORT, UNFINISHED_IMPORTS, discard
from bot.storage.members import Execute, Query, Step, drive_async
from bot.storage.rows import ConstraintError, StaleCampaignError

COPIED = ["campaign_id", "seq", "at", "actor_id", "actor_name", "command", "summary", "result", "snapshot"]
LINK_UNDOS = """UPDATE events e SET undoes = u.id
FROM unnest($2::bigint[], $3::bigint[]) AS link (seq, undone)
JOIN events u ON u.campaign_id = $1 AND u.seq = link.undone
WHERE e.campaign_id = $1 AND e.seq = link.seq"""


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
        links = [(event[0], event[8]) for event in events if event[8] is not None]
        if links:
            seqs, undone = zip(*links, strict=True)
            await self._db.execute(LINK_UNDOS, campaign_id, list(seqs), list(undone))

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
