"""`/runic plan` (issue 26): each plan's odds against a brute force over all 216 rolls, and no cheaper casting
(exhaustive over the options, in this test) reaching the goal the planner answered."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules.base import RuleError
from rules.planning import Plan, choose, parse_goal, undominated
from rules.runic import mana
from rules.runic.casting import CastOptions, cast
from rules.runic.plan import PlanOptions, evaluate, plan
from rules.runic.sheet import SpellDef
from tests.rules.runic.conftest import PLAYER, assert_fits, mage_sheet

SLEEP = SpellDef(name="Sleep", words=["Ort", "Sanct"], type="regular", resisted="HT")


def merlin(book, **fields):
    sheet = mage_sheet(book, magery=3, iq=15, thaumatology=15, words={"Ort": 14, "Sanct": 14}, **fields)
    sheet.spells["sleep"] = SLEEP
    sheet.known.append("sleep")
    return sheet


def outcome_by_dice(skill: int, faces: tuple[int, int, int]) -> str:
    """An independent reading of the 3d6 rules (ruling 1), for the brute force."""
    total = sum(faces)
    if total in (3, 4) or (total == 5 and skill >= 15) or (total == 6 and skill >= 16):
        return "critical success"
    if total == 18 or (total == 17 and skill <= 15) or total - skill >= 10:
        return "critical failure"
    return "success" if total <= min(skill, 16) else "failure"


def brute_force(make_table, sheet_maker, options: CastOptions) -> tuple[dict[str, Fraction], Fraction]:
    """Every one of the 216 rolls cast for real on a fresh table: each outcome's chance, and the Calamity check's."""
    counts: dict[str, int] = {}
    calamity = 0
    for faces in itertools.product(range(1, 7), repeat=3):
        table = make_table(gm=True, rng=random.Random(0), mages={"Merlin": (PLAYER, sheet_maker())})
        result = cast(table, options.model_copy(update={"dice": " ".join(map(str, faces))}))
        name = result.outcome.replace("_", " ")
        assert name == outcome_by_dice(result.effective, faces)  # the casting reads the dice as the book does
        counts[name] = counts.get(name, 0) + 1
        calamity += mana.calamity_owed(result.paid.mp_before, result.paid.mp_after)
    return {name: Fraction(n, 216) for name, n in counts.items()}, Fraction(calamity, 216)


@pytest.mark.parametrize("mp", [60, 4])
def test_each_plans_odds_match_a_brute_force_over_every_roll(book, make_table, mp: int) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book, mp=mp))})
    shown = plan(table, PlanOptions(spell="Sleep", resistance=12))
    assert_fits(shown)
    plans = shown.data["plans"]
    assert len(plans) == 3
    for planned in plans:
        options = CastOptions(**planned["steps"][0]["options"])
        outcomes, calamity = brute_force(make_table, lambda: merlin(book, mp=mp), options)
        assert {name: Fraction(p) for name, p in planned["outcomes"].items()} == outcomes
        assert Fraction(planned["risk"]) == calamity
        assert Fraction(planned["success"]) == outcomes.get("success", 0) + outcomes.get("critical success", 0)
    assert shown.chart is not None and len(shown.chart.bars) == sum(len(p["outcomes"]) for p in plans)


def every_casting(book, make_table, mp: int) -> list:
    """The option space, exhaustively: every knob the planner turns, over wider ranges than it tries."""
    table = make_table(mages={"Merlin": (PLAYER, merlin(book, mp=mp))})
    found = []
    for ritual, halvings, save, boost, sacrifice in itertools.product(
        ("normal", "precise", "no_gesture"), range(3), range(4), range(8), range(4)
    ):
        options = CastOptions(
            spell="Sleep",
            mage="Merlin",
            resistance=12,
            ritual=ritual,
            halvings=halvings,
            save_energy=save,
            boost=boost,
            sacrifice="fp" if sacrifice else None,
            sacrifice_energy=sacrifice,
        )
        planned = evaluate(table, options)
        if planned is not None:
            found.append(planned)
    return found


@pytest.mark.parametrize(("mp", "goal"), [(60, "success>=90%"), (60, "success ≥ 98%"), (4, "calamity<=0%")])
def test_no_cheaper_casting_reaches_the_goal(book, make_table, mp: int, goal: str) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book, mp=mp))})
    shown = plan(table, PlanOptions(spell="Sleep", resistance=12, goal=goal))
    best = shown.data["plans"][0]
    cost, success = tuple(best["cost"]), Fraction(best["success"])
    (wanted,) = parse_goal(goal, "calamity")
    for other in every_casting(book, make_table, mp):
        if wanted.kind == "success" and other.success >= wanted.bound:
            assert other.cost >= cost, (other.commands, other.cost, cost)
        if wanted.kind == "risk" and other.risk <= wanted.bound:
            assert other.success < success or (other.success == success and other.cost >= cost)


def test_the_search_keeps_only_unbeaten_plans(book, make_table) -> None:
    plans = every_casting(book, make_table, 4)
    kept = undominated(plans)
    assert 0 < len(kept) < len(plans)
    for dropped in (p for p in plans if p not in kept):
        assert any(k.success >= dropped.success and k.risk <= dropped.risk for k in kept)


def test_an_unreachable_goal_names_the_nearest_plan(book, make_table) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book))})
    shown = plan(table, PlanOptions(spell="Sleep", resistance=12, goal="success>=99%"))
    assert shown.data["plans"] == []
    (missed,) = shown.data["missed"]
    assert "No plan reaches success ≥ 99%" in missed and "/runic cast spell:Sleep" in missed and "98.15%" in missed
    assert_fits(shown)


@pytest.mark.parametrize("goal", ["success>=", "calamity>=5%", "fast", "success>=150%", "paradox<=5%"])
def test_a_bad_goal_is_refused_with_what_would_work(book, make_table, goal: str) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book))})
    with pytest.raises(RuleError, match="success>=90%"):
        plan(table, PlanOptions(spell="Sleep", resistance=12, goal=goal))


def test_the_casts_own_refusal_comes_through(book, make_table) -> None:
    table = make_table(mages={"Merlin": (PLAYER, merlin(book))})
    with pytest.raises(RuleError, match="resistance"):
        plan(table, PlanOptions(spell="Sleep"))


def test_below_skill_3_the_planner_buys_the_skill_to_attempt_it(book, make_table) -> None:
    sheet = mage_sheet(book, magery=3, iq=10, thaumatology=10, words={"Ort": 6, "Sanct": 6})
    sheet.spells["sleep"] = SLEEP  # not bought: -6, so skill 0 as it stands
    table = make_table(mages={"Merlin": (PLAYER, sheet)})
    with pytest.raises(RuleError, match="Effective skill 0 is below 3"):
        cast(table, CastOptions(spell="Sleep", resistance=12))
    shown = plan(table, PlanOptions(spell="Sleep", resistance=12, goal="best"))
    cheapest = min(shown.data["plans"], key=lambda p: p["cost"])
    assert all(p["effective"] >= 3 for p in shown.data["plans"])
    assert "boost:" in shown.data["plans"][0]["commands"][0]
    assert cheapest["effective"] >= 3


def test_one_goal_ranks_its_plans_and_several_goals_name_each_its_best() -> None:
    """Plans 2 and 3 of one goal are the next cheapest, and say so; with a plan per goal, each is that goal's best."""
    plans = [
        Plan(
            steps=[],
            commands=[f"/c {n}"],
            cost=(n,),
            cost_text=str(n),
            success=Fraction(90 + n, 100),
            risk=Fraction(5 - n, 100),
            outcomes=[],
        )
        for n in (1, 2, 3, 4)
    ]
    chosen, missed = choose(plans, parse_goal("success>=90%", "calamity"), "calamity")
    assert [(item.why, item.plan.cost) for item in chosen] == [
        ("the cheapest plan with success ≥ 90%", (1,)),
        ("the second cheapest plan with success ≥ 90%", (2,)),
        ("the third cheapest plan with success ≥ 90%", (3,)),
    ]
    assert not missed
    chosen, _ = choose(plans, parse_goal(None, "calamity"), "calamity")
    assert [item.why for item in chosen] == [
        "the highest chance of success",
        "the cheapest plan with success ≥ 90%",
        "the likeliest plan with calamity ≤ 5%",
    ]
