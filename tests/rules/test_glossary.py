"""One glossary model for every book that has one (rules/glossary.py): realm, saga and serpent read theirs with it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.glossary import Glossary
from rules.realm.book import RealmBook
from rules.saga.book import SagaBook
from rules.serpent.book import SerpentBook

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize("book", [RealmBook, SagaBook, SerpentBook], ids=lambda b: b.__name__)
def test_every_book_reads_its_glossary_with_the_one_model(book: type) -> None:
    assert book.model_fields["glossary"].annotation is Glossary


@pytest.mark.parametrize("ruleset", ["realm", "saga", "serpent"])
def test_each_glossary_file_loads_and_looks_up(ruleset: str) -> None:
    glossary = Glossary.model_validate(tomllib.loads((DATA / ruleset / "glossary.toml").read_text(encoding="utf-8")))
    entries = list(glossary.lookup_entries(ruleset))
    assert len(entries) == len(glossary.term) > 0
    assert {e.ruleset for e in entries} == {ruleset}
    assert {e.category for e in entries} == {"glossary"}


def test_a_term_is_found_by_its_aliases_and_heading_also_after_glossary() -> None:
    glossary = Glossary(term=[{"name": "Area", "body": "b", "aliases": ["AoE"], "heading": "Area (aspect)"}])
    (entry,) = glossary.lookup_entries("serpent")
    assert (entry.key, entry.title, entry.body) == ("Area", "Area", "b")
    assert entry.aliases == ["glossary AoE", "glossary Area (aspect)", "AoE", "Area (aspect)"]
    (plain,) = Glossary(term=[{"name": "Area", "body": "b", "heading": "Area"}]).lookup_entries("saga")
    assert plain.aliases == []


def test_a_term_named_twice_is_refused() -> None:
    with pytest.raises(ValidationError, match="glossary term 'area' appears twice"):
        Glossary(term=[{"name": "Area", "body": "a"}, {"name": " area ", "body": "b"}])
