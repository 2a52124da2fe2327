"""States a spell puts its bearer in, and limits on spells: the glossary's control aspects.

Each function reads the spells in play when it matters, so a Dispel of the spell
ends the state at once. Glossary entries: "Cloaked", "Phased", "Prevented",
"Innate Actions", "Injunction", "Action" (extra Full Actions never stack),
"Legendary", "Unique to Bearer", "Unique to Caster", "Unique to Descriptor X",
"Adamant Empowerment", "Inexorable", "Potency", "Resistance".

These only read the table. "Backlash" takes energy, so it is part of the impact (``impact.backlash``):
``energy`` reads Injunctions from here, and this module imports nothing that changes energy.
"""

from __future__ import annotations

from rules.serpent.aspects import bearers
from rules.serpent.book import Spell
from rules.serpent.context import Ctx
from rules.serpent.state import Being, CardState


def active_on(ctx: Ctx, being: Being) -> list[tuple[CardState, Spell]]:
    """Active spells borne by this being (its own zones, its team zone, global ones).

    A Curse acts on its bearer only once it has moved behind their Defenses into the Curse zone.
    """
    found = []
    for card in ctx.battle.active():
        spell = ctx.spell(card.title)
        if spell.curse and card.zone != "curse":
            continue
        if being.key in bearers(ctx, card) + card.affected:
            found.append((card, spell))
    return found


def cloaked_by(ctx: Ctx, being: Being) -> str | None:
    """Glossary "Cloaked": "If a Magi is Cloaked, opponents cannot target the Magi." Area spells still affect them."""
    return next((c.title for c, s in active_on(ctx, being) if s.cloaks), None)


def phased_by(ctx: Ctx, being: Being) -> str | None:
    """Glossary "Phased": "the Magi may not take actions except to meditate but are immune to offensive effects"."""
    return next((c.title for c, s in active_on(ctx, being) if s.phases), None)


def prevented(ctx: Ctx, being: Being, spell: Spell) -> str | None:
    """Why the being may not cast this spell now (Phased, or a Prevented effect), or None."""
    phase = phased_by(ctx, being)
    if phase:
        return f"{being.name} is Phased by {phase}: they may only meditate (and take innate Actions)"
    for card, source in active_on(ctx, being):
        if source.prevents == "all" or (source.prevents is not None and source.prevents == spell.role):
            what = "casting spells" if source.prevents == "all" else f"casting {source.prevents} spells"
            brk = (
                f" (Will break: {source.will_break} Will with /serpent dismiss)"
                if source.will_break is not None
                else ""
            )
            return f"{card.title} prevents {being.name} from {what}{brk}"
    return None


def enjoined(ctx: Ctx, being: Being, energy: str) -> str | None:
    """Glossary "Injunction": "Most energy injunctions prevent a Magi from gaining that particular energy"."""
    return next((c.title for c, s in active_on(ctx, being) if s.injunction == energy), None)


def haste_bonus(ctx: Ctx, being: Being) -> int:
    """Glossary "Action": "a Magi may gain AT MOST one additional Full Action each round"."""
    return 1 if any(s.haste for _, s in active_on(ctx, being)) else 0


def adamant_refuses(ctx: Ctx, source: Spell, source_controller: str, target: CardState) -> str | None:
    """Glossary "Adamant": immune to abilities, Abjurations and Transmutes that target it "UNLESS they have the
    Inexorable empowerment OR they are cast by the spell's controller"."""
    spell = ctx.spell(target.title)
    if not spell.adamant or source.inexorable or source_controller == (target.controller or target.owner):
        return None
    return f"{target.title} is Adamant ({source.title} is not Inexorable)"


def potency(ctx: Ctx, card: CardState) -> int:
    """Glossary "Potency": "its Fluency plus 1 for each tier of its ritual path that is unlocked plus 1 for each
    Transmute combined with it"."""
    spell = ctx.spell(card.title)
    combined = sum(1 for c in ctx.battle.active() if c.combined_with == card.id)
    return (card.fluency or spell.fluency or 0) + card.tiers + combined


def resisted(ctx: Ctx, card: CardState | None, victim: Being) -> str | None:
    """An Encounter with Resistance ignores spells of lower Potency (glossary "Potency", "Resistance")."""
    if card is None or victim.resistance is None:
        return None
    power = potency(ctx, card)
    if power >= victim.resistance:
        return None
    return f"{card.title}'s Potency {power} is below {victim.name}'s Resistance {victim.resistance}"


def uniqueness(ctx: Ctx, card: CardState) -> list[tuple[CardState, str]]:
    """Spells a just-activated spell pushes out: Legendary, Unique to Bearer/Caster/Descriptor."""
    spell = ctx.spell(card.title)
    out: list[tuple[CardState, str]] = []
    for other in ctx.battle.in_play():
        if other.id == card.id:
            continue
        theirs = ctx.spell(other.title)
        same = other.title == card.title
        if same and spell.legendary:
            out.append((other, f"{card.title} is Legendary: only one may be active"))
        elif same and spell.unique_to_bearer and set(bearers(ctx, other)) & set(bearers(ctx, card)):
            out.append((other, f"{card.title} is Unique to Bearer"))
        elif same and spell.unique_to_caster and other.controller == card.controller:
            out.append((other, f"{card.title} is Unique to Caster"))
        elif spell.unique_to_descriptor and _has(theirs, spell.unique_to_descriptor):
            out.append((other, f"{card.title} is Unique to Descriptor {spell.unique_to_descriptor}"))
        elif theirs.unique_to_descriptor and _has(spell, theirs.unique_to_descriptor):
            out.append((other, f"{other.title} is Unique to Descriptor {theirs.unique_to_descriptor}"))
    return out


def _has(spell: Spell, descriptor: str) -> bool:
    return descriptor.casefold() in (d.casefold() for d in spell.descriptors)
