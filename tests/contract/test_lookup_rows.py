"""Check 5: every row of every book table loads, and ``/lookup`` finds it.

Each ruleset's ``lookup_entries(book)`` (its tables' rows, rules, glossary terms, read from ``data/<id>/``) must be
found by the registry's lookup index as a player types it: by ``category key`` (``calamity 17``) and, where no
other entry shares it, by its key alone (``Tym``). No two entries may share a label: autocomplete submits the
label, so the second of two would never open. The rulings of docs/rulings.md are checked as ``shared``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.base import LookupEntry
from tests.contract.conftest import EVERY_OWNER
from tests.contract.support import SHARED, find_entry, lookup_entries, registry, shared_lookup_entries


def entries_of(owner: str) -> list[LookupEntry]:
    return shared_lookup_entries() if owner == SHARED else lookup_entries(owner)


def same(found: LookupEntry | None, entry: LookupEntry) -> bool:
    return found is not None and (found.ruleset, found.category, found.key) == (
        entry.ruleset,
        entry.category,
        entry.key,
    )


def label(entry: LookupEntry) -> str:
    return f"{entry.ruleset or ''} {entry.category} {entry.key}".strip()


def norm(text: str) -> str:
    return " ".join(text.casefold().split())


@EVERY_OWNER
def test_lookup_finds_every_entry_by_its_category_and_key(owner: str) -> None:
    entries = entries_of(owner)
    assert entries, f"{owner} offers nothing to /lookup"
    lost = [label(e) for e in entries if not same(find_entry(f"{e.category} {e.key}", e.ruleset), e)]
    assert not lost, f"{len(lost)} of {len(entries)} entries are not found by `category key`: {lost[:20]}"


@EVERY_OWNER
def test_lookup_finds_every_entry_by_its_key_where_no_other_shares_it(owner: str) -> None:
    keys = Counter(norm(e.key) for e in registry().lookup.entries)
    entries = [e for e in entries_of(owner) if keys[norm(e.key)] == 1]
    lost = [f"{label(e)} (opens {label(found) if (found := find_entry(e.key, e.ruleset)) else 'nothing'})"
            for e in entries if not same(find_entry(e.key, e.ruleset), e)]  # fmt: skip
    assert not lost, f"{len(lost)} of {len(entries)} unique keys open another entry or none: {lost[:20]}"


@EVERY_OWNER
def test_no_two_entries_share_a_label(owner: str) -> None:
    labels = Counter(norm(label(e)) for e in entries_of(owner))
    assert [name for name, count in labels.items() if count > 1] == []


@pytest.mark.parametrize("term", ["calamity 17", "word Tym", "ruling 15"])
def test_the_examples_the_docs_give_open_an_entry(term: str) -> None:
    assert find_entry(term, None) is not None
