"""Runic magic's lists for the campaign's web page (``Ruleset.page_lists``): the spells on, charged and in place,
the campaign's grimoire, and (for the GMs) today's Information answers. A Calamity's hidden MP loss is the page's
secrecy's to hide (``private_fields``), as everywhere."""

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
    lists = [
        PageList("Spells in effect", ("Mage", "Spell", "Words", "Upkeep"), tuple(on), "No spell is on."),
        PageList(
            "Wards, sigils and inscriptions", ("Mage", "Magic", "Form", "Trigger"), tuple(lasting), "None in place."
        ),
        PageList("The campaign's grimoire", ("Spell", "Words", "Type", "Effect"), tuple(grimoire), "No shared spells."),
    ]
    if table.actor.is_gm:  # the GM's answers to Information spells are the GM's alone (docs/runic.md)
        answers = tuple(
            (answer.mage, answer.spell, answer.question, answer.answer or "not answered yet")
            for answer in table.state.answers.values()
        )
        note = "The GM's view: players never read these here."
        lists.append(
            PageList("Information answers today", ("Mage", "Spell", "Question", "Answer"), answers, "None.", note)
        )
    return lists
