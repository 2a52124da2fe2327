"""Spell Saga's lists for the campaign's web page (``Ruleset.page_lists``): the heroes and their items, the cards
on the table, the story so far, and the hand (its player's and the GMs' to read: others see how many cards)."""

from __future__ import annotations

from typing import Any

from rules.base import PageList, Table


def page_lists(self: Any, table: Table) -> list[PageList]:
    game = table.state.game
    if game is None:
        return [PageList("The game", ("Turn", "Step"), (), "No game started: `/saga start`.")]
    heroes = tuple(
        (hero.name, ", ".join(item.name for item in hero.items) or "—", str(len(hero.luck))) for hero in game.heroes
    )
    places = tuple(
        (str(number), ", ".join(spot.stack) or "—", ", ".join(spot.attached) or "—")
        for number, spot in enumerate(game.places, 1)
        if spot.stack or spot.attached
    )
    if table.actor.is_gm or table.actor.user_id == game.player_id:
        hand = tuple((card,) for card in game.hand)
    else:
        hand = ((f"{len(game.hand)} cards",),) if game.hand else ()
    return [
        PageList(f"Heroes, turn {game.turn}", ("Hero", "Items", "Luck cards"), heroes, "No heroes."),
        PageList("Places", ("Spot", "Cards", "Attached"), places, "No card on the table."),
        PageList("The hand", ("Card",), hand, "The hand is empty."),
        PageList("The story so far", ("Card",), tuple((card,) for card in game.story), "Nothing yet."),
        PageList("The deck", ("Cards left",), ((str(len(game.deck)),),)),
    ]
