"""What the channel reads: action cards, the board and the "what now" line, within Discord's embed limits.

Every card ends by telling the table whose move it is and what they may do,
because in play-by-post the next person may read it hours later.
"""

from __future__ import annotations

from typing import Any

from rules.base import Card, Tone, fit
from rules.serpent.context import Ctx
from rules.serpent.energy import energy_line
from rules.serpent.state import Battle, Being, CardState, SerpentSettings
from rules.serpent.turns import window_waiting
from rules.text import EMBED_TOTAL, FIELD_NAME, FIELD_VALUE, FIELDS, clip

# A window closes at the campaign's play-by-post deadline for each Magi asked (bot/table/pbp.py, rules/serpent/waits.py)
WINDOW_CLOCK = " In play-by-post each Magi asked has until the campaign's response_window deadline (/campaign waiting)."


def story(lines: list[str], limit: int = 3500) -> str:
    """The journal as a card description; a long one keeps its start and end."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    head, tail = [], []
    size = 0
    for line in lines:
        if size + len(line) > limit // 2:
            break
        head.append(line)
        size += len(line) + 1
    size = 0
    for line in reversed(lines):
        if size + len(line) > limit // 2 - 60:
            break
        tail.insert(0, line)
        size += len(line) + 1
    skipped = len(lines) - len(head) - len(tail)
    return "\n".join([*head, f"… ({skipped} more lines in the log) …", *tail])


def now_text(ctx: Ctx) -> str:
    """Whose move it is and what they may do: the closing line of every battle card."""
    b = ctx.battle
    if b.phase == "setup":
        names = ", ".join(f"{x.name} ({x.team})" for x in b.beings.values()) or "nobody yet"
        return (
            f"Battle setup. In: {names}. Magi join with /serpent battle join; "
            "the GM starts round 1 with /serpent battle round."
        )
    if b.phase == "over":
        return (
            "The battle is over: "
            + ("a draw." if b.winner == "draw" else f"team {b.winner} wins.")
            + " The GM ends it with /serpent battle end."
        )
    if b.stack:
        top = b.stack[-1]
        waiting = [ctx.name(k) for k in window_waiting(ctx, top)]
        return (
            f"Response window on **{top.title}** (#{top.id}, by {ctx.name(top.caster)}): "
            + ", ".join(waiting)
            + ' may /serpent respond ("Fasul!") or /serpent pass.'
            + WINDOW_CLOCK
        )
    if b.phase == "preparation":
        waiting = ", ".join(x.name for x in b.beings.values() if not x.ready)
        most = ctx.book.rules.max_prepared
        return f"Round {b.round}, spell preparation: {waiting} may /serpent reattune, then prepare ({most} max)."
    if b.phase == "round_end":
        return f"Round {b.round} is over. The GM starts round {b.round + 1} with /serpent battle round."
    current = b.current()
    if current is None:
        return f"Round {b.round}, {b.phase} phase."
    return f"Round {b.round}, action phase: **{current.name}**'s turn. " + turn_hint(ctx, current)


def turn_hint(ctx: Ctx, being: Being) -> str:
    prepared = [c.title for c in ctx.battle.cards_in("prepared", being.key)]
    parts = [f"{being.full_actions} Full Action(s) left"]
    if being.stones:
        parts.append(
            f"{being.stones} interrupt stone(s): the next Full Action must be /serpent shed-stone, "
            "or take a Free Action"
        )
    parts.append(f"{len(prepared)} prepared spell(s)")
    if being.spell_loss is not None:
        return f"{being.name} must first choose their {being.spell_loss.describe()} with /serpent lose."
    if being.kind == "koishaka":
        return (
            f"{being.full_actions} Full Action(s) left. {ctx.name(being.controller or '')}'s player acts for it: "
            f'meditate, use an ability, or /serpent end-turn, with magi:"{being.name}".'
        )
    return "; ".join(parts) + ". Cast, meditate, use an ability, or /serpent end-turn (done for the round)."


def card_line(ctx: Ctx, card: CardState) -> str:
    bits = [f"#{card.id} {card.title}"]
    if card.durability is not None:
        bits.append(f"Durability {card.durability}")
    if card.duration is not None:
        bits.append(f"Duration {card.duration}")
    if card.persistent:
        bits.append("Persistent")
    if card.focus:
        bits.append(f"Focus: {ctx.name(card.focus)}")
    for kind, n in card.charges.items():
        bits.append(f"{n} {kind}")
    if card.controller and card.controller != card.bearer:
        bits.append(f"by {ctx.name(card.controller)}")
    if card.let_go:
        bits.append("to be let go")
    if card.dormant:
        bits.append("Dormant")
    if card.combined_with is not None:
        bits.append(f"combined with #{card.combined_with}")
    if ctx.spell(card.title).role == "Nam-Shub":
        bits.append(f"Nam-Shub: {card.steps_done}/{ctx.spell(card.title).steps or '?'} steps")
    return " · ".join(bits)


def being_field(ctx: Ctx, being: Being) -> tuple[str, str]:
    b = ctx.battle
    status = " 💀" if being.incapacitated else (" ✓ passed" if being.passed and b.phase == "actions" else "")
    name = f"{being.name} — team {being.team}{status}"
    lines = [energy_line(being)]
    if being.is_magi:
        focus = [c.title for c in b.in_play() if c.focus == being.key]
        lines.append(
            f"Full Actions {being.full_actions}/{being.actions_per_round} · Focus: {', '.join(focus) or 'free'}"
            f" · exchange {'used' if being.exchanged else 'ready'} · prepared {len(b.cards_in('prepared', being.key))}"
            f" · discards {len(b.cards_in('discard', being.key))}"
        )
        slots = int(being.spec_active) + int(being.artifact_active)
        extras = []
        if being.spec_active:
            extras.append(f"Spec {being.spec}" + (f" ({', '.join(being.spec_tiers)})" if being.spec_tiers else ""))
        if being.artifact_active:
            extras.append(f"Artifact {being.artifact}")
        if extras:
            lines.append(" · ".join(extras))
        enh = [c for c in b.in_play() if c.zone == "enhance" and c.bearer == being.key]
        lines.append(f"Enhancement slots: {len(enh) + slots}/{ctx.book.rules.enhancement_slots}")
        rite = [f"#{c.id} {c.title} ({c.rite_actions} invested)" for c in b.cards_in("rite", being.key)]
        if rite:
            lines.append("**Rite zone:** " + "; ".join(rite))
        artifact = [c for c in b.in_play() if c.bearer == being.key and c.zone is None]
        if artifact:
            lines.append("**Artifact:** " + "; ".join(card_line(ctx, c) for c in artifact))
        waiting = []
        if being.spell_loss is not None:
            waiting.append(f"must choose {being.spell_loss.describe()} (/serpent lose)")
        if being.pledge is not None:
            waiting.append(f"pledged {being.pledge.tiers} ritual tier(s) to {ctx.name(being.pledge.to)}")
        if being.burned_focus:
            waiting.append(f"{being.burned_focus} Focus burned")
        if waiting:
            lines.append(" · ".join(waiting))
    elif being.kind == "koishaka":
        lines.append(
            f"Koishaka of {ctx.name(being.controller or '')} · Full Actions {being.full_actions}/"
            f"{being.actions_per_round}"
        )
    elif being.encounter:
        out = ", ".join(f"{n} {c}" for c, n in sorted(being.encounter.out.items())) or "none"
        lines.append(f"Actions {being.full_actions}/{being.actions_per_round} · tokens out: {out}")
    for zone in ("attack", "defense", "curse", "enhance"):
        cards = [c for c in b.in_play() if c.zone == zone and (c.bearer == being.key or being.key in c.affected)]
        if cards:
            lines.append(f"**{zone.title()}:** " + "; ".join(card_line(ctx, c) for c in cards))
    return name, "\n".join(lines)


def board(ctx: Ctx) -> Card:
    b = ctx.battle
    title = (
        f"Serpent's Tongue — round {b.round}, {b.phase.replace('_', ' ')} phase"
        if b.round
        else "Serpent's Tongue — setup"
    )
    card = Card(title=title, description=now_text(ctx))
    if b.order:
        card.description += "\nInitiative: " + " → ".join(ctx.name(k) for k in b.order)
    for being in b.beings.values():
        name, value = being_field(ctx, being)
        card.add(name, value)
    for team in b.teams():
        cards = [c for c in b.in_play() if c.team == team]
        if cards:
            card.add(
                f"Team zone {team}",
                "\n".join(f"{c.zone or 'beside the team zone'}: {card_line(ctx, c)}" for c in cards),
            )
    if b.stack:
        card.add("Manifesting", "\n".join(f"#{e.id} {e.title} by {ctx.name(e.caster)}" for e in b.stack))
    if b.log:
        card.footer = clip("Last: " + b.log[-1], 300)
    share(card)
    return fit(card)


def share(card: Card) -> None:
    """Give every field an equal share of the 6000 characters, so no participant is dropped from the board."""
    card.description = clip(card.description, 1500)
    card.fields = card.fields[:FIELDS]
    if not card.fields:
        return
    room = EMBED_TOTAL - 100 - len(card.title) - len(card.description) - len(card.footer)
    each = room // len(card.fields)
    for f in card.fields:
        f.name = clip(f.name, min(FIELD_NAME, max(20, each // 4)))
        f.value = clip(f.value, max(20, min(FIELD_VALUE, each - len(f.name))))


def window_status(battle: Battle, settings: SerpentSettings | None) -> dict[str, Any] | None:
    if not battle.stack:
        return None
    top = battle.stack[-1]
    return {
        "effect": top.title,
        "id": top.id,
        "caster": battle.beings[top.caster].name if top.caster in battle.beings else top.caster,
        "opened_at": top.opened_at,
    }


def battle_status(battle: Battle, settings: SerpentSettings | None = None) -> dict[str, Any]:
    """The stable ``data["battle"]`` block (docs/serpent.md)."""
    current = battle.current()
    return {
        "round": battle.round,
        "phase": battle.phase,
        "turn": current.name if current else None,
        "order": [battle.beings[k].name for k in battle.order if k in battle.beings],
        "window": window_status(battle, settings),
        "winner": battle.winner,
        "beings": {
            being.name: {
                "team": being.team,
                "kind": being.kind,
                "essence": being.essence,
                "resonance": being.resonance,
                "harmony": being.harmony,
                "will": being.will,
                "voice": being.voice,
                "stones": being.stones,
                "full_actions": being.full_actions,
                "passed": being.passed,
                "incapacitated": being.incapacitated,
            }
            for being in battle.beings.values()
        },
        "in_play": [
            {
                "id": c.id,
                "title": c.title,
                "zone": c.zone,
                "bearer": battle.beings[c.bearer].name if c.bearer in battle.beings else None,
                "team": c.team,
                "controller": battle.beings[c.controller].name if c.controller in battle.beings else None,
                "duration": c.duration,
                "durability": c.durability,
                "persistent": c.persistent,
                "focus": battle.beings[c.focus].name if c.focus in battle.beings else None,
                "charges": dict(c.charges),
            }
            for c in battle.in_play()
        ],
    }


def action_card(ctx: Ctx, title: str, tone: Tone = "neutral") -> Card:
    b = ctx.battle
    card = Card(title=title, description=story(ctx.j.lines), tone=tone)
    card.add("Now", now_text(ctx))
    card.footer = f"Round {b.round} · {b.phase.replace('_', ' ')} phase" if b.round else "Battle setup"
    return fit(card)
