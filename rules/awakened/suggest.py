"""Autocomplete for the free-text options that name something: spells, rotes, Hallows, Arcana, subjects."""

from __future__ import annotations

from rules.awakened.common import spell_label
from rules.awakened.sheet import AwakenedSheet
from rules.base import Table

ACTIVE_SPELL_ACTIONS = {
    "spell sustain",
    "spell refresh",
    "spell reduce",
    "spell dismiss",
    "spell shape",
    "spell ceremony",
}


def _sheets(table: Table) -> list[tuple[str, AwakenedSheet]]:
    """The mages the actor may act through (a GM: all)."""
    return [
        (c.name, c.sheet) for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id
    ]


def suggestions(table: Table, action: str, option: str, current: str) -> list[str]:
    sheets = _sheets(table)
    if option == "spell":
        if action in ACTIVE_SPELL_ACTIONS:
            names = [spell_label(s) for _, sheet in sheets for s in sheet.spells]
            return [*names, "all"] if action == "spell dismiss" else names
        return [r.name for _, sheet in sheets for r in sheet.rotes]
    if option in ("arcana", "conjunctional", "ruling", "inferior", "prerequisites"):
        return list(table.book.arcana.names)
    if option == "hallow" or (action == "hallow" and option == "name"):
        return [h.name for h in table.state.hallows.values()]
    if option == "connection" or (action == "sympathy" and option == "subject"):
        return [k for _, sheet in sheets for k in sheet.connections]
    if option == "subject":
        return [k.split("|")[0] for _, sheet in sheets for k in sheet.scrutiny]
    if option == "skill":
        return ["Occult", *(s for _, sheet in sheets for s in sheet.scrutiny_skills)]
    if option == "via":
        return ["sight", *(s.design.name for _, sheet in sheets for s in sheet.spells)]
    if option == "name" and action == "attainment":
        return [a.name for _, sheet in sheets for a in sheet.attainments]
    if option == "damage":
        return [f.key for f in table.book.factors.damage.feature]
    if option == "sympathy":
        return [level.casefold() for level in table.book.factors.sympathy.levels]
    if option in ("mage", "character"):
        return sorted(name for name, _ in sheets)
    return []
