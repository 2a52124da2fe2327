"""Reading and changing the play area: where a card is, adjacency, acknowledgment, draws and cycling.

These are the primitives every step and card rule is made of (spec S4): move,
cycle (face-down beneath the deck, F-R29), draw (F-R19), and the views the
harmonic and luck checks read (a card carries its attachments' colors, F-R6).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import RuleError, Table
from rules.saga.book import CardDef
from rules.saga.harmony import View
from rules.saga.state import PLACE_SPOTS, Game, HeroState, SagaSettings, SagaState
from rules.text import fold


@dataclass
class Ctx:
    """What a rule needs at hand: the table, the saga state, its game and settings."""

    table: Table
    state: SagaState
    game: Game
    settings: SagaSettings
    gm_damage: list[str] | None = None  # hand cards a GM names for this action's damage, instead of the RNG
    damage_drawn: bool = False

    def card(self, name: str) -> CardDef:
        card = self.state.card(name)
        if card is None:
            raise RuleError(f"{name!r} is not in this campaign's card catalog. Define it with `/saga card define`.")
        return card

    def require_player(self) -> None:
        """Only the game's player (through their hero pile) or a GM changes the table."""
        self.table.own_character(self.game.character)


def game_of(table: Table) -> Ctx:
    state: SagaState = table.state
    if state.game is None:
        raise RuleError("No Spell Saga game is running here. Start one with `/saga start`.")
    return Ctx(table, state, state.game, table.settings)


def playing(ctx: Ctx) -> None:
    if ctx.game.outcome != "playing":
        raise RuleError(f"This game is over ({ctx.game.outcome}). Start a new one with `/saga start`.")


# ---------------------------------------------------------------- where cards are


def location(game: Game, name: str) -> str | None:
    """``hand``, ``deck``, ``story``, ``action``, ``luck:<hero>``, ``hero``, ``item:<hero>``, ``song:<item>``,
    ``place:<spot>``, ``attached:<spot>``; None when the card is not in this game."""
    key = fold(name)
    for area, cards in (("hand", game.hand), ("deck", game.deck), ("story", game.story)):
        if key in map(fold, cards):
            return area
    if key in (fold(a.name) for a in game.action):
        return "action"
    for hero in game.heroes:
        if fold(hero.name) == key:
            return "hero"
        if key in map(fold, hero.luck):
            return f"luck:{hero.name}"
        for item in hero.items:
            if fold(item.name) == key:
                return f"item:{hero.name}"
            if key in map(fold, item.songs):
                return f"song:{item.name}"
    for i, spot in enumerate(game.places):
        if key in map(fold, spot.stack):
            return f"place:{i + 1}"
        if key in map(fold, spot.attached):
            return f"attached:{i + 1}"
    return None


def exact(cards: list[str], name: str) -> str | None:
    return next((c for c in cards if fold(c) == fold(name)), None)


def in_deck(ctx: Ctx, name: str) -> str:
    """A card a player reports drawing from their own deck (draws: reported), by its exact name; refused plainly
    when the deck as the table knows it does not hold it."""
    found = exact(ctx.game.deck, name)
    if found is None:
        raise RuleError(
            f"{name!r} is not in your deck as the table knows it (it is "
            f"{'not in the catalog' if ctx.state.card(name) is None else 'already in play'})."
        )
    return found


HERO_STAYS = (
    "the book gives no rule that takes a hero card out of the hero pile (its items are attached to it and its "
    "luck stack is its own), so it stays there. A card rule that moves one of its items or luck cards names that "
    "card: `/saga put card:<item or luck card> to:<where> reason:…`"
)


def remove(game: Game, name: str) -> str:
    """Take a card out of wherever it is (not the hero cards themselves); returns its exact name."""
    key = fold(name)
    hero = game.hero(name)
    if hero is not None:
        raise RuleError(f"{hero.name} is a hero in the hero pile: {HERO_STAYS}.")
    for cards in (game.hand, game.deck, game.story):
        found = exact(cards, name)
        if found:
            cards.remove(found)
            return found
    for card in list(game.action):
        if fold(card.name) == key:
            game.action.remove(card)
            return card.name
    for hero in game.heroes:
        found = exact(hero.luck, name)
        if found:
            hero.luck.remove(found)
            return found
        for item in list(hero.items):
            if fold(item.name) == key:
                hero.items.remove(item)
                for song in item.songs:  # attached songs go with the item: cycled
                    game.deck.append(song)
                return item.name
            found = exact(item.songs, name)
            if found:
                item.songs.remove(found)
                return found
    for spot in game.places:
        for cards in (spot.stack, spot.attached):
            found = exact(cards, name)
            if found:
                cards.remove(found)
                return found
    raise RuleError(f"{name!r} is not in this game.")


def cycle(game: Game, names: list[str]) -> list[str]:
    """F-R29: one at a time, in the order named, each face-down to the very bottom of the deck."""
    done = []
    for name in names:
        exact_name = remove(game, name)
        game.deck.append(exact_name)
        done.append(exact_name)
    return done


def draw(ctx: Ctx, count: int) -> list[str]:
    """Take up to ``count`` cards from the top (F-R19: an empty deck stops the draw)."""
    taken = ctx.game.deck[:count]
    del ctx.game.deck[:count]
    return taken


# ---------------------------------------------------------------- acknowledgment and limits


def acknowledged(ctx: Ctx, card: CardDef) -> bool:
    """L356: a numerical cost at most the story pile's size; blank only when a card rule acknowledged it."""
    if isinstance(card.cost, int):
        return card.cost <= len(ctx.game.story)
    return card.cost == "blank" and fold(card.name) in map(fold, ctx.game.acknowledged_blank)


def ack_text(ctx: Ctx, card: CardDef) -> str:
    story = len(ctx.game.story)
    if isinstance(card.cost, int):
        sign = "≤" if card.cost <= story else ">"
        return f"cost {card.cost} {sign} story {story}"
    if card.cost == "blank":
        return "blank cost: " + ("acknowledged by a card rule" if acknowledged(ctx, card) else "ignored")
    return "a starting card"


def source_limit(ctx: Ctx) -> int:
    """F-R15: story pile + the bonus on each hero's warning bar (or the setup value, house rule ``fixed``)."""
    if ctx.settings.source_limit == "fixed" and ctx.game.fixed_limit is not None:
        return ctx.game.fixed_limit
    bonus = sum((ctx.card(h.name).source_bonus or 0) for h in ctx.game.heroes)
    return len(ctx.game.story) + bonus


def hero_limit(ctx: Ctx) -> int:
    """L278: printed on the starting hero (the first in the pile); 1 when it prints none."""
    first = ctx.card(ctx.game.heroes[0].name) if ctx.game.heroes else None
    return (first.hero_limit if first and first.hero_limit else 1) if first else 1


def find_hero(ctx: Ctx, name: str | None) -> HeroState:
    heroes = ctx.game.heroes
    if not heroes:
        raise RuleError("The hero pile is empty.")
    if not name:
        if len(heroes) == 1:
            return heroes[0]
        raise RuleError(f"Name the hero: {', '.join(h.name for h in heroes)}.")
    hero = ctx.game.hero(name)
    if hero is None:
        raise RuleError(f"{name!r} is not in the hero pile. Heroes: {', '.join(h.name for h in heroes)}.")
    return hero


# ---------------------------------------------------------------- harmonics as the area shows them


def view(ctx: Ctx, name: str, attached: list[str] | None = None) -> View:
    """A card with its attachments' harmonics too (F-R6, L495) unless the house rule says otherwise."""
    card = ctx.card(name)
    colors = set(card.harmonics)
    if ctx.settings.attached_sharing:
        for other in attached or ():
            colors |= set(ctx.card(other).harmonics)
    return View(card.name, frozenset(colors), card.glyph)


def plain(ctx: Ctx, name: str) -> View:
    card = ctx.card(name)
    return View(card.name, frozenset(card.harmonics), card.glyph)


def place_view(ctx: Ctx, spot: int, room: str | None = None) -> View:
    """The visited place: a stack top shares with its stack's attachments; a room with its host (L495)."""
    place = ctx.game.places[spot]
    if room:
        return view(ctx, room, [place.stack[0]] if place.stack else [])
    return view(ctx, place.stack[0], place.attached)


def hero_group(ctx: Ctx, hero: HeroState) -> list[View]:
    return [plain(ctx, hero.name)] + [plain(ctx, i.name) for i in hero.items]


def stack_group(ctx: Ctx, spot: int) -> list[View]:
    place = ctx.game.places[spot]
    return [plain(ctx, name) for name in place.stack[:1] + place.attached]


def occupied(game: Game) -> list[int]:
    return [i for i in range(PLACE_SPOTS) if game.places[i].stack]


def place_row(ctx: Ctx) -> list[View]:
    """The stack tops around the circle, empty spots skipped (F-R22), each with its attachments (F-R6)."""
    return [place_view(ctx, i) for i in occupied(ctx.game)]


def luck_row(ctx: Ctx) -> list[View]:
    return [view(ctx, h.luck[0]) for h in ctx.game.heroes if h.luck]


def story_row(ctx: Ctx) -> list[View]:
    return [view(ctx, name) for name in ctx.game.story]


def kismet(ctx: Ctx, hero: HeroState) -> list[View | None]:
    """The three kismet cards in the house rule's order (F-R3: place, action, luck)."""
    game = ctx.game
    place = place_view(ctx, game.token_spot, game.token_room) if game.visiting else None
    action = next((view(ctx, a.name) for a in game.action if fold(a.hero) == fold(hero.name)), None)
    luck = view(ctx, hero.luck[0]) if hero.luck else None
    if ctx.settings.kismet_order == "place-luck-action":
        return [place, luck, action]
    return [place, action, luck]


def kismet_labels(settings: SagaSettings) -> tuple[str, str, str]:
    if settings.kismet_order == "place-luck-action":
        return ("place", "luck card", "action card")
    return ("place", "action card", "luck card")


# ---------------------------------------------------------------- adjacency of places (F-R7, F-R21, F-R22)


def destinations(ctx: Ctx) -> list[tuple[int, str | None, str]]:
    """Where the token may move: (spot, room or None, card name)."""
    game = ctx.game
    here = game.token_spot
    if not game.places[here].stack:
        # the place under the token (or a visited room's host) left the place pile, in a game saved before
        # `/saga put` kept the token on a place: every stack top takes the token back, so it is never stranded
        return [(i, None, game.places[i].stack[0]) for i in occupied(game)]
    if game.token_room:
        top = game.places[here].stack
        return [(here, None, top[0])] if top else []
    spots = occupied(game)
    out: list[tuple[int, str | None, str]] = []
    if here in spots and len(spots) > 1:
        i = spots.index(here)
        for neighbour in dict.fromkeys((spots[(i - 1) % len(spots)], spots[(i + 1) % len(spots)])):
            if neighbour != here:
                out.append((neighbour, None, game.places[neighbour].stack[0]))
    for attached in game.places[here].attached:
        if ctx.card(attached).type == "place":
            out.append((here, attached, attached))
    return out
