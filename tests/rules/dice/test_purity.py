"""rules/dice stays pure: no I/O, no clock, no global random, no app imports (docs/design.md, rules/)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DICE = Path(__file__).resolve().parents[3] / "rules" / "dice"
ALLOWED_ROOTS = {"__future__", "collections", "dataclasses", "fractions", "functools", "itertools", "math", "random"}
ALLOWED_ROOTS |= {"typing", "pydantic", "rules"}
# Module-level functions of `random` draw from the hidden global generator; only the class may be used.
RANDOM_ALLOWED = {"Random"}


def _modules() -> list[Path]:
    return sorted(DICE.glob("*.py"))


def test_the_package_is_where_the_test_looks() -> None:
    assert {p.name for p in _modules()} >= {"__init__.py", "gurps.py", "pools.py", "threshold.py", "odds.py"}


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_imports_are_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            assert root in ALLOWED_ROOTS, f"{path.name} imports {name}"
            if root == "rules":
                assert name in ("rules.base", "rules.text", "rules.dice") or name.startswith("rules.dice."), name


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_global_random(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr in RANDOM_ALLOWED, f"{path.name} uses random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert {alias.name for alias in node.names} <= RANDOM_ALLOWED, path.name
