"""The player's character: the hero pile (spec section 3), so `/character` and ownership work as elsewhere."""

from __future__ import annotations

from rules.base import CharacterRecord, RuleError, Table
from rules.saga.state import SagaSheet, SagaState


def ensure_character(table: Table, hero: str) -> CharacterRecord:
    """The character a new game is played through (docs/saga.md, "Further rulings").

    A player's start is theirs: their existing character (its sheet starts over with the new hero), or one named
    after the hero. A GM who starts (or replaces) a game that was someone else's starts it for that player: the
    previous game's hero pile, else the character named after the hero, carries on with its owner. Only when
    neither exists is the game the GM's own."""
    if table.actor.is_gm:
        theirs = _players(table, hero)
        if theirs is not None and theirs.owner_id != table.actor.user_id:
            theirs.sheet = SagaSheet(hero=hero)
            return theirs
    mine = table.characters_of(table.actor.user_id)
    if mine:
        record = mine[0]
        record.sheet = SagaSheet(hero=hero)
        return record
    existing = table.characters.get(hero.casefold())
    if existing is not None:
        raise RuleError(f"{existing.name} belongs to another player here; each player plays their own table.")
    return table.add_character(table.actor.user_id, hero, SagaSheet(hero=hero))


def _players(table: Table, hero: str) -> CharacterRecord | None:
    """The hero pile a GM's new game carries on: the previous game's, else the one named after the new hero."""
    state: SagaState = table.state
    if state.game is not None:
        previous = table.characters.get(state.game.character.casefold())
        if previous is not None:
            return previous
    return table.characters.get(hero.casefold())
