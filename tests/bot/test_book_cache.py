"""The validated-book cache (issue 23, start-up): a book is read and validated when its tables or its model's code
changed, and comes from ``data/<id>/__pycache__/`` otherwise; a broken table still stops start-up, naming it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.table import books
from bot.table.books import BookError, cache_path, load_book
from bot.table.registry import Registry, discover_rulesets
from rules.runic.book import RunicBook

DATA = Path(__file__).resolve().parents[2] / "data"
FLAM = 'name = "Flam"\nletter = "F"\ncategory = "noun"\nmeaning = "Fire"\n'


@pytest.fixture
def writes_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a user's machine: Python may write bytecode, so the book cache is written too."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.fixture
def runic(tmp_path: Path) -> Path:
    folder = tmp_path / "runic"
    shutil.copytree(DATA / "runic", folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Counts the folders whose tables are read (parsed and validated) from here on."""
    read: list[Path] = []
    original = books.read_tables

    def counting(folder: Path) -> dict:
        read.append(folder)
        return original(folder)

    monkeypatch.setattr(books, "read_tables", counting)
    return read


@pytest.mark.usefixtures("writes_caches")
def test_a_book_is_validated_once_then_read_from_its_cache(runic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_book(RunicBook, runic)
    assert cache_path(runic).is_file()
    read = _no_reading(monkeypatch)
    again = load_book(RunicBook, runic)
    assert read == []
    assert again == first and again is not first
    assert again.words.word[0].name == "Flam" and again.word("flam").meaning == "Fire"


@pytest.mark.usefixtures("writes_caches")
def test_a_table_changed_after_caching_is_read_again_and_a_broken_one_still_stops_start_up(
    runic: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_book(RunicBook, runic)
    words = runic / "words.toml"
    words.write_text(words.read_text(encoding="utf-8").replace(FLAM, FLAM.replace("Fire", "Flame")), encoding="utf-8")
    read = _no_reading(monkeypatch)
    assert load_book(RunicBook, runic).words.word[0].meaning == "Flame"
    assert read == [runic]
    words.write_text(words.read_text(encoding="utf-8").replace("cost = 2\n", 'cost = "two"\n', 1), encoding="utf-8")
    with pytest.raises(BookError, match=r"runic/words\.toml: word / row 1 / cost"):
        load_book(RunicBook, runic)
    words.write_text("[[word]\n", encoding="utf-8")
    with pytest.raises(BookError, match=r"words\.toml: not valid TOML"):
        load_book(RunicBook, runic)


@pytest.mark.usefixtures("writes_caches")
def test_a_changed_model_misses_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key holds the source of the package defining the model: an edit there (a new process reads it) misses."""
    package = tmp_path / "code" / "cachedbook"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from rules.base import Model\n\n\nclass Row(Model):\n    key: str\n\n\n"
        "class Rows(Model):\n    rows: list[Row]\n\n\nclass Book(Model):\n    numbers: Rows\n"
    )
    data = tmp_path / "data"
    data.mkdir()
    (data / "numbers.toml").write_text('[[rows]]\nkey = "a"\n')
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.delitem(sys.modules, "cachedbook", raising=False)
    from cachedbook import Book  # type: ignore[import-not-found]

    read = _no_reading(monkeypatch)
    load_book(Book, data)
    books._code_digest.cache_clear()  # a new process
    load_book(Book, data)
    assert read == [data]
    (package / "__init__.py").write_text((package / "__init__.py").read_text() + "# a field changed here\n")
    books._code_digest.cache_clear()
    assert load_book(Book, data).numbers.rows[0].key == "a"
    assert read == [data, data]
    books._code_digest.cache_clear()


@pytest.mark.usefixtures("writes_caches")
def test_a_damaged_cache_is_only_a_miss(runic: Path) -> None:
    first = load_book(RunicBook, runic)
    cache_path(runic).write_bytes(cache_path(runic).read_bytes()[:200])
    assert load_book(RunicBook, runic) == first
    cache_path(runic).write_bytes(b"\x80 not a book")
    assert load_book(RunicBook, runic) == first
    assert len(cache_path(runic).read_bytes()) > 1000  # written again, whole


def test_nothing_is_written_where_python_writes_no_bytecode(runic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PYTHONDONTWRITEBYTECODE (a container, this sandbox): the folder is left as it was, and still read."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert load_book(RunicBook, runic).words.word[0].name == "Flam"
    assert not (runic / "__pycache__").exists()


@pytest.mark.usefixtures("writes_caches")
async def test_the_console_plays_the_same_from_cached_books_and_stops_on_a_broken_one(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("__pycache__"))
    rulesets = discover_rulesets()
    lines = [
        "/campaign start ruleset:runic name:Camelot",
        "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
        "/runic mage word word:Flam skill:14",
        "/lookup term:Flam",
    ]
    replies = []
    for run in range(2):  # validated and cached, then from the caches
        table = await ConsoleTable.open(tmp_path / f"run{run}.sqlite3", seed=3, registry=Registry.build(rulesets, data))
        try:
            for line in lines:
                result = await table.execute(line)
                assert result is not None and result.ok, (line, result)
                replies.append(result.text)
        finally:
            await table.close()
        assert all(cache_path(data / ruleset.id).is_file() for ruleset in rulesets)
    assert replies[: len(lines)] == replies[len(lines) :]
    assert "Fire" in replies[-1]
    words = data / "runic" / "words.toml"
    words.write_text(words.read_text(encoding="utf-8").replace('category = "noun"', 'category = "nown"', 1))
    with pytest.raises(BookError, match=r"runic/words\.toml: word / row 1 / category"):
        Registry.build(rulesets, data)
