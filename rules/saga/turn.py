"""Starting a game and the ten mandatory steps (spec S5, S11-S15, S22; section 2's posts).

The step pointer (``Game.step``) is the next mandatory step to perform. Posts move
it forward: ``/saga move`` does steps 1-3, ``/saga continue`` draws and checks
(4-7) and then acknowledges (8), a battle holds step 9, and ``/saga end`` is step 10.
Anything out of order is refused with the step the table is at and what it expects.
"""

from __future__ import annotations

from random import Random

from rules.base import RuleError
from rules.saga.area import (
    Ctx,
    ack_text,
    acknowledged,
    cycle,
    destinations,
    draw,
    exact,
    find_hero,
    in_deck,
    kismet,
    kismet_labels,
    location,
    source_limit,
)
from rules.saga.battle import open_battle
from rules.saga.book import CardDef
from rules.saga.harmony import LUCK_WORDS, harmonic_match, luck_check
from rules.saga.state import ActionCard, Game, HeroState, ItemState, LuckRecord, SagaState, Spot
from rules.saga.steps import at_step, end_prompt, expects, in_force, rules_in_force
from rules.text import fold

# ---------------------------------------------------------------- setup (S5)


def starting_cards(cards: list[CardDef]) -> dict[str, CardDef]:
    """The five cards with the source icon: story, hero, item, place and room (L242-248)."""
    starts = [c for c in cards if c.cost == "start"]
    slots: dict[str, list[CardDef]] = {"story": [], "hero": [], "item": [], "place": [], "room": []}
    for card in starts:
        slot = "room" if card.type == "place" and "room" in card.subtypes else card.type
        if slot in slots:
            slots[slot].append(card)
    wrong = [slot for slot, found in slots.items() if len(found) != 1]
    if wrong or len(starts) != 5:
        listed = ", ".join(c.name for c in starts) or "none"
        raise RuleError(
            "A deck needs exactly five starting cards (cost = start): one story, one hero, one item, one place "
            f"and one room (a place with subtype room). This deck's: {listed}. Fix: {', '.join(wrong) or 'the count'}."
        )
    hero = slots["hero"][0]
    if hero.source_bonus is None:
        raise RuleError(
            f"{hero.name} prints no source_bonus: the starting hero's warning bar sets the source limit "
            "(story pile + its number; 4 for the demo's hero). Define it with `/saga card define`."
        )
    return {slot: found[0] for slot, found in slots.items()}


def new_game(
    state: SagaState,
    deck: list[CardDef],
    *,
    player_id: int,
    character: str,
    draws: str,
    seed: int | None,
    rng: Random,
) -> Game:
    """Lay out the five starting cards, shuffle the rest, draw the luck card and the starting hand."""
    start = starting_cards(deck)
    game = Game(player_id=player_id, character=character, draws=draws, seed=seed)  # type: ignore[arg-type]
    game.story = [start["story"].name]
    game.heroes = [HeroState(name=start["hero"].name, items=[ItemState(name=start["item"].name)])]
    game.places = [Spot(stack=[start["place"].name], attached=[start["room"].name])] + [Spot() for _ in range(4)]
    rest = [c.name for c in deck if c.cost != "start"]
    shuffler = Random(seed) if seed is not None else rng
    shuffler.shuffle(rest)
    game.deck = rest
    game.fixed_limit = len(game.story) + (start["hero"].source_bonus or 0)
    game.step = 1
    return game


def deal(ctx: Ctx) -> list[str]:
    """The luck card and the starting hand (by the source limit), or what to report in physical-deck mode."""
    game = ctx.game
    if game.draws == "reported":
        game.wanted_draw = "luck"
        return ["Report the card you pulled into the luck pile: `/saga report card:<name>`."]
    luck = draw(ctx, 1)
    game.heroes[0].luck = luck
    game.hand = draw(ctx, source_limit(ctx))
    return [
        f"Luck pile: {', '.join(luck) or 'nothing (empty deck)'}.",
        f"Starting hand ({len(game.hand)} = source limit {source_limit(ctx)}): {', '.join(game.hand)}.",
    ]


# ---------------------------------------------------------------- step 1-3


def move(ctx: Ctx, to: str | None) -> list[str]:
    """Step 1 (move, rotating the stack left), step 2 (flip items face-up), step 3 (the place's ~ rules)."""
    game = ctx.game
    at_step(ctx, 1, doing="moving the hero token")
    legal = destinations(ctx)
    notes: list[str] = []
    if not legal:
        if to:
            # cites F-R21
            raise RuleError(f"{game.visiting} has no adjacent place: the token stays. Send `/saga move` alone.")
        # cites F-R21
        notes.append(f"No adjacent place: the token stays on {game.visiting}; nothing rotates.")
    else:
        names = ", ".join(name for _, _, name in legal)
        # the token off the circle (its place left the place pile in an older game): any stack top takes it back
        adrift = not game.places[game.token_spot].stack
        here = (
            "The hero token is on no place of the place pile, so it may move to any stack top"
            if adrift
            else f"Adjacent to {game.visiting}"
        )
        if not to:
            raise RuleError(f"Name where to move: `/saga move to:<place>`. {here}: {names}.")
        choice = next((d for d in legal if fold(d[2]) == fold(to)), None)
        if choice is None:
            where = "a place the token can reach" if adrift else f"adjacent to {game.visiting}"
            raise RuleError(f"{to!r} is not {where}. You may move to: {names}.")
        left = game.visiting or "no place"
        if game.token_room is None:
            stack = game.places[game.token_spot].stack
            if len(stack) > 1:  # L344: the place left on top goes to the bottom
                stack.append(stack.pop(0))
                notes.append(f"{left} goes to the bottom of its stack; {stack[0]} is on top.")
        game.token_spot, game.token_room = choice[0], choice[1]
        notes.insert(0, f"Step 1: the hero token moves from {left} to {game.visiting}.")
    flipped = [i.name for h in game.heroes for i in h.items if not i.face_up]
    for hero in game.heroes:
        for item in hero.items:
            item.face_up = True
    notes.append(f"Step 2: flipped face-up: {', '.join(flipped)}." if flipped else "Step 2: no face-down items.")
    game.moved = True
    rules = ctx.card(game.visiting).mandatory
    others = [(name, r) for name, r in rules_in_force(ctx, "mandatory") if fold(name) != fold(game.visiting)]
    if others:  # L182: the ~ rules of every card in force are followed, not only the place's (F-R34)
        notes.append("Also in force: " + " ".join(f"{name}: ~ {r}" for name, r in others))
    if rules:
        game.step = 3
        notes.append(f"Step 3: follow {game.visiting}'s mandatory rules: " + " ".join(f"~ {r}" for r in rules))
        notes.append("Then `/saga continue`.")
        return notes
    notes.append(f"Step 3: {game.visiting} has no mandatory rules.")
    game.step = 4
    notes.extend(advance(ctx))
    return notes


# ---------------------------------------------------------------- steps 4-8


def advance(ctx: Ctx) -> list[str]:
    """Run the automatic steps from the pointer until one needs the player."""
    game = ctx.game
    notes: list[str] = []
    while True:
        if game.step in (4, 5) and game.draws == "reported" and not game.deck:
            # cites F-R19
            notes.append(f"Step {game.step}: the deck is empty; nothing to draw.")
            game.step += 1
            continue
        if game.step == 4:
            if game.draws == "reported":
                game.wanted_draw = "hand"
                game.pending_reports = len(game.heroes)
                notes.append(f"Step 4: draw {len(game.heroes)} card(s) into hand and report them: `/saga report`.")
                return notes
            drawn = draw(ctx, len(game.heroes))
            game.hand.extend(drawn)
            notes.append(f"Step 4: drew into hand: {', '.join(drawn)}." if drawn else "Step 4: the deck is empty.")
            game.step = 5
        elif game.step == 5:
            if game.draws == "reported":
                game.wanted_draw = "action"
                game.pending_reports = len(game.heroes)
                notes.append(
                    "Step 5: draw the action card(s) face-up and report each: `/saga report card:<name>`"
                    + (" spot:<hero>." if len(game.heroes) > 1 else ".")
                )
                return notes
            if len(game.heroes) == 1:
                drawn = draw(ctx, 1)
                if drawn:
                    game.action.append(ActionCard(name=drawn[0], hero=game.heroes[0].name))
                notes.append(
                    f"Step 5: drew into the action pile: {drawn[0]}."
                    if drawn
                    # cites F-R19
                    else "Step 5: the deck is empty; no action card."
                )
                game.step = 6
            else:
                if game.pending is None:
                    drawn = draw(ctx, 1)
                    if not drawn:
                        # cites F-R19
                        notes.append("Step 5: the deck is empty.")
                        game.step = 6
                        continue
                    game.pending = drawn[0]
                open_spots = [h.name for h in game.heroes if not any(fold(a.hero) == fold(h.name) for a in game.action)]
                notes.append(
                    f"Step 5 (kismetic order): drew {game.pending}. Place it: `/saga continue spot:<hero>` "
                    f"({', '.join(open_spots)})."
                )
                return notes
        elif game.step == 6:
            notes.append("Step 6: harmonics checked (the kismet card).")
            game.step = 7
        elif game.step == 7:
            record_luck(ctx)
            notes.append(
                "Step 7: luck checked. "
                + "; ".join(f"{hero}: {LUCK_WORDS[rec.result]} ({rec.reason})" for hero, rec in game.luck.items())
            )
            game.step = 8
            notes.append("Next: `/saga continue` acknowledges the action cards (step 8).")
            return notes
        else:
            return notes


def place_pending(ctx: Ctx, spot: str) -> list[str]:
    """Kismetic order (S13): the drawn card goes into the named hero's empty spot."""
    game = ctx.game
    hero = find_hero(ctx, spot)
    if any(fold(a.hero) == fold(hero.name) for a in game.action):
        raise RuleError(f"{hero.name}'s spot in the action pile is already filled.")
    assert game.pending is not None
    game.action.append(ActionCard(name=game.pending, hero=hero.name))
    notes = [f"{game.pending} goes into {hero.name}'s spot."]
    game.pending = None
    if len(game.action) >= len(game.heroes):
        game.step = 6
    return notes + advance(ctx)


def record_luck(ctx: Ctx) -> None:
    """Steps 6 and 7 for every hero: the harmonic match, then the luck it gives (RULINGS 18)."""
    game = ctx.game
    labels = kismet_labels(ctx.settings)
    game.luck = {}
    for hero in game.heroes:
        cards = kismet(ctx, hero)
        luck = luck_check(cards, labels)
        game.luck[hero.name] = LuckRecord(
            result=luck.result,
            reason=luck.reason,
            kismet=[c.name if c else None for c in cards],
            shared=sorted(harmonic_match(cards)),
        )


def continue_turn(ctx: Ctx, spot: str | None) -> list[str]:
    """`/saga continue`: past step 3, place a kismetic draw, or acknowledge at step 8."""
    game = ctx.game
    if game.step == 3:
        game.step = 4
        return ["Step 3 done.", *advance(ctx)]
    if game.step == 5 and game.draws == "bot" and game.pending is not None:
        if not spot:
            raise RuleError(f"Name the hero whose spot {game.pending} goes into: `/saga continue spot:<hero>`.")
        return place_pending(ctx, spot)
    if game.step == 8:
        return acknowledge(ctx)
    at_step(ctx, 3, 5, 8, doing="`/saga continue`")
    raise RuleError(f"Turn {game.turn} is at step {game.step}; it expects {expects(ctx)}.")


def acknowledge(ctx: Ctx) -> list[str]:
    """Step 8 (F-R13): mark each action card; good luck moves that hero's acknowledged card to hand."""
    game = ctx.game
    notes = []
    for card in game.action:
        definition = ctx.card(card.name)
        card.acknowledged = acknowledged(ctx, definition)
        notes.append(
            f"{card.name}: {'acknowledged' if card.acknowledged else 'ignored'} ({ack_text(ctx, definition)})."
        )
    for card in list(game.action):
        luck = game.luck.get(card.hero)
        if card.acknowledged and luck is not None and luck.result == "good":
            game.action.remove(card)
            game.hand.append(card.name)
            notes.append(f"Good luck: {card.name} moves to hand; no battle for it.")
    enemies = [a for a in game.action if a.acknowledged and ctx.card(a.name).is_enemy]
    if enemies:
        notes.extend(open_battle(ctx, enemies))
    else:
        game.step = 10
        notes.append("Step 9: no acknowledged enemy; no battle.")
        notes.append(end_prompt(ctx))
    return notes


# ---------------------------------------------------------------- reported draws (physical-deck mode)


def report(ctx: Ctx, names: list[str], spot: str | None) -> list[str]:
    """draws:reported: the player names each card drawn from their own deck; every rule then applies."""
    game = ctx.game
    if game.draws != "reported":
        raise RuleError("This game's deck is kept by the bot (draws: bot); nothing to report.")
    if game.wanted_draw is None:
        raise RuleError(f"No draw is waiting. Turn {game.turn} is at step {game.step}; it expects {expects(ctx)}.")
    notes = []
    for name in names:
        found = in_deck(ctx, name)
        game.deck.remove(found)
        wanted = game.wanted_draw
        if wanted == "luck":
            game.heroes[0].luck.insert(0, found)
            game.wanted_draw = "hand"
            game.pending_reports = source_limit(ctx)
            notes.append(f"{found} goes to the luck pile. Now report the starting hand ({game.pending_reports}).")
            continue
        if wanted == "hand":
            game.hand.append(found)
            game.pending_reports -= 1
            notes.append(f"{found} goes into hand.")
            if game.pending_reports <= 0:
                game.wanted_draw = None
                if game.step == 4:
                    game.step = 5
                    notes.extend(advance(ctx))
            continue
        if wanted == "action":
            hero = find_hero(ctx, spot if len(game.heroes) > 1 else None)
            if any(fold(a.hero) == fold(hero.name) for a in game.action):
                raise RuleError(f"{hero.name}'s spot in the action pile is already filled.")
            game.action.append(ActionCard(name=found, hero=hero.name))
            game.pending_reports -= 1
            notes.append(f"{found} goes into the action pile ({hero.name}).")
            if game.pending_reports <= 0:
                game.wanted_draw = None
                game.step = 6
                notes.extend(advance(ctx))
            continue
        raise RuleError("No draw is waiting.")
    return notes


# ---------------------------------------------------------------- step 10


def end_turn(ctx: Ctx, names: list[str]) -> list[str]:
    """Step 10: cycle down to the source limit (never draw up), clear the action pile (F-R14), check the loss."""
    game = ctx.game
    at_step(ctx, 10, doing="ending the turn")
    limit = source_limit(ctx)
    need = max(0, len(game.hand) - limit)
    chosen = []
    for name in names:
        found = exact(game.hand, name)
        if found is None:
            raise RuleError(f"{name!r} is not in your hand. Hand: {', '.join(game.hand) or 'empty'}.")
        if found in chosen:
            raise RuleError(f"{found} is named twice.")
        chosen.append(found)
    if len(chosen) != need:
        raise RuleError(
            f"Name exactly {need} hand card(s) to cycle: the hand has {len(game.hand)}, the source "
            f"limit is {limit}. Hand: {', '.join(game.hand) or 'empty'}."
        )
    notes = []
    leftovers = [a.name for a in game.action]
    if leftovers:
        cycle(game, leftovers)
        # cites F-R14
        notes.append(f"The action pile's leftovers are cycled: {', '.join(leftovers)}.")
    if chosen:
        cycle(game, chosen)
        notes.append(f"Step 10: cycled {', '.join(chosen)}; the hand is at the source limit {limit}.")
    else:
        notes.append(f"Step 10: the hand ({len(game.hand)}) is within the source limit {limit}; nothing to cycle.")
    if not game.hand:
        game.outcome = "lost"
        # cites L85
        notes.append("The turn ends with no cards in hand: the game is LOST.")
        return notes
    game.turn += 1
    game.step, game.moved = 1, False
    game.luck, game.last_search, game.acknowledged_blank = {}, [], []
    notes.append(f"Turn {game.turn} begins: `/saga move to:<place>`.")
    return notes


def win(ctx: Ctx, name: str) -> list[str]:
    """S1: the End of Demo card wins when its rules are in force (play area, or acknowledged in hand/action)."""
    card = ctx.card(name)
    if not card.end_of_demo:
        raise RuleError(f'{card.name} does not say "End of Demo"; only that card wins the game.')
    if not in_force(ctx, card):
        where = location(ctx.game, card.name)
        raise RuleError(
            f"{card.name}'s rules are not in force: it must be in the play area, or acknowledged in hand "
            f"or the action pile (it is {where or 'not in this game'})."
        )
    ctx.game.outcome = "won"
    return [f"{card.name}: End of Demo. The game is WON."]


def legal_moves(ctx: Ctx) -> list[str]:
    return [name for _, _, name in destinations(ctx)]
