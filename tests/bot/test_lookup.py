"""/lookup over every book: exact keys, fuzzy suggestions, paging, limits and speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapter.render import card_problems
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser, command_data
from bot.table.books import BookError, load_book
from bot.table.lookup import aligned_tables, entry_page, pages_of
from bot.table.registry import Registry
from rules.base import LookupEntry, Model
from tests.conftest import Console


def test_every_entry_renders_within_embed_limits(registry: Registry) -> None:
    entries = registry.lookup.entries
    assert len(entries) > 100
    for entry in entries:
        first, pages = entry_page(entry, 1)
        for number in range(1, pages + 1):
            outcome, _ = entry_page(entry, number)
            assert card_problems(outcome.card) == [], (entry.category, entry.key, number)
        assert first.data["pages"] == pages


def test_labels_are_unique_and_fit_a_choice(registry: Registry) -> None:
    labels = [registry.lookup.label(e) for e in registry.lookup.entries]
    assert len(labels) == len(set(labels))
    assert all(1 <= len(label) <= 100 for label in labels)


@pytest.mark.parametrize(
    ("term", "category", "key"),
    [
        ("calamity 17", "calamity", "17"),
        ("word Tym", "word", "Tym"),
        ("Pierce", "glossary", "Pierce"),
        ("Dispel", "glossary", "Dispel"),
        ("Interrupt Stone", "glossary", "Interrupt Stone"),
    ],
)
async def test_lookup_finds_the_books(console: Console, term: str, category: str, key: str) -> None:
    result = await console.ok(f'/lookup term:"{term}"')
    assert (result["data"]["category"], result["data"]["key"]) == (category, key)


async def test_unknown_term_suggests_the_nearest(console: Console) -> None:
    result = await console.fails("/lookup term:calamty")
    assert "Nearest:" in result["text"]
    assert "calamity" in result["text"]


async def test_long_entries_page_with_buttons(tmp_path: Path, registry: Registry) -> None:
    body = "\n".join(f"Line {n}: " + "lorem ipsum " * 20 for n in range(100))
    long = LookupEntry(ruleset=None, category="test", key="long", title="A long entry", body=body)
    paged = Registry(list(registry), extra_entries=[long])
    table = await ConsoleTable.open(tmp_path / "paged.sqlite3", registry=paged)
    try:
        first = (await table.execute('/lookup term:"test long"')).as_json()
        assert first["buttons"] == ["Next"]
        pages = first["data"]["pages"]
        assert pages == len(pages_of(body)) > 1
        second = (await table.execute("@press Next")).as_json()
        assert f"page 2 of {pages}" in second["text"]
        assert "Line 0:" not in second["text"]
        direct = (await table.execute(f'/lookup term:"test long" page:{pages}')).as_json()
        assert direct["buttons"] == ["Previous"]
    finally:
        await table.close()
    assert "".join(pages_of(body)).replace("\n", "") == body.replace("\n", "")


async def test_autocomplete_answers_every_prefix_within_discords_limits(console: Console, registry: Registry) -> None:
    """Every prefix of every entry gets choices Discord accepts. How fast is the bench's business, not a test's:
    this machine is shared, and a timed test only measures its neighbours."""
    table = console.table
    prefixes = {""} | {label[:n] for label in map(registry.lookup.label, registry.lookup.entries) for n in (1, 3, 6)}
    prefixes |= {"calamity 1", "tym", "pierce", "zzzz", "x" * 100}
    for prefix in sorted(prefixes):
        data = command_data(table.virtual.tree, ["lookup"], {"term": prefix}, focused="term", guild_id=1001)
        choices = await table.virtual.autocomplete(VirtualUser("Alice"), data)
        assert len(choices) <= 25
        assert all(1 <= len(c["name"]) <= 100 for c in choices)


class Row(Model):
    key: str
    value: int


class RowsFile(Model):
    rows: list[Row]


class Book(Model):
    numbers: RowsFile


def test_broken_data_names_its_file_and_row(tmp_path: Path) -> None:
    (tmp_path / "numbers.toml").write_text('[[rows]]\nkey = "a"\nvalue = 1\n\n[[rows]]\nkey = "b"\nvalue = "two"\n')
    with pytest.raises(BookError, match=r"numbers\.toml: rows / row 2 / value"):
        load_book(Book, tmp_path)
    (tmp_path / "numbers.toml").write_text("[[rows]\n")
    with pytest.raises(BookError, match=r"numbers\.toml: not valid TOML"):
        load_book(Book, tmp_path)


def test_markdown_tables_become_aligned_blocks() -> None:
    body = "Intro\n| Word | Cost |\n|---|---|\n| Flam | 2 |\n| Uus | 1 |\nAfter"
    assert aligned_tables(body).splitlines() == ["Intro", "```", "Word  Cost", "Flam  2", "Uus   1", "```", "After"]


def test_page_breaks_never_leave_a_code_block_open(registry: Registry) -> None:
    rows = "\n".join(f"| row {n} | {'x' * 60} |" for n in range(200))
    entry = LookupEntry(ruleset=None, category="test", key="wide", title="Wide", body=f"| a | b |\n|---|---|\n{rows}")
    first, pages = entry_page(entry, 1)
    assert pages > 1
    for number in range(1, pages + 1):
        text = entry_page(entry, number)[0].card.description
        assert text.count("```") % 2 == 0, number
        assert card_problems(entry_page(entry, number)[0].card) == []


async def test_a_clear_near_miss_shows_its_entry_and_says_so(console) -> None:
    typo = await console.ok('/lookup term:"calamty 17"')
    assert typo["data"]["key"] == "17" and typo["data"]["showing_for"] == "calamty 17"
    assert "Showing `runic calamity 17` for 'calamty 17'" in typo["text"]
    assert (await console.ok("/lookup term:Pierse"))["data"]["key"] == "Pierce"
    ambiguous = await console.fails("/lookup term:kismet")  # three entries are as close: name them instead
    assert "Nearest:" in ambiguous["text"]
    assert "showing_for" not in (await console.ok("/lookup term:Pierce"))["data"]  # exact stays exact
