"""The day (spec section 3): a new day and its colors, sunset, midnight, the GM's colors for days, tiles and
clearings, and energizing permanent spells by the colors standing there (L69, L71, G-R9 to G-R11).

Each boundary does exactly what RULINGS 17 says: day spells expire at sunset of the day after the cast,
permanent spells fall inert at midnight, and a color day energizes them at its start (G-R10). ``day next``
crosses any boundary the GM skipped, in order, so nothing is ever missed.
"""

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, fit
from rules.realm.book import clean_name, colors
from rules.realm.core import (
    Ended,
    book_of,
    clearing_colors,
    day_colors,
    day_label,
    end_casting,
    item_colors,
    location_of,
    phase_text,
    settings_of,
    sheet_of,
    standing_colors,
    state_of,
)
from rules.realm.state import Casting, Clearing
from rules.text import fold


def target_clearing(table: Table, casting: Casting) -> str:
    """Where a spell's target is now (G-R9): a character target's location, else where it was cast."""
    for name in casting.targets:
        where = location_of(table, name)
        if where:
            return where
    return casting.target_clearing or casting.clearing


def energize(casting: Casting, day: int) -> None:
    casting.status = "active"
    casting.active_until = day


def energize_by_standing(table: Table, clearing: str, why: str) -> list[str]:
    """G-R11: tile and item colors (and the day's) energize inert permanent spells whose target is there."""
    present = standing_colors(table, clearing)
    day = state_of(table).day
    woke = []
    for casting in state_of(table).castings:
        if casting.status != "inert" or fold(target_clearing(table, casting)) != fold(clearing):
            continue
        source = next((s for c, s in present if c == casting.color), None)
        if source is not None:
            energize(casting, day)
            woke.append(f"#{casting.id} {casting.spell} energized by {casting.color} ({source}) {why}")
    return woke


def energize_by_day(table: Table) -> list[str]:
    """G-R10: at the start of a color day every inert permanent spell of that color is active until midnight."""
    day = state_of(table).day
    today = day_colors(table, day)
    woke = []
    for casting in state_of(table).castings:
        if casting.status == "inert" and casting.color in today:
            energize(casting, day)
            woke.append(f"#{casting.id} {casting.spell} energized by {casting.color} (day {day})")
    return woke


# ---------------------------------------------------------------- the boundaries


def sunset(table: Table) -> tuple[list[Ended], list[str]]:
    """RULINGS 17: day spells cast before today expire now, before combat; played day special chits end."""
    state = state_of(table)
    if state.phase != "daylight":
        raise RuleError(f"Sunset has passed: it is {phase_text(table)}.")
    ended = []
    for casting in list(state.castings):
        if casting.duration == "day" and casting.day < state.day and casting.status == "active":
            ended.append(
                end_casting(table, casting, f"expired at sunset of day {state.day} (cast on day {casting.day})")
            )
        elif casting.status == "played" and casting.played_in == "phase":
            # cites L67
            ended.append(end_casting(table, casting, "its special chit's phase ended at sunset"))
    state.phase = "evening"
    return ended, []


def midnight(table: Table) -> tuple[list[Ended], list[str], list[str]]:
    """Permanent spells fall inert (L69); prepared chits never used fatigue (G-R23); stray combat spells end."""
    state = state_of(table)
    if state.phase == "night":
        raise RuleError(f"Midnight has passed: it is {phase_text(table)}.")
    if state.combats:
        where = ", ".join(c.clearing for c in state.combats.values())
        raise RuleError(f"Combat is still under way in {where}; end it with `/realm combat end` before midnight.")
    ended: list[Ended] = []
    if state.phase == "daylight":
        ended += sunset(table)[0]
    inert, fatigued = [], []
    for casting in list(state.castings):
        if casting.duration == "combat":
            ended.append(end_casting(table, casting, "expired: its day's combat is over (RULINGS 17)"))
        elif casting.duration == "permanent" and casting.status == "active":
            casting.status = "inert"
            casting.active_until = None
            inert.append(f"#{casting.id} {casting.spell}")
    for record in table.characters.values():
        for chit in sheet_of(record).chits:
            if chit.state == "prepared":
                chit.state = "fatigued"
                chit.prepared_day = None
                # cites G-R23
                fatigued.append(f"{record.name}'s {chit.label} (prepared, unused)")
    if settings_of(table).standing_color == "continuous":
        for casting in state.castings:
            if casting.status == "inert":
                where = target_clearing(table, casting)
                present = clearing_colors(table, where) + item_colors(table, where)
                if any(c == casting.color for c, _ in present):
                    energize(casting, state.day + 1)
                    inert.remove(f"#{casting.id} {casting.spell}")
    state.phase = "night"
    return ended, inert, fatigued


def _new_day(table: Table, day: int) -> dict:
    state = state_of(table)
    ended: list[Ended] = []
    inert: list[str] = []
    fatigued: list[str] = []
    if state.phase != "night":
        e, inert, fatigued = midnight(table)
        ended += e
    for casting in list(state.castings):  # day spells whose sunset fell in days the GM skipped
        if casting.duration == "day" and casting.day + 1 < day and casting.status == "active":
            ended.append(end_casting(table, casting, f"expired at sunset of day {casting.day + 1}"))
    state.day = day
    state.phase = "daylight"
    woke = energize_by_day(table)
    return {"ended": ended, "inert": inert, "fatigued": fatigued, "energized": woke}


def _boundary_card(table: Table, title: str, parts: dict) -> Card:
    card = Card(title=title)
    if parts.get("ended"):
        add_field(card, "Ended", [e.text() for e in parts["ended"]])
    if parts.get("inert"):
        add_field(card, "Fell inert at midnight", parts["inert"])
    if parts.get("fatigued"):
        add_field(card, "Fatigued", parts["fatigued"])
    if parts.get("energized"):
        add_field(card, "Energized", parts["energized"])
    return card


def _boundary_data(table: Table, parts: dict) -> dict:
    state = state_of(table)
    return {
        "day": state.day,
        "day_of_month": book_of(table).colors.day_of_month(state.day),
        "colors": day_colors(table, state.day),
        "phase": state.phase,
        "expired": [e.data() for e in parts.get("ended", [])],
        "inert": parts.get("inert", []),
        "fatigued": parts.get("fatigued", []) + [f for e in parts.get("ended", []) for f in e.fatigued],
        "energized": parts.get("energized", []),
    }


class DayNextOptions(Model):
    pass


def day_next(table: Table, options: DayNextOptions) -> Outcome:
    return _to_day(table, state_of(table).day + 1)


class DaySetOptions(Model):
    day: int = Field(ge=1, le=100_000, description="The day to move to (later than today)")


def day_set(table: Table, options: DaySetOptions) -> Outcome:
    if options.day <= state_of(table).day:
        raise RuleError(
            f"It is already day {state_of(table).day}; `day set` moves forward only. Use `/campaign undo` to go back."
        )
    return _to_day(table, options.day)


def _to_day(table: Table, day: int) -> Outcome:
    parts = _new_day(table, day)
    colors_today = day_colors(table, day)
    card = _boundary_card(table, f"Day {day}", parts)
    shown = " and ".join(colors_today) if colors_today else "no color"
    card.description = f"🌅 {day_label(table, day)}: {shown}." + (
        " (GM override)" if day in state_of(table).day_overrides else ""
    )
    return Outcome(card=fit(card), summary=f"day {day} ({shown})", data=_boundary_data(table, parts))


class SunsetOptions(Model):
    pass


def run_sunset(table: Table, options: SunsetOptions) -> Outcome:
    ended, _ = sunset(table)
    card = _boundary_card(table, f"Sunset of day {state_of(table).day}", {"ended": ended})
    card.description = "🌇 Day spells cast before today expire, before any combat (RULINGS 17)."
    return Outcome(
        card=fit(card), summary=f"sunset of day {state_of(table).day}", data=_boundary_data(table, {"ended": ended})
    )


class MidnightOptions(Model):
    pass


def run_midnight(table: Table, options: MidnightOptions) -> Outcome:
    ended, inert, fatigued = midnight(table)
    parts = {"ended": ended, "inert": inert, "fatigued": fatigued}
    card = _boundary_card(table, f"Midnight of day {state_of(table).day}", parts)
    # cites L69
    card.description = "🌙 Every active permanent spell falls inert until color energizes it again."
    return Outcome(card=fit(card), summary=f"midnight of day {state_of(table).day}", data=_boundary_data(table, parts))


class DayColorsOptions(Model):
    day: int | None = Field(default=None, ge=1, le=100_000, description="The day (default: today)")
    colors: str = Field(max_length=60, description='Colors, e.g. "gold" or "white, black"; "none"; "book" to clear')


def day_colors_set(table: Table, options: DayColorsOptions) -> Outcome:
    state = state_of(table)
    day = options.day or state.day
    if fold(options.colors) == "book":
        state.day_overrides.pop(day, None)
        woke: list[str] = []
    else:
        state.day_overrides[day] = colors(options.colors)
        woke = energize_by_day(table) if day == state.day and state.phase != "night" else []
    now = day_colors(table, day)
    card = Card(title=f"Colors of day {day}")
    card.description = f"{day_label(table, day)}: {' and '.join(now) or 'no color'}" + (
        " (GM override)." if day in state.day_overrides else " (RULINGS 16)."
    )
    if woke:
        add_field(card, "Energized", woke)
    return Outcome(
        card=card,
        summary=f"day {day} colors: {', '.join(now) or 'none'}",
        data={"day": day, "colors": now, "override": day in state.day_overrides, "energized": woke},
    )


# ---------------------------------------------------------------- clearings and tiles


class ClearingSetOptions(Model):
    name: str = Field(min_length=1, max_length=60, description="The clearing, e.g. Ruins 5")
    tile: str | None = Field(default=None, max_length=60, description="The tile it lies on, e.g. Ruins")
    colors: str | None = Field(default=None, max_length=60, description='Its own colors: "gold", "none"')


def clearing_set(table: Table, options: ClearingSetOptions) -> Outcome:
    state = state_of(table)
    name = clean_name(options.name, "clearing")
    place = state.clearings.get(fold(name)) or Clearing(name=name)
    if options.tile is not None:
        place.tile = " ".join(options.tile.split())
    if options.colors is not None:
        place.colors = colors(options.colors)
    state.clearings[fold(name)] = place
    woke = energize_by_standing(table, name, "(clearing set)") if state.phase != "night" else []
    present = standing_colors(table, name)
    card = Card(title=f"Clearing {place.name}")
    card.description = f"Tile: {place.tile or '—'}. Colors present now: " + (
        ", ".join(f"{c} ({s})" for c, s in present) or "none"
    )
    if woke:
        add_field(card, "Energized", woke)
    return Outcome(
        card=card,
        summary=f"clearing {place.name} set",
        data={
            "clearing": place.name,
            "tile": place.tile,
            "colors": place.colors,
            "colors_present": [{"color": c, "source": s} for c, s in present],
            "energized": woke,
        },
    )
