"""A book's glossary: the one model every ruleset reads its ``glossary.toml`` with, and its ``/lookup`` entries."""

from collections.abc import Iterator

from pydantic import Field, model_validator

from rules.base import LookupEntry, Model
from rules.text import fold


class Term(Model):
    name: str
    body: str
    aliases: list[str] = Field(default_factory=list)
    heading: str | None = None  # the book's own heading where it says more than the name ("Combination aka ...")

    @property
    def other_names(self) -> list[str]:
        """What else the term is looked up by: its aliases, and its heading when that differs from its name."""
        return [*self.aliases, *([self.heading] if self.heading and self.heading != self.name else [])]


class Glossary(Model):
    term: list[Term]

    @model_validator(mode="after")
    def _unique(self) -> "Glossary":
        seen: set[str] = set()
        for term in self.term:
            if fold(term.name) in seen:
                raise ValueError(f"glossary term {fold(term.name)!r} appears twice")
            seen.add(fold(term.name))
        return self

    def lookup_entries(self, ruleset: str) -> Iterator[LookupEntry]:
        """One entry per term, found by its name, its other names, and each of those after "glossary "."""
        for term in self.term:
            names = term.other_names
            yield LookupEntry(
                ruleset=ruleset,
                category="glossary",
                key=term.name,
                title=term.name,
                body=term.body,
                aliases=[f"glossary {name}" for name in names] + names,
            )
