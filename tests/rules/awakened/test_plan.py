"""`/awakened plan` (issue 26): each plan's Shaping odds against an independent count of the dice, its paradox
risk against the book's pool, and no cheaper way (every option combination, in this test) reaching the goal."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from rules.awakened.plan import PlanOptions, evaluate, plan
from rules.base import RuleError
from rules.planning import parse_goal
from tests.rules.awakened.conftest import Game
from tests.rules.runic.conftest import assert_fits

K = 5  # successes counted one by one; 5 or more is exceptional


@cache
def die(again: int, rote: bool) -> tuple[Fraction, ...]:
    """P(k successes) of one die, k < K, by following its faces: 8+ scores, ``again``+ rolls on, and a rote die's
    failing first face (1-7) is rolled once more. Independent of the closed form the planner uses."""

    def plain(k: int) -> Fraction:
        total = Fraction(0)
        for face in range(1, 11):
            if face < 8:
                total += Fraction(1, 10) * (k == 0)
            elif face < again:
                total += Fraction(1, 10) * (k == 1)
            elif k >= 1:
                total += Fraction(1, 10) * plain(k - 1)
        return total

    def first(k: int) -> Fraction:
        if not rote:
            return plain(k)
        return Fraction(7, 10) * plain(k) + sum(
            (Fraction(1, 10) * ((k == 1) if face < again else (plain(k - 1) if k else 0)) for face in range(8, 11)),
            Fraction(0),
        )

    return tuple(first(k) for k in range(K))


def pool(n: int, again: int, rote: bool) -> list[Fraction]:
    """P(k) for k < K of an n-die pool: the dice convolved."""
    dist = [Fraction(1)] + [Fraction(0)] * (K - 1)
    one = die(again, rote)
    for _ in range(n):
        dist = [sum((dist[i] * one[k - i] for i in range(k + 1)), Fraction(0)) for k in range(K)]
    return dist


def ash(game: Game, **changes) -> None:
    game.mage(**changes)
    game.act("spell cast", spell="Mend", arcana="Life", aspect="covert", mode="rote")


def test_each_plans_odds_match_an_independent_count(game: Game) -> None:
    ash(game)
    shown = plan(game.table, PlanOptions(spell="Mend"))
    assert_fits(shown)
    assert len(shown.data["plans"]) == 3
    for planned in shown.data["plans"]:
        counted = pool(planned["pool"], planned["again"], True)
        outcomes = [Fraction(p) for p in planned["outcomes"].values()]
        assert outcomes[:K] == counted
        assert outcomes[K] == 1 - sum(counted)
        assert Fraction(planned["success"]) == 1 - counted[0]
        vulgar = "aspect:vulgar" in planned["commands"][0]
        gnosis = game.sheet().gnosis
        assert planned["pool"] == (3 if vulgar else 2) * gnosis + (
            3 if "willpower:true" in planned["commands"][1] else 0
        )
        paradox_dice = gnosis if vulgar else 0  # the Shaping of a vulgar spell adds the caster's Gnosis (l.279)
        assert Fraction(planned["risk"]) == (1 - Fraction(7, 10) ** paradox_dice)


def every_way(game: Game) -> list:
    """Every combination of the options, wider than the planner tries (sensory too, two Words)."""
    found = []
    for aspect, method, cast_words, shape_words, willpower in itertools.product(
        ("sensory", "covert", "vulgar"), ("rote", "improvised"), range(3), range(3), (False, True)
    ):
        cast_options = {"spell": "Mend", "mage": "Ash", "aspect": aspect, "method": method}
        if cast_words:
            cast_options["words_of_power"] = cast_words
        shape_options = {"spell": "Mend", "mage": "Ash", "willpower": willpower}
        if shape_words:
            shape_options["words_of_power"] = shape_words
        planned = evaluate(game.table, "Ash", cast_options, shape_options)
        if planned is not None:
            found.append(planned)
    return found


@pytest.mark.parametrize("goal", ["success>=99%", "success>=99.9%", "paradox<=0%", "best"])
def test_no_cheaper_way_reaches_the_goal(game: Game, goal: str) -> None:
    ash(game)
    shown = plan(game.table, PlanOptions(spell="Mend", goal=goal))
    chosen = shown.data["plans"][0]
    cost, success = tuple(chosen["cost"]), Fraction(chosen["success"])
    (wanted,) = parse_goal(goal, "paradox")
    ways = every_way(game)
    assert ways
    for other in ways:
        if wanted.kind == "success" and other.success >= wanted.bound:
            assert other.cost >= cost, (other.commands, other.cost, cost)
        if wanted.kind == "risk" and other.risk <= wanted.bound:
            assert other.success <= success
        if wanted.kind == "best":
            assert other.success <= success


def test_an_unreachable_goal_names_the_nearest_plan(game: Game) -> None:
    ash(game, willpower=0, high_speech=False)
    shown = plan(game.table, PlanOptions(spell="Mend", goal="success>=99.99%"))
    assert shown.data["plans"] == []
    (missed,) = shown.data["missed"]
    assert "No plan reaches success ≥ 99.99%" in missed and "/awakened spell cast spell:Mend" in missed
    assert_fits(shown)


def test_a_spell_that_is_not_a_rote_is_refused_plainly(game: Game) -> None:
    ash(game)
    with pytest.raises(RuleError, match="not one of Ash's rotes"):
        plan(game.table, PlanOptions(spell="Fireball"))
    with pytest.raises(RuleError, match="paradox<=5%"):
        plan(game.table, PlanOptions(spell="Mend", goal="calamity<=5%"))
