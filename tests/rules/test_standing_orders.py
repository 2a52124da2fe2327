"""Standing orders at the rules level: which wait each ruleset's order covers, what it runs, and what it refuses.

The console and Discord halves (the order run as the player at a deadline) are tests/bot/test_orders.py.
"""

from __future__ import annotations

import pytest

from rules.base import Actor, RuleError, StandingOrder, Wait
from rules.realm import RULESET as REALM
from rules.serpent import RULESET as SERPENT
from tests.rules.realm.helpers import OZ_ID, duel


def _wait(key: str, who: str, kind: str = "turn") -> Wait:
    return Wait(key=key, user_id=5, who=who, what="…", kind=kind)  # type: ignore[arg-type]


def test_serpent_pass_covers_windows_and_end_turns_covers_turns_too() -> None:
    window, turn = _wait("window 8: Grey", "Grey", "response"), _wait("round 1 turn 3: Grey", "Grey")
    prepare = _wait("round 1 prepare: Grey", "Grey")
    passing, ending = StandingOrder(order="pass"), StandingOrder(order="end-turns")
    ran = SERPENT.run_order(None, window, passing)  # type: ignore[arg-type]  # reads the wait alone
    assert ran is not None and (ran.action, ran.options) == ("pass", {"magi": "Grey"})
    assert SERPENT.run_order(None, turn, passing) is None  # type: ignore[arg-type]
    ended = SERPENT.run_order(None, turn, ending)  # type: ignore[arg-type]
    assert ended is not None and (ended.action, ended.options) == ("end-turn", {"magi": "Grey"})
    assert SERPENT.run_order(None, window, ending).action == "pass"  # type: ignore[arg-type,union-attr]
    assert SERPENT.run_order(None, prepare, ending) is None  # type: ignore[arg-type]  # the player's choice alone


def test_realm_maneuver_orders_are_checked_tidied_and_run_on_the_maneuver_wait_only() -> None:
    realm = duel()
    table = realm.table
    table.actor = Actor(user_id=OZ_ID, name="Oz", is_gm=False)
    tidy = REALM.check_order(table, StandingOrder(order="maneuver", option="DUCK  move m4**"))
    assert tidy.option == "duck MOVE M4**"
    assert REALM.check_order(table, StandingOrder(order="maneuver", option="MOVE L3")).option == "dodge MOVE L3"
    with pytest.raises(RuleError, match="Your Move chits: MOVE L3, MOVE M4"):
        REALM.check_order(table, StandingOrder(order="maneuver", option="MOVE M4*"))  # the Wizard's, not the Witch's
    with pytest.raises(RuleError, match="not MAGIC"):
        REALM.check_order(table, StandingOrder(order="maneuver", option="MAGIC V3*"))
    assert REALM.order_choices(table, "maneuver", "duck") == ["duck MOVE L3", "duck MOVE M4**"]
    wait = _wait("combat Cave 1 round 1 maneuver: Witch", "Witch")
    ran = REALM.run_order(table, wait, tidy)
    assert ran is not None and ran.action == "combat maneuver"
    assert ran.options == {"who": "Witch", "maneuver": "duck", "chit": "MOVE M4**", "clearing": "Cave 1"}
    assert REALM.run_order(table, _wait("combat Cave 1 round 1 encounter: Witch", "Witch"), tidy) is None
    with pytest.raises(RuleError, match="Wizard has no chit MOVE M4"):
        REALM.run_order(table, _wait("combat Cave 1 round 1 maneuver: Wizard", "Wizard"), tidy)
