"""Autocomplete for ``/realm`` options: spells, chits, items, castings, characters, clearings (25 at most)."""

from __future__ import annotations

from rules.base import CharacterRecord, Table
from rules.realm.book import COLORS
from rules.realm.core import all_spells, combat_of, sheet_of, state_of
from rules.text import fold

MAX_CHOICES = 25
CASTING_OPTIONS = {
    ("energize", "spell"),
    ("break", "spell"),
    ("play", "spell"),
    ("attack", "spell"),
    ("record", "spell"),
}
CLEARING_OPTIONS = {"clearing", "location", "tile"}


def _mine(table: Table) -> list[CharacterRecord]:
    return sorted(
        (c for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id),
        key=lambda c: fold(c.name),
    )


def _acting(table: Table) -> list[CharacterRecord]:
    return _mine(table)


# which chits an action's `chit` option plays: (kinds, states); the rest list every chit
CHIT_PLAYS: dict[str, tuple[set[str], set[str]]] = {
    "combat charge": ({"move"}, {"active"}),
    "combat maneuver": ({"move"}, {"active"}),
    "combat weapon": ({"fight"}, {"active"}),
    "combat action": ({"move", "fight"}, {"active"}),
    "enchant": ({"magic"}, {"active"}),
    "prepare": ({"magic"}, {"active"}),
    "energize": ({"magic"}, {"color"}),
}


def _chits(table: Table, action: str, option: str) -> list[str]:
    """The acting characters' chits an option could play now: for a combat play, their ready chits of the right
    kind not already played this round (L43); a ritual, ready or prepared Magic chits and books; a color chit,
    enchanted ones."""
    if option == "color_chit":
        wanted: tuple[set[str], set[str]] | None = ({"magic"}, {"color"})
    elif option == "ritual":
        wanted = ({"magic"}, {"active", "prepared"})
    else:
        wanted = CHIT_PLAYS.get(action)
    names = []
    for record in _acting(table):
        combat = combat_of(table, record.name)
        fighter = combat.fighter(record.name) if combat else None
        played = {p.chit for p in fighter.plays} if fighter else set()
        for chit in sheet_of(record).chits:
            if wanted is not None and (chit.kind not in wanted[0] or chit.state not in wanted[1]):
                continue
            if wanted is not None and action.startswith("combat") and chit.label in played:
                continue
            names.append(chit.label)
    if option == "ritual":
        names += [i.name for i in state_of(table).items.values() if i.kind != "item"]
    return names


def suggestions(table: Table, action: str, option: str, current: str) -> list[str]:
    found = list(dict.fromkeys(_choices(table, action, option, current)))
    typed = fold(current)
    starts = [c for c in found if fold(c).startswith(typed)]
    contains = [c for c in found if typed in fold(c) and c not in starts]
    return [c[:100] for c in starts + contains][:MAX_CHOICES]


def _choices(table: Table, action: str, option: str, current: str) -> list[str]:
    state = state_of(table)
    if (action, option) in CASTING_OPTIONS:
        return [f"#{c.id} {c.spell}" for c in state.castings]
    if option in ("spell", "spells") or (option == "name" and action == "spell define"):
        return sorted((s.name for s in all_spells(table).values()), key=fold)
    if option in ("chit", "ritual", "color_chit"):
        return _chits(table, action, option)
    if option in ("item",) or (option == "name" and action == "item define"):
        return sorted(i.name for i in state.items.values()) + [b.name for b in table.book.spells.book]
    if option in ("character", "caster"):
        return [c.name for c in (table.characters.values() if action in ("character show", "spells") else _mine(table))]
    if option in ("at", "who", "holder", "targets", "target"):
        names = sorted(c.name for c in table.characters.values())
        for combat in state.combats.values():
            names += [f.name for f in combat.fighters.values() if f.present]
        if option == "targets":
            names += ["clearing", "hex", "self"]
        return names
    if option == "order":
        return [", ".join(sorted(c.name for c in table.characters.values()))]
    if option == "colors":
        return [*COLORS, "none", "white, black"] + (["book"] if action == "day colors" else [])
    if option in CLEARING_OPTIONS:
        return sorted(
            {c.name for c in state.clearings.values()}
            | {sheet_of(r).location for r in table.characters.values() if sheet_of(r).location}
        )
    return []
