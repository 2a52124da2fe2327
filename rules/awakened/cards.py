"""The mage's sheet as a card: everything the sheet holds, fitted to Discord's embed limits (``rules.base.fit``)."""

from __future__ import annotations

from rules.awakened.book import AwakenedBook
from rules.awakened.common import health_text, mana_max, spell_label
from rules.awakened.shaping import effective_aspect
from rules.awakened.sheet import ActiveSpell, AwakenedSheet, AwakenedState
from rules.awakened.words import quantity
from rules.base import Card, CharacterRecord, fit


def _lines(lines: list[str]) -> str:
    return "\n".join(lines) or "none"


def spell_line(book: AwakenedBook, spell: ActiveSpell, state: AwakenedState | None) -> str:
    """One spell in effect, with its aspect now (a covert-sustain spell is covert after its first turn)."""
    aspect = book.aspect(effective_aspect(spell, state) if state else spell.design.aspect)  # type: ignore[arg-type]
    potency = aspect.potency + spell.potency_bonus
    tenacity = aspect.tenacity + spell.tenacity_extra
    status = {
        "running": "until next turn",
        "expiring": "expiring: sustain or refresh",
        "sustained": "sustained",
        "ritual": f"ritual, potential {spell.potential}",
    }[spell.status]
    extra = f", strength {spell.strength}" if spell.strength is not None else ""
    return f"{spell_label(spell)}: {aspect.name}, cost {spell.cost}, P{potency}/T{tenacity}, {status}{extra}"


def sheet_card(record: CharacterRecord, book: AwakenedBook, state: AwakenedState | None) -> Card:
    sheet: AwakenedSheet = record.sheet
    legacy = f" · Legacy: {sheet.legacy.name}" if sheet.legacy else ""
    card = Card(
        title=f"{record.name}: {sheet.path}, Gnosis {sheet.gnosis}",
        description=(
            f"Ruling {', '.join(sheet.ruling)} · inferior {sheet.inferior} "
            f"· favors {sheet.resistance.title()}{legacy}\n"
            f"Mana {sheet.mana}/{mana_max(sheet, book)} · Willpower {sheet.willpower}/{sheet.willpower_dots}"
            + (f" ({quantity(sheet.willpower_dots_lost, 'dot')} lost)" if sheet.willpower_dots_lost else "")
            + f" · Wisdom {sheet.wisdom}/{sheet.wisdom_max}\n"
            f"Health {health_text(sheet)} · armor {sheet.armor} · {sheet.state}"
            + (" (scoured: not bleeding out)" if sheet.scoured_out else "")
        ),
    )
    arcana = [f"{name} {sheet.arcana.get(name, 0)}" for name in book.arcana.names if sheet.arcana.get(name, 0)]
    card.add("Arcana", _lines([" · ".join(arcana) or "none"]), inline=False)
    traits = [f"{k.title()} {v}" for k, v in {**sheet.attributes, **sheet.skills}.items()]
    scrutiny = ", ".join(["Occult", *sheet.scrutiny_skills])
    card.add(
        "Traits",
        _lines(
            [
                " · ".join(traits) or "none",
                f"Scrutiny: {scrutiny}",
                f"High Speech: {'yes' if sheet.high_speech else 'no'} · Mage Sight: {sheet.sight}",
            ]
        ),
    )
    if sheet.nimbus:
        card.add("Nimbus", sheet.nimbus)
    rotes = [f"{r.name} ({r.aspect}, {', '.join(r.arcana)}, {r.action})" for r in sheet.rotes]
    card.add("Rotes", _lines(rotes))
    total = sum(s.cost for s in sheet.spells if s.status == "sustained")
    spells = [spell_line(book, s, state) for s in sheet.spells]
    card.add(f"Spells in effect (sustained {total}/{sheet.gnosis})", _lines(spells))
    extras = []
    if sheet.contingency:
        extras.append(f"Contingency: {sheet.contingency.name}")
    if sheet.stones:
        extras.append(
            "Soul stones: "
            + ", ".join(
                f"#{s.id}" + (" destroyed" if s.destroyed else f" held by {s.holder}" if s.holder else "")
                for s in sheet.stones
            )
        )
    if sheet.crisis:
        extras.append(
            f"Crisis: pool {sheet.crisis.pool}, {sheet.crisis.failures} failed, {sheet.crisis.successes} succeeded"
        )
    if sheet.soul_lost:
        extras.append(f"Soul lost (Gnosis lost so far: {sheet.gnosis_lost})")
    elif sheet.gnosis_lost:
        extras.append(f"Gnosis to regain by oblation: {sheet.gnosis_lost}")
    if sheet.legacy:
        extras.append(f"Legacy oblation: {' + '.join(sheet.legacy.oblation_traits)}")
    for attainment in sheet.attainments:
        shaped = f" (Shaped: P{1 + attainment.shaped}/T{1 + attainment.shaped})" if attainment.shaped else ""
        extras.append(f"Attainment {attainment.order}: {attainment.name}{shaped}")
    if sheet.connections:
        levels = [*book.factors.sympathy.levels, "Unknown"]
        extras.append("Sympathy: " + ", ".join(f"{k} {levels[c.level]}" for k, c in sheet.connections.items()))
    if extras:
        card.add("Also", _lines(extras))
    return fit(card)
