"""What every realm action reads: spells and items by name, chits, the colors present, and how a spell ends.

Colors follow RULINGS 16 with the GM's overrides; the colors present for a casting follow G-R8, for
energizing G-R9. Ending a spell always does the same three things (L55): the Magic chit fatigues, the
Artifact or Spell Book is free again, and the spell leaves the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.base import CharacterRecord, RuleError, Table, quoted
from rules.realm.book import ROMANS, Color, RealmBook, SpellDef
from rules.realm.state import Casting, Chit, Combat, Fighter, ItemState, Play, RealmSettings, RealmSheet, RealmState
from rules.text import fold

CHIT = re.compile(r"^(MAGIC|FIGHT|MOVE)\s*([A-Z]*)\s*(\d)\s*(\**)$", re.IGNORECASE)
STRENGTHS = ("L", "M", "H", "T")


def book_of(table: Table) -> RealmBook:
    return table.book


def state_of(table: Table) -> RealmState:
    return table.state


def settings_of(table: Table) -> RealmSettings:
    return table.settings


def sheet_of(record: CharacterRecord) -> RealmSheet:
    return record.sheet


# ---------------------------------------------------------------- spells and items


def all_spells(table: Table) -> dict[str, SpellDef]:
    """The book's named spells, overridden or extended by the campaign's own list."""
    found = {fold(s.name): s for s in book_of(table).spells.spell}
    found.update(state_of(table).spells)
    return found


def find_spell(table: Table, name: str) -> SpellDef:
    spell = all_spells(table).get(fold(name))
    if spell is None:
        known = ", ".join(sorted(s.name for s in all_spells(table).values()))
        raise RuleError(
            f"There is no spell {quoted(name.strip())} in this campaign. Spells: {known}. "
            "A GM adds one with `/realm spell define`."
        )
    return spell


def find_item(table: Table, name: str) -> ItemState:
    item = state_of(table).items.get(fold(name))
    if item is None:
        names = {fold(i.name): i.name for i in book_of(table).spells.book} | {
            fold(i.name): i.name for i in state_of(table).items.values()
        }
        known = ", ".join(sorted(names.values(), key=fold)) or "none yet"
        raise RuleError(
            f"There is no item {quoted(name.strip())} in this campaign. Items: {known}. "
            "A GM adds one with `/realm item define`."
        )
    return item


def items_held(table: Table, character: str) -> list[ItemState]:
    return [i for i in state_of(table).items.values() if i.holder and fold(i.holder) == fold(character)]


# ---------------------------------------------------------------- chits


def parse_chit(text: str) -> Chit:
    """``MAGIC IV3*`` → a type IV Magic chit, speed 3, one asterisk; ``FIGHT H4**``, ``MOVE M5``."""
    text = " ".join(text.split())
    match = CHIT.match(text)
    if not match:
        raise RuleError(
            f"{quoted(text)} is not a chit. Write the kind, the type or strength, the speed and the asterisks: "
            "`MAGIC IV3*`, `FIGHT H4**`, `MOVE M5`."
        )
    kind, letters, speed, stars = match.groups()
    kind, letters = kind.lower(), letters.upper()
    if len(stars) > 2:
        raise RuleError(f"{quoted(text)}: a chit has at most two effort asterisks.")
    if kind == "magic":
        if letters not in ROMANS:
            raise RuleError(f"{quoted(text)}: a Magic chit needs its type, I to VIII, as in `MAGIC IV3*`.")
        label = f"MAGIC {letters}{speed}{stars}"
        return Chit(label=label, kind="magic", type=letters, speed=int(speed), asterisks=len(stars))  # type: ignore[arg-type]
    if letters and letters not in STRENGTHS:
        raise RuleError(f"{quoted(text)}: a {kind.title()} chit's strength is one of L, M, H, T, or none.")
    label = f"{kind.upper()} {letters}{speed}{stars}"
    return Chit(label=label, kind=kind, strength=letters or None, speed=int(speed), asterisks=len(stars))  # type: ignore[arg-type]


def parse_chits(text: str) -> list[Chit]:
    chits: list[Chit] = []
    for part in (p for p in text.split(",") if p.strip()):
        chit = parse_chit(part)
        same = sum(1 for c in chits if c.label.split(" #")[0] == chit.label)
        if same:
            chit.label = f"{chit.label} #{same + 1}"
        chits.append(chit)
    return chits


def find_chit(record: CharacterRecord, label: str) -> Chit:
    chit = sheet_of(record).chit(label) or sheet_of(record).chit(" ".join(label.split()).upper())
    if chit is None:
        labels = ", ".join(c.label for c in sheet_of(record).chits) or "none"
        raise RuleError(f"{record.name} has no chit {quoted(' '.join(label.split()))}. Chits: {labels}.")
    return chit


def chit_state(chit: Chit) -> str:
    """A chit's state in words: ``fatigued``, ``committed (spell #3)``, ``purple color magic``."""
    state = {"color": f"{chit.color} color magic", "committed": f"committed (spell #{chit.committed_to})"}
    return state.get(chit.state, chit.state)


def chit_text(chit: Chit) -> str:
    return f"{chit.label}: {chit_state(chit)}"


# ---------------------------------------------------------------- days and colors


def day_colors(table: Table, day: int) -> list[Color]:
    """The colors of day ``day``: the GM's override if any, else RULINGS 16."""
    state = state_of(table)
    if day in state.day_overrides:
        return list(state.day_overrides[day])
    return book_of(table).colors.book_day_colors(day)


def day_label(table: Table, day: int) -> str:
    dom = book_of(table).colors.day_of_month(day)
    month = (day - 1) // book_of(table).colors.month_length + 1
    return f"day {day} (month {month}, day {dom})"


def clearing_colors(table: Table, clearing: str) -> list[tuple[Color, str]]:
    """The colors of a clearing and of its tile, each with where it comes from."""
    state = state_of(table)
    found: list[tuple[Color, str]] = []
    place = state.clearings.get(fold(clearing))
    if place is not None:
        found += [(c, f"clearing {place.name}") for c in place.colors]
        if place.tile:
            found += [(c, f"tile {place.tile}") for c in state.tiles.get(fold(place.tile), [])]
    found += [(c, f"tile {clearing}") for c in state.tiles.get(fold(clearing), [])]
    return found


def location_of(table: Table, name: str) -> str | None:
    record = table.characters.get(fold(name))
    return sheet_of(record).location if record is not None else None


def item_colors(table: Table, clearing: str) -> list[tuple[Color, str]]:
    """Every item with color in the clearing, whoever holds it (L41 "affect all the spells in the clearing")."""
    found = []
    for item in state_of(table).items.values():
        if item.color is None:
            continue
        where = location_of(table, item.holder) if item.holder else item.clearing
        if where and fold(where) == fold(clearing):
            found.append((item.color, f"{item.name} (item)"))
    return found


def standing_colors(table: Table, clearing: str | None) -> list[tuple[Color, str]]:
    """The day's, the tile's and clearing's, and the items' colors: present for every spell there.

    The day's colors are everywhere (G-R8), so a character in no clearing still has them."""
    day = state_of(table).day
    found: list[tuple[Color, str]] = [(c, f"day {day}") for c in day_colors(table, day)]
    if not clearing:
        return found
    return found + clearing_colors(table, clearing) + item_colors(table, clearing)


# ---------------------------------------------------------------- combats


def combat_at(table: Table, clearing: str | None) -> Combat:
    combats = state_of(table).combats
    if clearing:
        combat = combats.get(fold(clearing))
        if combat is None:
            where = ", ".join(c.clearing for c in combats.values()) or "none"
            raise RuleError(f"There is no combat in {quoted(clearing.strip())}. Combats under way: {where}.")
        return combat
    if len(combats) == 1:
        return next(iter(combats.values()))
    if not combats:
        raise RuleError(
            f"No combat is under way (it is {phase_text(table)}). The GM starts one with `/realm combat start`."
        )
    raise RuleError("Several combats are under way; name the `clearing`.")


def combat_of(table: Table, character: str) -> Combat | None:
    for combat in state_of(table).combats.values():
        fighter = combat.fighter(character)
        if fighter is not None and fighter.present:
            return combat
    return None


def speed_limit(combat: Combat | None, name: str, *, chargers: bool = True) -> int | None:
    """The fastest speed on ``name``'s melee sheet: the Move chits charging them and the move times of the monsters
    and natives there (L43, G-R7); None when the sheet is empty. The one source for every limit the bot states:
    a cast must be as fast (≤), running and alerting faster (<; ``chargers`` is the house rule
    ``run_limit_includes_chargers``)."""
    fighter = combat.fighter(name) if combat else None
    if fighter is None:
        return None
    times = [*(fighter.chargers if chargers else []), *fighter.move_times]
    return min(times) if times else None


def plays_text(plays: list[Play], *, parenthesized: bool = False) -> str:
    """``MAGIC IV4* to cast, MOVE M4** to maneuver``: the chits behind a round's effort, in plain words (with
    ``parenthesized``, `` (…)`` after a sentence, or nothing when none was recorded)."""
    text = ", ".join(p.text() for p in plays)
    return f" ({text})" if parenthesized and text else text


def effort_refusal(table: Table, who: str, fighter: Fighter | None, chit: str, asterisks: int) -> str | None:
    """Why playing ``chit`` (``asterisks``) would pass the round's effort limit (L43, G-R20), or None if it fits."""
    limit = settings_of(table).effort_limit
    played = fighter.asterisks if fighter else 0
    if played + asterisks <= limit:
        return None
    before = (
        f"{who} has already played {_stars(played)} this round{plays_text(fighter.plays, parenthesized=True)}"
        if fighter is not None and played
        else f"{who} has played no asterisk yet this round"
    )
    return (
        f"{before}, and {chit} has {_stars(asterisks)}: {played + asterisks} in all, over the limit of {limit} "
        "a round. "
        "Play a chit with fewer asterisks."
    )


def _stars(count: int) -> str:
    return f"{count} effort asterisk{'' if count == 1 else 's'}"


def play(fighter: Fighter, chit: Chit, use: str) -> Play:
    """Count a chit played this round: every asterisk toward the effort limit, a Fight or Move chit's toward the
    Fatigue Step too (L32, L43). Color magic counts nothing (L43) and is never played through here."""
    played = Play(chit=chit.label, kind=chit.kind, use=use, asterisks=chit.asterisks)  # type: ignore[arg-type]
    fighter.plays.append(played)
    fighter.asterisks += chit.asterisks
    if chit.kind in ("fight", "move"):
        fighter.fight_move_asterisks += chit.asterisks
    return played


def unplay(fighter: Fighter, label: str, use: str) -> None:
    """Take back a chit played this round (a maneuver or weapon attack placed again)."""
    for played in list(fighter.plays):
        if played.chit == label and played.use == use:
            fighter.plays.remove(played)
            fighter.asterisks -= played.asterisks
            if played.kind in ("fight", "move"):
                fighter.fight_move_asterisks -= played.asterisks
            return


def phase_text(table: Table) -> str:
    state = state_of(table)
    return {"daylight": "daylight", "evening": "the evening, after sunset", "night": "night, after midnight"}[
        state.phase
    ] + f" of day {state.day}"


# ---------------------------------------------------------------- the end of a spell


@dataclass
class Ended:
    casting: Casting
    why: str
    fatigued: list[str]

    def text(self) -> str:
        tired = f"; {', '.join(self.fatigued)} fatigued" if self.fatigued else ""
        return f"#{self.casting.id} {self.casting.spell} ({self.casting.caster}) {self.why}{tired}"

    def data(self) -> dict:
        return {
            "id": self.casting.id,
            "spell": self.casting.spell,
            "caster": self.casting.caster,
            "why": self.why,
            "fatigued": self.fatigued,
        }


def release_ritual(table: Table, casting: Casting, *, fatigue: bool = True) -> list[str]:
    """The Magic chit fatigues (L55) or, unused, goes back; an Artifact or Spell Book is free again."""
    if casting.ritual_kind == "chit":
        record = table.characters.get(fold(casting.caster))
        if record is None:
            return []
        chit = sheet_of(record).chit(casting.ritual)
        if chit is None or chit.committed_to != casting.id:
            return []
        chit.committed_to = None
        if fatigue:
            chit.state = "fatigued"
            chit.prepared_day = None
            return [f"{casting.caster}'s {chit.label}"]
        chit.state = "prepared" if casting.prepared else "active"
        return []
    item = state_of(table).items.get(fold(casting.ritual))
    if item is not None and item.committed_to == casting.id:
        item.committed_to = None
    return []


def end_casting(table: Table, casting: Casting, why: str, *, fatigue: bool = True) -> Ended:
    fatigued = release_ritual(table, casting, fatigue=fatigue)
    state = state_of(table)
    state.castings = [c for c in state.castings if c.id != casting.id]
    return Ended(casting, why, fatigued)


def find_casting(table: Table, text: str) -> Casting:
    key = text.strip().lstrip("#").split()[0] if text.strip().lstrip("#") else ""
    state = state_of(table)
    if key.isascii() and key.isdigit():  # "²" is a digit to str.isdigit, not to int()
        casting = state.casting(int(key))
        if casting is not None:
            return casting
    named = [c for c in state.castings if fold(c.spell) == fold(text)]
    if len(named) == 1:
        return named[0]
    listing = ", ".join(f"#{c.id} {c.spell} ({c.caster})" for c in state.castings) or "none"
    if len(named) > 1:
        raise RuleError(f"Several spells are called {quoted(text.strip())}: give its number. In effect: {listing}.")
    raise RuleError(f"No spell {quoted(text.strip())} is in effect. In effect: {listing}.")
