"""The numbered rulings come from docs/rulings.md: /lookup shows them, and every citation in code names one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.table.rulings import load_rulings, parse_rulings
from tests.conftest import Console

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"\brulings?\s+(\d+)(?:\s*[-–]\s*(\d+))?", re.IGNORECASE)


def test_the_rulings_are_numbered_from_one_with_titles() -> None:
    rulings = load_rulings().rulings
    assert [r.number for r in rulings] == list(range(1, len(rulings) + 1)) and len(rulings) >= 19
    assert rulings[14].title == "Dice pools" and "chance die" in rulings[14].body
    assert rulings[0].section.startswith("runic") and rulings[18].section.startswith("saga")


def test_a_gap_or_a_repeat_in_the_numbers_is_refused_at_load() -> None:
    with pytest.raises(ValidationError, match="numbered 1 to 2"):
        parse_rulings("## runic\n\n1. **One.** a\n3. **Three.** c\n")
    with pytest.raises(ValidationError):
        parse_rulings("## runic\n\n1. **One.** a\n1. **One again.** b\n")
    with pytest.raises(ValidationError):
        parse_rulings("# nothing numbered here\n")


def test_every_ruling_cited_in_code_and_data_exists() -> None:
    count = len(load_rulings().rulings)
    cited: list[tuple[str, int]] = []
    for folder in ("rules", "bot", "cogs", "data"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".toml", ".json") or not path.is_file():
                continue
            for match in CITATION.finditer(path.read_text(encoding="utf-8")):
                first, last = int(match[1]), int(match[2] or match[1])
                cited += [(str(path.relative_to(ROOT)), number) for number in range(first, last + 1)]
    assert len(cited) > 50  # the rulesets cite them all over
    assert [(where, n) for where, n in cited if not 1 <= n <= count] == []


async def test_lookup_shows_a_ruling_by_number_and_lists_them_all(console: Console) -> None:
    shown = await console.ok('/lookup term:"ruling 15"')
    assert shown["data"]["category"] == "ruling" and shown["data"]["key"] == "15"
    assert shown["text"].startswith("== Ruling 15: Dice pools ==") and "chance die" in shown["text"]
    cited = await console.ok('/lookup term:"RULINGS 13"')  # as the cards cite them
    assert "Sentient Shadow" in cited["text"]
    listed = await console.ok("/lookup term:rulings")
    assert "**19.** Harmonic order" in listed["text"] and "**1.** The success roll" in listed["text"]
    typo = await console.fails('/lookup term:"rulng 15"')  # "ruling 1" and "ruling 5" are close too: suggested
    assert "Nearest: `ruling 15`" in typo["text"]
    choices = await console.table.autocomplete(["lookup"], {"term": "rulings 15"}, "term")
    assert choices[0]["name"] == "ruling 15"
