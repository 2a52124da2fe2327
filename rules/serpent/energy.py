"""Energies, incapacitation and leaving play: the small moves every other step is made of.

The limits live here once (RULING 11): Essence never above the starting Essence,
Resonance, Will and Voice never below 0, 20 Discord incapacitates at once
(RULING 8), and an incapacitated being neither gains nor pays.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.book import Energy
from rules.serpent.context import Ctx
from rules.serpent.control import enjoined
from rules.serpent.state import Being, CardState, Location

DISCORD_LIMIT = 20
LEAVING: dict[str, Location] = {"discard": "discard", "banish": "banished", "codex": "codex"}


def amount_of(being: Being, energy: Energy) -> int:
    return {
        "Resonance": being.resonance,
        "Harmony": being.harmony or 0,
        "Essence": being.essence,
        "Will": being.will,
        "Voice": being.voice,
    }[energy]


def _set(being: Being, energy: Energy, value: int) -> None:
    if energy == "Resonance":
        being.resonance = max(0, value)
    elif energy == "Harmony":
        if being.harmony is not None:  # an Encounter without Harmony stays at none (counts as 0)
            being.harmony = value
    elif energy == "Essence":
        being.essence = max(0, min(value, being.starting_essence))
    elif energy == "Will":
        being.will = max(0, value)
    else:
        being.voice = max(0, value)


def shortfall(being: Being, costs: dict[Energy, int]) -> str | None:
    """What the being cannot pay, in words; Harmony is never short because it may go negative."""
    missing = []
    for energy, amount in costs.items():
        if amount <= 0 or energy == "Harmony":
            continue
        have = amount_of(being, energy)
        if have < amount:
            missing.append(f"{amount} {energy} (has {have})")
    return ", ".join(missing) or None


def pay(ctx: Ctx, being: Being, costs: dict[Energy, int], why: str) -> None:
    problem = shortfall(being, costs)
    if problem:
        raise RuleError(f"{being.name} cannot pay {why}: needs {problem}.")
    for energy, amount in costs.items():
        if amount:
            _set(being, energy, amount_of(being, energy) - amount)
    after_change(ctx, being, why)


def gain(ctx: Ctx, being: Being, energy: Energy, amount: int, why: str) -> int:
    """Gain energy (Infusion, orbs, Meditate): nothing while incapacitated; Essence capped at the start."""
    if amount <= 0 or being.incapacitated:
        return 0
    if energy == "Harmony" and being.harmony is None:
        return 0
    injunction = enjoined(ctx, being, energy)
    if injunction:
        ctx.j.say(f"{being.name} gains no {energy} ({why}): {injunction} enjoins it.", "injunction", energy=energy)
        return 0
    before = amount_of(being, energy)
    _set(being, energy, before + amount)
    return amount_of(being, energy) - before


def lose(ctx: Ctx, being: Being, energy: Energy, amount: int, why: str, check: bool = True) -> int:
    """Dmg: subtract and clamp; returns what was actually lost (Siphon infuses that much).

    ``check=False`` lets the caller report the loss before announcing an incapacitation.
    """
    if amount <= 0:
        return 0
    if energy == "Harmony" and being.harmony is None:
        return 0
    before = amount_of(being, energy)
    _set(being, energy, before - amount)
    lost = before - amount_of(being, energy)
    if check:
        after_change(ctx, being, why)
    return lost


def after_change(ctx: Ctx, being: Being, why: str) -> None:
    """Incapacitation is checked whenever Essence or Harmony falls: 0 Essence, or 20 Discord at once."""
    if being.incapacitated:
        return
    if being.essence <= 0:
        incapacitate(ctx, being, f"{being.name} has no Essence left ({why})")
    elif being.harmony is not None and being.harmony <= -DISCORD_LIMIT:
        incapacitate(ctx, being, f"{being.name} reaches {DISCORD_LIMIT} Discord ({why})")


def incapacitate(ctx: Ctx, being: Being, reason: str) -> None:
    being.incapacitated = True
    being.passed = True
    word = "is defeated" if being.kind == "encounter" else "is incapacitated"
    ctx.j.say(f"💀 {reason}: {being.name} {word}.", "incapacitated", being=being.name)
    release_focus(ctx, being, "an incapacitated Magi cannot sustain Focus")
    source = ctx.battle.cards.get(being.summoned_by or 0)
    if source is not None and source.location == "play":
        discard(ctx, source, f"its Koishaka {being.name} is gone")


def release_focus(ctx: Ctx, being: Being, why: str) -> list[str]:
    """Every Duration F spell held by this being's Focus is discarded at once."""
    lost = []
    for card in list(ctx.battle.in_play()):
        if card.focus == being.key:
            card.focus = None
            discard(ctx, card, why)
            lost.append(card.title)
    return lost


def discard(ctx: Ctx, card: CardState, why: str, to: str = "discard") -> None:
    """Move a card out of play to its owner's discard pile (or banish it, or back to the Codex)."""
    where = {"discard": "discarded", "banish": "banished", "codex": "returned to the Codex"}[to]
    card.location = LEAVING[to]
    card.zone = None
    card.bearer = None
    card.team = None
    card.global_area = False
    card.duration = None
    card.persistent = False
    card.focus = None
    card.durability = None
    card.charges = {}
    card.affected = []
    card.let_go = False
    for koishaka in ctx.battle.beings.values():
        if koishaka.summoned_by == card.id and not koishaka.incapacitated:
            koishaka.incapacitated = koishaka.passed = True
            ctx.j.say(f"{koishaka.name} leaves the battle with its spell.", "incapacitated", being=koishaka.name)
    was_combined_with = card.combined_with
    card.combined_with = None
    card.dormant = False
    ctx.j.say(f"{card.title} (#{card.id}, {ctx.name(card.owner)}) is {where}: {why}.", "discard", card=card.id, to=to)
    for other in ctx.battle.in_play():
        if other.combined_with == card.id:  # glossary "Combination": its Transmutes go with it
            discard(ctx, other, f"the spell it was combined with, {card.title}, is gone")
    target = ctx.battle.cards.get(was_combined_with or 0)
    if target is not None and target.dormant and ctx.spell(card.title).makes_dormant:
        wake(ctx, target)


def wake(ctx: Ctx, card: CardState) -> None:
    """Glossary "Re-activate": it "simply resumes being Active. It does not impact." """
    still = any(o.combined_with == card.id and ctx.spell(o.title).makes_dormant for o in ctx.battle.in_play())
    if still or card.location != "play":
        return
    for dormant in [card, *(c for c in ctx.battle.in_play() if c.combined_with == card.id)]:
        dormant.dormant = False
    ctx.j.say(f"{card.title} re-activates (no impact).", "reactivate", card=card.id)


def energy_line(being: Being) -> str:
    """The energies the way the walkthrough's summaries state them."""
    parts = [f"Essence {being.essence}", f"Resonance {being.resonance}"]
    if being.harmony is not None:
        parts.append(f"Harmony {being.harmony}")
    if being.is_magi:
        parts.append(f"Will {being.will}")
        parts.append(f"Voice {being.voice}")
    if being.stones:
        parts.append(f"stones {being.stones}")
    return ", ".join(parts)
