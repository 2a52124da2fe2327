"""What every ruleset shares to fit Discord: clip, listing (rules/text.py), add_field and fit (rules/base.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.base import BLANK, NOTHING, Card, add_field, card_size, fit, quoted
from rules.text import DESCRIPTION, EMBED_TOTAL, FIELD_NAME, FIELD_VALUE, FIELDS, FOOTER, TITLE, clip, listing


def within_limits(card: Card) -> list[str]:
    problems = []
    if len(card.title) > TITLE:
        problems.append("title")
    if len(card.description) > DESCRIPTION:
        problems.append("description")
    if len(card.footer) > FOOTER:
        problems.append("footer")
    if len(card.fields) > FIELDS:
        problems.append("fields")
    for field in card.fields:
        if not 0 < len(field.name) <= FIELD_NAME or not 0 < len(field.value) <= FIELD_VALUE:
            problems.append(f"field {field.name[:20]!r}")
    if card_size(card) > EMBED_TOTAL:
        problems.append(f"total {card_size(card)}")
    return problems


def test_clip_leaves_what_fits_and_says_so_when_it_cuts() -> None:
    assert clip("short", 5) == "short"
    assert clip("", 5) == ""
    assert clip("abcdef", 5) == "abcd…"
    assert len(clip("x" * 5000)) == FIELD_VALUE
    assert clip("one two three", 9) == "one two…"  # never "one two …": the space before the cut goes
    assert quoted("y" * 100, 10) == repr("y" * 9 + "…")


def test_listing_counts_what_it_leaves_out() -> None:
    lines = [f"line {n}" for n in range(500)]
    text = listing(lines, 100)
    assert len(text) <= 100
    shown = text.splitlines()
    assert shown[-1] == f"… and {500 - len(shown) + 1} more"
    assert listing(["a", "", "b"]) == "a\nb"
    assert listing([]) == ""


def test_add_field_names_nothing_and_folds_past_the_25th() -> None:
    card = Card(title="t")
    add_field(card, "  ", "")
    assert (card.fields[0].name, card.fields[0].value) == (NOTHING, NOTHING)
    add_field(card, "Lines", (f"row {n}" for n in range(3)))
    assert card.fields[1].value == "row 0\nrow 1\nrow 2"
    for n in range(30):
        add_field(card, f"f{n}", "v")
    assert len(card.fields) == FIELDS
    assert card.fields[-1].value.endswith("**f29**: v")


def test_fit_leaves_a_card_that_fits_alone() -> None:
    card = Card(title="Title", description="What happened.", footer="Next: you").add("A", "1").add("B", "2", True)
    assert fit(card.model_copy(deep=True)) == card


def test_fit_brings_every_part_within_discords_limits() -> None:
    card = Card(title="T" * 300, description="d" * 5000, footer="f" * 3000)
    for n in range(40):
        card.add(f"field {n} " + "n" * 300, "v" * 2000)
    card.add("", "   ")
    fitted = fit(card)
    assert within_limits(fitted) == []
    assert fitted.title.endswith("…") and fitted.description.endswith("…")
    assert "**field 25" in fitted.fields[-1].value or len(fitted.fields) < FIELDS  # folded, not silently dropped


def test_fit_shortens_the_longest_text_first() -> None:
    card = Card(title="t", description="d" * 3000).add("long", "x" * 1000).add("short", "y" * 150)
    for n in range(4):
        card.add(f"more {n}", "z" * 1000)
    fitted = fit(card)
    assert within_limits(fitted) == []
    assert fitted.fields[1].value == "y" * 150  # the short field is untouched
    assert len(fitted.description) < 3000


def test_a_blank_field_gets_what_the_renderer_would_give_it() -> None:
    fitted = fit(Card(title="t").add("", ""))
    assert (fitted.fields[0].name, fitted.fields[0].value) == (BLANK, BLANK)


texts = st.text(alphabet=st.sampled_from("ab \n…—"), max_size=3000)


@settings(max_examples=60, deadline=None)
@given(
    title=texts,
    description=st.text(alphabet="ab \n", max_size=6000),
    footer=texts,
    fields=st.lists(st.tuples(texts, texts, st.booleans()), max_size=40),
)
def test_fit_always_fits(title: str, description: str, footer: str, fields: list[tuple[str, str, bool]]) -> None:
    card = Card(title=title, description=description, footer=footer)
    for name, value, inline in fields:
        card.add(name, value, inline)
    assert within_limits(fit(card)) == []
