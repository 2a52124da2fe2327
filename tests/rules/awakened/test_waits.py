"""Who an awakened table waits on: the GM's paradox roll, open Shaping windows, and crisis rolls owed."""

from __future__ import annotations

import pytest

from rules.awakened import RULESET
from rules.base import RuleError, StandingOrder, Wait
from tests.rules.awakened.conftest import OTHER, PLAYER, Game
from tests.rules.awakened.test_shaping import failing


def waits(game: Game) -> list[Wait]:
    return RULESET.waits(game.table)


def keys(game: Game) -> list[str]:
    return [w.key for w in waits(game)]


def test_a_quiet_table_waits_on_nobody(game: Game) -> None:
    game.mage()
    assert waits(game) == []
    game.act("spell cast", spell="See", arcana="Life", aspect="sensory")  # can't be Shaped (l.237)
    assert waits(game) == []


def test_a_shaping_window_waits_until_shaped_or_the_round_ends(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    [window] = waits(game)
    assert (window.key, window.user_id, window.who, window.kind) == (
        "shaping: Ash scene 1 round 1",
        PLAYER,
        "Ash",
        "turn",
    )
    assert window.what == "Shape #1 Veil now, or let the Shaping window close (scene 1, round 1)"
    assert window.commands == ["/awakened spell shape"] and window.on_deadline is None
    game.act("spell sustain", spell="Veil")  # still in its window: the same wait goes on
    assert waits(game) == [window]
    game.act("spell shape", spell="Veil", rolls=failing(6))
    assert waits(game) == []  # Shaped: covert, so no paradox dice either
    game.act("spell refresh", spell="Veil")
    assert waits(game) == []  # refreshed in the round it was Shaped: the Shaping stands for this round
    game.gm("time round")
    assert keys(game) == ["expiring: Ash #1 scene 1 round 2"]  # refreshed, so no longer sustained: it expires
    game.act("spell refresh", spell="Veil")  # a new window, a new wait; no longer expiring
    assert keys(game) == ["shaping: Ash scene 1 round 2"]
    game.act("spell cast", spell="Mend", arcana="Life", aspect="covert")
    game.act("spell cast", spell="Sense", arcana="Life", aspect="covert")
    [three] = waits(game)  # one wait per mage and round: it goes on, naming every open window
    assert three.key == "shaping: Ash scene 1 round 2"
    assert three.what.startswith("Shape #1 Veil, #2 Mend or #3 Sense now")
    game.act("spell shape", spell="Mend", rolls=failing(6))
    assert waits(game)[0].what.startswith("Shape #1 Veil or #3 Sense now")
    game.gm("time round")
    assert keys(game) == [f"expiring: Ash #{n} scene 1 round 3" for n in (1, 2, 3)]  # windows closed unshaped


def test_the_paradox_pool_waits_on_the_gm_until_the_round_ends(game: Game) -> None:
    game.mage()
    game.mage("Bex", arcana="Forces 3, Life 3")
    game.table.characters["bex"].owner_id = OTHER
    game.act("spell cast", spell="Blast", arcana="Forces", aspect="vulgar")
    game.act("spell cast", spell="Flare", arcana="Forces", aspect="vulgar", mage="Bex", user=OTHER)
    assert keys(game) == ["shaping: Ash scene 1 round 1", "shaping: Bex scene 1 round 1"]
    assert [w.user_id for w in waits(game)] == [PLAYER, OTHER]
    game.act("spell shape", spell="Blast", rolls=failing(9))
    paradox, bex = waits(game)
    assert (paradox.key, paradox.user_id, paradox.who, paradox.kind) == ("scene 1 round 1 paradox", None, "GM", "gm")
    assert paradox.what == "end the round: roll the paradox pool (3 dice; scene 1, round 1)"
    assert paradox.commands == ["/awakened time round"]
    assert bex.key == "shaping: Bex scene 1 round 1" and bex.who == "Bex"
    game.act("spell shape", spell="Flare", mage="Bex", user=OTHER, rolls=failing(9))
    [paradox6] = waits(game)
    assert paradox6.key == paradox.key and "6 dice" in paradox6.what  # the same wait, a bigger pool
    game.gm("time round", rolls=[1] * 6)
    assert keys(game) == ["expiring: Ash #1 scene 1 round 2", "expiring: Bex #2 scene 1 round 2"]  # no paradox wait


def test_a_crisis_roll_owed_waits_on_the_mage(game: Game) -> None:
    sheet = game.mage()
    game.gm("crisis", mage="Ash", mode="start", pool=3)
    [owed] = waits(game)
    assert (owed.key, owed.user_id, owed.who) == ("crisis roll: Ash after 0 roll(s)", PLAYER, "Ash")
    assert owed.what == "roll the Wisdom crisis" and owed.commands == ["/awakened crisis"]  # no pool: sheet-only
    game.act("crisis", mode="roll", rolls=[1, 2, 3])
    assert waits(game) == [] and sheet.crisis.failures == 1
    with pytest.raises(RuleError, match="needs the GM"):
        game.act("crisis", mode="call")
    game.gm("crisis", mage="Ash", mode="call")
    assert keys(game) == ["crisis roll: Ash after 1 roll(s)"]  # a new roll owed: a new wait
    with pytest.raises(RuleError, match="already owes a crisis roll"):
        game.gm("crisis", mage="Ash", mode="call")
    game.act("crisis", mode="roll", rolls=[9, 1, 1])
    assert waits(game) == [] and sheet.crisis.successes == 1
    game.gm("crisis", mage="Ash", mode="replace", pool=2)
    assert keys(game) == ["crisis roll: Ash after 1 roll(s)"]  # failures carried, successes reset (l.34)
    game.gm("crisis", mage="Ash", mode="end")
    assert waits(game) == []
    with pytest.raises(RuleError, match="not in crisis"):
        game.gm("crisis", mage="Ash", mode="call")


def test_an_unconscious_mage_is_not_waited_on(game: Game) -> None:
    sheet = game.mage()
    game.gm("crisis", mage="Ash", mode="start", pool=3)
    sheet.state = "unconscious"
    assert waits(game) == []


def _wait(key: str) -> Wait:
    return Wait(key=key, user_id=PLAYER, who="Ash", what="…")


def test_standing_orders_cover_only_an_expiring_spell_that_is_still_expiring(game: Game) -> None:
    game.mage()
    game.act("spell cast", spell="Veil", arcana="Life", aspect="covert")
    wait = _wait("expiring: Ash #1 scene 1 round 2")
    with pytest.raises(RuleError, match="no longer has that spell about to lapse"):  # still running, not expiring
        RULESET.run_order(game.table, wait, StandingOrder(order="sustain"))
    game.gm("time round")
    sustain = RULESET.run_order(game.table, wait, StandingOrder(order="sustain"))
    assert sustain is not None and (sustain.action, sustain.options) == (
        "spell sustain",
        {"spell": "#1", "mage": "Ash"},
    )
    lapse = RULESET.run_order(game.table, wait, StandingOrder(order="lapse"))
    assert lapse is not None and lapse.action is None and "#1 Veil is left to lapse" in lapse.says
    assert RULESET.run_order(game.table, _wait("shaping: Ash scene 1 round 2"), StandingOrder(order="sustain")) is None
