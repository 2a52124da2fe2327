"""Awakened's lists for the campaign's web page (``Ruleset.page_lists``): the spells each mage keeps active, their
rotes, and the campaign's Hallows. A spell's connection is private (the sheet's ``private_fields``): the page's
secrecy hides it from other players, and this list names none."""

from __future__ import annotations

from typing import Any

from rules.base import PageList, Table


def page_lists(self: Any, table: Table) -> list[PageList]:
    mages = sorted(table.characters.values(), key=lambda r: r.name.casefold())
    active = tuple(
        (record.name, spell.design.name, ", ".join(spell.design.arcana), spell.status, str(spell.cost))
        for record in mages
        for spell in record.sheet.spells
    )
    rotes = tuple(
        (record.name, rote.name, ", ".join(rote.arcana), rote.aspect, rote.effect or "—")
        for record in mages
        for rote in record.sheet.rotes
    )
    hallows = tuple(
        (hallow.name, str(hallow.rating), str(hallow.potential), hallow.resonance or "—")
        for hallow in sorted(table.state.hallows.values(), key=lambda h: h.name.casefold())
    )
    return [
        PageList("Active spells", ("Mage", "Spell", "Arcana", "Status", "Cost"), active, "No spell is active."),
        PageList("Rotes", ("Mage", "Rote", "Arcana", "Aspect", "Effect"), rotes, "No rotes learned."),
        PageList("Hallows", ("Hallow", "Rating", "Mana", "Resonance"), hallows, "No Hallows."),
    ]
