"""The layering rules of docs/design.md, checked by reading the code."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_RULES = {"discord", "aiosqlite", "sqlite3", "bot", "cogs", "os", "pathlib", "time", "datetime", "io"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_are_pure() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imports(path) & FORBIDDEN_IN_RULES)
        for path in (ROOT / "rules").rglob("*.py")
        if imports(path) & FORBIDDEN_IN_RULES
    }
    assert offenders == {}


def test_rules_never_use_the_global_random() -> None:
    offenders = []
    for path in (ROOT / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr != "Random"
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.func.attr}")
    assert offenders == []


def test_rules_take_only_the_random_class() -> None:
    """Only `from random import Random` (type hints, a seeded shuffle): the global generator is out of reach."""
    offenders = []
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(alias.name == "random" for alias in node.names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} import random")
            elif isinstance(node, ast.ImportFrom) and node.module == "random":
                taken = [alias.name for alias in node.names if alias.name != "Random"]
                offenders += [f"{path.relative_to(ROOT)}:{node.lineno} from random import {name}" for name in taken]
    assert offenders == []


def test_cogs_hold_no_sql() -> None:
    for path in (ROOT / "cogs").rglob("*.py"):
        assert {"aiosqlite", "sqlite3"}.isdisjoint(imports(path)), path
        assert "SELECT " not in path.read_text(encoding="utf-8"), path
