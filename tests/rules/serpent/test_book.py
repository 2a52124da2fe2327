"""The serpent book: the walkthrough's spells as the text gives them, the Specs, the Shadow, the chart, the glossary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.table.books import BookError, load_book
from rules.serpent import RULESET
from rules.serpent.book import SerpentBook, find_spell
from rules.text import fold
from tests.rules.serpent.helpers import DATA, book

SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "000_7785e83d9a21795a.txt"

WALKTHROUGH_SPELLS = {
    "Pillar of Earth",
    "Acidic Matter",
    "Fireball",
    "Dissolve Tissue",
    "Air Essence",
    "Materia Binding of Mal-kuth",
    "Karmic Debt",
    "Cellular Degeneration",
    "Cellular Augmentation",
    "Beast Form",
    "Purification",
    "Judgement",
    "Infernal Shot",
    "Universum Negation",
    "Flame Form",
    "Flame Eternae",
    "Karmic Binding of Protection",
}


def test_book_loads_and_names_every_walkthrough_spell() -> None:
    b = book()
    assert {s.title for s in b.spells.spell} == WALKTHROUGH_SPELLS
    assert all(s.fluency == 1 for s in b.spells.spell)  # "each sphere's level 1 spells"


def test_spells_carry_exactly_the_values_the_text_gives() -> None:
    b = book()
    fireball = b.spell("Fireball")
    assert fireball is not None
    assert (fireball.sphere, fireball.role, fireball.resonance, fireball.descriptors) == (
        "Forces",
        "Attack",
        -5,
        ["Heat"],
    )
    assert fireball.dmg is not None and fireball.dmg.amount == 2 and fireball.duration is None
    acid = b.spell("Acidic Matter")
    assert acid is not None and acid.resonance == -3 and acid.dmg is not None and acid.dmg.amount == 1
    assert acid.duration is not None and acid.duration.count == 2
    assert [r.kind for r in acid.requirements] == ["discard_component"] and acid.requirements[0].sphere == "Matter"
    shield = b.spell("Materia Binding")
    assert shield is not None and shield.title == "Materia Binding of Mal-kuth"
    assert (shield.defense, shield.durability, shield.resonance) == ("Shield", 3, -2)
    assert set(shield.shield_spheres) == {"Bio", "Matter", "Forces"}
    assert shield.requirements[0].descriptor == "Gas"
    degeneration = b.spell("Cellular Degeneration")
    assert degeneration is not None and degeneration.curse and degeneration.subtle
    assert degeneration.curse_duration is not None and degeneration.curse_duration.count == 3
    debt = b.spell("Karmic Debt")
    assert debt is not None and debt.curse and debt.curse_duration is not None and debt.curse_duration.kind == "P"
    assert all(b.spell(t).bonded for t in ("Dissolve Tissue", "Air Essence", "Pillar of Earth"))  # type: ignore[union-attr]
    beast = b.spell("Beast Form")
    assert beast is not None and beast.free_action and beast.resonance == -4
    assert beast.requirements[0].when == "both" and beast.abilities[0].dmg is not None
    negation = b.spell("Universum Negation")
    assert negation is not None and negation.response and negation.resonance == -3 and negation.unique_to_codex
    binding = b.spell("Karmic Binding")
    assert binding is not None and binding.cast_phrase == "Thi Nu Av"
    assert binding.upgrades[0].prices == [{"Resonance": 3}, {"Will": 1}]
    form = b.spell("Flame Form")
    assert form is not None and form.shape_shift and form.duration is not None and form.duration.count == 2
    assert form.sustain == {"Resonance": 1}
    eternae = b.spell("Flame Eternae")
    assert eternae is not None and eternae.duration is not None and eternae.duration.kind == "F"


def test_values_the_text_does_not_give_are_left_out_and_named() -> None:
    b = book()
    judgement = b.spell("Judgement")
    assert judgement is not None and judgement.resonance is None and judgement.sphere is None
    assert set(judgement.missing) == {"sphere", "resonance"}
    binding = b.spell("Karmic Binding of Protection")
    assert binding is not None and binding.durability is None and "durability" in binding.missing
    for spell in b.spells.spell:
        assert spell.harmony is None  # no Harmony orb is printed anywhere in the walkthrough
        for aspect in spell.missing:
            value = getattr(spell, aspect if aspect != "dispel_to" else "dispel")
            assert value is None or aspect in ("duration", "dispel_to"), (spell.title, aspect)


def test_specializations_as_far_as_described() -> None:
    b = book()
    void = b.specialization("Void Speaker")
    assert void is not None and void.initiate_boost is not None and void.initiate_boost.add_resonance == 1
    assert all(t.cost is None for t in void.tiers)
    chant = b.specialization("Chant of Forms")
    assert chant is not None
    body = chant.tier("A", 1)
    assert body is not None and body.name == "Impermanent Body" and body.cost == 4
    assert body.boost is not None and (body.boost.add_resonance, body.boost.add_duration) == (3, 1)


def test_sentient_shadow_follows_ruling_13() -> None:
    shadow = book().encounter("Sentient Shadow")
    assert shadow is not None
    assert (shadow.essence, shadow.essence_per_extra) == (10, 2)
    assert (shadow.resonance, shadow.resonance_bonus, shadow.resonance_bonus_per_extra) == (0, 1, 1)
    assert (shadow.actions, shadow.actions_per_extra) == (2, 1)
    assert not shadow.has_harmony and shadow.sphere == "Soul"
    assert shadow.bag == {"red": 4, "yellow": 2} and shadow.bag_reset == {"red": 3, "yellow": 1}
    assert [r.name for r in shadow.charts["red"]] == ["Purge the Light", "Spectral Claw", "Gain Resonance"]
    assert [r.cost for r in shadow.charts["yellow"]] == [3, 2, 0]
    purge = shadow.charts["red"][0]
    assert purge.is_spell and purge.effect is not None and purge.effect.area
    assert purge.effect.dmg is not None and (purge.effect.dmg.amount, purge.effect.dmg.energy) == (5, "Harmony")
    claw = shadow.charts["red"][1]
    assert claw.effect is not None and claw.effect.dmg is not None and claw.effect.dmg.amount is None
    chart_b = shadow.ability_chart("B")
    assert chart_b is not None and [(r.low, r.high) for r in chart_b.rows] == [(1, 3), (4, 6), (7, 9), (10, 10)]
    chart_a = shadow.ability_chart("A")
    assert chart_a is not None and not chart_a.legible
    assert (shadow.low_essence_below, shadow.low_essence_pierce) == (5, 2)


def test_resonance_chart_is_book_data() -> None:
    bands = [(b.low, b.high, b.gain, b.overload) for b in book().resonance.band]
    assert bands == [(1, 3, 1, False), (4, 6, 2, False), (7, 9, 3, False), (10, 10, 5, True)]


def test_glossary_is_complete() -> None:
    terms = {t.name for t in book().glossary.term}
    assert len(terms) == 155
    for name in (
        "Pierce",
        "Dispel",
        "Interrupt Stone",
        "Shatter",
        "Subtle",
        "Refined",
        "Ward",
        "Zones",
        "Abjuration Spell",
    ):
        assert name in terms
    assert {"Duration", "Duration #"} <= terms  # the glossary has two "Duration" entries


@pytest.mark.skipif(not SEED.exists(), reason="the shared seed is not next to this checkout")
def test_every_glossary_heading_of_the_seed_is_an_entry() -> None:
    text = SEED.read_text(encoding="utf-8")
    glossary = text[text.index("The Glossary") : text.index("The Design Team")]
    bodies = {fold(t.body[:60]) for t in book().glossary.term}
    # every paragraph opening a glossary entry in the seed is the start of one of ours
    candidates = [m.group(1).strip() for m in re.finditer(r"\n\n([^\n]{2,70})\n\n(?=[A-Z\"“])", glossary)]
    headings = [
        h for h in candidates if not h.endswith((".", '."')) and not re.match(r"^(\d\.|-|3 Resonance|Glossary$)", h)
    ]
    names = {fold(t.heading or t.name) for t in book().glossary.term}
    assert len(headings) > 140
    assert [h for h in headings if fold(h) not in names] == []
    assert len(bodies) == len(book().glossary.term)


def test_lookup_finds_every_term_spell_spec_encounter_and_the_chart() -> None:
    entries = list(RULESET.lookup_entries(book()))
    keys = {(e.category, e.key) for e in entries}
    for term in book().glossary.term:
        assert ("glossary", term.name) in keys
    for spell in WALKTHROUGH_SPELLS:
        assert ("spell", spell) in keys
    assert ("specialization", "Void Speaker") in keys and ("encounter", "Sentient Shadow") in keys
    assert ("table", "Resonance chart") in keys
    pierce = next(e for e in entries if e.key == "Pierce")
    assert "Each rank of Pierce allows 1 point of Dmg" in pierce.body
    stone = next(e for e in entries if e.key == "Interrupt Stone")
    assert stone.ruleset == "serpent" and "Stone" in stone.aliases
    judgement = next(e for e in entries if e.key == "Judgement")
    assert "Not given by the book" in judgement.body
    for entry in entries:
        assert entry.body.strip()


def test_campaign_definitions_override_the_book() -> None:
    b = book()
    judgement = b.spell("Judgement")
    assert judgement is not None
    mine = judgement.model_copy(update={"resonance": -2, "missing": ["sphere"]})
    assert find_spell(b, {mine.key: mine}, "judgement").resonance == -2
    assert find_spell(b, {}, "Judgement").resonance is None


def test_a_broken_data_file_names_its_file(tmp_path: Path) -> None:
    for path in DATA.glob("*.toml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    spells = tmp_path / "spells.toml"
    spells.write_text(
        spells.read_text(encoding="utf-8").replace('role = "Attack"', 'role = "Attak"', 1), encoding="utf-8"
    )
    with pytest.raises(BookError, match=r"spells\.toml"):
        load_book(SerpentBook, tmp_path)
