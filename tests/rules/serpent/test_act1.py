"""Walkthrough Act I replayed through the actions, with the Resonance rolls the text assumes (7, 4, 10, 5, 10).

Every end-of-round summary the text states is asserted. Values the book does
not print (Judgement's cost, two Durations, Infernal Shot's sphere) are set by
the GM first, as RULING 12 asks; the walkthrough never depends on them.
"""

from __future__ import annotations

import pytest

from tests.rules.serpent.helpers import Game

WHITE_CODEX = (
    "Pillar of Earth, Acidic Matter x2, Air Essence, Materia Binding of Mal-kuth, Karmic Debt, Purification, Judgement"
)
BLACK_CODEX = "Fireball x2, Dissolve Tissue x2, Cellular Degeneration, Cellular Augmentation, Beast Form, Infernal Shot"


def essence_and_resonance(g: Game, name: str) -> tuple[int, int]:
    being = g.being(name)
    return being.essence, being.resonance


def act_one_setup() -> Game:
    g = Game(basic_play=True)
    g.do("white", "magi create", name="White", codex=WHITE_CODEX)
    g.do("black", "magi create", name="Black", codex=BLACK_CODEX)
    # GM-supplied values the text leaves out (any legal value replays the walkthrough)
    g.do("gm", "spell define", name="Judgement", resonance=-2)
    g.do("gm", "spell define", name="Cellular Augmentation", duration="3")
    g.do("gm", "spell define", name="Beast Form", duration="3")
    g.do("gm", "spell define", name="Infernal Shot", sphere="Forces")
    g.do("gm", "battle start", essence=7)  # "Each player sets their energy tracker to 7 Essence"
    g.do("white", "battle join")
    g.do("black", "battle join")
    return g


def round_one(g: Game) -> None:
    g.do("gm", "battle round", resonance=7, rolloff="Black")  # Black won the roll and chose to go first
    assert essence_and_resonance(g, "White") == (7, 3)
    assert essence_and_resonance(g, "Black") == (7, 3)
    assert [g.battle.beings[k].name for k in g.battle.order] == ["Black", "White"]
    g.do("black", "prepare", spells="Fireball, Dissolve Tissue")
    g.do("white", "prepare", spells="Pillar of Earth, Acidic Matter")
    g.do("black", "meditate")
    g.do("white", "cast", spell="Pillar of Earth")
    g.do("black", "cast", spell="Fireball", target="White")
    g.do("white", "cast", spell="Acidic Matter", target="Black")


def test_act_one_replay() -> None:
    g = act_one_setup()

    round_one(g)
    # End of Round 1: White 5 Essence and 1 Resonance; Black 6 Essence and 0 Resonance.
    assert essence_and_resonance(g, "White") == (5, 1)
    assert essence_and_resonance(g, "Black") == (6, 0)
    assert g.battle.phase == "round_end"
    # the Dissolve Tissue Black prepared but never cast goes back at the round's end
    g.do("gm", "battle round", resonance=4)
    assert not g.battle.cards_in("prepared", "black")

    # Round 2: each gains 2; White has 3 and initiative; Acidic Matter hits Black in maintenance.
    assert [g.battle.beings[k].name for k in g.battle.order] == ["White", "Black"]
    assert essence_and_resonance(g, "Black") == (5, 2)
    g.do("white", "prepare", spells="Air Essence, Materia Binding")
    g.do("black", "prepare", spells="Dissolve Tissue x2")
    g.do("white", "cast", spell="Air Essence")
    g.do("black", "cast", spell="Dissolve Tissue", target="White")
    g.do("white", "cast", spell="Materia Binding")
    g.do("black", "cast", spell="Dissolve Tissue", target="White")
    # White 4 Essence, 2 Resonance; Materia Binding with 2 Durability; Black 5 Essence, 0 Resonance;
    # Acidic Matter still in Black's Attack zone.
    assert essence_and_resonance(g, "White") == (4, 2)
    assert essence_and_resonance(g, "Black") == (5, 0)
    (shield,) = g.in_play("Materia Binding of Mal-kuth")
    assert (shield.zone, shield.bearer, shield.durability) == ("defense", "white", 2)
    (acid,) = g.in_play("Acidic Matter")
    assert (acid.zone, acid.bearer, acid.duration) == ("attack", "black", 1)

    # Round 3: a 10 (Overload, no Harmony lost in basic play); Acidic Matter's last impact.
    g.do("gm", "battle round", resonance=10)
    assert essence_and_resonance(g, "White")[1] == 7
    assert essence_and_resonance(g, "Black") == (4, 5)  # "We are now tied at 4 Essence each."
    assert not g.in_play("Acidic Matter")
    assert g.being("White").harmony == 0
    g.do("black", "reattune", spells="Dissolve Tissue")  # Bonded: 1 Resonance
    g.do("white", "reattune", spells="Air Essence, Pillar of Earth")  # two Bonded spells: 2 Resonance
    assert essence_and_resonance(g, "White")[1] == 5
    assert essence_and_resonance(g, "Black")[1] == 4
    g.do("white", "prepare", spells="Karmic Debt, Pillar of Earth")
    g.do("black", "prepare", spells="Cellular Degeneration, Dissolve Tissue")
    g.do("white", "cast", spell="Karmic Debt", target="Black")
    g.do("black", "cast", spell="Cellular Degeneration", target="White")
    g.do("white", "cast", spell="Pillar of Earth")
    out = g.do("black", "cast", spell="Dissolve Tissue", target="White")
    assert "Subtle: slips past Materia Binding of Mal-kuth" in out.card.description
    # White 3 Essence and 3 Resonance; Black 4 Essence and 0 Resonance.
    assert essence_and_resonance(g, "White") == (3, 3)
    assert essence_and_resonance(g, "Black") == (4, 0)
    (debt,) = g.in_play("Karmic Debt")
    assert (debt.zone, debt.bearer, debt.persistent, debt.charges) == ("curse", "black", True, {"Karma": 2})
    (degeneration,) = g.in_play("Cellular Degeneration")
    assert (degeneration.zone, degeneration.bearer, degeneration.duration) == ("curse", "white", 3)
    assert shield.durability == 2  # Subtle costs the Shield nothing

    # Round 4: a 5; Cellular Degeneration loses a counter in the Curse zone.
    g.do("gm", "battle round", resonance=5)
    assert essence_and_resonance(g, "White")[1] == 5
    assert essence_and_resonance(g, "Black")[1] == 2
    assert g.in_play("Cellular Degeneration")[0].duration == 2
    g.do("white", "prepare", spells="Purification, Air Essence")
    g.do("black", "prepare", spells="Cellular Augmentation, Beast Form")
    g.do("white", "cast", spell="Air Essence")
    g.do("black", "cast", spell="Cellular Augmentation")
    g.do("white", "cast", spell="Purification", target="Cellular Degeneration")
    assert not g.in_play("Cellular Degeneration")
    out = g.do("black", "meditate")
    assert "White has no Full Actions and no Free Action left, and passes." in out.card.description
    g.do("black", "cast", spell="Beast Form")  # a Free Action after both Full Actions
    out = g.do("black", "use", ability="Beast Form attack")
    assert "Materia Binding of Mal-kuth blocks it" in out.card.description
    assert g.in_play("Karmic Debt")[0].charges == {"Karma": 2}  # an ability is not an offensive spell
    # White 3 Essence and 3 Resonance; Black 4 Essence and 0 Resonance.
    assert essence_and_resonance(g, "White") == (3, 3)
    assert essence_and_resonance(g, "Black") == (4, 0)
    assert g.in_play("Materia Binding of Mal-kuth")[0].durability == 1
    assert g.battle.phase == "round_end"

    # Round 5: another 10; Cellular Augmentation and Beast Form each lose a counter.
    g.do("gm", "battle round", resonance=10)
    assert g.in_play("Cellular Augmentation")[0].duration == 2
    assert g.in_play("Beast Form")[0].duration == 2
    g.do("white", "prepare", spells="Acidic Matter, Judgement")
    g.do("black", "prepare", spells="Infernal Shot, Fireball")
    g.do("white", "cast", spell="Acidic Matter", target="Black")
    assert g.being("Black").essence == 3  # "I lose 1 Essence, tying me with you."
    g.do("black", "cast", spell="Infernal Shot", target="White")
    assert not g.in_play("Materia Binding of Mal-kuth")  # its last Durability is gone
    assert g.being("Black").essence == 2
    assert g.in_play("Karmic Debt")[0].charges == {"Karma": 3}
    out = g.do("white", "cast", spell="Judgement", target="Black")
    assert "Judgement deals 3 Essence Dmg to Black" in out.card.description

    # The final state: Black is incapacitated by Judgement; Karmic Debt stays without charges.
    black = g.being("Black")
    assert black.incapacitated and black.essence == 0
    assert g.in_play("Karmic Debt")[0].charges == {}
    assert out.data["battle"]["beings"]["Black"]["incapacitated"] is True

    # The victory check comes after the next maintenance phase.
    g.do("gm", "battle round", resonance=3)
    assert g.battle.phase == "over"
    assert g.battle.winner == "White"


@pytest.mark.parametrize("resonance", [7, 0])
def test_round_one_reads_a_zero_as_ten(resonance: int) -> None:
    g = act_one_setup()
    g.do("gm", "battle round", resonance=resonance, rolloff="Black")
    expected = 3 if resonance == 7 else 5
    assert g.being("White").resonance == expected
