"""Turns in the action phase and the response windows that interrupt them.

A turn is one action, Full or Free; then play passes to the next being in
initiative order who has not passed (glossary "Free Action (action type)",
"Turn"). A response window stays open while any Magi who could respond has
not passed (or until the GM closes it in play-by-post).
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.aspects import bearers, free_action
from rules.serpent.context import Ctx
from rules.serpent.responses import response_options
from rules.serpent.state import Being, CardState, Effect


def next_turn(ctx: Ctx) -> None:
    """Pass the turn to the next being in initiative order who can still act (possibly the same one)."""
    b = ctx.battle
    b.turn_count += 1
    for being in b.beings.values():
        being.miscast_titles = []  # "this turn" is over
    if not b.order or b.turn is None:
        b.turn = None
        return
    size = len(b.order)
    for step in range(1, size + 1):
        index = (b.turn + step) % size
        being = b.beings[b.order[index]]
        if not being.passed and not being.incapacitated:
            b.turn = index
            return
    b.turn = None


def require_turn(ctx: Ctx, being: Being, what: str) -> None:
    """Turn actions need the action phase, this being's turn and no open response window."""
    b = ctx.battle
    if b.phase != "actions":
        raise RuleError(f"{what} happens in the action phase; the battle is in the {b.phase} phase.")
    if b.stack:
        top = b.stack[-1]
        raise RuleError(
            f"A response window is open on {top.title}: respond with /serpent respond or pass with /serpent pass first."
        )
    current = b.current()
    if being.spell_loss is not None:
        raise RuleError(f"{being.name} must first choose their {being.spell_loss.describe()} with /serpent lose.")
    if being.incapacitated:
        raise RuleError(f"{being.name} is incapacitated and cannot act.")
    if current is None or current.key != being.key:
        now = current.name if current else "nobody (the round is over)"
        raise RuleError(f"It is not {being.name}'s turn: it is {now}'s turn.")


def spend_full_action(ctx: Ctx, being: Being, rite: CardState | None = None) -> None:
    """Glossary "# Actions": "If the player takes a Full Action for anything (including clearing an interrupt stone)
    other than advancing a Rite zone spells, all spells in the Rite zone are discarded." """
    being.full_actions -= 1
    if rite is not None:
        return
    for card in ctx.battle.cards_in("rite", being.key):
        discard_rite(ctx, card, f"{being.name} took a Full Action for something else")


def discard_rite(ctx: Ctx, card: CardState, why: str) -> None:
    card.location = "discard"
    card.rite_actions = 0
    card.rite_spoken = None
    ctx.j.say(f"{card.title} (#{card.id}) leaves the Rite zone and is discarded: {why}.", "discard", card=card.id)


def require_full_action(being: Being) -> None:
    if being.full_actions <= 0:
        raise RuleError(f"{being.name} has no Full Actions left this round; take a Free Action or /serpent end-turn.")
    if being.stones:
        raise RuleError(
            f"{being.name} holds {being.stones} interrupt stone(s): the next Full Action must shed one "
            "(/serpent shed-stone), or take a Free Action."
        )


def free_options(ctx: Ctx, being: Being) -> list[str]:
    """Prepared Free Action spells and unused Free Action abilities: what keeps a Magi from auto-passing."""
    out = []
    for card in ctx.battle.cards_in("prepared", being.key):
        spell = ctx.spell(card.title)
        free = (free_action(ctx, being, spell) and spell.actions == 1) or spell.absolute_free_action
        if free and not spell.response:
            out.append(card.title)
    for card in ctx.battle.active():
        if being.key not in bearers(ctx, card):
            continue
        for ability in ctx.spell(card.title).abilities:
            if ability.free_action and (
                ability.per_round is None or card.ability_uses.get(ability.name, 0) < ability.per_round
            ):
                out.append(ability.name)
    return out


def should_auto_pass(ctx: Ctx, being: Being) -> bool:
    if not ctx.settings.auto_pass or being.full_actions > 0:
        return False
    return not free_options(ctx, being)


def priority_holder(ctx: Ctx, effect: Effect) -> str | None:
    """The Magi who casts a spell (or activates an ability) answers it first (glossary "Priority").

    She holds priority while she could still respond and has not passed; only then
    do the others "race for the option to be the next to reply". A window that
    reopens beneath a resolved Response does not give it back once she has passed.
    """
    if effect.kind not in ("spell", "ability") or effect.veiled:
        return None
    caster = ctx.battle.beings.get(effect.caster)
    if effect.priority_over or effect.caster in effect.passed or caster is None or not caster.is_magi:
        return None
    return caster.key if response_options(ctx, caster, effect) else None


def window_waiting(ctx: Ctx, effect: Effect) -> list[str]:
    """Magi who could still respond to this effect and have not passed: the caster alone while she has priority."""
    if effect.veiled:
        return []  # glossary "Veiled": "No one can respond to a Veiled spell or ability."
    holder = priority_holder(ctx, effect)
    if holder is not None:
        return [holder]
    waiting = []
    for being in ctx.battle.beings.values():
        if being.key in effect.passed or not being.is_magi:
            continue
        if response_options(ctx, being, effect):
            waiting.append(being.key)
    return waiting
