"""A deck imported from an attached file (issue 11): the sample deck's own file, uploaded as a player would."""

from __future__ import annotations

from pathlib import Path

from bot.table.books import DATA_DIR
from tests.conftest import Console


async def test_a_deck_file_imports_and_a_game_starts_from_it(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:saga name:Stars")
    await console.ok("@as Pat")
    imported = await console.ok(f"/saga card import file:{DATA_DIR / 'saga' / 'sample_deck.toml'}")
    assert imported["ok"]
    listed = await console.ok("/saga card list")
    assert "Sample Wanderer" in listed["text"]
    started = await console.ok("/saga start deck:catalog seed:168")
    assert started["data"]["table"]["step"] == 1


async def test_a_deck_file_with_errors_names_each_card_and_line(console: Console, tmp_path: Path) -> None:
    await console.ok("/campaign start ruleset:saga name:Stars")
    deck = tmp_path / "deck.json"
    deck.write_text(
        '{"card": [{"name": "Good", "type": "story", "harmonics": ["blue"]}, {"name": "Bad", "type": "x"}]}'
    )
    refused = await console.fails(f"/saga card import file:{deck} format:json")
    assert "Bad" in refused["text"]
    assert "Good" not in (await console.ok("/saga card list"))["text"]  # all or nothing
