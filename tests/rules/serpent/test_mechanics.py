"""Specializations, Focus and Duration F, Shape-Shifts, sustain, Intoning, ritual paths and the Act II opening."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game
from tests.rules.serpent.test_encounter import DEFINITIONS


def duel(
    white: str, black: str, *, resonance: int = 10, white_spec: str | None = None, black_spec: str | None = None
) -> Game:
    g = Game()
    for name, fields in DEFINITIONS.items():
        g.do("gm", "spell define", name=name, **fields)
    g.do("white", "magi create", name="White", codex=white, specialization=white_spec)
    g.do("black", "magi create", name="Black", codex=black, specialization=black_spec)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=resonance, rolloff="White")
    return g


def test_act_two_round_one() -> None:
    """Act II's opening round in easy mode; the text's summary disagrees with its own steps thrice (docs)."""
    g = Game(shadow_spectral_claw_dmg=3, shadow_gain_resonance=2)
    for name, fields in DEFINITIONS.items():
        g.do("gm", "spell define", name=name, **fields)
    g.do(
        "white",
        "magi create",
        name="White",
        codex="Karmic Debt, Universum Negation, Karmic Binding of Protection",
        specialization="Void Speaker",
    )
    g.do(
        "black",
        "magi create",
        name="Black",
        codex="Flame Form, Flame Eternae, Infernal Shot x2",
        specialization="Chant of Forms",
    )
    g.do("gm", "battle start", mode="encounter", easy=True)
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.do("gm", "battle dice", values="token=red token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="Black")  # "Let's assume I win the initiative."
    assert [g.battle.beings[k].name for k in g.battle.order] == ["Sentient Shadow", "Black", "White"]
    assert g.being("Sentient Shadow").resonance == 6 and g.being("White").harmony == -1
    g.do("black", "prepare", spells="Flame Form, Flame Eternae, Infernal Shot")
    out = g.do("white", "prepare", spells="Karmic Debt")
    assert "Red row 1 (Purge the Light): taken" in out.card.description
    assert g.being("Sentient Shadow").resonance == 2  # "Reduce the Shadow's Resonance to 2."
    out = g.do("white", "respond", spell="Universum Negation", target="Purge the Light")
    assert "White pays 2 Resonance" in out.card.description  # Void Speaker: Soul spells generate +1
    assert g.being("White").stones == 1 and g.being("White").harmony == -1
    g.do("black", "spec", tree="A")  # Impermanent Body, 4 Resonance, a Free Action
    assert g.being("Black").resonance == 1 and g.being("Black").spec_tiers == ["A1"]
    g.do("white", "shed-stone")
    assert g.being("White").harmony == -2 == g.being("Black").harmony  # Dark Lash
    out = g.do("black", "cast", spell="Flame Form")
    assert "Black used a Free Action" in out.card.description
    assert g.in_play("Flame Form")[0].duration == 3  # "3 Duration counters onto it rather than 2"
    assert g.being("Black").resonance == 1  # 'free'
    g.do("white", "cast", spell="Karmic Debt", target="Sentient Shadow")
    g.do("black", "exchange", gain="Resonance")
    g.do("black", "cast", spell="Flame Eternae", target="Sentient Shadow")
    assert g.in_play("Flame Eternae")[0].focus == "black"
    g.do("black", "cast", spell="Infernal Shot", target="Sentient Shadow")
    shadow, white, black = g.being("Sentient Shadow"), g.being("White"), g.being("Black")
    assert (shadow.resonance, shadow.essence) == (2, 6)  # as the text says
    assert (white.harmony, white.essence) == (-2, 12)  # the text also says 0 Resonance; Void Speaker leaves 1
    assert white.resonance == 1
    assert black.essence == 11  # the text's -4 Harmony and 2 Resonance do not follow from its steps
    assert g.battle.phase == "round_end"


def test_focus_duration_f_is_discarded_when_the_focus_moves() -> None:
    g = duel("Flame Eternae x2, Fireball", "Fireball")
    g.do("white", "prepare", spells="Flame Eternae x2")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Flame Eternae", target="Black")
    g.do("black", "end-turn")
    g.do("white", "exchange", gain="Resonance")
    out = g.do("white", "cast", spell="Flame Eternae", target="Black")
    assert "Focus moves to Flame Eternae" in out.card.description
    assert len(g.in_play("Flame Eternae")) == 1
    g.do("gm", "battle round", resonance=1)
    assert "pays 1 Resonance to sustain Flame Eternae" in g.outcomes[-1].card.description
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    g.do("white", "focus", spell="Flame Eternae", release=True)
    assert not g.in_play("Flame Eternae")


def test_an_unpaid_sustain_or_a_let_go_discards_at_maintenance() -> None:
    g = duel("Flame Eternae, Fireball", "Fireball")
    g.do("white", "prepare", spells="Flame Eternae")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Flame Eternae", target="Black")
    g.do("white", "sustain", spell="Flame Eternae", keep=False)
    g.do("black", "end-turn")
    g.do("white", "end-turn")
    out = g.do("gm", "battle round", resonance=1)
    assert "White chose not to sustain it" in out.card.description
    assert not g.in_play("Flame Eternae")


def test_beast_form_needs_an_active_cellular_enhancement_to_sustain() -> None:
    g = duel("Purification, Pillar of Earth, Fireball", "Cellular Augmentation, Beast Form")
    g.do("gm", "spell define", name="Cellular Augmentation", duration="1")
    g.do("gm", "spell define", name="Beast Form", duration="3")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="Beast Form, Cellular Augmentation")
    g.do("white", "end-turn")
    with pytest.raises(RuleError, match="Active Cellular Enhancement on bearer"):
        g.do("black", "cast", spell="Beast Form")
    g.do("black", "cast", spell="Cellular Augmentation")
    g.do("black", "cast", spell="Beast Form")
    g.do("black", "use", ability="Beast Form attack")
    assert g.being("White").essence == 11
    with pytest.raises(RuleError, match="used 1 time"):
        g.do("black", "use", ability="Beast Form attack")  # once per round
    out = g.do("gm", "battle round", resonance=1)
    # spells resolve in the order they were placed: Cellular Augmentation runs out first,
    # so Beast Form's sustain requirement fails when it resolves
    text = out.card.description
    assert "Cellular Augmentation (#" in text and "its last Duration counter is gone" in text
    assert "its sustain requirement fails: Active Cellular Enhancement on bearer" in text
    assert not g.in_play("Beast Form")


def test_one_shape_shift_at_a_time() -> None:
    g = duel("Flame Form x2", "Fireball")
    g.do("gm", "spell define", name="Flame Form", resonance=-1)
    g.do("white", "prepare", spells="Flame Form x2")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Flame Form")
    g.do("black", "end-turn")
    out = g.do("white", "cast", spell="Flame Form")
    assert "can have only one Shape-Shift" in out.card.description
    assert len(g.in_play("Flame Form")) == 1


def test_intoning_alum_gives_voice_and_kotukh_is_a_miscast() -> None:
    g = duel("Karmic Binding of Protection x2, Karmic Debt", "Fireball, Dissolve Tissue")
    g.do("white", "prepare", spells="Karmic Debt, Karmic Binding x2")
    g.do("black", "prepare", spells="Dissolve Tissue")
    g.do("white", "cast", spell="Karmic Debt", target="Black")
    g.do("black", "cast", spell="Dissolve Tissue", target="White")
    black_resonance = g.being("Black").resonance
    out = g.do("white", "cast", spell="Karmic Binding", intone="Thee New Ahv")
    assert "**Kotukh!** White miscasts Karmic Binding of Protection" in out.card.description
    assert g.being("White").harmony == -2 and g.being("Black").resonance == black_resonance + 1
    assert g.being("White").full_actions == 1  # no Full Action lost, but the turn passed
    assert [c.title for c in g.battle.cards_in("prepared", "white")] == ["Karmic Binding of Protection"]
    g.do("black", "end-turn")
    out = g.do("white", "cast", spell="Karmic Binding", intone="thi nu av!")
    assert "**Alum!**" in out.card.description and g.being("White").voice == 1


def test_ritual_path_tiers_cost_harmony_or_will_for_three() -> None:
    g = Game()
    g.do(
        "gm", "spell define", name="Long Burn", role="Attack", sphere="Forces", fluency=2, resonance=-1, dmg="1",
        duration="1", ritual_path="N/A; N/A; +1 Duration; Subtle",
    )  # fmt: skip
    g.do("white", "magi create", name="White", codex="Long Burn x2")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=9, rolloff="White")
    g.do("white", "prepare", spells="Long Burn x2")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Long Burn", target="Black", tiers=3, tiers_with="will")
    (burn,) = g.in_play("Long Burn")
    assert burn.duration == 2 and g.being("White").will == 2 and g.being("White").harmony == 0
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Long Burn", target="Black", tiers=4)
    assert g.being("White").harmony == -4
    assert all(c.boost.subtle == (c.tiers == 4) for c in g.in_play("Long Burn"))


def test_dismiss_is_a_free_action_on_a_spell_you_control() -> None:
    g = duel("Pillar of Earth, Fireball", "Fireball")
    g.do("white", "prepare", spells="Pillar of Earth")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Pillar of Earth")
    g.do("black", "end-turn")
    g.do("white", "dismiss", spell="Pillar of Earth")
    assert not g.in_play("Pillar of Earth") and g.being("White").full_actions == 1


def test_a_spec_tier_the_book_does_not_describe_cannot_be_bought() -> None:
    g = duel("Fireball", "Fireball", white_spec="Void Speaker")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    with pytest.raises(RuleError, match="does not describe Void Speaker's tree A tier 1"):
        g.do("white", "spec", tree="A")


def test_siphon_infuses_what_was_actually_lost() -> None:
    g = Game()
    g.do("gm", "spell define", name="Leech", role="Attack", sphere="Mind", fluency=1, resonance=0, siphon="Harmony 2")
    g.do("white", "magi create", name="White", codex="Leech")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=9, rolloff="White")
    g.do("white", "prepare", spells="Leech")
    g.do("black", "prepare", spells="")
    out = g.do("white", "cast", spell="Leech", target="Black")
    assert (g.being("Black").harmony, g.being("White").harmony) == (-2, 2)
    assert "siphons 2 Harmony from Black; White gains 2" in out.card.description


def test_swap_focus_onto_an_allys_spell_takes_control() -> None:
    g = Game()
    g.do("gm", "spell define", name="Flame Eternae", sphere="Forces")
    g.do("white", "magi create", name="White", codex="Flame Eternae")
    g.do("grey", "magi create", name="Grey", codex="Fireball")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start", mode="teams")
    g.do("white", "battle join", team="light")
    g.do("grey", "battle join", team="light")
    g.do("black", "battle join", team="dark")
    g.do("gm", "battle round", resonance=10, rolloff="White, Grey, Black")
    g.do("white", "prepare", spells="Flame Eternae")
    g.do("grey", "prepare", spells="")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Flame Eternae", target="Black")
    out = g.do("grey", "focus", spell="Flame Eternae")
    (eternae,) = g.in_play("Flame Eternae")
    assert (eternae.focus, eternae.controller) == ("grey", "grey")
    assert "now controls it" in out.card.description


def test_the_gm_can_remove_a_definition_and_the_book_returns() -> None:
    g = Game()
    g.do("gm", "spell define", name="Judgement", resonance=-2)
    assert "judgement" in g.state.spellbook
    out = g.do("gm", "spell define", name="Judgement", remove=True)
    assert out.data["removed"] is True and g.state.spellbook == {}
    listing = g.do("gm", "spell list")
    assert "Judgement — needs: sphere, resonance" in listing.card.description


def test_the_shadows_claw_meets_a_soul_shield_and_pierce_2_below_5_essence() -> None:
    g = Game(shadow_spectral_claw_dmg=3, shadow_gain_resonance=2)
    g.do(
        "gm",
        "spell define",
        name="Spirit Wall",
        role="Defense",
        sphere="Soul",
        fluency=1,
        resonance=0,
        shields="Soul",
        durability=2,
    )
    g.do("white", "magi create", name="White", codex="Karmic Debt, Spirit Wall, Fireball")
    g.do("gm", "battle start", mode="encounter")
    g.do("white", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.being("White").harmony = 1  # White acts first
    g.do("gm", "battle round", resonance=9)
    g.do("white", "prepare", spells="Karmic Debt, Spirit Wall")
    g.do("gm", "battle dice", values="token=yellow token=red")
    out = g.do("white", "cast", spell="Karmic Debt", target="Sentient Shadow")
    assert "Yellow row 1 (Ability Chart A): taken" in out.card.description  # it now bears a Soul Curse
    assert "the GM resolves it by hand" in out.card.description
    g.do("gm", "battle adjust", being="Sentient Shadow", essence=-7, resonance=2)
    shadow = g.being("Sentient Shadow")
    assert (shadow.essence, shadow.resonance) == (3, 3)
    g.do("white", "cast", spell="Spirit Wall")  # then the Shadow draws red: Spectral Claw, with Pierce 2
    text = g.outcomes[-1].card.description
    assert "Red row 1 (Purge the Light): skipped, it needs 4 Resonance and has 3" in text
    assert "its attack gains Pierce 2" in text
    assert "Spirit Wall blocks, but Pierce 2 lets 2 Dmg through" in text
    assert g.being("White").essence == 10
    assert g.in_play("Spirit Wall")[0].durability == 1
