"""The player's character: the hero pile (spec section 3), so `/character` and ownership work as elsewhere."""

from __future__ import annotations

from rules.base import CharacterRecord, RuleError, Table
from rules.saga.state import SagaSheet


def ensure_character(table: Table, hero: str) -> CharacterRecord:
    """The actor's character for a new game: their existing one (renamed sheet), or one named after the hero."""
    mine = table.characters_of(table.actor.user_id)
    if mine:
        record = mine[0]
        record.sheet = SagaSheet(hero=hero)
        return record
    existing = table.characters.get(hero.casefold())
    if existing is not None:
        raise RuleError(f"{existing.name} belongs to another player here; each player plays their own table.")
    return table.add_character(table.actor.user_id, hero, SagaSheet(hero=hero))
