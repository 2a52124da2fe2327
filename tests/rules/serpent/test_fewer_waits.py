"""Issue 13, "Fewer, better waits": a window waits only on Magi who could cast a Response now, and says so
when it waits on nobody."""

from __future__ import annotations

from typing import Any

from rules.serpent import RULESET
from tests.rules.serpent.helpers import Game


def spell(role: str, sphere: str = "Forces", **values: Any) -> dict[str, Any]:
    return {"role": role, "sphere": sphere, "fluency": 1, "resonance": 0, **values}


SPELLS: dict[str, dict[str, Any]] = {
    "Ember": spell("Attack", dmg="1"),
    "Hidden Ember": spell("Attack", dmg="1", aspects="Veiled"),
    # a Dispel of manifesting spells that asks a price beyond its orb
    "Costly Negation": spell(
        "Abjuration", aspects="Response, Target manifesting", dispel="manifesting to discard", requirements="Pay 2 Will"
    ),
    "Bound Negation": spell(
        "Abjuration",
        aspects="Response, Target manifesting",
        dispel="manifesting to discard",
        requirements="Discard 1 Karma charge",
    ),
    "Focused Negation": spell(
        "Abjuration", aspects="Response, Target manifesting", dispel="manifesting to discard", duration="F"
    ),
}


def game(white: str, black: str, prepared: str = "Ember") -> Game:
    g = Game()
    for name, values in SPELLS.items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells=prepared)
    g.do("black", "prepare", spells="")
    return g


def test_a_spell_nobody_can_answer_activates_at_once_and_the_card_says_so() -> None:
    g = game("Ember", "Ember")
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert g.battle.stack == [] and g.being("Black").essence == 11
    assert "No one holds a Response they could cast on Ember (#" in out.card.description
    assert "it activates at once" in out.card.description
    (event,) = [e for e in out.data["events"] if e["type"] == "no_response"]
    assert event["effect"] == "Ember"
    assert [w.kind for w in RULESET.waits(g.table("gm"))] == ["turn"]


def test_a_veiled_spell_says_why_no_one_may_answer() -> None:
    g = game("Hidden Ember", "Costly Negation", prepared="Hidden Ember")
    out = g.do("white", "cast", spell="Hidden Ember", target="Black")
    assert "is Veiled: no one may respond, so it activates at once" in out.card.description


def test_a_response_with_a_price_the_magi_cannot_pay_does_not_hold_the_window() -> None:
    """Costly Negation asks 2 Will: with 1 Will Black is not waited on; with 2 he is."""
    g = game("Ember x2", "Costly Negation", prepared="Ember, Ember")
    g.do("gm", "battle adjust", being="Black", will=-2)  # 3 → 1
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert g.battle.stack == [] and "it activates at once" in out.card.description
    g.do("black", "end-turn")
    g.do("gm", "battle adjust", being="Black", will=1)  # 1 → 2: now he could pay
    g.do("white", "cast", spell="Ember", target="Black")
    assert [e.title for e in g.battle.stack] == ["Ember"]
    assert [w.who for w in RULESET.waits(g.table("gm"))] == ["Black"]


def test_a_response_whose_requirement_is_unmet_does_not_hold_the_window() -> None:
    """Bound Negation discards a Karma charge Black does not have: the window does not wait for him."""
    g = game("Ember", "Bound Negation")
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert g.battle.stack == [] and "it activates at once" in out.card.description


def test_a_duration_f_response_needs_a_focus() -> None:
    g = game("Ember x2", "Focused Negation", prepared="Ember, Ember")
    g.being("Black").focus_total = 0
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert g.battle.stack == [] and "it activates at once" in out.card.description
    g.do("black", "end-turn")
    g.being("Black").focus_total = 1
    g.do("white", "cast", spell="Ember", target="Black")
    assert [w.who for w in RULESET.waits(g.table("gm"))] == ["Black"]
