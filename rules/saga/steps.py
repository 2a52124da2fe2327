"""Where a turn stands: what the step pointer expects, the card rules in force, and step 10's prompt.

The turn, its battle, the optional steps and the bonuses all read these, so they sit below every one of
them and import none of them.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.saga.area import Ctx, acknowledged, location, source_limit
from rules.saga.book import CardDef
from rules.saga.hints import how_to
from rules.saga.state import Game
from rules.text import fold

EXPECTS = {
    1: "`/saga move to:<place>` (step 1: move the hero token)",
    3: "`/saga continue` once the place's mandatory (~) rules are followed (step 3)",
    4: "`/saga report card:<name>`: the card you drew into hand (step 4)",
    8: "`/saga continue` to acknowledge or ignore the action cards (step 8)",
    9: "the battle (step 9): `/saga attack item:<item> enemy:<enemy>` or `/saga pass`",
}


def expects(ctx: Ctx) -> str:
    """What the step pointer waits for, as the command that does it in this game (its draws, its hand)."""
    game = ctx.game
    if game.step == 5:
        return _expects_action_draw(game)
    if game.step == 10:
        return end_command(ctx)
    return EXPECTS.get(game.step, f"step {game.step}")


def _expects_action_draw(game: Game) -> str:
    """Step 5 waits only for a reported draw, or (the bot's deck) for a kismetic draw to be placed."""
    several = len(game.heroes) > 1
    if game.draws == "reported":
        spot = " spot:<hero>" if several else ""
        return f"`/saga report card:<name>{spot}`: the action card(s) you drew (step 5)"
    open_spots = [h.name for h in game.heroes if not any(fold(a.hero) == fold(h.name) for a in game.action)]
    card = game.pending or "the drawn card"
    spot = f'"{open_spots[0]}"' if len(open_spots) == 1 else "<hero>"
    return f"`/saga continue spot:{spot}` to place {card} in a hero's action spot (step 5: {', '.join(open_spots)})"


def loses_at_end(ctx: Ctx) -> bool:
    """S1 (L85): step 10 keeps min(hand, source limit) cards, so the turn ends with none exactly when that is 0."""
    return min(len(ctx.game.hand), source_limit(ctx)) == 0


def loss_reason(ctx: Ctx) -> str:
    """Why ending now loses: the hand is empty, or a source limit of 0 cycles all of it."""
    return "your hand is empty" if not ctx.game.hand else "the source limit is 0, so step 10 cycles your whole hand"


def loss_warning(ctx: Ctx) -> str:
    return f"{loss_reason(ctx)}, and a turn that ends with no cards in hand loses the game"


def end_line(ctx: Ctx) -> str:
    """`/saga end` as the player would send it: `cycle:` only when the hand is over the source limit, naming that
    many of the player's own cards as the example."""
    hand = ctx.game.hand
    need = len(hand) - source_limit(ctx)
    return f'`/saga end cycle:"{", ".join(hand[:need])}"`' if need > 0 else "`/saga end`"


def end_command(ctx: Ctx) -> str:
    """Step 10 as the footer and the refusals name it, with a warning when ending now loses the game."""
    try:
        limit = source_limit(ctx)
    except RuleError:  # a hero card missing from the catalog: the post that tries to end says which
        return "`/saga end` (step 10: cycle the hand down to the source limit)"
    hand = len(ctx.game.hand)
    if hand > limit:
        return (
            f"{end_line(ctx)} (step 10: cycle any {hand - limit} of your {hand} hand cards, your choice, "
            f"down to the source limit {limit})"
        )
    if loses_at_end(ctx):
        return f"`/saga end` (step 10), but {loss_warning(ctx)}"
    return f"`/saga end` (step 10: the hand, {hand}, is within the source limit {limit})"


def end_question(ctx: Ctx) -> str | None:
    """Asked before `/saga end` runs when it would lose the game, so an empty hand is never ended by accident."""
    if ctx.game.outcome != "playing" or ctx.game.step != 10 or ctx.game.wanted_draw is not None:
        return None
    if not loses_at_end(ctx):
        return None
    return (
        f"Ending turn {ctx.game.turn} now loses the game: {loss_reason(ctx)}, and a turn that ends with no cards in "
        "hand is lost. A card rule that moves a card into hand comes first (`/saga put card:<card> to:hand reason:…`)."
    )


def at_step(ctx: Ctx, *steps: int, doing: str) -> None:
    """Refuse an action out of order, naming the step the table is at and what it expects."""
    if ctx.game.wanted_draw is not None:
        raise RuleError(
            f"Not now: {doing} waits for the draw you are reporting ({ctx.game.wanted_draw}): "
            "`/saga report card:<name>`."
        )
    if ctx.game.step not in steps:
        raise RuleError(
            f"Not now: {doing} comes at step {'/'.join(map(str, steps))}. "
            f"Turn {ctx.game.turn} is at step {ctx.game.step}; it expects {expects(ctx)}."
        )


def in_force(ctx: Ctx, card: CardDef) -> bool:
    """L182: a card's rules are followed in the play area, or acknowledged in hand or action pile."""
    where = location(ctx.game, card.name)
    if where is None or where == "deck":
        return False
    return where not in ("hand", "action") or acknowledged(ctx, card)


def rules_in_force(ctx: Ctx, kind: str) -> list[tuple[str, str]]:
    """(card, rule) for every card whose rules are followed now (L182): the play area, acknowledged hand/action.

    The place pile's cards are followed where they apply: a place card while it is the current place (step 3,
    L382: "the current place card"), a folk card while its place is visited (L294).
    """
    game = ctx.game
    names = list(game.story) + [a.name for a in game.action] + list(game.hand)
    for hero in game.heroes:
        names += [hero.name] + [i.name for i in hero.items] + [s for i in hero.items for s in i.songs]
    for spot in game.places:
        names += spot.stack[:1] + spot.attached
    out = []
    for name in dict.fromkeys(names):
        card = ctx.state.card(name)
        if card is None or not in_force(ctx, card) or not _applies_here(ctx, card):
            continue
        out.extend((card.name, rule) for rule in getattr(card, kind))
    return out


def _applies_here(ctx: Ctx, card: CardDef) -> bool:
    """A card of the place pile is followed where it is visited: a place card (a stack top or a room) while it
    is the current place; a folk card attached to a stack while the token is on that stack's top (L294)."""
    game = ctx.game
    where = location(game, card.name) or ""
    if where.startswith("place:") or (where.startswith("attached:") and card.type == "place"):
        return fold(card.name) == fold(game.visiting)
    if where.startswith("attached:"):
        return int(where.split(":")[1]) - 1 == game.token_spot and game.token_room is None and game.visiting != ""
    return True


def end_prompt(ctx: Ctx) -> str:
    """Step 10's prompt, with any "at end of turn" rule in force to resolve first (F-R34)."""
    limit, hand = source_limit(ctx), len(ctx.game.hand)
    timed = [
        " ".join([f"{name}: {rule}", *how_to(ctx, rule, name, card=name)])
        for name, rule in rules_in_force(ctx, "optional") + rules_in_force(ctx, "mandatory")
        if "end of turn" in rule.casefold()
    ]
    first = f" First, rules at end of turn: {' '.join(timed)}" if timed else ""
    if hand > limit:
        return (
            f"Step 10: the hand has {hand} cards, the source limit is {limit}: cycle any {hand - limit} of them "
            f"(your choice), e.g. {end_line(ctx)}.{first}"
        )
    if loses_at_end(ctx):
        return (
            f"Step 10: {loss_warning(ctx)}. A card rule that moves a card into hand comes first "
            f"(`/saga put card:<card> to:hand reason:…`); `/saga end` asks before it ends the game.{first}"
        )
    return f"Step 10: the hand has {hand} card(s), within the source limit {limit}: `/saga end`.{first}"
