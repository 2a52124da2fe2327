"""The saga scenario replayed: after every post, the stored game waits on its player for the next one."""

from __future__ import annotations

from pathlib import Path

from tests.integration.runic.waits_replay import replay


def test_the_sample_game_waits_on_the_player_post_by_post(tmp_path: Path, registry) -> None:
    steps = replay(tmp_path, registry, "saga_sample_game.txt", seed=7)
    started = next(i for i, s in enumerate(steps) if s.line.startswith("/saga start"))
    assert all(s.waits == [] for s in steps[:started])
    keys = [w.key for s in steps for w in s.waits]
    for key in ("turn 1 step 1", "turn 1 step 3", "turn 1 step 8", "turn 1 step 10", "turn 4 battle round 2"):
        assert key in keys, key
    players = {w.user_id for s in steps for w in s.waits}
    assert len(players) == 1 and None not in players  # a solo game: only its player is ever waited on
    # turn 6 ends with an empty hand: `/saga end` asks first (the table still waits), Confirm loses the game
    lost = max(i for i, s in enumerate(steps) if s.line == "@press Confirm")
    assert steps[lost - 1].line == "/saga end" and steps[lost - 1].waits == steps[lost - 2].waits
    for step in steps[started:lost]:
        assert len(step.waits) == 1, step  # one hero: one wait at a time, from the first post to the loss
    assert all(s.waits == [] for s in steps[lost:])  # the game is lost: nobody is waited on any more
