"""Who may answer a manifesting effect ("Fasul!"), and with which Response spells.

Response spells need no preparation. A Response that is not also a Free Action
costs an interrupt stone, and a Magi holding two cannot cast one (glossary
"Interrupt Stone"). A window only waits for Magi who hold a Response that fits
the effect and that they could pay for (counting a possible energy exchange).
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.aspects import boosts, free_action
from rules.serpent.book import Energy, Spell
from rules.serpent.context import Ctx
from rules.serpent.control import prevented
from rules.serpent.energy import shortfall
from rules.serpent.requirements import plan_cast
from rules.serpent.state import Being, Effect


def resonance_needed(ctx: Ctx, being: Being, spell: Spell, target: str | None = None) -> int | None:
    """Resonance the orb asks after boosts (None when the book does not give the orb)."""
    if spell.resonance is None:
        return None if spell.needs("resonance") else 0
    boost, _ = boosts(ctx, being, spell, target)
    return max(0, -(spell.resonance + boost.add_resonance))


def exchange_resonance(ctx: Ctx, being: Being) -> int:
    """The Resonance an unused energy exchange could still bring."""
    if being.exchanged:
        return 0
    best = 0
    for option in ctx.book.rules.exchanges:
        held = being.will if option.give == "Will" else being.voice if option.give == "Voice" else 0
        if held >= option.amount:
            best = max(best, option.gains.get("Resonance", 0))
    return best


def cost_problem(ctx: Ctx, being: Being, spell: Spell) -> str | None:
    """Why this Magi could not pay for or meet the Response's casting requirements now (issue 13: a window
    waits only on Magi who could cast one): its Resonance orb and paid requirements (an unused energy exchange
    counted), Essence and Will costs, Components, charges, Focus."""
    costs: dict[Energy, int] = {}
    try:
        costs = dict(plan_cast(ctx, being, spell, being.key, None).costs)
    except RuleError as error:
        if not any(req.kind == "active_on_bearer" for req in spell.requirements):
            return str(error).rstrip(".")
        # it depends on the bearer the Response is aimed at: the cast itself decides
    resonance = (resonance_needed(ctx, being, spell) or 0) + costs.pop("Resonance", 0)
    if resonance and being.resonance + exchange_resonance(ctx, being) < resonance:
        return f"{spell.title} costs {resonance} Resonance and {being.name} has {being.resonance}"
    short = shortfall(being, costs)
    if short:
        return f"{spell.title} needs {short}"
    focus_bound = spell.duration is not None and spell.duration.kind == "F"
    if focus_bound and being.focus_total < 1 and not any(u.boost.sealed for u in spell.upgrades):
        return f"{spell.title} has Duration F and {being.name} has no Focus"
    return None


def effect_area(ctx: Ctx, effect: Effect) -> bool:
    if effect.impact is not None:
        return bool(effect.impact.area)
    if effect.card is not None:
        return bool(ctx.spell(ctx.card(effect.card).title).area)
    return False


def response_problem(ctx: Ctx, being: Being, spell: Spell, effect: Effect) -> str | None:
    """Why this Magi cannot answer this effect with this Response, or None if they can."""
    if not spell.response:
        return f"{spell.title} is not a Response"
    if effect.veiled:
        return f"{effect.title} is Veiled: no one can respond to it"
    blocked = prevented(ctx, being, spell)
    if blocked:
        return blocked
    if being.incapacitated:
        return f"{being.name} is incapacitated"
    if spell.title in being.miscast_titles:
        return f"{being.name} miscast {spell.title} this turn"
    if not free_action(ctx, being, spell) and being.stones >= ctx.book.rules.max_interrupt_stones:
        return f"{being.name} already holds {being.stones} interrupt stones"
    problem = cost_problem(ctx, being, spell)
    if problem:
        return problem
    if spell.role == "Abjuration" and spell.dispel and spell.dispel.targets in ("manifesting", "both"):
        if not effect.is_spell:
            return f"{effect.title} is not a manifesting spell (abilities and maintenance impacts cannot be Dispelled)"
        return None
    if spell.defense == "Evade":
        if not effect.offensive or effect_area(ctx, effect):
            return "Evades dodge targeted offensive effects, never Area ones"
        team = {m.key for m in ctx.battle.team_members(being.team)} if spell.area else {being.key}
        if effect.target_kind != "being" or effect.target not in team:
            whom = (
                f"{being.name}'s team (an Area Evade)" if spell.area else f"{being.name} (an Evade is for its caster)"
            )
            return f"{effect.title} does not target {whom}"
        sphere = (
            effect.impact.sphere
            if effect.impact
            else (ctx.spell(ctx.card(effect.card).title).sphere if effect.card else None)
        )
        if spell.evade_spheres and sphere not in spell.evade_spheres:
            return f"{spell.title} does not evade {sphere or 'sphere-less'} effects"
    return None


def response_options(ctx: Ctx, being: Being, effect: Effect) -> list[str]:
    titles: list[str] = []
    for card in ctx.battle.cards.values():
        if card.owner != being.key or card.location not in ("codex", "prepared"):
            continue
        spell = ctx.spell(card.title)
        if spell.title in titles or not spell.response:
            continue
        if response_problem(ctx, being, spell, effect) is None:
            titles.append(spell.title)
    return titles
