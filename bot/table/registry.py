"""Finds the rulesets and loads their books once, at start-up.

A ruleset is any package ``rules/<id>/`` exposing ``RULESET`` (its book in ``data/<id>/``), or any installed
distribution's entry point in the group ``magister.rulesets`` that loads a :class:`Ruleset` instance or class (its
book in the ``data/`` folder inside its own package: docs/new-ruleset.md). Dropping one in, or installing one, is
all it takes to register it. Broken book data, a broken entry point or two rulesets with one id stop start-up here.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import pkgutil
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from bot.table.books import DATA_DIR, BookError, load_book
from bot.table.lookup import LookupIndex
from bot.table.rulings import ruling_entries
from rules.base import LookupEntry, RuleError, Ruleset

ENTRY_POINTS = "magister.rulesets"
VALID_ID = re.compile(r"[a-z]{1,20}")  # /<id>, and the m:act:<id>:… custom_ids of its lasting buttons


class RulesetError(BookError):
    """A ruleset that cannot be registered: an entry point that does not load one, or an id taken twice.

    A :class:`BookError`, so the program stops at start-up with the message and nothing half-started.
    """


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
        self._extra_entries = list(extra_entries)

    @functools.cached_property
    def lookup(self) -> LookupIndex:
        """The ``/lookup`` index, built on its first use (well inside autocomplete's 3 seconds): splitting every book
        entry's words was a tenth of start-up, and most starts (the console's first reply) never look anything up."""
        entries = list(self._extra_entries)
        for item in self._by_id.values():
            entries.extend(item.ruleset.lookup_entries(item.book))
        return LookupIndex(entries)

    @classmethod
    def build(cls, rulesets: Iterable[Ruleset], data_dir: Path = DATA_DIR) -> Registry:
        """Load each ruleset's book: ``data_dir/<id>/`` for a built-in one, its package's ``data/`` for another."""
        loaded = []
        seen: dict[str, Ruleset] = {}
        for ruleset in rulesets:
            if not VALID_ID.fullmatch(str(getattr(ruleset, "id", ""))):
                raise RulesetError(
                    f"{_origin(ruleset)} has the id {getattr(ruleset, 'id', None)!r}: a ruleset's id is its slash "
                    "command and part of its buttons' ids, so 1 to 20 lower-case letters (runic, serpent)."
                )
            if ruleset.id in seen:
                raise RulesetError(
                    f"Two rulesets have the id {ruleset.id!r}: {_origin(seen[ruleset.id])} and {_origin(ruleset)}. "
                    "Uninstall one, or give one another id."
                )
            seen[ruleset.id] = ruleset
            for action in ruleset.actions.values():
                field = action.options.model_fields.get("confirm")
                if action.confirm is not None and (field is None or field.annotation is not bool):
                    raise RulesetError(
                        f"{_origin(ruleset)}: the action {action.name!r} may ask first (Action.confirm), so its "
                        "options need `confirm: bool = False` (rules.base.Confirmable): Confirm runs it with "
                        "`confirm:true`."
                    )
            book = load_book(ruleset.book_model, book_folder(ruleset, data_dir)) if ruleset.book_model else None
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
    """The built-in rulesets (``rules/<id>/``), then the installed ones (entry points), each sorted by id.

    Two with one id are both returned: :meth:`Registry.build` refuses them, naming both.
    """
    found = []
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"rules.{module.name}")
        ruleset = getattr(package, "RULESET", None)
        if isinstance(ruleset, Ruleset):
            found.append(ruleset)
    return sorted(found, key=lambda r: r.id) + sorted(installed_rulesets(), key=lambda r: r.id)


def installed_rulesets() -> list[Ruleset]:
    """Every ruleset an installed distribution offers in the ``magister.rulesets`` entry point group."""
    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
        where = f"the entry point {entry.name} = {entry.value}"
        try:
            loaded = entry.load()
        except Exception as exc:
            raise RulesetError(f"{where} ({ENTRY_POINTS}) does not load: {type(exc).__name__}: {exc}") from exc
        ruleset = loaded() if inspect.isclass(loaded) and issubclass(loaded, Ruleset) else loaded
        if not isinstance(ruleset, Ruleset):
            raise RulesetError(f"{where} ({ENTRY_POINTS}) is not a Ruleset instance or class: {loaded!r}")
        found.append(ruleset)
    return found


def is_built_in(ruleset: Ruleset) -> bool:
    return type(ruleset).__module__.split(".")[0] == rules.__name__


def book_folder(ruleset: Ruleset, data_dir: Path = DATA_DIR) -> Path:
    """Where a ruleset's book lives: ``data/<id>/`` for a built-in one, the ``data/`` folder beside the module
    that defines an installed one's class (its package)."""
    if is_built_in(ruleset):
        return data_dir / ruleset.id
    module = sys.modules.get(type(ruleset).__module__)
    source = getattr(module, "__file__", None)
    if source is None:
        raise RulesetError(f"The {ruleset.id} ruleset's module has no file, so its data/ folder cannot be found.")
    return Path(source).resolve().parent / "data"


def _origin(ruleset: Ruleset) -> str:
    return f"{type(ruleset).__module__}.{type(ruleset).__qualname__}"
