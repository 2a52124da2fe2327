"""Autocomplete from the table: the cards that make sense for each option."""

from __future__ import annotations

from rules.base import Table
from rules.saga.area import Ctx, destinations
from rules.saga.book import CARD_TYPES
from rules.saga.state import SagaState

FIXED = {
    "cost": ("0", "1", "2", "3", "4", "5", "blank", "start"),
    "harmonics": ("B", "V", "R", "Y", "G", "B V", "R G"),
    "subtypes": ("room", "wanted", "folk-hero", "folk-enemy"),
}


def suggestions(table: Table, action: str, option: str, current: str) -> list[str]:
    state: SagaState = table.state
    game = state.game
    catalog = sorted(c.name for c in state.catalog.values())
    if action == "bonus" and option == "cost":
        return ["R, Y", "V, Y, G", "any, G", "B, V, R"]
    if option in FIXED:
        return list(FIXED[option])
    if action.startswith("card") or action in ("harmonic", "luck"):
        return catalog if option in ("card", "cards", "name") else []
    if game is None:
        return []
    heroes = [h.name for h in game.heroes]
    items = [i.name for h in game.heroes for i in h.items]
    if option in ("hero", "spot"):
        return heroes
    if action == "move" and option == "to":
        return [name for _, _, name in destinations(Ctx(table, state, game, table.settings))]
    if option == "item":
        return items
    if option == "enemy":
        return [e.name for e in game.battle.enemies if not e.defeated] if game.battle else []
    if option in ("pay", "cycle", "damage"):
        return list(game.hand)
    if option == "song":
        return [
            n
            for n in game.hand + [a.name for a in game.action]
            if (state.card(n) and state.card(n).type == "spell-song")
        ]
    if option == "take":
        return list(game.last_search)
    if option == "type":
        return list(CARD_TYPES)
    if option == "card" and action == "buy":
        return list(game.hand) + [a.name for a in game.action]
    if option == "card" and action == "report":
        return sorted(game.deck)
    if option == "card":
        return catalog
    return []
