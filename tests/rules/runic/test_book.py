"""Every row of data/runic against the seed: read the seed's own tables where it is at hand, and pin key rows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.table.books import BookError, load_book, read_tables
from rules.runic import RULESET
from rules.runic.book import RunicBook, TableRow
from rules.runic.parameters import damage_progression
from rules.runic.rolls import DiceSpec

from .conftest import ROOT

SEED_PATHS = [
    ROOT.parent / "shared" / "seeds" / "001_58fc3b8f7e90b932.txt",
    Path("/work/shared/seeds/001_58fc3b8f7e90b932.txt"),
]
SEED = next((path for path in SEED_PATHS if path.exists()), None)
needs_seed = pytest.mark.skipif(SEED is None, reason="the seed text (../shared/seeds) is not checked out here")


@pytest.fixture(scope="module")
def seed_lines() -> list[str]:
    assert SEED is not None
    return SEED.read_text(encoding="utf-8").splitlines()


def block(lines: list[str], header: str, *, after: str | None = None) -> list[str]:
    """The non-blank lines under a table header, up to the next blank line."""
    start = lines.index(after) if after else 0
    index = lines.index(header, start) + 1
    rows = []
    while index < len(lines) and lines[index].strip():
        rows.append(lines[index])
        index += 1
    return rows


def number(text: str) -> int:
    return int(text.replace(",", "").replace("C", "").replace("+", ""))


# ---------------------------------------------------------------- read the seed itself


@needs_seed
def test_words_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    rows = [r for r in block(seed_lines, "Word Letter Rune Meaning Alternative Meanings Skill Difficulty Cost Time")
            if r not in ("Nouns", "Verbs", "Modifiers")]  # fmt: skip
    assert len(rows) == 26 == len(book.words.word)
    for line, word in zip(rows, book.words.word, strict=True):
        name, letter, rest = line.split(" ", 2)
        meanings, difficulty, cost, time = re.fullmatch(r"(.*) (Hard|Average) (-?\d+) (\S+)", rest).groups()
        meaning, _, alternatives = meanings.partition(" ")
        assert (word.name, word.letter, word.meaning) == (name, letter, meaning)
        assert word.alternatives == ([a for a in alternatives.split(", ") if a])
        assert (word.difficulty, word.cost) == (difficulty, int(cost))
        assert word.time_text == time.replace("x", "×")


def _roll_rows(lines: list[str]) -> list[tuple[int, int | None, str]]:
    out = []
    for line in lines:
        match = re.fullmatch(r"(\d+)(?: – (\d+)|(\+))? (.*)", line)
        low, high, plus, text = match.groups()
        out.append((int(low), None if plus else int(high or low), text))
    return out


@needs_seed
def test_calamity_table_matches_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    rows = _roll_rows(block(seed_lines, "Roll Result", after="Calamity Table"))
    assert [(r.low, r.high, r.text) for r in book.calamity.row] == rows
    assert rows[0][0] == 3
    assert rows[-1][:2] == (40, None)


@needs_seed
def test_critical_failure_table_matches_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    rows = _roll_rows(block(seed_lines, "Roll Result", after="Critical Spell Failure Table"))
    assert [(r.low, r.high, r.text) for r in book.critical_failure.row] == rows
    assert len(rows) == 12
    assert rows[-1][:2] == (17, 18)


@needs_seed
def test_power_items_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    pairs = []
    for line in block(seed_lines, "FP Value FP Value"):
        a, b, c, d = line.split()
        pairs.append((int(a), number(b)))
        pairs.append((int(c), number(d)))
    pairs.sort()
    assert [(r.power, r.value) for r in book.power_items.rows] == pairs
    assert len(pairs) == 24


@needs_seed
def test_grimoire_bonus_costs_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    rows = [tuple(number(cell) for cell in line.split()) for line in block(seed_lines, "Bonus Cost Multiplier")]
    assert [(r.bonus, r.multiplier) for r in book.grimoires.rows] == rows


@needs_seed
def test_bonus_table_matches_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    lines = block(seed_lines, "Modifier Broad Moderate Single")
    assert lines[-1] == book.parameters.bonus.continuation
    rows = [tuple(int(c.replace("±", "")) for c in line.split()) for line in lines[:-1]]
    assert [(r.modifier, r.broad, r.moderate, r.single) for r in book.parameters.bonus.rows] == rows


@needs_seed
def test_damage_tables_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    lines = block(seed_lines, "Energy Standard Explosive Malediction")
    rows = [line.split() for line in lines[: lines.index("Damage Type Multiplier")]]
    d = book.parameters.damage
    assert [[f"+{r.energy}", r.standard, r.explosive, r.malediction] for r in d.rows] == rows[:-1]
    c = d.continuation
    assert [f"+{c.energy}", c.standard, c.explosive, c.malediction] == rows[-1]
    types = []
    for line in lines[lines.index("Damage Type Multiplier") + 1 :]:
        names, multiplier = line.rsplit(" x", 1)
        types.append((names.split(", "), float(multiplier)))
    assert [(t.types, t.multiplier) for t in d.types] == types


@needs_seed
def test_duration_table_matches_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    lines = block(seed_lines, "Energy Duration Persistance")
    t = book.parameters.duration
    printed = [f"+{r.energy} {r.duration} {r.persistence}" for r in t.rows]
    printed.append(f"+{t.continuation.energy} {t.continuation.duration} {t.continuation.persistence}")
    assert printed == lines


@needs_seed
def test_conditional_durations_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    lines = block(seed_lines, "Energy Condition")
    assert [f"{r.energy} {r.condition}" for r in book.parameters.conditional.rows] == lines


@needs_seed
def test_range_tables_match_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    r = book.parameters.range
    assert [f"+{row.energy} {row.range}" for row in r.rows] + [r.continuation] == block(seed_lines, "Energy Max Range")
    t = book.parameters.range_in_time
    assert [f"+{row.energy} {row.range}" for row in t.rows] + [t.continuation] == block(seed_lines, "Energy Range")


@needs_seed
def test_subject_weight_matches_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    w = book.parameters.subject_weight
    printed = [f"+{row.energy} {row.weight} {row.creation}" for row in w.rows] + [w.continuation]
    assert printed == block(seed_lines, "Energy Maximum Weight Maximum Creation")


@needs_seed
def test_every_quoted_text_is_in_the_seed(book: RunicBook, seed_lines: list[str]) -> None:
    """Parameter paragraphs, rules sections and table notes are verbatim seed text."""
    text = "\n".join(seed_lines)
    p = book.parameters
    quoted = [
        p.intro, p.afflictions.text, p.altered_traits.text, p.area.text, p.bonus.text, p.damage.text, p.duration.text,
        p.duration.maintenance_text, p.conditional.text, p.meta_magic.text, p.modifiers.text, p.multiple_targets.text,
        p.multiple_targets.broad_text, p.range.text, p.range_in_time.text, p.extradimensional.text, p.speed.text,
        p.spell_type.text, p.subject_weight.text, book.calamity.text, book.power_items.text,
        book.power_items.table_note, book.power_items.magic_items_text, book.grimoires.text,
        book.grimoires.standard_text, book.grimoires.inscribe_text, book.grimoires.esoteric_text,
        *(e.text for e in p.modifiers.examples),
    ]  # fmt: skip
    for passage in quoted:
        assert passage in text, passage[:80]
    assert book.calamity.when in text.replace("\n", " ") or all(s in text for s in book.calamity.when.split(". "))
    for section in book.rules.rule:
        first, last = section.lines
        expected = "\n\n".join(line.strip() for line in seed_lines[first - 1 : last] if line.strip())
        assert section.body == expected, section.key


@needs_seed
def test_numbers_in_the_prose(book: RunicBook, seed_lines: list[str]) -> None:
    """casting.toml's numbers appear in the sentences they claim to come from."""
    text = " ".join(seed_lines)
    claims = [
        f"Each level of Magery provides {book.casting.mana.mp_per_magery} Mana Points",
        f"recovery rate is {book.casting.mana.recovery_per_magery}xMagery, "
        f"minimum {book.casting.mana.recovery_minimum}",
        f"{book.casting.mana.fp_per_energy} FP or {book.casting.mana.hp_per_energy} HP per MP",
        f"treat this as a {book.casting.mana.sacrifice_skill} penalty",
        "adding twice their HP total in energy" if book.casting.mana.ritual_energy_per_hp == 2 else "(changed)",
        f"costs more than {book.casting.mana.spell_limit_per_magery}xMagery MP",
        f"Thaumatology{book.casting.skill.default_from_thaumatology} or Symbol Drawing-4",
        f"cannot exceed {book.casting.skill.default_cap}",
        f"({book.casting.skill.cap_over_magery} + Magery)",
        f"simply at a {book.casting.modifiers.unknown_spell} penalty",
        f"further {book.casting.modifiers.unseen} penalty",
        f"penalty of {book.casting.modifiers.hurry_per_halving} per halving",
        f"accepting a {book.casting.modifiers.omit_one_ritual} penalty",
        f"omit both with a {book.casting.modifiers.omit_both_rituals} penalty",
        f"he gets +{book.casting.modifiers.precise_ritual} to effective skill",
        f"rate of {book.casting.modifiers.skill_per_energy_saved} to skill for every 1 point",
        f"rate of {book.casting.modifiers.energy_per_skill} energy per +1 to skill",
        f"{book.casting.modifiers.per_spell_concentrating} per spell you are concentrating",
        f"{book.casting.modifiers.per_spell_on} per other spell you have",
        f"still suffers a {book.casting.modifiers.free_spell_on} penalty",
        f"minimum energy cost is {book.casting.modifiers.minimum_energy}",
        f"add 1 for every full {book.calamity.bonus_per} points",
        f"Calamity Check total is {book.calamity.spell_fails_from}+",
        f"A typical Magic Item has {book.power_items.typical_item_mp} MP and recovers MP at five per day",
        f"holds {book.grimoires.pages} pages of spells, and costs C{book.grimoires.base_value}",
        f"add {book.parameters.range.speed_range_energy} energy",
        f"add {book.parameters.range.long_distance_energy} energy",
    ]
    for claim in claims:
        assert claim in text, claim


# ---------------------------------------------------------------- pinned rows (these need no seed)


def test_calamity_rows_pinned(book: RunicBook) -> None:
    row = book.calamity.row_for(10)
    assert (row.low, row.high) == (10, 11)
    assert book.calamity.row_for(11) is row
    assert row.text.startswith("The Mage’s skin and clothing crawl with strange energies")
    assert "Unnatural Features 5" in row.text
    assert "3d minutes" in row.text
    effect = row.effects[0]
    assert (effect.kind, effect.dice, effect.unit, effect.conditions) == (
        "condition",
        "3d",
        "minute",
        ["strange_energies"],
    )

    row22 = book.calamity.row_for(22)
    assert (
        row22.text == "Roll again with the same modifier. The result affects a randomly chosen companion of the Mage."
    )
    assert [e.kind for e in row22.effects] == ["companion"]

    row25 = book.calamity.row_for(25)
    assert "2d+3-yard radius" in row25.text
    assert "1d weeks" in row25.text
    scar = row25.effects[0]
    assert (scar.dice, scar.unit, scar.area_dice, scar.area_unit) == ("1d", "week", "2d+3", "yard")
    assert scar.conditions == ["mana_scar", "strange_energies"]
    assert book.calamity.conditions["mana_scar"].spell_cost_multiplier == 2
    assert book.calamity.conditions["mana_scar"].recovery_halted

    row29 = book.calamity.row_for(29)
    assert row29.text == "As 13 and 27, but the Mage permanently loses all levels of Magery."
    assert [e.kind for e in book.calamity.effects_of(row29)] == ["condition", "condition", "condition", "lose_magery"]

    for total in range(30, 40):
        row = book.calamity.row_for(total)
        assert (row.low, row.high) == (30, 39)
    assert row.text == "As 13 and 28, but the Mage permanently loses all levels of Magery."
    assert row.includes == [13, 28]

    top = book.calamity.row_for(57)
    assert top.label == "40+"
    assert top.effects[-1].kind == "backlash"
    assert top.effects[-1].modifier == -6
    assert len(book.calamity.row) == 23  # 3–4, 5–9, 10–11, 12 … 29, 30–39, 40+


def test_damage_plus_nine_row(book: RunicBook) -> None:
    row = book.parameters.damage.rows[9]
    assert (row.energy, row.standard, row.explosive, row.malediction) == (9, "10d", "5d", "3d")
    assert [t.multiplier for t in book.parameters.damage.types] == [0.5, 1.0, 1.5, 2.0]


@pytest.mark.parametrize("column", ["standard", "explosive", "malediction"])
def test_damage_continuation_reproduces_the_printed_rows(book: RunicBook, column: str) -> None:
    """The printed rows come first, and the continuation ("+1 +1d +2 +1") goes on as the table's own rows do."""
    p = book.parameters
    printed = [DiceSpec.parse(getattr(r, column)).text for r in p.damage.rows]
    generated = [d.text for _, d in damage_progression(p, column)]
    assert generated[: len(printed)] == printed
    assert (
        generated[10:13]
        == {
            "standard": ["11d", "12d", "13d"],
            "explosive": ["5d+2", "6d", "6d+2"],
            "malediction": ["3d+1", "4d-1", "4d"],
        }[column]
    )


def test_tables_have_no_gaps(book: RunicBook) -> None:
    for rows in (
        book.parameters.duration.rows,
        book.parameters.range_in_time.rows,
        book.parameters.subject_weight.rows,
    ):
        energies = [row.energy for row in rows]
        assert energies == list(range(energies[0], energies[0] + len(energies)))
    assert [r.energy for r in book.parameters.range.rows] == list(range(1, 11))
    assert [r.bonus for r in book.grimoires.rows] == list(range(6))


def test_structured_amounts_agree_with_the_printed_text(book: RunicBook) -> None:
    """yards, hours, seconds and pounds beside each printed cell say the same thing."""
    units = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "month": 2_592_000, "year": 31_536_000}
    for row in book.parameters.duration.rows[1:]:
        for text, seconds in ((row.duration, row.duration_seconds), (row.persistence, row.persistence_seconds)):
            count, unit = text.split()
            assert int(count) * units[unit.lower().rstrip("s")] == seconds, text
    for row in book.parameters.range.rows:
        assert number(row.range.split()[0]) == row.yards
    for row in book.parameters.range_in_time.rows:
        count, unit = row.range.split()
        assert int(count) * units[unit.lower().rstrip("s")] == row.hours * 3600, row.range
    pounds = {"lbs": 1, "tons": 2000, "ounces": 1 / 16}
    for row in book.parameters.subject_weight.rows:
        count, unit = row.weight.split()
        assert number(count) * pounds[unit] == row.pounds
        count, unit = row.creation.split()
        assert number(count) * pounds[unit] == row.creation_pounds


def test_a_broken_table_stops_loading(tmp_path: Path, book: RunicBook) -> None:
    """A typo in a roll table (a gap) is caught at load with the file named."""
    folder = tmp_path / "runic"
    folder.mkdir()
    for path in (ROOT / "data" / "runic").glob("*.toml"):
        (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    text = (
        (folder / "calamity.toml").read_text(encoding="utf-8").replace("low = 12\nhigh = 12", "low = 13\nhigh = 12", 1)
    )
    (folder / "calamity.toml").write_text(text, encoding="utf-8")
    with pytest.raises(BookError, match=r"calamity\.toml"):
        load_book(RunicBook, folder)
    assert set(read_tables(ROOT / "data" / "runic")) == set(RunicBook.model_fields)


# ---------------------------------------------------------------- /lookup


def test_lookup_finds_every_row(book: RunicBook) -> None:
    entries = list(RULESET.lookup_entries(book))
    by_search = {}
    for entry in entries:
        for name in (entry.search_text, *entry.aliases):
            by_search.setdefault(name.casefold(), entry)
    assert by_search["calamity 17"].title == "Calamity 17"
    assert "disadvantage" in by_search["calamity 17"].body
    assert by_search["calamity 35"].title == "Calamity 30–39"
    assert by_search["calamity 40"].title == "Calamity 40+"
    assert by_search["word tym"].title == "Tym (T): Time (Destiny, Fortune)"
    assert by_search["word time"].key == "Tym"
    for word in book.words.word:
        assert f"word {word.name}".casefold() in by_search
    for total in range(3, 19):
        assert f"critical failure {total}" in by_search
        assert f"calamity {total}" in by_search
    for kind in ("damage", "duration", "range", "range in time", "subject weight", "bonus", "conditional",
                 "afflictions", "altered traits", "area", "meta-magic", "modifiers", "multiple targets",
                 "extradimensional", "speed", "spell type"):  # fmt: skip
        assert f"parameter {kind}" in by_search, kind
    assert "table power items" in by_search
    assert "table grimoire bonus" in by_search
    assert "| +9 | 10d | 5d | 3d |" in by_search["parameter damage"].body
    labels = [f"{e.category} {e.key}".casefold() for e in entries]
    assert len(labels) == len(set(labels)), "every /lookup label is unique"
    assert all(len(label) <= 100 for label in labels)


@pytest.mark.parametrize("table_name", ["calamity", "critical_failure"])
def test_structured_effects_say_what_the_text_says(book: RunicBook, table_name: str) -> None:
    """Every die, multiplier, unit, point value and modifier in a row's effects is printed in its own text."""
    table = getattr(book, table_name)

    def said(row: TableRow) -> str:
        """The row's text with the rows it refers to ("As 16, but ..."), whose dice it reuses."""
        refs = re.match(r"As (\d+)(?: and (\d+))?", row.text)
        named = [table.row_for(int(n)) for n in (refs.groups() if refs else ()) if n]
        return " ".join([row.text.replace("-yard", " yard"), *(said(other) for other in named)])

    checked = 0
    for row in table.row:
        text = said(row)
        for effect in row.effects:
            fields = effect.model_dump()
            multiply = fields.get("multiply", 1)
            for key in ("dice", "success_dice", "area_dice"):
                if fields.get(key):
                    printed = fields[key] + (f"x{multiply}" if key == "dice" and multiply != 1 else "")
                    assert printed in text, (row.label, printed)
                    checked += 1
            if fields.get("unit"):
                assert f"{fields['dice']} {fields['unit']}" in text, (row.label, fields["unit"])
            if fields.get("area_unit"):
                unit = fields["area_unit"]
                assert f"{fields['area_dice']} {unit}" in text or f"in {unit}s" in text, (row.label, unit)
            if effect.kind == "disadvantage":
                assert f"{effect.points} point" in text
            if effect.kind == "backlash":
                assert f"at {effect.modifier}" in text
            if effect.kind == "injury" and effect.points is not None:
                assert f"{effect.points} point of injury" in text
            if effect.kind == "mp_loss":
                assert ("permanently" in text) == effect.permanent
            if effect.kind == "lose_magery":
                assert ("all levels of Magery" in text) == (effect.levels is None)
    assert checked >= (15 if table_name == "calamity" else 1)
