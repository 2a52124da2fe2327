"""An import's log on disk while it is checked and written (``/campaign import``), in a scratch SQLite file.

A million-event export does not fit in memory as objects, and its undo records are checked newest first (as
`/campaign undo` would apply them) after the whole file has been read. So each checked event goes here, ready to
be written (its result and undo record as the JSON text the store keeps), and is read back a page at a time:
newest first for the undo check, oldest first for the write. Events met before the part of the file that says
how to check them (a file whose keys were reordered) wait here as raw JSON. The file is scratch: no journal, no
sync, deleted with its folder.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

FLUSH = 1000  # rows per insert


class Spool:
    """The events of one import. Written from one thread, then read from others, never at once."""

    def __init__(self, folder: Path, *, new: bool = True) -> None:
        self.path = folder / "import.sqlite3"
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._rows: list[Sequence[Any]] = []
        self._held: list[tuple[int, str]] = []
        if not new:
            return
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "temp_store = FILE"):
            self._db.execute(f"PRAGMA {pragma}")
        self._db.execute(
            "CREATE TABLE events (seq INTEGER PRIMARY KEY, at TEXT, actor_id INTEGER, actor TEXT, command TEXT,"
            " summary TEXT, result TEXT, snapshot TEXT, undoes INTEGER)"
        )
        self._db.execute("CREATE TABLE held (position INTEGER PRIMARY KEY, body TEXT)")
        self._db.execute("BEGIN")

    @classmethod
    def reopen(cls, folder: Path) -> Spool:
        """The spool another process wrote in ``folder``, to read."""
        return cls(folder, new=False)

    def add(self, row: Sequence[Any]) -> None:
        """One checked event: (seq, at, actor_id, actor, command, summary, result, snapshot, undoes)."""
        self._rows.append(row)
        if len(self._rows) >= FLUSH:
            self._flush()

    def hold(self, position: int, body: str) -> None:
        """An event, as JSON text, that cannot be checked yet."""
        self._held.append((position, body))
        if len(self._held) >= FLUSH:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", self._rows)
            self._rows = []
        if self._held:
            self._db.executemany("INSERT INTO held VALUES (?, ?)", self._held)
            self._held = []

    def held(self) -> Iterator[str]:
        """The held events in their order, a page at a time; emptied as they are read."""
        self._flush()
        after = 0
        while page := self._db.execute(
            "SELECT position, body FROM held WHERE position > ? ORDER BY position LIMIT ?", (after, FLUSH)
        ).fetchall():
            after = page[-1][0]
            for _, body in page:
                yield body
        self._db.execute("DELETE FROM held")

    def done(self) -> None:
        """Everything is written: commit, so pages read it back."""
        self._flush()
        self._db.execute("COMMIT")

    def page(self, after: int, limit: int) -> list[tuple]:
        """Events after number ``after``, oldest first."""
        return self._db.execute("SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit)).fetchall()

    def records_before(self, before: int, limit: int) -> list[tuple[int, str]]:
        """(seq, undo record) of the changes before number ``before`` that are no undo, newest first."""
        return self._db.execute(
            "SELECT seq, snapshot FROM events WHERE seq < ? AND snapshot IS NOT NULL AND undoes IS NULL"
            " ORDER BY seq DESC LIMIT ?",
            (before, limit),
        ).fetchall()

    def record(self, seq: int) -> str | None:
        row = self._db.execute("SELECT snapshot FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def close(self) -> None:
        """Close the file (what was committed stays, for :meth:`reopen`)."""
        if self._db.in_transaction:
            self._db.execute("COMMIT")
        self._db.close()
