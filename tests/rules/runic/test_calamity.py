"""The Calamity Table applied: every sub-die rolled, every mechanical result on the sheet."""

from __future__ import annotations

import pytest

from rules.runic.book import RunicBook
from rules.runic.calamity import CalamityResult, calamity_check
from rules.runic.casting import CastOptions, cast
from rules.runic.sheet import Condition, MageSheet, SpellOn

from .conftest import OTHER, PLAYER, Rigged, TableMaker, mage_sheet


def check(
    book: RunicBook, dice: list[int], sheet: MageSheet, *, bonus: int, companions: dict[str, MageSheet] | None = None
) -> CalamityResult:
    rng = Rigged(dice)
    result = calamity_check(rng, book, sheet, who="Nim", companions=companions or {}, bonus=bonus)
    assert rng.dice == [], f"unused dice: {rng.dice}"
    return result


def test_free_recovery(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    result = check(book, [1, 1, 2, 6], sheet, bonus=0)  # 4: 1d×5 = 30, but only up to max MP 40
    assert result.row == "3–4"
    assert sheet.mp == 28
    assert not result.applied.harmful


def test_nothing_happens(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    result = check(book, [3, 3, 3], sheet, bonus=0)
    assert result.row == "5–9"
    assert result.applied.lines == []
    assert not result.applied.harmful


def test_strange_energies_for_3d_minutes(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    result = check(book, [3, 4, 3, 2, 5, 6], sheet, bonus=0)
    assert result.row == "10–11"
    [condition] = sheet.conditions
    assert (condition.name, condition.duration, condition.until) == ("Strange energies", "13 minutes", "sunrise")
    assert "Unnatural Features 5" in condition.effect


def test_twelve_injures_1d(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    check(book, [4, 4, 4, 1, 1, 1, 5], sheet, bonus=0)
    assert sheet.hp == 5


def test_fourteen_injures_1d_times_4(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2, hp=20, hp_max=20)
    result = check(book, [4, 5, 5, 1, 1, 1, 3], sheet, bonus=0)
    assert result.row == "14"
    assert sheet.hp == 8
    assert "1d×4 [3] = 12" in " ".join(result.applied.lines)


def test_fifteen_makes_failures_critical_for_1d_plus_1_weeks(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    check(book, [5, 5, 5, 1, 1, 1, 1, 1, 1, 2], sheet, bonus=0)
    unstable = next(c for c in sheet.conditions if c.failures_critical)
    assert (unstable.until, unstable.days_left, unstable.duration) == ("days", 21, "3 weeks")
    assert {c.key for c in sheet.conditions} == {"strange_energies", "stunned", "failures_critical"}


def test_sixteen_hides_a_temporary_mp_loss(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=30)
    result = check(book, [5, 5, 6, 1, 1, 1, 2, 2, 2, 2], sheet, bonus=0)  # injury 2; loss 3d+5 = 11
    assert (sheet.mp_lost_temporary, sheet.mp_max, sheet.mp) == (11, 29, 29)
    assert "only the GM knows" in " ".join(result.applied.lines)
    assert "11" not in " ".join(result.applied.lines)
    assert "max MP now 29" in result.applied.secret_lines[0]
    assert result.applied.secret_rolls[0].total == 11


def test_eighteen_loses_mp_for_good(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    check(book, [6, 6, 6, 1, 1, 1, 1, 6, 6, 6], sheet, bonus=0)
    assert (sheet.mp_lost_permanent, sheet.mp_max) == (23, 17)


@pytest.mark.parametrize(("total", "points"), [(17, -5), (19, -10), (21, -15)])
def test_disadvantages_roll_ht_and_will(book: RunicBook, total: int, points: int) -> None:
    sheet = mage_sheet(book, mp=-2, ht=9, will=14)
    base = [6, 6, total - 12]
    result = check(book, [*base, 1, 1, 1, 1, 4, 4, 4], sheet, bonus=0)  # roll 12: HT 9 fails, Will 14 makes
    disadvantage = next(c for c in sheet.conditions if c.key.startswith("disadvantage"))
    assert f"({points} points)" in disadvantage.name
    assert "HT 9: failed → permanent" in disadvantage.effect
    assert "Will 14: made → lasting" in disadvantage.effect
    assert len(result.applied.checks) == 2


def test_twenty_ages_2d_plus_13(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2, age=40)
    check(book, [6, 6, 6, 1, 1, 1, 1, 1, 1, 3, 4], sheet, bonus=2)
    assert sheet.age == 60


def test_twenty_two_strikes_a_companion(book: RunicBook) -> None:
    caster = mage_sheet(book, mp=-2)
    friend = mage_sheet(book, hp=10)
    # 22 for the caster; the companion's reroll: 22 again (rerolled), then 8 + 4 = 12 → 1d injury of 4
    result = check(book, [6, 6, 6, 6, 6, 6, 2, 3, 3, 1, 1, 1, 4], caster, bonus=4, companions={"Ash": friend})
    assert result.row == "22"
    assert caster.conditions == []
    assert result.companion.who == "Ash"
    assert result.companion.total == 12  # 8 + the same +4
    assert result.companion.rerolled == [[6, 6, 6]]
    assert friend.hp == 6
    assert [c.name for c in friend.conditions] == ["Strange energies"]


def test_twenty_two_without_companions_tells_the_gm(book: RunicBook) -> None:
    result = check(book, [6, 6, 6], mage_sheet(book, mp=-2), bonus=4)
    assert result.companion is None
    assert "GM picks" in result.companion_note


def test_twenty_three_and_twenty_four(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2, magery=3)
    check(book, [6, 6, 6, 1, 1, 1, 1, 2], sheet, bonus=5)  # 23: lose 2 × 5 = 10 points
    assert any(c.name == "Lost 10 points" and c.until == "permanent" for c in sheet.conditions)
    check(book, [6, 6, 6, 1, 1, 1, 1], sheet, bonus=6)  # 24
    assert (sheet.magery, sheet.magery_locked, sheet.mp_max) == (2, True, 40)


def test_twenty_five_mana_scar(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    result = check(book, [6, 6, 6, 2, 3, 4], sheet, bonus=7)  # 1d = 2 weeks, radius 2d+3 = 10 yards
    scar = next(c for c in sheet.conditions if c.key == "mana_scar")
    assert (scar.days_left, scar.spell_cost_multiplier, scar.recovery_halted) == (14, 2, True)
    assert "within 10 yards" in scar.effect
    energies = next(c for c in sheet.conditions if c.key == "strange_energies")
    assert energies.days_left == 14  # "Result 10 applies for the entire duration"
    assert result.applied.harmful


def test_twenty_seven_and_twenty_eight_storms(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-2)
    check(book, [6, 6, 6, 5], sheet, bonus=9)
    storm = next(c for c in sheet.conditions if c.key == "mana_storm")
    assert (storm.duration, storm.until) == ("5 hours", "sunrise")
    check(book, [6, 6, 6, 2, 1, 1], sheet, bonus=10)
    region = next(c for c in sheet.conditions if c.key == "great_mana_storm")
    assert (region.days_left, "within 5 miles" in region.effect) == (14, True)


def test_thirty_to_thirty_nine_loses_all_magery(book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=-60, magery=4)
    # 18 + 12 = 30: strange 3d, stun 3d, region storm 1d weeks + 2d+3 miles; Will roll at -12
    check(book, [6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1], sheet, bonus=12)  # Will 13 - 12 = 1: no roll possible
    assert (sheet.magery, sheet.mp_max, sheet.mp) == (0, 0, -60)


@pytest.mark.parametrize(("ht_dice", "made"), [([1, 1, 2], True), ([6, 6, 5], False)])
def test_forty_backlash(book: RunicBook, ht_dice: list[int], made: bool) -> None:
    sheet = mage_sheet(book, mp=-150, magery=3, ht=12, will=12, hp=50, hp_max=50)
    subs = [1, 1, 1, 1, 1, 1, 1, 1, 1]  # strange 3d, stun 3d, regional storm 1d weeks over 2d+3 miles
    damage = [2, 2] if made else [1] * 15  # 2d, or (Will 12 + Magery 3)d
    dice = [6, 6, 6, *subs, *ht_dice, *damage, 1, 1, 1]  # the last three stay: Will 12 - 30 cannot be rolled
    rng = Rigged(dice)
    result = calamity_check(rng, book, sheet, who="Nim", companions={}, bonus=30)
    assert result.total == 48
    assert sheet.hp == (46 if made else 35)
    assert result.spell_fails  # Will 12 - 30 cannot be rolled
    assert rng.dice == [1, 1, 1]


def test_a_longer_condition_wins(book: RunicBook) -> None:
    sheet = mage_sheet(book)
    sheet.conditions.append(
        Condition(key="strange_energies", name="Strange energies", effect="", source="x", duration="2 weeks",
                  until="days", days_left=14)
    )  # fmt: skip
    check(book, [3, 4, 3, 2, 5, 6], sheet, bonus=0)
    assert [c.days_left for c in sheet.conditions] == [14]


# ---------------------------------------------------------------- conditions at work in later castings


def test_unstable_casting_turns_failure_into_critical(make_table: TableMaker, book: RunicBook) -> None:
    sheet = mage_sheet(book, known=["jux-flam"])
    sheet.conditions.append(
        Condition(key="failures_critical", name="Unstable casting", effect="", source="Calamity 15",
                  duration="2 weeks", until="days", days_left=14, failures_critical=True)
    )  # fmt: skip
    table = make_table(dice=[5, 5, 5, 3, 3, 4], mages={"Nim": (PLAYER, sheet)})
    result = cast(table, CastOptions(spell="Jux-Flam"))
    assert result.roll.outcome == "failure"
    assert result.outcome == "critical_failure"
    assert result.paid.due == 3
    assert result.critical.row == "10–11"


def test_mana_scar_doubles_the_cost(make_table: TableMaker, book: RunicBook) -> None:
    sheet = mage_sheet(book, known=["jux-flam"])
    sheet.conditions.append(
        Condition(key="mana_scar", name="Mana-Scar", effect="", source="Calamity 25", duration="1 week",
                  until="days", days_left=7, spell_cost_multiplier=2, recovery_halted=True)
    )  # fmt: skip
    table = make_table(dice=[3, 3, 3], mages={"Nim": (PLAYER, sheet)})
    result = cast(table, CastOptions(spell="Jux-Flam"))
    assert result.cost == 6
    assert sheet.mp == 34


def test_a_harmful_calamity_ends_the_spells_on(make_table: TableMaker, book: RunicBook) -> None:
    sheet = mage_sheet(book, mp=0, known=["jux-flam"])
    sheet.spells_on.append(SpellOn(name="Light", words=["In", "Lux"], cost=4, maintenance=1, interval="1 minute"))
    table = make_table(
        dice=[3, 3, 2, 3, 4, 3, 1, 1, 1], mages={"Nim": (PLAYER, sheet), "Ash": (OTHER, mage_sheet(book))}
    )
    result = cast(table, CastOptions(spell="Jux-Flam"))  # skill 10 - 2 (Light on) = 8: 8 succeeds
    assert result.calamity.row == "10–11"
    assert result.ended == ["Light"]
    assert sheet.spells_on == []
