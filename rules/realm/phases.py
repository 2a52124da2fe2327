"""Daylight phases (spec section 3): a Spell phase enchants a chit or a tile (L9, G-R28), an Alert phase
prepares a chit (L32), other phases move or just start; each phase start lets color in the clearing energize
permanent spells (G-R11), and a color chit, anyone's, may energize one (L71, G-R32).
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field
from rules.realm.book import clean_name, colors
from rules.realm.castability import CharacterOption
from rules.realm.core import (
    Ended,
    book_of,
    combat_of,
    end_casting,
    find_casting,
    find_chit,
    phase_text,
    sheet_of,
    standing_colors,
    state_of,
)
from rules.realm.days import energize, energize_by_standing, target_clearing
from rules.text import fold

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
            # cites L67
            ended.append(end_casting(table, casting, "its special chit's phase ended"))
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
            # cites G-R28
            raise RuleError("A Spell phase enchants a chit or a tile, not both. Give `chit` or `tile`.")
        if options.colors is None:
            raise RuleError('Give the tile\'s `colors` ("gold", "white, black", or "none").')
        state = state_of(table)
        tile = clean_name(options.tile, "tile")
        state.tiles[fold(tile)] = colors(options.colors)
        woke = []
        for place in {c.name for c in state.clearings.values() if fold(c.tile) == fold(tile)} | {tile}:
            woke += energize_by_standing(table, place, f"(tile {tile} enchanted)")
        card = Card(
            title=f"Tile {tile} enchanted", description=f"Colors: {', '.join(state.tiles[fold(tile)]) or 'none'}."
        )
        if woke:
            add_field(card, "Energized", woke)
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
        # cites L9
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; only Magic chits are enchanted.")
    if chit.state != "active":
        # cites G-R28
        raise RuleError(f"{chit.label} is {chit.state}; only a ready Magic chit can be enchanted.")
    made = book_of(table).colors.chit_color(chit.type)  # type: ignore[arg-type]
    if made is None:
        raise RuleError(f"{chit.label} is type {chit.type}: types VI-VIII make no color (RULINGS 16).")
    ended, woke = start_phase(table, record)
    chit.state = "color"
    chit.color = made
    card = Card(title=f"{record.name} enchants {chit.label}", tone="success")
    card.description = f"✨ Spell phase: {chit.label} becomes **{made}** color magic (RULINGS 16)."
    if woke:
        add_field(card, "Energized at the phase start", woke)
    if ended:
        add_field(card, "Ended", [e.text() for e in ended])
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
        # cites L32
        raise RuleError(f"{chit.label} is a {chit.kind.title()} chit; only Magic chits are prepared for spells.")
    if chit.state != "active":
        raise RuleError(f"{chit.label} is {chit.state}; only a ready Magic chit can be prepared.")
    ended, woke = start_phase(table, record)
    chit.state = "prepared"
    chit.prepared_day = state_of(table).day
    card = Card(title=f"{record.name} prepares {chit.label}", tone="success")
    # cites L32, L53
    card.description = "Alert phase: it casts at **speed 0** in tonight's combat and fatigues at its end."
    if woke:
        add_field(card, "Energized at the phase start", woke)
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
        sheet.location = clean_name(options.clearing, "clearing")
    elif options.clearing:
        raise RuleError("Only a move phase takes a `clearing`.")
    ended, woke = start_phase(table, record)
    card = Card(title=f"{record.name}: {options.kind} phase")
    card.description = f"In {sheet.location or 'no clearing yet'}." + (
        " Any player here may now play a color chit to energize a permanent spell (`/realm energize`)."
    )
    if woke:
        add_field(card, "Energized", woke)
    if ended:
        add_field(card, "Ended", [e.text() for e in ended])
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


def energize_spell(table: Table, options: EnergizeOptions) -> Outcome:
    """L71: a color chit (anyone's, G-R32) or a standing color energizes a permanent spell until midnight."""
    state = state_of(table)
    casting = find_casting(table, options.spell)
    if casting.duration != "permanent":
        raise RuleError(
            # cites L71
            f"#{casting.id} {casting.spell} is a {casting.duration} spell; only permanent spells are energized."
        )
    if casting.status == "active":
        raise RuleError(
            f"#{casting.id} {casting.spell} is already active until midnight of day {casting.active_until}."
        )
    if casting.status != "inert":
        raise RuleError(f"#{casting.id} {casting.spell} is not in effect yet ({casting.status}).")
    if state.phase == "night":
        # cites L71
        raise RuleError("It is night, after midnight; energize at the start of a phase or in combat.")
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
                # cites L71
                f"A color chit energizes a spell whose target is in {table.their(record)} clearing."
            )
        combat = combat_of(table, record.name)
        if combat is not None and combat.step != "encounter":
            raise RuleError(
                # cites L71
                f"In combat, a color chit is played in the Encounter Step; it is the {combat.step} step."
            )
        if combat is None and state.phase != "daylight":
            # cites L71
            raise RuleError("Outside combat, a color chit is played at the start of a daylight phase.")
        chit.state = "fatigued"
        chit.color = None
        energize(casting, state.day)
        how, who, chit_label = f"{record.name}'s color chit {chit.label}", record.name, chit.label
    card = Card(title=f"#{casting.id} {casting.spell} energized", tone="success")
    card.description = (
        f"⚡ {casting.color} magic ({how}) wakes {casting.caster}'s {casting.spell}: active until midnight of "
        # cites L41, L71
        f"day {state.day}." + (" The chit reverts and fatigues. Not an action." if chit_label else "")
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
