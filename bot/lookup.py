"""The ``/lookup`` index: every book entry, searchable by exact key or fuzzily.

Scoring runs through rapidfuzz (C speed), so autocomplete over every table
answers well inside Discord's 3-second window.
"""

from __future__ import annotations

from rapidfuzz import fuzz, process, utils

from rules.base import LookupEntry

MAX_CHOICES = 25


class LookupIndex:
    def __init__(self, entries: list[LookupEntry]) -> None:
        self.entries = entries
        self._names = [self.label(entry) for entry in entries]
        self._keys: dict[str, LookupEntry] = {}
        for entry in entries:
            for name in (self.label(entry), entry.search_text, entry.title, *entry.aliases):
                self._keys.setdefault(_norm(name), entry)

    @staticmethod
    def label(entry: LookupEntry) -> str:
        """The name autocomplete shows and submits, unique per entry."""
        prefix = f"{entry.ruleset} " if entry.ruleset else ""
        return f"{prefix}{entry.category} {entry.key}"[:100]

    def exact(self, term: str) -> LookupEntry | None:
        return self._keys.get(_norm(term))

    def search(self, term: str, *, ruleset: str | None = None, limit: int = MAX_CHOICES) -> list[LookupEntry]:
        """Best matches first; the channel's ruleset (if any) ranks ahead on ties."""
        if not term.strip():
            pool = [e for e in self.entries if ruleset is None or e.ruleset in (ruleset, None)]
            return pool[:limit]
        matches = process.extract(
            term, self._names, scorer=fuzz.WRatio, processor=utils.default_process, limit=limit * 3
        )
        ranked = sorted(
            matches,
            key=lambda m: (-m[1] - (5 if ruleset and self.entries[m[2]].ruleset == ruleset else 0), m[2]),
        )
        return [self.entries[index] for _, _, index in ranked[:limit]]


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())
