"""A select where a list beats typing: the campaign's spell list (``/realm spell list``) carries **Show a spell…**;
picking one shows it as ``/realm spell show`` does, for whoever listed them. Pure: the Discord adapter makes it.
"""

from __future__ import annotations

from rules.base import OptionSelect, Replied, ReplyItem


def reply_items(replied: Replied) -> list[ReplyItem]:
    """Under the spell list: Show a spell…, the first 25 by name (the list is sorted). Nothing else carries it: a
    menu with nothing to pick is never offered."""
    spells = replied.data.get("spells")
    if not isinstance(spells, list) or not spells:
        return []
    names = [str(spell.get("name", "")) for spell in spells if isinstance(spell, dict) and spell.get("name")]
    if not names:  # another list under the same key (a sheet's spell names, the board's spells): no menu
        return []
    more = f" (the first 25 of {len(names)})" if len(names) > 25 else ""
    return [OptionSelect("spell show", "spell", tuple(names), f"Show a spell…{more}")]
