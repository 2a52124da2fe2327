"""Issue 14's seven disagreements with the seed, each pinned by the line of the glossary or walkthrough it enforces."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game


def leech_duel(black_codex: str, *, black_spells: dict[str, dict[str, object]] | None = None) -> Game:
    g = Game()
    g.do("gm", "spell define", name="Leech", role="Attack", sphere="Mind", fluency=1, resonance=0, siphon="Harmony 2")
    for name, values in (black_spells or {}).items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex="Leech")
    g.do("black", "magi create", name="Black", codex=black_codex)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=9, rolloff="Black")
    return g


CALM_MIND = {
    "role": "Defense",
    "sphere": "Mind",
    "fluency": 1,
    "resonance": 0,
    "aspects": "Ward 1 Harmony",
    "duration": "P",
}


def test_siphon_into_a_ward_gives_only_what_the_ward_let_through() -> None:
    """Glossary "Siphon": "If the target Warded 1 Harmony Dmg then the caster would only gain 1 Harmony." """
    g = leech_duel("Calm Mind", black_spells={"Calm Mind": CALM_MIND})
    g.do("black", "prepare", spells="Calm Mind")
    g.do("white", "prepare", spells="Leech")
    g.do("black", "cast", spell="Calm Mind")
    out = g.do("white", "cast", spell="Leech", target="Black")
    assert (g.being("Black").harmony, g.being("White").harmony) == (-1, 1)
    assert "siphons 1 Harmony from Black (Calm Mind wards 1 Harmony Dmg); White gains 1" in g.text(out)


def priority_duel() -> Game:
    """White holds a Response (Universum Negation); Black holds none."""
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="codex")
    g.do("white", "magi create", name="White", codex="Fireball, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    return g


def test_the_caster_has_priority_for_the_first_response() -> None:
    """Glossary "Priority": "When a Magi casts a spell, she always has priority for casting the first Response"."""
    g = priority_duel()
    out = g.do("white", "cast", spell="Fireball", target="Black")
    # Black could not respond, but White could: the window waits for her instead of activating at once
    assert [e.title for e in g.battle.stack] == ["Fireball"]
    assert g.being("Black").essence == 12
    assert out.data["battle"]["window"]["effect"] == "Fireball"
    assert "White may /serpent respond" in g.text(out)
    out = g.do("white", "pass")
    assert g.battle.stack == [] and g.being("Black").essence == 10


def test_others_wait_while_the_caster_holds_priority() -> None:
    """Glossary "Priority": "When she finishes, opponents and allies race for the option to be the next to reply"."""
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="codex")
    g.do("white", "magi create", name="White", codex="Fireball, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Universum Negation")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="White cast Fireball and has priority"):
        g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert g.state.model_dump() == before
    g.do("white", "pass")
    g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert [e.title for e in g.battle.stack] == ["Fireball", "Universum Negation"]


def test_a_magi_may_respond_to_her_own_spell() -> None:
    """Glossary "Response": "You may respond to spells/effects of your own, of an ally, or of an opponent." """
    g = priority_duel()
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("white", "exchange", gain="Resonance")  # Fireball took her Resonance; Will buys the Negation's 3
    out = g.do("white", "respond", spell="Universum Negation", target="Fireball")
    assert "Dispels White's manifesting Fireball" in g.text(out)
    assert g.being("Black").essence == 12 and g.battle.stack == []
    assert g.being("White").stones == 1


UNBINDING = {"role": "Abjuration", "sphere": "Soul", "fluency": 1, "resonance": 0, "aspects": "Area"}
WARDS = {
    "Calm Mind": CALM_MIND,
    "Iron Skin": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "aspects": "Ward 1",
        "duration": "P",
    },
}


def test_an_area_abjuration_targets_every_spell_of_the_team() -> None:
    """Glossary "Abjuration Spell": "If an Abjuration spell has Area, that means it targets all validly targetable
    spells for all Magi of a given team." """
    g = Game()
    g.do("gm", "spell define", name="Great Unbinding", dispel="active to discard", **UNBINDING)
    for name, values in WARDS.items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex="Great Unbinding, Iron Skin")
    g.do("black", "magi create", name="Black", codex="Calm Mind, Iron Skin")
    g.do("grey", "magi create", name="Grey", codex="Iron Skin")
    g.do("gm", "battle start", mode="teams")
    g.do("white", "battle join", team="Sun")
    g.do("black", "battle join", team="Moon")
    g.do("grey", "battle join", team="Moon")
    g.do("gm", "battle round", resonance=10, rolloff="Black, Grey, White")
    g.do("white", "prepare", spells="Great Unbinding, Iron Skin")
    g.do("black", "prepare", spells="Calm Mind, Iron Skin")
    g.do("grey", "prepare", spells="Iron Skin")
    g.do("black", "cast", spell="Calm Mind")
    g.do("grey", "cast", spell="Iron Skin")
    g.do("white", "cast", spell="Iron Skin")
    g.do("black", "cast", spell="Iron Skin")
    g.do("grey", "pass")
    assert len(g.battle.in_play()) == 4
    out = g.do("white", "cast", spell="Great Unbinding", target="Moon")
    assert "targets 3 spell(s) of team Moon" in g.text(out)
    # every spell of Black and Grey is gone; White's own Iron Skin (team Sun) stays
    assert [(c.title, c.bearer) for c in g.battle.in_play()] == [("Iron Skin", "white")]
    assert g.text(out).count("Dispels") == 3
