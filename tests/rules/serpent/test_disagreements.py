"""Issue 14's seven disagreements with the seed, each pinned by the line of the glossary or walkthrough it enforces."""

from __future__ import annotations

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
