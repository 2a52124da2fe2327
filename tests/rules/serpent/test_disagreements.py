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
    g.do("grey", "end-turn")
    assert len(g.battle.in_play()) == 4
    out = g.do("white", "cast", spell="Great Unbinding", target="Moon")
    assert "targets 3 spell(s) of team Moon" in g.text(out)
    # every spell of Black and Grey is gone; White's own Iron Skin (team Sun) stays
    assert [(c.title, c.bearer) for c in g.battle.in_play()] == [("Iron Skin", "white")]
    assert g.text(out).count("Dispels") == 3


SHIELDS = {
    "Great Wall": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "shields": "Forces",
        "durability": 3,
    },
    "Thin Veil": {
        "role": "Defense",
        "sphere": "Matter",
        "fluency": 1,
        "resonance": 0,
        "shields": "Forces",
        "durability": 1,
    },
    "Ember": {"role": "Attack", "sphere": "Forces", "fluency": 1, "resonance": 0, "dmg": "1"},
    "Slow Burn": {"role": "Attack", "sphere": "Forces", "fluency": 1, "resonance": 0, "dmg": "1", "duration": "2"},
    "Cold Burn": {"role": "Attack", "sphere": "Forces", "fluency": 1, "resonance": 0, "dmg": "1", "duration": "2"},
}


def shield_duel(white: str, black: str) -> Game:
    g = Game()
    for name, values in SHIELDS.items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="Black")
    return g


def test_shields_can_be_reordered_before_each_attack_impacts() -> None:
    """Glossary "Shield": "Magi may re-order their Shields before each attacking effect impacts so as to provide
    the most optimal defense for each one." """
    g = shield_duel("Ember x2", "Great Wall, Thin Veil")
    g.do("black", "prepare", spells="Great Wall, Thin Veil")
    g.do("white", "prepare", spells="Ember x2")
    g.do("black", "cast", spell="Great Wall")
    g.do("white", "cast", spell="Ember", target="Black")  # placement order: Great Wall is outermost
    assert g.in_play("Great Wall")[0].durability == 2
    g.do("black", "cast", spell="Thin Veil")
    wall, veil = g.in_play("Great Wall")[0], g.in_play("Thin Veil")[0]
    out = g.do("black", "order", spells=f"#{veil.id}, #{wall.id}")  # Thin Veil in front now
    assert "Black orders their Shields (outermost first): Thin Veil" in g.text(out)
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert "Thin Veil blocks it" in g.text(out)
    assert not g.in_play("Thin Veil") and g.in_play("Great Wall")[0].durability == 2


def test_only_the_zone_owner_orders_it() -> None:
    """Glossary "Maintenance Phase": "Within each zone, the Magi or team chooses which order to resolve"."""
    g = shield_duel("Ember", "Great Wall, Thin Veil")
    g.do("black", "prepare", spells="Great Wall, Thin Veil")
    g.do("white", "prepare", spells="")
    g.do("black", "cast", spell="Great Wall")
    g.do("white", "end-turn")
    g.do("black", "cast", spell="Thin Veil")
    with pytest.raises(RuleError, match="not a spell in a zone you own"):
        g.do("white", "order", spells="Thin Veil, Great Wall")


def test_the_zone_owner_chooses_the_order_within_a_zone() -> None:
    """Glossary "Maintenance Phase": "Within each zone, the Magi or team chooses which order to resolve the particular
    spells." The zone's owner (Black, in whose Attack zone White's spells sit) chooses, not the caster."""
    g = shield_duel("Slow Burn, Cold Burn", "Ember")
    g.do("black", "prepare", spells="")
    g.do("white", "prepare", spells="Slow Burn, Cold Burn")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Slow Burn", target="Black")
    g.do("white", "cast", spell="Cold Burn", target="Black")
    g.do("black", "order", spells="Cold Burn, Slow Burn")
    out = g.do("gm", "battle round", resonance=1)
    text = g.text(out)
    assert text.index("Cold Burn deals") < text.index("Slow Burn deals")


def test_order_suggests_the_spells_of_your_zones() -> None:
    from rules.serpent import RULESET

    g = shield_duel("Ember", "Great Wall, Thin Veil")
    g.do("black", "prepare", spells="Great Wall")
    g.do("white", "prepare", spells="")
    g.do("black", "cast", spell="Great Wall")
    wall = g.in_play("Great Wall")[0]
    assert RULESET.suggest(g.table("black"), "order", "spells", "") == [f"#{wall.id} Great Wall"]
    assert RULESET.suggest(g.table("white"), "order", "spells", "") == []


def test_an_immune_shield_blocks_without_losing_durability() -> None:
    """Glossary "Immune": "If the Shield itself was Immune, it would still block but not lose Durability." """
    g = Game()
    g.do(
        "gm",
        "spell define",
        name="Salamander Scale",
        role="Defense",
        sphere="Matter",
        fluency=1,
        resonance=0,
        shields="Forces",
        durability=2,
        aspects="Immune Heat",
    )
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("black", "magi create", name="Black", codex="Salamander Scale")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="Black")
    g.do("black", "prepare", spells="Salamander Scale")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "cast", spell="Salamander Scale")
    out = g.do("white", "cast", spell="Fireball", target="Black")  # Fireball: Forces, descriptor Heat
    assert "Salamander Scale blocks it (immune to Heat: no Durability lost)" in g.text(out)
    assert g.being("Black").essence == 12 and g.in_play("Salamander Scale")[0].durability == 2


def test_the_shadow_evades_in_the_spells_response_phase() -> None:
    """Walkthrough Act II, Round 2: "I place it in front of the Encounter and pay for it. This is a Dmg spell so the
    Shadow attempts to Evade by paying 1 Resonance and then pulling a token." In maintenance: "I pay the 1 Resonance
    and enter its Response phase. Now that we are playing the Shadow in standard mode, we see if the Shadow can
    Evade". The draw comes while the Fireball is still manifesting, before Black's window on it closes."""
    from tests.rules.serpent.test_encounter import start

    g = start(white="Fireball x2", black="Universum Negation")
    g.do("gm", "battle dice", values="d10=9 d10=1 token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    resonance = g.being("Sentient Shadow").resonance
    g.do("gm", "battle dice", values="token=red")
    out = g.do("white", "cast", spell="Fireball", target="Sentient Shadow")
    text = g.text(out)
    assert "pays 1 Resonance to Evade Fireball: draws **red**" in text
    assert [e.title for e in g.battle.stack] == ["Fireball"]  # still manifesting: Black may respond
    assert out.data["battle"]["window"]["effect"] == "Fireball"
    assert g.being("Sentient Shadow").resonance == resonance - 1
    out = g.do("black", "pass")
    assert "Fireball misses Sentient Shadow" in g.text(out)
    assert g.being("Sentient Shadow").essence == 12


def test_an_area_negation_dispels_every_spell_the_team_is_casting() -> None:
    """Glossary "Abjuration Spell": with Area it "targets all validly targetable spells for all Magi of a given team"
    — for a Dispel of manifesting spells, every spell that team's Magi are casting."""
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="codex", aspects="Area")
    g.do("white", "magi create", name="White", codex="Universum Negation")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="Black")
    g.do("black", "prepare", spells="Fireball")
    g.do("white", "prepare", spells="")
    g.do("black", "cast", spell="Fireball", target="White")
    out = g.do("white", "respond", spell="Universum Negation", target="Black")
    assert "targets 1 spell(s) of team Black" in g.text(out)
    assert "Dispels Black's manifesting Fireball" in g.text(out)
    assert g.being("White").essence == 12 and g.battle.stack == []
