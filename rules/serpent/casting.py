"""The cast cycle (Crucible Update): (Intone,) Place, Pay, Respond, Activate.

This module does the first three. It checks everything before it changes
anything, so a spell that cannot be cast leaves the battle untouched: the turn,
the prepared spells, the energies. Paying covers the orbs, the "!" requirements,
upgrades ("^") and ritual tiers; the effect then goes on the stack, where the
engine opens its response window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rules.base import RuleError
from rules.serpent.artifacts import activate_artifact, artifact_card
from rules.serpent.aspects import add, bearers, boosts, free_action, require
from rules.serpent.book import Boost, Energy, Spell, number_of
from rules.serpent.context import Ctx
from rules.serpent.control import cloaked_by, phased_by, prevented
from rules.serpent.energy import discard, gain, lose, release_focus, shortfall
from rules.serpent.requirements import plan_cast
from rules.serpent.responses import response_problem
from rules.serpent.state import Being, CardState, ChargePaid, Effect, Impact, Payment, Pledge, Zone
from rules.serpent.turns import next_turn, priority_holder, require_full_action, require_turn, spend_full_action
from rules.text import fold


@dataclass
class Aim:
    """Where a spell goes: its target, the zone it is placed in, and whether that is offensive."""

    kind: Literal["being", "team", "card", "effect", "global"]
    target: str
    zone: Zone | None
    bearer: str | None
    team: str | None
    offensive: bool
    label: str


@dataclass
class CastRequest:
    spell: str
    target: str | None = None
    upgrades: tuple[str, ...] = ()
    upgrade_with: str | None = None
    tiers: int = 0
    tiers_with_will: bool = False
    component: str | None = None
    intone: str | None = None
    replace: str | None = None


# ---------------------------------------------------------------- targets


def find_being(ctx: Ctx, caster: Being, name: str) -> Being:
    key = fold(name)
    if key in ("me", "self", "myself"):
        return caster
    for being in ctx.battle.beings.values():
        if being.key == key or fold(being.name) == key:
            return being
    names = ", ".join(b.name for b in ctx.battle.beings.values())
    raise RuleError(f"No one named {name!r} is in this battle. In the battle: {names}.")


def find_card_in_play(ctx: Ctx, name: str, allowed: list[CardState]) -> CardState:
    text = name.strip()
    number = number_of(text)
    if number is not None:
        found = [c for c in allowed if c.id == number]
    else:
        found = [c for c in allowed if fold(c.title) == fold(text)]
    if len(found) == 1:
        return found[0]
    if not found:
        options = ", ".join(f"{c.title} (#{c.id}, {ctx.name(c.bearer or c.owner)})" for c in allowed) or "none"
        raise RuleError(f"{name!r} is not a spell this can target now. Valid targets: {options}.")
    options = ", ".join(f"#{c.id} ({ctx.name(c.bearer or c.owner)})" for c in found)
    raise RuleError(f"Several {found[0].title} spells are in play: name one by number: {options}.")


def find_effect(ctx: Ctx, name: str | None) -> Effect:
    stack = ctx.battle.stack
    if not stack:
        raise RuleError("Nothing is manifesting: there is no spell or ability to respond to.")
    if not name:
        return stack[-1]
    text = name.strip()
    number = number_of(text)
    for effect in reversed(stack):
        if effect.id == number or (number is None and fold(effect.title) == fold(text)):
            return effect
    options = ", ".join(f"{e.title} (#{e.id})" for e in stack)
    raise RuleError(f"{name!r} is not manifesting. Manifesting now: {options}.")


def aim(ctx: Ctx, caster: Being, spell: Spell, target: str | None) -> Aim:
    """Resolve the target by spell role (Quick Start "Spell Types"); invalid targets are refused here."""
    b = ctx.battle
    if spell.role == "Ally":
        return _ally_aim(ctx, caster, spell)
    if spell.role == "Transmute":
        # glossary "Transmute Spell": "targets and combines with other spells"; Area means nothing on it
        if target is None:
            raise RuleError(f"Name the spell {spell.title} combines with (its title, or #number from the board).")
        card = find_card_in_play(ctx, target, targetable(ctx))
        return Aim(
            "card", str(card.id), None, None, None, card_offensive(ctx, caster, card), f"{card.title} (#{card.id})"
        )
    if spell.role == "Attack":
        if spell.area == "global":
            # glossary "Area:G": "Global Attacks impact all Magi", in the center of the arena; always offensive
            return Aim("global", "all", "attack", None, None, True, "every being in the battle (Area:G)")
        foes = [x for x in b.beings.values() if x.team != caster.team and not x.incapacitated]
        if target is None:
            if spell.area == "team" and len({f.team for f in foes}) == 1:
                return _team_aim(foes[0].team, caster)
            if len(foes) == 1:
                victim = foes[0]
            else:
                raise RuleError(f"Name a target for {spell.title}: " + ", ".join(f.name for f in foes) + ".")
        else:
            teams = {fold(t): t for t in b.teams()}
            if spell.area == "team" and fold(target) in teams:
                team = teams[fold(target)]
                if team == caster.team:
                    raise RuleError("An Attack must target an opponent; that is your own team.")
                return _team_aim(team, caster)
            victim = find_being(ctx, caster, target)
        if victim.team == caster.team:
            raise RuleError(f"An Attack must target an opponent; {victim.name} is on your team.")
        if victim.incapacitated:
            raise RuleError(f"{victim.name} is incapacitated and cannot be targeted.")
        if spell.area == "team":
            return _team_aim(victim.team, caster)
        cloak = cloaked_by(ctx, victim)
        if cloak:
            raise RuleError(
                f"{victim.name} is Cloaked by {cloak}: opponents cannot target them (Area spells still reach them)."
            )
        return Aim("being", victim.key, "attack", victim.key, None, True, victim.name)
    if spell.role in ("Defense", "Enhance", "Component"):
        zone = "enhance" if spell.role == "Enhance" else "defense"
        if spell.defense == "Evade":
            effect = find_effect(ctx, target)
            return Aim("effect", str(effect.id), None, caster.key, None, False, effect.title)
        ally = caster if target is None else find_being(ctx, caster, target)
        if ally.team != caster.team:
            raise RuleError(f"{spell.role} spells target yourself or an ally; {ally.name} is an opponent.")
        if spell.role == "Component" and ally.key != caster.key and ally.kind != "magi":
            raise RuleError("Components go in your own (or an ally Magi's) Defense zone.")
        if spell.area == "team" and spell.role != "Component":
            # an Area Enhancement helps the whole team but fills one slot: the caster's
            bearer = caster.key if spell.role == "Enhance" else None
            return Aim("team", caster.team, zone, bearer, caster.team, False, f"team {caster.team}")
        return Aim("being", ally.key, zone, ally.key, None, False, ally.name)
    # Abjuration: targets another spell, active or manifesting
    if spell.area == "team":
        return _area_abjuration_aim(ctx, caster, spell, target)
    dispel = spell.dispel
    wants_manifesting = spell.target_manifesting or (dispel is not None and dispel.targets == "manifesting")
    if wants_manifesting:
        effect = find_effect(ctx, target)
        if not effect.is_spell:
            raise RuleError(
                f"{effect.title} is not a spell: abilities and maintenance impacts cannot be targeted by Abjurations."
            )
        return Aim(
            "effect", str(effect.id), None, None, None, ctx.being(effect.caster).team != caster.team, effect.title
        )
    if target is None:
        raise RuleError(f"Name the spell {spell.title} targets (its title, or #number from the board).")
    card = find_card_in_play(ctx, target, targetable(ctx))
    return Aim("card", str(card.id), None, None, None, card_offensive(ctx, caster, card), f"{card.title} (#{card.id})")


def targetable(ctx: Ctx) -> list[CardState]:
    """Active spells a spell may target: not Dormant, not a Nam-Shub ("immune to regular spells"), not an Artifact."""
    return [c for c in ctx.battle.active() if ctx.spell(c.title).role not in ("Nam-Shub", "Artifact")]


def card_offensive(ctx: Ctx, caster: Being, card: CardState) -> bool:
    """Targeting a spell is offensive when it sits in an opponent's zone (glossary "Offensive Action")."""
    owner_side = ctx.battle.beings.get(card.bearer or "") or ctx.being(card.controller or card.owner)
    if card.team is not None:
        return card.team != caster.team and card.zone in ("defense", "enhance", "curse")
    offensive = owner_side.team != caster.team and card.zone in ("defense", "enhance", "curse")
    if card.zone in ("curse", "attack") and card.bearer == caster.key:
        offensive = False  # an opponent's spell in your own Attack or Curse zone
    return offensive


def area_abjuration_targets(ctx: Ctx, spell: Spell, team: str, exclude: int | None = None) -> list[CardState]:
    """Glossary "Abjuration Spell": with Area it "targets all validly targetable spells for all Magi of a given team".

    Active spells in that team's zones (each member's and the team zone), or, for a
    Dispel of manifesting spells, every spell that team's Magi are casting.
    """
    b = ctx.battle
    members = {m.key for m in b.team_members(team)}
    wants_manifesting = spell.target_manifesting or (spell.dispel is not None and spell.dispel.targets == "manifesting")
    if wants_manifesting:
        cards = [ctx.card(e.card) for e in b.stack if e.is_spell and e.card is not None and e.caster in members]
    else:
        cards = [c for c in targetable(ctx) if c.team == team or (c.team is None and c.bearer in members)]
    return [c for c in cards if c.id != exclude]


def _area_abjuration_aim(ctx: Ctx, caster: Being, spell: Spell, target: str | None) -> Aim:
    b = ctx.battle
    teams = {fold(t): t for t in b.teams()}
    if target is None:
        raise RuleError(
            f"{spell.title} has Area: name the team whose spells it targets (or one of its beings). "
            f"Teams: {', '.join(b.teams())}."
        )
    team = teams.get(fold(target)) or find_being(ctx, caster, target).team
    if not area_abjuration_targets(ctx, spell, team):
        raise RuleError(f"Team {team} has no spell {spell.title} can target now.")
    return Aim("team", team, None, None, None, team != caster.team, f"every spell of team {team}")


def _ally_aim(ctx: Ctx, caster: Being, spell: Spell) -> Aim:
    """Glossary "Ally Spell": the caster summons a Koishaka at their side and is its controller."""
    if not caster.is_magi:
        raise RuleError('Only a Magi summons a Koishaka (glossary "Ally Spell").')
    if spell.ally_essence is None:
        raise RuleError(
            f"The book does not give the Essence of {spell.title}'s Koishaka. A GM sets it with "
            f'`/serpent spell define name:"{spell.title}" aspects:"Ally Essence 5"` and the action can be tried again.'
        )
    return Aim("being", caster.key, "enhance", caster.key, None, False, f"{caster.name}'s side")


def _team_aim(team: str, caster: Being) -> Aim:
    return Aim("team", team, "attack", None, team, True, f"team {team}")


# ---------------------------------------------------------------- Intoning


def normalize_phrase(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s']", " ", text.casefold()).split())


def intone(ctx: Ctx, caster: Being, spell: Spell, phrase: str | None) -> bool | None:
    """None: not Intoned. True: "Alum!". False: "Kotukh!" (a miscast)."""
    if phrase is None or not phrase.strip():
        if spell.eloquent:
            raise RuleError(f'{spell.title} is Eloquent: it must be Intoned (give intone:"...").')
        return None
    if spell.cast_phrase is None:
        raise RuleError(
            f"The book does not give {spell.title}'s cast phrase, so it cannot be judged. Cast it without intone, "
            f'or a GM sets it with `/serpent spell define name:"{spell.title}" cast_phrase:...`.'
        )
    return normalize_phrase(phrase) == normalize_phrase(spell.cast_phrase)


def miscast(ctx: Ctx, caster: Being, card: CardState, spell: Spell) -> None:
    """Kotukh!: lose 1 Harmony (plus Eloquent), everyone else gains 1 Resonance, the spell returns unprepared."""
    rules = ctx.book.rules
    loss = rules.miscast_harmony + spell.eloquent
    lose(ctx, caster, "Harmony", loss, "a miscast")
    for other in ctx.battle.beings.values():
        if other.key != caster.key:
            gain(ctx, other, "Resonance", rules.miscast_others_resonance, "a miscast")
    card.location = "codex"
    caster.miscast_titles.append(spell.title)
    ctx.j.say(
        f"🗣 **Kotukh!** {caster.name} miscasts {spell.title}: loses {loss} Harmony (now {caster.harmony}); "
        f"everyone else gains {rules.miscast_others_resonance} Resonance. "
        f"{spell.title} returns to the Codex unprepared.",
        "miscast",
        spell=spell.title,
    )


# ---------------------------------------------------------------- paying


def price(
    ctx: Ctx, caster: Being, spell: Spell, req: CastRequest, target: str | None
) -> tuple[dict[Energy, int], dict[Energy, int], Boost, list[str]]:
    """Costs and gains of the orbs, upgrades and ritual tiers; the boost bought; and how it was worked out."""
    costs: dict[Energy, int] = {}
    gains: dict[Energy, int] = {}
    notes: list[str] = []
    require(spell, "resonance", "Resonance cost")
    require(spell, "harmony", "Harmony cost")
    boost, sources = boosts(ctx, caster, spell, target)
    orbs: tuple[tuple[Energy, int], ...] = (("Resonance", spell.resonance or 0), ("Harmony", spell.harmony or 0))
    for energy, orb in orbs:
        net = orb + (boost.add_resonance if energy == "Resonance" else 0)
        if net < 0:
            costs[energy] = costs.get(energy, 0) - net
        elif net > 0:
            gains[energy] = net
    if boost.add_resonance:
        notes.append(f"orb {spell.resonance or 0:+d} Resonance, " + "; ".join(s for s in sources if "Resonance" in s))
    bought = Boost()
    for key in req.upgrades:
        upgrade = next(
            (u for u in spell.upgrades if fold(u.key) == fold(key) or fold(u.text).startswith(fold(key))), None
        )
        if upgrade is None:
            offered = ", ".join(u.key for u in spell.upgrades) or "none"
            raise RuleError(f"{spell.title} has no upgrade {key!r}. Its upgrades: {offered}.")
        chosen = upgrade.prices[0]
        if req.upgrade_with:
            chosen = next((p for p in upgrade.prices if fold(req.upgrade_with) in (fold(e) for e in p)), None) or chosen
            if fold(req.upgrade_with) not in (fold(e) for e in chosen):
                ways = " or ".join(", ".join(f"{v} {k}" for k, v in p.items()) for p in upgrade.prices)
                raise RuleError(f"The {upgrade.key} upgrade is paid with {ways}.")
        for energy, amount in chosen.items():
            costs[energy] = costs.get(energy, 0) + amount
        bought = add(bought, upgrade.boost)
        notes.append(f"upgrade {upgrade.key}: " + ", ".join(f"{v} {k}" for k, v in chosen.items()))
    helpers = pledges_for(ctx, caster, spell)
    total = req.tiers + sum(p.tiers for _, p in helpers)
    if total:
        path = spell.ritual_path
        if total > len(path):
            raise RuleError(
                f"{spell.title} has {len(path)} ritual path tiers; you asked for {total}"
                + (" (with your Allies' pledges)" if helpers else "")
                + "."
            )
        for energy, amount in tier_costs(req.tiers, req.tiers_with_will).items():
            costs[energy] = costs.get(energy, 0) + amount
        for tier in path[:total]:
            if tier is not None:
                bought = add(bought, tier)
        paid = ", ".join(f"{v} {k}" for k, v in tier_costs(req.tiers, req.tiers_with_will).items()) or "nothing"
        notes.append(f"ritual path {total} tier(s): {req.tiers} by {caster.name} ({paid})")
        for ally, pledge in helpers:
            share = ", ".join(f"{v} {k}" for k, v in tier_costs(pledge.tiers, pledge.will).items())
            notes.append(f"{pledge.tiers} by {ally.name} ({share})")
    return costs, gains, bought, notes


def tier_costs(tiers: int, with_will: bool) -> dict[Energy, int]:
    """Glossary "Ritual Path": "Tiers cost 1 Harmony for 1 tier or 1 Will for 3 tiers"."""
    wills = tiers // 3 if with_will else 0
    harmony = tiers - 3 * wills
    return {k: v for k, v in (("Will", wills), ("Harmony", harmony)) if v}  # type: ignore[misc]


def pledges_for(ctx: Ctx, caster: Being, spell: Spell) -> list[tuple[Being, Pledge]]:
    """Glossary "Ritual Path": "Human Allies may help to upgrade your Ritual Path at the same price. An Ally's
    investment is cumulative with your own." Pledges wait for the caster's next spell with a ritual path."""
    if not spell.ritual_path:
        return []
    return [
        (ally, ally.pledge)
        for ally in ctx.battle.beings.values()
        if ally.pledge is not None and ally.pledge.to == caster.key and not ally.incapacitated
    ]


def cast(ctx: Ctx, caster: Being, req: CastRequest) -> None:
    """A turn's cast from the prepared spells (Free Action spells too)."""
    require_turn(ctx, caster, "Casting a spell")
    spell = ctx.spell(req.spell)
    rite = next((c for c in ctx.battle.cards_in("rite", caster.key) if c.title == spell.title), None)
    card = rite or next((c for c in ctx.battle.cards_in("prepared", caster.key) if c.title == spell.title), None)
    if card is None:
        prepared = ", ".join(c.title for c in ctx.battle.cards_in("prepared", caster.key)) or "nothing"
        hint = " Response spells are cast with /serpent respond while a spell is manifesting." if spell.response else ""
        raise RuleError(
            f"{caster.name} has not prepared {spell.title}; only prepared spells can be cast. "
            f"Prepared: {prepared}.{hint}"
        )
    if spell.title in caster.miscast_titles:
        raise RuleError(f"{caster.name} miscast {spell.title} this turn and cannot cast it again this turn.")
    blocked = prevented(ctx, caster, spell)
    if blocked:
        raise RuleError(f"{caster.name} cannot cast {spell.title}: {blocked}.")
    upgrade_free = any(u.boost.free_action for u in spell.upgrades if any(fold(u.key) == fold(k) for k in req.upgrades))
    # glossary "Free Action (spell aspect)": on a "# Actions" spell Free Action only takes 1 off the Full Actions
    # needed; "Absolute Free Action" makes it a Free Action anyway
    plain_free = free_action(ctx, caster, spell) or upgrade_free
    needed = 1 if spell.absolute_free_action else max(1, spell.actions - int(plain_free and spell.actions > 1))
    free = spell.absolute_free_action or (plain_free and spell.actions == 1)
    if not free:
        require_full_action(caster)
    spoken = rite.rite_spoken if rite is not None else intone(ctx, caster, spell, req.intone)
    if spoken is False:
        miscast(ctx, caster, card, spell)
        next_turn(ctx)
        return
    if needed > 1 and card.rite_actions + 1 < needed:
        into_rite(ctx, caster, card, spell, spoken, needed)
        return
    effect = place_and_pay(ctx, caster, card, spell, req, spoken, response=False)
    card.rite_actions, card.rite_spoken = 0, None
    if not free:
        spend_full_action(ctx, caster, rite=card if needed > 1 else None)
    action = "a Free Action" if free else f"a Full Action ({caster.full_actions} left)"
    ctx.j.say(f"{caster.name} used {action}.")
    ctx.battle.stack.append(effect)
    next_turn(ctx)


def into_rite(ctx: Ctx, caster: Being, card: CardState, spell: Spell, spoken: bool | None, needed: int) -> None:
    """Glossary "# Actions": "The spell is Spoken then placed in the Rite zone until the Magi has enough Full Actions
    invested into the spell"; then it is cast like any just-Spoken spell (target, costs, Response phase)."""
    first = card.location != "rite"
    card.location = "rite"
    card.rite_actions += 1
    card.rite_spoken = spoken
    spend_full_action(ctx, caster, rite=card)
    left = needed - card.rite_actions
    how = "is Spoken into the Rite zone" if first else "advances in the Rite zone"
    ctx.j.say(
        f"🕯 {caster.name}'s {spell.title} {how}: {card.rite_actions} of {needed} Full Actions invested; "
        f"{left} more and it is cast (target and costs then). {caster.full_actions} Full Action(s) left.",
        "rite",
        card=card.id,
        invested=card.rite_actions,
        needed=needed,
    )
    next_turn(ctx)


def respond(ctx: Ctx, caster: Being, req: CastRequest) -> None:
    """ "Fasul!": a Response spell from the Codex, cast out of turn while something is manifesting."""
    b = ctx.battle
    if b.phase not in ("actions", "maintenance") or not b.stack:
        raise RuleError("There is nothing manifesting to respond to right now.")
    spell = ctx.spell(req.spell)
    card = next(
        (
            c
            for c in b.cards.values()
            if c.owner == caster.key and c.location in ("codex", "prepared") and c.title == spell.title
        ),
        None,
    )
    if card is None:
        raise RuleError(f"{caster.name} has no {spell.title} in their Codex to cast.")
    aims_effect = (spell.target_manifesting or spell.defense == "Evade") and not (
        spell.role == "Abjuration" and spell.area == "team"  # an Area Abjuration names a team instead
    )
    target_effect = find_effect(ctx, req.target) if aims_effect else b.stack[-1]
    holder = priority_holder(ctx, b.stack[-1])
    if holder is not None and holder != caster.key:
        raise RuleError(
            f"{ctx.name(holder)} cast {b.stack[-1].title} and has priority for the first Response "
            f'(glossary "Priority"): wait until they respond or pass.'
        )
    problem = response_problem(ctx, caster, spell, target_effect)
    if problem:
        raise RuleError(f"{caster.name} cannot respond with {spell.title}: {problem}.")
    spoken = intone(ctx, caster, spell, req.intone)
    if spoken is False:
        miscast(ctx, caster, card, spell)
        return
    if req.target is None and aims_effect:
        req = CastRequest(**{**req.__dict__, "target": f"#{target_effect.id}"})
    effect = place_and_pay(ctx, caster, card, spell, req, spoken, response=True)
    effect.response = True
    if not free_action(ctx, caster, spell):
        caster.stones += 1
        ctx.j.say(f"{caster.name} takes an interrupt stone ({caster.stones} held).", "stone", stones=caster.stones)
    b.stack.append(effect)


def place_and_pay(
    ctx: Ctx, caster: Being, card: CardState, spell: Spell, req: CastRequest, spoken: bool | None, response: bool
) -> Effect:
    target = aim(ctx, caster, spell, req.target)
    costs, gains, bought, notes = price(ctx, caster, spell, req, target.bearer)
    plan = plan_cast(ctx, caster, spell, target.bearer or caster.key, req.component)
    for energy, amount in plan.costs.items():
        costs[energy] = costs.get(energy, 0) + amount
    for ally, pledge in pledges_for(ctx, caster, spell):
        short = shortfall(ally, tier_costs(pledge.tiers, pledge.will))
        if short:
            raise RuleError(f"{ally.name} pledged {pledge.tiers} ritual tier(s) but cannot pay: needs {short}.")
    problem = shortfall(caster, costs)
    if problem:
        raise RuleError(
            f"{caster.name} cannot pay for {spell.title}: needs {problem}. "
            "An energy exchange (/serpent exchange) or Meditate may help."
        )
    sealed = bought.sealed  # glossary "Sealed": the Duration F spell becomes Duration P and needs no Focus
    if spell.duration and spell.duration.kind == "F" and not sealed and caster.focus_total < 1:
        raise RuleError(f"{spell.title} has Duration F and {caster.name} has no Focus.")
    # -- place
    b = ctx.battle
    b.placed += 1
    card.location = "manifesting"
    card.caster = caster.key
    card.controller = caster.key
    card.zone = target.zone
    card.bearer = target.bearer
    card.team = target.team if spell.area == "team" or target.kind == "team" else None
    card.global_area = target.kind == "global"
    card.order = b.placed
    card.upgrades = list(req.upgrades)
    helpers = pledges_for(ctx, caster, spell)
    card.tiers = req.tiers + sum(p.tiers for _, p in helpers)
    card.boost = bought
    verb = "Intones" if spoken else "casts"
    alum = " — **Alum!**" if spoken else ""
    ctx.j.say(
        f"🔮 {caster.name} {verb} **{spell.title}** at {target.label}{alum}.",
        "cast",
        caster=caster.name,
        spell=spell.title,
        card=card.id,
        target=target.label,
        response=response,
    )
    # -- pay
    payment = Payment()
    for energy, amount in costs.items():
        if amount:
            lose(ctx, caster, energy, amount, f"paying for {spell.title}")
            payment.energies[energy] = amount
    for energy, amount in gains.items():
        got = gain(ctx, caster, energy, amount, spell.title)
        payment.gained[energy] = got
    for component in plan.sacrifice:
        payment.sacrificed.append(component.model_copy(deep=True))
        discard(ctx, component, f"paid as {spell.title}'s requirement")
    if plan.burn_focus:
        caster.focus_total -= plan.burn_focus
        caster.burned_focus += plan.burn_focus
        ctx.j.say(
            f"{caster.name} burns {plan.burn_focus} Focus ({caster.focus_total} left; re-attune it in preparation).",
            "burn_focus",
        )
        if caster.focus_total < 1:
            release_focus(ctx, caster, f"{caster.name} burned their Focus")
    for source, kind, amount in plan.charges:
        source.charges[kind] -= amount
        if not source.charges[kind]:
            source.charges.pop(kind)
        payment.charges.append(ChargePaid(card=source.id, kind=kind, amount=amount))
        ctx.j.say(f"{caster.name} discards {amount} {kind} charge(s) from {source.title}.")
    for ally, pledge in pledges_for(ctx, caster, spell):
        share = tier_costs(pledge.tiers, pledge.will)
        for energy, amount in share.items():
            lose(ctx, ally, energy, amount, f"ritual tiers for {spell.title}")
        payment.allies[ally.key] = share
        ally.pledge = None
        paid = ", ".join(f"{v} {k}" for k, v in share.items())
        ctx.j.say(f"{ally.name} pays {paid} for {pledge.tiers} of {spell.title}'s ritual tiers.", "pledge_paid")
    card.paid = payment
    paid = ", ".join(f"{v} {k}" for k, v in payment.energies.items()) or "nothing"
    got = ", ".join(f"{v} {k}" for k, v in payment.gained.items())
    extra = " (" + "; ".join(notes) + ")" if notes else ""
    ctx.j.say(
        f"{caster.name} pays {paid}{' and gains ' + got if got else ''}{extra}. "
        f"Now: Resonance {caster.resonance}, Essence {caster.essence}.",
        "pay",
        paid=payment.energies,
        gained=payment.gained,
    )
    if spoken:
        fluency = card.fluency or spell.fluency or 0  # the copy's printed fluency (a variant may differ)
        caster.voice += fluency
        ctx.j.say(f"{caster.name} gains {fluency} Voice for Intoning.", "voice", voice=caster.voice)
    if spell.duration and spell.duration.kind == "F" and not sealed:
        release_focus(ctx, caster, f"{caster.name}'s Focus moves to {spell.title}")
        card.focus = caster.key
        ctx.j.say(f"{caster.name} places their Focus on {spell.title}.")
    effect = Effect(
        id=b.new_id(),
        title=spell.title,
        kind="spell",
        card=card.id,
        caster=caster.key,
        target_kind=target.kind,
        target=target.target,
        is_spell=True,
        offensive=target.offensive,
        free_action=free_action(ctx, caster, spell),
        replace=req.replace,
        veiled=spell.veiled,
    )
    karma(ctx, effect, caster)
    return effect


def karma(ctx: Ctx, effect: Effect, caster: Being) -> None:
    """Karmic Debt: each offensive spell its bearer casts at its controller adds a Karma charge."""
    if not effect.is_spell or not effect.offensive:
        return
    hit: set[str] = set()
    if effect.target_kind == "being" and effect.target:
        hit.add(effect.target)
    elif effect.target_kind == "team" and effect.target:
        hit.update(b.key for b in ctx.battle.team_members(effect.target))
    elif effect.target_kind == "global":
        hit.update(ctx.battle.beings)
    elif effect.target_kind == "card" and effect.target:
        target = ctx.battle.cards.get(int(effect.target))
        if target is not None and target.bearer:
            hit.add(target.bearer)
    elif effect.target_kind == "effect" and effect.target:
        target_effect = next((e for e in ctx.battle.stack if e.id == int(effect.target)), None)
        if target_effect is not None:
            hit.add(target_effect.caster)
    for card in ctx.battle.active():
        for passive in ctx.spell(card.title).passives:
            if passive.kind != "charge_on_offense" or not passive.charge:
                continue
            if caster.key in bearers(ctx, card) + card.affected and card.controller in hit:
                card.charges[passive.charge] = card.charges.get(passive.charge, 0) + 1
                ctx.j.say(
                    f"☯ {caster.name} cast an offensive spell at {ctx.name(card.controller)}: "
                    f"a {passive.charge} charge "
                    f"goes on {card.title} ({card.charges[passive.charge]} now).",
                    "charge",
                    card=card.id,
                    charges=card.charges[passive.charge],
                )


# ---------------------------------------------------------------- abilities


def use_ability(ctx: Ctx, user: Being, name: str, target: str | None) -> None:
    """An ability an active spell grants its bearer, e.g. Beast Form's Free Action attack."""
    require_turn(ctx, user, "Using an ability")
    artifact = artifact_card(ctx, user, name)
    if artifact is not None:
        if phased_by(ctx, user):
            raise RuleError(f"{user.name} is Phased: they may only meditate (and take innate Actions).")
        victim = find_being(ctx, user, target) if target else None
        ctx.battle.stack.append(activate_artifact(ctx, user, artifact, victim))
        next_turn(ctx)
        return
    options = []
    for card in ctx.battle.active():
        if user.key not in bearers(ctx, card):
            continue
        for ability in ctx.spell(card.title).abilities:
            options.append((card, ability))
    match = [(c, a) for c, a in options if fold(a.name) == fold(name) or fold(c.title) == fold(name)]
    if not match:
        known = ", ".join(a.name for _, a in options) or "none"
        raise RuleError(f"{user.name} has no ability {name!r}. Abilities: {known}.")
    card, ability = match[0]
    used = card.ability_uses.get(ability.name, 0)
    if ability.per_round is not None and used >= ability.per_round:
        raise RuleError(f"{ability.name} is used {ability.per_round} time(s) per round; it has been used.")
    if not ability.free_action:
        require_full_action(user)
    foes = [x for x in ctx.battle.beings.values() if x.team != user.team and not x.incapacitated]
    if target is None:
        if len(foes) != 1:
            raise RuleError(f"Name a target for {ability.name}: " + ", ".join(f.name for f in foes) + ".")
        victim = foes[0]
    else:
        victim = find_being(ctx, user, target)
    if ability.offensive and victim.team == user.team:
        raise RuleError(f"{ability.name} is offensive: target an opponent.")
    phase = phased_by(ctx, user)
    if phase:
        raise RuleError(f"{user.name} is Phased by {phase}: they may only meditate (and take innate Actions).")
    cloak = cloaked_by(ctx, victim) if victim.team != user.team else None
    if cloak:
        raise RuleError(f"{victim.name} is Cloaked by {cloak}: opponents cannot target them.")
    spell = ctx.spell(card.title)
    card.ability_uses[ability.name] = used + 1
    if not ability.free_action:
        spend_full_action(ctx, user)
    impact = Impact(
        sphere=spell.sphere,
        physical=bool(ability.dmg and ability.dmg.physical),
        descriptors=list(spell.descriptors),
        dmg=ability.dmg,
    )
    ctx.j.say(
        f"🐾 {user.name} uses **{ability.name}** ({card.title}) on {victim.name}: {ability.text.split('.')[0]}.",
        "ability",
        ability=ability.name,
        target=victim.name,
    )
    ctx.battle.stack.append(
        Effect(
            id=ctx.battle.new_id(),
            title=ability.name,
            kind="ability",
            card=None,
            ability=ability.name,
            caster=user.key,
            target_kind="being",
            target=victim.key,
            is_spell=ability.is_spell,
            offensive=ability.offensive,
            free_action=ability.free_action,
            impact=impact,
        )
    )
    next_turn(ctx)
