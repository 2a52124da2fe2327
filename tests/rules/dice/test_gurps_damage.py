"""GURPS damage notation (rules/dice/gurps_damage.py): parsing, minimums, the GM's faces, the /roll outcome."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import RuleError
from rules.dice.gurps_damage import (
    DamageNotationError,
    DamageSpec,
    damage_outcome,
    is_gurps_damage,
    minimum_for,
    parse_damage,
    roll_damage,
)


class Faces(random.Random):
    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("6d", DamageSpec(count=6)),
        ("2d+2", DamageSpec(count=2, adds=2)),
        ("3d-1", DamageSpec(count=3, adds=-1)),
        ("1d-3", DamageSpec(count=1, adds=-3)),
        (" 1D × 5 ", DamageSpec(count=1, multiply=5)),
        ("1dx5", DamageSpec(count=1, multiply=5)),
        ("d+1", DamageSpec(count=1, adds=1)),
    ],
)
def test_parse(text: str, spec: DamageSpec) -> None:
    assert parse_damage(text) == spec
    assert parse_damage(spec.text) == spec


@pytest.mark.parametrize("text", ["2d6", "1d20+5", "3", "2d+", "2d+a", "0d", "101d", "dd", "", "2d2"])
def test_not_gurps_damage(text: str) -> None:
    assert not is_gurps_damage(text)
    with pytest.raises(DamageNotationError):
        parse_damage(text)


def test_minimum_one_except_crushing() -> None:
    assert roll_damage(Faces(2), "1d-3").total == 1  # 2 - 3 = -1: minimum 1 point
    crushing = roll_damage(Faces(2), "1d-3", minimum=minimum_for("crushing"))
    assert (crushing.raw, crushing.total) == (-1, 0)
    assert roll_damage(Faces(2), "1d-3").text == "1d-3 [2] = -1, minimum 1: **1**"
    assert roll_damage(Faces(6, 5), "2d+2").text == "2d+2 [6+5] = 13"
    assert minimum_for("burning") == minimum_for(None) == 1


def test_gm_faces() -> None:
    assert roll_damage(Faces(), "3d-1", dice=[6, 6, 1]).total == 12
    with pytest.raises(DamageNotationError, match="needs 3 faces"):
        roll_damage(Faces(), "3d-1", dice=[6, 6])


def test_exact_distribution_of_1d_minus_3() -> None:
    """1d-3 does 1 point on a 1 to 4 (minimum), 2 on a 5, 3 on a 6: P(1) = 2/3."""
    totals = [roll_damage(Faces(face), "1d-3").total for (face,) in product(range(1, 7), repeat=1)]
    assert Fraction(totals.count(1), 6) == Fraction(2, 3)
    assert sorted(set(totals)) == [1, 2, 3]


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 12), adds=st.integers(-10, 10), seed=st.integers(0, 10_000))
def test_total_in_range(count: int, adds: int, seed: int) -> None:
    spec = DamageSpec(count=count, adds=adds)
    result = roll_damage(random.Random(seed), spec)
    assert len(result.dice) == count and all(1 <= d <= 6 for d in result.dice)
    assert result.total == max(1, sum(result.dice) + adds)


def test_roll_outcome_for_the_roll_command() -> None:
    outcome = damage_outcome("2d+2", Faces(3, 4), label="fireball")
    assert outcome.data["total"] == 9 and outcome.data["dice"] == [3, 4]
    assert outcome.card.title == "fireball: 9"
    assert "[3+4]" in outcome.card.description
    with pytest.raises(RuleError):
        damage_outcome("2d+x", Faces())
