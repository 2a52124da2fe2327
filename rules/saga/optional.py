"""The optional steps (L395-401): purchase, items and spell-songs (spec S9, S10, F-R16, F-R20, F-R30, F-R34).

Bonuses are in ``bonus``, the card-rule primitives (search, put) in ``primitives``.
The bot checks every condition it knows: acknowledged, the purchase price, the
hero and item limits, the place pile's spots.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.saga.area import (
    Ctx,
    ack_text,
    acknowledged,
    cycle,
    exact,
    find_hero,
    hero_limit,
    location,
    occupied,
    remove,
)
from rules.saga.book import CardDef
from rules.saga.hints import how_to
from rules.saga.state import STACK_LIMIT, HeroState, ItemState
from rules.saga.steps import expects
from rules.text import fold


def optional_window(ctx: Ctx, doing: str) -> None:
    """F-R34: after step 1 and before step 10 is done, never inside a battle round."""
    game = ctx.game
    if not game.moved:
        raise RuleError(
            f"Not yet: {doing} is an optional step, taken after step 1. Turn {game.turn} expects {expects(ctx)}."
        )
    if game.step == 9:
        raise RuleError(
            f"Not during a battle round: {doing} waits until the battle is over. The battle expects {expects(ctx)}."
        )


def in_hand_or_action(ctx: Ctx, name: str) -> str:
    found = exact(ctx.game.hand, name) or next((a.name for a in ctx.game.action if fold(a.name) == fold(name)), None)
    if found is None:
        where = location(ctx.game, name)
        raise RuleError(f"{name!r} is not in your hand or the action pile (it is {where or 'not in this game'}).")
    return found


def split_names(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").replace(";", ",").split(",") if part.strip()]


# ---------------------------------------------------------------- purchase (S9)


def buy(ctx: Ctx, name: str, pay: list[str], hero: str | None, spot: int | None, join: bool) -> list[str]:
    optional_window(ctx, "purchasing")
    game = ctx.game
    found = in_hand_or_action(ctx, name)
    card = ctx.card(found)
    if card.is_enemy:
        # cites L152, L360
        raise RuleError(f"{card.name} is an enemy: enemies are never purchased, they are battled.")
    if not acknowledged(ctx, card):
        raise RuleError(f"{card.name} is ignored ({ack_text(ctx, card)}): only acknowledged cards may be purchased.")
    free = card.type in ("folk", "spell-song")
    if free:
        if pay:
            raise RuleError(f"{card.name} is free ({card.type}): send no pay.")
        price = 0
    else:
        if not isinstance(card.cost, int):
            # cites L366
            raise RuleError(f"{card.name} has a {card.cost} source cost: only a numerical cost is purchased.")
        price = card.cost
    paid = []
    for payment in pay:
        exact_name = exact(game.hand, payment)
        if exact_name is None:
            raise RuleError(f"{payment!r} is not in your hand; pay with hand cards. Hand: {', '.join(game.hand)}.")
        if fold(exact_name) == fold(card.name):
            # cites F-R30
            raise RuleError(f"{card.name} cannot pay for itself: pay with other hand cards.")
        if exact_name in paid:
            raise RuleError(f"{exact_name} is named twice.")
        paid.append(exact_name)
    if len(paid) != price:
        raise RuleError(
            f"{card.name} costs {price}: name exactly {price} other hand card(s) to cycle (you named {len(paid)})."
        )
    target = _destination(ctx, card, hero, spot, join)  # checked before anything moves
    cycle(game, paid)
    notes = [f"Purchased {card.name}" + (f", paying {', '.join(paid)} (cycled)." if paid else " for free.")]
    remove(game, card.name)
    notes.append(_put_in_play(ctx, card, target))
    return notes


def _destination(ctx: Ctx, card: CardDef, hero: str | None, spot: int | None, join: bool) -> tuple[str, object]:
    game = ctx.game
    if card.type == "spell-song":
        return ("played", None)
    if card.type == "folk":
        if join:
            if "folk-hero" not in card.subtypes:
                raise RuleError(f"{card.name} is not a folk-hero; it can only be attached to the current place.")
            room_for_hero(ctx)
            return ("hero", None)
        return ("attached", game.token_spot)
    if card.type == "hero":
        room_for_hero(ctx)
        return ("hero", None)
    if card.type == "item":
        owner = find_hero(ctx, hero)
        room_for_item(ctx, owner)
        return ("item", owner.name)
    if card.type == "story":
        return ("story", None)
    if card.type == "place":
        if "room" in card.subtypes:
            return ("attached", game.token_spot)
        return ("place", place_spot(ctx, spot))
    raise RuleError(f"{card.name} ({card.type}) has no place in the play area to be bought into.")


def room_for_hero(ctx: Ctx) -> None:
    limit = hero_limit(ctx)
    if len(ctx.game.heroes) >= limit:
        raise RuleError(f"The hero pile is at its hero limit ({limit}, the starting hero's warning bar).")


def room_for_item(ctx: Ctx, hero: HeroState) -> None:
    limit = ctx.card(hero.name).item_limit
    if limit is not None and len(hero.items) >= limit:
        # cites L280
        raise RuleError(f"{hero.name} is at their item limit ({limit}): cycle an item from the play area first.")


def place_spot(ctx: Ctx, spot: int | None) -> int:
    """L342, F-R20: an empty spot, else on top of a stack not being visited that holds fewer than 5."""
    game = ctx.game
    empty = [i for i in range(5) if not game.places[i].stack]
    if spot is None:
        if empty:
            return empty[0]
        open_spots = [i for i in occupied(game) if i != game.token_spot and len(game.places[i].stack) < STACK_LIMIT]
        if not open_spots:
            # cites F-R20
            raise RuleError("The place pile is full: no empty spot, and every stack not visited holds 5.")
        raise RuleError(f"No empty spot: name a spot to stack on ({', '.join(str(i + 1) for i in open_spots)}).")
    index = spot - 1
    if empty and index not in empty:
        raise RuleError(
            # cites L342
            f"A new place goes into an empty spot while there is one: {', '.join(str(i + 1) for i in empty)}."
        )
    if index == game.token_spot and game.places[index].stack:
        # cites L342
        raise RuleError("That stack is being visited: a new place may not go on top of it.")
    if len(game.places[index].stack) >= STACK_LIMIT:
        # cites L288
        raise RuleError(f"Spot {spot} already holds {STACK_LIMIT} cards, the place pile limit.")
    return index


def _put_in_play(ctx: Ctx, card: CardDef, target: tuple[str, object]) -> str:
    game = ctx.game
    kind, where = target
    if kind == "played":
        game.deck.append(card.name)
        rules = " ".join(card.mandatory + card.optional) or "(no rules text in the catalog)"
        steps = " ".join(how_to(ctx, rules, card.name, card=card.name))
        # cites F-R16
        return f"{card.name} is played for free: follow its rules, then it is cycled. {rules} {steps}".strip()
    if kind == "attached":
        game.places[where].attached.append(card.name)  # type: ignore[index]
        return f"{card.name} is attached to the place stack topped by {game.places[where].stack[0]}."  # type: ignore[index]
    if kind == "hero":
        game.heroes.append(HeroState(name=card.name))
        # cites F-R18
        return f"{card.name} joins the hero pile with an empty luck stack."
    if kind == "item":
        hero = find_hero(ctx, str(where))
        hero.items.append(ItemState(name=card.name))
        return f"{card.name} is attached to {hero.name}."
    if kind == "story":
        game.story.append(card.name)
        return f"{card.name} goes to the story pile ({len(game.story)} cards: more is acknowledged now)."
    index = int(where)  # type: ignore[call-overload]
    game.places[index].stack.insert(0, card.name)
    return f"{card.name} goes to the place pile, spot {index + 1}."


# ---------------------------------------------------------------- items and spell-songs


def use_item(ctx: Ctx, item_name: str, hero_name: str | None) -> list[str]:
    """Using an item outside battle flips it face-down until step 2 of the next turn (S10)."""
    optional_window(ctx, "using an item")
    hero = find_hero(ctx, hero_name)
    item = next((i for i in hero.items if fold(i.name) == fold(item_name)), None)
    if item is None:
        raise RuleError(
            f"{item_name!r} is not attached to {hero.name}: {', '.join(i.name for i in hero.items) or 'no items'}."
        )
    if not item.face_up:
        raise RuleError(f"{item.name} is face-down (used); it flips face-up at step 2 of the next turn.")
    item.face_up = False
    card = ctx.card(item.name)
    rules = " ".join(card.mandatory + card.optional) or "(no rules text in the catalog)"
    return [
        f"{hero.name} uses {item.name} (flipped face-down): {rules}",
        *how_to(ctx, rules, item.name, card=item.name),
    ]


def switch_item(ctx: Ctx, item_name: str, hero_name: str) -> list[str]:
    optional_window(ctx, "switching items")
    target = find_hero(ctx, hero_name)
    for hero in ctx.game.heroes:
        item = next((i for i in hero.items if fold(i.name) == fold(item_name)), None)
        if item is None:
            continue
        if hero is target:
            raise RuleError(f"{item.name} is already attached to {hero.name}.")
        room_for_item(ctx, target)
        hero.items.remove(item)
        target.items.append(item)
        return [f"{item.name} switches from {hero.name} to {target.name}."]
    raise RuleError(f"{item_name!r} is not attached to any hero.")


def attach_song(ctx: Ctx, song_name: str, item_name: str) -> list[str]:
    """W10: a spell-song from hand or action pile onto an item; any song already there is cycled."""
    optional_window(ctx, "attaching a spell-song")
    found = in_hand_or_action(ctx, song_name)
    card = ctx.card(found)
    if card.type != "spell-song":
        raise RuleError(f"{card.name} is a {card.type}, not a spell-song.")
    if not acknowledged(ctx, card):
        # cites F-R16
        raise RuleError(f"{card.name} is ignored ({ack_text(ctx, card)}); a spell-song must be acknowledged.")
    item = next((i for h in ctx.game.heroes for i in h.items if fold(i.name) == fold(item_name)), None)
    if item is None:
        raise RuleError(f"{item_name!r} is not an item attached to a hero.")
    notes = []
    if item.songs:
        old = list(item.songs)
        item.songs.clear()
        ctx.game.deck.extend(old)
        notes.append(f"Cycled the spell-song already attached: {', '.join(old)}.")
    remove(ctx.game, card.name)
    item.songs.append(card.name)
    return [f"{card.name} is attached to {item.name}.", *notes]
