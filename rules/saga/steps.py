"""Where a turn stands: what the step pointer expects, the card rules in force, and step 10's prompt.

The turn, its battle, the optional steps and the bonuses all read these, so they sit below every one of
them and import none of them.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.saga.area import Ctx, acknowledged, location, source_limit
from rules.saga.book import CardDef
from rules.saga.state import Game

EXPECTS = {
    1: "`/saga move to:<place>` (step 1: move the hero token)",
    3: "`/saga continue` once the place's mandatory (~) rules are followed (step 3)",
    4: "`/saga report card:<name>`: the card you drew into hand (step 4)",
    5: "the action draw (step 5): `/saga continue spot:<hero>` to place the drawn card, or `/saga report`",
    8: "`/saga continue` to acknowledge or ignore the action cards (step 8)",
    9: "the battle (step 9): `/saga attack item:<item> enemy:<enemy>` or `/saga pass`",
    10: '`/saga end cycle:"<card>, <card>"` (step 10: cycle the hand down to the source limit)',
}


def expects(game: Game) -> str:
    return EXPECTS.get(game.step, f"step {game.step}")


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
            f"Turn {ctx.game.turn} is at step {ctx.game.step}; it expects {expects(ctx.game)}."
        )


def in_force(ctx: Ctx, card: CardDef) -> bool:
    """L182: a card's rules are followed in the play area, or acknowledged in hand or action pile."""
    where = location(ctx.game, card.name)
    if where is None or where == "deck":
        return False
    return where not in ("hand", "action") or acknowledged(ctx, card)


def rules_in_force(ctx: Ctx, kind: str) -> list[tuple[str, str]]:
    """(card, rule) for every card whose rules are followed now (L182): the play area, acknowledged hand/action."""
    game = ctx.game
    names = list(game.story) + [a.name for a in game.action] + list(game.hand)
    for hero in game.heroes:
        names += [hero.name] + [i.name for i in hero.items] + [s for i in hero.items for s in i.songs]
    for spot in game.places:
        names += spot.stack[:1] + spot.attached
    out = []
    for name in dict.fromkeys(names):
        card = ctx.state.card(name)
        if card is not None and in_force(ctx, card):
            out.extend((card.name, rule) for rule in getattr(card, kind))
    return out


def end_prompt(ctx: Ctx) -> str:
    """Step 10's prompt, with any "at end of turn" rule in force to resolve first (F-R34)."""
    limit, hand = source_limit(ctx), len(ctx.game.hand)
    timed = [
        f"{name}: {rule}"
        for name, rule in rules_in_force(ctx, "optional") + rules_in_force(ctx, "mandatory")
        if "end of turn" in rule.casefold()
    ]
    first = f" First, rules at end of turn: {' '.join(timed)}" if timed else ""
    if hand > limit:
        return (
            f"Step 10: the hand has {hand} cards, the source limit is {limit}: "
            f'`/saga end cycle:"…"` naming {hand - limit}.{first}'
        )
    return f"Step 10: the hand has {hand} card(s), within the source limit {limit}: `/saga end`.{first}"
