"""Checks on demand: `harmonic`, `luck`, `odds`, the table, and the GM's look at the deck."""

from typing import Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table
from rules.saga import bonus, turn
from rules.saga.area import game_of, source_limit
from rules.saga.book import read_color
from rules.saga.cards import kismet_fields, public_data, table_card
from rules.saga.harmony import LUCK_WORDS, View, card_order, color_order, luck_check
from rules.saga.odds import next_draw_odds
from rules.saga.posts import names as split_names
from rules.saga.state import SagaState
from rules.saga.steps import expects
from rules.text import DESCRIPTION, clip

# ---------------------------------------------------------------- checks on demand

NAME_SOME = 'Name colors or cards, comma-separated (cards:"B, V, R" or cards:"<card>, <card>"), or a pile (pile:place).'


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
        shown, order = bonus.pile_order(game_of(table), options.pile, options.hero)
    elif not options.cards:
        raise RuleError(NAME_SOME)
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
    parts = split_names(text) if "," in text else text.split()
    if not parts:  # only commas or blanks: no sequence to read (an empty one would read as "harmonic")
        raise RuleError(NAME_SOME)
    try:
        colors = [read_color(p) for p in parts]
    except RuleError:
        colors = []
    if colors:
        return [c.upper() for c in colors], color_order(colors)
    views = []
    for name in split_names(text):
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
        names = split_names(options.cards)
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
        description=clip("\n".join(f"{i + 1}. {n}" for i, n in enumerate(order)), DESCRIPTION) or "empty",
        tone="secret",
    )
    return Outcome(
        card=Card(title="The deck", description=f"{len(order)} cards; the order went to the GM."),
        summary="GM looked at the deck",
        data={"deck_count": len(order)},
        secret=secret,
        ephemeral=True,
    )


class NudgeOptions(Model):
    pass


def nudge(table: Table, options: NudgeOptions) -> Outcome:
    """The GM's reminder, by hand, that a battle round or step 10 waits (the core's reminders ping on their own)."""
    ctx = game_of(table)
    game = ctx.game
    if not game.waits_for_player():
        raise RuleError(f"Nothing to nudge: turn {game.turn} is at step {game.step}.")
    game.nudged = True
    card = Card(
        title="⏰ Your Spell Saga table is waiting",
        description=f"Turn {game.turn} waits at step {game.step}: {expects(ctx)}.",
        tone="warning",
    )
    return Outcome(card=card, summary=f"nudged: turn {game.turn} step {game.step}", data={"step": game.step})
