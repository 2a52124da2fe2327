"""``/campaign import``: a campaign from a Magister export (bot/storage/export.py), in a channel with none.

The file is read whole (bounded by ``MAX_IMPORT_BYTES``, gzip or plain JSON), validated by pydantic and by the
ruleset's own models, then written in one transaction: the campaign, its characters (owners kept) and its log
(numbers, times, actors, results and undo snapshots kept), so undo keeps working as it did; an undone change
to the campaign itself puts back its GMs and play-by-post settings, but never the old server's GM channel.
Waits, timers, reminders, a /turn order, a pause and the board are not carried: the imported table waits on no
one until someone acts. Anything wrong with the file is a clear error and nothing is written.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.storage.protocol import WriteTx
from bot.storage.rows import CampaignRow, ConstraintError
from bot.table.pbp import PbpSettings
from bot.table.service import Caller, Place, Reply, TableService, _problems
from rules.base import Card, Outcome, RuleError, sheet_parts

MAX_IMPORT_BYTES = 10 * 1024 * 1024  # the attachment, and the JSON once ungzipped
FORMATS = ("magister-campaign/1", "magister-campaign/2")


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
    name: str = Field(min_length=1, max_length=100)
    ruleset: str
    gm_ids: list[int] = Field(min_length=1)
    settings: dict[str, Any]
    state: dict[str, Any]
    created_at: Stamp
    pbp: dict[str, Any] = Field(default_factory=dict)


class ExportedCharacter(_Exported):
    name: str = Field(min_length=1, max_length=100)
    owner_id: int
    sheet: dict[str, Any]


class ExportedEvent(_Exported):
    seq: int = Field(ge=1)
    at: Stamp
    actor_id: int
    actor: str
    command: str = Field(min_length=1)
    summary: str
    undoes: int | None = None  # the undone event's seq
    result: dict[str, Any]
    snapshot: dict[str, Any] | None = None


class ExportFile(_Exported):
    format: Literal["magister-campaign/2"]
    campaign: ExportedCampaign
    characters: list[ExportedCharacter]
    events: list[ExportedEvent]

    @model_validator(mode="after")
    def _consistent(self) -> ExportFile:
        for position, event in enumerate(self.events, start=1):
            if event.seq != position:
                raise ValueError(f"event #{event.seq} is out of order (expected #{position})")
            if event.undoes is not None and not 1 <= event.undoes < event.seq:
                raise ValueError(f"event #{event.seq} undoes #{event.undoes}, which is not an earlier event")
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
    try:
        return ExportFile.model_validate(_upgrade(document))
    except ValidationError as exc:
        raise RuleError(f"That export is damaged, so nothing was imported: {_problems(exc)}.") from None


def too_large(size: int) -> str:
    return (
        f"That file is {size / 1024 / 1024:.1f} MB; an import takes at most {MAX_IMPORT_BYTES // 1024 // 1024} MB "
        "of JSON. Nothing was imported."
    )


def _checked(service: TableService, export: ExportFile) -> None:
    """The ruleset's own models accept the settings, the state and every sheet, as a live campaign's would."""
    if export.campaign.ruleset not in service.registry:
        known = ", ".join(service.registry.ids())
        raise RuleError(f"That campaign plays {export.campaign.ruleset!r}, which this Magister does not run ({known}).")
    ruleset = service.registry.get(export.campaign.ruleset).ruleset
    checks: list[tuple[type[BaseModel], dict, str]] = [
        (ruleset.settings_model, export.campaign.settings, "its house rules"),
        (ruleset.state_model, export.campaign.state, "its state"),
    ]
    checks.append((PbpSettings, export.campaign.pbp.get("settings", {}), "its play-by-post settings"))
    checks += [(ruleset.sheet_model, sheet_parts(c.sheet)[0], f"the sheet of {c.name}") for c in export.characters]
    for model, value, what in checks:
        try:
            model.model_validate(value)
        except ValidationError as exc:
            raise RuleError(f"That export is damaged, so nothing was imported: {what}: {_problems(exc)}.") from None
        except RuleError as exc:  # a model's own check that already speaks plainly
            raise RuleError(f"That export is damaged, so nothing was imported: {what}: {exc}") from None


def _here(snapshot: dict[str, Any] | None) -> dict[str, Any] | None:
    """An undo snapshot as it applies here: the old server's GM channel is no channel of this one."""
    if snapshot is None or not isinstance(snapshot.get("row"), dict):
        return snapshot
    return {**snapshot, "row": {**snapshot["row"], "gm_channel_id": None}}


async def prepare(service: TableService, place: Place, caller: Caller, body: bytes) -> ExportFile:
    """Everything that can refuse an import, before anything is written (and before Discord is told to wait)."""
    export = read_export(body)
    _checked(service, export)
    if not (caller.manages_guild or caller.user_id in export.campaign.gm_ids):
        raise RuleError(
            "Importing a campaign needs one of its GMs (as the file names them), or a member who manages the server."
        )
    await _channel_is_free(service, place)
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
                snapshot = _here(event.snapshot)
                ids[event.seq] = tx.append_event(
                    campaign_id,
                    event.actor_id,
                    event.actor,
                    event.command,
                    event.summary,
                    event.result,
                    snapshot,
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
