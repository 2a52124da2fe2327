"""Casting and its payment: the Gnosis limit (M20), free Mana (M35, P-G7 to P-G9), W2, and a spell's life (M36)."""

from __future__ import annotations

import json

import pytest

from rules.awakened.sheet import AwakenedSettings
from rules.base import RuleError
from tests.rules.awakened.conftest import Game

SIX = {"spell": "Storm", "arcana": "Forces", "aspect": "vulgar", "area": 2, "targets": 4}  # 2 + 2 + 2 = 6


def test_w2_gnosis_3_pays_6_with_own_mana_a_word_and_two_wounds(game: Game) -> None:
    sheet = game.mage()
    out = game.act("spell cast", words_of_power=1, scour=2, **SIX)
    assert out.data["cost"] == 6
    assert out.data["paid"] | {} == {
        "due": 6,
        "own": 3,
        "words_of_power": 1,
        "scour": 2,
        "hallow": None,
        "hallow_mana": 0,
        "mana_before": 15,
        "mana_after": 12,
    }
    assert (sheet.mana, sheet.willpower) == (12, 4)
    assert [(w.kind, w.resistant) for w in sheet.wounds] == [("lethal", True), ("lethal", True)]
    with pytest.raises(RuleError) as too_big:  # "too powerful for the mage to sustain": on its own, not for room
        game.act("spell sustain", spell="#1")
    assert "#1 Storm costs 6, more than Ash's Gnosis 3" in str(too_big.value)
    assert "this one can't be sustained even alone" in str(too_big.value)
    assert "Dismiss" not in str(too_big.value) and "`/awakened spell reduce spell:#1`" in str(too_big.value)
    assert out.data["spell"]["status"] == "running"  # it lasts until the start of the caster's next turn


def test_the_gnosis_limit_names_the_free_mana_missing(game: Game) -> None:
    sheet = game.mage()
    with pytest.raises(RuleError, match=r"at most 3 of their own Mana at once .* needs 5 .* Add 2 more free Mana"):
        game.act("spell cast", words_of_power=1, **SIX)
    assert (sheet.mana, sheet.willpower, sheet.spells, sheet.wounds) == (15, 5, [], [])


def test_free_mana_sources_are_checked(game: Game) -> None:
    sheet = game.mage(high_speech=False, health=2)
    with pytest.raises(RuleError, match="no High Speech training"):
        game.act("spell cast", words_of_power=1, **SIX)
    with pytest.raises(RuleError, match="2 empty or bashing health boxes"):
        game.act("spell cast", scour=3, **SIX)
    with pytest.raises(RuleError, match="There is no Hallow named 'Nowhere'"):
        game.act("spell cast", hallow="Nowhere", **SIX)
    with pytest.raises(RuleError, match="more than it needs"):
        game.act("spell cast", spell="S", arcana="Forces", aspect="covert", scour=2)
    game.gm("gm hallow", name="Grove", rating=2)
    game.act("spell cast", hallow="grove", scour=2, **SIX)  # 1 from the Hallow, 2 scoured, 3 own
    assert sheet.mana == 12 and sheet.state == "unconscious" and sheet.scoured_out  # incapacitated, not bleeding


def test_words_of_power_per_payment_is_a_house_rule(book) -> None:
    game = Game(book, AwakenedSettings(words_of_power_per_payment=2))
    sheet = game.mage()
    game.act("spell cast", words_of_power=2, scour=1, **SIX)
    assert (sheet.mana, sheet.willpower) == (12, 3)
    with pytest.raises(RuleError, match="At most 1 Word"):
        strict = Game(book)
        strict.mage()
        strict.act("spell cast", words_of_power=2, scour=1, **SIX)


def test_mana_short_is_refused(game: Game) -> None:
    game.mage(mana_max=2)
    with pytest.raises(RuleError, match="has 2 Mana; the spell needs 3"):
        game.act("spell cast", words_of_power=1, scour=2, **SIX)


def test_sustain_limit_and_w4_dismiss_reduce_then_sustain(game: Game) -> None:
    sheet = game.mage()
    for name in ("A", "B"):
        game.act("spell cast", spell=name, arcana="Forces", aspect="covert")  # cost 1 each
        game.act("spell sustain", spell=name)
    game.act("spell cast", spell="C", arcana="Forces", aspect="covert", targets=3)  # 1 + 2 = 3
    with pytest.raises(RuleError, match=r"sustains 2 Mana .* room for 1, and #3 C costs 3"):
        game.act("spell sustain", spell="C")
    game.act("spell dismiss", spell="A")
    game.act("spell dismiss", spell="#2")
    reduced = game.act("spell reduce", spell="C", targets=1)  # 1 + 0
    assert (reduced.data["cost_before"], reduced.data["spell"]["cost"]) == (3, 1)
    with pytest.raises(RuleError, match="Reducing can't add"):
        game.act("spell reduce", spell="C", targets=2)
    game.act("spell sustain", spell="C")
    assert [(s.design.name, s.status) for s in sheet.spells] == [("C", "sustained")]


def test_reduced_successes_restore_but_factors_do_not(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="C", arcana="Forces", aspect="covert", targets=2)
    out = game.act("spell reduce", spell="C", strength=1)
    assert out.data["spell"]["strength"] == 1 and out.data["spell"]["cost"] == 2
    assert game.act("spell reduce", spell="C", restore=True).data["spell"]["strength"] is None


def test_spells_expire_at_the_next_turn_unless_sustained_or_refreshed(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", spell="Run", arcana="Forces", aspect="covert")
    game.act("spell cast", spell="Keep", arcana="Forces", aspect="covert")
    game.act("spell sustain", spell="Keep")
    first = game.gm("time round")
    assert "Ash: #1 Run: reaches its end; sustain or refresh it this turn or it ends" in first.data["lapsed"]
    game.act("spell refresh", spell="Run")  # repays 1 and runs another round
    assert sheet.mana == 15 - 1 - 1 - 1 and sheet.spells[0].window == (1, 2)
    game.gm("time round")
    ended = game.gm("time round")
    assert "Ash: #1 Run: ended (not sustained or refreshed)" in ended.data["lapsed"]
    assert [s.design.name for s in sheet.spells] == ["Keep"]
    scene = game.gm("time scene")
    assert "Ash: #2 Keep: the scene's sustain ends; refresh it now to keep it" in scene.data["lapsed"]


def test_free_spells_stay_on_through_scenes(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", spell="Life Sight", arcana="Life", aspect="sensory")  # ruling Arcana: free
    assert sheet.spells[0].status == "sustained" and sheet.spells[0].cost == 0
    game.gm("time scene")
    assert sheet.spells[0].status == "sustained"


def test_casting_needs_a_conscious_mage_with_gnosis(game: Game) -> None:
    game.mage()
    game.gm("gm adjust", character="Ash", field="state", value=1, reason="knocked out")
    with pytest.raises(RuleError, match="must be conscious"):
        game.act("spell cast", spell="S", arcana="Forces", aspect="covert")
    game.gm("gm adjust", character="Ash", field="state", value=0, reason="wakes")
    game.gm("gm adjust", character="Ash", field="gnosis", value=0, reason="soul loss")
    with pytest.raises(RuleError, match="Gnosis 0"):
        game.act("spell cast", spell="S", arcana="Forces", aspect="covert")


def test_contingency_is_paid_when_it_triggers(game: Game) -> None:
    sheet = game.mage()
    game.act("spell cast", mode="contingency", spell="Flash", arcana="Forces", aspect="vulgar")
    assert sheet.contingency is not None and sheet.mana == 15
    with pytest.raises(RuleError, match="one at a time"):
        game.act("spell cast", mode="contingency", spell="Again", arcana="Forces", aspect="vulgar")
    out = game.act("spell contingency", mode="trigger")
    assert out.data["cost"] == 2 and sheet.mana == 13 and sheet.contingency is None
    no_time = Game(game.table.book)
    no_time.mage(arcana="Forces 3")
    with pytest.raises(RuleError, match="needs Time 2"):
        no_time.act("spell cast", mode="contingency", spell="Flash", arcana="Forces", aspect="vulgar")


def test_a_vulgar_cast_marks_paradox_and_a_covert_one_warns_of_standing_paradox(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="V", arcana="Forces", aspect="vulgar")
    assert game.state.paradox_marks == ["Ash: #1 V"] and game.state.paradox_pool == []
    game.gm("gm paradox", mode="declare", kind="anomaly", where="the docks")
    out = game.act("spell cast", spell="C", arcana="Forces", aspect="covert")
    assert any("Standing paradox (Anomaly)" in note for note in out.data["notes"])


def test_sympathy_connections_wear_and_heal(game: Game) -> None:
    sheet = game.mage()
    game.act("sympathy", subject="Mara", level="known")
    out = game.act(
        "spell cast",
        spell="Hex",
        arcana="Forces",
        aspect="covert",
        connection="Mara",
        unwilling=True,
        conjunctional="Space",
    )
    assert out.data["spell"]["design"]["factors"]["sympathy"] == 2
    assert sheet.connections["mara"].level == 3  # Known → Acquainted
    game.act("spell dismiss", spell="all")
    game.gm("time day")  # touched today: no healing yet
    assert sheet.connections["mara"].level == 3
    game.gm("time day")
    assert sheet.connections["mara"].level == 2
    game.gm("time day")
    assert sheet.connections["mara"].level == 2  # never past where it began


def test_lower_gnosis_ends_the_newest_sustained_spells(game: Game) -> None:
    sheet = game.mage()
    for name in ("Old", "New"):
        game.act("spell cast", spell=name, arcana="Forces", aspect="covert", targets=2)  # 1 + 1 target factor = 2
        if name == "Old":
            game.act("spell sustain", spell=name)
    game.act("spell cast", spell="Tiny", arcana="Forces", aspect="covert")
    game.act("spell sustain", spell="Tiny")  # 2 + 1 = 3 = Gnosis
    out = game.gm("gm adjust", character="Ash", field="gnosis", value=2, reason="soul loss")
    assert "newest first" in out.card.fields[-1].value
    assert [s.design.name for s in sheet.spells if s.status == "sustained"] == ["Old"]


def test_a_standing_paradox_declared_for_a_time_counts_down_and_fades(game: Game) -> None:
    game.gm("gm paradox", mode="declare", kind="anomaly", where="the docks", lasts=2, unit="round")
    game.gm("gm paradox", mode="declare", kind="corona", lasts=1, unit="scene")
    game.gm("gm paradox", mode="declare", kind="aurora", lasts=3, unit="day")
    game.gm("gm paradox", mode="declare", kind="maelstrom", duration="until the moon sets")
    assert game.gm("time round").data["lapsed"] == []
    assert [p.lasts for p in game.state.paradoxes] == [1, 1, 3, None]
    faded = game.gm("time round").data["lapsed"]
    assert faded == ["Paradox #1 (Anomaly at the docks) fades"]
    assert "Paradox #2 (Corona) fades" in game.gm("time scene").data["lapsed"]
    assert "Paradox #3 (Aurora) fades" in game.gm("time day", days=3).data["lines"]
    assert [p.kind for p in game.state.paradoxes] == ["Maelstrom"]  # the GM's own duration waits for the GM


def test_a_paradox_duration_needs_both_its_count_and_its_unit(game: Game) -> None:
    with pytest.raises(RuleError, match="both `lasts` and `unit`"):
        game.gm("gm paradox", mode="declare", kind="anomaly", lasts=2)
    assert game.state.paradoxes == []


def test_a_refresh_keeps_only_targets_in_sight_or_still_reached_by_sympathy(game: Game) -> None:
    """l.300: "Targets out of the caster's sight and whose sympathy … has degraded beyond the spell's allotted
    therefore cease to be affected"; the named connection is the one sympathy can still reach."""
    sheet = game.mage(gnosis=10)
    game.act("sympathy", subject="Mara", level="known")
    game.act(
        "spell cast", spell="Hex", arcana="Forces", aspect="covert", connection="Mara", unwilling=True,
        conjunctional="Space", sympathy="acquainted", targets=3,
    )  # fmt: skip
    sheet = game.sheet()
    hex_spell = sheet.spells[-1]
    assert hex_spell.design.factors.sympathy == 3 and sheet.connections["mara"].level == 3
    sheet.mana_max_base = sheet.mana = 30
    first = game.act("spell refresh", spell="Hex", out_of_sight=2)
    assert hex_spell.design.factors.targets == 2  # Mara still reached; the other one out of sight is lost
    assert any("still reaches" in note for note in first.private_data["notes"])  # whom: the owner's and GM's
    assert "Mara" not in json.dumps(first.data) and "Mara" not in str(first.card)
    assert sheet.connections["mara"].level == 4  # the refresh wore it (P-G33)
    second = game.act("spell refresh", spell="Hex", out_of_sight=1)
    assert any("worn beyond" in note for note in second.private_data["notes"])
    assert hex_spell.design.factors.targets == 1
    with pytest.raises(RuleError, match="cannot be out of sight"):
        game.act("spell refresh", spell="Hex", out_of_sight=2)
    game.act("spell refresh", spell="Hex", out_of_sight=1)
    assert hex_spell not in sheet.spells  # nobody left to affect: it ends
