"""``/campaign import``: a campaign from a Magister export (bot/storage/export.py), in a channel with none.

The file (a plain ``.json`` or a ``.json.gz``, up to the attachment limit; its JSON up to ``MAX_JSON_BYTES``) is
read a piece at a time (:mod:`bot.table.jsonstream`), in bounded memory however long its log, on a worker thread
or, from ``APART_BYTES``, in a process of its own (:mod:`bot.storage.apart`), and trusted in nothing: every part
is validated with the models live data has (ids within Discord's range, names within the table's limits, the
ruleset's own models for house rules, state and sheets, ``bot/table/snapshot.py`` for every undo record), a
campaign relabelled as another ruleset is refused by its log, and the undo records are applied in the order
`/campaign undo` would apply them, each result checked by the ruleset's models, so no undo of the imported
campaign can fail or leave it without a GM. Checked events wait in a scratch file (:mod:`bot.storage.spool`).

Only then is anything written, in batches so that other channels' actions go on meanwhile: the campaign, hidden
(archived, at no channel) while its characters and log arrive (numbers, times, actors, results and undo snapshots
kept, so undo keeps working as it did), then moved into the channel, live, in one last transaction that also logs
the import. A failure on the way deletes what was written; a hidden campaign a crash left behind is deleted by a
later import. An undone change to the campaign itself puts back its GMs (and whoever imported it) and
play-by-post settings, but never the old server's GM channel, a pause, a turn order or timers. Waits, timers,
reminders, a /turn order, a pause and the board are not carried: the imported table waits on no one until someone
acts. Anything wrong with the file is a clear error and nothing is kept.
"""

from __future__ import annotations

import asyncio
import bisect
import gzip
import io
import json
import logging
import math
import tempfile
import zlib
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Annotated, Any, BinaryIO

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from bot.storage.apart import run_apart
from bot.storage.protocol import Store, WriteTx
from bot.storage.rows import CampaignRow, ConstraintError, dumps, utcnow
from bot.storage.spool import Spool
from bot.table import snapshot as snapshots
from bot.table.jsonstream import JsonStream, JsonStreamError, NotAnObjectError
from bot.table.orders import valid_orders
from bot.table.pbp import PbpSettings
from bot.table.service import Caller, Place, Reply, TableService
from bot.table.snapshot import MAX_GMS, Name, Snowflake, plain
from rules.base import Card, Outcome, RuleError, Ruleset, sheet_parts

DEFAULT_LIMIT = 25 * 1024 * 1024  # Discord's attachment limit for bots, where the interaction names none
MAX_JSON_BYTES = 2 * 1024 * 1024 * 1024  # the JSON once ungzipped: a million-event log is about 450 MB
MAX_PART = 8 * 1024 * 1024  # characters of any one part: the campaign, a character, an event
MAX_CHARACTERS = 10_000  # the undo check holds every sheet; no campaign comes near
FORMAT_1, FORMAT_2 = "magister-campaign/1", "magister-campaign/2"
FORMATS = (FORMAT_1, FORMAT_2)
MAX_DEPTH = 64  # the deepest nesting any part of an export may have (a ruleset's state reaches about 10)
SUMMARY_MAX = 20_000  # characters of a log entry's summary
ACTOR_MAX = 100  # characters of an actor's name (Discord's are at most 32)
COMMAND = r"^[a-z0-9][a-z0-9 _.-]{0,99}$"  # a slash command's path, as the log keeps it
BATCH = 1000  # events per write: each a short transaction, so other channels' actions go on between them
STALE = timedelta(days=1)  # a hidden campaign this old is what a crashed import left behind
APART_BYTES = 8 * 1024 * 1024  # JSON this large (once unzipped) is checked in a process of its own (see prepare)
GZIP_MAGIC = b"\x1f\x8b"
UNDO, UNDONE = 1, 2  # flags of each event number, held in a bytearray (a byte per event)

log = logging.getLogger(__name__)


class _Exported(BaseModel):
    """Keys a later Magister adds to its exports are ignored: what this one needs is checked."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built on an import's first use, not at start-up


def _iso(text: str) -> str:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a date and time") from None
    return text


Stamp = Annotated[str, AfterValidator(_iso)]


class ExportedCampaign(_Exported):
    name: Name
    ruleset: str = Field(max_length=40)
    gm_ids: list[Snowflake] = Field(min_length=1, max_length=MAX_GMS)
    settings: dict[str, Any]
    state: dict[str, Any]
    created_at: Stamp
    pbp: dict[str, Any] = Field(default_factory=dict)


class ExportedCharacter(_Exported):
    name: Name
    owner_id: Snowflake
    sheet: dict[str, Any]


class ExportedEvent(_Exported):
    seq: int = Field(ge=1)
    at: Stamp
    actor_id: Snowflake
    actor: str = Field(max_length=ACTOR_MAX)
    command: str = Field(pattern=COMMAND)
    summary: str = Field(max_length=SUMMARY_MAX)
    undoes: int | None = None  # the undone event's seq
    result: dict[str, Any]
    snapshot: dict[str, Any] | None = None  # an undo snapshot (bot/table/snapshot.py), checked by its model


class KeptSeal(_Exported):
    """A sealed result's text and salt, on its GM side (``bot/table/sealing.py``)."""

    text: str = Field(max_length=MAX_PART)
    salt: str = Field(pattern=r"^[0-9a-f]{32,128}$")


class Commitment(_Exported):
    """A sealed result's commitment, on its public side: a SHA-256 in hex."""

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class SecretSide(_Exported):
    """A log entry's GM side, as ``Outcome.logged_result`` writes it (with its seal, if it was sealed)."""

    summary: str | None = Field(default=None, max_length=SUMMARY_MAX)
    data: dict[str, Any] = Field(default_factory=dict)
    seal: KeptSeal | None = None


class PrivateSide(SecretSide):
    """A log entry's private side, with the members (besides the GMs) who read it."""

    readers: list[Snowflake] = Field(default_factory=list)


class Shifted(_Exported):
    timers: list[tuple[int, int]]
    deadlines: dict[str, tuple[str, str]]


class ResumeResult(_Exported):
    """What a `/campaign resume` logged: how long the pause held, and what it moved (for its undo)."""

    held_seconds: int = Field(default=0, ge=0, le=10**10)
    shifted: Shifted | None = None


def damaged(what: str) -> RuleError:
    return RuleError(f"That export is damaged, so nothing was imported: {what}.")


NOT_JSON = (
    "That file is not a Magister export: it is not JSON. Attach the `.json` file `/campaign export` made (or its "
    "`.json.gz`; join split parts with `cat` first)."
)
NO_FORMAT = "That JSON is not a Magister export (it has no `format`). Attach the `.json` `/campaign export` made."


def too_large(size: int, limit: int = DEFAULT_LIMIT) -> str:
    return (
        f"That file is {size / 1024 / 1024:.1f} MB; an import takes at most {limit / 1024 / 1024:.0f} MB, the "
        "largest file this server lets Magister send. Nothing was imported."
    )


def _too_much_json() -> RuleError:
    return RuleError(
        f"That export holds more than {MAX_JSON_BYTES // 1024 // 1024:,} MB of JSON once unzipped, more than an "
        "import takes. Nothing was imported."
    )


def _where(loc: tuple[Any, ...]) -> str:
    """A place in the export as a person names it: "event #7's `actor_id`", "character #2's `owner_id`"."""
    parts = list(loc)
    head = ""
    if len(parts) >= 2 and parts[0] in ("events", "characters") and isinstance(parts[1], int):
        head = f"{'event' if parts[0] == 'events' else 'character'} #{parts[1] + 1}"
        parts = parts[2:]
    elif parts and parts[0] == "campaign":
        head, parts = "the campaign", parts[1:]
    rest = ".".join(str(part) for part in parts)
    if head and rest:
        return f"{head}'s `{rest}`"
    return head or f"`{rest or 'file'}`"


def _problems(exc: ValidationError, at: tuple[Any, ...] = ()) -> str:
    """Pydantic's complaints about the part at ``at`` (("events", 6): the seventh event), where each is."""
    said = []
    for error in exc.errors()[:5]:
        if error["loc"] or error.get("type") != "value_error":
            said.append(f"{_where((*at, *error['loc']))} {plain(error)}")
        else:  # a model's own check speaks plainly
            said.append(plain(error))
    return "; ".join(said)


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "holds a NUL character, which no database keeps in text"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a broken character (a lone surrogate), which is not text"
    return None


def _clean(value: Any, depth: int, text: str | None = None) -> None:
    """Every part of the JSON a database can keep: nesting at most ``MAX_DEPTH`` deep (``depth``: where ``value``
    stands in the file), text without NUL or lone surrogates, numbers finite (``NaN`` and ``Infinity`` are not
    JSON).

    Given the part's JSON ``text`` as :data:`DECODER` read it (which refuses numbers that are not finite), most
    parts are cleared at a glance: a NUL or a lone surrogate can only come from a ``\\u`` escape, and a part with
    few brackets cannot nest deep. Only the rest is walked."""
    if text is not None and "\\u" not in text:
        if depth + text.count("{") + text.count("[") <= MAX_DEPTH:
            return
        stack: list[tuple[Any, int]] = [(value, depth)]
        while stack:  # only the containers, for their depth
            value, depth = stack.pop()
            if isinstance(value, dict | list):
                if depth >= MAX_DEPTH:
                    raise damaged(f"it nests deeper than {MAX_DEPTH} levels, which no campaign does")
                items = value.values() if isinstance(value, dict) else value
                stack.extend((item, depth + 1) for item in items if isinstance(item, dict | list))
        return
    stack = [(value, depth)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth >= MAX_DEPTH:
                raise damaged(f"it nests deeper than {MAX_DEPTH} levels, which no campaign does")
            for key, item in value.items():
                if (problem := _text_problem(key)) is not None:
                    raise damaged(f"a key {problem}")
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth >= MAX_DEPTH:
                raise damaged(f"it nests deeper than {MAX_DEPTH} levels, which no campaign does")
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            if (problem := _text_problem(value)) is not None:
                raise damaged(f"a text {problem}")
        elif isinstance(value, float) and not math.isfinite(value):
            raise damaged("a number is NaN or infinite, which JSON does not hold")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: too large for a float
        raise damaged("a number is too large, which no campaign's is")
    return number


def _constant(name: str) -> float:
    raise damaged(f"a number is {name.lstrip('-')}, which JSON does not hold")


# Python's json reads NaN and Infinity, and makes infinity of a number too large: this one refuses them as it reads.
DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_constant)


def carried_pbp(pbp: dict[str, Any]) -> dict[str, Any]:
    """What an import brings of the play-by-post column: the settings and the players' standing orders (the same
    members play on); not a pause, nor a turn order."""
    return {key: pbp[key] for key in ("settings", "orders") if key in pbp}


def _valid_orders(pbp: dict[str, Any], what: str) -> None:
    if "orders" in pbp:
        try:
            valid_orders(pbp["orders"])
        except RuleError as exc:
            raise damaged(f"{what}: {exc}") from None


def _validated(model: type[BaseModel], value: Any, what: str) -> None:
    try:
        model.model_validate(value)
    except ValidationError as exc:
        raise damaged(f"{what}: {_problems(exc)}") from None
    except RuleError as exc:  # a model's own check that already speaks plainly
        raise damaged(f"{what}: {exc}") from None


def _model(model: type[BaseModel], value: Any, at: tuple[Any, ...]) -> Any:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise damaged(_problems(exc, at)) from None


def _here(snapshot: dict[str, Any] | None, importer: int) -> dict[str, Any] | None:
    """An undo snapshot as it applies here: the old server's GM channel is no channel of this one, whoever imports
    the campaign stays its GM, and a pause or a turn order (not carried) is not brought back by an undo."""
    if snapshot is None or not isinstance(snapshot.get("row"), dict):
        return snapshot
    row = snapshot["row"]
    here = {**row, "gm_channel_id": None, "gm_ids": list(dict.fromkeys([*row["gm_ids"], importer]))}
    if isinstance(row.get("pbp"), dict):
        here["pbp"] = carried_pbp(row["pbp"])
    return {**snapshot, "row": here}


def _result_here(event: ExportedEvent) -> dict[str, Any]:
    """A resume's result names the timers it moved by their ids in the other database: none of them is here."""
    if event.command == "campaign resume" and isinstance(event.result.get("shifted"), dict):
        return {**event.result, "shifted": {"timers": [], "deadlines": {}}}
    return event.result


# ---------------------------------------------------------------------- reading and checking, on a worker thread


class _Capped:
    """A binary stream that refuses to give more than ``MAX_JSON_BYTES`` (a gzip bomb stops there)."""

    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self.read_so_far = 0

    def read(self, size: int) -> bytes:
        data = self._source.read(size)
        self.read_so_far += len(data)
        if self.read_so_far > MAX_JSON_BYTES:
            raise _too_much_json()
        return data


@dataclass
class Prepared:
    """A checked export, ready to write: the campaign and its characters, and its events in a scratch file."""

    campaign: ExportedCampaign
    characters: list[ExportedCharacter]
    events: int
    spool: Spool
    folder: tempfile.TemporaryDirectory[str] = field(repr=False)

    def close(self) -> None:
        """Delete the scratch file (again is harmless)."""
        self.spool.close()
        self.folder.cleanup()

    async def aclose(self) -> None:
        """:meth:`close` on a worker thread: deleting a million events' scratch file takes the disk a while."""
        await asyncio.to_thread(self.close)


class _Reader:
    """One pass over an export, every part checked as it arrives; its events go to the spool."""

    def __init__(self, rulesets: Mapping[str, Ruleset], caller: Caller, spool: Spool) -> None:
        self.rulesets = rulesets
        self.caller = caller
        self.spool = spool
        self.format: str | None = None
        self.raw_campaign: Any = None
        self.campaign: ExportedCampaign | None = None
        self.ruleset: Ruleset | None = None
        self.characters: list[ExportedCharacter] = []
        self.names: set[str] = set()
        self.seen: set[str] = set()
        self.events = 0  # checked so far
        self.held = 0  # read before the campaign could be checked
        self.flags = bytearray(1)  # UNDO and UNDONE of each event, by number
        self.newest = 0  # the newest event that has an undo record or is an undo
        self.old_ids = array("q")  # format 1: each event's id, and its number in old_seqs
        self.old_seqs = array("q")
        self.stream: JsonStream | None = None

    # -- the file, member by member

    def read(self, stream: JsonStream) -> None:
        self.stream = stream
        for key, value in stream.members(frozenset({"characters", "events"})):
            if key in self.seen and key in ("format", "campaign", "characters", "events"):
                raise damaged(f"it holds `{key}` twice")
            self.seen.add(key)
            if key == "format":
                self._format(value)
            elif key == "campaign":
                self.raw_campaign = value
            elif key == "characters":
                self._characters(value)
            elif key == "events":
                self._events(value)
            else:
                _clean(value, 1)  # kept nowhere, but a later Magister's key is still JSON a database keeps
            self._header()
        if self.format is None:
            raise RuleError(NO_FORMAT)
        for key in ("campaign", "characters", "events"):
            if key not in self.seen:
                raise damaged(f"{_where((key,))} is needed")
        self._header()
        for body in self.spool.held():  # events that came before the campaign did
            self._event(DECODER.decode(body), body)
        self.spool.done()
        self._models()
        self._undoes_cleanly()

    def _format(self, value: Any) -> None:
        if value not in FORMATS:
            raise RuleError(
                f"That export's format is {str(value)[:40]!r}; this Magister reads {' and '.join(FORMATS)}. "
                "Export it again with this version."
            )
        self.format = value

    def _header(self) -> None:
        """Once the format and the campaign are known: the campaign, its ruleset, the caller's right to it."""
        if self.campaign is not None or self.format is None or "campaign" not in self.seen:
            return
        _clean(self.raw_campaign, 1)
        campaign = _model(ExportedCampaign, self.raw_campaign, ("campaign",))
        self.raw_campaign = None
        if campaign.ruleset not in self.rulesets:
            known = ", ".join(sorted(self.rulesets))
            raise RuleError(f"That campaign plays {campaign.ruleset!r}, which this Magister does not run ({known}).")
        if not (self.caller.manages_guild or self.caller.user_id in campaign.gm_ids):
            raise RuleError(
                "Importing a campaign needs one of its GMs (as the file names them), or a member who manages the "
                "server."
            )
        self.campaign, self.ruleset = campaign, self.rulesets[campaign.ruleset]

    def _models(self) -> None:
        """After the log (which names a relabelled campaign's ruleset, the clearer refusal): the ruleset's own
        models accept the house rules, the state, the play-by-post settings and every sheet, as a live
        campaign's would."""
        campaign, ruleset = self.campaign, self.ruleset
        assert campaign is not None
        assert ruleset is not None
        for what, value, model in (
            ("state", campaign.state, ruleset.state_model),
            ("house rules", campaign.settings, ruleset.settings_model),
        ):
            if not value and model().model_dump(mode="json"):
                raise damaged(
                    f"its house rules are empty, which no {ruleset.id} campaign's are"
                    if what == "house rules"
                    else f"its state is empty, which no {ruleset.id} campaign's is"
                )
        _validated(ruleset.settings_model, campaign.settings, "its house rules")
        _validated(ruleset.state_model, campaign.state, "its state")
        _validated(PbpSettings, campaign.pbp.get("settings", {}), "its play-by-post settings")
        _valid_orders(campaign.pbp, "its standing orders")
        for character in self.characters:
            _validated(ruleset.sheet_model, sheet_parts(character.sheet)[0], f"the sheet of {character.name}")

    def _characters(self, items: Any) -> None:
        if not isinstance(items, Iterator):
            raise damaged("`characters` must be a list ([…] in JSON)")
        for index, raw in enumerate(items):
            if index >= MAX_CHARACTERS:
                raise damaged(f"it holds more than {MAX_CHARACTERS:,} characters, which no campaign does")
            _clean(raw, 2, self.stream.last_text if self.stream is not None else None)
            character = _model(ExportedCharacter, raw, ("characters", index))
            key = character.name.casefold()
            if key in self.names:
                raise damaged("two characters share a name")
            self.names.add(key)
            self.characters.append(character)

    # -- the log, event by event

    def _events(self, items: Any) -> None:
        if not isinstance(items, Iterator):
            raise damaged("`events` must be a list ([…] in JSON)")
        for raw in items:
            if self.campaign is None:
                self.held += 1
                self.spool.hold(self.held, json.dumps(raw))
            else:
                self._event(raw, self.stream.last_text if self.stream is not None else None)

    def _event(self, raw: Any, text: str | None) -> None:
        seq = self.events + 1
        _clean(raw, 2, text)
        if self.format == FORMAT_1:
            raw = self._upgraded(raw, seq)
        event: ExportedEvent = _model(ExportedEvent, raw, ("events", seq - 1))
        if event.seq != seq:
            raise damaged(f"event #{event.seq} is out of order (expected #{seq})")
        self.flags.append(0)
        if event.undoes is not None:
            if not 1 <= event.undoes < seq:
                raise damaged(f"event #{seq} undoes #{event.undoes}, which is not an earlier event")
            if self.flags[event.undoes] & UNDO:
                raise damaged(f"event #{seq} undoes #{event.undoes}, itself an undo: that is no undo made here")
            if self.flags[event.undoes] & UNDONE:
                raise damaged(f"event #{seq} undoes #{event.undoes} again, which was undone already")
            self.flags[event.undoes] |= UNDONE
            self.flags[seq] = UNDO
            self.newest = seq
        self._played_as(event)
        self._sides(event)
        record = None
        if event.snapshot is not None:
            try:
                snapshots.read(event.snapshot, seq)
            except snapshots.SnapshotError as exc:
                raise damaged(str(exc)) from None
            record = dumps(_here(event.snapshot, self.caller.user_id))
            self.newest = seq
        result = dumps(_result_here(event))
        self.spool.add(
            (seq, event.at, event.actor_id, event.actor, event.command, event.summary, result, record, event.undoes)
        )
        self.events = seq

    def _upgraded(self, raw: Any, seq: int) -> Any:
        """A format-1 event (by global id, no snapshot) as format 2: numbered in order, not undoable; an undo names
        the number of the earlier event whose id it held (old exports list events by id, ascending)."""
        if not isinstance(raw, dict):
            return raw
        undoes = raw.get("undoes")
        number = None
        if isinstance(undoes, int) and not isinstance(undoes, bool):
            at = bisect.bisect_left(self.old_ids, undoes)
            if at < len(self.old_ids) and self.old_ids[at] == undoes:
                number = self.old_seqs[at]
        own = raw.get("id")
        if isinstance(own, int) and not isinstance(own, bool) and -(2**63) <= own < 2**63:
            if self.old_ids and own <= self.old_ids[-1]:
                raise damaged(f"event #{seq} is out of order (its id is not after the one before)")
            self.old_ids.append(own)
            self.old_seqs.append(seq)
        return {**raw, "seq": seq, "undoes": number, "snapshot": None}

    def _played_as(self, event: ExportedEvent) -> None:
        """A campaign relabelled as another ruleset is refused by its log: its state, sheets and undo records are
        the other ruleset's, whatever its models would make of them."""
        assert self.campaign is not None
        ruleset = self.campaign.ruleset
        first = event.command.split(" ", 1)[0]
        if first != ruleset and first in self.rulesets:
            raise damaged(
                f"event #{event.seq} is `/{event.command}`, a command of the {first} ruleset, but the file says "
                f"the campaign plays {ruleset}"
            )
        started = event.result.get("ruleset") if event.command == "campaign start" else None
        if isinstance(started, str) and started != ruleset:
            raise damaged(
                f"event #{event.seq} started it as a {started} campaign, but the file says it plays {ruleset}"
            )

    @staticmethod
    def _sides(event: ExportedEvent) -> None:
        """The result's secret and private sides, and a resume's record, by the models the service writes them
        with."""
        where = f"event #{event.seq}'s result"
        if isinstance(event.result.get("secret"), dict):  # else public data (a secret roll's `"secret": true`)
            _validated(SecretSide, event.result["secret"], f"{where}'s secret side")
        if isinstance(event.result.get("private"), dict):
            _validated(PrivateSide, event.result["private"], f"{where}'s private side")
        if "sealed" in event.result:
            _validated(Commitment, event.result["sealed"], f"{where}'s commitment")
        if event.command == "campaign resume":
            _validated(ResumeResult, event.result, where)

    # -- the undo records, as /campaign undo would apply them

    def _undoes_cleanly(self) -> None:
        """Apply the undo records as `/campaign undo` would, each result checked by the ruleset's models: every
        change still in force, newest first, from the exported campaign; and first the newest undo's own record,
        which `/campaign redo` would apply. Read back from the spool a page at a time, as written here."""
        campaign, ruleset = self.campaign, self.ruleset
        assert campaign is not None
        assert ruleset is not None
        state, settings = campaign.state, campaign.settings
        characters = {c.name.casefold(): (c.owner_id, c.sheet) for c in self.characters}
        meta: dict[str, Any] = {"name": campaign.name, "gm_ids": campaign.gm_ids, "gm_channel_id": None, "pbp": {}}
        newest = self.newest
        if newest and self.flags[newest] & UNDO and (text := self.spool.record(newest)) is not None:
            restored = _restored(_record(text, newest), newest, state, settings, characters, meta)
            _check(ruleset, restored, "redoing", newest)
        before = self.events + 1
        while page := self.spool.records_before(before, BATCH):
            for seq, text in page:
                before = seq
                if self.flags[seq] & UNDONE:
                    continue
                kept = _record(text, seq)
                restored = _restored(kept, seq, state, settings, characters, meta)
                _check(ruleset, restored, "undoing", seq, state=bool(kept.state_delta), rules=bool(kept.settings_delta))
                state, settings = restored.state, restored.settings
                for entry in restored.characters:
                    if entry.before is None:
                        characters.pop(entry.name.casefold(), None)
                    else:
                        characters[entry.name.casefold()] = (entry.before.owner_id, entry.before.sheet)
                if restored.row is not None:
                    meta = restored.row.model_dump()


def _record(text: str, seq: int) -> snapshots.UndoSnapshot:
    """An undo record from the spool, as it will be written here (checked as the file had it already), read by the
    service's own model."""
    try:
        return snapshots.UndoSnapshot.model_validate_json(text)
    except ValidationError as exc:
        raise damaged(f"#{seq}'s undo record is damaged ({snapshots.problems(exc)})") from None


def _restored(
    kept: snapshots.UndoSnapshot, seq: int, state: dict, settings: dict, characters: dict, meta: dict
) -> snapshots.Restored:
    try:
        return snapshots.restore(kept, seq, state=state, settings=settings, characters=characters, meta=meta)
    except snapshots.SnapshotError as exc:
        raise damaged(str(exc)) from None


def _check(
    ruleset: Ruleset, restored: snapshots.Restored, doing: str, seq: int, *, state: bool = True, rules: bool = True
) -> None:
    """The restored campaign passes the ruleset's models. ``state``/``rules`` False: that part is unchanged (its
    record's delta is empty), and was checked already."""
    what = f"{doing} #{seq} would leave"
    if state:
        _validated(ruleset.state_model, restored.state, f"{what} a state its ruleset refuses")
    if rules:
        _validated(ruleset.settings_model, restored.settings, f"{what} house rules its ruleset refuses")
    for entry in restored.characters:
        if entry.before is not None:
            sheet = sheet_parts(entry.before.sheet)[0]
            _validated(ruleset.sheet_model, sheet, f"{what} a sheet of {entry.name} its ruleset refuses")
    if restored.row is not None and restored.row.pbp is not None:
        _validated(PbpSettings, restored.row.pbp.get("settings", {}), f"{what} play-by-post settings it refuses")
        _valid_orders(restored.row.pbp, f"{what} standing orders")


def _opened(body: bytes | Path, limit: int) -> BinaryIO:
    """The export's JSON as a binary stream: ungzipped as it is read when it is a ``.gz``."""
    if isinstance(body, Path):
        size = body.stat().st_size
        raw: BinaryIO = body.open("rb")
    else:
        size, raw = len(body), io.BytesIO(body)
    if size > limit:
        raw.close()
        raise RuleError(too_large(size, limit))
    magic = raw.read(2)
    raw.seek(0)
    if magic == GZIP_MAGIC:  # a gzipped export (large ones are sent that way)
        return gzip.GzipFile(fileobj=raw, mode="rb")
    return raw


Checked = tuple[ExportedCampaign, list[ExportedCharacter], int]  # what a check finds, its events in the spool
Rulesets = Mapping[str, Ruleset]  # by id: all the check needs of the registry (and a process can be sent it)


def check_export(rulesets: Rulesets, caller: Caller, body: bytes | Path, limit: int, spool: Spool) -> Checked:
    """Read and check the export in full, its events into ``spool`` (on a worker thread, or in a process of its
    own); a clear RuleError for anything that is not a Magister export ``caller`` may import here."""
    reader = _Reader(rulesets, caller, spool)
    try:
        source = _opened(body, limit)
        try:
            reader.read(JsonStream(_Capped(source), max_item=MAX_PART, decoder=DECODER))
        finally:
            source.close()
    except NotAnObjectError:
        raise RuleError(NO_FORMAT) from None
    except JsonStreamError as exc:
        if exc.kind == "large":
            raise damaged(f"one part of it is over {MAX_PART // 1024 // 1024} MB, which no campaign's is") from None
        if exc.kind == "deep":
            raise damaged(f"it nests deeper than {MAX_DEPTH} levels, which no campaign does") from None
        raise RuleError(NOT_JSON) from None
    except (OSError, EOFError, zlib.error):
        raise RuleError("That .gz file is damaged or cut short: export the campaign again.") from None
    assert reader.campaign is not None
    return reader.campaign, reader.characters, reader.events


async def prepare(
    service: TableService, place: Place, caller: Caller, body: bytes | Path, *, limit: int = DEFAULT_LIMIT
) -> Prepared:
    """Everything that can refuse an import, before anything is written, read and checked in bounded memory.
    Close what it returns (``import_campaign`` does).

    A small file is checked on a worker thread, in a moment. A larger one (from ``APART_BYTES`` of JSON, about
    12,000 events) in a process of its own (:mod:`bot.storage.apart`), so that the minutes a million events take
    never hold the interpreter the event loop needs."""
    await _channel_is_free(service, place)
    rulesets = {loaded.ruleset.id: loaded.ruleset for loaded in service.registry}
    if await asyncio.to_thread(json_size, body) < APART_BYTES:
        return await asyncio.to_thread(_prepared_here, rulesets, caller, body, limit)
    return await _prepared_apart(rulesets, caller, body, limit)


def json_size(body: bytes | Path) -> int:
    """About how much JSON the file holds: its size, or a gzip's own record of what it unzips to (its last four
    bytes: a cut file's are anything, so never more than deflate's 1,032 to 1; only the choice of thread or
    process rests on it)."""
    if isinstance(body, bytes):
        head, tail, size = body[:2], body[-4:], len(body)
    else:
        with body.open("rb") as file:
            head, size = file.read(2), file.seek(0, io.SEEK_END)
            file.seek(max(size - 4, 0))
            tail = file.read(4)
    if head != GZIP_MAGIC or size < 18:
        return size
    return min(int.from_bytes(tail, "little"), size * 1032)


def _prepared_here(rulesets: Rulesets, caller: Caller, body: bytes | Path, limit: int) -> Prepared:
    folder = tempfile.TemporaryDirectory(prefix="magister-import-")
    spool = Spool(Path(folder.name))
    try:
        return Prepared(*check_export(rulesets, caller, body, limit, spool), spool, folder)
    except BaseException:
        spool.close()
        folder.cleanup()
        raise


async def _prepared_apart(rulesets: Rulesets, caller: Caller, body: bytes | Path, limit: int) -> Prepared:
    """Check in a process of its own (:mod:`bot.storage.apart`); its spool stays in the folder, for this one."""
    folder = await asyncio.to_thread(tempfile.TemporaryDirectory, prefix="magister-import-")
    try:
        source = body if isinstance(body, Path) else Path(folder.name) / "upload"
        if isinstance(body, bytes):
            await asyncio.to_thread(source.write_bytes, body)
        checked = await run_apart(_checked_apart, rulesets, caller, source, limit, Path(folder.name))
        spool = await asyncio.to_thread(Spool.reopen, Path(folder.name))
        return Prepared(*checked, spool, folder)
    except BaseException:
        await asyncio.to_thread(folder.cleanup)
        raise


def _checked_apart(rulesets: Rulesets, caller: Caller, source: Path, limit: int, folder: Path) -> Checked:
    """:func:`check_export` in the process of its own, its spool left in ``folder``."""
    spool = Spool(folder)
    try:
        return check_export(rulesets, caller, source, limit, spool)
    finally:
        spool.close()


async def _channel_is_free(service: TableService, place: Place) -> None:
    live = await service.campaign(place)
    if live is not None:
        raise RuleError(
            f"This channel runs {live.row.name!r}: import into a channel with no campaign "
            "(or a GM ends this one first with `/campaign end`)."
        )


# ---------------------------------------------------------------------- writing, in batches


def hidden_channel(channel_id: int) -> int:
    """Where a campaign waits while its import is written: no Discord channel has a negative id."""
    return -abs(channel_id) or -1


async def import_campaign(service: TableService, place: Place, caller: Caller, prepared: Prepared) -> Reply:
    """Create this channel's campaign from a prepared export (see :func:`prepare`) and close it.

    Written hidden, in batches (other channels' actions go on between them), then moved here in one transaction
    that logs the import; any failure on the way deletes what was written."""
    try:
        return await _write(service, place, caller, prepared)
    finally:
        await prepared.aclose()


async def _write(service: TableService, place: Place, caller: Caller, prepared: Prepared) -> Reply:
    store = service.store
    await sweep(store)
    source = prepared.campaign
    gm_ids = list(dict.fromkeys([*source.gm_ids, caller.user_id]))
    pbp = carried_pbp(source.pbp)
    hidden = hidden_channel(place.channel_id)

    def stage(tx: WriteTx) -> int:
        campaign_id = tx.insert_campaign(
            place.guild_id, hidden, source.ruleset, source.name, gm_ids, source.settings, source.state
        )
        row = CampaignRow(
            id=campaign_id,
            guild_id=place.guild_id,
            channel_id=hidden,
            ruleset=source.ruleset,
            name=source.name,
            gm_ids=gm_ids,
            gm_channel_id=None,
            settings=source.settings,
            state=source.state,
            version=0,
            created_at=source.created_at,
            archived_at=utcnow(),  # archived: hidden from every list until it is moved here (and when, for sweep)
            pbp=pbp,
        )
        tx.update_campaign(row)
        tx.set_created_at(campaign_id, source.created_at)
        return campaign_id

    campaign_id = await store.write(stage)
    try:
        for start in range(0, len(prepared.characters), BATCH):
            chunk = prepared.characters[start : start + BATCH]
            await store.write(partial(_characters, campaign_id, chunk))
        after = 0
        while rows := await asyncio.to_thread(prepared.spool.page, after, BATCH):
            await store.write(partial(_events, campaign_id, rows))
            after = rows[-1][0]
        return await service.locked(place, partial(_finish, service, place, caller, prepared, campaign_id, gm_ids))
    except BaseException:
        await _discard(store, campaign_id)
        raise


def _characters(campaign_id: int, characters: list[ExportedCharacter], tx: WriteTx) -> None:
    for character in characters:
        tx.insert_character(campaign_id, character.owner_id, character.name, character.sheet)


def _events(campaign_id: int, rows: list[tuple], tx: WriteTx) -> None:
    tx.append_events(campaign_id, rows)


async def _finish(
    service: TableService, place: Place, caller: Caller, prepared: Prepared, campaign_id: int, gm_ids: list[int]
) -> Reply:
    """Under the channel's lock: move the hidden campaign here, live, and log the import, in one transaction."""
    source = prepared.campaign
    await _channel_is_free(service, place)  # again: someone may have started one meanwhile
    counts = f"{len(prepared.characters)} characters, {prepared.events} events"
    summary = f"imported campaign {source.name!r} ({source.ruleset}): {counts}"
    data = {"imported": source.name, "events": prepared.events, "characters": len(prepared.characters)}

    def finish(tx: WriteTx) -> int:
        tx.finish_import(campaign_id, place.guild_id, place.channel_id)
        return tx.append_event(campaign_id, caller.user_id, caller.name, "campaign import", summary, data)

    try:
        event_id = await service.store.write(finish)
    except ConstraintError:
        raise RuleError("Another campaign started in this channel at the same moment; nothing was imported.") from None
    service.forget(place)
    card = Card(
        title=f"Campaign imported: {source.name}",
        description=(
            f"Ruleset **{source.ruleset}**, {len(prepared.characters)} characters and {prepared.events} events, "
            "numbered as before. GMs: " + ", ".join(f"<@{gm}>" for gm in gm_ids) + ".\n"
            "Not carried: who the table was waiting on, deadlines and reminders, a `/turn` order, the GM channel "
            "(set it with `/campaign gmchannel`). `/campaign undo` works as it did there."
        ),
        tone="success",
    )
    reply_data = {
        "campaign": source.name,
        "ruleset": source.ruleset,
        "characters": len(prepared.characters),
        "events": prepared.events,
        "gm_ids": gm_ids,
    }
    outcome = Outcome(card=card, summary=summary, data=reply_data)
    return Reply(outcome, await service.store.campaign_by_id(campaign_id), event_id)


async def _discard(store: Store, campaign_id: int) -> None:
    """Delete a hidden campaign and everything written for it, a batch at a time; if even that fails, a later
    import's :func:`sweep` does it."""
    try:
        while not await store.write(lambda tx: tx.discard_import(campaign_id, BATCH)):
            pass
    except Exception:
        log.warning("could not delete the unfinished import of campaign %s; a later import will", campaign_id)


async def sweep(store: Store, *, now: datetime | None = None) -> None:
    """Delete what imports that crashed left behind: hidden campaigns older than ``STALE``."""
    cutoff = ((now or datetime.now(UTC)) - STALE).isoformat(timespec="seconds")
    for campaign_id in await store.write(lambda tx: tx.unfinished_imports(cutoff)):
        await _discard(store, campaign_id)
