"""The primitives card rules are made of (spec S4): search the deck or In Game (F-R33), draw, and put a card anywhere.

The bot cannot read a card's free text; these moves carry it out, each logged with its reason.
"""

from __future__ import annotations

from dataclasses import replace

from rules.base import RuleError
from rules.saga.area import (
    Ctx,
    cycle,
    exact,
    find_hero,
    in_deck,
    location,
    remove,
    source_limit,
)
from rules.saga.bonus import place_circle_order
from rules.saga.book import CardDef
from rules.saga.optional import optional_window, place_spot, room_for_hero, room_for_item
from rules.saga.state import ActionCard, HeroState, ItemState
from rules.text import fold

# ---------------------------------------------------------------- search (F-R33) and put


def search(
    ctx: Ctx, top: int | None, card_type: str | None, take: str | None, to: str, hero: str | None, in_game: bool
) -> list[str]:
    optional_window(ctx, "searching")
    game = ctx.game
    notes = []
    if in_game:
        if not take:
            raise RuleError("Name the card to find In Game (hand, play area and deck): take:<card>.")
        where = location(game, take)
        if where is None:
            raise RuleError(f"{take!r} is not in this game.")
        return [f"Found {ctx.card(take).name} In Game ({where}).", *put(ctx, take, to, hero, None)]
    if top is not None:
        if game.draws == "reported":
            raise RuleError("With draws:reported, search your own deck and name the card found: take:<card>.")
        revealed = game.deck[:top]
        found = [n for n in revealed if card_type is None or _is_type(ctx.card(n), card_type)]
        game.last_search = found
        notes.append(
            f"Searched the top {len(revealed)} card(s): {', '.join(revealed) or 'the deck is empty'}. "
            f"Found{f' ({card_type})' if card_type else ''}: {', '.join(found) or 'none'}."
        )
    if take:
        if game.draws == "bot":
            chosen = exact(game.last_search, take)
            if chosen is None or exact(game.deck, chosen) is None:
                raise RuleError(
                    f"{take!r} was not found by this turn's search: "
                    f"{', '.join(game.last_search) or 'search first with top:<n>'}."
                )
        elif exact(game.deck, take) is None:
            raise RuleError(f"{take!r} is not in your deck as the table knows it.")
        game.last_search = [n for n in game.last_search if fold(n) != fold(take)]
        notes.extend(put(ctx, take, to, hero, None))
        # cites F-R33
        notes.append("The other cards stay in the deck in their order.")
    elif top is None:
        raise RuleError("Say what to search: top:<n> [type:<type>], then take:<card>; or in_game:true take:<card>.")
    return notes


def _is_type(card: CardDef, wanted: str) -> bool:
    return card.type == wanted or wanted in card.subtypes


AREAS = ("hand", "cycle", "luck", "story", "hero-pile", "item", "place", "attach", "action", "acknowledge", "token")
# A draw takes unseen cards from the top of the deck: the areas any card may go to. The others (hero pile, item,
# place, attach) take a card of one type, which the player sees only once it is drawn; acknowledge and token do
# not move a card at all.
DRAW_AREAS = ("hand", "action", "luck", "story", "cycle")

# ---------------------------------------------------------------- draw (S4's `draw n`, F-R19)


def draw_cards(ctx: Ctx, count: int, to: str, hero: str | None, reported: list[str]) -> list[str]:
    """A card rule's "draw n": the top ``count`` cards of the deck, one at a time, into ``to`` (the hand unless
    the rule says otherwise).

    With the bot's deck it draws and names every card; with ``draws:reported`` the player names the cards drawn
    from their own deck, each checked against the deck as the table knows it. An empty deck stops the draw
    (F-R19). A draw never cycles the hand down by itself: the source limit holds at step 10 (S22).
    Everything is checked before the first card moves, so a refusal changes nothing.
    """
    optional_window(ctx, "drawing by a card rule")
    game = ctx.game
    if game.wanted_draw is not None:
        raise RuleError(
            f"Not now: the table waits for the draw you are reporting ({game.wanted_draw}): "
            "`/saga report card:<name>` first."
        )
    if to not in DRAW_AREAS:
        raise RuleError(
            f"A draw takes unseen cards from the top of the deck, so they go to one of: {', '.join(DRAW_AREAS)}. "
            "To place a drawn card by its type (hero pile, item, place pile), draw it into hand, then "
            "`/saga put card:<card> to:<where> reason:…`."
        )
    owner = find_hero(ctx, hero) if to in ("luck", "action") else None
    can = min(count, len(game.deck))
    if game.draws == "bot":
        if reported:
            raise RuleError("The bot keeps this game's deck (draws: bot) and draws for you: leave cards: out.")
        drawn = game.deck[:can]  # the top, in order
    else:
        drawn = _reported(ctx, count, can, reported)
    source = "the top of the deck" if game.draws == "bot" else "your deck"
    notes = [f"Drew {len(drawn)} card(s) from {source}: {', '.join(drawn)}." if drawn else "Drew no card."]
    for name in drawn:  # each moved out of the deck as `put` moves any card
        moved = put(ctx, name, to, owner.name if owner else None, None)
        if to != "hand":
            notes.extend(moved)
    if drawn and to == "hand":
        notes.append(f"{'They go' if len(drawn) > 1 else 'It goes'} into hand.")
    if can < count and to == "cycle":  # the drawn cards went back under it: the deck ran out all the same
        notes.append(f"The deck held only {can} card(s): each was drawn once, {count - can} could not be drawn.")
    elif can < count:
        # cites F-R19
        notes.append(f"The deck is empty: {count - can} card(s) could not be drawn.")
    if to == "hand":
        limit = source_limit(ctx)
        if len(game.hand) > limit:
            notes.append(
                f"The hand has {len(game.hand)} cards, over the source limit {limit}: step 10 cycles it down "
                "(a draw never cycles by itself)."
            )
    return notes


def _reported(ctx: Ctx, count: int, can: int, reported: list[str]) -> list[str]:
    """draws:reported: the cards the player names, each once and each still in the deck as the table knows it."""
    game = ctx.game
    if not reported and can == 0:
        return []
    if not reported:
        raise RuleError(f'Your own deck (draws: reported): name the {count} card(s) you drew, cards:"A, B".')
    found: list[str] = []
    for name in reported:
        card = in_deck(ctx, name)
        if card in found:
            raise RuleError(f"{card} is named twice.")
        found.append(card)
    if len(found) != can:
        left = f" (the deck has {len(game.deck)} left)" if can < count else ""
        raise RuleError(f"You drew {can} card(s){left}: name exactly that many, not {len(found)}.")
    return found


def put_if_harmonic(ctx: Ctx, name: str, spot: int | None) -> list[str]:
    """W9: "may be moved to [the place pile] if doing so would put the top cards of each stack in harmonic order".

    Tried on a copy of the table first (F-R32 reads the circle), so a refusal changes nothing.
    """
    trial = replace(ctx, game=ctx.game.model_copy(deep=True))
    put(trial, name, "place", None, spot)
    tops, order = place_circle_order(trial)
    if not order.harmonic:
        raise RuleError(
            f"Not allowed: with {ctx.card(name).name} the stack tops ({', '.join(tops)}) would not be in "
            f"harmonic order ({order.reason})."
        )
    return [*put(ctx, name, "place", None, spot), f"The stack tops are in harmonic order: {order.reason}."]


def put(ctx: Ctx, name: str, to: str, hero: str | None, spot: int | None) -> list[str]:
    """Move one card as a card rule says (S4's primitives); the GM may also use it to correct the table."""
    game = ctx.game
    card = ctx.card(name)
    where = location(game, card.name)
    if where is None:
        raise RuleError(f"{card.name} is not in this game's deck or play area.")
    if where == "hero" and to == "hero-pile":
        raise RuleError(f"{card.name} is already in the hero pile.")
    if to not in ("acknowledge", "token"):
        token_stays_on_a_place(ctx, card.name)
    if to == "acknowledge":
        if card.cost != "blank":
            cost = "a numerical cost" if isinstance(card.cost, int) else "a source icon (a starting card)"
            raise RuleError(f"{card.name} has {cost}; only a blank-cost card is acknowledged by a card rule.")
        game.acknowledged_blank.append(card.name)
        return [f"{card.name} is acknowledged this turn (a card rule met its conditions)."]
    if to == "cycle":
        cycle(game, [card.name])
        return [f"{card.name} is cycled (beneath the deck)."]
    if to == "hand":
        remove(game, card.name)
        game.hand.append(card.name)
        return [f"{card.name} moves into hand."]
    if to == "luck":
        owner = find_hero(ctx, hero)
        remove(game, card.name)
        owner.luck.insert(0, card.name)
        return [f"{card.name} goes on top of {owner.name}'s luck stack."]
    if to == "story":
        remove(game, card.name)
        game.story.append(card.name)
        return [f"{card.name} goes to the story pile."]
    if to == "hero-pile":
        if card.type != "hero" and "folk-hero" not in card.subtypes:
            raise RuleError(f"{card.name} is not a hero or folk-hero.")
        room_for_hero(ctx)
        remove(game, card.name)
        game.heroes.append(HeroState(name=card.name))
        return [f"{card.name} joins the hero pile."]
    if to == "item":
        owner = find_hero(ctx, hero)
        if card.type != "item":
            raise RuleError(f"{card.name} is not an item.")
        if where == f"item:{owner.name}":
            raise RuleError(f"{card.name} is already attached to {owner.name}.")
        room_for_item(ctx, owner)
        remove(game, card.name)
        owner.items.append(ItemState(name=card.name))
        return [f"{card.name} is attached to {owner.name}."]
    if to == "place":
        if card.type != "place":
            raise RuleError(f"{card.name} is not a place card.")
        index = place_spot(ctx, spot)
        remove(game, card.name)
        game.places[index].stack.insert(0, card.name)
        return [f"{card.name} goes to the place pile, spot {index + 1}."]
    if to == "attach":
        index = (spot - 1) if spot else game.token_spot
        if not game.places[index].stack:
            raise RuleError(f"Spot {index + 1} is empty; attach to a place stack.")
        if card.type not in ("place", "folk"):
            raise RuleError("Only folk and place (room) cards attach to a place stack.")
        remove(game, card.name)
        game.places[index].attached.append(card.name)
        return [f"{card.name} is attached to the stack topped by {game.places[index].stack[0]}."]
    if to == "action":
        owner = find_hero(ctx, hero)
        remove(game, card.name)
        game.action.append(ActionCard(name=card.name, hero=owner.name))
        return [f"{card.name} goes into the action pile ({owner.name}'s spot)."]
    if to == "token":
        optional_window(ctx, "moving the token by a card rule")
        return move_token_by_rule(ctx, card)
    raise RuleError(f"Put where? One of: {', '.join(AREAS)}.")


def token_stays_on_a_place(ctx: Ctx, name: str) -> None:
    """The hero token always stands on a place card it can leave (L168, L298, L374).

    So the place being visited does not leave the place pile under the token, nor the last card of the stack a
    visited room is attached to (rooms are adjacent only to that card). A card that moves the token and then the
    place left (the book's example item, L207-213) does it in that order: first `to:token`, then the place.
    """
    game = ctx.game
    first = "Move the token first: `/saga put card:<place> to:token reason:…`"
    if fold(name) == fold(game.visiting):
        raise RuleError(
            f"The hero token is on {game.visiting}: the place you are visiting stays in the place pile while the "
            f"token is on it. {first}, then {game.visiting} may go where the card rule says."
        )
    stack = game.places[game.token_spot].stack
    if game.token_room and [fold(c) for c in stack] == [fold(name)]:
        raise RuleError(
            f"The hero token is in {game.token_room}, a room attached to {stack[0]}, the only card of its stack. "
            f"Rooms are adjacent only to the card they are attached to, so without {stack[0]} the token could "
            f"never leave {game.token_room}. {first} (not {game.token_room}), then move {stack[0]}."
        )


def move_token_by_rule(ctx: Ctx, card: CardDef) -> list[str]:
    """W11: a card rule moves the hero token to a place anywhere in the place pile, even a buried one.

    The buried card is brought to the top of its stack (the spec's "unsure" reading); the card rule itself
    says what happens to the place left (W11's item moves it into hand: a further `put`).
    """
    game = ctx.game
    where = location(game, card.name)
    if card.type != "place" or where is None or not where.startswith(("place:", "attached:")):
        raise RuleError(f"{card.name} is not a place card in the place pile.")
    if fold(card.name) == fold(game.visiting):
        raise RuleError(f"The token is already on {card.name}.")
    index = int(where.split(":")[1]) - 1
    spot = game.places[index]
    notes = []
    if where.startswith("place:"):
        found = exact(spot.stack, card.name)
        if found and spot.stack[0] != found:
            spot.stack.remove(found)
            spot.stack.insert(0, found)
            notes.append(f"{found} comes to the top of its stack.")
        game.token_spot, game.token_room = index, None
    else:
        game.token_spot, game.token_room = index, exact(spot.attached, card.name)
    return [f"A card rule moves the hero token to {card.name}.", *notes]
