"""The docs stand alone: every file README.md and docs/*.md link to or name is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")  # [text](target)
CODE = re.compile(r"`([^`\s]+)`")  # `bot/storage/sqlite.py`, `docs/rulings.md`
TOP = ("bot/", "cogs/", "rules/", "data/", "docs/", "tests/", ".ci/")
ROOT_FILES = ("README.md", "Makefile", "pyproject.toml", "requirements.txt", "requirements-dev.txt", ".env.example")
OUTSIDE = re.compile(r"\.\./|\bshared/|\bseeds/|\bspecs/|RULINGS\.md|DESIGN\.md")


def _named(text: str, doc: Path) -> list[tuple[str, Path]]:
    """(as written, where it points) for each link to a local file and each path named in code spans."""
    found = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor in the same page
        found.append((target, (doc.parent / target.split("#")[0]).resolve()))
    for name in CODE.findall(text):
        name = name.rstrip(".,:;)")
        if any(mark in name for mark in "<>*{}$|=") or "://" in name:
            continue  # a pattern (`docs/<ruleset>.md`) or a command, not a file
        if name.startswith(TOP) or name in ROOT_FILES:
            found.append((name, (ROOT / name.split(":")[0]).resolve()))
    return found


def test_every_file_the_docs_name_is_in_the_repository() -> None:
    missing = []
    for doc in DOCS:
        for written, path in _named(doc.read_text(encoding="utf-8"), doc):
            if not path.exists() or ROOT not in (path, *path.parents):
                missing.append(f"{doc.relative_to(ROOT)}: {written}")
    assert missing == []


def test_no_doc_cites_the_projects_outside_sources() -> None:
    """The spec folder, its seeds and its rulings file are not shipped: the docs, the code's comments and the data
    name docs/rulings.md and the book by title instead."""
    shipped = [*DOCS, *(p for folder in ("bot", "cogs", "rules", "data") for p in sorted((ROOT / folder).rglob("*")))]
    cited = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for path in shipped
        if path.suffix in (".md", ".py", ".toml", ".json")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert cited == []


def test_the_check_finds_a_missing_file() -> None:
    """The scan itself works: a link and a code-span path to files that are not there are both found."""
    doc = ROOT / "docs" / "example.md"
    named = _named("See [the plan](plan.md) and `bot/nowhere.py`, not `docs/<ruleset>.md`.", doc)
    assert [written for written, path in named if not path.exists()] == ["plan.md", "bot/nowhere.py"]
    assert OUTSIDE.search("as ../shared/RULINGS.md says")
