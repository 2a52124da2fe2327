"""The inline-roll reader of ``/say`` (bot/table/inline.py): pure, fuzzed, and rolling exactly as the commands do."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.table import rolls
from bot.table.expressions import roll_text
from bot.table.inline import MAX_INLINE, Marker, parse, render, roll_all, roll_marker
from rules.base import InlineAction, RuleError
from rules.runic import RunicRuleset

RUNIC = RunicRuleset.inline_actions
PIECES = st.sampled_from(
    ["[[", "]]", "[", "]", "#", " ", "secret ", "check ", "pool ", "roll ", "3d6", "+2", "12", "-"]
)
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_any_text_is_read_or_refused_in_plain_words(text: str) -> None:
    """Whatever a player types: pieces that put back together give the text, or a RuleError; never a crash."""
    try:
        pieces = parse(text)
    except RuleError as error:
        assert str(error) and "Traceback" not in str(error)
        return
    rebuilt = "".join(p if isinstance(p, str) else text[p.start : p.end] for p in pieces)
    assert rebuilt == text  # every character is a word or inside exactly one roll, in order
    for marker in (p for p in pieces if isinstance(p, Marker)):
        assert text[marker.start : marker.start + 2] == "[[" and text[marker.end - 2 : marker.end] == "]]"
        assert marker.body and "[[" not in marker.body
    assert sum(isinstance(p, Marker) for p in pieces) <= MAX_INLINE


@settings(max_examples=300, deadline=None)
@given(TEXT, st.integers(0, 2**32))
def test_any_text_rolls_or_is_refused_and_the_words_outside_the_rolls_stay(text: str, seed: int) -> None:
    try:
        pieces, rolled = roll_all(text, random.Random(seed), RUNIC)
    except RuleError as error:
        assert str(error)
        return
    markers = [p for p in pieces if isinstance(p, Marker)]
    assert len(rolled) == len(markers)
    words = "".join(p for p in pieces if isinstance(p, str))
    shown = render(pieces, {i: r.shown for i, r in enumerate(rolled)})
    for roll in rolled:
        assert roll.shown.startswith("[🎲 ") and roll.shown in shown
    assert words == "".join(p for p in parse(text) if isinstance(p, str))
    assert "[[" not in shown.replace("[🎲", "") or "[[" in words


def test_text_outside_the_rolls_is_kept_exactly() -> None:
    pieces = parse("A [[1d6]] b ]] c [[secret  1D20 ]] end")
    assert [p if isinstance(p, str) else p.written for p in pieces] == [
        "A ",
        "[[1d6]]",
        " b ]] c ",
        "[[secret 1D20]]",
        " end",
    ]
    assert isinstance(pieces[3], Marker) and pieces[3].secret


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[[3d6", "never closed"),
        ("a [[3d6]] b [[1d4", "character 13 is never closed"),
        ("[[ ]]", "Put dice between"),
        ("[[secret]]", "Put dice between"),
        ("[[" + "1" * 201 + "]]", "limit is 200"),
        ("[[1d6 [[1d6]]", "cannot hold another"),
        ("".join(["[[1d6]]"] * (MAX_INLINE + 1)), f"at most {MAX_INLINE}"),
    ],
)
def test_what_cannot_be_read_is_refused(text: str, says: str) -> None:
    with pytest.raises(RuleError, match=says.replace("[", r"\[")):
        parse(text)


def test_an_inline_roll_rolls_exactly_as_its_command() -> None:
    """The same seed gives the same dice as /roll, /check and /pool: the same code rolls them."""
    for body, command, direct in (
        ("3d6+2", "roll", lambda rng: roll_text("3d6+2", rng)),
        ("1d20+5 # to hit", "roll", lambda rng: roll_text("1d20+5 # to hit", rng)),
        ("check 12 -2 # Stealth", "check", lambda rng: rolls.check(rng, 12, -2, "Stealth")),
    ):
        marker = Marker(body, False, 0, 0)
        inline = roll_marker(marker, random.Random(5), RUNIC)
        assert inline.command == command
        assert inline.outcome.data == direct(random.Random(5)).data
    pool = InlineAction("pool", "pool", ("dice",), "[[pool 6]]")
    inline = roll_marker(Marker("pool 6", False, 0, 0), random.Random(9), (pool,))
    assert inline.outcome.data == rolls.pool(random.Random(9), 6).data
    assert inline.line == "/pool dice:6"


def test_a_check_shows_every_die_and_its_margin() -> None:
    rolled = roll_marker(Marker("check 12", False, 0, 0), random.Random(1), RUNIC)
    dice = rolled.outcome.data["dice"]
    assert rolled.shown.startswith(f"[🎲 3d6 [{', '.join(map(str, dice))}] = ")
    assert "vs 12:" in rolled.shown and rolled.line == "/check skill:12"


def test_a_secret_roll_shows_nothing_of_its_result() -> None:
    rolled = roll_marker(Marker("1d20 # ambush", True, 0, 0), random.Random(2), RUNIC)
    assert rolled.shown == "[🎲 secret roll, sent to the GM]"
    assert rolled.outcome.data["total"] in range(1, 21)  # the result is kept, for the GM's side of the log


def test_a_bad_roll_refuses_the_post_before_any_die_is_rolled() -> None:
    rng = random.Random(3)
    state = rng.getstate()
    with pytest.raises(RuleError, match="too large"):
        roll_all("[[3d6]] then [[1d1000000]]", rng, RUNIC)
    assert rng.getstate() == state


def test_inline_words_are_checked_when_a_ruleset_declares_them() -> None:
    with pytest.raises(ValueError):
        InlineAction("check", "cast", ("spell",), "[[check x]]")
    with pytest.raises(ValueError):
        InlineAction("secret", "check", ("skill",), "[[secret 12]]")
    assert [a.word for a in RUNIC] == ["check"]
