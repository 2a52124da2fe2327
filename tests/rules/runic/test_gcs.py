"""Reading GCS character files (rules/runic/gcs.py): real files of formats 1, 2, 4 and 5, and malformed ones.

The real files are GCS Master Library characters (tests/data/gcs/README.md says where each came from); the
numbers asserted are the ones GCS itself shows on those sheets (its ``calc`` values), checked by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import RuleError
from rules.runic.book import RunicBook
from rules.runic.gcs import MAX_DEPTH, MAX_GCS_BYTES, parse_gcs

DATA = Path(__file__).resolve().parents[2] / "data" / "gcs"


def text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def character(**extra: Any) -> dict[str, Any]:
    """A small format-5 character, the shape GCS 5 saves (attribute values in ``calc``)."""
    data: dict[str, Any] = {
        "version": 5,
        "profile": {"name": "Test Mage"},
        "attributes": [
            {"attr_id": "st", "adj": 0, "calc": {"value": 10}},
            {"attr_id": "iq", "adj": 4, "calc": {"value": 14}},
            {"attr_id": "ht", "adj": 1, "calc": {"value": 11}},
            {"attr_id": "will", "adj": 0, "calc": {"value": 14}},
            {"attr_id": "hp", "adj": 2, "calc": {"value": 12, "current": 12}},
            {"attr_id": "fp", "adj": 0, "calc": {"value": 11, "current": 11}},
        ],
        "traits": [{"id": "t1", "name": "Magery", "levels": 2, "calc": {"current_level": 2}}],
        "skills": [{"id": "s1", "name": "Thaumatology", "difficulty": "iq/vh", "points": 8, "calc": {"level": 15}}],
    }
    data.update(extra)
    return data


def skill(name: str, level: int, specialization: str = "") -> dict[str, Any]:
    return {"id": f"s{name}", "name": name, "specialization": specialization, "calc": {"level": level}}


def read(book: RunicBook, data: Any) -> Any:
    return parse_gcs(json.dumps(data), book)


# ---------------------------------------------------------------- real files, every format


def test_format_5_william_headley(book: RunicBook) -> None:
    mage = parse_gcs(text("william_headley_v5.gcs"), book, names=None)
    assert (mage.name, mage.version) == ("William Headley", 5)
    # IQ 10+6; Will IQ+1; HP from ST 9; FP HT 11 + 3 (GCS's point adjustment)
    assert (mage.iq, mage.ht, mage.will, mage.hp, mage.fp) == (16, 11, 17, 9, 14)
    assert mage.magery == 1  # his Ritual Magery 1
    assert (mage.thaumatology, mage.symbol_drawing) == (14, 14)  # "Symbol Drawing (Hermetic Sigils)" 14
    assert mage.words == {} and mage.energy_reserve == 0
    assert mage.age == 43
    unplaced = " ".join(mage.unplaced + mage.others)
    assert "ST 9 and DX 10" in unplaced
    assert "Ritual Magic (Hermetic) 17" in unplaced  # a skill that is not runic is named, not dropped
    assert "GURPS spells Banish" in unplaced
    shown = " ".join(parse_gcs(text("william_headley_v5.gcs"), book).others)  # a card's worth of names
    assert "Ritual Magic (Hermetic) 17" not in shown and "Skills Anthropology 14" in shown and " more: " in shown


def test_format_4_reads_as_format_5_does(book: RunicBook) -> None:
    """The same character saved in format 4 (GCS 5.0-5.23) and 5 reads the same."""
    old, new = parse_gcs(text("william_headley_v4.gcs"), book), parse_gcs(text("william_headley_v5.gcs"), book)
    assert old.version == 4
    fields = ("name", "magery", "iq", "ht", "will", "hp", "fp", "thaumatology", "symbol_drawing", "age")
    assert [getattr(old, f) for f in fields] == [getattr(new, f) for f in fields]
    # format 4 kept the custom jump attributes; they are named as not placed
    assert any("broadjump 7" in line for line in old.others)


def test_format_2_lich_with_its_energy_reserve(book: RunicBook) -> None:
    """Format 2 (GCS 4.3x) calls traits "advantages" and writes levels as text ("6")."""
    mage = parse_gcs(text("lich_v2.gcs"), book)
    assert (mage.name, mage.version) == ("Lich", 2)
    assert (mage.iq, mage.ht, mage.will, mage.hp, mage.fp) == (16, 14, 18, 10, 14)
    assert mage.magery == 6
    assert mage.thaumatology == 19  # GCS shows 19: IQ 16, 1 point in a Very Hard skill, +6 from Magery
    assert mage.energy_reserve == 30  # "Energy Reserve (Magical)" 30
    assert any("Equipment (1: Wizard's Staff)" in line for line in mage.others)


def test_format_1_demon_works_its_skill_levels_out_from_points(book: RunicBook) -> None:
    """Format 1 (GCS 4.20) keeps ST/DX/IQ/HT at the top and no skill levels: they are worked out as GCS would."""
    mage = parse_gcs(text("demon_v1.gcs"), book)
    assert (mage.name, mage.version, mage.iq, mage.ht, mage.will, mage.hp, mage.fp) == ("Demon", 1, 10, 10, 10, 10, 10)
    assert mage.magery == 0  # "Magery" with levels "0"
    skills = next(line for line in mage.others if line.startswith("Skills "))
    # Fast-Talk IQ/A 8 points: IQ 10 - 1 + 3 = 12; Brawling DX/E 4 points: 10 + 0 + 2 = 12
    assert "Fast-Talk 12" in skills and "Brawling 12" in skills


def test_a_magery_limitation_is_named_not_silently_dropped(book: RunicBook) -> None:
    data = character()
    data["traits"][0]["modifiers"] = [{"name": "One College", "cost_adj": "-40%"}, {"name": "Song", "disabled": True}]
    mage = read(book, data)
    assert mage.magery == 2
    (line,) = [line for line in mage.unplaced if "One College" in line]
    assert "Song" not in line and "no meaning in runic magic" in line


def test_the_derived_runic_mage(book: RunicBook) -> None:
    """tests/data/gcs/runic_mage_v5.gcs: Words by name, by a Word-skill specialization, and Symbol Drawing (Aq)."""
    mage = parse_gcs(text("runic_mage_v5.gcs"), book)
    assert (mage.name, mage.magery, mage.energy_reserve) == ("Morgana Headley", 3, 5)
    assert mage.words == {"Flam": 14, "In": 14, "Lux": 17}  # the cap is the import's (gcs_import), not the file's
    assert mage.symbol_drawing == 15  # "Symbol Drawing (Aq)" 15 beats "Symbol Drawing (Hermetic Sigils)" 14
    assert "Aq" not in mage.words
    assert any("not as the Word Aq" in line for line in mage.unplaced)


# ---------------------------------------------------------------- the mapping, piece by piece


@pytest.mark.parametrize(
    ("name", "specialization", "word"),
    [
        ("Flam", "", "Flam"),
        ("flam", "Fire", "Flam"),
        ("Flam (Fire)", "", "Flam"),
        ("Word of Power", "Vas", "Vas"),
        ("Word of Power (Vas)", "", "Vas"),
        ("Runic Word: Ex", "", "Ex"),
        ("Words of Power", "in", "In"),
    ],
)
def test_word_skills_by_name(book: RunicBook, name: str, specialization: str, word: str) -> None:
    mage = read(book, character(skills=[skill("Thaumatology", 15), skill(name, 13, specialization)]))
    assert mage.words == {word: 13}


@pytest.mark.parametrize(
    ("name", "specialization"),
    [
        ("Symbol Drawing", "Flam"),  # Symbol Drawing, not the Word
        ("Flamethrower", ""),  # a Word's letters inside another name
        ("Flam (Water)", ""),  # not Flam's meaning
        ("Innate Attack", "Beam"),
        ("Word of Power", "Fire"),  # a meaning is not a Word's name
    ],
)
def test_names_that_are_not_word_skills(book: RunicBook, name: str, specialization: str) -> None:
    mage = read(book, character(skills=[skill("Thaumatology", 15), skill(name, 13, specialization)]))
    assert mage.words == {}


def test_switched_off_and_contained_traits(book: RunicBook) -> None:
    """Containers are opened; what GCS has switched off is not read, and says so."""
    traits = [
        {"id": "Tbox", "name": "Magic", "children": [{"id": "t2", "name": "Magery", "levels": 4}]},
        {"id": "t3", "name": "Energy Reserve (Magic)", "levels": 9, "disabled": True},
        {"id": "t4", "name": "Energy Reserve (Psionic)", "levels": 5},
        {"id": "t5", "name": "Faster Casting", "levels": 2},
        {"id": "t6", "name": "Cheaper Casting (Flam)", "levels": 1},
    ]
    mage = read(book, character(traits=traits))
    assert (mage.magery, mage.energy_reserve, mage.faster_casting, mage.cheaper_casting) == (4, 0, 2, {"Flam": 1})
    unplaced = " ".join(mage.unplaced + mage.others)
    assert "Energy Reserve (Magic) is switched off in GCS" in unplaced
    assert "Energy Reserve (Psionic) (only a magical Energy Reserve holds MP)" in unplaced


def test_attributes_without_calc_follow_gcs_base_rules(book: RunicBook) -> None:
    """No ``calc``: 10 + adjustment, Will from IQ, HP from ST, FP from HT, each with its own adjustment."""
    data = character(
        attributes=[
            {"attr_id": "st", "adj": 2},
            {"attr_id": "iq", "adj": 3},
            {"attr_id": "ht", "adj": -1},
            {"attr_id": "will", "adj": 1},
            {"attr_id": "hp", "adj": 1},
            {"attr_id": "fp", "adj": 2},
        ]
    )
    mage = read(book, data)
    assert (mage.iq, mage.ht, mage.will, mage.hp, mage.fp) == (13, 9, 14, 13, 11)


def test_no_magery_is_said(book: RunicBook) -> None:
    mage = read(book, character(traits=[]))
    assert mage.magery == 0
    assert any("No Magery in the file" in line for line in mage.unplaced)


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("this is not json", "not JSON"),
        ('{"version": 5, "profile": ', "not JSON"),
        ("[1, 2, 3]", "one JSON object"),
        ('"a string"', "one JSON object"),
        ("{}", "no GCS format version"),
        ('{"name": "Merlin", "iq": 15}', "no GCS format version"),
        ('{"version": "five", "profile": {}}', "not a number"),
        ('{"version": true, "profile": {}}', "not a number"),
        ('{"version": 6, "profile": {}}', "GCS format 6, newer than"),
        ('{"version": 0, "profile": {}}', "not one of the formats"),
        ('{"version": 4, "type": "advantage_list", "rows": []}', "GCS advantage list file"),
        ('{"version": 5, "rows": []}', "a GCS list"),
        ('{"version": 5, "id": "x"}', "not a character sheet"),
        ('{"version": 5, "profile": {"name": 7}}', "profile › name should be text"),
        ('{"version": 5, "profile": {}, "skills": {"a": 1}}', "skills should be a list"),
        ('{"version": 5, "profile": {}, "attributes": [{"attr_id": "iq", "calc": {"value": Infinity}}]}', "not JSON"),
        ('{"version": 5, "profile": {}, "attributes": [{"attr_id": "iq", "calc": {"value": NaN}}]}', "not JSON"),
    ],
)
def test_malformed_files_are_refused_plainly(book: RunicBook, body: str, says: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_gcs(body, book)
    assert says in str(refused.value)


def test_a_real_skill_list_is_not_a_character(book: RunicBook) -> None:
    with pytest.raises(RuleError, match="a GCS list"):
        parse_gcs(text("pyramid_115_skills_v5.skl"), book)


def test_an_attribute_a_mage_sheet_cannot_hold_refuses_the_import(book: RunicBook) -> None:
    data = character()
    data["attributes"][4] = {"attr_id": "hp", "calc": {"value": 250}}  # a dragon's HP
    with pytest.raises(RuleError, match=r"HP 250 .* \(1 to 200\)"):
        read(book, data)


def test_too_large_and_too_deep(book: RunicBook) -> None:
    with pytest.raises(RuleError, match="read up to"):
        parse_gcs(" " * (MAX_GCS_BYTES + 1), book)
    deep: Any = []
    for _ in range(MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(RuleError, match="nests deeper"):
        read(book, character(skills=deep))
    with pytest.raises(RuleError, match="not JSON"):
        parse_gcs("[" * 100_000, book)  # past Python's recursion limit


def test_a_damaged_part_is_named_and_the_rest_read(book: RunicBook) -> None:
    """One skill GCS would never write (a level that is text) is skipped and said; the others are read."""
    data = character()
    data["skills"].append({"id": "s9", "name": "Flam", "calc": {"level": "high"}})
    data["skills"].append(skill("In", 12))
    mage = read(book, data)
    assert mage.words == {"In": 12}
    assert any("not written as GCS writes them" in line for line in mage.unplaced)


# ---------------------------------------------------------------- fuzz: a refusal or a mage, never an exception

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)
KEYS = st.sampled_from(
    ["version", "type", "profile", "attributes", "traits", "advantages", "skills", "spells", "equipment", "ST", "IQ"]
)


def _refused_or_read(book: RunicBook, body: str) -> None:
    try:
        mage = parse_gcs(body, book)
    except RuleError as error:
        message = str(error)
        assert message and "Traceback" not in message and "pydantic" not in message.lower()
        return
    assert 1 <= mage.iq <= 30 and 1 <= mage.hp <= 200 and 0 <= mage.magery <= 10


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_fuzz_any_text(book: RunicBook, body: str) -> None:
    _refused_or_read(book, body)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(KEYS, JSON, max_size=8), st.sampled_from([1, 2, 4, 5]))
def test_fuzz_gcs_shaped_json(book: RunicBook, data: dict[str, Any], version: int) -> None:
    data.setdefault("version", version)
    _refused_or_read(book, json.dumps(data))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.fixed_dictionaries({"name": st.text(max_size=20)}, optional={"levels": JSON, "calc": JSON}), max_size=5
    ),
    st.lists(
        st.fixed_dictionaries(
            {"name": st.sampled_from(["Flam", "Thaumatology", "Symbol Drawing", "Word of Power", "x"])},
            optional={"specialization": JSON, "calc": JSON, "points": JSON, "difficulty": JSON, "children": JSON},
        ),
        max_size=5,
    ),
)
def test_fuzz_a_real_character_with_random_traits_and_skills(book: RunicBook, traits: list, skills: list) -> None:
    data = json.loads(text("william_headley_v5.gcs"))
    data["traits"] = traits + data["traits"]
    data["skills"] = skills + data["skills"]
    _refused_or_read(book, json.dumps(data))
