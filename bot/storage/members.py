"""A member's own data: what ``/privacy export`` reads of it, and erasing it (``/privacy forget``, ``/campaign
player forget``, ``python -m bot forget``).

Erasing is one write job, in one transaction, the same on both backends: :func:`erase` is a program of SQL steps
(``?`` placeholders) that each store runs with its own connection (:func:`drive` on SQLite's writer thread,
:func:`drive_async` on PostgreSQL's open transaction), so the two can never rule differently.

What erasing a member does, in every campaign (or the one campaign given):

- the log: their id becomes :data:`PLACEHOLDER_ID` and their name :data:`FORMER_MEMBER`, in the entries they made
  (``actor_id``, ``actor_name``, and the name in the summary: "Alice created Pip" becomes "a former member created
  Pip") and in "added GM …"/"removed GM …" entries about them. Every entry stays, with its number (``seq``), its
  command and the rest of its summary: the campaign's story is kept whole;
- member ids kept in JSON (the campaign's state and play-by-post column, sheets, each entry's result and undo
  snapshot, waits, timers) under the keys :data:`USER_KEYS` (a single id) and :data:`USER_LIST_KEYS` (a list) are
  replaced by the placeholder or dropped from the list, so undoing an older change cannot bring the id back;
- their characters stay, owned by :data:`PLACEHOLDER_ID` (no one: the GMs may give them to someone with
  ``/character owner``); the macros they shared at a table stay, without an owner;
- they stop being a GM (the callers decide whether that may leave a campaign with none);
- the reminders they set, and those only for them, are deleted; in others their id is dropped;
- their standing orders (the play-by-post column's ``orders``) are deleted, there and in the campaign row each
  undo snapshot puts back, rather than kept as an order of no one;
- everywhere (``campaign_id`` None): their own macros and their time zone are deleted too.

Rulesets keep a member's id only under those key names (``owner_id``, ``player_id``, ``user_id``), as
docs/new-ruleset.md says.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Generator
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from bot.storage.rows import CampaignRow, CharacterRow, MacroRow, TimerRow, dumps

T = TypeVar("T")

PLACEHOLDER_ID = 0  # who owns a forgotten member's characters, and acted in their log entries: no one
FORMER_MEMBER = "a former member"
USER_KEYS = frozenset({"user_id", "owner_id", "player_id", "actor_id", "created_by"})
# readers: who may read a log entry's private side (bot/table/secrecy.py)
USER_LIST_KEYS = frozenset({"gm_ids", "user_ids", "player_ids", "owner_ids", "readers"})
GM_CHANGES = ("campaign gm add", "campaign gm remove")


@dataclass
class MemberData:
    """Everything kept under a member's id that ``/privacy export`` reads (the log is paged separately)."""

    user_id: int
    characters: list[CharacterRow]
    macros: list[MacroRow]
    reminders: list[TimerRow]  # reminders they set, fired or not
    timezone: str | None
    gm_of: list[CampaignRow]  # campaigns (live or ended) they are a GM of
    web: list[tuple[int, str]] = field(default_factory=list)  # (campaign id, name asked with): their web access
    orders: list[CampaignRow] = field(default_factory=list)  # campaigns (live or ended) holding an order of theirs


# ---------------------------------------------------------------------- what an erasure did


@dataclass
class CampaignErased:
    id: int
    guild_id: int
    channel_id: int
    name: str
    archived: bool
    characters: int = 0  # now owned by no one
    events: int = 0  # log entries rewritten
    was_gm: bool = False  # they were a GM of it (not "gm": outcome data keeps "gm" keys for the GMs)
    gms_left: int = 0  # how many GMs it has now
    waits: int = 0  # waits on them, now on no one (the GMs answer)
    reminders: int = 0  # deleted
    macros: int = 0  # shared macros kept without an owner
    other: int = 0  # other rows whose JSON held their id (sheets, reminders naming others too, the campaign)

    @property
    def changed(self) -> bool:
        counts = (self.characters, self.events, self.waits, self.reminders, self.macros, self.other)
        return self.was_gm or any(counts)


@dataclass
class Erased:
    user_id: int
    campaigns: list[CampaignErased] = field(default_factory=list)
    macros: int = 0  # their own macros, deleted
    reminders: int = 0  # reminders outside any campaign, deleted
    timezone: bool = False  # their time zone, deleted

    @property
    def empty(self) -> bool:
        return not (self.campaigns or self.macros or self.reminders or self.timezone)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------- JSON


def scrub(value: Any, user_id: int) -> Any:
    """``value`` with ``user_id`` replaced under :data:`USER_KEYS` and dropped from :data:`USER_LIST_KEYS` lists."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in USER_KEYS and _is(item, user_id):
                out[key] = PLACEHOLDER_ID
            elif key in USER_LIST_KEYS and isinstance(item, list):
                out[key] = [scrub(x, user_id) for x in item if not _is(x, user_id)]
            else:
                out[key] = scrub(item, user_id)
        return out
    if isinstance(value, list):
        return [scrub(item, user_id) for item in value]
    return value


def scrub_delta(ops: Any, user_id: int) -> Any:
    """An undo's reverse delta (``bot.table.delta``): a value put back at a path ending in a user key is one."""
    if not isinstance(ops, list):
        return scrub(ops, user_id)
    out = []
    for op in ops:
        if isinstance(op, list) and len(op) == 2 and isinstance(op[0], list) and op[0]:
            key, value = op[0][-1], op[1]
            if key in USER_KEYS and _is(value, user_id):
                value = PLACEHOLDER_ID
            elif key in USER_LIST_KEYS and isinstance(value, list):
                value = [scrub(x, user_id) for x in value if not _is(x, user_id)]
            else:
                value = scrub(value, user_id)
            out.append([op[0], value])
        else:
            out.append(scrub(op, user_id))
    return out


def scrub_snapshot(snapshot: Any, user_id: int) -> Any:
    """An entry's undo snapshot without the member: the campaign row it puts back keeps no order of theirs (undoing
    a later change must not bring back an order of no one)."""
    if not isinstance(snapshot, dict):
        return snapshot
    row = snapshot.get("row")
    if isinstance(row, dict) and "pbp" in row:
        snapshot = {**snapshot, "row": {**row, "pbp": without_orders_of(row["pbp"], user_id)}}
    return {
        key: scrub_delta(value, user_id) if key in ("state_delta", "settings_delta") else scrub(value, user_id)
        for key, value in snapshot.items()
    }


def rename(text: str, names: list[str]) -> str:
    """Each of ``names`` (whole words, longest first) in ``text`` becomes :data:`FORMER_MEMBER`."""
    for name in sorted({n for n in names if n.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", FORMER_MEMBER, text)
    return text


def without_orders_of(pbp: Any, user_id: int) -> Any:
    """The campaign's play-by-post column without the member's standing order (bot/table/orders.py): it says what
    they planned, so it goes with them rather than staying under no one's id."""
    if not isinstance(pbp, dict) or not isinstance(pbp.get("orders"), list):
        return pbp
    kept = [entry for entry in pbp["orders"] if not (isinstance(entry, dict) and _is(entry.get("user_id"), user_id))]
    rest = {key: value for key, value in pbp.items() if key != "orders"}
    return {**rest, "orders": kept} if kept else rest


def holds_order_of(pbp: Any, user_id: int) -> bool:
    """Does this play-by-post column keep a standing order under ``user_id``? (Exact, after the text filter.)"""
    stored = pbp.get("orders") if isinstance(pbp, dict) else None
    return isinstance(stored, list) and any(isinstance(e, dict) and _is(e.get("user_id"), user_id) for e in stored)


def _is(value: Any, user_id: int) -> bool:
    return type(value) is int and value == user_id


# ---------------------------------------------------------------------- the program


@dataclass(frozen=True)
class Query:
    """Rows of a SELECT, as tuples."""

    sql: str
    parameters: tuple


@dataclass(frozen=True)
class Execute:
    """An INSERT/UPDATE/DELETE; the rows it touched."""

    sql: str
    parameters: tuple


@dataclass(frozen=True)
class Lock:
    """The campaign's actions must wait for this transaction (PostgreSQL's advisory lock; SQLite's writer holds
    the whole file already)."""

    campaign_id: int


Step = Query | Execute | Lock
Program = Generator[Step, Any, Erased]

FIND_CAMPAIGNS = """
SELECT id FROM campaigns WHERE gm_ids LIKE ? OR state LIKE ? OR pbp LIKE ?
UNION SELECT campaign_id FROM characters WHERE owner_id = ? OR sheet LIKE ?
UNION SELECT campaign_id FROM events WHERE actor_id = ? OR result LIKE ? OR snapshot LIKE ?
UNION SELECT campaign_id FROM waits WHERE user_id = ? OR body LIKE ?
UNION SELECT campaign_id FROM macros WHERE owner_id = ? AND campaign_id IS NOT NULL
UNION SELECT campaign_id FROM timers WHERE (created_by = ? OR body LIKE ?) AND campaign_id IS NOT NULL
"""


def erase(user_id: int, campaign_id: int | None = None) -> Program:
    """Forget ``user_id`` in one campaign, or (None) everywhere. Text searches (``LIKE``) find candidate rows;
    what changes is decided exactly, on the parsed JSON."""
    pattern = f"%{user_id}%"
    if campaign_id is None:
        found = yield Query(
            FIND_CAMPAIGNS,
            (*[pattern] * 3, user_id, pattern, user_id, pattern, pattern, user_id, pattern, user_id, user_id, pattern),
        )
        ids = sorted({int(row[0]) for row in found})
    else:
        ids = [campaign_id]
    for each in ids:  # in one order, so two erasures never wait on each other
        yield Lock(each)
    erased = Erased(user_id)
    for each in ids:
        report = yield from _campaign(user_id, each, pattern)
        if report is not None and report.changed:
            erased.campaigns.append(report)
    # their web access goes (docs/web.md): their links no longer open, and the name they asked with is not kept
    if campaign_id is None:
        yield Execute("DELETE FROM web_access WHERE user_id = ?", (user_id,))
    else:
        yield Execute("DELETE FROM web_access WHERE campaign_id = ? AND user_id = ?", (campaign_id, user_id))
    if campaign_id is None:
        erased.macros = yield Execute("DELETE FROM macros WHERE owner_id = ? AND campaign_id IS NULL", (user_id,))
        erased.timezone = (yield Execute("DELETE FROM members WHERE user_id = ?", (user_id,))) > 0
        erased.reminders, _ = yield from _timers(user_id, None, pattern)
    return erased


def _campaign(user_id: int, campaign_id: int, pattern: str) -> Generator[Step, Any, CampaignErased | None]:
    rows = yield Query(
        "SELECT guild_id, channel_id, name, gm_ids, state, pbp, archived_at FROM campaigns WHERE id = ?",
        (campaign_id,),
    )
    if not rows:
        return None
    guild_id, channel_id, name, gm_text, state_text, pbp_text, archived_at = rows[0]
    gm_ids = json.loads(gm_text)
    report = CampaignErased(int(campaign_id), int(guild_id), int(channel_id), name, archived_at is not None)
    report.was_gm = user_id in gm_ids
    gm_ids = [gm for gm in gm_ids if gm != user_id]
    report.gms_left = len(gm_ids)
    state, pbp = json.loads(state_text), json.loads(pbp_text)
    new_state, new_pbp = scrub(state, user_id), scrub(without_orders_of(pbp, user_id), user_id)
    if new_state != state or new_pbp != pbp:
        report.other += 1

    names = yield Query(
        "SELECT DISTINCT actor_name FROM events WHERE campaign_id = ? AND actor_id = ?", (campaign_id, user_id)
    )
    known = [str(row[0]) for row in names if not str(row[0]).endswith("(timer)")]  # a timer's entry is not a name

    report.characters = yield Execute(
        "UPDATE characters SET owner_id = ? WHERE campaign_id = ? AND owner_id = ?",
        (PLACEHOLDER_ID, campaign_id, user_id),
    )
    sheets = yield Query(
        "SELECT id, sheet FROM characters WHERE campaign_id = ? AND sheet LIKE ?", (campaign_id, pattern)
    )
    for character_id, sheet_text in sheets:
        sheet = json.loads(sheet_text)
        if (new := scrub(sheet, user_id)) != sheet:
            yield Execute("UPDATE characters SET sheet = ? WHERE id = ?", (dumps(new), character_id))
            report.other += 1

    events = yield Query(
        "SELECT id, actor_id, actor_name, command, summary, result, snapshot FROM events"
        " WHERE campaign_id = ? AND (actor_id = ? OR result LIKE ? OR snapshot LIKE ?) ORDER BY seq",
        (campaign_id, user_id, pattern, pattern),
    )
    for event in events:
        rewritten = _event(user_id, known, *event)
        if rewritten is not None:
            yield Execute(
                "UPDATE events SET actor_id = ?, actor_name = ?, summary = ?, result = ?, snapshot = ? WHERE id = ?",
                (*rewritten, event[0]),
            )
            report.events += 1

    report.waits = yield Execute(
        "UPDATE waits SET user_id = ? WHERE campaign_id = ? AND user_id = ?", (PLACEHOLDER_ID, campaign_id, user_id)
    )
    waits = yield Query("SELECT key, body FROM waits WHERE campaign_id = ? AND body LIKE ?", (campaign_id, pattern))
    for key, body_text in waits:
        body = json.loads(body_text)
        if (new := scrub(body, user_id)) != body:
            yield Execute("UPDATE waits SET body = ? WHERE campaign_id = ? AND key = ?", (dumps(new), campaign_id, key))

    report.macros = yield Execute(
        "UPDATE macros SET owner_id = ? WHERE campaign_id = ? AND owner_id = ?", (PLACEHOLDER_ID, campaign_id, user_id)
    )
    report.reminders, others = yield from _timers(user_id, campaign_id, pattern)
    report.other += others
    if report.changed:  # the version moves: a process holding the campaign in its cache reloads it
        yield Execute(
            "UPDATE campaigns SET gm_ids = ?, state = ?, pbp = ?, version = version + 1 WHERE id = ?",
            (dumps(gm_ids), dumps(new_state), dumps(new_pbp), campaign_id),
        )
    return report


def _event(
    user_id: int,
    names: list[str],
    _id: int,
    actor_id: int,
    actor_name: str,
    command: str,
    summary: str,
    result_text: str,
    snapshot_text: str | None,
) -> tuple[int, str, str, str, str | None] | None:
    """An entry as it reads once the member is forgotten, or None if it does not change."""
    result = json.loads(result_text)
    snapshot = json.loads(snapshot_text) if snapshot_text else None
    new_actor, new_name, new_summary = actor_id, actor_name, summary
    new_result, new_snapshot = scrub(result, user_id), scrub_snapshot(snapshot, user_id)
    if actor_id == user_id:
        new_actor = PLACEHOLDER_ID
        if not actor_name.endswith("(timer)"):
            new_name = FORMER_MEMBER
        new_summary = rename(summary, names)
        secret = new_result.get("secret") if isinstance(new_result, dict) else None
        if isinstance(secret, dict) and isinstance(secret.get("summary"), str):
            secret["summary"] = rename(secret["summary"], names)
    if command in GM_CHANGES and _gm_change_about(user_id, result, snapshot):
        new_summary = re.sub(r"^(added|removed) GM .*$", rf"\1 GM {FORMER_MEMBER}", new_summary, flags=re.DOTALL)
    after = (new_actor, new_name, new_summary, new_result, new_snapshot)
    if after == (actor_id, actor_name, summary, result, snapshot):
        return None
    return (
        new_actor,
        new_name,
        new_summary,
        dumps(new_result),
        dumps(new_snapshot) if new_snapshot is not None else None,
    )


def _gm_change_about(user_id: int, result: Any, snapshot: Any) -> bool:
    """A GM added or removed entry names the member: the GMs before (its undo snapshot) and after differ by them."""
    try:
        before = set(snapshot["row"]["gm_ids"])
        after = set(result["gm_ids"])
    except (KeyError, TypeError):
        return False
    return before ^ after == {user_id}


def _timers(user_id: int, campaign_id: int | None, pattern: str) -> Generator[Step, Any, tuple[int, int]]:
    """Reminders they set, or only for them, go; others forget them. (Deleted, otherwise changed.)"""
    scope, parameters = ("campaign_id = ?", (campaign_id,)) if campaign_id is not None else ("campaign_id IS NULL", ())
    rows = yield Query(
        f"SELECT id, kind, created_by, body FROM timers WHERE {scope} AND (created_by = ? OR body LIKE ?)",
        (*parameters, user_id, pattern),
    )
    deleted = changed = 0
    for timer_id, kind, created_by, body_text in rows:
        body = json.loads(body_text)
        theirs = created_by == user_id
        only_them = body.get("user_ids") == [user_id] and not body.get("role_id")
        if kind == "remind" and (theirs or only_them):
            deleted += yield Execute("DELETE FROM timers WHERE id = ?", (timer_id,))
            continue
        new = scrub(body, user_id)
        if theirs and "by" in new:
            new["by"] = FORMER_MEMBER
        if new != body or theirs:
            yield Execute(
                "UPDATE timers SET body = ?, created_by = ? WHERE id = ?",
                (dumps(new), None if theirs else created_by, timer_id),
            )
            changed += 1
    return deleted, changed


# ---------------------------------------------------------------------- running it


def drive(program: Generator[Step, Any, T], run: Callable[[Step], Any]) -> T:
    """Run the program's steps with ``run`` (synchronous: SQLite's writer thread); what it returns."""
    try:
        step = next(program)
        while True:
            step = program.send(run(step))
    except StopIteration as done:
        return done.value


async def drive_async(program: Generator[Step, Any, T], run: Callable[[Step], Awaitable[Any]]) -> T:
    """Run the program's steps with ``run`` (a coroutine: PostgreSQL's open transaction); what it returns."""
    try:
        step = next(program)
        while True:
            step = program.send(await run(step))
    except StopIteration as done:
        return done.value


# ---------------------------------------------------------------------- reading a member's data

MEMBER_CHARACTERS = "SELECT id, campaign_id, owner_id, name, sheet FROM characters WHERE owner_id = ? ORDER BY id"
MEMBER_MACROS = (
    "SELECT id, owner_id, campaign_id, name, expression FROM macros WHERE owner_id = ?"
    " ORDER BY campaign_id IS NOT NULL, campaign_id, id"
)
MEMBER_REMINDERS = "SELECT * FROM timers WHERE created_by = ? AND kind = 'remind' ORDER BY id"
MEMBER_GM_OF = "SELECT * FROM campaigns WHERE gm_ids LIKE ? ORDER BY id"
MEMBER_WEB = "SELECT campaign_id, name FROM web_access WHERE user_id = ? ORDER BY campaign_id"
# campaigns whose play-by-post column has orders and the member's id somewhere: exact with holds_order_of
MEMBER_ORDERS = "SELECT * FROM campaigns WHERE pbp LIKE ? AND pbp LIKE ? ORDER BY id"
MEMBER_EVENTS = "SELECT * FROM events WHERE actor_id = ? AND id > ? ORDER BY id LIMIT ?"
