"""The glossary's aspects (issue 14), each tested from its entry: the quoted line is the spec."""

from __future__ import annotations

from typing import Any

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game


def spell(role: str, sphere: str = "Forces", **values: Any) -> dict[str, Any]:
    return {"role": role, "sphere": sphere, "fluency": 1, "resonance": 0, **values}


SPELLS: dict[str, dict[str, Any]] = {
    "Ember": spell("Attack", dmg="1"),
    "Hidden Ember": spell("Attack", dmg="1", aspects="Veiled"),
    "Oath Ward": spell("Defense", "Matter", aspects="Ward 1, Vowed", duration="P"),
    "Crown": spell("Enhance", "Soul", aspects="Legendary", duration="P"),
    "Mark": spell("Enhance", "Soul", aspects="Unique to Bearer", duration="P"),
    "Sigil": spell("Enhance", "Soul", aspects="Unique to Caster", duration="P"),
    "Heat Aura": spell("Enhance", "Forces", aspects="Unique to Descriptor Heat", descriptors="Heat", duration="P"),
    "Warm Hands": spell("Enhance", "Forces", descriptors="Heat", duration="P"),
    "Iron Will": spell("Defense", "Matter", aspects="Ward 1, Adamant, Backlash 2", duration="P"),
    "Unravel": spell("Abjuration", "Soul", dispel="active to discard"),
    "True Unravel": spell("Abjuration", "Soul", dispel="active to discard", aspects="Inexorable"),
    "Quell": spell("Abjuration", "Mind", aspects="Response, Target manifesting, Dampen 2 Resonance"),
    "Swiftness": spell("Enhance", "Quantum", aspects="Haste", duration="P"),
    "Swiftness II": spell("Enhance", "Quantum", aspects="Haste", duration="P"),
    "Drag": spell("Attack", "Quantum", aspects="Slow"),
    "Shroud": spell("Enhance", "Mind", aspects="Cloaked", duration="P"),
    "Wave": spell("Attack", dmg="1", aspects="Area"),
    "Phase": spell("Attack", "Quantum", aspects="Phased, Will Break 1", curse_duration="P"),
    "Silence": spell("Attack", "Mind", aspects="Prevents Attack, Will Break 2", curse_duration="P"),
    "Binding Oath": spell("Attack", "Soul", aspects="Injunction Resonance", curse_duration="P"),
    "Unmake": spell("Attack", "Soul", aspects="Obliteration"),
    "Calm": spell("Enhance", "Soul", aspects="Shed Discord 3"),
    "Forget": spell("Attack", "Mind", aspects="Spell Loss 2 banish"),
    "Void Call": spell("Attack", "Soul", dmg="1", requirements="Attunement Soul"),
    "Void Reign": spell("Attack", "Soul", dmg="1", requirements="Dominance Soul"),
    "Pyre": spell("Attack", dmg="3", requirements="Burn Focus"),
    "Tether": spell("Enhance", "Soul", duration="F", upgrades="Sealed = 1 Resonance"),
    "Shared Step": spell("Defense", "Forces", aspects="Evade, Response, Free Action, Area"),
    "Cataclysm": spell("Attack", dmg="1", aspects="Area:G"),
    "Soul Bolt": spell("Attack", "Soul", dmg="1"),
}


def game(*codices: str, mode: str = "duel", teams: tuple[str, ...] = (), rolloff: str = "", **settings: Any) -> Game:
    """Magi White, Black (and Grey) with the test spells defined; round 1 started, no one prepared yet."""
    g = Game(**settings)
    for name, values in SPELLS.items():
        g.do("gm", "spell define", name=name, **values)
    names = ("White", "Black", "Grey")[: len(codices)]
    for name, codex in zip(names, codices, strict=True):
        g.do(name.lower(), "magi create", name=name, codex=codex)
    g.do("gm", "battle start", mode=mode)
    for i, name in enumerate(names):
        g.do(name.lower(), "battle join", team=teams[i] if teams else None)
    g.do("gm", "battle round", resonance=10, rolloff=rolloff or ", ".join(names))
    return g


def prepare(g: Game, **spells: str) -> None:
    for who, titles in spells.items():
        g.do(who, "prepare", spells=titles)


def test_veiled_has_no_response_phase() -> None:
    """Glossary "Veiled": "An empowerment indicating that an effect has no Response phase. No one can respond to a
    Veiled spell or ability." """
    g = game("Hidden Ember, Ember", "Universum Negation")
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    prepare(g, white="Hidden Ember, Ember", black="")
    g.do("white", "cast", spell="Hidden Ember", target="Black")
    assert g.battle.stack == [] and g.being("Black").essence == 11  # Black's Negation had no window
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Ember", target="Black")
    assert [e.title for e in g.battle.stack] == ["Ember"]  # an ordinary spell waits for Black


def test_vowed_cannot_be_dismissed() -> None:
    """Glossary "Vowed": "the spell or Artifact cannot be dismissed by its controller." """
    g = game("Oath Ward", "Ember")
    prepare(g, white="Oath Ward", black="")
    g.do("white", "cast", spell="Oath Ward")
    g.do("black", "end-turn")
    with pytest.raises(RuleError, match="Oath Ward is Vowed"):
        g.do("white", "dismiss", spell="Oath Ward")
    assert g.in_play("Oath Ward")


def test_legendary_one_active_by_any_magi() -> None:
    """Glossary "Legendary": "If a second spell with the same title, regardless of Fluency, is successfully
    activated, the first spell is discarded." """
    g = game("Crown", "Crown")
    prepare(g, white="Crown", black="Crown")
    g.do("white", "cast", spell="Crown")
    out = g.do("black", "cast", spell="Crown")
    assert [c.bearer for c in g.in_play("Crown")] == ["black"]
    assert "Crown is Legendary" in g.text(out)


def test_unique_to_bearer_and_to_caster() -> None:
    """Glossary "Unique to Bearer": "If a second spell of the same title activates on the bearer, the original is
    immediately discarded." "Unique to Caster": "If the caster activates a second spell of the same title then the
    original is immediately discarded." """
    g = game("Mark x2, Sigil x2", "Mark, Sigil")
    prepare(g, white="Mark, Sigil, Mark", black="Mark, Sigil")
    g.do("white", "cast", spell="Mark")
    g.do("black", "cast", spell="Mark")  # another bearer: both stay
    assert len(g.in_play("Mark")) == 2
    g.do("white", "cast", spell="Sigil")
    g.do("black", "cast", spell="Sigil")  # another caster: both stay
    assert len(g.in_play("Sigil")) == 2
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    prepare(g, white="Mark, Sigil", black="")
    first_mark = next(c.id for c in g.in_play("Mark") if c.bearer == "white")
    out = g.do("white", "cast", spell="Mark")
    assert first_mark not in [c.id for c in g.in_play("Mark")] and len(g.in_play("Mark")) == 2
    assert "Mark is Unique to Bearer" in g.text(out)


def test_unique_to_descriptor_discards_every_other_spell_with_it() -> None:
    """Glossary "Unique to Descriptor X": "When one of these activates, globally discard all other spells with that
    descriptor (regardless of Defenses). If another spell with that descriptor activates, from any Magi, discard the
    original." """
    g = game("Heat Aura, Warm Hands", "Warm Hands")
    prepare(g, white="Heat Aura, Warm Hands", black="Warm Hands")
    g.do("white", "cast", spell="Warm Hands")
    g.do("black", "cast", spell="Warm Hands")
    g.do("white", "cast", spell="Heat Aura")
    assert [c.title for c in g.battle.in_play()] == ["Heat Aura"]


def test_adamant_and_inexorable_and_backlash() -> None:
    """Glossary "Adamant": "immune to abilities, Abjurations and Transmutes that target it UNLESS they have the
    Inexorable empowerment OR they are cast by the spell's controller." "Backlash": "the controller of the Transmute or
    Abjuration takes Unblockable Harmony Dmg equal to the Backlash rating"."""
    g = game("Unravel, True Unravel", "Iron Will", rolloff="Black, White")
    prepare(g, white="Unravel, True Unravel", black="Iron Will")
    g.do("black", "cast", spell="Iron Will")
    out = g.do("white", "cast", spell="Unravel", target="Iron Will")
    assert "Iron Will is Adamant" in g.text(out) and g.in_play("Iron Will")
    harmony = g.being("White").harmony or 0
    g.do("black", "meditate")
    harmony = g.being("White").harmony or 0
    out = g.do("white", "cast", spell="True Unravel", target="Iron Will")
    assert not g.in_play("Iron Will")
    assert g.being("White").harmony == harmony - 2 and "Backlash 2" in g.text(out)


def test_dampen_makes_the_caster_pay_more_or_lose_the_spell() -> None:
    """Glossary "Dampen": "When a spell is Dampened by a Response, its controller must immediately choose to either pay
    the additional costs or else discard the spell (no refund as this is not a Dispel)." """
    g = game("Ember x2", "Quell x2")
    prepare(g, white="Ember x2", black="")
    g.do("white", "cast", spell="Ember", target="Black")
    g.do("black", "respond", spell="Quell", target="Ember")
    resonance = g.being("White").resonance
    out = g.do("black", "pass")  # Black's priority on her own Quell; then it activates
    assert "pays 2 Resonance more" in g.text(out) and g.being("White").resonance == resonance - 2
    g.do("black", "pass")  # back in the Ember's window
    assert g.being("Black").essence == 11  # paid: the Ember still impacts
    g.do("gm", "battle adjust", being="White", resonance=-g.being("White").resonance)
    g.do("black", "shed-stone")
    g.do("white", "cast", spell="Ember", target="Black")
    out = g.do("black", "respond", spell="Quell", target="Ember")  # her last Quell: no window of her own
    assert "cannot pay 2 Resonance more, so it is discarded" in g.text(out)
    assert g.being("Black").essence == 11


def test_haste_adds_one_full_action_and_never_two() -> None:
    """Glossary "Action": "a Magi may gain AT MOST one additional Full Action each round regardless of how many effects
    try to add one." """
    g = game("Swiftness, Swiftness II", "Ember")
    prepare(g, white="Swiftness, Swiftness II", black="")
    g.do("white", "cast", spell="Swiftness")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Swiftness II")
    g.do("gm", "battle round", resonance=5)
    assert g.being("White").full_actions == 3 and g.being("Black").full_actions == 2


def test_slow_an_offensive_stone_once_a_round() -> None:
    """Glossary "Action": "opponents may only cause a Magi to lose at most one Full Action each round. Even this single
    loss is prevented if the Magi already has 2 interrupt stones." """
    g = game("Drag x2", "Ember")
    prepare(g, white="Drag x2", black="")
    g.do("white", "cast", spell="Drag", target="Black")
    assert g.being("Black").stones == 1
    g.do("black", "end-turn")
    out = g.do("white", "cast", spell="Drag", target="Black")
    assert g.being("Black").stones == 1 and "already has one from an offensive effect" in g.text(out)


def test_cloaked_cannot_be_targeted_by_opponents_but_area_reaches() -> None:
    """Glossary "Cloaked": "If a Magi is Cloaked, opponents cannot target the Magi. Spells controlled by that Magi can
    still be targeted. Cloaked Magi are still affected by Area spells." """
    g = game("Ember, Wave, Unravel", "Shroud", rolloff="Black, White")
    prepare(g, white="Ember, Wave, Unravel", black="Shroud")
    g.do("black", "cast", spell="Shroud")
    with pytest.raises(RuleError, match="Black is Cloaked by Shroud"):
        g.do("white", "cast", spell="Ember", target="Black")
    g.do("white", "cast", spell="Wave", target="Black")
    assert g.being("Black").essence == 11
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Unravel", target="Shroud")  # the spell itself can be targeted
    assert not g.in_play("Shroud")


def test_phased_only_meditates_is_immune_and_breaks_with_will() -> None:
    """Glossary "Phased": "the Magi may not take actions except to meditate but are immune to offensive effects."
    "Will Breaks": "An option to discard a spell or end an effect by spending Will"."""
    g = game("Phase, Ember", "Ember x2")
    prepare(g, white="Phase, Ember", black="Ember")
    g.do("white", "cast", spell="Phase", target="Black")
    assert g.in_play("Phase")[0].zone == "curse"
    with pytest.raises(RuleError, match="Black is Phased by Phase"):
        g.do("black", "cast", spell="Ember", target="White")
    out = g.do("black", "meditate")
    out = g.do("white", "cast", spell="Ember", target="Black")
    assert "Black is Phased by Phase and immune to offensive effects" in g.text(out)
    assert g.being("Black").essence == 12
    will = g.being("Black").will
    g.do("black", "dismiss", spell="Phase")
    assert not g.in_play("Phase") and g.being("Black").will == will - 1


def test_prevented_bans_a_kind_of_spell() -> None:
    """Glossary "Prevented": "Any ban on casting some or all types of spells or taking a broad category of actions." """
    g = game("Silence", "Ember, Shroud")
    prepare(g, white="Silence", black="Ember, Shroud")
    g.do("white", "cast", spell="Silence", target="Black")
    with pytest.raises(RuleError, match="Silence prevents Black from casting Attack spells"):
        g.do("black", "cast", spell="Ember", target="White")
    g.do("black", "cast", spell="Shroud")  # an Enhancement is not prevented


def test_injunction_stops_gaining_the_energy() -> None:
    """Glossary "Injunction": "Most energy injunctions prevent a Magi from gaining that particular energy." """
    g = game("Binding Oath", "Ember")
    prepare(g, white="Binding Oath", black="")
    g.do("white", "cast", spell="Binding Oath", target="Black")
    resonance = g.being("Black").resonance
    out = g.do("black", "meditate")
    assert g.being("Black").resonance == resonance and "Binding Oath enjoins it" in g.text(out)


def test_obliteration_incapacitates_at_once() -> None:
    """Glossary "Obliteration": "An effect that immediately incapacitates a target." """
    g = game("Unmake", "Ember")
    prepare(g, white="Unmake", black="")
    g.do("white", "cast", spell="Unmake", target="Black")
    assert g.being("Black").incapacitated


def test_shed_discord_never_gives_harmony() -> None:
    """Glossary "Shed Discord": "If a Magi has -3 Harmony (aka 3 Discord) and Sheds 4 Discord, he is now at 0
    Harmony." (here 2 Discord, Shed 3)"""
    g = game("Calm", "Ember")
    g.do("gm", "battle adjust", being="White", harmony=-2)
    prepare(g, white="Calm", black="")
    g.do("white", "cast", spell="Calm")
    assert g.being("White").harmony == 0


def test_spell_loss_the_owner_chooses() -> None:
    """Glossary "Spell Loss": "forces the target to remove spells from their Codex. Each Spell Loss effect will define
    whether the spells are Sacrificed, Banished or returned to the Codex unprepared." "Sacrifice": "The Magi who owns
    the Codex is the one who chooses"."""
    g = game("Forget", "Ember x3, Shroud")
    prepare(g, white="Forget", black="")
    g.do("white", "cast", spell="Forget", target="Black")
    with pytest.raises(RuleError, match="must first choose their Spell Loss 2"):
        g.do("black", "meditate")
    with pytest.raises(RuleError, match="name 2 spell"):
        g.do("black", "lose", spells="Ember")
    g.do("black", "lose", spells="Ember, Shroud")
    assert sorted(c.title for c in g.battle.cards_in("banished", "black")) == ["Ember", "Shroud"]
    g.do("black", "meditate")


def test_attunement_and_dominance_read_the_discard_pile() -> None:
    """Glossary "Attunement": "at least one spell of the specified Sphere in his/her discard pile". "Dominance":
    "more spells from the named Sphere in his/her discard pile than of any other Sphere"."""
    g = game("Void Call, Void Reign, Soul Bolt, Ember", "Ember")
    prepare(g, white="Void Call, Soul Bolt, Void Reign", black="")
    with pytest.raises(RuleError, match="no Soul spell in their discard pile"):
        g.do("white", "cast", spell="Void Call", target="Black")
    g.do("white", "cast", spell="Soul Bolt", target="Black")  # discarded after impact: 1 Soul
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Void Call", target="Black")
    assert g.being("Black").essence == 10
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    prepare(g, white="Void Reign, Ember", black="")
    g.do("white", "cast", spell="Ember", target="Black")  # discard: 2 Soul, 1 Forces
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Void Reign", target="Black")
    assert g.being("Black").essence == 8


def test_dominance_refused_when_another_sphere_ties() -> None:
    """Glossary "Dominance": "Dominance requires the named Sphere be the largest minority"."""
    g = game("Void Reign, Soul Bolt, Ember", "Ember")
    prepare(g, white="Soul Bolt, Ember, Void Reign", black="")
    g.do("white", "cast", spell="Soul Bolt", target="Black")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Ember", target="Black")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    prepare(g, white="Void Reign", black="")
    with pytest.raises(RuleError, match="Soul must outnumber every other Sphere"):
        g.do("white", "cast", spell="Void Reign", target="Black")


def test_burn_focus_and_reattune_it() -> None:
    """Glossary "Burn Focus": "To discard a Focus. ... An unlimited number of Burned Foci may be re-attuned during
    spell preparation by paying 1 Resonance for each one." """
    g = game("Pyre x2", "Ember")
    prepare(g, white="Pyre x2", black="")
    g.do("white", "cast", spell="Pyre", target="Black")
    assert (g.being("White").focus_total, g.being("White").burned_focus) == (0, 1)
    g.do("black", "end-turn")
    with pytest.raises(RuleError, match="no Focus left to burn"):
        g.do("white", "cast", spell="Pyre", target="Black")
    g.do("white", "end-turn")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "reattune", spells="Focus")
    assert (g.being("White").focus_total, g.being("White").burned_focus) == (1, 0)


def test_sealed_turns_focus_into_persistent() -> None:
    """Glossary "Sealed": "An upgrade that converts a Duration F(ocus) spell into a Duration P(ersistent) spell. Sealed
    spells no longer require Focus to Sustain"."""
    g = game("Tether x2", "Ember")
    prepare(g, white="Tether x2", black="")
    g.do("white", "cast", spell="Tether", upgrade="sealed")
    (tether,) = g.in_play("Tether")
    assert tether.persistent and tether.focus is None


def test_an_area_evade_lets_the_whole_team_dodge_one_impact() -> None:
    """Glossary "Evade": "If an Evade spell gains Area, it allows a whole team to dodge the same single impact"."""
    g = game("Ember", "Shared Step", "Ember", mode="teams", teams=("Sun", "Moon", "Moon"), rolloff="White, Black, Grey")
    prepare(g, white="Ember", black="", grey="")
    g.do("white", "cast", spell="Ember", target="Grey")
    g.do("black", "respond", spell="Shared Step", target="Ember")
    assert g.being("Grey").essence == 12 and "Black, Grey will evade Ember" in g.text()


def test_a_global_attack_hits_every_being_through_their_defenses() -> None:
    """Glossary "Area:G": "Global Attacks impact all Magi, though team Defenses and individual Defenses may protect
    against that impact." RULING: the caster is among "all Magi"."""
    g = game("Cataclysm", "Ember", "Ember", mode="teams", teams=("Sun", "Moon", "Moon"), rolloff="White, Black, Grey")
    prepare(g, white="Cataclysm", black="", grey="")
    g.do("white", "cast", spell="Cataclysm")
    assert [g.being(n).essence for n in ("White", "Black", "Grey")] == [11, 11, 11]


def test_potency_below_resistance_has_no_effect() -> None:
    """Glossary "Potency": "In order to affect an Encounter, a spell must have Potency equal to or greater than the
    Encounter's Resistance. The Potency of any spell is equal to its Fluency plus 1 for each tier of its ritual path
    that is unlocked"."""
    from tests.rules.serpent.test_encounter import start

    g = start(easy=True, white="Fireball x2")
    g.do("gm", "battle adjust", being="Sentient Shadow", resistance=2)
    g.do("gm", "battle dice", values="token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    out = g.do("white", "cast", spell="Fireball", target="Sentient Shadow")
    assert "Fireball's Potency 1 is below Sentient Shadow's Resistance 2" in g.text(out)
    assert g.being("Sentient Shadow").essence == 10


SPELLS["Great Rite"] = spell("Attack", dmg="4", aspects="Actions 2")


def rite_game() -> Game:
    return game("Great Rite x2, Ember", "Ember")


def test_a_two_action_spell_waits_in_the_rite_zone_then_is_cast() -> None:
    """Glossary "# Actions": "The spell is Spoken then placed in the Rite zone until the Magi has enough Full Actions
    invested into the spell, at which time the spell is treated like any other just-Spoken spell: choose target, pay
    costs and handle Response phase." """
    g = rite_game()
    prepare(g, white="Great Rite", black="")
    out = g.do("white", "cast", spell="Great Rite")
    assert "Spoken into the Rite zone: 1 of 2 Full Actions invested" in g.text(out)
    assert [c.title for c in g.battle.cards_in("rite", "white")] == ["Great Rite"]
    g.do("black", "meditate")
    g.do("white", "cast", spell="Great Rite", target="Black")
    assert g.being("Black").essence == 8 and g.being("White").full_actions == 0
    assert not g.battle.cards_in("rite", "white")


def test_another_full_action_discards_the_rite_zone_but_a_free_action_does_not() -> None:
    """Glossary "# Actions": "If the player takes a Full Action for anything (including clearing an interrupt stone)
    other than advancing a Rite zone spells, all spells in the Rite zone are discarded." """
    g = rite_game()
    prepare(g, white="Great Rite", black="")
    g.do("white", "cast", spell="Great Rite")
    g.do("black", "meditate")
    out = g.do("white", "meditate")
    assert "leaves the Rite zone and is discarded" in g.text(out)
    assert [c.title for c in g.battle.cards_in("discard", "white")] == ["Great Rite"]


SPELLS.update(
    {
        "Sharpen": spell("Transmute", "Forces", aspects="Combines +1 Dmg, Exclusive", duration="2"),
        "Hone": spell("Transmute", "Forces", aspects="Combines +2 Dmg, Exclusive", duration="2"),
        "Slumber": spell("Transmute", "Mind", aspects="Dormant", duration="1"),
        "Burning Field": spell("Attack", dmg="1", duration="3"),
        "Wolf Spirit": spell("Ally", "Bio", aspects="Ally Essence 3", duration="P"),
    }
)


def test_a_transmute_combines_modifies_and_goes_with_its_target() -> None:
    """Glossary "Transmute Spell": "targets and combines with other spells and modifies them for some Duration. ... If
    the combined spell is discarded, the Transmute is also discarded." "Exclusive": "If a second Exclusive Transmute
    is combined on a spell, the first Exclusive Transmute is discarded." """
    g = game("Burning Field, Sharpen, Hone, Unravel", "Unravel")
    prepare(g, white="Burning Field, Sharpen, Hone", black="")
    g.do("white", "cast", spell="Burning Field", target="Black")
    assert g.being("Black").essence == 11
    g.do("black", "meditate")
    out = g.do("white", "cast", spell="Sharpen", target="Burning Field")
    assert "Sharpen combines with Burning Field" in g.text(out)
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")  # maintenance: 1 + 1 Dmg
    assert g.being("Black").essence == 9
    prepare(g, white="Hone, Unravel", black="")
    g.do("black", "meditate")  # Black leads round 2 (more Harmony after meditating)
    g.do("white", "cast", spell="Hone", target="Burning Field")
    assert not g.in_play("Sharpen") and g.in_play("Hone")[0].combined_with == g.in_play("Burning Field")[0].id
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Unravel", target="Burning Field")
    assert not g.in_play("Burning Field") and not g.in_play("Hone")


def test_a_dormant_spell_counts_down_without_effect() -> None:
    """Glossary "Dormant": "A Dormant spell continues to countdown Duration. ... A Dormant spell does not cause any
    effect and cannot be used to meet requirements." "Re-activate": "It does not impact." """
    g = game("Slumber", "Burning Field", rolloff="Black, White")
    prepare(g, white="Slumber", black="Burning Field")
    g.do("black", "cast", spell="Burning Field", target="White")
    assert g.being("White").essence == 11
    g.do("white", "cast", spell="Slumber", target="Burning Field")
    (field,) = g.in_play("Burning Field")
    assert field.dormant and field.duration == 3
    out = g.do("gm", "battle round", resonance=10, rolloff="Black, White")
    assert g.being("White").essence == 11  # no impact while Dormant
    assert g.in_play("Burning Field")[0].duration == 2  # but it counted down
    assert "re-activates (no impact)" in g.text(out)  # Slumber ran out


def test_an_ally_spell_summons_a_koishaka_its_controller_acts_for() -> None:
    """Glossary "Ally Spell": "An Ally has 2 Full Actions per round, including the round it first activates. In its
    first round it has lowest initiative ... Gaining control of a second Ally discards the first." """
    g = game("Wolf Spirit x2", "Ember")
    prepare(g, white="Wolf Spirit x2", black="")
    g.do("white", "cast", spell="Wolf Spirit")
    wolf = g.being("Wolf Spirit of White")
    assert (wolf.kind, wolf.essence, wolf.full_actions, wolf.team) == ("koishaka", 3, 2, g.being("White").team)
    assert g.battle.order[-1] == wolf.key
    g.do("black", "end-turn")
    with pytest.raises(RuleError, match="controlled by White's player"):
        g.do("black", "meditate", magi="Wolf Spirit of White")
    g.do("white", "meditate", magi="Wolf Spirit of White")
    assert g.being("Wolf Spirit of White").resonance == 2


def test_fluency_variants_of_one_title_share_its_codex_limits() -> None:
    """Glossary "Title": "Spells with the same title but different fluency levels still count as the same spell for
    Codex limits"; "Codex": "only 3 spells of the same title ... even if one is level 1 and the others are level 3"."""
    g = Game()
    out = g.do("white", "magi create", name="White", codex="Fireball, Fireball@3, Fireball (fluency 4)")
    assert out.data["sheet"]["codex"] == ["Fireball", "Fireball@3", "Fireball@4"]
    with pytest.raises(RuleError, match="4 copies of Fireball"):
        g.do("black", "magi create", name="Black", codex="Fireball x2, Fireball@3 x2")
    with pytest.raises(RuleError, match="3 spells of fluency 4"):
        g.do("black", "magi create", name="Black", codex="Fireball@4, Dissolve Tissue@4, Acidic Matter@4")
    # the copy's fluency is what Intoning pays in Voice
    g.do("gm", "spell define", name="Fireball", cast_phrase="Ignis")
    g.do("black", "magi create", name="Black", codex="Dissolve Tissue")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball@3")
    g.do("black", "prepare", spells="")
    assert [c.fluency for c in g.battle.cards_in("prepared", "white")] == [3]
    out = g.do("white", "cast", spell="Fireball", target="Black", intone="Ignis")
    assert "White gains 3 Voice for Intoning" in g.text(out)


SPELLS["Sun Orb"] = {
    "role": "Artifact",
    "resonance": -1,
    "dmg": "2",
    "aspects": "Charges 2",
}
SPELLS["Swift Boots"] = {"role": "Artifact", "aspects": "Haste"}


def test_an_artifact_activates_with_its_cost_and_charges() -> None:
    """Glossary "Artifact": "Others have charges. Magi must expend the energy to activate the Artifact. Unless
    otherwise noted, such activation requires a Free Action." Reference: "these costs are always costs, never gains"."""
    g = Game()
    for name, values in SPELLS.items():
        g.do("gm", "spell define", name=name, **values)
    g.do("white", "magi create", name="White", codex="Ember", artifact="Sun Orb")
    g.do("black", "magi create", name="Black", codex="Ember", artifact="Swift Boots")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    from rules.serpent import RULESET

    assert RULESET.suggest(g.table("white"), "use", "ability", "") == ["Sun Orb"]
    out = g.do("white", "use", ability="Sun Orb", target="Black")
    assert "pays 1 Resonance; 1 charge(s) left" in g.text(out)
    assert g.being("Black").essence == 10 and g.being("White").full_actions == 2  # a Free Action
    g.do("black", "meditate")
    g.do("white", "use", ability="Sun Orb", target="Black")
    g.do("black", "meditate")
    with pytest.raises(RuleError, match="Sun Orb has no charges left"):
        g.do("white", "use", ability="Sun Orb", target="Black")
    g.do("white", "end-turn")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    assert g.being("Black").full_actions == 3  # Swift Boots' passive Haste


def test_a_human_ally_pays_ritual_tiers_cumulative_with_the_caster() -> None:
    """Glossary "Ritual Path": "Human Allies may help to upgrade your Ritual Path at the same price. An Ally's
    investment is cumulative with your own." """
    g = game("Long Burn", "Ember", "Ember", mode="teams", teams=("Sun", "Moon", "Sun"), rolloff="White, Black, Grey")
    prepare(g, white="Long Burn", black="", grey="")
    out = g.do("grey", "pledge", to="White", tiers=2)
    assert "Grey pledges 2 ritual tier(s) (2 Harmony) to White" in g.text(out)
    white, grey = g.being("White").harmony or 0, g.being("Grey").harmony or 0
    out = g.do("white", "cast", spell="Long Burn", target="Black", tiers=1)
    (burn,) = g.in_play("Long Burn")
    assert burn.tiers == 3 and burn.duration == 2 + 1  # the third tier's +1 Duration
    assert (g.being("White").harmony, g.being("Grey").harmony) == (white - 1, grey - 2)
    assert g.being("Grey").pledge is None


SPELLS["Long Burn"] = spell("Attack", dmg="1", duration="2", ritual_path="N/A; N/A; +1 Duration; Subtle")


SPELLS["World Song"] = {"role": "Nam-Shub", "aspects": "Steps 2"}


def test_a_nam_shub_one_per_team_one_step_a_round_immune_to_spells() -> None:
    """Glossary "Nam-Shub": "as a Free Action, remove the page from your Codex and place it beside your team zone. A
    team may only be working on one Nam-Shub at a time. Only one step of a Nam-Shub may be completed per round by the
    team. Nam-Shubs as a whole are immune to regular spells" and "no limit to the number of Nam-Shubs your Codex may
    contain"."""
    g = game("World Song x4, Ember", "Unravel")
    prepare(g, white="", black="")
    out = g.do("white", "nam-shub", name="World Song")
    assert "begins it beside team White's zone" in g.text(out) and g.being("White").full_actions == 2
    g.do("black", "end-turn")
    with pytest.raises(RuleError, match="already working on World Song"):
        g.do("white", "nam-shub", name="World Song")
    with pytest.raises(RuleError, match="GM"):
        g.do("white", "nam-shub", step=True)
    g.do("gm", "nam-shub", step=True)
    with pytest.raises(RuleError, match="already completed a step of World Song this round"):
        g.do("gm", "nam-shub", step=True)
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="Unravel")
    g.do("white", "end-turn")
    with pytest.raises(RuleError, match="not a spell this can target"):
        g.do("black", "cast", spell="Unravel", target="World Song")
    out = g.do("gm", "nam-shub", step=True)
    assert "step 2 of 2 of World Song. It is complete" in g.text(out)


SPELLS["Quick Rite"] = spell("Attack", dmg="2", aspects="Actions 3, Free Action")
SPELLS["Instant Rite"] = spell("Attack", dmg="2", aspects="Actions 3, Absolute Free Action")


def test_free_action_on_a_multi_action_spell_takes_one_action_off() -> None:
    """Glossary "Free Action (spell aspect)": "Adding "Free Action" to a spell that costs "# Actions" only reduces the
    Full Action requirement by 1. Adding "Absolute Free Action" grants Free Action to a spell even if the spell is a
    "# Action." spell." """
    g = game("Quick Rite, Instant Rite", "Ember")
    prepare(g, white="Quick Rite, Instant Rite", black="")
    out = g.do("white", "cast", spell="Quick Rite")
    assert "1 of 2 Full Actions invested" in g.text(out)
    g.do("black", "meditate")
    g.do("white", "cast", spell="Quick Rite", target="Black")
    assert g.being("Black").essence == 10 and g.being("White").full_actions == 0
    g.do("black", "meditate")
    g.do("white", "cast", spell="Instant Rite", target="Black")  # no Full Action left: Absolute Free Action
    assert g.being("Black").essence == 8


def test_the_board_shows_the_new_states() -> None:
    """What a GM would otherwise keep on paper: the Rite zone, a Koishaka, an Artifact's charges, a Nam-Shub's steps,
    a pending Spell Loss, a pledge and a burned Focus."""
    g = game("Great Rite, Wolf Spirit, World Song, Pyre", "Forget", "Ember", mode="teams", teams=("Sun", "Moon", "Sun"))
    g.do("gm", "battle adjust", being="Black", resonance=5)
    prepare(g, white="Great Rite, Wolf Spirit, Pyre", black="Forget", grey="")
    g.do("white", "cast", spell="Great Rite")
    g.do("black", "cast", spell="Forget", target="White")
    g.do("grey", "pledge", to="White", tiers=1)
    out = g.do("white", "battle board")
    text = "\n".join(f.value for f in out.card.fields)
    assert "**Rite zone:** #" in text and "Great Rite (1 invested)" in text
    assert "must choose Spell Loss 2 (Banished) (/serpent lose)" in text
    assert "pledged 1 ritual tier(s) to White" in text
    g2 = game("Wolf Spirit, World Song", "Ember")
    prepare(g2, white="Wolf Spirit", black="")
    g2.do("white", "nam-shub", name="World Song")
    g2.do("black", "end-turn")
    g2.do("white", "cast", spell="Wolf Spirit")
    out = g2.do("white", "battle board")
    text = "\n".join(f.value for f in out.card.fields)
    assert "Koishaka of White · Full Actions 2/2" in text
    assert "beside the team zone: #" in text and "Nam-Shub: 0/2 steps" in text
    out = g2.do("white", "end-turn")  # the Koishaka acts last in its first round
    assert 'acts for it: meditate, use an ability, or /serpent end-turn, with magi:"Wolf Spirit of White"' in g2.text(
        out
    )


def test_autocomplete_offers_koishaka_nam_shubs_and_artifacts() -> None:
    from rules.serpent import RULESET

    g = game("Wolf Spirit, World Song", "Ember")
    assert RULESET.suggest(g.table("white"), "nam-shub", "name", "") == ["World Song"]
    prepare(g, white="Wolf Spirit", black="")
    g.do("white", "cast", spell="Wolf Spirit")
    assert RULESET.suggest(g.table("white"), "meditate", "magi", "") == ["White", "Wolf Spirit of White"]
    assert RULESET.suggest(g.table("black"), "meditate", "magi", "") == ["Black"]


def test_the_spell_card_shows_every_aspect_the_gm_gave() -> None:
    g = Game()
    out = g.do(
        "gm",
        "spell define",
        name="Everything",
        role="Attack",
        sphere="Soul",
        fluency=2,
        resonance=0,
        aspects="Veiled, Adamant, Backlash 2, Unique to Descriptor Heat, Dampen 1 Will, Spell Loss 1 codex, Actions 2",
    )
    text = g.text(out)
    for shown in (
        "Veiled",
        "Adamant",
        "Backlash 2",
        "Unique to Descriptor Heat",
        "Dampen 1 Will",
        "Spell Loss 1",
        "Actions 2",
    ):
        assert shown in text, shown


SPELLS["Soulguard"] = spell("Defense", "Matter", aspects="Ward 1, Immune Soul", duration="P")


def test_an_immune_spell_cannot_be_dispelled_by_what_it_is_immune_to() -> None:
    """Glossary "Immune": "the spell or Magi cannot be affected by the specified type of spell or effect in any
    way"."""
    g = game("Unravel", "Soulguard", rolloff="Black, White")
    prepare(g, white="Unravel", black="Soulguard")
    g.do("black", "cast", spell="Soulguard")
    out = g.do("white", "cast", spell="Unravel", target="Soulguard")  # Unravel is a Soul Abjuration
    assert "Soulguard is Immune to Soul" in g.text(out) and g.in_play("Soulguard")


SPELLS["Memory Ward"] = spell("Defense", "Mind", aspects="Ward 1 Spell Loss", duration="P")


def test_a_ward_can_mitigate_spell_loss() -> None:
    """Glossary "Ward": "Some Wards will specify that they mitigate other types of Dmg or Spell Loss." """
    g = game("Forget", "Memory Ward, Ember x3", rolloff="Black, White")
    prepare(g, white="Forget", black="Memory Ward")
    g.do("black", "cast", spell="Memory Ward")
    out = g.do("white", "cast", spell="Forget", target="Black")
    assert "Memory Ward wards 1 Spell Loss" in g.text(out)
    assert g.being("Black").spell_loss is not None and g.being("Black").spell_loss.amount == 1
