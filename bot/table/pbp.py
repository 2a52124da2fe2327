"""Play-by-post, the parts every ruleset shares: the campaign's deadline settings, durations, and waits.

A ruleset says, purely, who its table waits on (:meth:`rules.base.Ruleset.waits`). After each action the
service compares that with the waits it stored (:func:`plan_waits`): a wait whose key is new gets a
``since``, a deadline from these settings, timers for its nudge and its deadline, and a ping; a wait that
goes on keeps all of that and pings nobody; a wait that is gone takes its unfired timers with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.storage.rows import CampaignRow, StoredWait
from rules.base import RuleError, Wait, plain_error
from rules.text import clip

DURATION = re.compile(r"(\d+)\s*(w|d|h|m|s)", re.IGNORECASE)
UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
OFF = {"off", "none", "never", "0", "no"}
MAX_SECONDS = 366 * 86400


def parse_duration(text: str) -> int | None:
    """``"2h"``, ``"1d 12h"``, ``"30m"`` → seconds; ``"off"`` → None. Anything else is a RuleError."""
    cleaned = text.strip().lower()
    if cleaned in OFF:
        return None
    parts = DURATION.findall(cleaned)
    if not parts or DURATION.sub("", cleaned).strip(" ,"):
        raise RuleError(f"{text!r} is not a duration. Write it like `30m`, `2h`, `1d`, `1d 12h` or `off`.")
    seconds = sum(int(number) * UNITS[unit.lower()] for number, unit in parts)
    if not 60 <= seconds <= MAX_SECONDS:
        raise RuleError(f"{text!r} is out of range: a duration here is between 1 minute and 366 days.")
    return seconds


def duration_text(seconds: int) -> str:
    """Seconds as a GM would write them: ``1d 12h``."""
    out = []
    for unit, size in UNITS.items():
        if seconds >= size:
            out.append(f"{seconds // size}{unit}")
            seconds %= size
    return " ".join(out) or "0m"


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # "America" is a folder, a long name too long
        raise RuleError(
            f"{name!r} is not a time zone. Use an IANA name such as `UTC`, `Europe/Paris` or `America/New_York`."
        ) from None


class PbpSettings(BaseModel):
    """The campaign's play-by-post settings, beside (not inside) the ruleset's house rules.

    Defaults suit a table that posts once or twice a day: a response window stays open 12 hours,
    a turn lasts 2 days, the reminder comes at half the time, and a turn nobody takes goes to the GM.
    """

    model_config = ConfigDict(extra="ignore", validate_assignment=True, defer_build=True)

    response_window: str = Field("12h", description="How long a response window waits (e.g. 30m, 12h, off)")
    turn_deadline: str = Field("2d", description="How long a turn waits before its deadline (e.g. 1d, off)")
    nudge: float = Field(0.5, ge=0, lt=1, description="Remind the waited player at this share of the time; 0: never")
    turn_timeout: Literal["skip", "gm"] = Field(
        "gm", description="At a turn's deadline with no ruleset rule: skip the turn, or hand it to the GM"
    )
    timezone: str = Field("UTC", description="The campaign's time zone for `/remind` dates (an IANA name)")

    @field_validator("response_window", "turn_deadline")
    @classmethod
    def _duration(cls, value: str) -> str:
        seconds = parse_duration(value)
        return "off" if seconds is None else duration_text(seconds)

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        return zone(value).key

    def seconds_for(self, kind: str) -> int | None:
        if kind == "response":
            return parse_duration(self.response_window)
        if kind == "turn":
            return parse_duration(self.turn_deadline)
        return None


PBP_KEYS = tuple(PbpSettings.model_fields)


def setting_refused(key: str, value: Any, error: Any) -> str:
    """A refused setting in plain words (never pydantic's): "`nudge` takes a number, not 'banana'."."""
    reason = plain_error(error).rstrip(".")
    return f"`{key}` {reason}, not {value!r}. See the settings and their values with `/campaign settings`."


def pbp_settings(row: CampaignRow) -> PbpSettings:
    return PbpSettings.model_validate(row.pbp.get("settings", {}))


def set_pbp_setting(row: CampaignRow, key: str, value: Any) -> tuple[Any, Any]:
    """Change one setting on ``row`` (validated); returns (old, new)."""
    current = pbp_settings(row)
    old = getattr(current, key)
    try:
        changed = PbpSettings.model_validate({**current.model_dump(), key: value})
    except ValidationError as exc:
        raise RuleError(setting_refused(key, value, exc.errors()[0])) from None
    except RuleError as exc:
        raise RuleError(f"{key}: {exc}") from None
    row.pbp = {**row.pbp, "settings": changed.model_dump()}
    return old, getattr(changed, key)


def is_paused(row: CampaignRow) -> bool:
    return bool(row.pbp.get("paused_at"))


# ---------------------------------------------------------------------- time


def moment(iso: str) -> datetime:
    found = datetime.fromisoformat(iso)
    return found if found.tzinfo else found.replace(tzinfo=UTC)


def epoch(iso: str) -> int:
    return int(moment(iso).timestamp())


def iso_at(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def when(iso: str | None) -> str:
    """A time for a message: Discord shows ``<t:…>`` in each reader's own time zone."""
    if not iso:
        return "no deadline"
    return f"<t:{epoch(iso)}:f>"


# ---------------------------------------------------------------------- waits


@dataclass(frozen=True)
class TimerPlan:
    kind: Literal["nudge", "deadline"]
    due: int
    wait_key: str


@dataclass
class WaitPlan:
    """What one action does to the stored waits: new ones (pinged), ended ones, and their timers."""

    new: list[StoredWait] = field(default_factory=list)
    reworded: list[StoredWait] = field(default_factory=list)  # same key, new words: kept times, no ping
    ended: list[str] = field(default_factory=list)
    timers: list[TimerPlan] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.new or self.reworded or self.ended)


def plan_waits(row: CampaignRow, stored: dict[str, StoredWait], waits: list[Wait], now: str) -> WaitPlan:
    """Compare the ruleset's waits after an action with the stored ones, by key."""
    plan = WaitPlan()
    if not waits and not stored:  # the common case costs nothing
        return plan
    settings = pbp_settings(row)
    current = {}
    for wait in waits:
        current.setdefault(wait.key, wait)
    for key in stored:
        if key not in current:
            plan.ended.append(key)
    for key, wait in current.items():
        old = stored.get(key)
        body = wait.model_dump(mode="json")
        if old is not None and old.user_id != wait.user_id:  # someone else now: a new wait under the old key
            plan.ended.append(key)
            old = None
        if old is not None:
            kept = {k: v for k, v in old.body.items() if k != "timed_out"}
            if kept != body:  # same wait, new words (a round number...): keep its time, ping nobody
                if "timed_out" in old.body:
                    body["timed_out"] = old.body["timed_out"]
                plan.reworded.append(StoredWait(row.id, key, wait.user_id, body, old.since, old.deadline))
            continue
        seconds = settings.seconds_for(wait.kind)
        deadline = iso_at(epoch(now) + seconds) if seconds else None
        plan.new.append(StoredWait(row.id, key, wait.user_id, body, now, deadline))
        if seconds:
            plan.timers.append(TimerPlan("deadline", epoch(now) + seconds, key))
            if settings.nudge > 0:
                plan.timers.append(TimerPlan("nudge", epoch(now) + int(seconds * settings.nudge), key))
    return plan


def apply_plan(tx: Any, row: CampaignRow, plan: WaitPlan) -> None:
    """On the writer thread, inside the action's transaction."""
    for key in plan.ended:
        tx.drop_wait(row.id, key)
    for wait in plan.new + plan.reworded:
        tx.put_wait(row.id, wait.key, wait.user_id, wait.body, wait.since, wait.deadline)
    for timer in plan.timers:
        tx.add_timer(row.id, row.guild_id, row.channel_id, timer.kind, timer.due, {}, wait_key=timer.wait_key)


def updated_waits(stored: dict[str, StoredWait], plan: WaitPlan) -> dict[str, StoredWait]:
    waits = {k: v for k, v in stored.items() if k not in plan.ended}
    for wait in plan.new + plan.reworded:
        waits[wait.key] = wait
    return waits


# ---------------------------------------------------------------------- pings


@dataclass(frozen=True)
class Ping:
    """One line of a message that mentions exactly ``user_ids`` (a wait's player, or the GMs), or a role."""

    user_ids: tuple[int, ...]
    line: str
    role_ids: tuple[int, ...] = ()


def wait_users(row: CampaignRow, wait: StoredWait) -> tuple[int, ...]:
    """Whom a wait pings: its player, else (a GM's wait, or a character whose owner was forgotten: 0) the GMs."""
    return (wait.user_id,) if wait.user_id else tuple(row.gm_ids)


def wait_line(wait: StoredWait) -> str:
    body = wait.body
    commands = body.get("commands") or []
    line = f"**{body.get('who', '?')}**: {body.get('what', '')}"
    if commands:
        line += " (" + ", ".join(f"`{c}`" for c in commands[:4]) + ")"
    if wait.deadline:
        line += f", until {when(wait.deadline)}"
    return line


def pings_for(row: CampaignRow, plan: WaitPlan) -> list[Ping]:
    """A ping for each wait that is new; a wait that goes on (even with new words) pings nobody again."""
    return [Ping(wait_users(row, wait), wait_line(wait)) for wait in plan.new]


def ping_content(pings: list[Ping]) -> str:
    lines = [
        " ".join([f"<@&{role}>" for role in ping.role_ids] + [f"<@{user}>" for user in ping.user_ids]) + " " + ping.line
        for ping in pings
    ]
    return clip("\n".join(lines), 1900)  # under Discord's 2,000 characters, with room for what follows


def pinged_users(pings: list[Ping]) -> list[int]:
    return list(dict.fromkeys(user for ping in pings for user in ping.user_ids))


def pinged_roles(pings: list[Ping]) -> list[int]:
    return list(dict.fromkeys(role for ping in pings for role in ping.role_ids))


# ---------------------------------------------------------------------- a holiday, and taking back its end


def shift_for_resume(tx: Any, campaign_id: int, held: int, waits: dict[str, StoredWait]) -> dict[str, Any]:
    """Move every unfired timer and every wait's deadline on by ``held`` seconds, on the writer thread.

    Returns what moved, exactly (``{"timers": [[id, due before], ...], "deadlines": {key: [before, after]}}``),
    kept in the resume's log entry so that undoing the resume can put back those and nothing else.
    """
    moved = tx.shift_timers(campaign_id, held)
    deadlines = {}
    for key, wait in waits.items():
        if wait.deadline:
            after = iso_at(epoch(wait.deadline) + held)
            tx.set_wait_deadline(campaign_id, key, after)
            deadlines[key] = [wait.deadline, after]
    return {"timers": [[timer_id, due - held] for timer_id, due in moved], "deadlines": deadlines}


@dataclass
class Unshift:
    """Undoing a resume: the writes that put its timers back, and the waits as they then stand."""

    write: Any  # (WriteTx) -> None
    waits: dict[str, StoredWait]


def unshift_for_undo(
    command: str, result: dict[str, Any], campaign_id: int, waits: dict[str, StoredWait]
) -> Unshift | None:
    """What undoing ``command`` does to the timers besides the campaign row; None when nothing.

    Undoing a resume pauses again from the original moment, so the time the resume added must come off
    again, or the next resume would add it twice: each timer the resume moved and that is still to fire
    goes back to its old due time, and each wait whose deadline is still the moved one gets its old
    deadline. A timer it moved that has fired since (a reminder was posted, a deadline acted) cannot be
    taken back, so the undo is refused and nothing changes. Undoing a pause needs nothing: no timer moved,
    and those that came due during it fire at the next look, as if there had been no pause.
    """
    if command != "campaign resume":
        return None
    shifted = result.get("shifted")
    if not isinstance(shifted, dict):
        raise RuleError(
            "This resume was saved before resumes kept what they moved, so undoing it cannot put the timers "
            "back exactly. Nothing was changed; `/campaign pause` holds the timers again from now."
        )
    held = int(result.get("held_seconds", 0))
    timers = [(int(timer_id), int(due) + held, int(due)) for timer_id, due in shifted.get("timers", [])]
    deadlines = {key: (before, after) for key, (before, after) in shifted.get("deadlines", {}).items()}
    restored = dict(waits)
    back = {}  # the waits that still have the deadline the resume gave them (not a new wait under the same key)
    for key, (before, after) in deadlines.items():
        wait = restored.get(key)
        if wait is not None and wait.deadline == after:
            restored[key] = StoredWait(wait.campaign_id, key, wait.user_id, wait.body, wait.since, before)
            back[key] = before

    def write(tx: Any) -> None:
        fired = tx.put_back_timers(timers)
        if fired:
            raise RuleError(
                f"Since the resume, {len(fired)} of the timers it moved already fired (a reminder was posted or a "
                "deadline acted); undoing the resume cannot take that back. Nothing was changed; "
                "`/campaign pause` holds the timers again from now."
            )
        for key, before in back.items():
            tx.set_wait_deadline(campaign_id, key, before)

    return Unshift(write, restored)
