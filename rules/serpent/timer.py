"""The play-by-post clock of response windows: "The window closes when all eligible players pass,
or after a GM-set time in play-by-post."

A window records when it started waiting (``Effect.opened_at``, from ``Table.now``;
the engine stamps it). It is overdue once ``response_window_minutes`` have passed
(setting 0: no time limit). Two things close an overdue window, both as if every
Magi still eligible had passed at the deadline:

- the next ``/serpent`` battle action, whoever sends it (:func:`close_overdue`, run
  by ``runner.with_battle`` before the action itself), so play-by-post works with
  no background task at all;
- the cog's background sweep, which asks :func:`overdue_window_id` of every live
  campaign and runs ``battle close-window`` for the overdue ones.

Everything here is pure: "now" is always passed in.
"""

from __future__ import annotations

import re
from typing import Any

from rules.serpent.context import Ctx
from rules.serpent.engine import advance, close_window
from rules.serpent.state import Battle, Effect, SerpentSettings, SerpentState
from rules.serpent.turns import priority_holder

# The rules may not import datetime (no clock in the rules, DESIGN.md): times are ISO strings in, and
# whole seconds since 1970-01-01 UTC inside, converted with the proleptic Gregorian calendar below.
ISO_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?")


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 (H. Hinnant's algorithm)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    mp = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return year_of_era + era * 400 + (month <= 2), month, day


def parse_time(text: str | None) -> int | None:
    """An ISO time as ``Table.now`` gives it, in seconds since 1970 UTC (no offset: UTC); None if unreadable."""
    match = ISO_TIME.fullmatch((text or "").strip())
    if match is None:
        return None
    year, month, day, hour, minute = (int(match.group(i)) for i in range(1, 6))
    second = int(match.group(6) or 0)
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 61):
        return None
    offset = 0
    zone = match.group(7)
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        offset = (int(digits[:2]) * 60 + int(digits[2:])) * 60 * (1 if zone[0] == "+" else -1)
    return _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset


def iso_time(moment: int) -> str:
    """Seconds since 1970 UTC → ``2024-05-01T12:00:00+00:00`` (the form ``Table.now`` uses)."""
    days, seconds = divmod(moment, 86400)
    year, month, day = _civil_from_days(days)
    return f"{year:04d}-{month:02d}-{day:02d}T{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}+00:00"


def deadline_text(moment: int) -> str:
    """``2024-05-01 12:00 UTC``, for cards."""
    return iso_time(moment)[:16].replace("T", " ") + " UTC"


def window_deadline(effect: Effect, settings: SerpentSettings) -> int | None:
    """When this window closes by itself (seconds since 1970 UTC); None without a time limit or a start time."""
    opened = parse_time(effect.opened_at)
    if opened is None or settings.response_window_minutes <= 0:
        return None
    return opened + settings.response_window_minutes * 60


def overdue_window(battle: Battle | None, settings: SerpentSettings, now: str) -> Effect | None:
    """The open window if it is overdue at ``now`` (only the top of the stack is ever waiting)."""
    if battle is None or not battle.stack:
        return None
    top = battle.stack[-1]
    deadline = window_deadline(top, settings)
    moment = parse_time(now)
    if deadline is None or moment is None or moment < deadline:
        return None
    return top


def overdue_window_id(
    state: SerpentState | dict[str, Any], settings: SerpentSettings | dict[str, Any], now: str
) -> int | None:
    """For the background sweep: the id of a campaign's overdue window (stored state and settings as saved)."""
    state = state if isinstance(state, SerpentState) else SerpentState.model_validate(state or {})
    settings = settings if isinstance(settings, SerpentSettings) else SerpentSettings.model_validate(settings or {})
    effect = overdue_window(state.battle, settings, now)
    return effect.id if effect else None


def close_overdue(ctx: Ctx) -> Effect | None:
    """Close the open window if its time ran out by ``ctx.now``, then let the battle run on. Returns it, or None."""
    effect = overdue_window(ctx.battle, ctx.settings, ctx.now)
    if effect is None:
        return None
    deadline = window_deadline(effect, ctx.settings)
    assert deadline is not None
    holder = priority_holder(ctx, effect)
    if holder is not None:
        # the caster let her priority run out: she passes, and the others' race gets its full time from the deadline
        effect.passed.append(holder)
        effect.priority_over = True
        effect.opened_at = iso_time(deadline)
        ctx.j.say(
            f"⏰ {ctx.name(holder)}'s priority on {effect.title} (#{effect.id}) ran out at {deadline_text(deadline)}: "
            "she passes, and the others may respond now.",
            "window_priority_timeout",
            effect=effect.title,
            id=effect.id,
            deadline=iso_time(deadline),
            passed=[ctx.name(holder)],
        )
        ctx.timed_out.append(effect.id)
        advance(ctx)
        return effect
    waiting = close_window(ctx)
    who = ", ".join(ctx.name(k) for k in waiting)
    ctx.j.say(
        f"⏰ The response window on {effect.title} (#{effect.id}) closed at {deadline_text(deadline)}, "
        f"{ctx.settings.response_window_minutes} minutes after it opened"
        + (f": {who} did not respond and pass." if who else "."),
        "window_closed",
        effect=effect.title,
        id=effect.id,
        timeout=True,
        deadline=iso_time(deadline),
        passed=[ctx.name(k) for k in waiting],
    )
    ctx.timed_out.append(effect.id)
    advance(ctx)
    return effect
