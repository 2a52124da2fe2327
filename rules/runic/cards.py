"""Cards: what players read, within Discord's embed limits (``rules.base.add_field`` and ``fit``)."""

from __future__ import annotations

from typing import Any

from rules.base import Card, CharacterRecord, add_field, fit
from rules.dice import SuccessRoll
from rules.runic.book import RunicBook
from rules.runic.calamity import CalamityResult
from rules.runic.sheet import MageSheet, SpellDef
from rules.runic.skill import default_word_skill, word_cap
from rules.runic.spells import SpellPlan
from rules.text import clip, listing


def mp_text(sheet: MageSheet, *, reveal: bool) -> str:
    lost = sheet.mp_lost_temporary + sheet.mp_lost_permanent
    if lost and not reveal:
        return f"MP {sheet.mp} (maximum lowered by a Calamity; the GM knows how far)"
    extra = ""
    if lost:
        extra = f" (20×Magery less {sheet.mp_lost_temporary} temporary, {sheet.mp_lost_permanent} permanent)"
    return f"MP {sheet.mp}/{sheet.mp_max}{extra}"


def sheet_card(
    record: CharacterRecord, book: RunicBook | None, *, reveal: bool, campaign: dict[str, SpellDef] | None = None
) -> Card:
    """The whole sheet; ``book`` adds the Word defaults and caps, ``reveal`` the hidden MP losses.

    ``campaign`` (the campaign grimoire) names the spells the sheet only holds by key.
    """
    sheet: MageSheet = record.sheet
    shared = campaign or {}

    def spell_name(key: str) -> str:
        found = sheet.spells.get(key) or shared.get(key)
        return found.name if found else key

    locked = " (can never rise again)" if sheet.magery_locked else ""
    card = Card(title=f"{record.name}: Magery {sheet.magery}{locked}")
    card.description = "\n".join(
        [
            f"IQ {sheet.iq} · HT {sheet.ht} · Will {sheet.will}" + (f" · age {sheet.age}" if sheet.age else ""),
            f"HP {sheet.hp}/{sheet.hp_max} · FP {sheet.fp}/{sheet.fp_max} · {mp_text(sheet, reveal=reveal)}",
        ]
    )
    skills = [
        f"Thaumatology {sheet.thaumatology or '—'} · Symbol Drawing {sheet.symbol_drawing or '—'}",
        f"Faster Casting {sheet.faster_casting}",
    ]
    if book is not None:
        default, cap = default_word_skill(sheet, book), word_cap(sheet, book)
        skills.append(f"Other Words at default: {default if default is not None else 'none'} · cap {cap or '—'}")
    for word, level in sorted(sheet.words.items()):
        cheaper = sheet.cheaper_casting.get(word)
        skills.append(f"{word} {level}" + (f" (Cheaper Casting {cheaper})" if cheaper else ""))
    for word, level in sorted(sheet.cheaper_casting.items()):
        if word not in sheet.words:
            skills.append(f"{word} at default (Cheaper Casting {level})")
    add_field(card, "Skills", skills)
    spells = [
        f"{s.name}: {'-'.join(s.words)} ({s.type}{', known' if key in sheet.known else ''})"
        for key, s in sorted(sheet.spells.items())
    ]
    campaign_known = [k for k in sheet.known if k not in sheet.spells]
    if campaign_known:
        spells.append("Known from the campaign grimoire: " + ", ".join(sorted(map(spell_name, campaign_known))))
    add_field(card, "Spells", spells or ["none"])
    grimoires = [
        f"{g.name} ({g.pages} pages): "
        + (", ".join(f"{spell_name(n)} {b:+d}" for n, b in sorted(g.spells.items())) or "empty")
        for g in sheet.grimoires.values()
    ]
    if grimoires:
        add_field(card, "Grimoires", grimoires)
    items = []
    if sheet.implement:
        items.append(f"Bonded: {sheet.implement.name}, {sheet.implement.mp}/{sheet.implement.capacity} MP")
    items += [f"{i.name}: {i.mp}/{i.max_mp} MP, +{i.recovery}/day" for i in sheet.items.values()]
    if items:
        add_field(card, "Implement and items", items)
    if sheet.spells_on:
        add_field(
            card,
            "Spells on",
            [
                f"{on.name}: {on.maintenance} MP per {on.interval}"
                + (" (concentrating)" if on.concentrating else "")
                + (" (frozen by a distraction)" if on.frozen else "")
                for on in sheet.spells_on
            ],
        )
    if sheet.held:
        held = sheet.held
        damage = f", {held.damage_dice} {held.damage_type}" if held.damage_dice else ""
        add_field(card, "Held in hand", f"{held.name} ({held.type}, {held.energy} energy{damage})")
    if sheet.lasting:
        add_field(
            card,
            "Lasting magic",
            [
                f"{item.name}: {item.spell} ({item.form}, {item.duration}"
                + (f", trigger {item.trigger}" if item.trigger else "")
                + (f", triggered {item.triggered}×" if item.triggered else "")
                + ")"
                for item in sheet.lasting
            ],
        )
    if sheet.word_points is not None:
        add_field(card, "Word points", f"The sheet says {sheet.word_points} (`/runic mage points` checks it)")
    if sheet.conditions:
        add_field(
            card, "Conditions", [f"**{c.name}** ({c.duration}; {c.source}): {c.effect}" for c in sheet.conditions]
        )
    return fit(card)


# ---------------------------------------------------------------- spells


def plan_fields(plan: SpellPlan) -> list[tuple[str, str]]:
    """The line-by-line energy and time of a spell, as the issue asks to show them."""
    energy = [line.text() for line in plan.energy_lines]
    if plan.raw_energy < plan.energy:
        energy.append(f"raw total {plan.raw_energy}, raised to the minimum")
    energy.append(f"**Energy {plan.energy}**")
    time = [*plan.time_lines, f"**{plan.time} second(s)**, or {plan.time} minute(s) from a grimoire or scroll"]
    fields = [("Energy", listing(energy, keep_last=1)), ("Casting time", listing(time, keep_last=1))]
    if plan.maintenance is not None:
        fields.append(
            ("Maintenance", f"{plan.maintenance} MP per {plan.interval} (half the Duration's energy, rounded up; "
             "never more than the casting cost)")
        )  # fmt: skip
    if plan.skill_from_parameters:
        fields.append(("Skill", f"{plan.skill_from_parameters:+d} from the Parameters (multiple targets)"))
    return fields


def spell_card(spell: SpellDef, plan: SpellPlan, book: RunicBook, *, where: str, title: str) -> Card:
    words = " - ".join(f"{w} ({book.word(w).meaning})" for w in spell.words)
    lines = [f"**{'-'.join(spell.words)}**: {words}", f"Type: {spell.type}"]
    if spell.resisted:
        lines.append(f"Resisted by {spell.resisted}")
    if spell.inscription:
        lines.append("Runic Inscription (Symbol Drawing; no penalty for the number of Words)")
    if spell.concentration:
        lines.append("Needs concentration while on (-3 to other castings)")
    if spell.effect:
        lines.append(f"*{spell.effect}*")
    card = Card(title=f"{title}: {spell.name}", description="\n".join(lines), footer=f"Saved in {where}.")
    for name, value in plan_fields(plan):
        add_field(card, name, value)
    return fit(card)


# ---------------------------------------------------------------- Calamity


def _check_text(check: SuccessRoll) -> str:
    return f"3d [{'+'.join(map(str, check.dice))}] = {check.total} vs {check.skill}: {check.outcome.replace('_', ' ')}"


def calamity_fields(result: CalamityResult, *, reveal: bool) -> list[tuple[str, str]]:
    """The roll, the bonus and the entry; then what it did (hidden amounts only when ``reveal``)."""
    dice = "+".join(map(str, result.dice))
    head = f"3d [{dice}] = {sum(result.dice)} + {result.bonus} (MP below zero) = **{result.total}**"
    fields = [(f"Calamity {result.row} ({result.who})", clip(f"{head}\n{result.text}"))]
    lines = list(result.applied.lines)
    if reveal:
        lines += [f"(GM) {line}" for line in result.applied.secret_lines]
    if result.will_skill is not None:
        if result.will_roll is None:
            lines.append(f"Will roll at -{result.bonus} ({result.will_skill}): cannot be rolled; the spell fails.")
        else:
            verdict = "the spell fails" if result.spell_fails else "the spell holds"
            lines.append(f"Will roll at -{result.bonus}: {_check_text(result.will_roll)}; {verdict}.")
    if result.companion_note:
        lines.append(result.companion_note)
    if lines:
        fields.append(("Calamity effects", listing(lines)))
    if result.companion is not None:
        other = result.companion
        rerolls = "".join(f"3d [{'+'.join(map(str, d))}] (22 again); " for d in other.rerolled)
        fields.append(
            (
                f"22: it strikes {other.who}",
                listing([f"{rerolls}3d [{'+'.join(map(str, other.dice))}] + {other.bonus} = **{other.total}**: "
                         f"{other.text}", *other.applied.lines, *(other.applied.secret_lines if reveal else [])]),
            )
        )  # fmt: skip
    return fields


def hidden_lines(result: CalamityResult | None) -> list[str]:
    """What a Calamity (and its companion) hid from the mage ("not of how much"): the GM's lines."""
    if result is None:
        return []
    return [*result.applied.secret_lines, *(result.companion.applied.secret_lines if result.companion else [])]


def gm_calamity_card(result: CalamityResult | None) -> Card | None:
    """What a Calamity hid from the mage ("not of how much"), for the GM only; None when it hid nothing."""
    if result is None or not hidden_lines(result):
        return None
    card = Card(title=f"For the GM: Calamity {result.row} ({result.who})", tone="secret")
    for name, value in calamity_fields(result, reveal=True):
        add_field(card, name, value)
    return fit(card)


def calamity_data(result: CalamityResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "dice": result.dice,
        "bonus": result.bonus,
        "total": result.total,
        "row": result.row,
        "text": result.text,
        "effects": result.applied.lines,
        "conditions": result.applied.conditions,
        "harmful": result.applied.harmful,
        "rolls": [roll.model_dump() for roll in result.applied.rolls],
        "checks": [check.model_dump() for check in result.applied.checks],
        "will_roll": result.will_roll.model_dump() if result.will_roll else None,
        "spell_fails": result.spell_fails,
        "companion": ({"name": result.companion.who, **(calamity_data(result.companion) or {})}
                      if result.companion else None),
        "gm": {"effects": result.applied.secret_lines,
               "rolls": [roll.model_dump() for roll in result.applied.secret_rolls]},
    }  # fmt: skip
