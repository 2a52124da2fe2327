"""Impact through Defenses: Subtle and Refined, Pierce, Shatter, Area against Evade, Wards, Unblockable, Curses."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game

# Test spells a GM defines from the aspects of RULING 12; the book's own spells are used where they fit.
TEST_SPELLS: dict[str, dict[str, object]] = {
    "Piercing Bolt": {
        "role": "Attack",
        "sphere": "Bio",
        "fluency": 1,
        "resonance": 0,
        "dmg": "3",
        "aspects": "Pierce 2",
    },
    "Shattering Blow": {
        "role": "Attack",
        "sphere": "Forces",
        "fluency": 1,
        "resonance": 0,
        "dmg": "1",
        "aspects": "Shatter 1",
    },
    "Veil Needle": {"role": "Attack", "sphere": "Soul", "fluency": 1, "resonance": 0, "dmg": "1", "aspects": "Subtle"},
    "Wave": {"role": "Attack", "sphere": "Forces", "fluency": 1, "resonance": 0, "dmg": "1", "aspects": "Area"},
    "True Strike": {
        "role": "Attack",
        "sphere": "Bio",
        "fluency": 1,
        "resonance": 0,
        "dmg": "2",
        "aspects": "Unblockable",
    },
    "Sidestep": {
        "role": "Defense",
        "sphere": "Forces",
        "fluency": 1,
        "resonance": 0,
        "aspects": "Evade, Response, Free Action",
    },
    "Iron Skin": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "aspects": "Ward 1",
        "duration": "P",
    },
    "Stone Skin": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "aspects": "Ward",
        "duration": "P",
    },
    "Bulwark": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "shields": "Bio, Forces, Soul",
        "durability": 3,
    },
    "Piercing Hex": {
        "role": "Attack",
        "sphere": "Bio",
        "fluency": 1,
        "resonance": 0,
        "dmg": "1",
        "aspects": "Pierce 1",
        "curse_duration": "2",
    },
}


def setup(white: str, black: str, *, mode: str = "duel", extra: tuple[tuple[str, str, str], ...] = ()) -> Game:
    g = Game()
    for name, fields in TEST_SPELLS.items():
        g.do("gm", "spell define", name=name, **fields)
    g.do("gm", "spell define", name="Karmic Binding of Protection", resonance=-1, durability=2)
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    for user, name, codex in extra:
        g.do(user, "magi create", name=name, codex=codex)
    g.do("gm", "battle start", mode=mode)
    teams = {"White": "light", "Black": "dark"}
    for user, name in (("white", "White"), ("black", "Black"), *((u, n) for u, n, _ in extra)):
        g.do(user, "battle join", team=teams.get(name, "light") if mode == "teams" else None)
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    return g


def prep(g: Game, white: str, black: str) -> None:
    g.do("white", "prepare", spells=white)
    g.do("black", "prepare", spells=black)


def test_subtle_slips_past_a_shield_unless_it_is_refined() -> None:
    g = setup("Materia Binding of Mal-kuth, Air Essence", "Veil Needle x2, Dissolve Tissue")
    prep(g, "Air Essence, Materia Binding", "Dissolve Tissue")
    g.do("white", "cast", spell="Air Essence")
    g.do("black", "cast", spell="Dissolve Tissue", target="White")
    g.do("white", "cast", spell="Materia Binding")
    assert g.in_play("Materia Binding of Mal-kuth")[0].durability == 3

    # Karmic Binding bought with the Refined upgrade blocks Subtle; without it, Subtle passes and costs no Durability.
    g2 = setup("Karmic Debt, Karmic Binding of Protection x2", "Veil Needle x3")
    prep(g2, "Karmic Debt, Karmic Binding", "Veil Needle x2")
    g2.do("white", "cast", spell="Karmic Debt", target="Black")
    out = g2.do("black", "cast", spell="Veil Needle", target="White")  # a Karma charge for White
    assert g2.being("White").essence == 11
    g2.do("white", "cast", spell="Karmic Binding", upgrade="refined", upgrade_with="Will")
    (binding,) = g2.in_play("Karmic Binding of Protection")
    assert binding.boost.refined and g2.being("White").will == 2
    out = g2.do("black", "cast", spell="Veil Needle", target="White")
    assert "Karmic Binding of Protection blocks it" in out.card.description
    assert g2.being("White").essence == 11
    assert g2.in_play("Karmic Binding of Protection")[0].durability == 1


def test_subtle_passes_an_unrefined_shield_without_wearing_it() -> None:
    g = setup("Bulwark", "Veil Needle x2")
    prep(g, "Bulwark", "Veil Needle")
    g.do("white", "cast", spell="Bulwark")
    out = g.do("black", "cast", spell="Veil Needle", target="White")
    assert "Subtle: slips past Bulwark (not Refined)" in out.card.description
    assert g.being("White").essence == 11 and g.in_play("Bulwark")[0].durability == 3


def test_pierce_lets_some_dmg_through_and_costs_each_shield_one_durability() -> None:
    g = setup("Bulwark x2", "Piercing Bolt x2")
    prep(g, "Bulwark x2", "Piercing Bolt x2")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "exchange", gain="Resonance")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Bulwark")
    assert g.battle.phase == "round_end"
    g.do("gm", "battle round", resonance=2, rolloff="Black")
    prep(g, "", "Piercing Bolt")
    out = g.do("black", "cast", spell="Piercing Bolt", target="White")
    outer, inner = g.in_play("Bulwark")
    assert (outer.durability, inner.durability) == (2, 2)  # Pierce costs every Shield it passes 1
    assert g.being("White").essence == 12 - 2  # Dmg 3, Pierce 2: 2 gets through
    assert "Pierce 2 lets 2 Dmg through" in out.card.description


def test_pierce_never_adds_dmg() -> None:
    g = setup("Bulwark", "True Strike")
    g.do(
        "gm",
        "spell define",
        name="Needle",
        role="Attack",
        sphere="Bio",
        fluency=1,
        resonance=0,
        dmg="1",
        aspects="Pierce 3",
    )
    g.do("gm", "magi edit", name="Black", codex="Needle")
    g.state.battle = None
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=2, rolloff="White")
    prep(g, "Bulwark", "Needle")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "cast", spell="Needle", target="White")
    assert g.being("White").essence == 11


def test_shatter_takes_extra_durability_from_the_blocking_shield_only() -> None:
    g = setup("Bulwark x2", "Shattering Blow")
    prep(g, "Bulwark x2", "Shattering Blow")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Bulwark")
    g.do("gm", "battle round", resonance=2, rolloff="Black")
    prep(g, "", "Shattering Blow")
    out = g.do("black", "cast", spell="Shattering Blow", target="White")
    outer, inner = g.in_play("Bulwark")
    assert (outer.durability, inner.durability) == (1, 3)
    assert g.being("White").essence == 12
    assert "Bulwark blocks it (Shatter 1)" in out.card.description


def test_area_hits_the_whole_team_and_cannot_be_evaded() -> None:
    g = setup("Sidestep", "Wave, Dissolve Tissue", mode="teams", extra=(("grey", "Grey", "Sidestep"),))
    prep(g, "", "Wave, Dissolve Tissue")
    g.do("grey", "prepare", spells="")
    g.do("white", "end-turn")
    out = g.do("black", "cast", spell="Wave")
    # no response window: Sidestep cannot dodge an Area effect
    assert not g.battle.stack
    assert g.being("White").essence == 11 and g.being("Grey").essence == 11
    assert out.data["battle"]["window"] is None
    with pytest.raises(RuleError):
        g.do("grey", "respond", spell="Sidestep")
    # a targeted attack can be evaded
    g.do("grey", "end-turn")
    g.do("black", "cast", spell="Dissolve Tissue", target="Grey")
    assert g.battle.stack and g.battle.stack[-1].title == "Dissolve Tissue"
    out = g.do("grey", "respond", spell="Sidestep", target="Dissolve Tissue")
    assert "Grey evades it" in out.card.description
    assert g.being("Grey").essence == 11 and g.being("Grey").stones == 0  # a Free Action Response: no stone


def test_wards_for_one_energy_do_not_stack() -> None:
    g = setup("Iron Skin, Stone Skin", "Fireball")
    prep(g, "Iron Skin, Stone Skin", "Fireball")
    g.do("white", "cast", spell="Iron Skin")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Stone Skin")
    g.do("gm", "battle round", resonance=2, rolloff="Black")
    prep(g, "", "Fireball")
    out = g.do("black", "cast", spell="Fireball", target="White")
    assert g.being("White").essence == 12 - 1  # Dmg 2, one Ward of 1; the second does not add
    assert "wards 1 Essence Dmg (Wards do not stack)" in out.card.description


def test_unblockable_ignores_shields() -> None:
    g = setup("Bulwark", "True Strike")
    prep(g, "Bulwark", "True Strike")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "cast", spell="True Strike", target="White")
    assert g.being("White").essence == 10 and g.in_play("Bulwark")[0].durability == 3


def test_a_curse_moves_behind_defenses_only_when_it_impacts() -> None:
    g = setup("Bulwark, Fireball", "Karmic Debt x2, Cellular Degeneration")
    prep(g, "Bulwark, Fireball", "Karmic Debt x2")
    g.do("white", "cast", spell="Bulwark")
    out = g.do("black", "cast", spell="Karmic Debt", target="White")  # a Soul Curse against a Soul Shield
    assert not g.in_play("Karmic Debt") and "a Curse that does not impact is discarded" in out.card.description
    assert g.in_play("Bulwark")[0].durability == 2
    g.do("white", "cast", spell="Fireball", target="Black")
    g.do("black", "exchange", gain="Resonance")
    g.do("black", "cast", spell="Karmic Debt", target="White")
    assert not g.in_play("Karmic Debt")
    assert g.in_play("Bulwark")[0].durability == 1


def test_a_subtle_curse_sticks_behind_a_shield_and_defenses_no_longer_apply() -> None:
    g = setup("Bulwark", "Cellular Degeneration, Dissolve Tissue")
    prep(g, "Bulwark", "Cellular Degeneration, Dissolve Tissue")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "cast", spell="Cellular Degeneration", target="White")
    (curse,) = g.in_play("Cellular Degeneration")
    assert (curse.zone, curse.bearer, curse.duration) == ("curse", "white", 3)
    g.do("white", "end-turn")
    g.do("black", "cast", spell="Dissolve Tissue", target="White")  # upgraded to Subtle by the Curse
    assert g.being("White").essence == 11 and g.in_play("Bulwark")[0].durability == 3


def test_a_piercing_curse_gets_dmg_through_but_is_blocked() -> None:
    g = setup("Bulwark", "Piercing Hex")
    prep(g, "Bulwark", "Piercing Hex")
    g.do("white", "cast", spell="Bulwark")
    g.do("black", "cast", spell="Piercing Hex", target="White")
    assert g.being("White").essence == 11
    assert not g.in_play("Piercing Hex")  # blocked, so discarded: Pierce lets only Dmg through


def test_an_unknown_sphere_against_a_shield_asks_the_gm() -> None:
    g = setup("Bulwark", "Judgement, Infernal Shot")
    prep(g, "Bulwark", "Infernal Shot")
    g.do("white", "cast", spell="Bulwark")
    before = g.state.model_dump()
    with pytest.raises(RuleError, match="does not give Infernal Shot's sphere"):
        g.do("black", "cast", spell="Infernal Shot", target="White")
    assert g.state.model_dump() == before
    g.do("gm", "spell define", name="Infernal Shot", sphere="Forces")
    g.do("black", "cast", spell="Infernal Shot", target="White")
    assert g.in_play("Bulwark")[0].durability == 2


def test_immunity_to_a_descriptor_stops_the_whole_effect_but_the_shield_still_wears() -> None:
    g = setup("Flame Form, Bulwark", "Fireball")
    g.do("gm", "spell define", name="Flame Form", resonance=-3)
    prep(g, "Flame Form", "Fireball")
    g.do("white", "cast", spell="Flame Form")
    out = g.do("black", "cast", spell="Fireball", target="White")
    assert g.being("White").essence == 12
    assert "immune to Heat effects" in out.card.description
