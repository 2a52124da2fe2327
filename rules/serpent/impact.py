"""Activation: after its response window, an effect checks its target and impacts.

Spells settle into their zones here (Components and Defenses behind, Enhancements
in a slot, Curses behind Defenses only when they reached their target), Attacks
meet Defenses, and the directives apply: Dmg, Infusion, Siphon, Disrupt, Dispel
(with the refunds of the Crucible Update) and Karma charges.
"""

from __future__ import annotations

from rules.serpent.aspects import bearers, boosts, require, spell_impact
from rules.serpent.casting import area_abjuration_targets, card_offensive
from rules.serpent.context import Ctx
from rules.serpent.control import adamant_refuses, phased_by, resisted, uniqueness
from rules.serpent.defenses import Hit, defend, immune, spell_immune_to, team_shields, warded_siphon
from rules.serpent.energy import after_change, amount_of, discard, gain, incapacitate, lose, release_focus
from rules.serpent.state import Being, CardState, Effect, Impact
from rules.serpent.turns import discard_rite


def activate(ctx: Ctx, effect: Effect) -> None:
    """Finish the cast cycle of the effect on top of the stack (already popped)."""
    if effect.kind == "spell":
        activate_spell(ctx, effect)
    elif effect.kind == "maintenance":
        resolve_maintenance_impact(ctx, effect)
    else:
        activate_ability(ctx, effect)


# ---------------------------------------------------------------- spells


def activate_spell(ctx: Ctx, effect: Effect) -> None:
    card = ctx.card(effect.card or 0)
    if card.location != "manifesting":
        return  # dispelled while manifesting
    spell = ctx.spell(card.title)
    caster = ctx.being(effect.caster)
    problem = target_problem(ctx, effect)
    if caster.incapacitated:
        problem = f"{caster.name} is incapacitated"
    if problem:
        discard(ctx, card, f"it fizzles: {problem}")
        return
    card.location = "play"
    ctx.j.say(f"✨ {card.title} activates.", "activate", card=card.id)
    for other, why in uniqueness(ctx, card):
        discard(ctx, other, why)
    if spell.dampen is not None:
        dampen(ctx, effect, card)
    if spell.role == "Abjuration":
        if spell.dispel is not None or spell.dampen is None:
            abjure(ctx, effect, card)
        if card.location == "play":
            discard(ctx, card, "an Abjuration is discarded after its one-time effect")
        return
    if spell.role == "Transmute":
        transmute(ctx, effect, card)
        return
    if spell.role == "Ally":
        summon(ctx, effect, card)
        return
    if spell.role == "Defense" and spell.defense == "Evade":
        evade(ctx, effect, card)
        return
    place_counters(ctx, card)
    if spell.role == "Enhance":
        settle_enhancement(ctx, card, effect.replace)
        if spell.infusion or spell.shed_discord or spell.slow:
            impact_beings(ctx, effect, card, bearers(ctx, card), offensive=False)
        return
    if spell.role in ("Component", "Defense"):
        return
    # Attacks (and Curses) impact now
    victims = attack_victims(ctx, effect)
    hits = impact_beings(ctx, effect, card, victims, offensive=effect.offensive)
    if spell.curse:
        settle_curse(ctx, card, hits)
    elif card.duration is None and not card.persistent and card.focus is None:
        discard(ctx, card, "it has no Duration")


def place_counters(ctx: Ctx, card: CardState) -> None:
    """Duration counters, Persistent marker and Durability go on when the spell activates."""
    spell = ctx.spell(card.title)
    caster = ctx.being(card.controller or card.owner)
    boost, sources = boosts(ctx, caster, spell, card.bearer, card)
    if spell.duration and not spell.curse:
        if spell.duration.kind == "rounds":
            require(spell, "duration", "Duration")
            card.duration = (spell.duration.count or 0) + boost.add_duration
            extra = f" ({'; '.join(s for s in sources if 'Duration' in s)})" if boost.add_duration else ""
            ctx.j.say(f"{card.title} gets {card.duration} Duration counters{extra}.", "counters", card=card.id)
        elif spell.duration.kind == "P" or (spell.duration.kind == "F" and card.boost.sealed):
            card.persistent = True
    if spell.defense == "Shield" and (spell.durability or spell.needs("durability")):
        require(spell, "durability", "Durability")
        card.durability = spell.durability
        ctx.j.say(f"{card.title} gets {card.durability} Durability counters.", "counters", card=card.id)


def settle_enhancement(ctx: Ctx, card: CardState, replace: str | None) -> None:
    """Four Enhancement slots (Spec and Artifact included) and one Shape-Shift per Magi."""
    spell = ctx.spell(card.title)
    bearer = ctx.being(card.bearer or card.owner)
    if spell.shape_shift:
        for other in ctx.battle.in_play():
            mine = other.id != card.id and other.zone == "enhance" and bearer.key in bearers(ctx, other)
            if mine and ctx.spell(other.title).shape_shift:
                discard(ctx, other, f"{bearer.name} can have only one Shape-Shift")
    slots = ctx.book.rules.enhancement_slots
    while enhancement_count(ctx, bearer) > slots:
        pool = [c for c in ctx.battle.in_play() if c.zone == "enhance" and c.bearer == bearer.key and c.id != card.id]
        victim = None
        if replace:
            victim = next((c for c in pool if c.title.casefold() == replace.casefold()), None)
        victim = victim or (pool[0] if pool else None)
        if victim is None:
            break
        discard(ctx, victim, f"{bearer.name} has only {slots} Enhancement slots")


def enhancement_count(ctx: Ctx, being: Being) -> int:
    cards = [c for c in ctx.battle.in_play() if c.zone == "enhance" and c.bearer == being.key]
    return len(cards) + int(being.spec_active) + int(being.artifact_active)


def settle_curse(ctx: Ctx, card: CardState, hits: list[Hit]) -> None:
    """A Curse moves behind Defenses only where it impacted directly; blocked or evaded, it is discarded."""
    spell = ctx.spell(card.title)
    struck = [h.victim.key for h in hits if h.reached and not h.victim.incapacitated]
    if not struck:
        discard(ctx, card, "a Curse that does not impact is discarded")
        return
    card.zone = "curse"
    if len(struck) == 1 and card.team is None:
        card.bearer = struck[0]
    else:
        card.affected = struck
    curse = spell.curse_duration
    if curse and curse.kind == "rounds":
        require(spell, "curse_duration", "Curse Duration")
        boost, _ = boosts(ctx, ctx.being(card.controller or card.owner), spell, card.bearer, card)
        card.duration = (curse.count or 0) + boost.add_duration
    elif curse and curse.kind == "P":
        card.persistent = True
    who = ", ".join(ctx.name(k) for k in struck)
    counters = f"{card.duration} Curse Duration counters" if card.duration else "Persistent Curse Duration"
    ctx.j.say(f"🕸 {card.title} moves behind {who}'s Defenses into the Curse zone ({counters}).", "curse", card=card.id)


def attack_victims(ctx: Ctx, effect: Effect) -> list[str]:
    if effect.target_kind == "global":
        return [b.key for b in ctx.battle.beings.values() if not b.incapacitated]
    if effect.target_kind == "team" and effect.target:
        return [b.key for b in ctx.battle.team_members(effect.target) if not b.incapacitated]
    if effect.target_kind == "being" and effect.target:
        return [effect.target]
    return []


def target_problem(ctx: Ctx, effect: Effect) -> str | None:
    """Targets are checked again at activation; a gone target makes the spell fizzle."""
    if effect.target_kind == "being" and effect.target:
        target = ctx.being(effect.target)
        if target.incapacitated:
            return f"{target.name} is incapacitated"
    if effect.target_kind == "card" and effect.target:
        card = ctx.battle.cards.get(int(effect.target))
        if card is None or card.location != "play":
            return "its target spell is no longer active"
    manifesting = {str(e.id) for e in ctx.battle.stack}
    if effect.target_kind == "effect" and effect.target and effect.target not in manifesting:
        return "its target is no longer manifesting"
    return None


# ---------------------------------------------------------------- impacts on beings


def charge_total(ctx: Ctx, victim: Being, kind: str) -> int:
    return sum(
        c.charges.get(kind, 0) for c in ctx.battle.in_play() if victim.key in bearers(ctx, c) or c.bearer == victim.key
    )


def impact_beings(
    ctx: Ctx, effect: Effect, card: CardState | None, victims: list[str], offensive: bool, impact: Impact | None = None
) -> list[Hit]:
    """Apply one effect to each victim through their Defenses (when offensive), then its directives."""
    caster = ctx.being(effect.caster)
    hits: list[Hit] = []
    team_hits: dict[str, Hit | None] = {}  # an Area effect meets each team zone's Shields once
    for key in victims:
        victim = ctx.being(key)
        if victim.incapacitated:
            continue
        if impact is not None:
            imp = impact
        elif card is not None:
            imp = spell_impact(ctx, card, key)
        else:
            raise ValueError("an effect needs its card or its own impact")
        dmg = dmg_amount(ctx, imp, victim)
        shielded_from = out_of_reach(ctx, effect, card, victim, offensive)
        if shielded_from:
            ctx.j.say(f"{effect.title} has no effect on {victim.name}: {shielded_from}.", "immune", target=victim.name)
            hits.append(Hit(victim=victim, dmg=0, blocked=True, notes=[shielded_from]))
            continue
        if offensive:
            if imp.area and victim.team not in team_hits:
                team_hits[victim.team] = team_shields(ctx, effect, imp, victim.team, dmg)
            hit = defend(ctx, effect, imp, victim, dmg, team_hits.get(victim.team) if imp.area else None)
        else:
            hit = Hit(victim=victim, dmg=dmg)
        apply_directives(ctx, effect, imp, caster, hit)
        hits.append(hit)
    return hits


def out_of_reach(ctx: Ctx, effect: Effect, card: CardState | None, victim: Being, offensive: bool) -> str | None:
    """A Phased victim is immune to offensive effects; an Encounter's Resistance stops spells of lower Potency."""
    phase = phased_by(ctx, victim) if offensive else None
    if phase:
        return f"{victim.name} is Phased by {phase} and immune to offensive effects"
    if effect.kind in ("spell", "maintenance"):
        return resisted(ctx, card, victim)
    return None


def dmg_amount(ctx: Ctx, impact: Impact, victim: Being) -> int | None:
    if impact.dmg is None:
        return None
    if impact.dmg.from_charges:
        return charge_total(ctx, victim, impact.dmg.from_charges)
    return impact.dmg.amount


def encounter_responses(ctx: Ctx, effect: Effect) -> None:
    """Encounters answer in the effect's Response phase, once, as soon as its caster's priority is over.

    Walkthrough Act II: "I place it in front of the Encounter and pay for it. This is a
    Dmg spell so the Shadow attempts to Evade by paying 1 Resonance and then pulling a
    token"; in maintenance, "I pay the 1 Resonance and enter its Response phase. ... we
    see if the Shadow can Evade". A successful Evade marks the effect as dodged by it.
    """
    effect.encounters_answered = True
    if effect.veiled or not effect.offensive or effect.target_kind != "being" or not effect.target:
        return
    victim = ctx.battle.beings.get(effect.target)
    if victim is None or victim.kind != "encounter" or victim.incapacitated:
        return
    if effect.impact is not None:
        impact = effect.impact
    elif effect.card is not None and ctx.card(effect.card).location in ("manifesting", "play"):
        impact = spell_impact(ctx, ctx.card(effect.card), victim.key)
    else:
        return
    if encounter_evades(ctx, effect, impact, victim):
        effect.evaded.append(victim.key)


def encounter_evades(ctx: Ctx, effect: Effect, impact: Impact, victim: Being) -> bool:
    """RULING 13: outside easy mode the Encounter pays Resonance and draws to dodge any targeted Dmg effect."""
    enc = ctx.book.encounter(victim.encounter.name) if victim.encounter else None
    if enc is None or enc.evade_cost is None or victim.incapacitated:
        return False
    if ctx.battle.easy:
        return False
    if impact.dmg is None or impact.area or impact.unblockable or effect.target != victim.key:
        return False
    if victim.resonance < enc.evade_cost:
        ctx.j.say(
            f"{victim.name} cannot pay {enc.evade_cost} Resonance to Evade {effect.title}.", "evade", evaded=False
        )
        return False
    victim.resonance -= enc.evade_cost
    token = ctx.draw_token(enc.bag, victim.encounter.out if victim.encounter else {}, f"{victim.name} Evade")
    evaded = token == enc.evade_token
    result = "evades it" if evaded else "fails to evade"
    ctx.j.say(
        f"🌑 {victim.name} pays {enc.evade_cost} Resonance to Evade {effect.title}: draws **{token}** "
        f"(returned to the bag) and {result}.",
        "evade",
        token=token,
        evaded=evaded,
    )
    return evaded


def apply_directives(ctx: Ctx, effect: Effect, impact: Impact, caster: Being, hit: Hit) -> None:
    victim = hit.victim
    notes = "; ".join(hit.notes)
    if hit.evaded:
        ctx.j.say(f"{effect.title} misses {victim.name}: {notes}.", "miss", target=victim.name)
        return
    reason = immune(ctx, victim, impact)
    if reason:
        ctx.j.say(f"{effect.title} has no effect on {victim.name}: {reason}.", "immune", target=victim.name)
        return
    if hit.blocked and not hit.dmg:
        ctx.j.say(f"{effect.title} is stopped before {victim.name}: {notes}.", "blocked", target=victim.name)
        return
    prefix = f" ({notes})" if notes else ""
    if impact.dmg is not None and hit.dmg:
        lost = lose(ctx, victim, impact.dmg.energy, hit.dmg, effect.title, check=False)
        ctx.j.say(
            f"💥 {effect.title} deals {hit.dmg} {impact.dmg.energy} Dmg to {victim.name}{prefix}: "
            f"{impact.dmg.energy} now {amount_of(victim, impact.dmg.energy)}.",
            "dmg",
            target=victim.name,
            energy=impact.dmg.energy,
            amount=hit.dmg,
            lost=lost,
        )
        after_change(ctx, victim, effect.title)
    elif impact.dmg is not None and not impact.unknown:
        ctx.j.say(
            f"{effect.title} deals no Dmg to {victim.name}{prefix}.",
            "dmg",
            target=victim.name,
            energy=impact.dmg.energy,
            amount=0,
            lost=0,
        )
    if impact.siphon and impact.siphon.amount:
        amount, warded = warded_siphon(ctx, victim, impact, impact.siphon.amount)
        lost = lose(ctx, victim, impact.siphon.energy, amount, effect.title) if amount else 0
        got = gain(ctx, caster, impact.siphon.energy, lost, effect.title) if lost else 0
        ctx.j.say(
            f"{effect.title} siphons {lost} {impact.siphon.energy} from {victim.name}"
            f"{f' ({warded})' if warded else ''}; {caster.name} gains {got}.",
            "siphon",
            target=victim.name,
            energy=impact.siphon.energy,
            amount=lost,
            gained=got,
        )
    if hit.blocked:
        return  # Pierce lets only Dmg through
    if impact.infusion and impact.infusion.amount:
        got = gain(ctx, victim, impact.infusion.energy, impact.infusion.amount, effect.title)
        cap = " (capped at starting Essence)" if got < impact.infusion.amount else ""
        ctx.j.say(f"{effect.title} infuses {victim.name} with {got} {impact.infusion.energy}{cap}.", "infusion")
    if impact.disrupt:
        held = [c.title for c in ctx.battle.in_play() if c.focus == victim.key]
        what = f"loses Focus on {', '.join(held)}." if held else "no Focus to lose."
        ctx.j.say(f"⚡ {effect.title} Disrupts {victim.name}: {what}", "disrupt", target=victim.name, lost=held)
        release_focus(ctx, victim, f"{effect.title} Disrupts {victim.name}")
        for rite in ctx.battle.cards_in("rite", victim.key):
            discard_rite(ctx, rite, f'{effect.title} Disrupts {victim.name} (glossary "Rite Zone")')
        if held and impact.focus_loss_harmony:
            lose(ctx, victim, "Harmony", impact.focus_loss_harmony, effect.title)
            ctx.j.say(f"{victim.name} lost Focus this way and loses {impact.focus_loss_harmony} Harmony.")
    if impact.obliterate:
        ctx.j.say(f"☠ {effect.title} Obliterates {victim.name}.", "obliterate", target=victim.name)
        incapacitate(ctx, victim, f"{victim.name} is Obliterated by {effect.title}")
    if impact.shed_discord and (victim.harmony or 0) < 0:
        before = victim.harmony or 0
        victim.harmony = min(0, before + impact.shed_discord)
        ctx.j.say(
            f"{victim.name} sheds {victim.harmony - before} Discord ({effect.title}): Harmony {victim.harmony}.",
            "shed_discord",
            target=victim.name,
            amount=victim.harmony - before,
        )
    if impact.slow:
        give_stone(ctx, effect, victim)
    loss = impact.spell_loss
    warding = [
        (ctx.spell(c.title).ward_spell_loss, c.title)
        for c in ctx.battle.active()
        if c.zone == "defense" and victim.key in bearers(ctx, c) and ctx.spell(c.title).ward_spell_loss
    ]
    if loss and warding:
        amount, title = max(warding)  # Wards do not stack: the best one
        ctx.j.say(f"{title} wards {min(amount, loss.amount)} Spell Loss.", "ward", target=victim.name)
        left = loss.amount - amount
        loss = loss.model_copy(update={"amount": left}) if left > 0 else None
    if loss:
        victim.spell_loss = loss
        ctx.j.say(
            f"📜 {effect.title}: {victim.name} suffers {loss.describe()}; they choose the spells with /serpent lose.",
            "spell_loss",
            target=victim.name,
            amount=loss.amount,
            how=loss.how,
        )
    if impact.clears_charges:
        for card in ctx.battle.in_play():
            if (victim.key in bearers(ctx, card) or card.bearer == victim.key) and card.charges.get(
                impact.clears_charges
            ):
                ctx.j.say(
                    f"The {card.charges[impact.clears_charges]} {impact.clears_charges} charges "
                    f"on {card.title} are discarded."
                )
                card.charges.pop(impact.clears_charges)


def give_stone(ctx: Ctx, effect: Effect, victim: Being) -> None:
    """Glossary "Action": an offensive effect gives at most one interrupt stone a round, and none to a Magi who
    already has 2; the Magi's own or an ally's effects always give theirs."""
    offensive = ctx.being(effect.caster).team != victim.team
    limit = ctx.book.rules.max_interrupt_stones
    if offensive and (victim.stoned_round == ctx.battle.round or victim.stones >= limit):
        why = "already has one from an offensive effect this round" if victim.stones < limit else f"holds {limit}"
        ctx.j.say(f"{effect.title} gives {victim.name} no interrupt stone: {why}.", "stone", stones=victim.stones)
        return
    victim.stones += 1
    if offensive:
        victim.stoned_round = ctx.battle.round
    ctx.j.say(
        f"🪨 {effect.title} gives {victim.name} an interrupt stone ({victim.stones} held).",
        "stone",
        stones=victim.stones,
    )


# ---------------------------------------------------------------- Abjurations and Evades


def abjure(ctx: Ctx, effect: Effect, card: CardState) -> None:
    """An Abjuration's one-time change to another spell: Dispel, with refunds for a manifesting spell."""
    spell = ctx.spell(card.title)
    if spell.dispel is None:
        ctx.j.say(f"{card.title} has no Dispel; its rules text is applied by the GM.")
        return
    if effect.target_kind == "team":
        targets = area_abjuration_targets(ctx, spell, effect.target or "", exclude=card.id)
        ctx.j.say(f"{card.title} has Area: it targets {len(targets)} spell(s) of team {effect.target}.")
        for target in targets:
            if target.location == "manifesting":
                found = next((e for e in ctx.battle.stack if e.card == target.id), None)
                if found is not None:
                    dispel_manifesting(ctx, card, found.id)
            elif target.location == "play":
                offensive = card_offensive(ctx, ctx.being(effect.caster), target)
                dispel_active(ctx, effect.model_copy(update={"offensive": offensive}), card, target)
        return
    if effect.target_kind == "effect":
        dispel_manifesting(ctx, card, int(effect.target or 0))
        return
    dispel_active(ctx, effect, card, ctx.card(int(effect.target or 0)))


def dispel_active(ctx: Ctx, effect: Effect, card: CardState, target: CardState) -> None:
    """Dispel one active spell; an offensive Dispel meets the Shields of the zone the target sits in."""
    spell = ctx.spell(card.title)
    bearer = ctx.battle.beings.get(target.bearer or "")
    caster = ctx.being(effect.caster)
    refusal = adamant_refuses(ctx, spell, caster.key, target)
    immunity = spell_immune_to(ctx.spell(target.title), spell_impact(ctx, card, None))
    if immunity:
        refusal = f"{target.title} is Immune to {immunity}"
    if refusal:
        ctx.j.say(f"{card.title} cannot affect {target.title}: {refusal}.", "adamant", card=target.id)
        return
    if effect.offensive and bearer is not None and target.zone in ("defense", "enhance"):
        hit = defend(ctx, effect, spell_impact(ctx, card, bearer.key), bearer, None, None)
        if hit.blocked:
            ctx.j.say(f"{card.title} cannot reach {target.title}: {'; '.join(hit.notes)}.", "blocked")
            return
    to = spell.dispel.to if spell.dispel else None
    if to is None:
        require(spell, "dispel_to", "Dispel destination (discard, banish or codex)")
        to = "discard"
    ctx.j.say(f"🚫 {caster.name}'s {card.title} Dispels {target.title}.", "dispel", card=target.id)
    backlash(ctx, target, caster, card.title)
    discard(ctx, target, f"Dispelled by {card.title}", to=to)


def dispel_manifesting(ctx: Ctx, card: CardState, effect_id: int) -> None:
    spell = ctx.spell(card.title)
    target = next((e for e in ctx.battle.stack if e.id == effect_id), None)
    if target is None:
        ctx.j.say(f"{card.title} finds nothing left to Dispel.")
        return
    abjurer = ctx.being(card.controller or card.owner)
    if target.card is not None:
        refusal = adamant_refuses(ctx, spell, abjurer.key, ctx.card(target.card))
        if refusal:
            ctx.j.say(f"{card.title} cannot affect {target.title}: {refusal}.", "adamant", effect=target.id)
            return
    ctx.battle.stack.remove(target)
    caster = ctx.being(target.caster)
    if target.card is None:
        ctx.j.say(
            f"🚫 {card.title} Dispels {caster.name}'s {target.title} before it activates. "
            "An Encounter gets no refund, and keeps its ability to use again.",
            "dispel",
            effect=target.id,
        )
        return
    victim = ctx.card(target.card)
    to = spell.dispel.to if spell.dispel else None
    if to is None:
        require(spell, "dispel_to", "Dispel destination (discard, banish or codex)")
        to = "discard"
    refunds = refund(ctx, victim, caster)
    ctx.j.say(
        f"🚫 {card.title} Dispels {caster.name}'s manifesting {victim.title}. Refund to {caster.name}: {refunds}.",
        "dispel",
        effect=target.id,
        refund=refunds,
    )
    backlash(ctx, victim, abjurer, card.title)
    discard(ctx, victim, f"Dispelled by {card.title}", to=to)


def backlash(ctx: Ctx, target: CardState, controller: Being, source_title: str) -> None:
    """Glossary "Backlash": whoever Abjures or Transmutes it "takes Unblockable Harmony Dmg equal to the Backlash
    rating", even on their own spell; part of the impact, no Response phase."""
    rating = ctx.spell(target.title).backlash
    if not rating:
        return
    lost = lose(ctx, controller, "Harmony", rating, f"Backlash from {target.title}")
    ctx.j.say(
        f"⚡ Backlash {rating}: {controller.name} takes {rating} Unblockable Harmony Dmg for {source_title} on "
        f"{target.title} (Harmony now {controller.harmony}).",
        "backlash",
        target=controller.name,
        amount=lost,
    )


def refund(ctx: Ctx, victim: CardState, caster: Being) -> str:
    """Crucible Update: negative costs, upgrades and ritual tiers come back; sacrificed cards and charges too."""
    parts = []
    for energy, amount in victim.paid.energies.items():
        if amount > 0:
            got = amount
            if energy == "Essence":
                got = min(amount, caster.starting_essence - caster.essence)
                caster.essence += got
            elif energy == "Harmony":
                caster.harmony = (caster.harmony or 0) + amount
            elif energy == "Resonance":
                caster.resonance += amount
            elif energy == "Will":
                caster.will += amount
            else:
                caster.voice += amount
            parts.append(f"{got} {energy}")
    for key, share in victim.paid.allies.items():
        ally = ctx.battle.beings.get(key)
        if ally is None:
            continue
        for energy, amount in share.items():
            if energy == "Harmony":
                ally.harmony = (ally.harmony or 0) + amount
            else:
                ally.will += amount
        parts.append(f"{', '.join(f'{v} {k}' for k, v in share.items())} back to {ally.name}")
    for old in victim.paid.sacrificed:
        ctx.battle.cards[old.id] = old.model_copy(deep=True)
        parts.append(f"{old.title} returns to play")
    for charge in victim.paid.charges:
        source = ctx.battle.cards.get(charge.card)
        if source is not None and source.location == "play":
            source.charges[charge.kind] = source.charges.get(charge.kind, 0) + charge.amount
            parts.append(f"{charge.amount} {charge.kind} charge back on {source.title}")
    if focus_card := victim.focus:
        victim.focus = None
        parts.append(f"{ctx.name(focus_card)}'s Focus is free")
    return ", ".join(parts) or "nothing was paid"


def summon(ctx: Ctx, effect: Effect, card: CardState) -> None:
    """Glossary "Ally Spell": a Koishaka joins the caster's team with 2 Full Actions, at the lowest initiative this
    round; "Gaining control of a second Ally discards the first." It stays while its spell does."""
    spell = ctx.spell(card.title)
    caster = ctx.being(effect.caster)
    b = ctx.battle
    for other in list(b.beings.values()):
        if other.kind == "koishaka" and other.controller == caster.key and not other.incapacitated:
            old = b.cards.get(other.summoned_by or 0)
            if old is not None and old.location == "play":
                discard(ctx, old, f"{caster.name} may control only one Ally at a time")
    name = f"{card.title} of {caster.name}"
    key = name.casefold()
    if key in b.beings:
        name, key = f"{name} #{card.id}", f"{key} #{card.id}"
    essence = spell.ally_essence or 1
    actions = ctx.book.rules.full_actions
    b.beings[key] = Being(
        key=key,
        name=name,
        kind="koishaka",
        team=caster.team,
        essence=essence,
        starting_essence=essence,
        full_actions=actions,
        actions_per_round=actions,
        controller=caster.key,
        summoned_by=card.id,
    )
    b.order.append(key)  # "In its first round it has lowest initiative"
    card.bearer = key
    place_counters(ctx, card)
    ctx.j.say(
        f"🐉 {caster.name} summons **{name}** (Koishaka, {essence} Essence, {actions} Full Actions). "
        f'{caster.name}\'s player acts for it with magi:"{name}".',
        "summon",
        being=name,
    )


def transmute(ctx: Ctx, effect: Effect, card: CardState) -> None:
    """Glossary "Transmute Spell", "Combination", "Exclusive": it combines with its target, modifies it while it lasts,
    and goes when the target goes; a second Exclusive Transmute on a spell discards the first."""
    spell = ctx.spell(card.title)
    target = ctx.card(int(effect.target or 0))
    caster = ctx.being(effect.caster)
    refusal = adamant_refuses(ctx, spell, caster.key, target)
    immunity = spell_immune_to(ctx.spell(target.title), spell_impact(ctx, card, None))
    refusal = refusal or (f"{target.title} is Immune to {immunity}" if immunity else None)
    bearer = ctx.battle.beings.get(target.bearer or "")
    if not refusal and effect.offensive and bearer is not None and target.zone in ("defense", "enhance"):
        hit = defend(ctx, effect, spell_impact(ctx, card, bearer.key), bearer, None, None)
        refusal = "; ".join(hit.notes) if hit.blocked else None
    if refusal:
        discard(ctx, card, f"it cannot combine with {target.title}: {refusal}")
        return
    if spell.exclusive:
        for other in ctx.battle.in_play():
            if other.combined_with == target.id and other.id != card.id and ctx.spell(other.title).exclusive:
                discard(ctx, other, f"{card.title} is Exclusive: only one Exclusive Transmute per spell")
    card.combined_with = target.id
    card.zone, card.bearer, card.team = target.zone, target.bearer, target.team
    place_counters(ctx, card)
    gift = f": {spell.combine.describe()}" if spell.combine else ""
    ctx.j.say(f"🔗 {card.title} combines with {target.title} (#{target.id}){gift}.", "combine", card=target.id)
    if spell.makes_dormant:
        for dormant in [target, *(c for c in ctx.battle.in_play() if c.combined_with == target.id and c.id != card.id)]:
            dormant.dormant = True
        ctx.j.say(f"💤 {target.title} is Dormant while {card.title} lasts (its Transmutes too).", "dormant")
    backlash(ctx, target, caster, card.title)


def dampen(ctx: Ctx, effect: Effect, card: CardState) -> None:
    """Glossary "Dampen": the target effect's controller "must immediately choose to either pay the additional costs
    or else discard the spell (no refund as this is not a Dispel)". RULING: Magister pays when they can."""
    amount = ctx.spell(card.title).dampen
    target = next((e for e in ctx.battle.stack if str(e.id) == (effect.target or "")), None)
    if amount is None or target is None or not amount.amount:
        ctx.j.say(f"{card.title} finds nothing left to Dampen.")
        return
    victim = ctx.battle.cards.get(target.card or 0)
    abjurer = ctx.being(card.controller or card.owner)
    if victim is not None:
        refusal = adamant_refuses(ctx, ctx.spell(card.title), abjurer.key, victim)
        if refusal:
            ctx.j.say(f"{card.title} cannot affect {target.title}: {refusal}.", "adamant", effect=target.id)
            return
    payer = ctx.being(target.caster)
    have = {"Essence": payer.essence, "Resonance": payer.resonance, "Will": payer.will, "Voice": payer.voice}
    can = have.get(amount.energy, payer.harmony if payer.harmony is not None else 0) >= amount.amount
    if amount.energy == "Harmony":
        can = payer.harmony is not None  # Harmony may go negative: paying it is always possible
    if can:
        lose(ctx, payer, amount.energy, amount.amount, f"{card.title} Dampens {target.title}")
        ctx.j.say(
            f"🌫 {card.title} Dampens {target.title}: {payer.name} pays {amount.amount} {amount.energy} more.",
            "dampen",
            paid=True,
        )
        return
    ctx.battle.stack.remove(target)
    ctx.j.say(
        f"🌫 {card.title} Dampens {target.title}: {payer.name} cannot pay {amount.amount} {amount.energy} more, "
        "so it is discarded (no refund: this is not a Dispel).",
        "dampen",
        paid=False,
    )
    if victim is not None:
        backlash(ctx, victim, abjurer, card.title)
        discard(ctx, victim, f"Dampened by {card.title}")


def evade(ctx: Ctx, effect: Effect, card: CardState) -> None:
    """An Evade spell lets its bearer dodge one targeted effect entirely (never an Area one)."""
    target = next((e for e in ctx.battle.stack if e.id == int(effect.target or 0)), None)
    bearer = card.bearer or card.owner
    if target is not None and ctx.spell(card.title).area:
        # glossary "Evade": "If an Evade spell gains Area, it allows a whole team to dodge the same single impact"
        team = [m.key for m in ctx.battle.team_members(ctx.being(bearer).team)]
        target.evaded.extend(k for k in team if k not in target.evaded)
        names = ", ".join(ctx.name(k) for k in team)
        ctx.j.say(f"💨 {names} will evade {target.title} (an Area Evade).", "evade", evaded=True)
    elif target is not None:
        target.evaded.append(bearer)
        ctx.j.say(f"💨 {ctx.name(bearer)} will evade {target.title}.", "evade", evaded=True)
    discard(ctx, card, "an Evade dodges one impact and is discarded")


# ---------------------------------------------------------------- abilities and Encounter effects


def activate_ability(ctx: Ctx, effect: Effect) -> None:
    caster = ctx.being(effect.caster)
    impact = effect.impact or Impact()
    if caster.incapacitated:
        ctx.j.say(f"{effect.title} fails: {caster.name} is incapacitated.")
        return
    if effect.target_kind == "none":
        if impact.gain_resonance:
            got = gain(ctx, caster, "Resonance", impact.gain_resonance, effect.title)
            ctx.j.say(f"{caster.name} gains {got} Resonance ({effect.title}).", "gain", amount=got)
        return
    problem = target_problem(ctx, effect)
    if problem:
        ctx.j.say(f"{effect.title} fails: {problem}.", "fizzle")
        return
    impact_beings(ctx, effect, None, attack_victims(ctx, effect), offensive=effect.offensive, impact=impact)
    if impact.gain_resonance:
        got = gain(ctx, caster, "Resonance", impact.gain_resonance, effect.title)
        ctx.j.say(f"{caster.name} gains {got} Resonance ({effect.title}).", "gain", amount=got)


# ---------------------------------------------------------------- maintenance


def resolve_maintenance_impact(ctx: Ctx, effect: Effect) -> None:
    """A Duration spell's maintenance impact (after its response window), then its counter comes off."""
    card = ctx.battle.cards.get(effect.card or 0)
    if card is None or card.location != "play":
        return
    if card.zone == "attack" and card.global_area:
        victims = [b.key for b in ctx.battle.beings.values() if not b.incapacitated]
        impact_beings(ctx, effect, card, victims, offensive=True)
    elif card.zone == "attack":
        victims = [card.bearer] if card.bearer else [b.key for b in ctx.battle.team_members(card.team or "")]
        impact_beings(ctx, effect, card, [v for v in victims if v], offensive=True)
    else:
        victims = card.affected or bearers(ctx, card)
        impact_beings(ctx, effect, card, victims, offensive=False)
    tick(ctx, card)


def tick(ctx: Ctx, card: CardState) -> None:
    """Remove one Duration counter; a spell with neither Duration nor Durability left is discarded."""
    if card.location != "play" or card.duration is None:
        return
    card.duration -= 1
    ctx.j.say(
        f"⏳ {card.title} loses a Duration counter ({card.duration} left).", "tick", card=card.id, left=card.duration
    )
    if card.duration <= 0:
        card.duration = None
        if card.durability:
            return
        discard(ctx, card, "its last Duration counter is gone")
