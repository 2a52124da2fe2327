"""The sixth ruleset: docs/new-ruleset.md's hedge magic, built from the guide's own code blocks.

The guide's blocks that start with ``# file: <path>`` are a whole installable package. Two ways to have it, and
neither touches Magister's own files:

- :func:`install` writes the package into a folder with a ``*.dist-info`` naming its ``magister.rulesets`` entry
  point, as pip leaves one; with the folder on ``sys.path`` the registry finds it through
  ``importlib.metadata`` (``tests/contract/test_sixth_ruleset.py``);
- :func:`guide_ruleset` writes it once per session into a temporary folder and imports it under a module name of
  its own (:data:`MODULE`), with no entry point and nothing on ``sys.path``. The contract suite builds its own
  registry from ``[*discover_rulesets(), guide_ruleset()]``; every other test's ``discover_rulesets()`` still
  finds the five built-in rulesets, and an entry-point install of the same package (above) does not meet this one
  in ``sys.modules``.
"""

from __future__ import annotations

import atexit
import functools
import importlib.util
import re
import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

from bot.table.registry import ENTRY_POINTS
from rules.base import Ruleset

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "new-ruleset.md"
BLOCK = re.compile(r"^```[a-z]*\n# file: (?P<path>\S+)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
MODULE = "contract_guide_ruleset"  # the session's copy, imported under a name no installed package has


def guide_files() -> dict[str, str]:
    """Every code block of the guide that starts with ``# file: <path>``: the package exactly as the guide shows it."""
    return {match["path"]: match["body"] for match in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))}


def entry_points() -> dict[str, str]:
    """The package's ``magister.rulesets`` entry points, by name: ``{"hedge": "magister_hedge:RULESET"}``."""
    project = tomllib.loads(guide_files()["pyproject.toml"])["project"]
    return dict(project["entry-points"][ENTRY_POINTS])


def write(site: Path) -> None:
    for name, body in guide_files().items():
        target = site / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")


def install(site: Path) -> str:
    """Write the guide's package into ``site`` with a dist-info naming its entry points; the module's name."""
    write(site)
    project = tomllib.loads(guide_files()["pyproject.toml"])["project"]
    points = entry_points()
    dist = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8"
    )
    lines = [f"[{ENTRY_POINTS}]", *(f"{name} = {value}" for name, value in points.items())]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (value,) = points.values()
    return value.split(":")[0]


@functools.cache
def guide_package() -> Path:
    """The guide's package folder (``…/magister_hedge``), written once per session; removed when the session ends."""
    site = Path(tempfile.mkdtemp(prefix="magister-guide-"))
    atexit.register(shutil.rmtree, site, ignore_errors=True)
    write(site)
    (value,) = entry_points().values()
    return site / value.split(":")[0]


@functools.cache
def guide_ruleset() -> Ruleset:
    """The guide's ruleset, its module imported as :data:`MODULE` from :func:`guide_package` (its book beside it)."""
    package = guide_package()
    spec = importlib.util.spec_from_file_location(
        MODULE, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module  # the registry finds the book beside the module that defines the ruleset's class
    spec.loader.exec_module(module)
    (value,) = entry_points().values()
    found = getattr(module, value.split(":")[1])
    ruleset = found() if isinstance(found, type) else found
    assert isinstance(ruleset, Ruleset), found
    return ruleset
