"""What a casting shows: one card for the channel, and for Information spells a second one for the GM.

The player of an Information spell learns only that it was cast and what it
cost; the roll, the outcome and what to say go to the GM (on a critical
failure, the GM is told to lie).
"""

from __future__ import annotations

from typing import Any

from rules.base import Card, Outcome, Tone, add_field, fit
from rules.runic.cards import calamity_data, calamity_fields, gm_calamity_card, hidden_lines
from rules.runic.casting import CastResult
from rules.text import listing


def _roll_text(result: CastResult) -> str:
    roll = result.roll
    dice = "+".join(map(str, roll.dice))
    margin = f"by {abs(roll.margin)}" if roll.margin else "exactly"
    return f"3d6 [{dice}] = **{roll.total}** vs {roll.skill}: {result.outcome.replace('_', ' ')} {margin}"


def _skill_lines(result: CastResult) -> list[str]:
    lines = result.base.lines()
    lines += [f"{mod.label}: {mod.value:+d}" for mod in result.modifiers]
    lines.append(f"**Effective skill {result.effective}**")
    return lines


def _energy_lines(result: CastResult) -> list[str]:
    lines = [line.text() for line in result.plan.energy_lines]
    lines += [line.text() for line in result.cost_lines[1:]]
    lines.append(f"**Cost {result.cost}**")
    paid = result.paid
    lines.append(f"Paid **{paid.due}** from {paid.sources()}")
    return lines


def _mp_lines(result: CastResult) -> list[str]:
    paid = result.paid
    steps = "".join(f" → {step.mp} ({step.label})" for step in result.mp_steps)
    lines = [f"MP {paid.mp_before}{steps}" if len(result.mp_steps) > 1 else f"MP {paid.mp_before} → {paid.mp_after}"]
    if len(result.mp_steps) > 1:
        lines.append(f"**MP now {result.mp_after}**")
    if paid.strain_fp:
        lines.append(f"Strain: {paid.strain_fp} FP (MP lost at or below -1 × maximum MP)")
    if paid.item_before is not None and paid.item:
        lines.append(f"Implement {paid.item_before} → {paid.item_after}")
    return lines


def _contest_lines(result: CastResult) -> list[str]:
    lines = []
    for contest in result.contests:
        if contest.roll is None:
            lines.append(f"{contest.subject}: critical success, no resistance roll; the spell works.")
            continue
        roll = contest.roll
        capped = f" (Rule of 16: contest at {roll.effective_skill})" if roll.capped else ""
        if roll.subject is None:
            subject = f"resistance {contest.resistance} cannot be rolled"
        else:
            dice = "+".join(map(str, roll.subject.dice))
            subject = f"3d [{dice}] = {roll.subject.total} vs {contest.resistance}, margin {roll.subject.margin:+d}"
        verdict = "overcome" if contest.outcome == "overcome" else "resists" + (" (tie)" if roll.tie else "")
        lines.append(f"{contest.subject}: {subject}; caster margin {roll.caster.margin:+d}{capped} → **{verdict}**")
    return lines


def _tone(result: CastResult) -> Tone:
    if result.outcome == "critical_success":
        return "critical_success"
    if result.outcome == "critical_failure":
        return "critical_failure"
    return "success" if result.worked else "failure"


def _full_card(result: CastResult, title: str, *, reveal: bool = False) -> Card:
    spell = result.spell
    description = [f"**{'-'.join(spell.words)}** · {spell.type} · from {result.source}", result.verdict]
    description += [f"*{note}*" for note in result.notes]
    card = Card(title=title, description="\n".join(description), tone=_tone(result))
    add_field(card, "Skill", listing(_skill_lines(result), keep_last=1))
    add_field(card, "Roll", _roll_text(result))
    if result.contests:
        add_field(card, "Resistance", _contest_lines(result))
    _common_fields(card, result, reveal=reveal)
    if result.critical is not None:
        crit = result.critical
        dice = "+".join(map(str, crit.dice))
        rolled = f"3d [{dice}] = {crit.total}: {crit.text}"
        add_field(card, f"Critical Spell Failure {crit.row}", listing([rolled, *crit.applied.lines]))
    return card


def _common_fields(card: Card, result: CastResult, *, reveal: bool = False) -> None:
    add_field(card, "Energy", listing(_energy_lines(result), keep_last=2))
    unit = result.unit + ("s" if result.time != 1 else "")
    add_field(card, "Casting time", listing([*result.time_lines, f"**{result.time} {unit}**"], keep_last=1))
    add_field(card, "MP", _mp_lines(result))
    if result.calamity is not None:
        for name, value in calamity_fields(result.calamity, reveal=reveal):
            add_field(card, name, value)
    if result.ended:
        add_field(card, "Spells ended", ", ".join(result.ended))
    if result.damage is not None:
        add_field(card, "Damage", f"{result.damage.text} {result.damage_type or ''}".strip())
    if result.held is not None:
        held = result.held
        add_field(
            card,
            f"Held: {held.name}",
            f"Charged in hand with {held.energy} energy" + (f", {held.damage_dice} {held.damage_type}" if
            held.damage_dice else "") + ". No other spell (but a Blocking one) until it is launched (`/runic held "
            "launch`) or dissipated (`/runic held drop`).",
        )  # fmt: skip
    if result.spell_on is not None:
        on = result.spell_on
        add_field(
            card, "Spell on", f"{on.name}: {on.maintenance} MP per {on.interval} (`/runic maintain`, `/runic drop`)"
        )


def cast_outcome(result: CastResult) -> Outcome:
    title = f"{result.mage} casts {result.spell.name}"
    data = _data(result)
    summary = f"{title}: {result.outcome.replace('_', ' ')}, paid {result.paid.due}, MP {result.mp_after}"
    if result.calamity:
        summary += f", {result.calamity.summary()}"
    if not result.secret:
        hidden = hidden_lines(result.calamity)  # the GM's side of the log says them, so secrets:true finds it
        return Outcome(
            card=fit(_full_card(result, title)),
            summary=summary,
            data=data,
            secret=gm_calamity_card(result.calamity),
            secret_summary=f"{summary}; hidden from the mage: {'; '.join(hidden)}" if hidden else None,
        )

    public = Card(
        title=f"{title} (Information)",
        description="The GM rolls Information spells in secret and tells you what you learn. "
        "You pay the full cost whatever the roll.",
        tone="secret",
    )
    _common_fields(public, result)
    secret = _full_card(result, f"Secret roll: {title}", reveal=True)
    if result.outcome == "critical_failure":
        say = "Critical failure: **lie to the player** (the book's Information rule)."
    elif result.worked:
        say = f"It works: give the information; the better the roll (margin {result.roll.margin}), the better."
    else:
        say = "It fails: tell the player “You sense nothing.”"
    if result.spell_on is not None and not result.worked:
        say += " It stays on the mage's sheet as if it worked, so its upkeep gives nothing away."
    secret.description = f"{say}\n{secret.description}"
    public_summary = f"{title} (Information): paid {result.paid.due}, MP {result.mp_after}"
    if result.calamity:
        public_summary += f", {result.calamity.summary()}"
    # the log's GM side reads the roll's true result, so the GM finds it again (`/campaign log secrets:true`)
    return Outcome(card=fit(public), summary=public_summary, data=data, secret=fit(secret), secret_summary=summary)


def _data(result: CastResult) -> dict[str, Any]:
    """Stable keys (docs/runic.md). For Information spells the roll and its outcome sit under ``gm``."""
    paid = result.paid
    rolled: dict[str, Any] = {
        "skill": {
            "base": result.base.skill,
            "modifiers": [mod.model_dump() for mod in result.modifiers],
            "effective": result.effective,
        },
        "roll": result.roll.model_dump(),
        "outcome": result.outcome,
        "worked": result.worked,
        "contests": [
            {"subject": c.subject, "resistance": c.resistance, "outcome": c.outcome,
             "roll": c.roll.model_dump() if c.roll else None}
            for c in result.contests
        ],
        "critical_failure": (
            {"dice": result.critical.dice, "total": result.critical.total, "row": result.critical.row,
             "text": result.critical.text, "effects": result.critical.applied.lines}
            if result.critical else None
        ),
    }  # fmt: skip
    data: dict[str, Any] = {
        "mage": result.mage,
        "spell": result.spell.name,
        "words": result.spell.words,
        "type": result.spell.type,
        "saved": result.saved,
        "source": result.source,
        "secret": result.secret,
        "energy": result.plan.energy,
        "cost": result.cost,
        "time": result.time,
        "time_unit": result.unit,
        "paid": paid.model_dump(),
        "mp": {"before": paid.mp_before, "after": result.mp_after},
        "mp_steps": [step.model_dump() for step in result.mp_steps],
        "calamity": calamity_data(result.calamity),
        "spell_on": result.spell_on.model_dump() if result.spell_on else None,
        "ended": result.ended,
        "damage": ({**result.damage.model_dump(), "type": result.damage_type} if result.damage is not None else None),
        "held": result.held.model_dump() if result.held else None,
    }
    if result.secret:
        data["gm"] = rolled
    else:
        data.update(rolled)
    return data
