"""The day (spec section 3): new day and its colors, daylight phases (enchant, prepare, others), sunset,
midnight, and energizing permanent spells (L69, L71, G-R9 to G-R11, G-R32).

Each boundary does exactly what RULINGS 17 says: day spells expire at sunset of the day after the cast,
permanent spells fall inert at midnight, and a color day energizes them at its start (G-R10). ``day next``
crosses any boundary the GM skipped, in order, so nothing is ever missed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table
from rules.realm.book import colors, fold
from rules.realm.cards import add, fit
from rules.realm.castability import CharacterOption
from rules.realm.core import (
    Ended,
    book_of,
    clearing_colors,
    combat_of,
    day_colors,
    day_label,
    end_casting,
    find_chit,
    item_colors,
    location_of,
    phase_text,
    settings_of,
    sheet_of,
    standing_colors,
    state_of,
)
from rules.realm.state import Casting, Clearing


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
            ended.append(end_casting(table, casting, "its special chit's phase ended at sunset (L67)"))
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
                fatigued.append(f"{record.name}'s {chit.label} (prepared, unused: G-R23)")
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
        add(card, "Ended", [e.text() for e in parts["ended"]])
    if parts.get("inert"):
        add(card, "Fell inert at midnight", parts["inert"])
    if parts.get("fatigued"):
        add(card, "Fatigued", parts["fatigued"])
    if parts.get("energized"):
        add(card, "Energized", parts["energized"])
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
    card.description = "🌙 Every active permanent spell falls inert until color energizes it again (L69)."
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
        add(card, "Energized", woke)
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
    name = " ".join(options.name.split())
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
        add(card, "Energized", woke)
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


# ---------------------------------------------------------------- daylight phases


def _daylight(table: Table, what: str) -> None:
    if state_of(table).phase != "daylight":
        raise RuleError(f"{what} happens in a daylight phase; it is {phase_text(table)}.")


def start_phase(table: Table, record: CharacterRecord) -> tuple[list[Ended], list[str]]:
    """A phase starts in his clearing: his played phase chits end (L67), standing colors energize (G-R11)."""
    ended = []
    for casting in list(state_of(table).castings):
        if (
            casting.status == "played"
            and casting.played_in == "phase"
            and fold(casting.holder or "") == fold(record.name)
        ):
            ended.append(end_casting(table, casting, "its special chit's phase ended (L67)"))
    where = sheet_of(record).location
    woke = energize_by_standing(table, where, f"at {record.name}'s phase in {where}") if where else []
    return ended, woke


class EnchantOptions(Model):
    chit: str | None = Field(default=None, max_length=30, description="A Magic chit to enchant (Spell phase)")
    tile: str | None = Field(default=None, max_length=60, description="GM: a tile or clearing to enchant")
    colors: str | None = Field(default=None, max_length=60, description="GM: the tile's colors")
    character: str | None = CharacterOption


def enchant(table: Table, options: EnchantOptions) -> Outcome:
    """L9: a Spell phase turns a tile over or converts a Magic chit into a color magic chit."""
    if options.tile:
        table.require_gm("Enchanting a tile")
        if options.chit:
            raise RuleError("A Spell phase enchants a chit or a tile, not both (G-R28). Give `chit` or `tile`.")
        if options.colors is None:
            raise RuleError('Give the tile\'s `colors` ("gold", "white, black", or "none").')
        state = state_of(table)
        tile = " ".join(options.tile.split())
        state.tiles[fold(tile)] = colors(options.colors)
        woke = []
        for place in {c.name for c in state.clearings.values() if fold(c.tile) == fold(tile)} | {tile}:
            woke += energize_by_standing(table, place, f"(tile {tile} enchanted)")
        card = Card(
            title=f"Tile {tile} enchanted", description=f"Colors: {', '.join(state.tiles[fold(tile)]) or 'none'}."
        )
        if woke:
            add(card, "Energized", woke)
        return Outcome(
            card=card,
            summary=f"tile {tile}: {options.colors}",
            data={"tile": tile, "colors": state.tiles[fold(tile)], "energized": woke},
        )
    if not options.chit:
        raise RuleError("Name the Magic `chit` to enchant (or, as GM, a `tile` and its `colors`).")
    _daylight(table, "Enchanting (a Spell phase)")
    record = table.default_character(options.character)
    if sheet_of(record).dead:
        raise RuleError(f"{record.name} is dead.")
    chit = find_chit(record, options.chit)
    if chit.kind != "magic":
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; only Magic chits are enchanted (L9).")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit.state}; only a ready Magic chit can be enchanted (G-R28).")
    made = book_of(table).colors.chit_color(chit.type)  # type: ignore[arg-type]
    if made is None:
        raise RuleError(f"{chit.label} is type {chit.type}: types VI-VIII make no color (RULINGS 16).")
    ended, woke = start_phase(table, record)
    chit.state = "color"
    chit.color = made
    card = Card(title=f"{record.name} enchants {chit.label}", tone="success")
    card.description = f"✨ Spell phase: {chit.label} becomes **{made}** color magic (RULINGS 16)."
    if woke:
        add(card, "Energized at the phase start", woke)
    if ended:
        add(card, "Ended", [e.text() for e in ended])
    return Outcome(
        card=card,
        summary=f"{record.name} enchanted {chit.label} into {made}",
        data={
            "character": record.name,
            "chit": chit.label,
            "color": made,
            "energized": woke,
            "expired": [e.data() for e in ended],
        },
    )


class PrepareOptions(Model):
    chit: str = Field(min_length=1, max_length=30, description="A Magic chit to prepare (Alert phase)")
    character: str | None = CharacterOption


def prepare(table: Table, options: PrepareOptions) -> Outcome:
    """L32, L53: a chit prepared in an Alert phase casts at speed 0 tonight, and fatigues after combat."""
    _daylight(table, "Preparing a chit (an Alert phase)")
    record = table.default_character(options.character)
    chit = find_chit(record, options.chit)
    if chit.kind != "magic":
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; only Magic chits are prepared for spells (L32).")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit.state}; only a ready Magic chit can be prepared.")
    ended, woke = start_phase(table, record)
    chit.state = "prepared"
    chit.prepared_day = state_of(table).day
    card = Card(title=f"{record.name} prepares {chit.label}", tone="success")
    card.description = "Alert phase: it casts at **speed 0** in tonight's combat and fatigues at its end (L32, L53)."
    if woke:
        add(card, "Energized at the phase start", woke)
    return Outcome(
        card=card,
        summary=f"{record.name} prepared {chit.label}",
        data={"character": record.name, "chit": chit.label, "energized": woke, "expired": [e.data() for e in ended]},
    )


PhaseKind = Literal["move", "hide", "search", "rest", "trade", "spell", "alert", "other"]


class PhaseOptions(Model):
    kind: PhaseKind = Field(description="The phase (enchant and prepare have their own commands)")
    clearing: str | None = Field(default=None, max_length=60, description="Move: the clearing moved to")
    character: str | None = CharacterOption


def phase(table: Table, options: PhaseOptions) -> Outcome:
    """A daylight phase starts: a move changes the location; color in the clearing energizes (G-R11, G-R32)."""
    _daylight(table, "A phase")
    record = table.default_character(options.character)
    sheet = sheet_of(record)
    if options.kind == "move":
        if not options.clearing:
            raise RuleError("A move phase needs the `clearing` moved to.")
        sheet.location = " ".join(options.clearing.split())
    elif options.clearing:
        raise RuleError("Only a move phase takes a `clearing`.")
    ended, woke = start_phase(table, record)
    card = Card(title=f"{record.name}: {options.kind} phase")
    card.description = f"In {sheet.location or 'no clearing yet'}." + (
        " Any player here may now play a color chit to energize a permanent spell (`/realm energize`)."
    )
    if woke:
        add(card, "Energized", woke)
    if ended:
        add(card, "Ended", [e.text() for e in ended])
    return Outcome(
        card=card,
        summary=f"{record.name} {options.kind} phase in {sheet.location}",
        data={
            "character": record.name,
            "phase": options.kind,
            "clearing": sheet.location,
            "energized": woke,
            "expired": [e.data() for e in ended],
        },
    )


# ---------------------------------------------------------------- energizing


class EnergizeOptions(Model):
    spell: str = Field(min_length=1, max_length=70, description="The permanent spell: #id or its name")
    chit: str | None = Field(default=None, max_length=30, description="A color chit to play (else GM: standing colors)")
    character: str | None = CharacterOption


def find_casting(table: Table, text: str) -> Casting:
    key = text.strip().lstrip("#").split()[0] if text.strip().lstrip("#") else ""
    state = state_of(table)
    if key.isdigit():
        casting = state.casting(int(key))
        if casting is not None:
            return casting
    named = [c for c in state.castings if fold(c.spell) == fold(text)]
    if len(named) == 1:
        return named[0]
    listing = ", ".join(f"#{c.id} {c.spell} ({c.caster})" for c in state.castings) or "none"
    if len(named) > 1:
        raise RuleError(f"Several spells are called {text!r}; give its number. In effect: {listing}.")
    raise RuleError(f"No spell {text!r} is in effect. In effect: {listing}.")


def energize_spell(table: Table, options: EnergizeOptions) -> Outcome:
    """L71: a color chit (anyone's, G-R32) or a standing color energizes a permanent spell until midnight."""
    state = state_of(table)
    casting = find_casting(table, options.spell)
    if casting.duration != "permanent":
        raise RuleError(
            f"#{casting.id} {casting.spell} is a {casting.duration} spell; only permanent spells are energized (L71)."
        )
    if casting.status == "active":
        raise RuleError(
            f"#{casting.id} {casting.spell} is already active until midnight of day {casting.active_until}."
        )
    if casting.status != "inert":
        raise RuleError(f"#{casting.id} {casting.spell} is not in effect yet ({casting.status}).")
    if state.phase == "night":
        raise RuleError("It is night, after midnight; energize at the start of a phase or in combat (L71).")
    where = target_clearing(table, casting)
    if options.chit is None:
        table.require_gm("Energizing without a color chit")
        present = standing_colors(table, where)
        source = next((s for c, s in present if c == casting.color), None)
        if source is None:
            have = ", ".join(f"{c} ({s})" for c, s in present) or "none"
            raise RuleError(f"No {casting.color} magic in {where}, where the target is. Colors there: {have}.")
        energize(casting, state.day)
        how, who, chit_label = source, None, None
    else:
        record = table.default_character(options.character)
        chit = find_chit(record, options.chit)
        if chit.state != "color" or chit.color is None:
            raise RuleError(f"{chit.label} is not a color chit (it is {chit.state}).")
        if chit.color != casting.color:
            raise RuleError(f"{chit.label} is {chit.color} magic; #{casting.id} {casting.spell} needs {casting.color}.")
        here = sheet_of(record).location
        if fold(here) != fold(where):
            raise RuleError(
                f"The target of #{casting.id} is in {where}; {record.name} is in {here or 'no clearing'}. "
                "A color chit energizes a spell whose target is in his clearing (L71)."
            )
        combat = combat_of(table, record.name)
        if combat is not None and combat.step != "encounter":
            raise RuleError(
                f"In combat, a color chit is played in the Encounter Step (L71); it is the {combat.step} step."
            )
        if combat is None and state.phase != "daylight":
            raise RuleError("Outside combat, a color chit is played at the start of a daylight phase (L71).")
        chit.state = "fatigued"
        chit.color = None
        energize(casting, state.day)
        how, who, chit_label = f"{record.name}'s color chit {chit.label}", record.name, chit.label
    card = Card(title=f"#{casting.id} {casting.spell} energized", tone="success")
    card.description = (
        f"⚡ {casting.color} magic ({how}) wakes {casting.caster}'s {casting.spell}: active until midnight of "
        f"day {state.day}." + (" The chit reverts and fatigues (L41). Not an action (L71)." if chit_label else "")
    )
    return Outcome(
        card=card,
        summary=f"#{casting.id} {casting.spell} energized by {how}",
        data={
            "id": casting.id,
            "spell": casting.spell,
            "active_until": casting.active_until,
            "by": how,
            "character": who,
            "chit": chit_label,
        },
    )
