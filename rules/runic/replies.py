"""A select where a list beats typing: a mage's sheet (``/runic mage show``), shown to its player or a GM, carries
**Cast a spell…**, the mage's own saved spells; picking one runs ``/runic cast spell:<it> mage:<mage>`` for whoever
ran the command. ``/runic`` is near Discord's size limit for one command, so this adds no option to it. Pure: the
Discord adapter makes the select (it lasts across restarts).
"""

from __future__ import annotations

from rules.base import OptionSelect, Replied, ReplyItem
from rules.planning import cast_buttons


def reply_items(replied: Replied) -> list[ReplyItem]:
    """On a mage's sheet, for its player (or a GM): Cast a spell…, the mage's saved spells by name."""
    data = replied.data
    if data.get("planner"):  # `/runic plan`: Cast plan 1…
        return list(cast_buttons(data))
    sheet = data.get("sheet")
    if not isinstance(sheet, dict):
        return []
    mage = str(data.get("mage") or "")
    if data.get("owner_id") != replied.user_id and not replied.is_gm:
        return []  # anyone may read a sheet; only its player (or a GM) casts from it
    spells = sorted((s.get("name", "") for s in (sheet.get("spells") or {}).values()), key=str.casefold)
    spells = [name for name in spells if name]
    if not spells:
        return []
    return [OptionSelect("cast", "spell", tuple(spells), f"Cast a spell as {mage}…", ("mage", mage))]
