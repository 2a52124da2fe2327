"""The optional steps as commands: `buy`, `use`, `switch`, `attach`, `bonus`, `search`, `draw`, `put`."""

from typing import Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table
from rules.saga import bonus as bonus_rules
from rules.saga import catalog, optional, primitives
from rules.saga.area import game_of
from rules.saga.book import CARD_TYPES
from rules.saga.posts import names, recheck, turn_ctx, turn_outcome

# ---------------------------------------------------------------- optional steps


class BuyOptions(Model):
    card: str = Field(
        min_length=1, max_length=80, description="The acknowledged card to purchase (hand or action pile)"
    )
    pay: str | None = Field(default=None, max_length=1500, description="Hand cards to cycle, as many as the cost")
    hero: str | None = Field(default=None, max_length=80, description="An item: the hero it is attached to")
    spot: int | None = Field(default=None, ge=1, le=5, description="A place: the place-pile spot (1-5)")
    join: bool = Field(default=False, description="A folk-hero: join the hero pile")


def buy(table: Table, options: BuyOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = recheck(ctx, optional.buy(ctx, options.card, names(options.pay), options.hero, options.spot, options.join))
    return turn_outcome(ctx, "Purchase", notes, f"purchased {options.card}")


class UseOptions(Model):
    item: str = Field(min_length=1, max_length=80, description="The item to use (flip face-down)")
    hero: str | None = Field(default=None, max_length=80, description="The hero holding it")


def use(table: Table, options: UseOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = recheck(ctx, optional.use_item(ctx, options.item, options.hero))
    return turn_outcome(ctx, "Use an item", notes, f"used {options.item}")


class SwitchOptions(Model):
    item: str = Field(min_length=1, max_length=80, description="The item to switch")
    hero: str = Field(min_length=1, max_length=80, description="The hero who takes it")


def switch(table: Table, options: SwitchOptions) -> Outcome:
    ctx = turn_ctx(table)
    return turn_outcome(
        ctx, "Switch an item", optional.switch_item(ctx, options.item, options.hero), f"switched {options.item}"
    )


class AttachOptions(Model):
    song: str = Field(min_length=1, max_length=80, description="The spell-song (hand or action pile)")
    item: str = Field(min_length=1, max_length=80, description="The item to attach it to")


def attach(table: Table, options: AttachOptions) -> Outcome:
    ctx = turn_ctx(table)
    return turn_outcome(
        ctx, "Attach a spell-song", optional.attach_song(ctx, options.song, options.item), f"attached {options.song}"
    )


Where = Literal["auto", "story", "luck", "place", "kismet", "hero", "stack"]


class BonusOptions(Model):
    card: str | None = Field(default=None, max_length=80, description="The card whose bonus you claim")
    kind: Literal["harmonic", "discordant", "good-luck"] = Field(default="harmonic", description="Which bonus")
    cost: str | None = Field(default=None, max_length=100, description="Colors to find, e.g. 'V, Y, G' or 'any, G'")
    where: Where = Field(default="auto", description="Where to look (auto: the first source that meets it)")
    hero: str | None = Field(default=None, max_length=80, description="Whose kismet cards, items or luck")


def bonus(table: Table, options: BonusOptions) -> Outcome:
    ctx = turn_ctx(table) if options.card else game_of(table)
    cost = catalog.read_cost_list(options.cost) if options.cost else None
    notes, data = bonus_rules.bonus(ctx, options.card, options.kind, cost, options.where, options.hero)  # type: ignore[arg-type]
    if options.card is None:  # a check only: nothing claimed, nothing changed
        out = Card(title="Bonus cost", description="\n".join(notes), tone="success")
        return Outcome(card=out, summary="checked a bonus cost", data=data, ephemeral=True)
    return turn_outcome(ctx, "Bonus", notes, f"claimed {options.kind} bonus of {options.card}", data)


AreaName = Literal[
    "hand", "cycle", "luck", "story", "hero-pile", "item", "place", "attach", "action", "acknowledge", "token"
]


class SearchOptions(Model):
    top: int | None = Field(default=None, ge=1, le=60, description="Search the top N cards of the deck")
    type: str | None = Field(default=None, max_length=20, description="The card type (or subtype) searched for")
    take: str | None = Field(default=None, max_length=80, description="The found card to take")
    to: AreaName = Field(default="hand", description="Where the taken card goes")
    hero: str | None = Field(default=None, max_length=80, description="The hero (for luck, item, action)")
    in_game: bool = Field(default=False, description="Search In Game: hand, play area and deck")


def search(table: Table, options: SearchOptions) -> Outcome:
    ctx = turn_ctx(table)
    if (
        options.type
        and options.type not in CARD_TYPES
        and options.type not in ("room", "wanted", "folk-hero", "folk-enemy")
    ):
        raise RuleError(f"Type {options.type!r}: one of {', '.join(CARD_TYPES)}, room, wanted, folk-hero, folk-enemy.")
    notes = recheck(
        ctx, primitives.search(ctx, options.top, options.type, options.take, options.to, options.hero, options.in_game)
    )
    return turn_outcome(ctx, "Search", notes, "searched" + (f" and took {options.take}" if options.take else ""))


DrawArea = Literal["hand", "action", "luck", "story", "cycle"]  # primitives.DRAW_AREAS


class DrawOptions(Model):
    count: int = Field(ge=1, le=60, description="How many cards the card rule draws")
    reason: str = Field(min_length=1, max_length=200, description="The card rule that draws")
    to: DrawArea = Field(default="hand", description="Where the drawn cards go (hand unless the rule says)")
    hero: str | None = Field(default=None, max_length=80, description="The hero (for luck, action)")
    cards: str | None = Field(default=None, max_length=1500, description="Your own deck: the cards you drew")


def draw(table: Table, options: DrawOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = recheck(ctx, primitives.draw_cards(ctx, options.count, options.to, options.hero, names(options.cards)))
    notes.append(f"Reason: {options.reason}")
    return turn_outcome(ctx, "Card rule", notes, f"drew {options.count} to {options.to}: {options.reason}")


class PutOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card to move")
    to: AreaName = Field(description="Where it goes")
    hero: str | None = Field(default=None, max_length=80, description="The hero (for luck, item, action)")
    spot: int | None = Field(default=None, ge=1, le=5, description="The place-pile spot (for place, attach)")
    reason: str = Field(min_length=1, max_length=200, description="The card rule (or correction) this follows")
    # W9
    if_harmonic: bool = Field(default=False, description="A place: only if the stack tops end in harmonic order")


def put(table: Table, options: PutOptions) -> Outcome:
    ctx = turn_ctx(table)
    if options.if_harmonic:
        if options.to != "place":
            raise RuleError("if_harmonic applies to a place put into the place pile (to:place).")
        notes = recheck(ctx, primitives.put_if_harmonic(ctx, options.card, options.spot))
    else:
        notes = recheck(ctx, primitives.put(ctx, options.card, options.to, options.hero, options.spot))
    notes.append(f"Reason: {options.reason}")
    return turn_outcome(ctx, "Card rule", notes, f"put {options.card} to {options.to}: {options.reason}")
