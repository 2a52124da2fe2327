"""Gaps the console and Discord layers showed: what autocomplete offers must work when chosen, a named
Component must be the one paid, the round's end, and events that agree with the card's words."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.serpent import RULESET
from tests.rules.serpent.helpers import duel


def test_numbered_choices_from_autocomplete_are_accepted() -> None:
    g = duel("Pillar of Earth, Air Essence, Acidic Matter, Fireball", "Universum Negation, Fireball")
    g.do("white", "prepare", spells="Pillar of Earth, Acidic Matter")
    g.do("black", "prepare", spells="Fireball")
    g.do("white", "cast", spell="Pillar of Earth")
    g.do("black", "pass")  # Black could have negated the Pillar: this passes the window
    g.do("black", "end-turn")  # ...and this the round
    (pillar,) = [c for c in g.battle.in_play() if c.title == "Pillar of Earth"]
    # cast component: offers "#id Title" for the caster's Components
    offered = RULESET.suggest(g.table("white"), "cast", "component", "")
    assert offered == [f"#{pillar.id} Pillar of Earth"]
    g.do("white", "cast", spell="Acidic Matter", target="Black", component=offered[0])
    # respond target: the manifesting spell first, "#id Title"
    offered = RULESET.suggest(g.table("black"), "respond", "target", "")
    assert offered[0].endswith(" Acidic Matter") and offered[0].startswith("#")
    out = g.do("black", "respond", spell="Universum Negation", target=offered[0])
    assert "Universum Negation Dispels White's manifesting Acidic Matter" in out.card.description


def test_dismiss_and_sustain_take_the_numbered_choice() -> None:
    g = duel("Pillar of Earth, Fireball", "Fireball")
    g.do("white", "prepare", spells="Pillar of Earth")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Pillar of Earth")
    choice = RULESET.suggest(g.table("white"), "sustain", "spell", "")
    assert len(choice) == 1 and choice[0].endswith(" Pillar of Earth")
    g.do("white", "sustain", spell=choice[0], keep=False)
    assert g.in_play("Pillar of Earth")[0].let_go
    g.do("black", "end-turn")
    g.do("white", "dismiss", spell=RULESET.suggest(g.table("white"), "dismiss", "spell", "")[0])
    assert not g.in_play("Pillar of Earth")


def test_a_named_component_that_cannot_pay_is_refused_not_swapped() -> None:
    g = duel("Pillar of Earth, Air Essence, Acidic Matter, Fireball", "Fireball")
    g.do("white", "prepare", spells="Pillar of Earth, Acidic Matter, Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Pillar of Earth")
    g.do("black", "end-turn")
    with pytest.raises(RuleError, match=r"'Air Essence' is not a Component White could discard.*Pillar of Earth \(#"):
        g.do("white", "cast", spell="Acidic Matter", target="Black", component="Air Essence")
    with pytest.raises(RuleError, match="Fireball discards no Component"):
        g.do("white", "cast", spell="Fireball", target="Black", component="Pillar of Earth")
    g.do("white", "cast", spell="Acidic Matter", target="Black", component="pillar of earth")
    assert not g.in_play("Pillar of Earth")


def test_prepared_spells_never_cast_go_back_when_the_round_ends() -> None:
    g = duel("Fireball, Dissolve Tissue", "Fireball, Dissolve Tissue", resonance=1)
    g.do("white", "prepare", spells="Fireball, Dissolve Tissue")
    g.do("black", "prepare", spells="Dissolve Tissue")
    g.do("white", "end-turn")
    out = g.do("black", "end-turn")
    assert g.battle.phase == "round_end"
    assert g.battle.cards_in("prepared") == []
    assert "White's 2 prepared spell(s) never cast return to the Codex." in out.card.description
    assert "Fireball" not in out.card.description  # which ones stays secret
    assert [e["count"] for e in out.data["events"] if e["type"] == "unprepare"] == [2, 1]


def test_dmg_events_give_the_dmg_dealt_and_the_energy_lost() -> None:
    g = duel("Fireball x2", "Fireball", resonance=10)
    g.do("gm", "battle adjust", being="Black", essence=-11)  # 1 Essence left
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    out = g.do("white", "cast", spell="Fireball", target="Black")
    (dmg,) = [e for e in out.data["events"] if e["type"] == "dmg"]
    assert (dmg["amount"], dmg["lost"]) == (2, 1)
    assert "Fireball deals 2 Essence Dmg to Black" in dmg["text"]
