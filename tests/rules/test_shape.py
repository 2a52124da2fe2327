"""The shape every ruleset shares: rules/ imports form no circle, counting every import.

A circle hidden by an import inside a function, or under ``if TYPE_CHECKING``, is still a circle: the
modules still cannot be read (or loaded) one before the other. So the graph below takes every import
statement wherever it stands. A submodule's own package is not an edge: Python runs the package's
``__init__`` first in any case, and counting it would put every package in a circle with its modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def module_names(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under root/rules: dotted name -> (file, is a package)."""
    found = {}
    for path in sorted((root / "rules").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _targets(name: str, package: bool, node: ast.Import | ast.ImportFrom, known: Iterable[str]) -> list[str]:
    """The modules an import statement loads: a submodule when it names one, else the module it names."""
    known = set(known)
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = name.split(".") if package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    return [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names]


def import_graph(root: Path = ROOT) -> dict[str, dict[str, list[int]]]:
    """module -> {imported rules module: [line, ...]}, for every import statement anywhere in the file."""
    modules = module_names(root)
    graph: dict[str, dict[str, list[int]]] = {name: {} for name in modules}
    for name, (path, package) in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _targets(name, package, node, modules):
                while target not in modules and "." in target:  # `import rules.x.y.name` counts as rules.x.y
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    graph[name].setdefault(target, []).append(node.lineno)
    return graph


def circles(graph: dict[str, dict[str, list[int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def describe(graph: dict[str, dict[str, list[int]]], component: list[str]) -> str:
    edges = [
        f"{source} -> {target} (line {', '.join(map(str, sorted(lines)))})"
        for source in component
        for target, lines in sorted(graph[source].items())
        if target in component
    ]
    return "; ".join(edges)


def test_the_graph_sees_the_rulesets() -> None:
    graph = import_graph()
    assert {"rules.base", "rules.saga.turn", "rules.serpent.energy", "rules.realm", "rules.runic.cards"} <= set(graph)
    assert "rules.saga.area" in graph["rules.saga.turn"]
    assert "rules.base" in graph["rules.saga"]


def test_no_circle_of_imports_in_rules() -> None:
    graph = import_graph()
    assert [describe(graph, component) for component in circles(graph)] == []


def test_lazy_and_type_checking_imports_count(tmp_path: Path) -> None:
    """The checker itself: imports inside functions and under TYPE_CHECKING are edges, and circles are found."""
    package = tmp_path / "rules" / "demo"
    package.mkdir(parents=True)
    (tmp_path / "rules" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from rules.demo.a import one\n")
    (package / "a.py").write_text("from rules.demo import b\n\ndef one():\n    return b.two()\n")
    (package / "b.py").write_text("def two():\n    from rules.demo.a import one\n    return one\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules.demo.d import D\n"
    )
    (package / "d.py").write_text("from .c import TYPE_CHECKING as D\n")
    graph = import_graph(tmp_path)
    assert graph["rules.demo.a"] == {"rules.demo.b": [1]}
    assert graph["rules.demo.b"] == {"rules.demo.a": [2]}
    assert graph["rules.demo"] == {"rules.demo.a": [1]}
    assert sorted(circles(graph)) == [["rules.demo.a", "rules.demo.b"], ["rules.demo.c", "rules.demo.d"]]
