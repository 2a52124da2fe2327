"""Rulings 1–7 (docs/rulings.md), each through the runic rules with rigged dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules.base import RuleError
from rules.dice.gurps import judge
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.casting import CastOptions, CastResult, cast
from rules.runic.sheet import Grimoire, MageSheet, PowerItem, RunicSettings, SpellDef
from rules.runic.skill import base_skill, default_word_skill, word_cap
from rules.runic.spells import parse_words

from .conftest import PLAYER, TableMaker, mage_sheet

KNOWN = ["jux-flam", "des-flam", "gal-ort-xen", "vas-jux-flam"]


def caster(book: RunicBook, **fields: object) -> MageSheet:
    """Nim: Magery 2 (40 MP), Thaumatology 14, so every Word defaults to 10; knows the test spells."""
    fields.setdefault("known", list(KNOWN))
    return mage_sheet(book, **fields)


def cast_with(
    make_table: TableMaker, book: RunicBook, dice: list[int], sheet: MageSheet | None = None, **options: object
) -> tuple[CastResult, MageSheet]:
    sheet = sheet or caster(book)
    table = make_table(dice=dice, mages={"Nim": (PLAYER, sheet)})
    result = cast(table, CastOptions(**{"spell": "Jux-Flam", **options}))
    assert table.rng.dice == [], f"unused dice: {table.rng.dice}"
    return result, sheet


# ---------------------------------------------------------------- ruling 1: the success roll


def test_ruling_1_exact_odds_through_the_judge() -> None:
    def p_success(skill: int) -> Fraction:
        wins = sum(judge(sum(d), skill) in ("success", "critical_success") for d in product(range(1, 7), repeat=3))
        return Fraction(wins, 216)

    assert p_success(10) == Fraction(1, 2)
    assert p_success(12) == Fraction(20, 27)
    assert p_success(14) == Fraction(49, 54)
    assert p_success(16) == p_success(20) == Fraction(53, 54)


def test_ruling_1_below_3_cannot_be_attempted_and_costs_nothing(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book)
    table = make_table(mages={"Nim": (PLAYER, sheet)})
    before = sheet.model_dump()
    with pytest.raises(RuleError, match="cannot be attempted, so it fails and costs nothing"):
        cast(table, CastOptions(spell="Jux-Flam", modifier=-8))  # 10 - 8 = 2
    assert sheet.model_dump() == before
    assert table.rng.used == []


@pytest.mark.parametrize(
    ("dice", "outcome"),
    [
        ([1, 1, 2], "critical_success"),
        ([5, 5, 6], "failure"),
        ([6, 6, 6], "critical_failure"),
        ([6, 6, 5], "critical_failure"),
    ],
)
def test_ruling_1_criticals_in_a_casting(
    make_table: TableMaker, book: RunicBook, dice: list[int], outcome: str
) -> None:
    extra = [3, 3, 3] if outcome == "critical_failure" else []  # the Critical Spell Failure roll (row 9: stunned)
    result, _ = cast_with(make_table, book, dice + extra)
    assert result.outcome == outcome


# ---------------------------------------------------------------- ruling 2: resisted spells


def resisted(book: RunicBook, **fields: object) -> MageSheet:
    sheet = caster(book, **fields)
    sheet.spells["sleep"] = SpellDef(
        name="Sleep", words=["Jux", "Wor"], resisted="Will", parameters=["affliction: +150%"]
    )
    sheet.known.append("sleep")
    return sheet


def test_ruling_2_caster_failure_means_no_resistance_roll(make_table: TableMaker, book: RunicBook) -> None:
    result, _ = cast_with(make_table, book, [6, 5, 1], sheet=resisted(book), spell="Sleep", resistance=12)
    assert result.outcome == "failure"
    assert result.contests == []


def test_ruling_2_tie_goes_to_the_subject(make_table: TableMaker, book: RunicBook) -> None:
    # caster 10 rolls 8 (margin 2); subject 12 rolls 10 (margin 2): a tie resists
    result, sheet = cast_with(make_table, book, [2, 3, 3, 3, 3, 4], sheet=resisted(book), spell="Sleep", resistance=12)
    assert result.contests[0].outcome == "resisted"
    assert result.contests[0].roll.tie
    assert not result.worked
    assert result.paid.due == result.cost == 9  # resisted spells still pay in full
    assert sheet.mp == 31


def test_ruling_2_margin_wins(make_table: TableMaker, book: RunicBook) -> None:
    result, _ = cast_with(make_table, book, [2, 2, 3, 3, 3, 4], sheet=resisted(book), spell="Sleep", resistance=12)
    assert result.contests[0].outcome == "overcome"
    assert result.worked


def test_ruling_2_rule_of_16(make_table: TableMaker, book: RunicBook) -> None:
    """Skill 20 against Will 12 contests at 16: rolling 6 is a margin of 10, not 14."""
    sheet = resisted(book, thaumatology=20, words={"Jux": 20, "Wor": 20}, magery=8)
    result, _ = cast_with(make_table, book, [2, 2, 3, 1, 1, 5], sheet=sheet, spell="Sleep", resistance=12)
    roll = result.contests[0].roll
    assert (roll.capped, roll.effective_skill, roll.caster.margin) == (True, 16, 9)
    assert result.contests[0].outcome == "overcome"  # subject rolled 7 vs 12: margin 5


def test_ruling_2_no_rule_of_16_against_a_spell(make_table: TableMaker, book: RunicBook) -> None:
    sheet = resisted(book, thaumatology=20, words={"Nor": 20, "Ort": 20}, magery=8)
    sheet.spells["dispel"] = SpellDef(name="Dispel", words=["Nor", "Ort"], resisted="spell")
    sheet.known.append("dispel")
    result, _ = cast_with(make_table, book, [2, 2, 3, 1, 1, 5], sheet=sheet, spell="Dispel", resistance=12)
    roll = result.contests[0].roll
    assert roll.cap is None
    assert roll.caster.margin == 13


def test_ruling_2_critical_success_needs_no_contest(make_table: TableMaker, book: RunicBook) -> None:
    result, _ = cast_with(make_table, book, [1, 1, 1], sheet=resisted(book), spell="Sleep", resistance=20)
    assert result.contests[0].outcome == "automatic"
    assert result.worked


# ---------------------------------------------------------------- ruling 3: Calamity


@pytest.mark.parametrize(("mp", "bonus"), [(0, 0), (-1, 0), (-4, 0), (-5, 1), (-9, 1), (-10, 2), (-12, 2), (-40, 8)])
def test_ruling_3_bonus(book: RunicBook, mp: int, bonus: int) -> None:
    assert mana.calamity_bonus(mp, book) == bonus


def test_ruling_3_minus_five_gives_plus_one(make_table: TableMaker, book: RunicBook) -> None:
    # MP 2, cost 3 + boost... use MP 2 and a 7-cost casting: MP ends at -5
    result, sheet = cast_with(make_table, book, [3, 3, 3, 2, 2, 2], sheet=caster(book, mp=2), boost=2)
    assert result.cost == 7
    assert sheet.mp == -5
    assert result.calamity.bonus == 1
    assert result.calamity.total == 7  # 6 + 1: nothing happens
    assert result.calamity.row == "5–9"


def test_ruling_3_zero_cost_casting_below_zero_still_checks(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [3, 3, 3, 2, 2, 3], sheet=caster(book, mp=-3), spell="Des-Flam")
    assert result.cost == 0
    assert result.paid.due == 0
    assert sheet.mp == -3
    assert result.calamity is not None
    assert (result.calamity.bonus, result.calamity.total) == (0, 7)


def test_ruling_3_no_check_while_mp_stays_at_or_above_zero(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [3, 3, 3], sheet=caster(book, mp=3))
    assert sheet.mp == 0
    assert result.calamity is None


def test_ruling_3_twenty_nine_and_the_will_roll_made(make_table: TableMaker, book: RunicBook) -> None:
    """MP -57 after paying: bonus 11; 3d 18 → 29: the spell fails unless Will-11 is made."""
    sheet = caster(book, mp=-54, will=16)
    # cast 9 | calamity 6+6+6 | strange energies 3d | stun 3d | storm 1d | Will roll 1+1+2 = 4 vs 5: made
    dice = [3, 3, 3, 6, 6, 6, 1, 1, 1, 2, 2, 2, 3, 1, 1, 2]
    result, sheet = cast_with(make_table, book, dice, sheet=sheet)
    c = result.calamity
    assert (c.bonus, c.total, c.row) == (11, 29, "29")
    assert c.will_skill == 5
    assert c.will_roll.succeeded
    assert not c.spell_fails
    assert result.worked
    assert sheet.magery == 0
    assert sheet.magery_locked
    assert sheet.mp_max == 0
    names = {cond.name for cond in sheet.conditions}
    assert names == {"Strange energies", "Violent headaches", "Mana Storm"}


def test_ruling_3_twenty_nine_and_the_will_roll_missed(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book, mp=-54, will=16)
    dice = [3, 3, 3, 6, 6, 6, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    result, _ = cast_with(make_table, book, dice, sheet=sheet)
    assert result.calamity.spell_fails
    assert not result.worked
    assert "Will roll was missed" in result.verdict


def test_ruling_3_will_roll_that_cannot_be_made_fails(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book, mp=-54, will=13)  # Will 13 - 11 = 2: no roll possible
    dice = [3, 3, 3, 6, 6, 6, 1, 1, 1, 2, 2, 2, 3]
    result, _ = cast_with(make_table, book, dice, sheet=sheet)
    assert result.calamity.will_roll is None
    assert result.calamity.spell_fails


# ---------------------------------------------------------------- ruling 4: paying


def test_ruling_4_critical_success_costs_nothing(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [1, 1, 2])
    assert (result.cost, result.paid.due, sheet.mp) == (3, 0, 40)


def test_ruling_4_success_costs_full(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [3, 3, 3])
    assert (result.paid.due, sheet.mp) == (3, 37)


def test_ruling_4_failure_costs_one(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [4, 4, 4])
    assert result.outcome == "failure"
    assert (result.paid.due, sheet.mp) == (1, 39)


def test_ruling_4_failure_of_a_free_spell_costs_nothing(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [4, 4, 4], spell="Des-Flam")
    assert (result.cost, result.paid.due, sheet.mp) == (0, 0, 40)


def test_ruling_4_critical_failure_pays_in_full_and_rolls_the_table(make_table: TableMaker, book: RunicBook) -> None:
    # 18: critical failure; table 1+1+1 = 3: "Caster takes 1d of injury" → 4
    result, sheet = cast_with(make_table, book, [6, 6, 6, 1, 1, 1, 4])
    assert result.paid.due == 3
    assert sheet.mp == 37
    assert result.critical.row == "3"
    assert sheet.hp == 6


def test_ruling_4_information_pays_in_full_on_a_failure(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book, magery=3)
    sheet.spells["seek enchantments"] = SpellDef(
        name="Seek Enchantments", words=["Gal", "Ort", "Xen"], type="information",
        parameters=["duration: 10 minutes", "traits: +20"],
    )  # fmt: skip
    sheet.known.append("seek enchantments")
    result, sheet = cast_with(make_table, book, [4, 4, 4], sheet=sheet, spell="Seek Enchantments")
    assert result.outcome == "failure"
    assert (result.cost, result.paid.due, sheet.mp) == (13, 13, 47)
    assert result.secret


def test_ruling_4_information_critical_failure_is_a_lie_not_a_backfire(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book)
    sheet.spells["peek"] = SpellDef(name="Peek", words=["Gal", "Wor"], type="information")
    result, _ = cast_with(make_table, book, [6, 6, 6], sheet=sheet, spell="Peek")
    assert result.outcome == "critical_failure"
    assert result.critical is None  # no dice spent on the table: the GM lies instead


def test_ruling_4_five_times_magery_limit(make_table: TableMaker, book: RunicBook) -> None:
    """Magery 2 allows 10 MP per spell; the rest must be sacrificed."""
    sheet = caster(book)
    table = make_table(mages={"Nim": (PLAYER, sheet)})
    with pytest.raises(RuleError, match=r"at most 10 MP .* Sacrifice at least 3 energy"):
        cast(table, CastOptions(spell="Jux-Flam", boost=5))  # 3 + 10 = 13
    result, sheet = cast_with(
        make_table, book, [2, 2, 2], sheet=sheet, boost=5, sacrifice="fp", sacrifice_energy=3
    )  # skill 10 + 5 - 4 = 11
    assert result.effective == 11
    assert result.paid.sacrifice == 3
    assert result.paid.fp == 12
    assert sheet.fp == 10 - 12  # FP may go negative
    assert sheet.mp == 30


def test_ruling_4_hp_sacrifice_and_its_penalty(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [2, 2, 2], sacrifice="hp", sacrifice_energy=3)
    assert any(m.label == "Sacrificing own HP" and m.value == -4 for m in result.modifiers)
    assert (result.paid.hp, sheet.hp, sheet.mp) == (6, 4, 40)


def test_ruling_4_failure_point_comes_from_mp_before_blood(make_table: TableMaker, book: RunicBook) -> None:
    result, sheet = cast_with(make_table, book, [5, 5, 5], sacrifice="fp", sacrifice_energy=2)  # 15 vs 6: failure
    assert (result.paid.due, result.paid.mp, result.paid.fp, sheet.fp) == (1, 1, 0, 10)


def test_ruling_4_strain_below_minus_max_mp(make_table: TableMaker, book: RunicBook) -> None:
    """Max MP 40: from -38, paying 3 crosses -40 once; from -40, every point costs 1 FP."""
    assert mana.strain_fp(-38, 3, 40, 1) == 1
    assert mana.strain_fp(-40, 3, 40, 1) == 3
    assert mana.strain_fp(-10, 3, 40, 1) == 0
    result, sheet = cast_with(make_table, book, [3, 3, 3, 1, 1, 1, 2, 2, 2], sheet=caster(book, mp=-38))
    assert result.paid.strain_fp == 1
    assert sheet.fp == 9
    assert (result.calamity.bonus, result.calamity.total) == (8, 11)  # MP -41


def test_ruling_4_power_item_pays_before_mp_goes_negative(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book, mp=1)
    sheet.implement = PowerItem(name="Staff", capacity=10, mp=10)
    result, sheet = cast_with(make_table, book, [3, 3, 3], sheet=sheet)
    assert (result.paid.mp, result.paid.item, sheet.mp, sheet.implement.mp) == (1, 2, 0, 8)
    assert result.calamity is None


# ---------------------------------------------------------------- ruling 5: skill


def test_ruling_5_lowest_word_and_word_count(book: RunicBook) -> None:
    sheet = mage_sheet(book, thaumatology=16, words={"Vas": 14, "Jux": 13, "Flam": 15})
    base = base_skill(sheet, parse_words("Vas-Jux-Flam", book), book, inscription=False)
    assert (base.lowest, base.word_penalty, base.skill) == (13, -1, 12)
    runes = mage_sheet(book, symbol_drawing=16, words={"Vas": 14, "Jux": 13, "Flam": 15})
    inscribed = base_skill(runes, parse_words("Vas-Jux-Flam", book), book, inscription=True)
    assert (inscribed.word_penalty, inscribed.skill) == (0, 13)


def test_ruling_5_thaumatology_caps_the_spell(book: RunicBook) -> None:
    sheet = mage_sheet(book, thaumatology=12, symbol_drawing=16, words={"Jux": 14, "Flam": 14})
    assert base_skill(sheet, parse_words("Jux-Flam", book), book, inscription=False).skill == 12
    assert base_skill(sheet, parse_words("Jux-Flam", book), book, inscription=True).skill == 14


def test_ruling_5_defaults(book: RunicBook) -> None:
    assert default_word_skill(mage_sheet(book, thaumatology=14), book) == 10
    assert default_word_skill(mage_sheet(book, thaumatology=12, symbol_drawing=15), book) == 11
    assert default_word_skill(mage_sheet(book, thaumatology=20), book) == 12  # never above 12
    assert default_word_skill(mage_sheet(book, thaumatology=None, symbol_drawing=None), book) is None


def test_ruling_5_word_cap(book: RunicBook) -> None:
    assert word_cap(mage_sheet(book, thaumatology=18, magery=2), book) == 14  # 12 + Magery
    assert word_cap(mage_sheet(book, thaumatology=13, symbol_drawing=11, magery=3), book) == 13
    assert word_cap(mage_sheet(book, thaumatology=None), book) is None


# ---------------------------------------------------------------- ruling 6: the table wins


def merlin(book: RunicBook) -> MageSheet:
    sheet = mage_sheet(book, magery=3, iq=15, thaumatology=15, faster_casting=4, words={"Jux": 13, "Flam": 13})
    sheet.spells["mass extinguish fire"] = SpellDef(name="Mass Extinguish Fire", words=["Vas", "Jux", "Flam"])
    sheet.spells["extinguish fire"] = SpellDef(name="Extinguish Fire", words=["Jux", "Flam"], type="blocking")
    sheet.grimoires["merlin's grimoire"] = Grimoire(
        name="Merlin's Grimoire", pages=60, spells={"mass extinguish fire": 5}
    )
    sheet.known.append("extinguish fire")
    return sheet


def test_ruling_6_mass_extinguish_fire_from_a_grimoire(make_table: TableMaker, book: RunicBook) -> None:
    """Vas-Jux-Flam, grimoire +5, quartered: (1 + 1) × 2 = 4 minutes, ÷ 4 = 1 minute, at -4."""
    result, _ = cast_with(
        make_table, book, [3, 3, 3], sheet=merlin(book), spell="Mass Extinguish Fire", source="grimoire", halvings=2
    )
    assert (result.time, result.unit) == (1, "minute")
    mods = {m.label: m.value for m in result.modifiers}
    assert mods == {"Hurried (2 halving(s))": -4, "Faster Casting 4": 4, "Grimoire bonus": 5}


def test_ruling_6_extinguish_fire_instantly(make_table: TableMaker, book: RunicBook) -> None:
    """Jux-Flam takes 2 seconds: one halving (-2) and the instant -2 make -4; Faster Casting 4 cancels it."""
    result, _ = cast_with(make_table, book, [3, 3, 3], sheet=merlin(book), spell="Extinguish Fire", instant=True)
    mods = {m.label: m.value for m in result.modifiers}
    assert mods == {"Instant casting": -4, "Faster Casting 4": 4}
    assert result.time == 1


def test_ruling_6_the_examples_own_reading_as_a_house_rule(make_table: TableMaker, book: RunicBook) -> None:
    """With Flam at 2 (the examples' reading) the seed's numbers come back: 2 minutes, and -6 → -2."""
    house = RunicSettings(word_times={"Flam": 2})
    table = make_table(dice=[3, 3, 3, 3, 3, 3], settings=house, mages={"Merlin": (PLAYER, merlin(book))})
    mass = cast(table, CastOptions(spell="Mass Extinguish Fire", source="grimoire", halvings=2))
    assert mass.time == 2
    instant = cast(table, CastOptions(spell="Extinguish Fire", instant=True))
    assert {m.label: m.value for m in instant.modifiers} == {"Instant casting": -6, "Faster Casting 4": 4}


def test_no_instant_casting_from_a_grimoire_or_for_regular_spells(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book))})
    with pytest.raises(RuleError, match="Blocking, Melee and Missile"):
        cast(table, CastOptions(spell="Mass Extinguish Fire", instant=True))
    with pytest.raises(RuleError, match="grimoire"):
        cast(table, CastOptions(spell="Extinguish Fire", instant=True, source="scroll"))


# ---------------------------------------------------------------- ruling 7: energy against skill


def test_ruling_7_saving_energy(make_table: TableMaker, book: RunicBook) -> None:
    result, _sheet = cast_with(make_table, book, [1, 1, 3], save_energy=2, modifier=8)
    assert any(m.label == "Energy saved (2)" and m.value == -8 for m in result.modifiers)
    assert result.cost == 1
    with pytest.raises(RuleError, match="Only 3 energy is left to save"):
        cast_with(make_table, book, [], save_energy=4, modifier=16)


def test_ruling_7_buying_skill(make_table: TableMaker, book: RunicBook) -> None:
    result, _ = cast_with(make_table, book, [3, 3, 3], boost=3)
    assert result.effective == 13
    assert result.cost == 9


def test_ruling_7_cheaper_casting_and_the_floor(make_table: TableMaker, book: RunicBook) -> None:
    sheet = caster(book, cheaper_casting={"Flam": 2, "Jux": 2})
    result, sheet = cast_with(make_table, book, [3, 3, 3], sheet=sheet)
    assert result.cost == 0  # 3 - 4, never below 0
    assert [line.label for line in result.cost_lines] == ["Spell", "Cheaper Casting (Jux 2, Flam 2)"]
