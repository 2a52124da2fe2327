"""The "!" requirements field: what casting (or sustaining) a spell needs besides its orbs.

Most requirements need the caster to control what they use ("Discard Matter
Component", "Discard a Karma charge"); "on bearer" requirements accept anyone's
spell on the bearer (glossary "Requirements"). Sustain requirements are only
checked in maintenance (Crucible Update).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.base import RuleError
from rules.serpent.aspects import bearers
from rules.serpent.book import Energy, Requirement, Spell, number_of
from rules.serpent.context import Ctx
from rules.serpent.state import Being, CardState
from rules.text import fold


@dataclass
class Plan:
    """What paying a spell's requirements will take, worked out before anything changes."""

    costs: dict[Energy, int] = field(default_factory=dict)
    sacrifice: list[CardState] = field(default_factory=list)
    charges: list[tuple[CardState, str, int]] = field(default_factory=list)
    burn_focus: int = 0
    notes: list[str] = field(default_factory=list)

    def add_cost(self, energy: Energy, amount: int) -> None:
        self.costs[energy] = self.costs.get(energy, 0) + amount


def _spell_matches(ctx: Ctx, card: CardState, req: Requirement) -> bool:
    spell = ctx.spell(card.title)
    if req.sphere and spell.sphere != req.sphere:
        return False
    if req.descriptor and req.descriptor.casefold() not in (d.casefold() for d in spell.descriptors):
        return False
    return not (req.role and spell.role != req.role)


def components(ctx: Ctx, caster: Being, req: Requirement) -> list[CardState]:
    return [
        c
        for c in ctx.battle.active()
        if c.controller == caster.key and ctx.spell(c.title).role == "Component" and _spell_matches(ctx, c, req)
    ]


def on_bearer(ctx: Ctx, bearer: str, req: Requirement, exclude: int | None = None) -> list[CardState]:
    return [
        c for c in ctx.battle.active() if c.id != exclude and bearer in bearers(ctx, c) and _spell_matches(ctx, c, req)
    ]


def discard_problem(ctx: Ctx, caster: Being, req: Requirement) -> str | None:
    """Glossary "Attunement": at least one spell of the Sphere in the discard pile. "Dominance": more of that
    Sphere than of any other ("the largest minority, not the majority")."""
    counts: dict[str, int] = {}
    for card in ctx.battle.cards_in("discard", caster.key):
        sphere = ctx.spell(card.title).sphere
        if sphere:
            counts[sphere] = counts.get(sphere, 0) + 1
    mine = counts.get(req.sphere or "", 0)
    if req.kind == "attunement" and mine < 1:
        return f"{caster.name} has no {req.sphere} spell in their discard pile."
    if req.kind == "dominance":
        rival = max((n for s, n in counts.items() if s != req.sphere), default=0)
        if mine <= rival:
            listed = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "nothing"
            return f"{caster.name}'s discard pile holds {listed}: {req.sphere} must outnumber every other Sphere."
    return None


def plan_cast(ctx: Ctx, caster: Being, spell: Spell, bearer: str | None, component: str | None) -> Plan:
    """Check every casting requirement; raise a RuleError that says what is missing."""
    plan = Plan()
    number = number_of(component) if component else None
    chosen = fold(component) if component and number is None else None
    used = False
    for req in spell.requirements:
        if not req.at_cast():
            continue
        if req.kind == "pay_essence":
            plan.add_cost("Essence", req.amount)
        elif req.kind == "pay_will":
            plan.add_cost("Will", req.amount)
        elif req.kind == "pay_resonance":
            plan.add_cost("Resonance", req.amount)
        elif req.kind == "discard_component":
            options = [c for c in components(ctx, caster, req) if c not in plan.sacrifice]
            if component:
                named = [c for c in options if c.id == number or fold(c.title) == chosen]
                used = used or bool(named)
                options = named + [c for c in options if c not in named]
            if len(options) < req.amount:
                raise RuleError(f"{spell.title} requires: {req.text}. {caster.name} controls no such active Component.")
            plan.sacrifice.extend(options[: req.amount])
        elif req.kind == "discard_charge":
            kind = req.charge or "?"
            source = next(
                (c for c in ctx.battle.active() if c.controller == caster.key and c.charges.get(kind, 0) >= req.amount),
                None,
            )
            if source is None:
                raise RuleError(
                    f"{spell.title} requires: {req.text}. "
                    f"{caster.name} controls no spell with {req.amount} {kind} charge(s)."
                )
            plan.charges.append((source, kind, req.amount))
        elif req.kind in ("attunement", "dominance"):
            problem = discard_problem(ctx, caster, req)
            if problem:
                raise RuleError(f"{spell.title} requires: {req.text}. {problem}")
        elif req.kind == "burn_focus":
            plan.burn_focus += req.amount
            if caster.focus_total < plan.burn_focus:
                raise RuleError(f"{spell.title} requires: {req.text}. {caster.name} has no Focus left to burn.")
        elif req.kind == "active_on_bearer":
            if not bearer or not on_bearer(ctx, bearer, req):
                raise RuleError(f"{spell.title} requires: {req.text}. The bearer has no such active spell.")
        elif req.kind == "active" and not any(
            c.controller == caster.key and _spell_matches(ctx, c, req) for c in ctx.battle.active()
        ):
            raise RuleError(f"{spell.title} requires: {req.text}. {caster.name} controls no such active spell.")
    if component and not used:
        if not any(req.kind == "discard_component" for req in spell.requirements):
            raise RuleError(f"{spell.title} discards no Component: leave out component:.")
        offered = [
            c for req in spell.requirements if req.kind == "discard_component" for c in components(ctx, caster, req)
        ]
        listed = ", ".join(f"{c.title} (#{c.id})" for c in offered) or "none"
        raise RuleError(
            f"component: {component!r} is not a Component {caster.name} could discard for {spell.title}. "
            f"Could discard: {listed}."
        )
    return plan


def sustain_problem(ctx: Ctx, card: CardState, spell: Spell) -> str | None:
    """Sustain requirements, checked when the spell resolves in maintenance."""
    for req in spell.requirements:
        if not req.at_sustain():
            continue
        if req.kind == "active_on_bearer":
            if not any(on_bearer(ctx, b, req, exclude=card.id) for b in bearers(ctx, card)):
                return req.text
        elif req.kind == "active" and not any(
            c.controller == card.controller and c.id != card.id and _spell_matches(ctx, c, req)
            for c in ctx.battle.active()
        ):
            return req.text
    return None
