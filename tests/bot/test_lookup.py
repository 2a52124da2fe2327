"""/lookup over every book: exact keys, fuzzy suggestions, paging, limits and speed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.adapter.render import card_problems
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser, command_data
from bot.table.books import BookError, load_book
from bot.table.lookup import LookupIndex, Tier, aligned_tables, entry_page, pages_of
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
    assert "showing_for" not in (await console.ok("/lookup term:Pierce"))["data"]  # exact stays exact
    nothing = await console.fails("/lookup term:calamty")  # close to many rows: name them instead
    assert "Nearest:" in nothing["text"] and "runic calamity" in nothing["text"]


async def test_a_word_of_several_names_shows_the_best_and_names_the_rest(console: Console) -> None:
    """ "kismet" begins three saga names: the glossary's "Kismet Cards" holds it whole, the others follow."""
    result = await console.ok("/lookup term:kismet")
    assert (result["data"]["category"], result["data"]["key"]) == ("glossary", "Kismet Cards")
    assert result["data"]["showing_for"] == "kismet"
    assert {"saga rule kismetic order", "saga glossary Kismetic Order"} <= set(result["data"]["also"])
    assert "Showing `saga glossary Kismet Cards` for 'kismet'. Also: `saga rule kismetic order`" in result["text"]


@pytest.mark.parametrize(
    ("term", "ruleset", "label", "how"),
    [
        # a whole word of a heading: the book's rule on it before its glossary terms and table rows
        ("harmonic", None, "saga rule harmonic order", "Showing `saga rule harmonic order` for 'harmonic'"),
        # the book never names the Paths; docs/awakened.md's example does (path:Thyrsus)
        ("Thyrsus", None, "awakened rule path", None),
        # the serpent book's call for priority: no entry's name, one entry's text
        ("Fasul", None, "serpent glossary Priority (for Response casting)", "No entry is called 'Fasul'"),
        ("spell cost", "runic", "runic rule energy-cost", "Also under that name: `awakened rule base cost`"),
        ("spell cost", "awakened", "awakened rule base cost", "Also under that name: `runic rule energy-cost`"),
        # both words in one heading, in either order
        ("source limit", None, "saga step 10", "Showing `saga step 10` for 'source limit'"),
        ("limit source", None, "saga step 10", "Showing `saga step 10` for 'limit source'"),
        # the beginnings of a heading's words
        ("harm ord", None, "saga rule harmonic order", "Showing `saga rule harmonic order` for 'harm ord'"),
    ],
)
async def test_a_term_lands_on_the_entry_a_gm_wants(
    console: Console, term: str, ruleset: str | None, label: str, how: str | None
) -> None:
    if ruleset is not None:
        await console.ok(f"/campaign start ruleset:{ruleset} name:Lookups")
    result = await console.ok(f'/lookup term:"{term}"')
    data = result["data"]
    assert f"{data['ruleset']} {data['category']} {data['key']}" == label
    assert "Nothing is called" not in result["text"]
    if how is None:
        assert "showing_for" not in data and not result["text"].splitlines()[1].startswith("*")
    else:
        assert how in result["text"]


async def test_autocomplete_offers_the_same_order(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Lookups")
    choices = await console.table.autocomplete(["lookup"], {"term": "spell cost"}, "term")
    assert [c["name"] for c in choices[:2]] == ["runic rule energy-cost", "awakened rule base cost"]
    choices = await console.table.autocomplete(["lookup"], {"term": "harmonic"}, "term")
    assert choices[0]["name"] == "saga rule harmonic order"
    assert len(choices) == 25  # word hits first, then near-misses fill the list


async def test_a_word_only_inside_other_words_names_where_it_is(console: Console) -> None:
    result = await console.fails("/lookup term:armon")  # "harmonic", in several saga rules
    assert "Nothing is called 'armon'" in result["text"]
    assert "saga rule harmonic order" in result["text"]


def _index(*entries: tuple[str, str, str, list[str]]) -> LookupIndex:
    return LookupIndex(
        [LookupEntry(ruleset="t", category=c, key=k, title=k.title(), body=b, aliases=a) for c, k, b, a in entries]
    )


def test_ranking_puts_exact_then_whole_word_then_prefix_then_text_then_inside_a_word() -> None:
    index = _index(
        ("row", "inside", "The word is in sparkling text.", []),
        ("row", "body", "It says spark outright.", []),
        ("row", "sparkle", "Nothing here.", []),
        ("row", "great spark", "Nothing here.", []),
        ("row", "spark", "Nothing here.", []),
    )
    assert [(tier, e.key) for tier, e in index.hits("spark")] == [
        (Tier.NAME, "spark"),
        (Tier.NAME, "great spark"),
        (Tier.PREFIX, "sparkle"),
        (Tier.TEXT, "body"),
        (Tier.PART, "inside"),
    ]
    assert index.find("spark").tier is Tier.EXACT
    assert (index.find("Great").entry.key, index.find("Great").tier) == ("great spark", Tier.NAME)
    assert index.find("outright").tier is Tier.TEXT
    assert index.find("parklin").tier is Tier.PART  # one entry alone has it inside a word
    assert index.find("zzz") is None


def test_a_rule_comes_before_a_glossary_term_and_a_row_and_the_tightest_name_first() -> None:
    index = _index(
        ("colour", "tide red", "", []),
        ("glossary", "Tide Order", "", []),
        ("rule", "tide and moon in long words", "", []),
        ("rule", "tide order", "", []),
    )
    assert [e.key for _, e in index.hits("tide")] == [
        "tide order",
        "tide and moon in long words",
        "Tide Order",
        "tide red",
    ]


def test_a_rare_word_in_a_heading_outranks_a_common_one() -> None:
    """ "spell cost": an entry headed "cost" beats one headed "spell", since nearly every entry says spell."""
    filler = [("row", f"spell {n}", "a spell", []) for n in range(6)]
    index = _index(("rule", "spell form", "what a spell may cost", []), ("rule", "mana cost", "a spell", []), *filler)
    assert index.find("spell cost").entry.key == "mana cost"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_entrys_own_name_looks_up_itself(registry: Registry, data: st.DataObject) -> None:
    index = registry.lookup
    entry = data.draw(st.sampled_from(index.entries))
    name = data.draw(st.sampled_from([index.label(entry), entry.search_text, entry.key, entry.title]))
    typed = data.draw(st.sampled_from([name, name.upper(), name.casefold(), f"  {name}  ", name.replace(" ", "  ")]))
    found = index.find(typed, entry.ruleset)
    assert found is not None and found.tier is Tier.EXACT
    holders = [e for e in index.entries if e.ruleset == entry.ruleset and _norm(name) in _names(index, e)]
    if holders == [entry]:  # a name no other entry of its book carries opens that entry, in its book's channel
        assert found.entry is entry, (typed, index.label(found.entry))
    else:
        assert found.entry in holders


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _names(index: LookupIndex, entry: LookupEntry) -> set[str]:
    return {_norm(n) for n in (index.label(entry), entry.search_text, entry.key, entry.title, *entry.aliases)}
