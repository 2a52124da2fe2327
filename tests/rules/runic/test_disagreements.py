"""Issue 14: the five places where the bot disagreed with the seed, each pinned by the line it enforces."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.runic import RULESET
from rules.runic.book import RunicBook
from rules.runic.casting import CastOptions, cast
from rules.runic.report import cast_outcome
from rules.runic.sheet import SpellDef
from rules.runic.spells import define_spell, plan_spell

from .conftest import GM, OTHER, PLAYER, TableMaker, assert_fits, mage_sheet

# ---------------------------------------------------------------- 1. MP after a Calamity of 3–4


def test_mp_after_a_free_recovery_is_the_mp_the_card_shows(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "3 – 4 Nothing bad happens, and the Mage gets 1dx5 points of free, instant recovery!" """
    sheet = mage_sheet(book, mp=1, known=["jux-flam"])
    # 3d [3+3+4] = 10 vs 10 succeeds; MP 1 - 3 = -2, so a Calamity check: [1+1+1] = 3; 1d [2] × 5 = +10
    table = make_table(dice=[3, 3, 4, 1, 1, 1, 2], mages={"Nim": (PLAYER, sheet)})
    result = cast(table, CastOptions(spell="Jux-Flam"))
    outcome = cast_outcome(result)
    assert_fits(outcome)
    assert sheet.mp == 8
    assert outcome.data["mp"] == {"before": 1, "after": 8}
    assert outcome.data["mp_steps"] == [{"label": "paid 3", "mp": -2}, {"label": "Calamity 3 (3–4): +10", "mp": 8}]
    mp_field = next(f.value for f in outcome.card.fields if f.name == "MP")
    assert mp_field.splitlines() == ["MP 1 → -2 (paid 3) → 8 (Calamity 3 (3–4): +10)", "**MP now 8**"]
    assert outcome.summary.endswith("MP 8, Calamity 3 (3–4)")


# ---------------------------------------------------------------- 2. one parser for define and cast


@pytest.mark.parametrize(
    ("value", "energy"), [("per yard", 0), ("-1 per yard", 0), ("speed/range", 2), ("long-distance", 4), ("melee", 0)]
)
def test_define_reads_every_range_cast_reads(make_table: TableMaker, book: RunicBook, value: str, energy: int) -> None:
    """Seed (Range): "If it takes normal speed/range table penalties, add 2 energy. … long-distance modifiers;
    add 4 energy." Whatever `cast` reads inline, `spell define` saves and reads back the same."""
    table = make_table(mages={"Nim": (PLAYER, mage_sheet(book))})
    action = RULESET.actions["spell define"]
    outcome = action.run(table, action.options(name="Far Sight", words="Gal-Bet", parameters=f"range: {value}"))
    range_line = next(line for line in outcome.data["energy_lines"] if line["label"].startswith("range"))
    assert range_line["energy"] == energy
    saved = table.characters["nim"].sheet.spells["far sight"]
    inline = plan_spell(SpellDef(name="x", words=["Gal", "Bet"]), book, table.settings, overrides=f"range: {value}")
    assert plan_spell(saved, book, table.settings).energy == inline.energy == 3 + energy  # Gal 1 + Bet 2
    assert plan_spell(saved, book, table.settings).range_mode == inline.range_mode


def test_every_parameter_text_reads_back_as_itself(book: RunicBook) -> None:
    """What a spell stores is what the one parser reads: canonical text is a fixed point."""
    from rules.runic.suggest import PARAMETER_EXAMPLES

    examples = [*PARAMETER_EXAMPLES, "range: per yard", "range: speed/range", "range: long-distance", "range: melee",
                "area: cone 3", "area: shaped wall 30", "targets: 1024 broad", "modifier: explosive-per-yard",
                "damage: 2d+2 explosive crushing", "affliction: +150%", "dimensions: 1 weak"]  # fmt: skip
    for text in examples:
        if text.startswith("persistence"):
            text += "; area: 5 yd"
        spell = define_spell(book, name="Test", words="Gal-Bet", parameters=text)
        again = define_spell(book, name="Test", words="Gal-Bet", parameters="; ".join(spell.parameters))
        assert again.parameters == spell.parameters, text


# ---------------------------------------------------------------- 3. missile energy capped at Magery


def test_missile_energy_is_capped_at_magery(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "you may invest one or more points of energy in the spell, to a maximum of a number of energy
    points equal to your Magery level." """
    sheet = mage_sheet(book, magery=3, known=["fireball"])
    sheet.spells["fireball"] = SpellDef(name="Fireball", words=["In", "Flam"], type="missile",
                                        parameters=["damage: 12d burning"])  # fmt: skip
    table = make_table(mages={"Nim": (PLAYER, sheet)})
    before = sheet.model_dump()
    with pytest.raises(RuleError, match=r"A missile holds 1 to Magery \(3\) energy; this one is 12"):
        cast(table, CastOptions(spell="Fireball"))
    assert sheet.model_dump() == before
    table.rng.extend(1, 2, 2)  # [1+2+2] = 5: within Magery, it goes
    result = cast(table, CastOptions(spell="Fireball", parameters="damage: 3d burning"))  # 3 + 2 - 2 = 3
    assert result.plan.energy == 3 and result.worked


# ---------------------------------------------------------------- 4. the minimum cost after every adjustment


def test_minimum_cost_applies_after_the_boost(make_table: TableMaker, book: RunicBook) -> None:
    """Seed (Energy Cost): "…add energy to his spell to increase his effective skill, at a rate of 2 energy per +1
    to skill. Finally, … Cheaper Casting … The minimum energy cost is 0." Des-Uus is -1; boost 1 makes it 1."""
    sheet = mage_sheet(book, known=["des-uus"])
    table = make_table(dice=[3, 3, 4], mages={"Nim": (PLAYER, sheet)})
    result = cast(table, CastOptions(spell="Des-Uus", boost=1))
    assert result.plan.raw_energy == -1
    assert result.cost == 1
    assert sheet.mp == sheet.mp_max - 1
    assert [(line.label, line.energy) for line in result.cost_lines] == [("Spell", -1), ("+1 skill bought", 2)]


# ---------------------------------------------------------------- 5. a willing volunteer's energy


def _two_mages(book: RunicBook) -> dict:
    return {"Nim": (PLAYER, mage_sheet(book, known=["jux-flam"])), "Ash": (PLAYER, mage_sheet(book, fp=12))}


def test_a_volunteer_gives_fp_without_the_penalty(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "The Mage may take this energy from themselves or a willing volunteer in direct contact with the
    Mage … Sacrificing from yourself is painful; treat this as a -4 penalty to the skill roll." """
    mages = _two_mages(book)
    table = make_table(dice=[3, 3, 4], mages=mages)
    result = cast(table, CastOptions(spell="Jux-Flam", mage="Nim", sacrifice="fp", sacrifice_energy=2, donor="Ash"))
    assert not any("Sacrificing" in mod.label for mod in result.modifiers)
    assert result.effective == 10
    nim, ash = mages["Nim"][1], mages["Ash"][1]
    assert (nim.fp, ash.fp) == (10, 4)  # Ash gives 2 energy as 8 FP
    assert nim.mp == nim.mp_max - 1
    assert result.paid.sources() == "MP 1, Ash's 8 FP (2 energy)"


def test_sacrificing_from_yourself_is_still_minus_4(make_table: TableMaker, book: RunicBook) -> None:
    table = make_table(dice=[2, 2, 2], mages=_two_mages(book))
    result = cast(table, CastOptions(spell="Jux-Flam", mage="Nim", sacrifice="hp", sacrifice_energy=1))
    assert ("Sacrificing own HP", -4) in [(mod.label, mod.value) for mod in result.modifiers]


def test_another_players_volunteer_needs_the_gm(make_table: TableMaker, book: RunicBook) -> None:
    mages = {"Nim": (PLAYER, mage_sheet(book, known=["jux-flam"])), "Ash": (OTHER, mage_sheet(book))}
    with pytest.raises(RuleError, match="only the GM can commit their FP or HP"):
        cast(make_table(mages=mages), CastOptions(spell="Jux-Flam", sacrifice="fp", sacrifice_energy=1, donor="Ash"))
    table = make_table(actor=GM, gm=True, dice=[3, 3, 3], mages=mages)
    cast(table, CastOptions(spell="Jux-Flam", mage="Nim", sacrifice="fp", sacrifice_energy=1, donor="Ash"))
    assert mages["Ash"][1].fp == 6


def test_ritual_sacrifice_gives_twice_the_victims_hp(make_table: TableMaker, book: RunicBook) -> None:
    """Seed: "the Mage will kill a sacrifice with a ceremonial dagger, adding twice their HP total in energy" —
    energy beyond the 5 × Magery MP limit, since it comes from sacrificed HP, and no -4 (not yourself)."""
    sheet = mage_sheet(book, known=["vas-jux-flam"])
    table = make_table(dice=[2, 3, 3], mages={"Nim": (PLAYER, sheet)})  # 8 vs 9 (a third Word: -1)
    result = cast(
        table, CastOptions(spell="Vas-Jux-Flam", parameters="extra: +20 the whole camp", sacrifice="ritual",
                           donor="a goat, 8 HP"),
    )  # fmt: skip
    assert result.cost == 25 and result.payment.ritual_energy == 16
    assert result.paid.sacrifice == 16 and result.paid.mp == 9 and result.paid.ritual == "a goat"
    assert not any("Sacrificing" in mod.label for mod in result.modifiers)
    assert (sheet.hp, sheet.fp, sheet.mp) == (10, 10, 31)
    assert "the ritual sacrifice of a goat (16 energy)" in result.paid.sources()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sacrifice": "ritual"}, "needs its victim and HP"),
        ({"sacrifice": "ritual", "donor": "goat"}, "like `goat 8 HP`"),
        ({"sacrifice": "ritual", "donor": "Ash 10 HP"}, "does not kill characters"),
        ({"donor": "Ash"}, "add `sacrifice`"),
        ({"sacrifice": "ritual", "donor": "goat 1 HP", "sacrifice_energy": 3}, "yields 2 energy"),
    ],
)
def test_bad_sacrifices_change_nothing(make_table: TableMaker, book: RunicBook, options: dict, message: str) -> None:
    mages = _two_mages(book)
    before = {name: sheet.model_dump() for name, (_, sheet) in mages.items()}
    with pytest.raises(RuleError, match=message):
        cast(make_table(mages=mages), CastOptions(spell="Jux-Flam", mage="Nim", **options))
    assert {name: sheet.model_dump() for name, (_, sheet) in mages.items()} == before


def test_maintenance_lists_a_free_recovery_as_a_step(make_table: TableMaker, book: RunicBook) -> None:
    """The same row in maintenance: each payment's MP after the Calamity, with the step listed."""
    from rules.runic.sheet import SpellOn

    sheet = mage_sheet(book, mp=-1)
    sheet.spells_on.append(SpellOn(name="Light", words=["Lux"], cost=4, maintenance=1, interval="1 minute"))
    table = make_table(dice=[1, 1, 2, 3], mages={"Nim": (PLAYER, sheet)})  # 4: 1d [3] × 5 = +15
    outcome = RULESET.actions["maintain"].run(table, RULESET.actions["maintain"].options())
    (payment,) = outcome.data["payments"]
    assert (payment["mp_before"], payment["mp_paid"], payment["mp_after"]) == (-1, -2, 13)
    assert "MP -1 → -2 → 13 (Calamity 4 (3–4): +15)" in outcome.card.description
    assert outcome.data["mp_after"] == sheet.mp == 13
