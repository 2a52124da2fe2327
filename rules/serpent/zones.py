"""Who owns a zone, and the order its owner chooses for the spells in it.

Glossary "Shield": "Magi may re-order their Shields before each attacking effect
impacts". Glossary "Maintenance Phase": "Within each zone, the Magi or team
chooses which order to resolve the particular spells." Both are the card's
``order``: the Shield line runs in it (outermost first) and maintenance resolves
a zone in it. ``/serpent order`` may be given at any time in a battle, also while
a response window is open, which is "before each attacking effect impacts".
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.book import number_of
from rules.serpent.context import Ctx
from rules.serpent.rounds import maintenance_queue
from rules.serpent.state import Being, CardState
from rules.text import fold


def owns_zone_of(being: Being, card: CardState) -> bool:
    """A being owns the zones it bears; a team zone belongs to every member of the team."""
    if card.team is not None:
        return card.team == being.team
    return card.bearer == being.key


def order_zone(ctx: Ctx, magi: Being, spells: str) -> str:
    b = ctx.battle
    if b.phase == "over":
        raise RuleError("The battle is over.")
    mine = [c for c in b.in_play() if owns_zone_of(magi, c)]
    chosen: list[CardState] = []
    for name in (part.strip() for part in spells.split(",")):
        if not name:
            continue
        number = number_of(name)
        found = [c for c in mine if (c.id == number if number is not None else fold(c.title) == fold(name))]
        if len(found) != 1:
            options = ", ".join(f"#{c.id} {c.title} ({c.zone})" for c in mine) or "none"
            why = "names several spells: use #number" if found else "is not a spell in a zone you own"
            raise RuleError(f"{name!r} {why}. Spells in your zones: {options}.")
        if found[0] in chosen:
            raise RuleError(f"{name!r} is named twice.")
        chosen.append(found[0])
    if len(chosen) < 2:
        raise RuleError('Name at least two spells of one zone in the order you want, e.g. spells:"#4, #2".')
    zones = {(c.zone, c.team) for c in chosen}
    if len(zones) != 1:
        raise RuleError("Order the spells of one zone at a time (they are in different zones).")
    slots = sorted(c.order for c in chosen)
    for card, slot in zip(chosen, slots, strict=True):
        card.order = slot
    if b.phase == "maintenance" and b.queue:
        waiting = set(b.queue)
        b.queue = [card_id for card_id in maintenance_queue(ctx) if card_id in waiting]
    zone = chosen[0].zone or "?"
    what = "Shields (outermost first)" if zone == "defense" else f"{zone} zone"
    line = ", ".join(f"{c.title} (#{c.id})" for c in chosen)
    ctx.j.say(f"↕ {magi.name} orders their {what}: {line}.", "order", cards=[c.id for c in chosen])
    return f"{magi.name} orders {line}"
