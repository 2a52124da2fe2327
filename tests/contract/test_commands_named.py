"""Check 1: every command and option a player reads about exists in the command tree.

A player copies what the bot tells them. Every ``/group sub option:`` a text names, in backticks or in prose,
must be a real command with that option: getting-started cards, help examples, the rules' refusals and cards
(string constants of ``rules/<id>/``), lookup entries, what the scenarios show (replies, secrets, buttons,
timers, boards, the log), and ``docs/<id>.md`` (for the guide's sixth ruleset: its own code and
docs/new-ruleset.md). The shared texts (bot/, cogs/, the rulings, README and the shared docs) are checked once, as
``shared``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from tests.contract.conftest import EVERY_OWNER
from tests.contract.support import (
    ROOT,
    SHARED,
    Text,
    Tree,
    command_refs,
    doc_of,
    getting_started,
    lookup_entries,
    played,
    python_strings,
    ref_problems,
    scenarios,
    shared_lookup_entries,
    source_of,
)

SHARED_DOCS = ("README.md", "docs/console.md", "docs/campaigns.md", "docs/play-by-post.md", "docs/dice.md")


def player_texts(owner: str, tree: Tree) -> Iterable[Text]:
    """Every text of one ruleset (or the shared ones) that may name a command."""
    examples = [leaf for leaf in tree.leaves.values() if leaf.owner == owner]
    yield from (Text(f"{leaf.name}: /help example", leaf.example) for leaf in examples)
    if owner == SHARED:
        yield from python_strings("bot")
        yield from python_strings("cogs")
        yield from python_strings("rules/base.py")
        yield from python_strings("rules/dice")
        for entry in shared_lookup_entries():
            yield Text(f"lookup {entry.category} {entry.key}", f"{entry.title}\n{entry.body}")
        for doc in SHARED_DOCS:
            yield from doc_lines(doc)
        return
    yield from (Text(f"{owner} getting-started step {i}", step) for i, step in enumerate(getting_started(owner), 1))
    yield from python_strings(source_of(owner))
    for entry in lookup_entries(owner):
        yield Text(f"lookup {owner} {entry.category} {entry.key}", f"{entry.title}\n{entry.body}")
    yield from doc_lines(doc_of(owner))
    for scenario in scenarios():
        if scenario.ruleset == owner:
            yield from played(scenario.name).texts


def doc_lines(doc: str | Path) -> Iterable[Text]:
    path = ROOT / doc
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        yield Text(f"{path.relative_to(ROOT)}:{number}", line)


@EVERY_OWNER
def test_every_command_a_player_reads_about_exists(owner: str, tree: Tree) -> None:
    found: dict[str, list[str]] = {}
    for text in player_texts(owner, tree):
        for ref in command_refs(text.text):
            for problem in ref_problems(ref, tree):
                found.setdefault(f"`{ref.text}`: {problem}", []).append(text.where)
    assert not found, "\n".join(f"{problem}  [{', '.join(sorted(set(where))[:4])}]" for problem, where in found.items())


TWICE = re.compile(r"\(`?(/[^()`]+?)`?\)\s*\(`?\1`?\)")  # "(/serpent battle round) (`/serpent battle round`)"


@EVERY_OWNER
def test_no_text_names_a_command_twice_in_a_row(owner: str, tree: Tree) -> None:
    """A wait whose words name its command, then the command the wait line adds: said once is enough."""
    found = [
        f"{text.where}: {match.group(0)}" for text in player_texts(owner, tree) for match in TWICE.finditer(text.text)
    ]
    assert not found, "\n".join(found[:10])


def test_a_command_named_twice_in_a_row_is_caught() -> None:
    assert TWICE.search("**GM**: run round 2 (/serpent battle round) (`/serpent battle round`), since")
    assert not TWICE.search("**GM**: run round 2 (`/serpent battle round`) (`/serpent battle adjust`)")
