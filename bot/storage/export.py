"""Writing a campaign export to files, in a worker thread and in bounded memory.

A long campaign's log runs to hundreds of thousands of events, so nothing here
holds it whole: events are read in pages from one read-only snapshot and
written straight to a JSON file and a Markdown log, each event's stored result
copied as the JSON text it already is. If the files do not fit Discord's upload
limit they are gzipped, and a gzip still too large is cut into numbered parts
(joined again with ``cat``). Call :func:`write_export` through ``asyncio.to_thread``.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.storage.protocol import Store
from bot.storage.rows import EventRow

Read = Callable[[str, Sequence[Any]], list[tuple]]  # a store's snapshot(): rows of a query, ? placeholders

PAGE = 500  # events per read: bounded memory, few round trips
FILES_PER_MESSAGE = 10  # Discord's attachment limit per message
CHUNK = 1 << 20
FORMAT = "magister-campaign/2"  # 2: events carry their number in the campaign (seq) and their undo snapshot


@dataclass
class ExportFiles:
    batches: list[list[Path]]  # one message's attachments each, within the limit
    events: int
    characters: int
    compressed: bool
    split: bool


def write_export(
    store: Store, campaign_id: int, folder: Path, slug: str, limit: int, line: Callable[[EventRow], str]
) -> ExportFiles:
    """Write ``slug.json`` and ``slug-log.md`` into ``folder``, then fit them to ``limit`` bytes per message."""
    folder.mkdir(parents=True, exist_ok=True)
    json_path, markdown_path = folder / f"{slug}.json", folder / f"{slug}-log.md"
    with store.snapshot() as read:  # one snapshot: the campaign, its characters and its log agree
        events, characters = _write(read, campaign_id, json_path, markdown_path, line, store.clock())
    files = [json_path, markdown_path]
    compressed = sum(path.stat().st_size for path in files) > limit
    if compressed:
        files = [_gzip(path) for path in files]
    parts = [part for path in files for part in _split(path, limit)]
    return ExportFiles(_batches(parts, limit), events, characters, compressed, len(parts) > len(files))


def _write(
    read: Read,
    campaign_id: int,
    json_path: Path,
    markdown_path: Path,
    line: Callable[[EventRow], str],
    now: str,
) -> tuple[int, int]:
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
    with json_path.open("w", encoding="utf-8") as out, markdown_path.open("w", encoding="utf-8") as markdown:
        out.write(f'{{\n  "format": "{FORMAT}",\n')
        out.write(f'  "exported_at": {json.dumps(now)},\n')
        out.write(f'  "campaign": {_dumps(header)},\n')
        out.write(f'  "characters": {_dumps(characters)},\n  "events": [')
        markdown.write(f"# {name}\n\nRuleset: {ruleset}. Started {created_at}.\n\n## Log\n\n")
        for event_id, seq, at, actor_id, actor, command, summary, result, snapshot, undoes, thread_id in _events(
            read, campaign_id
        ):
            fields = {"seq": seq, "at": at, "actor_id": actor_id, "actor": actor, "command": command}
            fields |= {"summary": summary, "undoes": undoes, "thread_id": thread_id}
            # stored results and snapshots are JSON already: copied whole (GM-only, secrets included), never re-parsed
            tail = f',"result":{result},"snapshot":{snapshot or "null"}}}'
            out.write(("\n    " if count == 0 else ",\n    ") + _dumps(fields)[:-1] + tail)
            # the Markdown line may show an entry's secret and private sides (GM export): parse only results with one
            parsed = json.loads(result) if '"secret"' in result or '"private"' in result else {}
            row = EventRow(
                event_id, campaign_id, at, actor_id, actor, command, summary, parsed, None, None, thread_id, seq
            )
            markdown.write(f"- {line(row)}\n")
            count += 1
        out.write("\n  ]\n}\n")
    return count, len(characters)


def _events(read: Read, campaign_id: int) -> Iterator[tuple]:
    """Oldest first, a page at a time by id (no OFFSET: each page is an index seek); ``undoes`` as the
    undone event's number in the campaign, as users see it."""
    after = 0
    while True:
        page = read(
            "SELECT e.id, e.seq, e.at, e.actor_id, e.actor_name, e.command, e.summary, e.result, e.snapshot,"
            " u.seq, e.thread_id FROM events e LEFT JOIN events u ON u.id = e.undoes"
            " WHERE e.campaign_id = ? AND e.id > ? ORDER BY e.id LIMIT ?",
            (campaign_id, after, PAGE),
        )
        if not page:
            return
        yield from page
        after = page[-1][0]


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _gzip(path: Path) -> Path:
    target = path.with_name(path.name + ".gz")
    with path.open("rb") as source, gzip.open(target, "wb", compresslevel=6) as sink:
        shutil.copyfileobj(source, sink, CHUNK)
    path.unlink()
    return target


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
