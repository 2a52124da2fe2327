"""The undo snapshot as a model: what a log entry keeps so that its change can be taken back.

Every change the service logs keeps one (``service._persist`` for ruleset actions, ``change_campaign`` for the
campaign itself), and so does every undo and redo: what *it* changed, so that `/campaign redo` can bring back
what an undo reverted, and an undone redo goes back again. Its shape:

- ``state_delta``, ``settings_delta``: reverse deltas (``bot/table/delta.py``), each op ``[path]`` (delete what
  the change added) or ``[path, value]`` (put back the value), a path being one or more keys into the JSON;
- ``characters``: each character the change touched, by name, with its owner and sheet as they were before
  (``before: null``: it did not exist);
- ``row`` (campaign-level changes): the campaign's name, GMs, GM channel and play-by-post settings before.

:func:`read` validates a stored snapshot before it is applied (a damaged one is refused in words, never an
incident), and ``bot/table/importer.py`` validates every imported one with the same models (ids within
Discord's range, names within the table's limits), then applies them in the order undo would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, ValidationError, field_validator

from bot.table.delta import apply_delta
from rules.base import RuleError, plain_error

# Discord's ids (snowflakes) are 64-bit; the databases keep them in signed 64-bit integers, and no snowflake
# reaches 2**63 before the year 2084 (its top bits count milliseconds since 2015).
SNOWFLAKE_MAX = 2**63 - 1
NAME_MAX = 100  # a campaign's name, a character's (`/campaign start`, a ruleset's create action)
MAX_GMS = 100


def _snowflake(value: int) -> int:
    if not 0 <= value <= SNOWFLAKE_MAX:
        raise ValueError("is not a Discord id (a whole number from 0 to 2^63 - 1)")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("is blank")
    return value


Snowflake = Annotated[int, Strict(), AfterValidator(_snowflake)]
Name = Annotated[str, Strict(), Field(min_length=1, max_length=NAME_MAX), AfterValidator(_not_blank)]


class SnapshotError(RuleError):
    """An undo record that cannot be applied; its words say which and why (``#7's undo record is damaged …``)."""


class _Kept(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built at the first undo, not at start-up


def _ops(ops: list[Any]) -> list[Any]:
    for op in ops:
        if not isinstance(op, list) or len(op) not in (1, 2):
            raise ValueError("holds an operation that is not [path] or [path, value]")
        path = op[0]
        if not isinstance(path, list) or not path or not all(isinstance(key, str) for key in path):
            raise ValueError("holds an operation whose path is not one or more keys")
    return ops


class CharacterBefore(_Kept):
    owner_id: Snowflake
    sheet: dict[str, Any]


class CharacterEntry(_Kept):
    name: Name
    before: CharacterBefore | None


class RowBefore(_Kept):
    """The campaign's own fields before a campaign-level change (``service._meta``)."""

    name: Name
    gm_ids: list[Snowflake] = Field(min_length=1, max_length=MAX_GMS)
    gm_channel_id: Snowflake | None = None
    pbp: dict[str, Any] | None = None  # older snapshots have none


class UndoSnapshot(_Kept):
    state_delta: list[Any]
    settings_delta: list[Any]
    characters: list[CharacterEntry]
    row: RowBefore | None = None

    _valid_ops = field_validator("state_delta", "settings_delta")(_ops)


SHAPES = {
    "dict_type": "must be an object ({…} in JSON)",
    "model_type": "must be an object ({…} in JSON)",
    "model_attributes_type": "must be an object ({…} in JSON)",
    "list_type": "must be a list ([…] in JSON)",
    "tuple_type": "must be a list ([…] in JSON)",
    "string_pattern_mismatch": "is not a command's name",
}


def plain(error: Any) -> str:
    """One of pydantic's errors in plain words, shapes included (no model's name reaches a player)."""
    return SHAPES.get(error.get("type", "")) or plain_error(error)


def problems(error: ValidationError) -> str:
    """Pydantic's complaints in a user's words, where each is."""
    found = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "it"
        found.append(f"`{where}` {plain(item)}")
    return "; ".join(found)


def read(raw: Any, seq: int) -> UndoSnapshot:
    """A stored snapshot, checked: anything the service would not have written is refused, saying which entry."""
    if isinstance(raw, dict) and isinstance(raw.get("row"), dict) and raw["row"].get("gm_ids") == []:
        raise SnapshotError(f"undoing #{seq} would leave the campaign with no GM")
    try:
        return UndoSnapshot.model_validate(raw)
    except ValidationError as exc:
        raise SnapshotError(f"#{seq}'s undo record is damaged ({problems(exc)})") from None


MISSING = object()


def _at(root: Any, path: list[str]) -> Any:
    for key in path:
        if not isinstance(root, dict) or key not in root:
            return MISSING
        root = root[key]
    return root


def reverse_of(ops: list[Any], current: dict) -> list[Any]:
    """The ops that put back, at the same paths, what ``current`` holds there now (a missing value: deleted)."""
    reverse: list[Any] = []
    for op in reversed(ops):
        value = _at(current, op[0])
        reverse.append([list(op[0])] if value is MISSING else [list(op[0]), value])
    return reverse


def applied(current: dict, ops: list[Any], seq: int, what: str) -> dict:
    """``current`` with ``ops`` applied, copying only the dicts on their paths (the cached row stays as it was).

    An op whose path does not lead through the dicts of ``current`` is refused, not an incident."""
    root = dict(current)
    try:
        for op in ops:
            parent = root
            for key in op[0][:-1]:
                child = parent[key]
                if not isinstance(child, dict):
                    raise TypeError(key)
                parent[key] = dict(child)
                parent = parent[key]
        return apply_delta(root, ops)
    except (KeyError, TypeError):
        raise SnapshotError(f"#{seq}'s undo record does not fit {what} as it stands") from None


@dataclass(frozen=True)
class Restored:
    """What applying a snapshot gives, before anything is written: the campaign's new parts, and the snapshot that
    takes this restore back in turn (an undo's is what `/campaign redo` applies)."""

    state: dict
    settings: dict
    row: RowBefore | None
    characters: list[CharacterEntry]
    reverse: dict


def restore(
    snapshot: UndoSnapshot,
    seq: int,
    *,
    state: dict,
    settings: dict,
    characters: dict[str, tuple[int, dict]],
    meta: dict,
) -> Restored:
    """Apply a checked snapshot to a campaign's state, settings, characters (casefolded name -> (owner, sheet))
    and row ``meta`` (``service._meta``), in memory; checking the result against the ruleset's models is the
    caller's."""
    new_state = applied(state, snapshot.state_delta, seq, "the campaign's state")
    new_settings = applied(settings, snapshot.settings_delta, seq, "its house rules")
    before_characters = []
    for entry in snapshot.characters:
        now = characters.get(entry.name.casefold())
        before = None if now is None else {"owner_id": now[0], "sheet": now[1]}
        before_characters.append({"name": entry.name, "before": before})
    reverse: dict[str, Any] = {
        "state_delta": reverse_of(snapshot.state_delta, state),
        "settings_delta": reverse_of(snapshot.settings_delta, settings),
        "characters": list(reversed(before_characters)),
    }
    if snapshot.row is not None:
        reverse["row"] = meta
    return Restored(new_state, new_settings, snapshot.row, snapshot.characters, reverse)
