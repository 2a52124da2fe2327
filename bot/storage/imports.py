"""The SQL of ``/campaign import``'s batches, the same on both backends (``?`` placeholders; PostgreSQL's store
translates them): an import writes its campaign hidden (archived, at a negative channel no Discord channel has),
its log in batches, then moves it into its channel in one last transaction (``WriteTx.finish_import``). What a
failed or crashed import left is deleted by :func:`discard`, run step by step like a member's erasure
(:mod:`bot.storage.members`), so one program serves SQLite's writer thread and PostgreSQL's transaction.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from bot.storage.members import Execute, Lock, Query, Step

FINISH_IMPORT = """UPDATE campaigns SET guild_id = ?, channel_id = ?, archived_at = NULL, version = version + 1
WHERE id = ? AND channel_id < 0"""
UNFINISHED_IMPORTS = "SELECT id FROM campaigns WHERE channel_id < 0 AND archived_at < ? ORDER BY id"


def discard(campaign_id: int, limit: int) -> Generator[Step, Any, bool]:
    """Delete up to ``limit`` of a hidden campaign's newest events (an undo names an older event, so the newest go
    first); once none are left, its characters and the campaign. True when it is all gone. A
    campaign that is not hidden is never touched."""
    hidden = yield Query("SELECT 1 FROM campaigns WHERE id = ? AND channel_id < 0", (campaign_id,))
    if not hidden:
        return True
    yield Lock(campaign_id)
    deleted = yield Execute(
        "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE campaign_id = ? ORDER BY seq DESC LIMIT ?)",
        (campaign_id, limit),
    )
    if deleted:
        return False
    yield Execute("DELETE FROM characters WHERE campaign_id = ?", (campaign_id,))
    yield Execute("DELETE FROM campaigns WHERE id = ? AND channel_id < 0", (campaign_id,))
    return True
