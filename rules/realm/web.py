"""Magic Realm's lists for the campaign's web page (``Ruleset.page_lists``): the spells cast and in effect (their
secret direction and targets: the caster's player's and the GMs' to read), and the campaign's spell list."""

from __future__ import annotations

from typing import Any

from rules.base import PageList, Table


def page_lists(self: Any, table: Table) -> list[PageList]:
    state = table.state
    owners = {record.name.casefold(): record.owner_id for record in table.characters.values()}
    cast = []
    for casting in state.castings:
        own = table.actor.is_gm or owners.get(casting.caster.casefold()) == table.actor.user_id
        secret = [*casting.targets, *([f"direction {casting.direction}"] if casting.direction else [])]
        cast.append(
            (
                casting.spell,
                casting.caster,
                f"{casting.type} {casting.color}",
                casting.duration,
                casting.status,
                casting.clearing or "—",
                (", ".join(secret) or "—") if own else "(the caster's)",
            )
        )
    spells = tuple(
        (spell.name, spell.type or "—", spell.color or "—", spell.duration or "—")
        for spell in sorted(state.spells.values(), key=lambda s: s.name.casefold())
    )
    return [
        PageList(
            f"Spells, day {state.day}",
            ("Spell", "Caster", "Magic", "Duration", "Status", "Clearing", "Targets and direction"),
            tuple(cast),
            "No spell cast or in effect.",
            "Targets and an attack's direction: only the caster's player and the GMs read them.",
        ),
        PageList("The campaign's spell list", ("Spell", "Type", "Color", "Duration"), spells, "No spells listed."),
    ]
