"""The realm scenario replayed: every combat step waits on a character or the GM, and daylight on nobody."""

from __future__ import annotations

from pathlib import Path

from tests.integration.runic.waits_replay import replay


def test_three_days_wait_on_the_right_people(tmp_path: Path, registry) -> None:
    steps = replay(tmp_path, registry, "realm_three_days.txt", seed=10)
    keys = [w.key for s in steps for w in s.waits]
    for key in (
        "combat Ruins 5 round 1 encounter: Wizard",
        "combat Ruins 5 round 1 melee",
        "combat Ruins 5 round 1 target #1",
        "combat Ruins 5 round 1 resolve",
        "combat Ruins 5 round 1 next",
        "day 13 evening",
        "day 14 night",
    ):
        assert key in keys, key
    for step in steps:
        if step.ok and step.line.startswith("/realm day next"):
            assert step.waits == [], step  # a new day's daylight: the state cannot know who still has phases
        if step.ok and step.line.startswith("/realm combat melee"):  # the casters' targets, else the GM resolves
            now = [w.key for w in step.waits]
            assert now and (all(" target #" in k for k in now) or (len(now) == 1 and now[0].endswith(" resolve")))
