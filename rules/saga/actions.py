"""Every `/saga` command: its options model (which becomes the slash command) and what it runs.

Turn actions belong to the game's player (through their hero pile, the campaign
character) or a GM. The catalog is kept by the GM and the player together.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.base import Action, Card, Model, Outcome, RuleError, Table
from rules.saga import battle, catalog, optional, turn
from rules.saga.area import Ctx, game_of, playing, source_limit
from rules.saga.book import CARD_TYPES, CardDef, fold, read_color
from rules.saga.cards import catalog_card, kismet_fields, public_data, table_card
from rules.saga.harmony import LUCK_WORDS, View, card_order, color_order, luck_check
from rules.saga.odds import next_draw_odds
from rules.saga.sheet import ensure_character
from rules.saga.state import SagaState

TypeName = Literal["hero", "enemy", "folk", "item", "place", "spell-song", "story"]
GlyphName = Literal["end-winter", "spring", "summer", "autumn", "new-winter", "none"]


def _turn_outcome(ctx: Ctx, title: str, notes: list[str], summary: str, data: dict | None = None) -> Outcome:
    card = table_card(ctx, title, notes)
    if (
        ctx.game.luck
        and ctx.game.step in (8, 9, 10)
        and title.startswith(("Turn", "Step", "Move", "Continue", "Report"))
    ):
        kismet_fields(ctx, card)
    return Outcome(card=card, summary=summary, data={"notes": notes, "table": public_data(ctx), **(data or {})})


def _recheck(ctx: Ctx, notes: list[str]) -> list[str]:
    """S12/L435: at step 8 (checked, not yet acknowledged) a change to the table re-runs the luck check."""
    game = ctx.game
    if game.step != 8 or not game.luck:
        return notes
    before = {hero: record.result for hero, record in game.luck.items()}
    turn.record_luck(ctx)
    for hero, record in game.luck.items():
        if before.get(hero) != record.result:
            notes.append(f"Luck checked again: {hero} now has {LUCK_WORDS[record.result]} ({record.reason}).")
    return notes


def _turn_ctx(table: Table) -> Ctx:
    ctx = game_of(table)
    playing(ctx)
    ctx.require_player()
    return ctx


def _names(text: str | None) -> list[str]:
    return optional.split_names(text)


# ---------------------------------------------------------------- the catalog


class CardDefineOptions(Model):
    name: str = Field(min_length=1, max_length=80, description="Card name, as printed")
    type: TypeName = Field(description="Card type")
    cost: str = Field(max_length=10, description="Source cost: a number, blank, or start (source icon)")
    glyph: GlyphName = Field(default="none", description="Luck glyph")
    harmonics: str = Field(default="", max_length=60, description="Harmonic colors, e.g. 'B V' or 'blue, violet'")
    subtypes: str = Field(
        default="", max_length=60, description="room, wanted, folk-hero, folk-enemy (comma-separated)"
    )
    source_bonus: int | None = Field(default=None, ge=0, le=50, description="Hero: source limit = story pile + this")
    hero_limit: int | None = Field(default=None, ge=1, le=10, description="Hero: the hero limit")
    item_limit: int | None = Field(default=None, ge=0, le=20, description="Hero: the item limit")
    armor: int | None = Field(default=None, ge=0, le=99, description="Enemy: armor number")
    attack: int | None = Field(default=None, ge=0, le=99, description="Enemy or item: attack number")
    rounds: int | None = Field(default=None, ge=1, le=20, description="Enemy: battle round number")
    mandatory: str = Field(default="", max_length=1500, description="~ rules (separate several with |)")
    optional: str = Field(default="", max_length=1500, description="(&) rules (separate several with |)")
    good_luck_bonus: str = Field(default="", max_length=1000, description="Good luck bonus text")
    harmonic_bonus: str = Field(default="", max_length=1000, description="'B, V, R: text' or 'hand: text'")
    discordant_bonus: str = Field(default="", max_length=1000, description="'G, R: text'")
    prize: str = Field(default="", max_length=500, description="Enemy prize text")
    penalty: str = Field(default="", max_length=500, description="Enemy penalty text")
    end_of_demo: bool = Field(default=False, description="The card says End of Demo")


def card_define(table: Table, options: CardDefineOptions) -> Outcome:
    """One card into the catalog (replacing a card of the same name)."""
    state: SagaState = table.state
    _catalog_keeper(table)
    try:
        card = CardDef(
            name=options.name,
            type=options.type,
            cost=catalog.read_cost(options.cost),  # type: ignore[arg-type]
            glyph=None if options.glyph == "none" else options.glyph,
            harmonics=options.harmonics,  # type: ignore[arg-type]
            subtypes=[s.strip() for s in options.subtypes.replace(";", ",").split(",") if s.strip()],  # type: ignore[arg-type]
            source_bonus=options.source_bonus,
            hero_limit=options.hero_limit,
            item_limit=options.item_limit,
            armor=options.armor,
            attack=options.attack,
            rounds=options.rounds,
            mandatory=[r.strip() for r in options.mandatory.split("|") if r.strip()],
            optional=[r.strip() for r in options.optional.split("|") if r.strip()],
            good_luck_bonus=options.good_luck_bonus,
            harmonic_bonus=catalog.parse_bonus(options.harmonic_bonus),
            discordant_bonus=catalog.parse_bonus(options.discordant_bonus),
            prize=options.prize,
            penalty=options.penalty,
            end_of_demo=options.end_of_demo,
        )
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        problems = "; ".join(e["msg"].removeprefix("Value error, ") for e in getattr(exc, "errors", list)()) or str(exc)
        raise RuleError(f"Card {options.name!r}: {problems}.") from exc
    replaced = fold(card.name) in state.catalog
    state.catalog[fold(card.name)] = card
    shown = catalog_card(card)
    shown.footer = "Replaced the card of that name." if replaced else f"Catalog: {len(state.catalog)} card(s)."
    return Outcome(
        card=shown,
        summary=f"defined card {card.name}",
        data={"card": card.model_dump(mode="json"), "replaced": replaced},
    )


def _catalog_keeper(table: Table) -> None:
    """The GM keeps the catalog; while a game runs, its player may add their own cards too."""
    state: SagaState = table.state
    if table.actor.is_gm:
        return
    if state.game is not None and state.game.player_id == table.actor.user_id:
        return
    if state.game is None:
        return  # a player preparing their deck before the first game
    raise RuleError("The catalog is kept by the GM and this game's player.")


class CardImportOptions(Model):
    text: str = Field(min_length=1, max_length=6000, description="TOML ([[card]] or card = [{...}]) or JSON")
    format: Literal["auto", "toml", "json"] = Field(default="auto", description="The text's format")
    replace: bool = Field(default=False, description="Replace the whole catalog instead of adding to it")


def card_import(table: Table, options: CardImportOptions) -> Outcome:
    """A whole deck from a file's text: validated, every error by line and card name, all or nothing."""
    _catalog_keeper(table)
    state: SagaState = table.state
    cards = catalog.parse_deck(options.text, options.format)
    if options.replace:
        state.catalog = {}
    added = [c.name for c in cards if fold(c.name) not in state.catalog]
    for card in cards:
        state.catalog[fold(card.name)] = card
    out = Card(title=f"Imported {len(cards)} card(s)", description=", ".join(c.name for c in cards)[:4000])
    out.add("Catalog", f"{len(state.catalog)} card(s); {len(added)} new, {len(cards) - len(added)} replaced")
    return Outcome(
        card=out,
        summary=f"imported {len(cards)} cards",
        data={"imported": [c.name for c in cards], "new": added, "catalog": len(state.catalog)},
    )


class CardShowOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card")


def card_show(table: Table, options: CardShowOptions) -> Outcome:
    state: SagaState = table.state
    card = state.card(options.card)
    if card is None:
        raise RuleError(f"{options.card!r} is not in the catalog. `/saga card list` shows it.")
    return Outcome(
        card=catalog_card(card),
        summary=f"showed card {card.name}",
        data={"card": card.model_dump(mode="json")},
        ephemeral=True,
    )


class CardListOptions(Model):
    type: TypeName | None = Field(default=None, description="Only this type")


def card_list(table: Table, options: CardListOptions) -> Outcome:
    state: SagaState = table.state
    cards = sorted(
        (c for c in state.catalog.values() if options.type in (None, c.type)), key=lambda c: (c.type, c.name)
    )
    lines = [c.line() for c in cards]
    text = (
        "\n".join(lines)
        or "The catalog is empty: `/saga card define`, `/saga card import`, or `/saga start deck:sample`."
    )
    out = Card(title=f"Card catalog ({len(cards)})", description=text[:4000])
    return Outcome(card=out, summary="listed the catalog", data={"cards": [c.name for c in cards]}, ephemeral=True)


class CardRemoveOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card to remove from the catalog")


def card_remove(table: Table, options: CardRemoveOptions) -> Outcome:
    _catalog_keeper(table)
    state: SagaState = table.state
    card = state.card(options.card)
    if card is None:
        raise RuleError(f"{options.card!r} is not in the catalog.")
    if state.game is not None and state.game.outcome == "playing":
        from rules.saga.area import location

        if location(state.game, card.name) is not None:
            raise RuleError(f"{card.name} is in the running game; it stays in the catalog until the game ends.")
    del state.catalog[fold(card.name)]
    return Outcome(
        card=Card(title=f"Removed {card.name}"), summary=f"removed card {card.name}", data={"removed": card.name}
    )


# ---------------------------------------------------------------- start


class StartOptions(Model):
    deck: Literal["sample", "catalog"] = Field(
        default="catalog", description="The sample deck, or this campaign's catalog"
    )
    seed: int | None = Field(default=None, ge=0, le=2**31, description="Shuffle seed (the same seed, the same game)")
    draws: Literal["bot", "reported"] = Field(
        default="bot", description="bot: the bot keeps the deck; reported: your own deck"
    )
    replace: bool = Field(default=False, description="End the game in progress and start over")


def start(table: Table, options: StartOptions) -> Outcome:
    """S5: the five starting cards, the shuffle, the luck card and the starting hand by the source limit."""
    state: SagaState = table.state
    if state.game is not None and state.game.outcome == "playing":
        if not options.replace:
            raise RuleError("A game is in progress here. Send `/saga start replace:true` to abandon it and start over.")
        if not table.actor.is_gm and state.game.player_id != table.actor.user_id:
            raise RuleError("Only the GM or this game's player may replace the game in progress.")
    if options.deck == "sample":
        sample = table.book.sample_deck.card
        for card in sample:
            state.catalog[fold(card.name)] = card
        deck = [state.catalog[fold(c.name)] for c in sample]
    else:
        deck = list(state.catalog.values())
        if not deck:
            raise RuleError(
                "The catalog is empty: import your deck (`/saga card import`) or use `/saga start deck:sample`."
            )
    hero = turn.starting_cards(deck)["hero"]
    record = ensure_character(table, hero.name)
    state.game = turn.new_game(
        state,
        deck,
        player_id=record.owner_id,
        character=record.name,
        draws=options.draws,
        seed=options.seed,
        rng=table.rng,
    )
    ctx = game_of(table)
    notes = [
        f"A new game: {len(deck)} cards ({'the sample deck' if options.deck == 'sample' else 'the catalog'}), "
        f"draws: {options.draws}" + (f", seed {options.seed}" if options.seed is not None else "") + "."
    ]
    notes.extend(turn.deal(ctx))
    notes.append("Turn 1: `/saga move to:<place>` (step 1).")
    return _turn_outcome(ctx, "Spell Saga: setup", notes, f"started a game with {len(deck)} cards")


# ---------------------------------------------------------------- the turn


class MoveOptions(Model):
    to: str | None = Field(default=None, max_length=80, description="An adjacent place (leave out to list them)")


def move(table: Table, options: MoveOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = turn.move(ctx, options.to)
    return _turn_outcome(ctx, f"Turn {ctx.game.turn}: move", notes, f"moved to {ctx.game.visiting}")


class ContinueOptions(Model):
    spot: str | None = Field(
        default=None, max_length=80, description="Kismetic order: the hero whose spot takes the card"
    )


def continue_turn(table: Table, options: ContinueOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = turn.continue_turn(ctx, options.spot)
    return _turn_outcome(
        ctx, f"Turn {ctx.game.turn}: step {ctx.game.step}", notes, f"continued to step {ctx.game.step}"
    )


class ReportOptions(Model):
    card: str = Field(min_length=1, max_length=1500, description="The card(s) you drew, comma-separated")
    spot: str | None = Field(default=None, max_length=80, description="Several heroes: whose action spot")


def report(table: Table, options: ReportOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = turn.report(ctx, _names(options.card), options.spot)
    return _turn_outcome(ctx, f"Report: turn {ctx.game.turn}", notes, f"reported {options.card}")


class EndOptions(Model):
    cycle: str | None = Field(default=None, max_length=1500, description="Hand cards to cycle down to the source limit")


def end(table: Table, options: EndOptions) -> Outcome:
    ctx = _turn_ctx(table)
    turn_number = ctx.game.turn
    notes = turn.end_turn(ctx, _names(options.cycle))
    return _turn_outcome(
        ctx,
        f"Turn {turn_number}: end",
        notes,
        f"ended turn {turn_number}" + (" (lost)" if ctx.game.outcome == "lost" else ""),
    )


class WinOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The End of Demo card")


def win(table: Table, options: WinOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = turn.win(ctx, options.card)
    return _turn_outcome(ctx, "Victory", notes, "won the game")


# ---------------------------------------------------------------- battle


class AttackOptions(Model):
    item: str = Field(min_length=1, max_length=80, description="The attached item to use")
    enemy: str | None = Field(default=None, max_length=80, description="The enemy to attack")
    hero: str | None = Field(default=None, max_length=80, description="The hero using the item")
    value: int | None = Field(default=None, ge=0, le=99, description="The attack of an item that prints none (F-R25)")
    damage: str | None = Field(default=None, max_length=1500, description="GM: the hand cards the damage takes")


def _gm_damage(ctx: Ctx, damage: str | None) -> None:
    """A GM may draw the damage cards at the table instead of the bot's random pick (as runic's `dice:`)."""
    if damage is not None:
        ctx.table.require_gm("Choosing the damage cards")
        ctx.gm_damage = _names(damage)


def _damage_used(ctx: Ctx) -> None:
    if ctx.gm_damage is not None and not ctx.damage_drawn:
        raise RuleError("No damage is drawn by this action (it comes at the end of the round); leave damage out.")


def attack(table: Table, options: AttackOptions) -> Outcome:
    ctx = _turn_ctx(table)
    _gm_damage(ctx, options.damage)
    notes = battle.attack(ctx, options.hero, options.item, options.enemy, options.value)
    _damage_used(ctx)
    return _turn_outcome(ctx, "Battle: attack", notes, f"attacked with {options.item}")


class PassOptions(Model):
    hero: str | None = Field(default=None, max_length=80, description="The hero who passes this round")
    damage: str | None = Field(default=None, max_length=1500, description="GM: the hand cards the damage takes")


def pass_round(table: Table, options: PassOptions) -> Outcome:
    ctx = _turn_ctx(table)
    _gm_damage(ctx, options.damage)
    notes = battle.pass_round(ctx, options.hero)
    _damage_used(ctx)
    return _turn_outcome(ctx, "Battle: pass", notes, "passed a battle round")


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
    ctx = _turn_ctx(table)
    notes = _recheck(
        ctx, optional.buy(ctx, options.card, _names(options.pay), options.hero, options.spot, options.join)
    )
    return _turn_outcome(ctx, "Purchase", notes, f"purchased {options.card}")


class UseOptions(Model):
    item: str = Field(min_length=1, max_length=80, description="The item to use (flip face-down)")
    hero: str | None = Field(default=None, max_length=80, description="The hero holding it")


def use(table: Table, options: UseOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = _recheck(ctx, optional.use_item(ctx, options.item, options.hero))
    return _turn_outcome(ctx, "Use an item", notes, f"used {options.item}")


class SwitchOptions(Model):
    item: str = Field(min_length=1, max_length=80, description="The item to switch")
    hero: str = Field(min_length=1, max_length=80, description="The hero who takes it")


def switch(table: Table, options: SwitchOptions) -> Outcome:
    ctx = _turn_ctx(table)
    return _turn_outcome(
        ctx, "Switch an item", optional.switch_item(ctx, options.item, options.hero), f"switched {options.item}"
    )


class AttachOptions(Model):
    song: str = Field(min_length=1, max_length=80, description="The spell-song (hand or action pile)")
    item: str = Field(min_length=1, max_length=80, description="The item to attach it to")


def attach(table: Table, options: AttachOptions) -> Outcome:
    ctx = _turn_ctx(table)
    return _turn_outcome(
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
    ctx = _turn_ctx(table) if options.card else game_of(table)
    cost = catalog.read_cost_list(options.cost) if options.cost else None
    notes, data = optional.bonus(ctx, options.card, options.kind, cost, options.where, options.hero)  # type: ignore[arg-type]
    if options.card is None:  # a check only: nothing claimed, nothing changed
        out = Card(title="Bonus cost", description="\n".join(notes), tone="success")
        return Outcome(card=out, summary="checked a bonus cost", data=data, ephemeral=True)
    return _turn_outcome(ctx, "Bonus", notes, f"claimed {options.kind} bonus of {options.card}", data)


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
    ctx = _turn_ctx(table)
    if (
        options.type
        and options.type not in CARD_TYPES
        and options.type not in ("room", "wanted", "folk-hero", "folk-enemy")
    ):
        raise RuleError(f"Type {options.type!r}: one of {', '.join(CARD_TYPES)}, room, wanted, folk-hero, folk-enemy.")
    notes = _recheck(
        ctx, optional.search(ctx, options.top, options.type, options.take, options.to, options.hero, options.in_game)
    )
    return _turn_outcome(ctx, "Search", notes, "searched" + (f" and took {options.take}" if options.take else ""))


class PutOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The card to move")
    to: AreaName = Field(description="Where it goes")
    hero: str | None = Field(default=None, max_length=80, description="The hero (for luck, item, action)")
    spot: int | None = Field(default=None, ge=1, le=5, description="The place-pile spot (for place, attach)")
    reason: str = Field(min_length=1, max_length=200, description="The card rule (or correction) this follows")


def put(table: Table, options: PutOptions) -> Outcome:
    ctx = _turn_ctx(table)
    notes = _recheck(ctx, optional.put(ctx, options.card, options.to, options.hero, options.spot))
    notes.append(f"Reason: {options.reason}")
    return _turn_outcome(ctx, "Card rule", notes, f"put {options.card} to {options.to}: {options.reason}")


# ---------------------------------------------------------------- checks on demand


class HarmonicOptions(Model):
    cards: str | None = Field(
        default=None, max_length=600, description="Colors (B V R...) or card names, comma-separated"
    )
    pile: Literal["story", "luck", "place", "kismet"] | None = Field(default=None, description="Or a pile of the table")
    hero: str | None = Field(default=None, max_length=80, description="Whose kismet cards (several heroes)")


def harmonic(table: Table, options: HarmonicOptions) -> Outcome:
    """Is a sequence of colors, cards or a pile in harmonic or discordant order, and why (RULINGS 19, F-R8, F-R32)."""
    state: SagaState = table.state
    if options.pile:
        if options.cards:
            raise RuleError("Give cards or a pile, not both.")
        shown, order = optional.pile_order(game_of(table), options.pile, options.hero)
    elif not options.cards:
        raise RuleError('Name colors or cards (cards:"B, V, R") or a pile (pile:place).')
    else:
        shown, order = _sequence_order(state, options.cards)
    verdict = "HARMONIC" if order.harmonic else "DISCORDANT"
    what = f"The {options.pile} pile" if options.pile and options.pile != "kismet" else "The kismet cards"
    lead = (what + ": ") if options.pile else ""
    out = Card(
        title=f"{verdict} order",
        description=f"{lead}{' → '.join(shown) or 'no cards'}\n{order.reason}",
        tone="success" if order.harmonic else "neutral",
    )
    if order.collapsed:
        out.add("Read as", " ".join(c[0].upper() for c in order.collapsed), inline=True)
    data = {
        "order": verdict.lower(), "direction": order.direction, "collapsed": order.collapsed,
        "first_bad_step": order.first_bad_step, "reason": order.reason, "cards": shown,
    }  # fmt: skip
    return Outcome(card=out, summary=f"harmonic check: {verdict.lower()}", data=data, ephemeral=True)


def _sequence_order(state: SagaState, text: str):
    parts = _names(text) if "," in text else text.split()
    try:
        colors = [read_color(p) for p in parts]
    except RuleError:
        colors = []
    if colors:
        return [c.upper() for c in colors], color_order(colors)
    views = []
    for name in _names(text):
        card = state.card(name)
        if card is None:
            raise RuleError(
                f"{name!r} is neither a color (blue, violet, red, yellow, green) nor a card in the catalog."
            )
        views.append(View(card.name, frozenset(card.harmonics), card.glyph))
    return [v.name for v in views], card_order(views)


class LuckOptions(Model):
    cards: str | None = Field(
        default=None, max_length=300, description="Three kismet cards (place, action, luck); none: the table's"
    )


def luck(table: Table, options: LuckOptions) -> Outcome:
    """A luck result for three named cards, or the current kismet cards again (L435: repeat any time)."""
    state: SagaState = table.state
    if options.cards:
        names = _names(options.cards)
        if len(names) != 3:
            raise RuleError(f"Name three cards (place, action, luck), comma-separated; you named {len(names)}.")
        views = []
        for name in names:
            card = state.card(name)
            if card is None:
                raise RuleError(f"{name!r} is not in the catalog.")
            views.append(View(card.name, frozenset(card.harmonics), card.glyph))
        result = luck_check(views)
        out = Card(
            title=LUCK_WORDS[result.result].upper(),
            description=f"{', '.join(names)}\n{result.reason}",
            tone="success" if result.result == "good" else "failure" if result.result == "bad" else "neutral",
        )
        out.add("Advantage", result.advantage, inline=True)
        return Outcome(
            card=out,
            summary=f"luck check: {result.result}",
            ephemeral=True,
            data={
                "result": result.result,
                "reason": result.reason,
                "advantage": result.advantage,
                "shared": result.shared,
            },
        )
    ctx = game_of(table)
    if not ctx.game.action:
        raise RuleError('No action card yet this turn: name three cards with cards:"place, action, luck".')
    turn.record_luck(ctx)
    out = Card(title="Luck check (repeated)")
    kismet_fields(ctx, out)
    return Outcome(
        card=out,
        summary="repeated the luck check",
        data={"luck": {k: v.model_dump() for k, v in ctx.game.luck.items()}},
    )


class OddsOptions(Model):
    pass


def odds(table: Table, options: OddsOptions) -> Outcome:
    """Exact chances, over the deck as it stands, for the next action card."""
    ctx = game_of(table)
    rows = next_draw_odds(ctx)
    if not rows:
        raise RuleError("The action cards are drawn this turn; odds apply to the next draw (before step 5).")
    out = Card(title=f"Odds for the next action card ({rows[0].cards} cards in the deck)")
    data = []
    for row in rows:
        out.add(
            f"{row.hero} at {row.place}",
            f"good luck {row.good} ({float(row.good):.1%}) · bad {row.bad} · no luck {row.none}\n"
            f"kismet cards in harmonic order: {row.harmonic} ({float(row.harmonic):.1%})",
        )
        data.append(
            {
                "hero": row.hero,
                "place": row.place,
                "cards": row.cards,
                "good": str(row.good),
                "bad": str(row.bad),
                "none": str(row.none),
                "harmonic": str(row.harmonic),
            }
        )
    out.footer = "Every card left in the deck is equally likely: its order is the table's secret."
    return Outcome(card=out, summary="odds", data={"odds": data}, ephemeral=True)


class TableOptions(Model):
    pass


def show_table(table: Table, options: TableOptions) -> Outcome:
    ctx = game_of(table)
    card = table_card(
        ctx,
        "Spell Saga: the table",
        [
            f"Legal moves: {', '.join(turn.legal_moves(ctx)) or 'none'}"
            if ctx.game.step == 1
            else f"Source limit {source_limit(ctx)}."
        ],
    )
    kismet_fields(ctx, card)
    return Outcome(
        card=card, summary="showed the table", data={"table": public_data(ctx), "legal_moves": turn.legal_moves(ctx)}
    )


class DeckOptions(Model):
    pass


def deck(table: Table, options: DeckOptions) -> Outcome:
    """The deck's order, for the GM only (a secret card): the player never sees upcoming cards."""
    table.require_gm("Seeing the deck's order")
    ctx = game_of(table)
    order = ctx.game.deck
    secret = Card(
        title="The deck, top first",
        description="\n".join(f"{i + 1}. {n}" for i, n in enumerate(order))[:4000] or "empty",
        tone="secret",
    )
    return Outcome(
        card=Card(title="The deck", description=f"{len(order)} cards; the order went to the GM."),
        summary="GM looked at the deck",
        data={"deck_count": len(order)},
        secret=secret,
        ephemeral=True,
    )


def _a(name: str, run, options, description: str, **kw) -> Action:
    return Action(name, run, options, description=description, **kw)


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        _a("card define", card_define, CardDefineOptions, "Define one card of your deck"),
        _a("card import", card_import, CardImportOptions, "Import a deck from TOML or JSON text"),
        _a("card show", card_show, CardShowOptions, "Show a catalog card", logged=False),
        _a("card list", card_list, CardListOptions, "List the card catalog", logged=False),
        _a("card remove", card_remove, CardRemoveOptions, "Remove a card from the catalog"),
        _a("start", start, StartOptions, "Start a game: starting cards, shuffle, luck card, hand"),
        _a("move", move, MoveOptions, "Step 1: move the hero token (steps 2-3 follow)"),
        _a("continue", continue_turn, ContinueOptions, "Go on to the next mandatory step"),
        _a("report", report, ReportOptions, "Physical deck: report the card(s) you drew"),
        _a("end", end, EndOptions, "Step 10: cycle the hand to the source limit and end the turn"),
        _a("attack", attack, AttackOptions, "Battle: a hero uses one item against an enemy"),
        _a("pass", pass_round, PassOptions, "Battle: a hero uses no item this round"),
        _a("buy", buy, BuyOptions, "Purchase an acknowledged card by cycling hand cards"),
        _a("use", use, UseOptions, "Use an item (flip it face-down)"),
        _a("switch", switch, SwitchOptions, "Switch an item to another hero"),
        _a("attach", attach, AttachOptions, "Attach a spell-song to an item"),
        _a("bonus", bonus, BonusOptions, "Check or claim a harmonic, discordant or good luck bonus"),
        _a("search", search, SearchOptions, "Search the deck (a card rule)"),
        _a("put", put, PutOptions, "Move a card as a card rule says"),
        _a("win", win, WinOptions, "Claim victory by the End of Demo card"),
        _a("harmonic", harmonic, HarmonicOptions, "Harmonic or discordant order, and why", logged=False),
        _a("luck", luck, LuckOptions, "The luck result for three cards, or the table's again", logged=False),
        _a("odds", odds, OddsOptions, "Exact odds of good luck and harmonic order for the next draw", logged=False),
        _a("table", show_table, TableOptions, "Show the table", logged=False),
        _a("deck", deck, DeckOptions, "GM: the deck's order (secret)", gm_only=True, logged=False),
    )
}
