"""docs/serpent.md keeps a row for every glossary entry (issue 14: "a table of every aspect of the glossary")."""

from __future__ import annotations

from pathlib import Path

from tests.rules.serpent.helpers import book

DOC = Path(__file__).resolve().parents[3] / "docs" / "serpent.md"


def test_the_glossary_table_names_every_entry() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Every glossary entry, and where it is handled", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ") and "---" not in line}
    names = [term.name for term in book().glossary.term]
    assert len(names) == 155
    assert [n for n in names if n not in rows] == []
    assert all(
        line.count("|") == 3 and line.split("|")[2].strip() for line in table.splitlines() if line.startswith("| ")
    )


def test_nothing_is_listed_as_not_automated() -> None:
    assert "## Not automated" not in DOC.read_text(encoding="utf-8")
