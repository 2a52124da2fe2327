"""Plain English in awakened's text: a number agrees with its noun, a name takes the right article."""

from __future__ import annotations

import pytest

from rules.awakened.words import article, quantity
from rules.base import RuleError
from tests.rules.awakened.conftest import Game


@pytest.mark.parametrize(
    ("number", "noun", "text"),
    [
        (1, "success", "1 success"),
        (0, "success", "0 successes"),
        (1, "die", "1 die"),
        (3, "die", "3 dice"),
        (1, "hour", "1 hour"),
        (2, "target", "2 targets"),
        (1, "Word", "1 Word"),
    ],
)
def test_a_number_agrees_with_its_noun(number: int, noun: str, text: str) -> None:
    assert quantity(number, noun) == text


@pytest.mark.parametrize(
    ("word", "text"),
    [("Aurora", "an Aurora"), ("Anomaly", "an Anomaly"), ("Corona", "a Corona"), ("Intimate", "an Intimate")],
)
def test_a_name_takes_its_article(word: str, text: str) -> None:
    assert article(word) == text


def test_the_cards_count_in_words(game: Game) -> None:
    game.mage()
    assert game.act("sympathy", subject="Mark", level="intimate").card.description == (
        "Ash has an Intimate connection to Mark."
    )
    game.act("spell cast", spell="Rain", arcana="Forces", aspect="covert", action="ritual", ritual_note="a bowl")
    ceremony = game.act("spell ceremony", spell="Rain", hours=1).card.description
    assert ceremony.startswith("1 hour of ceremony: Shaping potential 1 → 2")
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    one = [8, 1, 1, 1, 1, 1] + [1] * 5  # one success among six dice; the five failed rerolled into 1s
    assert game.act("spell shape", spell="Veil", rolls=one).summary == "Ash Shaped #2 Veil: 1 success."
    added = game.gm("gm paradox", mode="add", character="Ash", dice=1).card.description
    assert added == "Paradox pool +1 for Ash: now 1 die."
    ended = game.gm("time round", dice="3")
    assert "Collective paradox roll (1 die): 1 die, 10-again: [3] = **0** successes" in ended.card.fields[1].value
    assert "(s)" not in game.act("mage show").card.model_dump_json()


def test_a_refused_reduction_lists_the_damage_factors_in_words(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Burn", arcana="Forces", aspect="covert", damage="aggravated", words_of_power=1)
    with pytest.raises(RuleError) as refused:
        game.act("spell reduce", spell="Burn", drop_damage="resistant")
    assert str(refused.value) == "#1 Burn has no damage factor resistant; it has aggravated."
