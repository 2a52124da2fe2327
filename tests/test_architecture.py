"""The layering rules of docs/design.md, checked by reading the code.

bot/ is four layers, each a package, and data flows down: the entry points (``bot.__main__``, ``bot.cli``,
``bot.bench``) may import anything below them; the Discord adapter (``bot.adapter``, and the cogs) the table
service, storage and rules; the table service (``bot.table``) storage and rules; storage (``bot.storage``) only
rules; rules only rules. No module imports itself round a circle, counting every import: at the top, inside a
function and under ``TYPE_CHECKING`` alike, so a lazy import cannot hide one.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "rules")
FORBIDDEN_IN_RULES = {"discord", "aiosqlite", "sqlite3", "bot", "cogs", "os", "pathlib", "time", "datetime", "io"}

# layer -> the layers it may import (itself included); a module's layer is the first prefix that matches it
LAYERS = {
    "entry": {"entry", "adapter", "web", "cogs", "table", "storage", "rules"},
    "web": {"web", "table", "rules"},
    "cogs": {"cogs", "adapter", "table", "storage", "rules"},
    "adapter": {"adapter", "table", "storage", "rules"},
    "table": {"table", "storage", "rules"},
    "storage": {"storage", "rules"},
    "rules": {"rules"},
}
LAYER_OF = (
    ("bot.__main__", "entry"),
    ("bot.cli", "entry"),
    ("bot.bench", "entry"),
    ("bot.adapter", "adapter"),
    ("bot.web", "web"),
    ("bot.table", "table"),
    ("bot.storage", "storage"),
    ("cogs", "cogs"),
    ("rules", "rules"),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def imported(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every project module ``path`` imports, wherever the import statement stands."""
    found = set()
    this = module_name(path)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from rules.runic import mana` imports the module rules.runic.mana; `from bot.table.service import
            # Reply` imports bot.table.service
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # `from bot.table import campaigns` names a module
                target = target.rpartition(".")[0]
            if target and target != this and target not in PACKAGES:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imported(path, modules) for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
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

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def layer(module: str) -> str | None:
    for prefix, name in LAYER_OF:
        if module == prefix or module.startswith(prefix + "."):
            return name
    return None


def test_no_import_circle_anywhere() -> None:
    assert circles(graph()) == []


def test_layers_import_only_downwards() -> None:
    wrong = []
    for module, targets in graph().items():
        here = layer(module)
        for target in targets:
            if here is not None and layer(target) not in LAYERS[here]:
                wrong.append(f"{module} ({here}) imports {target} ({layer(target)})")
    assert sorted(wrong) == []


def test_only_the_adapter_and_entry_points_know_discord() -> None:
    """The table service and storage run the same under the console, the bench and Discord."""
    offenders = {
        module: sorted(imports(path) & {"discord", "aiohttp"})
        for module, path in all_modules().items()
        if layer(module) in ("table", "storage") and imports(path) & {"discord", "aiohttp"}
    }
    assert offenders == {}


def test_only_storage_knows_a_database_driver() -> None:
    drivers = {"sqlite3", "aiosqlite", "asyncpg"}
    offenders = {
        module: sorted(imports(path) & drivers)
        for module, path in all_modules().items()
        if layer(module) not in ("storage", "entry") and imports(path) & drivers
    }
    assert offenders == {}


def test_the_adapter_reaches_storage_only_through_the_table_service() -> None:
    """Discord's side asks the table layer (``campaigns.commands_seen``, ``board.board_message``), never the store;
    so do the web pages (``bot.table.pages``, ``bot.table.weblinks``)."""
    offenders = [
        module
        for module, path in all_modules().items()
        if layer(module) in ("adapter", "cogs", "web") and ".store." in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_the_web_pages_know_no_discord_and_the_table_never_imports_them() -> None:
    edges = graph()
    assert any(layer(module) == "web" for module in edges), "bot.web is registered as a layer"
    assert {
        module: sorted(imports(path) & {"discord"})
        for module, path in all_modules().items()
        if layer(module) == "web" and "discord" in imports(path)
    } == {}
    assert [
        m
        for m, targets in edges.items()
        if layer(m) in ("table", "storage", "rules", "adapter", "cogs") and any(layer(t) == "web" for t in targets)
    ] == []


def test_bot_holds_only_its_layer_packages_and_entry_point() -> None:
    loose = sorted(path.name for path in (ROOT / "bot").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
    assert all(layer(module) is not None for module in all_modules() if module != "bot"), "a module outside a layer"


def test_the_graph_sees_lazy_imports() -> None:
    """The checker itself: an import inside a function and one under TYPE_CHECKING are both edges."""
    edges = graph()
    assert "bot.storage.postgres" in edges["bot.storage.database"]  # imported inside open_store, on purpose
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


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
