"""``/campaign import``: a campaign from a Magister export (bot/storage/export.py), in a channel with none.

The file is read whole (bounded by ``MAX_IMPORT_BYTES``, gzip or plain JSON) and trusted in nothing: every part
is validated with the models live data has (ids within Discord's range, names within the table's limits, the
ruleset's own models for house rules, state and sheets, ``bot/table/snapshot.py`` for every undo record), a
campaign relabelled as another ruleset is refused by its log, and the undo records are applied in the order
`/campaign undo` would apply them, each result checked by the ruleset's models, so no undo of the imported
campaign can fail or leave it without a GM. Then it is written in one transaction: the campaign, its characters
(owners kept) and its log (numbers, times, actors, results and undo snapshots kept), so undo keeps working as it
did; an undone change to the campaign itself puts back its GMs (and whoever imported it) and play-by-post
settings, but never the old server's GM channel, a pause, a turn order or timers. Waits, timers, reminders, a /turn
order, a pause and the board are not carried: the imported table waits on no one until someone acts. Anything
wrong with the file is a clear error and nothing is written.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import math
import zlib
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.storage.protocol import WriteTx
from bot.storage.rows import CampaignRow, ConstraintError
from bot.table import snapshot as snapshots
from bot.table.pbp import PbpSettings
from bot.table.registry import Registry
from bot.table.service import Caller, Place, Reply, TableService
from bot.table.snapshot import MAX_GMS, Name, Snowflake, plain
from rules.base import Card, Outcome, RuleError, Ruleset, sheet_parts

MAX_IMPORT_BYTES = 10 * 1024 * 1024  # the attachment, and the JSON once ungzipped
FORMATS = ("magister-campaign/1", "magister-campaign/2")
MAX_DEPTH = 64  # the deepest nesting any part of an export may have (a ruleset's state reaches about 10)
SUMMARY_MAX = 20_000  # characters of a log entry's summary
ACTOR_MAX = 100  # characters of an actor's name (Discord's are at most 32)
COMMAND = r"^[a-z0-9][a-z0-9 _.-]{0,99}$"  # a slash command's path, as the log keeps it


class _Exported(BaseModel):
    """Keys a later Magister adds to its exports are ignored: what this one needs is checked."""

    model_config = ConfigDict(extra="ignore")


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


class SecretSide(_Exported):
    """A log entry's GM side, as ``Outcome.logged_result`` writes it."""

    summary: str | None = Field(default=None, max_length=SUMMARY_MAX)
    data: dict[str, Any] = Field(default_factory=dict)


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


class ExportFile(_Exported):
    format: Literal["magister-campaign/2"]
    campaign: ExportedCampaign
    characters: list[ExportedCharacter]
    events: list[ExportedEvent]

    @model_validator(mode="after")
    def _consistent(self) -> ExportFile:
        undone: set[int] = set()
        for position, event in enumerate(self.events, start=1):
            if event.seq != position:
                raise ValueError(f"event #{event.seq} is out of order (expected #{position})")
            if event.undoes is None:
                continue
            if not 1 <= event.undoes < event.seq:
                raise ValueError(f"event #{event.seq} undoes #{event.undoes}, which is not an earlier event")
            if self.events[event.undoes - 1].undoes is not None:
                raise ValueError(
                    f"event #{event.seq} undoes #{event.undoes}, itself an undo: that is no undo made here"
                )
            if event.undoes in undone:
                raise ValueError(f"event #{event.seq} undoes #{event.undoes} again, which was undone already")
            undone.add(event.undoes)
        names = [character.name.casefold() for character in self.characters]
        if len(set(names)) != len(names):
            raise ValueError("two characters share a name")
        return self


def _upgrade(document: dict[str, Any]) -> dict[str, Any]:
    """A format-1 export (events by global id, no snapshots) as format 2: numbered in order, not undoable."""
    events = document.get("events")
    if document.get("format") != "magister-campaign/1" or not isinstance(events, list):
        return document
    numbers = {event.get("id"): seq for seq, event in enumerate(events, start=1) if isinstance(event, dict)}
    upgraded = [
        {**event, "seq": seq, "undoes": numbers.get(event.get("undoes")), "snapshot": None}
        for seq, event in enumerate(events, start=1)
        if isinstance(event, dict)
    ]
    return {**document, "format": "magister-campaign/2", "events": upgraded}


def damaged(what: str) -> RuleError:
    return RuleError(f"That export is damaged, so nothing was imported: {what}.")


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


def _problems(exc: ValidationError) -> str:
    said = []
    for error in exc.errors()[:5]:
        if error["loc"] or error.get("type") != "value_error":
            said.append(f"{_where(error['loc'])} {plain(error)}")
        else:  # the export's own check (events in order...) speaks plainly
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


def _clean(document: Any) -> None:
    """Every part of the JSON a database can keep: nesting at most ``MAX_DEPTH`` deep, text without NUL or lone
    surrogates, numbers finite (``NaN`` and ``Infinity`` are not JSON)."""
    stack: list[tuple[Any, int]] = [(document, 0)]
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


def read_export(body: bytes) -> ExportFile:
    """The file's content, checked; a clear RuleError for anything that is not a Magister export it can read."""
    if len(body) > MAX_IMPORT_BYTES:
        raise RuleError(too_large(len(body)))
    if body[:2] == b"\x1f\x8b":  # a gzipped export (large ones are sent that way)
        try:
            body = gzip.GzipFile(fileobj=io.BytesIO(body)).read(MAX_IMPORT_BYTES + 1)
        except (OSError, EOFError, zlib.error):
            raise RuleError("That .gz file is damaged or cut short: export the campaign again.") from None
        if len(body) > MAX_IMPORT_BYTES:
            raise RuleError(too_large(len(body)))
    try:
        document = json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RuleError(
            "That file is not a Magister export: it is not JSON. Attach the `.json` file `/campaign export` "
            "made (or its `.json.gz`; join split parts with `cat` first)."
        ) from None
    if not isinstance(document, dict) or "format" not in document:
        raise RuleError(
            "That JSON is not a Magister export (it has no `format`). Attach the `.json` `/campaign export` made."
        )
    if document["format"] not in FORMATS:
        raise RuleError(
            f"That export's format is {str(document['format'])[:40]!r}; this Magister reads "
            f"{' and '.join(FORMATS)}. Export it again with this version."
        )
    _clean(document)
    try:
        return ExportFile.model_validate(_upgrade(document))
    except ValidationError as exc:
        raise damaged(_problems(exc)) from None


def too_large(size: int) -> str:
    return (
        f"That file is {size / 1024 / 1024:.1f} MB; an import takes at most {MAX_IMPORT_BYTES // 1024 // 1024} MB "
        "of JSON. Nothing was imported."
    )


def _validated(model: type[BaseModel], value: Any, what: str) -> None:
    try:
        model.model_validate(value)
    except ValidationError as exc:
        raise damaged(f"{what}: {_problems(exc)}") from None
    except RuleError as exc:  # a model's own check that already speaks plainly
        raise damaged(f"{what}: {exc}") from None


def _played_as(registry: Registry, export: ExportFile) -> None:
    """A campaign relabelled as another ruleset is refused by its log: its state, sheets and undo records are the
    other ruleset's, whatever its models would make of them."""
    ruleset = export.campaign.ruleset
    for event in export.events:
        first = event.command.split(" ", 1)[0]
        if first != ruleset and first in registry:
            raise damaged(
                f"event #{event.seq} is `/{event.command}`, a command of the {first} ruleset, but the file says "
                f"the campaign plays {ruleset}"
            )
        started = event.result.get("ruleset") if event.command == "campaign start" else None
        if isinstance(started, str) and started != ruleset:
            raise damaged(
                f"event #{event.seq} started it as a {started} campaign, but the file says it plays {ruleset}"
            )


def _empty(ruleset: Ruleset, export: ExportFile) -> None:
    """A state (or house rules) of ``{}`` where every campaign of the ruleset holds more is not one it wrote."""
    for what, value, model in (
        ("state", export.campaign.state, ruleset.state_model),
        ("house rules", export.campaign.settings, ruleset.settings_model),
    ):
        if not value and model().model_dump(mode="json"):
            raise damaged(
                f"its {what} are empty, which no {ruleset.id} campaign's are"
                if what == "house rules"
                else f"its state is empty, which no {ruleset.id} campaign's is"
            )


def _results(export: ExportFile) -> dict[int, snapshots.UndoSnapshot]:
    """Each event's result sides and undo record, by the models the service writes them with."""
    kept: dict[int, snapshots.UndoSnapshot] = {}
    for event in export.events:
        where = f"event #{event.seq}'s result"
        if isinstance(event.result.get("secret"), dict):  # else public data (a secret roll's `"secret": true`)
            _validated(SecretSide, event.result["secret"], f"{where}'s secret side")
        if isinstance(event.result.get("private"), dict):
            _validated(PrivateSide, event.result["private"], f"{where}'s private side")
        if event.command == "campaign resume":
            _validated(ResumeResult, event.result, where)
        if event.snapshot is not None:
            try:
                kept[event.seq] = snapshots.read(event.snapshot, event.seq)
            except snapshots.SnapshotError as exc:
                raise damaged(str(exc)) from None
    return kept


def _undoes_cleanly(ruleset: Ruleset, export: ExportFile, kept: dict[int, snapshots.UndoSnapshot]) -> None:
    """Apply the undo records as `/campaign undo` would, each result checked by the ruleset's models: every change
    still in force, newest first, from the exported campaign; and first the newest undo's own record, which
    `/campaign redo` would apply."""
    campaign = export.campaign
    state, settings = campaign.state, campaign.settings
    characters = {c.name.casefold(): (c.owner_id, c.sheet) for c in export.characters}
    meta: dict[str, Any] = {"name": campaign.name, "gm_ids": campaign.gm_ids, "gm_channel_id": None, "pbp": {}}
    undone = {event.undoes for event in export.events if event.undoes is not None}
    newest = next((e for e in reversed(export.events) if e.snapshot is not None or e.undoes is not None), None)
    if newest is not None and newest.undoes is not None and newest.seq in kept:
        _check(
            ruleset, _restored(kept[newest.seq], newest.seq, state, settings, characters, meta), "redoing", newest.seq
        )
    for event in reversed(export.events):
        if event.seq not in kept or event.undoes is not None or event.seq in undone:
            continue
        restored = _restored(kept[event.seq], event.seq, state, settings, characters, meta)
        _check(ruleset, restored, "undoing", event.seq)
        state, settings = restored.state, restored.settings
        for entry in restored.characters:
            if entry.before is None:
                characters.pop(entry.name.casefold(), None)
            else:
                characters[entry.name.casefold()] = (entry.before.owner_id, entry.before.sheet)
        if restored.row is not None:
            meta = restored.row.model_dump()


def _restored(
    kept: snapshots.UndoSnapshot, seq: int, state: dict, settings: dict, characters: dict, meta: dict
) -> snapshots.Restored:
    try:
        return snapshots.restore(kept, seq, state=state, settings=settings, characters=characters, meta=meta)
    except snapshots.SnapshotError as exc:
        raise damaged(str(exc)) from None


def _check(ruleset: Ruleset, restored: snapshots.Restored, doing: str, seq: int) -> None:
    what = f"{doing} #{seq} would leave"
    _validated(ruleset.state_model, restored.state, f"{what} a state its ruleset refuses")
    _validated(ruleset.settings_model, restored.settings, f"{what} house rules its ruleset refuses")
    for entry in restored.characters:
        if entry.before is not None:
            sheet = sheet_parts(entry.before.sheet)[0]
            _validated(ruleset.sheet_model, sheet, f"{what} a sheet of {entry.name} its ruleset refuses")
    if restored.row is not None and restored.row.pbp is not None:
        _validated(PbpSettings, restored.row.pbp.get("settings", {}), f"{what} play-by-post settings it refuses")


def _checked(service: TableService, export: ExportFile) -> None:
    """The ruleset's own models accept the settings, the state and every sheet, as a live campaign's would; the log
    is this ruleset's; every undo record is sound, and undoing the imported changes one by one always works."""
    if export.campaign.ruleset not in service.registry:
        known = ", ".join(service.registry.ids())
        raise RuleError(f"That campaign plays {export.campaign.ruleset!r}, which this Magister does not run ({known}).")
    ruleset = service.registry.get(export.campaign.ruleset).ruleset
    _played_as(service.registry, export)
    _empty(ruleset, export)
    _validated(ruleset.settings_model, export.campaign.settings, "its house rules")
    _validated(ruleset.state_model, export.campaign.state, "its state")
    _validated(PbpSettings, export.campaign.pbp.get("settings", {}), "its play-by-post settings")
    for character in export.characters:
        _validated(ruleset.sheet_model, sheet_parts(character.sheet)[0], f"the sheet of {character.name}")
    _undoes_cleanly(ruleset, export, _results(export))


def _here(snapshot: dict[str, Any] | None, importer: int) -> dict[str, Any] | None:
    """An undo snapshot as it applies here: the old server's GM channel is no channel of this one, whoever imports
    the campaign stays its GM, and a pause or a turn order (not carried) is not brought back by an undo."""
    if snapshot is None or not isinstance(snapshot.get("row"), dict):
        return snapshot
    row = snapshot["row"]
    here = {**row, "gm_channel_id": None, "gm_ids": list(dict.fromkeys([*row["gm_ids"], importer]))}
    if isinstance(row.get("pbp"), dict):
        here["pbp"] = {"settings": row["pbp"]["settings"]} if "settings" in row["pbp"] else {}
    return {**snapshot, "row": here}


def _result_here(event: ExportedEvent) -> dict[str, Any]:
    """A resume's result names the timers it moved by their ids in the other database: none of them is here."""
    if event.command == "campaign resume" and isinstance(event.result.get("shifted"), dict):
        return {**event.result, "shifted": {"timers": [], "deadlines": {}}}
    return event.result


async def prepare(service: TableService, place: Place, caller: Caller, body: bytes) -> ExportFile:
    """Everything that can refuse an import, before anything is written (and before Discord is told to wait)."""
    export = await asyncio.to_thread(_read_and_check, service, body)  # a long log takes a while: not on the loop
    if not (caller.manages_guild or caller.user_id in export.campaign.gm_ids):
        raise RuleError(
            "Importing a campaign needs one of its GMs (as the file names them), or a member who manages the server."
        )
    await _channel_is_free(service, place)
    return export


def _read_and_check(service: TableService, body: bytes) -> ExportFile:
    export = read_export(body)
    _checked(service, export)
    return export


async def _channel_is_free(service: TableService, place: Place) -> None:
    live = await service.campaign(place)
    if live is not None:
        raise RuleError(
            f"This channel runs {live.row.name!r}: import into a channel with no campaign "
            "(or a GM ends this one first with `/campaign end`)."
        )


async def import_campaign(service: TableService, place: Place, caller: Caller, export: ExportFile) -> Reply:
    """Create this channel's campaign from a prepared export (see :func:`prepare`), in one transaction."""
    source = export.campaign
    gm_ids = list(dict.fromkeys([*source.gm_ids, caller.user_id]))
    pbp = {"settings": source.pbp["settings"]} if "settings" in source.pbp else {}  # not a pause, nor a turn order

    async def work() -> Reply:
        await _channel_is_free(service, place)  # again, under the lock
        counts = f"{len(export.characters)} characters, {len(export.events)} events"
        summary = f"imported campaign {source.name!r} ({source.ruleset}): {counts}"

        def write(tx: WriteTx) -> tuple[int, int]:
            campaign_id = tx.insert_campaign(
                place.guild_id, place.channel_id, source.ruleset, source.name, gm_ids, source.settings, source.state
            )
            row = CampaignRow(
                campaign_id,
                place.guild_id,
                place.channel_id,
                source.ruleset,
                source.name,
                gm_ids,
                None,
                source.settings,
                source.state,
                0,
                source.created_at,
                None,
                pbp,
            )
            tx.update_campaign(row)
            tx.set_created_at(campaign_id, source.created_at)
            for character in export.characters:
                tx.insert_character(campaign_id, character.owner_id, character.name, character.sheet)
            ids: dict[int, int] = {}
            for event in export.events:
                ids[event.seq] = tx.append_event(
                    campaign_id,
                    event.actor_id,
                    event.actor,
                    event.command,
                    event.summary,
                    _result_here(event),
                    _here(event.snapshot, caller.user_id),
                    ids.get(event.undoes) if event.undoes else None,
                    at=event.at,
                )
            data = {"imported": source.name, "events": len(export.events), "characters": len(export.characters)}
            return campaign_id, tx.append_event(
                campaign_id, caller.user_id, caller.name, "campaign import", summary, data
            )

        try:
            campaign_id, event_id = await service.store.write(write)
        except ConstraintError:
            raise RuleError(
                "Another campaign started in this channel at the same moment; nothing was imported."
            ) from None
        service.forget(place)
        card = Card(
            title=f"Campaign imported: {source.name}",
            description=(
                f"Ruleset **{source.ruleset}**, {len(export.characters)} characters and {len(export.events)} events, "
                "numbered as before. GMs: " + ", ".join(f"<@{gm}>" for gm in gm_ids) + ".\n"
                "Not carried: who the table was waiting on, deadlines and reminders, a `/turn` order, the GM channel "
                "(set it with `/campaign gmchannel`). `/campaign undo` works as it did there."
            ),
            tone="success",
        )
        data = {
            "campaign": source.name,
            "ruleset": source.ruleset,
            "characters": len(export.characters),
            "events": len(export.events),
            "gm_ids": gm_ids,
        }
        return Reply(
            Outcome(card=card, summary=summary, data=data), await service.store.campaign_by_id(campaign_id), event_id
        )

    return await service.locked(place, work)
