"""RULINGS 8-11: Discord and Harmony checks, the Resonance roll, initiative, and the limits."""

from __future__ import annotations

from itertools import product

import pytest

from rules.base import RuleError
from rules.serpent.context import Ctx
from rules.serpent.magi import check_codex
from rules.serpent.runner import make_ctx
from rules.serpent.state import QueuedDie
from tests.rules.serpent.helpers import Game, book


def duel(
    g: Game,
    white: str = "Fireball x2, Dissolve Tissue x2",
    black: str = "Fireball x2, Dissolve Tissue x2",
    **start: object,
) -> None:
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start", **start)
    g.do("white", "battle join")
    g.do("black", "battle join")


def ctx_of(g: Game) -> Ctx:
    return make_ctx(g.table("gm"), g.state, g.battle)


# ---------------------------------------------------------------- RULING 8


@pytest.mark.parametrize(("discord", "events"), [(7, 15), (12, 55), (19, 97)])
def test_discord_event_odds_are_exact(discord: int, events: int) -> None:
    g = Game()
    duel(g)
    ctx = ctx_of(g)
    white = g.being("White")
    white.harmony = -discord
    hits = 0
    for a, b in product(range(1, 11), repeat=2):
        g.battle.dice.append(QueuedDie(kind="2d10", value=f"{a}+{b}"))
        roll = ctx.threshold_roll(white)
        assert roll.owed and roll.dice == [a, b]
        hits += roll.event
    assert hits == events


def test_discord_and_harmony_events_happen_in_the_initiative_phase_with_their_dice_shown() -> None:
    g = Game()
    duel(g)
    g.being("White").harmony = -12
    g.being("Black").harmony = 8
    g.do("gm", "battle dice", values="2d10=2+3 2d10=3+4")  # in initiative order: Black first
    out = g.do("gm", "battle round", resonance=2)
    text = out.card.description
    assert "Discord check for White (12 Discord): 3 + 4 = 7, less than 12 → **Discord Event**" in text
    assert "Harmony check for Black (8 Harmony): 2 + 3 = 5, less than 8 → **Harmony Event**: gains 1 Will." in text
    assert g.being("White").essence == 12 - 3
    assert g.being("Black").will == 4
    kinds = [e["type"] for e in out.data["events"]]
    assert kinds.index("initiative") < kinds.index("discord")  # rolls follow the initiative order


def test_no_roll_below_seven_and_no_event_at_or_over_the_level() -> None:
    g = Game()
    duel(g)
    g.being("White").harmony = -6
    g.being("Black").harmony = -9
    g.do("gm", "battle dice", values="2d10=4+5")  # 9 is not less than 9
    out = g.do("gm", "battle round", resonance=2)
    assert "check for White" not in out.card.description
    assert "4 + 5 = 9, not less than 9: no event." in out.card.description
    assert g.being("Black").essence == 12


def test_twenty_discord_incapacitates_at_once() -> None:
    g = Game()
    g.do(
        "gm",
        "spell define",
        name="Discord Bolt",
        role="Attack",
        sphere="Soul",
        fluency=1,
        resonance=0,
        dmg="Harmony 20",
    )
    duel(g, white="Fireball", black="Discord Bolt")
    g.do("gm", "battle round", resonance=2, rolloff="Black")
    g.do("black", "prepare", spells="Discord Bolt")
    g.do("white", "prepare", spells="")
    out = g.do("black", "cast", spell="Discord Bolt", target="White")
    assert g.being("White").incapacitated
    assert "reaches 20 Discord" in out.card.description


def test_discord_event_essence_is_a_house_rule() -> None:
    g = Game(discord_event_essence=5)
    duel(g)
    g.being("White").harmony = -12
    g.do("gm", "battle dice", values="2d10=1+1")
    g.do("gm", "battle round", resonance=2)
    assert g.being("White").essence == 7


# ---------------------------------------------------------------- RULING 9


@pytest.mark.parametrize(("die", "gain"), [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3), (10, 5), (0, 5)])
def test_resonance_roll_bands(die: int, gain: int) -> None:
    g = Game()
    duel(g)
    g.do("gm", "battle round", resonance=die)
    assert g.being("White").resonance == gain == g.being("Black").resonance


def test_overload_costs_harmony_except_in_basic_play_and_for_beings_without_harmony() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start", mode="encounter")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.do("gm", "battle round", resonance=10)
    assert g.being("White").harmony == -1 == g.being("Black").harmony
    shadow = g.being("Sentient Shadow")
    assert shadow.harmony is None
    assert shadow.resonance == 5 + 1 + 1  # the roll, its bonus, +1 for the extra Magi (not easy)

    basic = Game(basic_play=True)
    duel(basic)
    basic.do("gm", "battle round", resonance=10)
    assert basic.being("White").harmony == 0


def test_encounter_bonus_without_scaling_in_easy_mode() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start", mode="encounter", easy=True)
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.do("gm", "battle round", resonance=10)
    shadow = g.being("Sentient Shadow")
    assert (shadow.resonance, shadow.essence, shadow.actions_per_round) == (6, 10, 2)


# ---------------------------------------------------------------- RULING 10


def order(g: Game) -> list[str]:
    return [g.battle.beings[k].name for k in g.battle.order]


@pytest.mark.parametrize(
    ("white", "black", "first"),
    [
        ({"harmony": -1}, {"harmony": 0}, "Black"),
        ({"harmony": 2, "resonance": 0}, {"harmony": 1, "resonance": 9}, "White"),  # Harmony before Resonance
        ({"resonance": 4}, {"resonance": 1}, "White"),
        ({"will": 1}, {"will": 3}, "Black"),
        ({"will": 3, "essence": 5}, {"will": 2, "essence": 12}, "White"),  # Will before Essence
        ({"essence": 11}, {"essence": 12}, "Black"),
    ],
)
def test_initiative_harmony_then_resonance_will_essence(
    white: dict[str, int], black: dict[str, int], first: str
) -> None:
    g = Game()
    duel(g)
    for name, values in (("White", white), ("Black", black)):
        for field, value in values.items():
            setattr(g.being(name), field, value)
    g.do("gm", "battle round", resonance=2)
    assert order(g)[0] == first


def test_initiative_roll_off_on_a_full_tie_uses_dice_or_the_gm() -> None:
    g = Game()
    duel(g)
    g.do("gm", "battle dice", values="d10=2 d10=9")  # White rolls 2, Black 9 (join order)
    out = g.do("gm", "battle round", resonance=2)
    assert order(g) == ["Black", "White"]
    assert "Initiative roll-off: White 2, Black 9." in out.card.description
    g2 = Game()
    duel(g2)
    g2.do("gm", "battle round", resonance=2, rolloff="White")
    assert order(g2) == ["White", "Black"]


def test_encounter_counts_zero_harmony_and_basic_play_uses_resonance_then_essence() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("gm", "battle start", mode="encounter", easy=True)
    g.do("white", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.being("White").harmony = 1
    g.do("gm", "battle round", resonance=2)
    assert order(g) == ["White", "Sentient Shadow"]

    basic = Game(basic_play=True)
    duel(basic)
    basic.being("White").harmony = 5
    basic.being("Black").essence = 11
    basic.do("gm", "battle round", resonance=2)
    assert order(basic) == ["White", "Black"]  # Harmony ignored: tie on Resonance, White has more Essence


# ---------------------------------------------------------------- RULING 11


def test_essence_never_rises_above_the_start_and_resonance_never_below_zero() -> None:
    g = Game()
    g.do("gm", "spell define", name="Mending", role="Enhance", sphere="Bio", fluency=1, resonance=0, infusion="5")
    g.do("gm", "spell define", name="Drain", role="Attack", sphere="Mind", fluency=1, resonance=0, dmg="Resonance 9")
    duel(g, white="Mending", black="Drain")
    g.do("gm", "battle round", resonance=2, rolloff="White")
    g.being("White").essence = 10
    g.do("white", "prepare", spells="Mending")
    g.do("black", "prepare", spells="Drain")
    out = g.do("white", "cast", spell="Mending")
    assert g.being("White").essence == 12
    assert "capped at starting Essence" in out.card.description
    g.do("black", "cast", spell="Drain", target="White")
    assert g.being("White").resonance == 0


def test_one_energy_exchange_per_round() -> None:
    g = Game()
    duel(g)
    g.do("gm", "battle round", resonance=2)
    g.do("white", "exchange", gain="Resonance")
    assert (g.being("White").resonance, g.being("White").will) == (1 + 3, 2)
    with pytest.raises(RuleError, match="already made this round's energy exchange"):
        g.do("white", "exchange", gain="Essence")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    g.do("gm", "battle round", resonance=2)
    g.do("white", "exchange", gain="Harmony")  # a new round, a new exchange
    assert g.being("White").harmony == 2
    with pytest.raises(RuleError, match="needs 10 Voice"):
        g.do("black", "exchange", give="Voice", gain="Will")


def test_two_full_actions_per_round() -> None:
    g = Game()
    duel(g)
    g.do("gm", "battle round", resonance=2, rolloff="White")
    g.do("white", "prepare", spells="Dissolve Tissue x2")
    g.do("black", "prepare", spells="")
    g.do("white", "meditate")
    g.do("black", "meditate")
    g.do("white", "meditate")
    g.do("black", "end-turn")
    # White's Full Actions are spent; with no Free Action left the round ends by itself
    assert g.battle.phase == "round_end"
    assert g.being("White").resonance == 1 + 2 + 2


def test_four_enhancement_slots_count_the_specialization() -> None:
    g = Game()
    g.do("gm", "spell define", name="Ward Sigil", role="Enhance", sphere="Mind", fluency=1, resonance=0, duration="P")
    g.do(
        "white",
        "magi create",
        name="White",
        codex="Ward Sigil x3, Flame Form",
        specialization="Chant of Forms",
        artifact="Lantern",
    )
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "spell define", name="Flame Form", resonance=-3)
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Ward Sigil x3")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Ward Sigil")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Ward Sigil")  # Spec + Artifact + 2 spells = 4 slots
    assert len(g.in_play("Ward Sigil")) == 2
    g.do("white", "exchange", gain="Resonance")
    g.do("gm", "battle round", resonance=2)
    g.do("white", "prepare", spells="Ward Sigil, Flame Form")
    g.do("gm", "battle round")
    out = g.do("white", "cast", spell="Ward Sigil")  # a fifth: the oldest Enhancement goes
    assert len(g.in_play("Ward Sigil")) == 2
    assert "has only 4 Enhancement slots" in out.card.description


def test_laws_of_the_codex() -> None:
    b = book()
    check_codex(b, {}, ["Fireball"] * 3)
    with pytest.raises(RuleError, match="at most 3 per title"):
        check_codex(b, {}, ["Fireball"] * 4)
    with pytest.raises(RuleError, match="Unique to Codex"):
        check_codex(b, {}, ["Universum Negation"] * 2)
    with pytest.raises(RuleError, match="at most 27"):
        check_codex(b, {}, [s.title for s in b.spells.spell if not s.unique_to_codex] * 2)  # 32 spells
    g = Game()
    for i in range(6):
        g.do("gm", "spell define", name=f"High {i}", role="Attack", sphere="Mind", fluency=3, resonance=-1, dmg="1")
    g.do("gm", "spell define", name="Deep 1", role="Attack", sphere="Mind", fluency=4, resonance=-1, dmg="1")
    with pytest.raises(RuleError, match="6 spells of fluency 3; at most 5"):
        g.do("white", "magi create", name="White", codex=", ".join(f"High {i}" for i in range(6)))
    with pytest.raises(RuleError, match="3 spells of fluency 4; at most 2"):
        g.do("white", "magi create", name="White", codex="Deep 1 x3")
    g.do("white", "magi create", name="White", codex="High 0, High 1, High 2, High 3, High 4, Deep 1 x2")


def test_at_most_two_interrupt_stones() -> None:
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do(
        "gm",
        "spell define",
        name="Deflect",
        role="Abjuration",
        sphere="Soul",
        fluency=1,
        resonance=0,
        aspects="Response",
        dispel="manifesting to discard",
    )
    duel(g, white="Dissolve Tissue x3", black="Universum Negation, Deflect")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Dissolve Tissue x3")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Dissolve Tissue", target="Black")
    g.do("black", "respond", spell="Deflect", target="Dissolve Tissue")
    assert g.being("Black").stones == 1
    g.being("Black").stones = 2
    g.do("black", "exchange", gain="Resonance")
    g.do("black", "end-turn")
    g.do("white", "cast", spell="Dissolve Tissue", target="Black")
    # two stones: Black can no longer answer with a Response that is not a Free Action, so no window opens
    assert not g.battle.stack
    assert g.being("Black").essence == 11
