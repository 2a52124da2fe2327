"""R0: the color table of RULINGS 16, and the day of the month (G-R12) over several months."""

from __future__ import annotations

import pytest

from rules.realm.core import day_colors
from tests.rules.realm.helpers import BOOK, Realm


def test_chit_colors_follow_rulings_16() -> None:
    table = BOOK.colors
    assert [table.chit_color(t) for t in ("I", "II", "III", "IV", "V")] == ["white", "grey", "gold", "purple", "black"]
    assert [table.chit_color(t) for t in ("VI", "VII", "VIII")] == [None, None, None]


def test_day_colors_over_three_months_with_the_month_boundary() -> None:
    table = BOOK.colors
    expected = {7: ["white", "black"], 14: ["grey"], 21: ["purple"], 28: ["gold"]}
    for day in range(1, 3 * 28 + 1):
        dom = (day - 1) % 28 + 1
        assert table.day_of_month(day) == dom
        assert table.book_day_colors(day) == expected.get(dom, []), day
    assert table.day_of_month(28) == 28 and table.day_of_month(29) == 1 and table.day_of_month(56) == 28
    assert table.book_day_colors(28) == ["gold"] and table.book_day_colors(29) == []
    assert table.book_day_colors(35) == ["white", "black"] and table.book_day_colors(84) == ["gold"]


def test_gm_overrides_the_day_and_the_clearing() -> None:
    realm = Realm()
    realm.act("gm", "day colors", day=3, colors="gold")
    assert day_colors(realm.table, 3) == ["gold"] and day_colors(realm.table, 31) == []
    realm.act("gm", "day colors", day=7, colors="none")
    assert day_colors(realm.table, 7) == []
    realm.act("gm", "day colors", day=7, colors="book")
    assert day_colors(realm.table, 7) == ["white", "black"]
    shown = realm.act("gm", "clearing set", name="Ruins 5", tile="Ruins", colors="grey")
    assert shown.data["colors_present"] == [{"color": "grey", "source": "clearing Ruins 5"}]
    realm.act("gm", "enchant", tile="Ruins", colors="gold")
    shown = realm.act("gm", "clearing set", name="Ruins 5")
    assert {"color": "gold", "source": "tile Ruins"} in shown.data["colors_present"]


def test_day_next_reports_the_day_of_the_month_across_the_boundary() -> None:
    realm = Realm()
    realm.act("gm", "day set", day=27)
    gold = realm.act("gm", "day next").data
    assert (gold["day"], gold["day_of_month"], gold["colors"]) == (28, 28, ["gold"])
    new_month = realm.act("gm", "day next").data
    assert (new_month["day"], new_month["day_of_month"], new_month["colors"]) == (29, 1, [])


def test_the_book_ships_only_what_the_primer_says() -> None:
    spells = {s.name: s for s in BOOK.spells.spell}
    assert set(spells) == {"Fiery Blast", "Stones Fly", "Lightning Bolt"}
    for spell in spells.values():
        assert (spell.duration, spell.type, spell.color, spell.target_type) == ("attack", None, None, None)
    (good,) = BOOK.spells.book
    assert (good.name, good.kind, good.type, good.spells) == ("The Good Book", "book", "I", [])


@pytest.mark.parametrize("query", ["energize", "color table", "missile table", "ambush", "good book", "speed order"])
def test_every_rule_is_found_by_lookup(query: str) -> None:
    from bot.table.lookup import LookupIndex
    from rules.realm import RULESET

    index = LookupIndex(list(RULESET.lookup_entries(BOOK)))
    assert index.search(query, ruleset="realm"), query
