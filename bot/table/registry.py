"""Finds the rulesets and loads their books once, at start-up.

A ruleset is any package ``rules/<id>/`` exposing ``RULESET``; dropping one in
is all it takes to register it. Broken book data stops start-up here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from bot.table.books import DATA_DIR, load_book
from bot.table.lookup import LookupIndex
from bot.table.rulings import ruling_entries
from rules.base import LookupEntry, RuleError, Ruleset


@dataclass(frozen=True)
class LoadedRuleset:
    ruleset: Ruleset
    book: Any

    @property
    def id(self) -> str:
        return self.ruleset.id


class Registry:
    def __init__(self, loaded: Iterable[LoadedRuleset], extra_entries: Iterable[LookupEntry] = ()) -> None:
        self._by_id = {item.id: item for item in loaded}
        entries = list(extra_entries)
        for item in self._by_id.values():
            entries.extend(item.ruleset.lookup_entries(item.book))
        self.lookup = LookupIndex(entries)

    @classmethod
    def build(cls, rulesets: Iterable[Ruleset], data_dir: Path = DATA_DIR) -> Registry:
        loaded = []
        for ruleset in rulesets:
            book = load_book(ruleset.book_model, data_dir / ruleset.id) if ruleset.book_model else None
            loaded.append(LoadedRuleset(ruleset, book))
        return cls(loaded, ruling_entries())

    @classmethod
    def discover(cls, data_dir: Path = DATA_DIR) -> Registry:
        return cls.build(discover_rulesets(), data_dir)

    def __contains__(self, ruleset_id: str) -> bool:
        return ruleset_id in self._by_id

    def __iter__(self):
        return iter(self._by_id.values())

    def ids(self) -> list[str]:
        return sorted(self._by_id)

    def get(self, ruleset_id: str) -> LoadedRuleset:
        try:
            return self._by_id[ruleset_id]
        except KeyError:
            choices = ", ".join(self.ids()) or "none installed"
            raise RuleError(f"Unknown ruleset {ruleset_id!r}. Rulesets: {choices}.") from None


def discover_rulesets() -> list[Ruleset]:
    found = []
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"rules.{module.name}")
        ruleset = getattr(package, "RULESET", None)
        if isinstance(ruleset, Ruleset):
            found.append(ruleset)
    return sorted(found, key=lambda r: r.id)
