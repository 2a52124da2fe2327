"""Artifacts (glossary "Artifact", Reference Manual "Specializations & Artifacts").

"Each Magi may begin battle with one active Artifact ... Each Artifact takes up one
Enhancement slot. Some Artifacts have activation costs similar to spells; unless
otherwise stated, these are activated as a Free Action. Unlike spells, these costs are
always costs, never gains. Any passive abilities awarded by an Artifact are active as
long as the Artifact remains in play." The seed prints no Artifact, so a GM defines one
with ``/serpent spell define role:Artifact`` (ruling 12): its orbs are the activation
cost, its directives the effect, ``aspects:"Charges 3"`` its charges, and control
aspects (Haste, Cloaked, Injunction...) its passive. A named Artifact the GM has not
defined still takes its slot, as before.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.book import Spell
from rules.serpent.context import Ctx
from rules.serpent.energy import lose, shortfall
from rules.serpent.state import Being, CardState, Effect, Impact
from rules.text import fold

CHARGE = "Charge"


def artifact_spell(ctx: Ctx, name: str | None) -> Spell | None:
    if not name:
        return None
    try:
        spell = ctx.spell(name)
    except RuleError:
        return None
    return spell if spell.role == "Artifact" else None


def join_artifact(ctx: Ctx, being: Being) -> None:
    """A defined Artifact enters play with the Magi (active from the start, with its charges)."""
    spell = artifact_spell(ctx, being.artifact)
    if spell is None:
        return
    b = ctx.battle
    b.placed += 1
    card_id = b.new_id()
    b.cards[card_id] = CardState(
        id=card_id,
        title=spell.title,
        owner=being.key,
        caster=being.key,
        controller=being.key,
        location="play",
        bearer=being.key,
        persistent=True,
        order=b.placed,
        charges={CHARGE: spell.charges} if spell.charges else {},
    )


def artifact_card(ctx: Ctx, being: Being, name: str) -> CardState | None:
    return next(
        (
            c
            for c in ctx.battle.in_play()
            if c.controller == being.key and fold(c.title) == fold(name) and ctx.spell(c.title).role == "Artifact"
        ),
        None,
    )


def activate_artifact(ctx: Ctx, user: Being, card: CardState, target: Being | None) -> Effect:
    """Pay its cost (never a gain) and a charge, then its effect gets a Response phase like any ability."""
    spell = ctx.spell(card.title)
    impact = Impact(
        sphere=spell.sphere,  # "Effects from Artifacts ... are NOT associated with any Sphere unless explicitly noted"
        descriptors=list(spell.descriptors),
        dmg=spell.dmg,
        infusion=spell.infusion,
        siphon=spell.siphon,
        disrupt=spell.disrupt,
        subtle=spell.subtle,
        pierce=spell.pierce,
        shatter=spell.shatter,
        unblockable=spell.unblockable,
        obliterate=spell.obliterate,
        shed_discord=spell.shed_discord,
        slow=spell.slow,
    )
    offensive = bool(spell.dmg or spell.siphon or spell.disrupt or spell.obliterate or spell.slow)
    if not (offensive or spell.infusion or spell.shed_discord):
        raise RuleError(f"{card.title} has no activated effect (its passive works by itself).")
    victim = target or user
    if offensive and victim.team == user.team:
        raise RuleError(f"{card.title}'s effect is offensive: name an opponent as target.")
    if not offensive and victim.team != user.team:
        raise RuleError(f"{card.title}'s effect helps: target yourself or an ally.")
    costs = {e: abs(v) for e, v in (("Resonance", spell.resonance or 0), ("Harmony", spell.harmony or 0)) if v}
    problem = shortfall(user, costs)
    if problem:
        raise RuleError(f"Activating {card.title} costs {problem}.")
    if spell.charges is not None:
        if card.charges.get(CHARGE, 0) < 1:
            raise RuleError(f"{card.title} has no charges left.")
        card.charges[CHARGE] -= 1
    for energy, amount in costs.items():
        lose(ctx, user, energy, amount, f"activating {card.title}")  # type: ignore[arg-type]
    left = f"; {card.charges[CHARGE]} charge(s) left" if spell.charges is not None else ""
    paid = ", ".join(f"{v} {k}" for k, v in costs.items()) or "nothing"
    ctx.j.say(
        f"🔱 {user.name} activates their Artifact **{card.title}** (a Free Action) at {victim.name}: "
        f"pays {paid}{left}.",
        "artifact",
        artifact=card.title,
        target=victim.name,
        charges=card.charges.get(CHARGE),
    )
    return Effect(
        id=ctx.battle.new_id(),
        title=card.title,
        kind="ability",
        ability=card.title,
        caster=user.key,
        target_kind="being",
        target=victim.key,
        offensive=offensive,
        free_action=True,
        impact=impact,
        veiled=spell.veiled,
    )
