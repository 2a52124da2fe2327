"""Serpent's Tongue's lists for the campaign's web page (``Ruleset.page_lists``): each Magi's Codex (everyone
reads it), the spells in play, and the prepared spells of the reader's own Magi (which spells a Magi prepared is
their player's secret: others read only how many, as on the board)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.base import PageList, Table


def _codex(titles: list[str]) -> str:
    return ", ".join(f"{title} ×{n}" if n > 1 else title for title, n in Counter(titles).items()) or "empty"


def page_lists(self: Any, table: Table) -> list[PageList]:
    codex = tuple(
        (record.name, _codex(list(record.sheet.codex)), record.sheet.specialization or "—")
        for record in sorted(table.characters.values(), key=lambda r: r.name.casefold())
    )
    lists = [PageList("Codex", ("Magi", "Spells", "Specialization"), codex, "No Magi yet.")]
    battle = table.state.battle
    if battle is None:
        return [*lists, PageList("In play", ("Spell", "Caster", "Where", "Duration"), (), "No battle now.")]
    names = {key: being.name for key, being in battle.beings.items()}
    played = tuple(
        (
            card.title,
            names.get(card.caster or card.owner, card.caster or card.owner),
            f"{card.location}{f', {card.zone}' if card.zone else ''}"
            + (f" of {names.get(card.bearer, card.bearer)}" if card.bearer else ""),
            "—" if card.duration is None else str(card.duration),
        )
        for card in sorted(battle.cards.values(), key=lambda c: c.order)
        if card.location in ("play", "manifesting", "rite")
    )
    lists.append(
        PageList(f"In play, round {battle.round}", ("Spell", "Caster", "Where", "Duration"), played, "Nothing in play.")
    )
    mine = []
    for key, being in battle.beings.items():
        prepared = [c.title for c in battle.cards.values() if c.owner == key and c.location == "prepared"]
        if not prepared:
            continue
        if table.actor.is_gm or being.owner_id == table.actor.user_id:
            mine.append((being.name, ", ".join(sorted(prepared))))
        else:
            mine.append((being.name, f"{len(prepared)} prepared"))
    lists.append(
        PageList(
            "Prepared spells",
            ("Magi", "Prepared"),
            tuple(mine),
            "None prepared.",
            "Only a Magi's player and the GMs read which spells are prepared.",
        )
    )
    return lists
