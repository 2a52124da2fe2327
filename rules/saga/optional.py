"""The optional steps (L395-401) and the primitives card rules are made of (spec S4, S9, S19, F-R16, F-R30-F-R34).

The bot cannot execute a card's free text. It checks every condition it knows
(acknowledged, the purchase price, good luck, a bonus cost against the cards, the
place pile's limits) and lets the player carry out the effect with ``put`` and
``search``, each logged.
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
    hero_group,
    hero_limit,
    kismet,
    location,
    luck_row,
    occupied,
    place_row,
    remove,
    stack_group,
    story_row,
    view,
)
from rules.saga.book import CardDef, fold
from rules.saga.harmony import LUCK_WORDS, Cost, Match, Order, card_order, group_match, run_match, same_harmonic
from rules.saga.state import STACK_LIMIT, ActionCard, HeroState, ItemState


def optional_window(ctx: Ctx, doing: str) -> None:
    """F-R34: after step 1 and before step 10 is done, never inside a battle round."""
    from rules.saga.turn import expects

    game = ctx.game
    if not game.moved:
        raise RuleError(
            f"Not yet: {doing} is an optional step, taken after step 1. Turn {game.turn} expects {expects(game)}."
        )
    if game.step == 9:
        raise RuleError(
            f"Not during a battle round: {doing} waits until the battle is over. The battle expects {expects(game)}."
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
        raise RuleError(f"{card.name} is an enemy: enemies are never purchased, they are battled (L152, L360).")
    if not acknowledged(ctx, card):
        raise RuleError(f"{card.name} is ignored ({ack_text(ctx, card)}): only acknowledged cards may be purchased.")
    free = card.type in ("folk", "spell-song")
    if free:
        if pay:
            raise RuleError(f"{card.name} is free ({card.type}): send no pay.")
        price = 0
    else:
        if not isinstance(card.cost, int):
            raise RuleError(f"{card.name} has a {card.cost} source cost: only a numerical cost is purchased (L366).")
        price = card.cost
    paid = []
    for payment in pay:
        exact_name = exact(game.hand, payment)
        if exact_name is None:
            raise RuleError(f"{payment!r} is not in your hand; pay with hand cards. Hand: {', '.join(game.hand)}.")
        if fold(exact_name) == fold(card.name):
            raise RuleError(f"{card.name} cannot pay for itself (F-R30): pay with other hand cards.")
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
            _room_for_hero(ctx)
            return ("hero", None)
        return ("attached", game.token_spot)
    if card.type == "hero":
        _room_for_hero(ctx)
        return ("hero", None)
    if card.type == "item":
        owner = find_hero(ctx, hero)
        _room_for_item(ctx, owner)
        return ("item", owner.name)
    if card.type == "story":
        return ("story", None)
    if card.type == "place":
        if "room" in card.subtypes:
            return ("attached", game.token_spot)
        return ("place", place_spot(ctx, spot))
    raise RuleError(f"{card.name} ({card.type}) has no place in the play area to be bought into.")


def _room_for_hero(ctx: Ctx) -> None:
    limit = hero_limit(ctx)
    if len(ctx.game.heroes) >= limit:
        raise RuleError(f"The hero pile is at its hero limit ({limit}, the starting hero's warning bar).")


def _room_for_item(ctx: Ctx, hero: HeroState) -> None:
    limit = ctx.card(hero.name).item_limit
    if limit is not None and len(hero.items) >= limit:
        raise RuleError(f"{hero.name} is at their item limit ({limit}): cycle an item from the play area first (L280).")


def place_spot(ctx: Ctx, spot: int | None) -> int:
    """L342, F-R20: an empty spot, else on top of a stack not being visited that holds fewer than 5."""
    game = ctx.game
    empty = [i for i in range(5) if not game.places[i].stack]
    if spot is None:
        if empty:
            return empty[0]
        open_spots = [i for i in occupied(game) if i != game.token_spot and len(game.places[i].stack) < STACK_LIMIT]
        if not open_spots:
            raise RuleError("The place pile is full (F-R20): no empty spot, and every stack not visited holds 5.")
        raise RuleError(f"No empty spot: name a spot to stack on ({', '.join(str(i + 1) for i in open_spots)}).")
    index = spot - 1
    if empty and index not in empty:
        raise RuleError(
            f"A new place goes into an empty spot while there is one (L342): {', '.join(str(i + 1) for i in empty)}."
        )
    if index == game.token_spot and game.places[index].stack:
        raise RuleError("That stack is being visited: a new place may not go on top of it (L342).")
    if len(game.places[index].stack) >= STACK_LIMIT:
        raise RuleError(f"Spot {spot} already holds {STACK_LIMIT} cards, the place pile limit (L288).")
    return index


def _put_in_play(ctx: Ctx, card: CardDef, target: tuple[str, object]) -> str:
    game = ctx.game
    kind, where = target
    if kind == "played":
        game.deck.append(card.name)
        rules = " ".join(card.mandatory + card.optional) or "(no rules text in the catalog)"
        return f"{card.name} is played for free: follow its rules, then it is cycled (F-R16). {rules}"
    if kind == "attached":
        game.places[where].attached.append(card.name)  # type: ignore[index]
        return f"{card.name} is attached to the place stack topped by {game.places[where].stack[0]}."  # type: ignore[index]
    if kind == "hero":
        game.heroes.append(HeroState(name=card.name))
        return f"{card.name} joins the hero pile with an empty luck stack (F-R18)."
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
    return [f"{hero.name} uses {item.name} (flipped face-down): {rules}"]


def switch_item(ctx: Ctx, item_name: str, hero_name: str) -> list[str]:
    optional_window(ctx, "switching items")
    target = find_hero(ctx, hero_name)
    for hero in ctx.game.heroes:
        item = next((i for i in hero.items if fold(i.name) == fold(item_name)), None)
        if item is None:
            continue
        if hero is target:
            raise RuleError(f"{item.name} is already attached to {hero.name}.")
        _room_for_item(ctx, target)
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
        raise RuleError(f"{card.name} is ignored ({ack_text(ctx, card)}); a spell-song must be acknowledged (F-R16).")
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


# ---------------------------------------------------------------- bonuses (S15, S19)


SOURCES = ("story", "luck", "place", "kismet", "hero", "stack")


def cost_met(ctx: Ctx, cost: Cost, where: str, hero_name: str | None) -> Match:
    """Where a cost is met: the named source, or (``auto``) the first source that meets it."""
    sharing = ctx.settings.attached_sharing
    tried: list[Match] = []
    sources = SOURCES if where == "auto" else (where,)
    for source in sources:
        for match in _source_matches(ctx, cost, source, hero_name, sharing):
            if match.met:
                return match
            tried.append(match)
    reasons = "; ".join(f"{m.where}: {m.reason}" for m in tried) or "no cards to search"
    return Match(False, where, [], "none", reasons)


def _source_matches(ctx: Ctx, cost: Cost, source: str, hero_name: str | None, sharing: bool) -> list[Match]:
    game = ctx.game
    if source == "story":
        if ctx.settings.story_adjacency == "all":
            return [group_match(cost, story_row(ctx), "story pile", sharing=False)]
        return [run_match(cost, story_row(ctx), "story pile")]
    if source == "luck":
        return [run_match(cost, luck_row(ctx), "luck pile")]
    if source == "place":
        return [run_match(cost, place_row(ctx), "place pile", circle=True)]
    heroes = [find_hero(ctx, hero_name)] if hero_name else game.heroes
    if source == "kismet":
        out = []
        for hero in heroes:
            cards = kismet(ctx, hero)
            if any(c is None for c in cards):
                out.append(Match(False, f"{hero.name}'s kismet cards", reason="a kismet card is missing (F-R18)"))
            else:
                out.append(run_match(cost, [c for c in cards if c], f"{hero.name}'s kismet cards"))
        return out
    if source == "hero":
        return [group_match(cost, hero_group(ctx, h), f"{h.name} and their items", sharing=sharing) for h in heroes]
    return [
        group_match(cost, stack_group(ctx, i), f"the stack topped by {game.places[i].stack[0]}", sharing=sharing)
        for i in occupied(game)
    ]


def in_force(ctx: Ctx, card: CardDef) -> bool:
    """L182: a card's rules are followed in the play area, or acknowledged in hand or action pile."""
    where = location(ctx.game, card.name)
    if where is None or where == "deck":
        return False
    return where not in ("hand", "action") or acknowledged(ctx, card)


def bonus(
    ctx: Ctx, card_name: str | None, kind: str, cost: Cost | None, where: str, hero: str | None
) -> tuple[list[str], dict]:
    """Check (and, for a card, claim) a bonus: good luck, a harmonic/discordant cost, or a same-harmonic hand."""
    game = ctx.game
    card = ctx.card(card_name) if card_name else None
    if card is not None:
        optional_window(ctx, "claiming a bonus")
        if not in_force(ctx, card):
            raise RuleError(
                f"{card.name}'s rules are not in force: it must be in the play area, or acknowledged in "
                f"hand or the action pile (it is {location(game, card.name) or 'not in this game'})."
            )
    if kind == "good-luck":
        if card is not None and not card.good_luck_bonus:
            raise RuleError(f"{card.name} has no good luck bonus in the catalog.")
        owner = find_hero(ctx, hero)
        luck = game.luck.get(owner.name)
        if luck is None or luck.result != "good":
            said = f"luck is {LUCK_WORDS[luck.result]} ({luck.reason})" if luck else "no luck check yet this turn"
            raise RuleError(f"The good luck bonus needs good luck; {owner.name}'s {said}.")
        text = card.good_luck_bonus if card else ""
        return [f"Good luck bonus of {card.name if card else 'a card'} claimed for {owner.name}: {text}"], {
            "met": True,
            "kind": kind,
            "where": f"{owner.name}'s luck",
            "cards": [],
            "text": text,
        }
    printed = None
    if card is not None:
        printed = card.harmonic_bonus if kind == "harmonic" else card.discordant_bonus
        if printed is None and not cost:
            raise RuleError(f"{card.name} has no {kind} bonus in the catalog; give its cost with cost:<colors>.")
    if printed is not None and printed.hand_same_harmonic:
        common = same_harmonic([view(ctx, name) for name in game.hand])
        if not common:
            raise RuleError("Not met: the hand's cards do not all carry one harmonic color (F-R31).")
        colors = ", ".join(sorted(common))
        return [f"{card.name}'s {kind} bonus: every hand card carries {colors}. {printed.text}"], {  # type: ignore[union-attr]
            "met": True,
            "kind": kind,
            "where": "hand",
            "cards": list(game.hand),
            "text": printed.text,
        }
    wanted = list(cost) if cost else list(printed.cost if printed else [])
    if not wanted:
        raise RuleError('Give the bonus cost: cost:"B, V, R" (colors or any).')
    match = cost_met(ctx, wanted, where, hero)
    shown = ", ".join(str(t).upper() for t in wanted)
    if not match.met:
        raise RuleError(f"Cost ({shown}) is not met: {match.reason}.")
    text = printed.text if printed else ""
    label = f"{card.name}'s {kind} bonus" if card else f"Cost ({shown})"
    notes = [f"{label}: met on {match.where} by {', '.join(match.cards)} ({match.reason}). {text}".strip()]
    return notes, {
        "met": True,
        "kind": kind,
        "where": match.where,
        "cards": match.cards,
        "direction": match.direction,
        "text": text,
    }


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
        notes.append("The other cards stay in the deck in their order (F-R33).")
    elif top is None:
        raise RuleError("Say what to search: top:<n> [type:<type>], then take:<card>; or in_game:true take:<card>.")
    return notes


def _is_type(card: CardDef, wanted: str) -> bool:
    return card.type == wanted or wanted in card.subtypes


AREAS = ("hand", "cycle", "luck", "story", "hero-pile", "item", "place", "attach", "action", "acknowledge", "token")


def put(ctx: Ctx, name: str, to: str, hero: str | None, spot: int | None) -> list[str]:
    """Move one card as a card rule says (S4's primitives); the GM may also use it to correct the table."""
    game = ctx.game
    card = ctx.card(name)
    if location(game, card.name) is None:
        raise RuleError(f"{card.name} is not in this game's deck or play area.")
    if to == "acknowledge":
        if card.cost != "blank":
            raise RuleError(f"{card.name} has a numerical cost; only a blank-cost card is acknowledged by a rule.")
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
        _room_for_hero(ctx)
        remove(game, card.name)
        game.heroes.append(HeroState(name=card.name))
        return [f"{card.name} joins the hero pile."]
    if to == "item":
        owner = find_hero(ctx, hero)
        if card.type != "item":
            raise RuleError(f"{card.name} is not an item.")
        _room_for_item(ctx, owner)
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


def pile_order(ctx: Ctx, pile: str, hero_name: str | None) -> tuple[list[str], Order]:
    """A pile's order (S16): the story row, the luck tops, a hero's kismet cards, or the place circle (F-R32)."""
    if pile == "story":
        views = story_row(ctx)
    elif pile == "luck":
        views = luck_row(ctx)
    elif pile == "kismet":
        cards = kismet(ctx, find_hero(ctx, hero_name))
        if any(c is None for c in cards):
            raise RuleError("A kismet card is missing this turn (F-R18): there is no order to read.")
        views = [c for c in cards if c is not None]
    else:
        return place_circle_order(ctx)
    return [v.name for v in views], card_order(views)


def place_circle_order(ctx: Ctx) -> tuple[list[str], Order]:
    """F-R32: the stack tops read around the circle from any occupied spot, either way; harmonic if any reading is."""
    tops = place_row(ctx)
    best: tuple[list[str], Order] | None = None
    for start in range(len(tops)):
        for step in (1, -1):
            reading = [tops[(start + step * i) % len(tops)] for i in range(len(tops))]
            order = card_order(reading)
            if order.harmonic:
                return [v.name for v in reading], order
            best = best or ([v.name for v in reading], order)
    return best or ([], card_order([]))
