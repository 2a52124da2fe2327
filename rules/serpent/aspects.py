"""A spell's aspects as they stand now: the card plus upgrades, Spec abilities and passive effects in play.

Boosts are read when they matter (cost when paying, Duration when activating,
Dmg and Subtle when impacting), so a Flame Form that is dispelled before a Heat
Attack impacts no longer adds its Dmg.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.book import Amount, Boost, Spell, SpellFilter
from rules.serpent.context import Ctx
from rules.serpent.state import Being, CardState, Impact


def matches(spell: Spell, flt: SpellFilter | None) -> bool:
    if flt is None:
        return False
    if flt.title and spell.title.casefold() != flt.title.casefold():
        return False
    if flt.sphere and spell.sphere != flt.sphere:
        return False
    if flt.descriptor and flt.descriptor.casefold() not in (d.casefold() for d in spell.descriptors):
        return False
    if flt.role and spell.role != flt.role:
        return False
    return not (flt.shape_shift is not None and spell.shape_shift != flt.shape_shift)


def add(a: Boost, b: Boost) -> Boost:
    return Boost(
        add_dmg=a.add_dmg + b.add_dmg,
        add_duration=a.add_duration + b.add_duration,
        add_resonance=a.add_resonance + b.add_resonance,
        refined=a.refined or b.refined,
        subtle=a.subtle or b.subtle,
        free_action=a.free_action or b.free_action,
        pierce=a.pierce + b.pierce,
        shatter=a.shatter + b.shatter,
        sealed=a.sealed or b.sealed,
    )


def bearers(ctx: Ctx, card: CardState) -> list[str]:
    """Who bears an active spell: its bearer, or every member of the team zone it sits in."""
    if card.team is not None:
        return [b.key for b in ctx.battle.team_members(card.team)]
    if card.global_area:
        return list(ctx.battle.beings)
    return [card.bearer] if card.bearer else []


def spec_boosts(ctx: Ctx, caster: Being, spell: Spell) -> list[tuple[str, Boost]]:
    """The caster's Specialization: its initiate ability and unlocked tiers (only their own spells)."""
    if not caster.spec or not caster.spec_active:
        return []
    spec = ctx.book.specialization(caster.spec)
    if spec is None:
        return []
    found: list[tuple[str, Boost]] = []
    if spec.initiate_boost and matches(spell, spec.initiate_applies_to):
        found.append((f"{spec.name} (Initiate)", spec.initiate_boost))
    for label in caster.spec_tiers:
        tier = spec.tier(label[0], int(label[1]))
        if tier and tier.boost and matches(spell, tier.applies_to):
            found.append((f"{spec.name} {tier.name or label}", tier.boost))
    return found


def passive_boosts(ctx: Ctx, caster: Being, spell: Spell, target: str | None) -> list[tuple[str, Boost]]:
    """Passives in play: the caster's own Enhancements, and Curses the caster controls on the target."""
    found: list[tuple[str, Boost]] = []
    for card in ctx.battle.active():
        source = ctx.spell(card.title)
        for passive in source.passives:
            if not matches(spell, passive.applies_to):
                continue
            if (passive.kind == "boost_bearer_spells" and caster.key in bearers(ctx, card)) or (
                passive.kind == "boost_against_bearer"
                and card.controller == caster.key
                and target is not None
                and target in bearers(ctx, card)
            ):
                found.append((card.title, passive.boost))
    return found


def boosts(
    ctx: Ctx, caster: Being, spell: Spell, target: str | None, card: CardState | None = None
) -> tuple[Boost, list[str]]:
    """Everything boosting this spell now, and the names of where each boost came from."""
    total = card.boost if card is not None else Boost()
    sources: list[str] = []
    if card is not None:
        for other in ctx.battle.active():
            gift = ctx.spell(other.title).combine if other.combined_with == card.id else None
            if gift is not None:
                total = add(total, gift)
                sources.append(f"{other.title} (Transmute): {gift.describe()}")
    if card is not None and card.upgrades:
        sources.append("upgrades: " + ", ".join(card.upgrades))
    for label, boost in spec_boosts(ctx, caster, spell) + passive_boosts(ctx, caster, spell, target):
        total = add(total, boost)
        sources.append(f"{label}: {boost.describe()}")
    return total, sources


def free_action(ctx: Ctx, caster: Being, spell: Spell) -> bool:
    boost, _ = boosts(ctx, caster, spell, None)
    return spell.free_action or boost.free_action


def require(spell: Spell, aspect: str, what: str) -> None:
    """Stop when the text says a spell has an aspect but not its value, and the GM has not set it yet."""
    if spell.needs(aspect):
        raise RuleError(
            f"The book does not give {spell.title}'s {what}. A GM sets it with "
            f'`/serpent spell define name:"{spell.title}" {aspect}:...` and the action can be tried again.'
        )


def spell_impact(ctx: Ctx, card: CardState, target: str | None) -> Impact:
    """The effect a spell card impacts with right now."""
    spell = ctx.spell(card.title)
    caster = ctx.being(card.controller or card.owner)
    boost, _ = boosts(ctx, caster, spell, target, card)
    dmg = spell.dmg
    if boost.add_dmg:
        base = dmg or Amount(amount=0)
        dmg = (
            base.model_copy(update={"amount": (base.amount or 0) + boost.add_dmg})
            if base.from_charges is None
            else base
        )
    return Impact(
        sphere=spell.sphere,
        physical=bool(dmg and dmg.physical),
        descriptors=list(spell.descriptors),
        dmg=dmg,
        infusion=spell.infusion,
        siphon=spell.siphon,
        disrupt=spell.disrupt,
        dispel=spell.dispel,
        clears_charges=spell.clears_charges,
        subtle=spell.subtle or boost.subtle,
        pierce=spell.pierce + boost.pierce,
        shatter=spell.shatter + boost.shatter,
        area=spell.area,
        unblockable=spell.unblockable,
        curse=spell.curse,
        obliterate=spell.obliterate,
        shed_discord=spell.shed_discord,
        slow=spell.slow,
        spell_loss=spell.spell_loss,
    )


def refined(ctx: Ctx, card: CardState) -> bool:
    spell = ctx.spell(card.title)
    return spell.refined or spell.invulnerable or card.boost.refined
