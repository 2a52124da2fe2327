"""Response windows, chains, interrupt stones and the refunds a Dispel of a manifesting spell gives."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game, duel


def setup(white: str, black: str, *, resonance: int = 10) -> Game:
    return duel(
        white, black, resonance=resonance, spells={"Karmic Binding of Protection": {"resonance": -1, "durability": 2}}
    )


def test_a_window_waits_for_an_eligible_magi_and_closes_when_they_pass() -> None:
    g = setup("Fireball", "Universum Negation")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    out = g.do("white", "cast", spell="Fireball", target="Black")
    assert out.data["battle"]["window"]["effect"] == "Fireball"
    assert "Black may /serpent respond" in out.card.fields[0].value
    assert g.being("Black").essence == 12  # manifesting, not yet activated
    with pytest.raises(RuleError, match="response window is open"):
        g.do("black", "meditate")
    with pytest.raises(RuleError, match="not waiting for them"):
        g.do("white", "respond")
    out = g.do("black", "pass")  # passes the window, not the round
    assert g.being("Black").essence == 10 and not g.being("Black").passed
    assert "**Black**'s turn" in out.card.fields[0].value


def test_the_gm_closes_a_window_in_play_by_post() -> None:
    g = setup("Fireball", "Universum Negation")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    out = g.do("white", "cast", spell="Fireball", target="Black")
    assert "until the campaign's response_window deadline" in out.card.fields[0].value
    g.do("gm", "battle close-window")
    assert g.being("Black").essence == 10


def test_universum_negation_refunds_what_the_dispelled_spell_cost() -> None:
    g = setup("Universum Negation, Fireball", "Acidic Matter, Air Essence")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="Air Essence, Acidic Matter")
    g.do("white", "end-turn")
    g.do("black", "cast", spell="Air Essence")
    g.do("white", "pass")  # White's window on Air Essence: Universum Negation could dispel it
    before = g.being("Black").resonance
    out = g.do("black", "cast", spell="Acidic Matter", target="White")
    assert g.being("Black").resonance == before - 3
    assert not g.in_play("Air Essence")  # discarded as the requirement
    out = g.do("white", "respond", spell="Universum Negation", target="Acidic Matter")
    text = out.card.description
    assert "Refund to Black: 3 Resonance, Air Essence returns to play" in text
    assert g.being("Black").resonance == before
    assert g.in_play("Air Essence")  # brought back to active
    assert not g.in_play("Acidic Matter") and g.being("White").essence == 12
    assert g.being("White").stones == 1  # Universum Negation is not a Free Action
    assert g.battle.cards_in("discard", "black")[0].title == "Acidic Matter"


def test_dispel_refunds_the_upgrade_and_the_charge() -> None:
    g = setup("Universum Negation, Dissolve Tissue x3", "Karmic Debt, Karmic Binding of Protection")
    g.do("white", "prepare", spells="Dissolve Tissue x2")
    g.do("black", "prepare", spells="Karmic Debt")
    g.do("white", "end-turn")
    g.do("black", "cast", spell="Karmic Debt", target="White")
    g.do("white", "pass")  # White's window on Karmic Debt
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Dissolve Tissue")
    g.do("black", "prepare", spells="Karmic Binding")
    g.do("white", "cast", spell="Dissolve Tissue", target="Black")
    g.do("white", "pass")  # the caster's priority (glossary "Priority"): she may respond first
    assert g.in_play("Karmic Debt")[0].charges == {"Karma": 1}
    will, res = g.being("Black").will, g.being("Black").resonance
    g.do("black", "cast", spell="Karmic Binding", upgrade="refined", upgrade_with="Will")
    assert g.in_play("Karmic Debt")[0].charges == {}
    out = g.do("white", "respond", spell="Universum Negation", target="Karmic Binding of Protection")
    assert "Refund to Black: 1 Resonance, 1 Will, 1 Karma charge back on Karmic Debt" in out.card.description
    assert (g.being("Black").will, g.being("Black").resonance) == (will, res)
    # the refunded charge, plus one for White's offensive Universum Negation at Black's spell
    assert g.in_play("Karmic Debt")[0].charges == {"Karma": 2}


def test_responses_chain_and_the_first_window_reopens() -> None:
    g = setup("Universum Negation, Fireball", "Universum Negation")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("white", "pass")  # the caster's priority (glossary "Priority"): she may respond first
    out = g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert [e.title for e in g.battle.stack] == ["Fireball", "Universum Negation"]
    assert "White may /serpent respond" in out.card.fields[0].value  # White could exchange Will for it
    with pytest.raises(RuleError, match="needs 3 Resonance"):
        g.do("white", "respond", spell="Universum Negation", target="Universum Negation")
    g.do("white", "exchange", gain="Resonance")
    out = g.do("white", "respond", spell="Universum Negation", target="Universum Negation")
    text = out.card.description
    # White's Negation dispels Black's; back in Fireball's window nobody can answer; Fireball impacts
    assert "Dispels White's manifesting" not in text
    assert "Dispels Black's manifesting Universum Negation. Refund to Black: 3 Resonance" in text
    assert not g.battle.stack
    assert g.being("Black").essence == 10
    assert g.being("Black").stones == 1 and g.being("White").stones == 1


def test_interrupt_stones_must_be_shed_with_a_full_action() -> None:
    g = setup("Fireball, Dissolve Tissue", "Universum Negation, Dissolve Tissue")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="Dissolve Tissue")
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert g.being("Black").stones == 1
    with pytest.raises(RuleError, match="interrupt stone"):
        g.do("black", "cast", spell="Dissolve Tissue", target="White")
    g.do("black", "shed-stone")
    assert (g.being("Black").stones, g.being("Black").full_actions) == (0, 1)
    g.do("white", "end-turn")
    with pytest.raises(RuleError, match="holds no interrupt stone"):
        g.do("black", "shed-stone")


def test_responses_need_no_preparation_but_turn_spells_do() -> None:
    g = setup("Fireball", "Universum Negation, Dissolve Tissue")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("black", "respond", spell="Universum Negation", target="Fireball")
    with pytest.raises(RuleError, match="has not prepared Dissolve Tissue"):
        g.do("black", "cast", spell="Dissolve Tissue", target="White")


def test_a_magi_with_two_stones_cannot_respond() -> None:
    g = setup("Fireball", "Universum Negation")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.being("Black").stones = 2
    g.do("white", "cast", spell="Fireball", target="Black")
    assert not g.battle.stack and g.being("Black").essence == 10  # no window opened for Black


def test_pass_only_passes_a_window_so_a_second_pass_never_ends_the_turn() -> None:
    """Issue 13: passing a window and ending a turn are different commands (``pass`` and ``end-turn``)."""
    g = setup("Fireball", "Universum Negation, Dissolve Tissue")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="Dissolve Tissue")
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("black", "pass")  # the window on Fireball
    assert g.battle.current().name == "Black" and not g.being("Black").passed
    before = g.state.model_dump_json()
    with pytest.raises(RuleError, match=r"No response window is open.*use /serpent end-turn"):
        g.do("black", "pass")  # the double tap: refused, Black's turn is untouched
    assert g.state.model_dump_json() == before
    with pytest.raises(RuleError, match="not White's turn"):
        g.do("white", "end-turn")
    out = g.do("black", "end-turn")
    assert g.being("Black").passed and "Black passes for the rest of the round" in out.card.description
    assert out.data["action"] == "end-turn"


def test_end_turn_is_refused_while_a_window_is_open() -> None:
    g = setup("Fireball", "Universum Negation")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    with pytest.raises(RuleError, match="response window is open on Fireball"):
        g.do("black", "end-turn")
    with pytest.raises(RuleError, match="not waiting for White"):
        g.do("white", "pass")
