"""Writing a campaign export to files, off the event loop and in bounded memory.

A long campaign's log runs to a million events, so nothing here holds it whole: events are read in pages from
one read-only snapshot and written straight to a JSON file and a Markdown log, each event's stored result copied
as the JSON text it already is. Once the two files outgrow Discord's upload limit they are gzipped as they are
written (what was written plain so far is compressed once, the rest goes straight into the gzip), and a gzip
still too large is cut into numbered parts (joined again with ``cat``). A small campaign keeps its plain
``.json`` and ``.md``, readable as they are.

:func:`write_export` runs on a worker thread, through the store's own snapshot. A long log is written in a
process of its own instead (:mod:`bot.storage.apart`): :func:`write_export_at` opens its own snapshot of the
database the store names (a SQLite file's path, a PostgreSQL URL), so that minutes of work never hold the
interpreter the event loop needs.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bot.storage.apart import run_apart
from bot.storage.protocol import Store
from bot.storage.rows import EventRow, dumps

Read = Callable[[str, Sequence[Any]], list[tuple]]  # a store's snapshot(): rows of a query, ? placeholders

PAGE = 500  # events per read: bounded memory, few round trips
FILES_PER_MESSAGE = 10  # Discord's attachment limit per message
CHUNK = 1 << 20
LEVEL = 6  # gzip's level: level 9 saves a tenth more at twice the time
FORMAT = "magister-campaign/2"  # 2: events carry their number in the campaign (seq) and their undo snapshot


APART_EVENTS = 20_000  # a log this long is written in a process of its own


@dataclass
class ExportFiles:
    batches: list[list[Path]]  # one message's attachments each, within the limit
    events: int
    characters: int
    compressed: bool
    split: bool


async def export_files(
    store: Store, campaign_id: int, folder: Path, slug: str, limit: int, line: Callable[[EventRow], str]
) -> ExportFiles:
    """The export's files, written on a worker thread, or, for a log of ``APART_EVENTS`` or more, in a process
    of its own (``line`` must then be picklable: a module-level function, or a partial of one)."""
    address = address_of(store)
    if address is not None and await store.count_events(campaign_id) >= APART_EVENTS:
        return await run_apart(write_export_at, address, campaign_id, folder, slug, limit, line, store.clock())
    return await asyncio.to_thread(write_export, store, campaign_id, folder, slug, limit, line)


def write_export(
    store: Store, campaign_id: int, folder: Path, slug: str, limit: int, line: Callable[[EventRow], str]
) -> ExportFiles:
    """Write ``slug.json`` and ``slug-log.md`` into ``folder`` (gzipped past ``limit``), then fit them to
    ``limit`` bytes per message. Through the store's snapshot: call it on a worker thread."""
    with store.snapshot() as read:  # one snapshot: the campaign, its characters and its log agree
        return _export(read, campaign_id, folder, slug, limit, line, store.clock())


def write_export_at(
    address: str,
    campaign_id: int,
    folder: Path,
    slug: str,
    limit: int,
    line: Callable[[EventRow], str],
    now: str,
) -> ExportFiles:
    """:func:`write_export` through a snapshot of its own of the database at ``address``: a SQLite file's path
    or a PostgreSQL URL (a process of its own runs this)."""
    with snapshot_at(address) as read:
        return _export(read, campaign_id, folder, slug, limit, line, now)


def address_of(store: Store) -> str | None:
    """Where another process finds the store's database: its file (SQLite), its URL (PostgreSQL)."""
    url = getattr(store, "url", None)
    if isinstance(url, str):
        return url
    path = getattr(store, "path", None)
    return str(path) if path is not None else None


@contextmanager
def snapshot_at(address: str) -> Iterator[Read]:
    """One read-only snapshot of the database at ``address``, for a process that has no store."""
    if address.startswith(("postgresql://", "postgres://")):
        with _postgres_snapshot(address) as read:
            yield read
        return
    connection = sqlite3.connect(f"{Path(address).resolve().as_uri()}?mode=ro", uri=True)
    try:
        connection.execute("BEGIN")
        yield lambda sql, parameters=(): connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


@contextmanager
def _postgres_snapshot(url: str) -> Iterator[Read]:
    """A repeatable-read, read-only transaction on a connection of its own, driven by a loop of its own."""
    import asyncpg  # only where PostgreSQL is the database

    from bot.storage.postgres.statements import placeholders

    loop = asyncio.new_event_loop()
    connection = loop.run_until_complete(asyncpg.connect(url))
    try:
        transaction = connection.transaction(isolation="repeatable_read", readonly=True)
        loop.run_until_complete(transaction.start())

        def read(sql: str, parameters: Sequence[Any] = ()) -> list[tuple]:
            rows = loop.run_until_complete(connection.fetch(placeholders(sql), *parameters))
            return [tuple(row) for row in rows]

        yield read
        loop.run_until_complete(transaction.rollback())
    finally:
        loop.run_until_complete(connection.close())
        loop.close()


def _export(
    read: Read, campaign_id: int, folder: Path, slug: str, limit: int, line: Callable[[EventRow], str], now: str
) -> ExportFiles:
    folder.mkdir(parents=True, exist_ok=True)
    sinks = _Sinks([folder / f"{slug}.json", folder / f"{slug}-log.md"], limit)
    try:
        events, characters = _write(read, campaign_id, sinks, line, now)
    finally:
        files = sinks.close()
    parts = [part for path in files for part in _split(path, limit)]
    return ExportFiles(_batches(parts, limit), events, characters, sinks.compressed, len(parts) > len(files))


class _Sinks:
    """The export's files, written plain while together they fit ``limit`` bytes, then gzipped: what was written
    so far is compressed once, and everything after goes straight into the gzip."""

    def __init__(self, paths: list[Path], limit: int) -> None:
        self.paths = paths
        self.limit = limit
        self.compressed = False
        self._written = 0
        self._files: list[IO[bytes]] = [path.open("wb") for path in paths]

    def write(self, which: int, text: str) -> None:
        data = text.encode("utf-8")
        self._files[which].write(data)
        if self.compressed:
            return
        self._written += len(data)
        if self._written > self.limit:
            self._compress()

    def _compress(self) -> None:
        self.compressed = True
        for index, (path, plain) in enumerate(zip(self.paths, self._files, strict=True)):
            plain.close()
            packed = gzip.open(path.with_name(path.name + ".gz"), "wb", compresslevel=LEVEL)  # noqa: SIM115 (closed in close)
            with path.open("rb") as source:
                shutil.copyfileobj(source, packed, CHUNK)
            path.unlink()
            self._files[index] = packed  # type: ignore[assignment]
            self.paths[index] = path.with_name(path.name + ".gz")

    def close(self) -> list[Path]:
        for file in self._files:
            file.close()
        return self.paths


def _write(read: Read, campaign_id: int, sinks: _Sinks, line: Callable[[EventRow], str], now: str) -> tuple[int, int]:
    (campaign,) = read(
        "SELECT name, ruleset, guild_id, channel_id, gm_ids, gm_channel_id, settings, state, created_at, pbp"
        " FROM campaigns WHERE id = ?",
        (campaign_id,),
    )
    name, ruleset, guild_id, channel_id, gm_ids, gm_channel_id, settings, state, created_at, pbp = campaign
    characters = [
        {"name": n, "owner_id": owner, "sheet": json.loads(sheet)}
        for n, owner, sheet in read(
            "SELECT name, owner_id, sheet FROM characters WHERE campaign_id = ? ORDER BY id", (campaign_id,)
        )
    ]
    header = {
        "name": name,
        "ruleset": ruleset,
        "guild_id": guild_id,
        "channel_id": channel_id,
        "gm_ids": json.loads(gm_ids),
        "gm_channel_id": gm_channel_id,
        "settings": json.loads(settings),
        "state": json.loads(state),
        "created_at": created_at,
        "pbp": json.loads(pbp),
    }
    count = 0
    out, markdown = 0, 1
    sinks.write(out, f'{{\n  "format": "{FORMAT}",\n')
    sinks.write(out, f'  "exported_at": {json.dumps(now)},\n')
    sinks.write(out, f'  "campaign": {dumps(header)},\n')
    sinks.write(out, f'  "characters": {dumps(characters)},\n  "events": [')
    sinks.write(markdown, f"# {name}\n\nRuleset: {ruleset}. Started {created_at}.\n\n## Log\n\n")
    for page in _events(read, campaign_id):
        json_lines, markdown_lines = [], []
        for event_id, seq, at, actor_id, actor, command, summary, result, snapshot, undoes, thread_id in page:
            fields = {"seq": seq, "at": at, "actor_id": actor_id, "actor": actor, "command": command}
            fields |= {"summary": summary, "undoes": undoes, "thread_id": thread_id}
            # stored results and snapshots are JSON already: copied whole (GM-only, secrets included), never re-parsed
            tail = f',"result":{result},"snapshot":{snapshot or "null"}}}'
            json_lines.append(("\n    " if count == 0 else ",\n    ") + dumps(fields)[:-1] + tail)
            # the Markdown line may show an entry's secret and private sides (GM export): parse only results with one
            parsed = json.loads(result) if '"secret"' in result or '"private"' in result else {}
            row = EventRow(
                event_id, campaign_id, at, actor_id, actor, command, summary, parsed, None, None, thread_id, seq
            )
            markdown_lines.append(f"- {line(row)}\n")
            count += 1
        sinks.write(out, "".join(json_lines))
        sinks.write(markdown, "".join(markdown_lines))
    sinks.write(out, "\n  ]\n}\n")
    return count, len(characters)


def _events(read: Read, campaign_id: int) -> Iterator[list[tuple]]:
    """Oldest first, a page at a time by event number (no OFFSET: each page is a seek of ``events_seq``);
    ``undoes`` as the undone event's number in the campaign, as users see it."""
    after = 0
    while True:
        page = read(
            "SELECT e.id, e.seq, e.at, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot,"
            " u.seq, e.thread_id FROM events e LEFT JOIN events u ON u.id = e.undoes"
            " WHERE e.campaign_id = ? AND e.seq > ? ORDER BY e.seq LIMIT ?",
            (campaign_id, after, PAGE),
        )
        if not page:
            return
        yield page
        after = page[-1][1]


def _split(path: Path, limit: int) -> list[Path]:
    """``path`` itself if it fits, else ``name.part01``, ``name.part02``... of at most ``limit`` bytes."""
    size = path.stat().st_size
    if size <= limit:
        return [path]
    parts = []
    with path.open("rb") as source:
        for number in range(1, -(-size // limit) + 1):
            part = path.with_name(f"{path.name}.part{number:02d}")
            with part.open("wb") as sink:
                left = limit
                while left and (chunk := source.read(min(CHUNK, left))):
                    sink.write(chunk)
                    left -= len(chunk)
            parts.append(part)
    path.unlink()
    return parts


def _batches(paths: list[Path], limit: int) -> list[list[Path]]:
    """Group attachments into messages of at most FILES_PER_MESSAGE files and ``limit`` bytes."""
    batches: list[list[Path]] = []
    size = 0
    for path in paths:
        length = path.stat().st_size
        if not batches or len(batches[-1]) == FILES_PER_MESSAGE or size + length > limit:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += length
    return batches
