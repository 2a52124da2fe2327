"""An offensive effect against one being's Defenses: Evades, Shields, Wards and Immunity.

Order (glossary "Team Zone", "Shield", "Pierce", "Shatter", "Subtle", "Ward"):
Area Shields in the team zone block first, then the being's own Shields, in the
order they were placed (a Magi may not decline to Shield). Subtle slips past
any Shield that is not Refined. A blocking Shield stops the effect; Pierce lets
that much Dmg through (and nothing else) and costs each Shield it passes only
1 Durability; Shatter takes extra Durability from the Shield that stops it.
Wards then reduce Dmg of their energy, and two Wards for one energy do not stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.base import RuleError
from rules.serpent.aspects import bearers, refined
from rules.serpent.book import PHYSICAL_SPHERES, Spell
from rules.serpent.context import Ctx
from rules.serpent.energy import discard
from rules.serpent.state import Being, CardState, Effect, Impact


@dataclass
class Hit:
    """What an effect did against one being's Defenses."""

    victim: Being
    dmg: int | None  # the Dmg still coming (None: the effect has no Dmg)
    blocked: bool = False  # a Shield stopped the effect (only Pierce Dmg may still get through)
    evaded: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        """The effect impacted directly: a Curse sticks, a Disrupt lands."""
        return not self.blocked and not self.evaded


def shields_of(ctx: Ctx, victim: Being, team_zone: bool) -> list[CardState]:
    """Active Shields protecting the victim: the team zone's, or the victim's own."""
    found = []
    for card in ctx.battle.active():
        spell = ctx.spell(card.title)
        if card.zone != "defense" or spell.defense != "Shield":
            continue
        if (team_zone and card.team is not None and card.team == victim.team) or (
            not team_zone and card.team is None and card.bearer == victim.key
        ):
            found.append(card)
    return found


def covers(ctx: Ctx, shield: CardState, impact: Impact, effect: Effect) -> bool:
    """A Shield blocks effects of its spheres; Physical Dmg is blocked by any Physical sphere."""
    spheres = set(ctx.spell(shield.title).shield_spheres)
    if impact.physical and spheres & PHYSICAL_SPHERES:
        return True
    if impact.sphere is None:
        if effect.kind in ("spell", "maintenance"):
            title = effect.title
            raise RuleError(
                f"{shield.title} blocks {'/'.join(sorted(spheres))}, and the book does not give {title}'s sphere. "
                f'A GM sets it with `/serpent spell define name:"{title}" sphere:...`, '
                "then the action can be tried again."
            )
        return False  # Spec and Artifact effects have no sphere: most Shields cannot touch them
    return impact.sphere in spheres


def shield_pass(ctx: Ctx, shields: list[CardState], impact: Impact, effect: Effect, hit: Hit) -> None:
    """Run the effect through a line of Shields, outermost first."""
    first_block = True
    for shield in shields:
        if shield.location != "play":
            continue
        spell = ctx.spell(shield.title)
        if not covers(ctx, shield, impact, effect):
            continue
        if impact.subtle and not refined(ctx, shield):
            hit.notes.append(f"Subtle: slips past {shield.title} (not Refined)")
            continue
        pierce = impact.pierce if not (spell.impenetrable or spell.invulnerable) else 0
        piercing = bool(pierce and hit.dmg)
        loss = 1
        if first_block and not piercing and impact.shatter and not (spell.resilient or spell.invulnerable):
            loss += impact.shatter
        immunity = spell_immune_to(spell, impact)
        if immunity:
            loss = (
                0  # glossary "Immune": "If the Shield itself was Immune, it would still block but not lose Durability"
            )
        hit.blocked = True
        if piercing:
            through = min(pierce, hit.dmg or 0)
            hit.notes.append(f"{shield.title} blocks, but Pierce {pierce} lets {through} Dmg through")
            hit.dmg = through
        else:
            hit.notes.append(
                f"{shield.title} blocks it"
                + (f" (Shatter {impact.shatter})" if loss > 1 else "")
                + (f" (immune to {immunity}: no Durability lost)" if immunity else "")
            )
            hit.dmg = 0 if hit.dmg is not None else None
        first_block = False
        wear(ctx, shield, loss)
        if not piercing:
            return


def spell_immune_to(spell: Spell, impact: Impact) -> str | None:
    """The descriptor or sphere of the effect the spell is Immune to (glossary "Immune"), if any."""
    names = {x.casefold(): x for x in [*impact.descriptors, *([impact.sphere] if impact.sphere else [])]}
    return next((names[x.casefold()] for x in spell.immune if x.casefold() in names), None)


def wear(ctx: Ctx, shield: CardState, loss: int) -> None:
    """A Durability Shield loses Durability per block; with none and no Duration left it is discarded."""
    if shield.durability is None or loss <= 0:
        return
    shield.durability = max(0, shield.durability - loss)
    ctx.j.say(
        f"🛡 {shield.title} loses {loss} Durability ({shield.durability} left).",
        "durability",
        card=shield.id,
        durability=shield.durability,
    )
    if shield.durability == 0 and not shield.duration and not shield.persistent:
        discard(ctx, shield, "its last Durability is gone")


def best_ward(ctx: Ctx, victim: Being, energy: str, sphere: str | None) -> tuple[int, str] | None:
    """The best Ward the victim bears for Dmg of this energy and sphere (Wards for one energy do not stack)."""
    best: tuple[int, str] | None = None
    for card in ctx.battle.active():
        spell = ctx.spell(card.title)
        if card.zone != "defense" or spell.ward is None or victim.key not in bearers(ctx, card):
            continue
        if spell.ward.energy != energy:
            continue
        if spell.ward_spheres and sphere not in spell.ward_spheres:
            continue
        amount = spell.ward.amount or 0
        if best is None or amount > best[0]:
            best = (amount, card.title)
    return best if best and best[0] > 0 else None


def ward(ctx: Ctx, victim: Being, impact: Impact, hit: Hit) -> None:
    """The best Ward for the Dmg's energy and sphere applies; Wards for one energy do not stack."""
    if not hit.dmg or impact.dmg is None:
        return
    best = best_ward(ctx, victim, impact.dmg.energy, impact.sphere)
    if best:
        reduced = min(best[0], hit.dmg)
        hit.dmg -= reduced
        hit.notes.append(f"{best[1]} wards {reduced} {impact.dmg.energy} Dmg (Wards do not stack)")


def warded_siphon(ctx: Ctx, victim: Being, impact: Impact, amount: int) -> tuple[int, str]:
    """Glossary "Siphon": the Dmg it deals meets the victim's Ward for that energy; the caster gains only the rest."""
    if impact.siphon is None or not amount:
        return amount, ""
    best = best_ward(ctx, victim, impact.siphon.energy, impact.sphere)
    if not best:
        return amount, ""
    reduced = min(best[0], amount)
    return amount - reduced, f"{best[1]} wards {reduced} {impact.siphon.energy} Dmg"


def immune(ctx: Ctx, victim: Being, impact: Impact) -> str | None:
    """A being immune to one descriptor of an effect is immune to the whole effect."""
    for card in ctx.battle.active():
        if victim.key not in bearers(ctx, card):
            continue
        for passive in ctx.spell(card.title).passives:
            descriptors = [d.casefold() for d in impact.descriptors]
            if passive.kind == "immune" and passive.descriptor and passive.descriptor.casefold() in descriptors:
                return f"{card.title} makes {victim.name} immune to {passive.descriptor} effects"
    return None


def defend(ctx: Ctx, effect: Effect, impact: Impact, victim: Being, dmg: int | None, team_done: Hit | None) -> Hit:
    """One victim's Defenses against an offensive effect; ``team_done`` carries an Area effect's team-zone result."""
    hit = Hit(victim=victim, dmg=dmg)
    if impact.unblockable:
        hit.notes.append("Unblockable: no Defense applies")
        return hit
    if victim.key in effect.evaded:
        hit.evaded = True
        hit.notes.append(f"{victim.name} evades it")
        return hit
    if team_done is not None:
        hit.blocked, hit.dmg, hit.notes = team_done.blocked, team_done.dmg, list(team_done.notes)
        if hit.blocked and not hit.dmg:
            return hit
    else:
        shield_pass(ctx, shields_of(ctx, victim, team_zone=True), impact, effect, hit)
        if hit.blocked and not hit.dmg:
            return hit
    shield_pass(ctx, shields_of(ctx, victim, team_zone=False), impact, effect, hit)
    ward(ctx, victim, impact, hit)
    return hit


def team_shields(ctx: Ctx, effect: Effect, impact: Impact, team: str, dmg: int | None) -> Hit | None:
    """An Area effect meets the team zone's Shields once, for everyone behind them."""
    members = [b for b in ctx.battle.team_members(team) if not b.incapacitated]
    if not members or impact.unblockable:
        return None
    hit = Hit(victim=members[0], dmg=dmg)
    shield_pass(ctx, shields_of(ctx, members[0], team_zone=True), impact, effect, hit)
    return hit
