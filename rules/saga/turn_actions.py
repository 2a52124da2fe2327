"""`/saga start`, the mandatory steps (`move`, `continue`, `report`, `end`), victory and the battle commands."""

from typing import Literal

from pydantic import Field

from rules.base import Confirmable, Model, Outcome, RuleError, Table
from rules.saga import battle, steps, turn
from rules.saga.area import Ctx, game_of
from rules.saga.posts import names, turn_ctx, turn_outcome
from rules.saga.sheet import ensure_character
from rules.saga.state import SagaState
from rules.text import fold

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
    if record.owner_id != table.actor.user_id:
        notes.append(f"A GM started it for the player of {record.name}, who plays it.")
    notes.extend(turn.deal(ctx))
    notes.append("Turn 1: `/saga move to:<place>` (step 1).")
    return turn_outcome(ctx, "Spell Saga: setup", notes, f"started a game with {len(deck)} cards")


# ---------------------------------------------------------------- the turn


class MoveOptions(Model):
    to: str | None = Field(default=None, max_length=80, description="An adjacent place (leave out to list them)")


def move(table: Table, options: MoveOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = turn.move(ctx, options.to)
    return turn_outcome(ctx, f"Turn {ctx.game.turn}: move", notes, f"moved to {ctx.game.visiting}")


class ContinueOptions(Model):
    spot: str | None = Field(
        default=None, max_length=80, description="Kismetic order: the hero whose spot takes the card"
    )


def continue_turn(table: Table, options: ContinueOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = turn.continue_turn(ctx, options.spot)
    return turn_outcome(ctx, f"Turn {ctx.game.turn}: step {ctx.game.step}", notes, f"continued to step {ctx.game.step}")


class ReportOptions(Model):
    card: str = Field(min_length=1, max_length=1500, description="The card(s) you drew, comma-separated")
    spot: str | None = Field(default=None, max_length=80, description="Several heroes: whose action spot")


def report(table: Table, options: ReportOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = turn.report(ctx, names(options.card), options.spot)
    return turn_outcome(ctx, f"Report: turn {ctx.game.turn}", notes, f"reported {options.card}")


class EndOptions(Confirmable):
    cycle: str | None = Field(default=None, max_length=1500, description="Hand cards to cycle down to the source limit")


def end_question(table: Table, options: EndOptions) -> str | None:
    """`Action.confirm`: ending a turn that would leave no card in hand loses the game (L85), so it asks first."""
    state: SagaState = table.state
    if state.game is None:
        return None  # the run says there is no game
    try:
        return steps.end_question(game_of(table))
    except RuleError:  # the run gives the refusal (a card missing from the catalog)
        return None


def end(table: Table, options: EndOptions) -> Outcome:
    ctx = turn_ctx(table)
    turn_number = ctx.game.turn
    notes = turn.end_turn(ctx, names(options.cycle))
    return turn_outcome(
        ctx,
        f"Turn {turn_number}: end",
        notes,
        f"ended turn {turn_number}" + (" (lost)" if ctx.game.outcome == "lost" else ""),
    )


class WinOptions(Model):
    card: str = Field(min_length=1, max_length=80, description="The End of Demo card")


def win(table: Table, options: WinOptions) -> Outcome:
    ctx = turn_ctx(table)
    notes = turn.win(ctx, options.card)
    return turn_outcome(ctx, "Victory", notes, "won the game")


# ---------------------------------------------------------------- battle


class AttackOptions(Model):
    item: str | None = Field(default=None, max_length=80, description="The attached item to use")
    song: str | None = Field(default=None, max_length=80, description="Or a spell-song (hand, action pile, attached)")
    enemy: str | None = Field(default=None, max_length=80, description="The enemy to attack")
    hero: str | None = Field(default=None, max_length=80, description="The hero using the item")
    # cites F-R25
    value: int | None = Field(default=None, ge=0, le=99, description="The attack of an item that prints none")
    damage: str | None = Field(default=None, max_length=1500, description="GM: the hand cards the damage takes")


def _gm_damage(ctx: Ctx, damage: str | None) -> None:
    """A GM may draw the damage cards at the table instead of the bot's random pick (as runic's `dice:`)."""
    if damage is not None:
        ctx.table.require_gm("Choosing the damage cards")
        ctx.gm_damage = names(damage)


def _damage_used(ctx: Ctx) -> None:
    if ctx.gm_damage is not None and not ctx.damage_drawn:
        raise RuleError("No damage is drawn by this action (it comes at the end of the round); leave damage out.")


def attack(table: Table, options: AttackOptions) -> Outcome:
    ctx = turn_ctx(table)
    _gm_damage(ctx, options.damage)
    notes = battle.attack(ctx, options.hero, options.item, options.enemy, options.value, options.song)
    _damage_used(ctx)
    return turn_outcome(ctx, "Battle: attack", notes, f"attacked with {options.item or options.song}")


class PassOptions(Model):
    hero: str | None = Field(default=None, max_length=80, description="The hero who passes this round")
    damage: str | None = Field(default=None, max_length=1500, description="GM: the hand cards the damage takes")


def pass_round(table: Table, options: PassOptions) -> Outcome:
    ctx = turn_ctx(table)
    _gm_damage(ctx, options.damage)
    notes = battle.pass_round(ctx, options.hero)
    _damage_used(ctx)
    return turn_outcome(ctx, "Battle: pass", notes, "passed a battle round")
