"""Runic magic's lists for the campaign's web page (``Ruleset.page_lists``): the spells on, charged and in place,
and the campaign's grimoire. A hidden maximum MP stays hidden as on the board; the page's secrecy does the rest."""

from __future__ import annotations

from typing import Any

from rules.base import PageList, Table
from rules.runic.sheet import MageSheet


def page_lists(self: Any, table: Table) -> list[PageList]:
    mages = sorted(table.characters.values(), key=lambda r: r.name.casefold())
    on, lasting = [], []
    for record in mages:
        sheet: MageSheet = record.sheet
        for spell in sheet.spells_on:
            state = " (frozen)" if spell.frozen else " (concentrating)" if spell.concentrating else ""
            on.append(
                (record.name, spell.name + state, "-".join(spell.words), f"{spell.maintenance} MP per {spell.interval}")
            )
        if sheet.held is not None:
            on.append((record.name, f"{sheet.held.name} (held)", sheet.held.type, f"{sheet.held.energy} energy"))
        for item in sheet.lasting:
            lasting.append((record.name, item.name, f"{item.form}, {item.duration}", item.trigger or "—"))
    grimoire = [
        (spell.name, "-".join(spell.words), spell.type, spell.effect or "—")
        for spell in sorted(table.state.spells.values(), key=lambda s: s.name.casefold())
    ]
    return [
        PageList("Spells in effect", ("Mage", "Spell", "Words", "Upkeep"), tuple(on), "No spell is on."),
        PageList(
            "Wards, sigils and inscriptions", ("Mage", "Magic", "Form", "Trigger"), tuple(lasting), "None in place."
        ),
        PageList("The campaign's grimoire", ("Spell", "Words", "Type", "Effect"), tuple(grimoire), "No shared spells."),
    ]
