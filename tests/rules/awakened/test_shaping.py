"""Shaping (M29-M32, P-G5, P-G6), rituals, and the round's paradox pool and roll (M33, P-G12, P-G13)."""

from __future__ import annotations

import pytest

from rules.awakened.sheet import AwakenedSettings
from rules.base import NeedsGMError, RuleError
from tests.rules.awakened.conftest import ASH, Game

ONES = [1] * 30


def failing(pool: int) -> list[int]:
    """A pool where every die fails and every rote reroll fails: 0 successes."""
    return [1] * (2 * pool)


def test_vulgar_shaping_pool_again_rote_and_paradox(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", spell="Blast", arcana="Forces", aspect="vulgar")
    # 9 dice: the first shows 8 and explodes (8-again) into 2; the other eight fail and are rerolled once (rote).
    out = game.act("spell shape", spell="Blast", rolls=[8, 1, 1, 1, 1, 1, 1, 1, 1, 2, 9, 1, 1, 1, 1, 1, 1, 3, 4])
    roll = out.data["roll"]
    assert (roll["pool"], roll["again"], roll["rote"]) == (9, 8, True)
    assert roll["dice"][0] == {"faces": [8, 2], "rote_faces": []}
    assert roll["dice"][1] == {"faces": [1], "rote_faces": [9, 4]}  # the reroll explodes too
    assert out.data["successes"] == 2 and (out.data["potency"], out.data["tenacity"]) == (5, 5)
    assert out.data["paid"]["due"] == 2  # Forces is a common Arcanum for a Thyrsus (P-G5)
    assert sheet.mana == 15 - 2 - 2
    assert [(p.caster, p.dice) for p in game.state.paradox_pool] == [("Ash", 3)]


def test_covert_pool_and_willpower(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    out = game.act("spell shape", spell="Veil", willpower=True, rolls=failing(9))
    assert (out.data["roll"]["pool"], out.data["roll"]["again"]) == (2 * 3 + 3, 9)
    assert out.data["paid"]["due"] == 1  # improvised, ruling Arcana only
    assert sheet.willpower == 4 and game.state.paradox_pool == []  # covert: no paradox dice


@pytest.mark.parametrize(
    ("arcana", "method", "due"),
    [
        ("Life", "improvised", 1),
        ("Life, Forces", "improvised", 2),
        ("Life, Matter", "improvised", 3),
        ("Matter", "rote", 1),
    ],
)
def test_shaping_cost_by_familiarity(game: Game, arcana: str, method: str, due: int) -> None:
    game.mage(arcana="Forces 3, Life 3, Spirit 3, Matter 1")
    if method == "rote":
        game.act("spell cast", mode="rote", spell="S", arcana=arcana, aspect="covert")
    game.act("spell cast", spell="S", arcana=arcana, aspect="covert", method=method)
    assert game.act("spell shape", spell="S", rolls=failing(6)).data["paid"]["due"] == due


def test_shaping_window_and_sensory_spells(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="See", arcana="Life", aspect="sensory")
    with pytest.raises(RuleError, match="Sensory spells can't be Shaped"):
        game.act("spell shape", spell="See")
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    game.act("spell sustain", spell="Veil")
    game.gm("time round")
    with pytest.raises(RuleError, match="only be Shaped in the turn it was cast or refreshed") as refused:
        game.act("spell shape", spell="Veil")
    assert "Refresh it this turn for its full cost, 1 Mana (`/awakened spell refresh spell:#2`)" in str(refused.value)
    game.act("spell refresh", spell="Veil")
    assert game.act("spell shape", spell="Veil", rolls=failing(6)).data["successes"] == 0


def test_reflexive_shaping_raises_tenacity_only_and_each_roll_overwrites(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Ward", arcana="Life", aspect="covert")
    first = game.act("spell shape", spell="Ward", rolls=[8, 8, 1, 1, 1, 1, 1, 1, 1, 1])
    assert (first.data["potency"], first.data["tenacity"]) == (4, 4)
    second = game.act("spell shape", spell="Ward", action="reflexive", rolls=[8] + [1] * 5 + [1] * 5)
    assert (second.data["potency"], second.data["tenacity"]) == (2, 3)
    lapsed = game.gm("time round").data["lapsed"]
    assert "Ash: #1 Ward: Tenacity back to base" in lapsed


def test_replaced_action_counts_the_new_potency(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Blast", arcana="Forces", aspect="vulgar")
    out = game.act(
        "spell shape", spell="Blast", replaces="Strength + Brawl", rolls=[8, 8, 1, 1, 1, 1, 1, 1, 1, 3, 3] + [1] * 7
    )
    assert "it counts as **5** successes (an exceptional success)" in out.card.fields[-1].value


def test_gnosis_limit_on_shaping_is_a_house_rule(book) -> None:
    game = Game(book)
    sheet = game.mage(gnosis=2, arcana="Forces 3, Life 3, Matter 2")
    game.act("spell cast", spell="S", arcana="Matter", aspect="covert")
    with pytest.raises(RuleError, match="at most 2 of their own Mana at once"):
        game.act("spell shape", spell="S")
    loose = Game(book, AwakenedSettings(gnosis_limit_on_shaping=False))
    sheet = loose.mage(gnosis=2, arcana="Forces 3, Life 3, Matter 2")
    loose.act("spell cast", spell="S", arcana="Matter", aspect="covert")
    loose.act("spell shape", spell="S", rolls=failing(4))
    assert sheet.mana == 15 - 1 - 3
    with pytest.raises(RuleError, match="not toward Shaping"):
        loose.gm("gm hallow", name="Grove", rating=1)
        loose.act("spell shape", spell="S", hallow="Grove")


def test_a_shaping_over_the_gnosis_limit_suggests_only_what_pays_a_shaping(game: Game) -> None:
    """A Hallow doesn't pay Shaping (P-G8) and reducing a spell doesn't lower its Shaping cost (P-G5)."""
    game.mage(gnosis=1, arcana="Forces 3, Life 3, Matter 2")
    game.act("spell cast", spell="S", arcana="Matter", aspect="covert")  # inferior: Shaping costs 3
    with pytest.raises(RuleError) as refused:
        game.act("spell shape", spell="S")
    text = str(refused.value)
    assert (
        "Add 2 more free Mana: Words of Power (`words_of_power`, up to 1, 1 Willpower each), pattern scouring" in text
    )
    assert "Hallow" not in text and "reduce" not in text and "Nothing makes it cheaper" in text
    plain = game.mage("Bo", gnosis=1, arcana="Matter 2", high_speech=False, health=1)
    game.gm("gm damage", character="Bo", wounds=1, kind="lethal")
    game.gm("spell cast", mage="Bo", spell="T", arcana="Matter", aspect="covert")
    with pytest.raises(RuleError, match=r"No free Mana is open to Bo now\. Nothing makes it cheaper"):
        game.gm("spell shape", mage="Bo", spell="T")
    assert plain.mana == 14  # the cast's 1; the refused Shaping took nothing


def test_ritual_potential_and_shaping(game: Game) -> None:
    sheet = game.mage()
    game.act(
        "spell cast", spell="Rain", arcana="Forces", aspect="vulgar", action="ritual", ritual_note="a bowl; a tree"
    )
    assert sheet.spells[0].potential == 1 and sheet.spells[0].status == "ritual"
    assert game.act("spell ceremony", spell="Rain", hours=5).data["spell"]["potential"] == 3  # at most Gnosis
    out = game.act("spell shape", spell="Rain", rolls=failing(9))
    assert out.data["successes"] == 3  # at least the potential spent
    assert (out.data["potency"], out.data["tenacity"]) == (6, 6)
    with pytest.raises(RuleError, match="already Shaped"):
        game.act("spell shape", spell="Rain")
    with pytest.raises(RuleError, match="another appropriate sacrament"):
        game.act("spell refresh", spell="Rain")
    game.gm("time round", rolls=[1, 1, 1])  # Shaping a vulgar ritual put 3 dice in the paradox pool
    game.gm("time scene")
    assert sheet.spells[0].lasting_tenacity == 3 and sheet.spells[0].tenacity_bonus == 0
    repaid = game.act("spell refresh", spell="Rain", ritual_note="another bowl")
    assert sheet.spells[0].potential == 1 and not sheet.spells[0].shaped_ritual
    shaping = {f.name: f.value for f in repaid.card.fields}["Shaping"]
    assert shaping.startswith("A ritual's Shaping has no window: it gathers potential again (1 now")
    assert "Open this turn" not in shaping


def test_a_refresh_says_when_the_spell_can_be_shaped(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    game.act("spell cast", spell="See", arcana="Life", aspect="sensory", area=1)  # costs 1: not a free spell
    game.gm("time round")
    veil = {f.name: f.value for f in game.act("spell refresh", spell="Veil").card.fields}
    assert veil["Shaping"] == "Open this turn (scene 1, round 2): Shape it before the round ends."
    see = {f.name: f.value for f in game.act("spell refresh", spell="See").card.fields}
    assert see["Shaping"] == "Never: sensory spells can't be Shaped."


def test_a_shaped_ritual_counts_its_successes_until_the_scene_ends_then_its_potential(game: Game) -> None:
    """l.277: Tenacity + successes until the end of the scene; afterwards + the potential spent, never both."""
    game.mage()
    game.act("spell cast", spell="Ward", arcana="Forces", aspect="vulgar", action="ritual", ritual_note="salt")
    game.act("spell ceremony", spell="Ward", hours=2)  # potential 3
    five = [8, 8, 8, 8, 8, 1, 1, 1, 1] + [1] * 5 + [1] * 4  # 5 successes; explosions and rote rerolls fail
    shaped = game.act("spell shape", spell="Ward", rolls=five)
    assert (shaped.data["successes"], shaped.data["tenacity"]) == (5, 8)
    assert "Tenacity 8 until the scene ends, then 6" in shaped.card.fields[-1].value

    def tenacity_now() -> tuple[int, str]:
        contest = game.act("roll", mode="contest", mage="Ash", spell="Ward", successes=0)
        sheet = "\n".join(f.value for f in game.act("mage show").card.fields)
        return contest.data["spell_stands"], sheet

    stands, sheet = tenacity_now()
    assert stands == 8 and "P8/T8" in sheet  # base 3 + 5 successes: not + 3 potential besides
    game.gm("time round", rolls=[1, 1, 1])  # the turn ends: Potency falls back, the scene's Tenacity stands
    stands, sheet = tenacity_now()
    assert stands == 8 and "P3/T8" in sheet
    game.gm("time scene")  # after the scene: base 3 + the 3 potential spent
    stands, sheet = tenacity_now()
    assert stands == 6 and "P3/T6" in sheet
    game.gm("time day")  # it lasts until the ritual ends or is Shaped again
    assert tenacity_now()[0] == 6


def test_round_end_rolls_the_collective_pool_with_gm_dice(game: Game) -> None:
    game.mage()
    game.gm("mage create", **{**ASH, "name": "Bo", "gnosis": 2})
    game.act("spell cast", mage="Ash", spell="A", arcana="Forces", aspect="vulgar")
    game.act("spell shape", mage="Ash", spell="A", rolls=failing(9))
    game.gm("spell cast", mage="Bo", spell="B", arcana="Forces", aspect="vulgar")
    game.gm("spell shape", mage="Bo", spell="B", rolls=failing(6))
    with pytest.raises(NeedsGMError):
        game.act("time round", dice="1 2 3")
    with pytest.raises(RuleError, match="end the round first"):
        game.gm("time scene")
    out = game.gm("time round", tools=1, dice="10 3 8 1 2")
    assert out.data["paradox_dice"] == 5 and out.data["roll"]["pool"] == 4
    assert out.data["roll"]["again"] == 10 and not out.data["roll"]["rote"]
    assert out.data["successes"] == 2  # the pool 10 3 8 1, then the 10's explosion: 2
    assert out.secret is not None and "Ash (Wisdom 5) may inadvertently lengthen no paradox." in out.secret.description
    assert game.state.paradox_pool == [] and game.state.round == 2


def test_no_dice_no_roll_not_even_a_chance_die(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="V", arcana="Forces", aspect="vulgar")  # a mark, 0 dice by default (P-G12)
    out = game.gm("time round")
    assert out.data["roll"] is None and "no chance die" in out.card.fields[-2].value + out.card.fields[-1].value


def test_vulgar_cast_dice_house_rule(book) -> None:
    game = Game(book, AwakenedSettings(vulgar_cast_paradox_dice=2))
    game.mage()
    game.act("spell cast", spell="V", arcana="Forces", aspect="vulgar")
    assert game.gm("time round", dice="1 1").data["roll"]["pool"] == 2


@pytest.mark.parametrize(
    ("wisdom", "kind", "allowed"),
    [
        (5, "Corona", False),
        (4, "Corona", True),
        (4, "Aurora", False),
        (3, "Aurora", True),
        (2, "Anomaly", True),
        (2, "Maelstrom", False),
        (1, "Maelstrom", True),
        (0, "Maelstrom", True),
    ],
)
def test_wisdom_ceiling_on_lengthening(game: Game, wisdom: int, kind: str, allowed: bool) -> None:
    game.mage(wisdom=wisdom)
    out = game.gm("gm paradox", mode="lengthen", kind=kind, character="Ash")
    assert out.data["allowed"] is allowed
    assert "None" not in out.card.description and " a A" not in out.card.description
    if wisdom == 0:
        assert "all, simultaneously" in out.card.description


def test_lengthening_reads_in_plain_words(game: Game) -> None:
    game.mage()
    game.gm("mage create", **{**ASH, "name": "Bo", "wisdom": 3})
    five = game.gm("gm paradox", mode="lengthen", kind="Aurora", character="Ash").card.description
    assert five == "Ash (Wisdom 5: no paradox) may not inadvertently lengthen an Aurora."
    three = game.gm("gm paradox", mode="lengthen", kind="Anomaly", character="Bo").card.description
    assert three == "Bo (Wisdom 3: paradoxes up to an Aurora) may not inadvertently lengthen an Anomaly."
    game.gm("gm adjust", character="Bo", field="wisdom", value=0, reason="degenerated")
    zero = game.gm("gm paradox", mode="lengthen", kind="Corona", character="Bo").card.description
    assert zero == "Bo (Wisdom 0: every paradox) may inadvertently lengthen a Corona. At Wisdom 0: all, simultaneously."


def test_w9_covert_sustained_effects_vulgar_on_casting_and_refresh_turns(game: Game) -> None:
    """A bear-shape: vulgar cost and Disbelief when cast, covert after its first turn, vulgar again when refreshed."""
    sheet = game.mage()
    out = game.act("spell cast", spell="Bear", arcana="Life", aspect="vulgar", covert_sustain=True)
    assert out.data["cost"] == 2 and any("Disbelief" in note for note in out.data["notes"])
    game.act("spell sustain", spell="Bear")
    game.gm("time round")
    view = game.act("mage show").card.fields
    assert "#1 Bear: covert, cost 2, P2/T2, sustained" in "\n".join(f.value for f in view)
    game.act("spell refresh", spell="Bear")
    shaped = game.act("spell shape", spell="Bear", rolls=failing(9))
    assert shaped.data["aspect"] == "vulgar" and shaped.data["roll"]["again"] == 8
    assert sheet.spells[0].cost == 2
