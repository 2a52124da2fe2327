"""The awakened scenario replayed: Shaping windows wait on the mage, a paradox pool on the GM, until the round ends."""

from __future__ import annotations

from pathlib import Path

from tests.integration.runic.waits_replay import replay


def test_the_scene_waits_on_shaping_and_the_paradox_roll(tmp_path: Path, registry) -> None:
    steps = replay(tmp_path, registry, "awakened_scene.txt", seed=9)
    shaped = next(i for i, s in enumerate(steps) if s.line.startswith("/awakened spell shape") and s.ok)
    assert [w.key for w in steps[shaped - 1].waits] == ["shaping: Ash scene 1 round 1"]
    assert [w.key for w in steps[shaped].waits] == ["scene 1 round 1 paradox"]
    ended = next(i for i, s in enumerate(steps) if s.line.startswith("/awakened time round") and i > shaped)
    assert [w.key for w in steps[ended].waits] == ["expiring: Ash #1 scene 1 round 2"]  # sustain it, or it lapses
    assert any(w.user_id is not None for s in steps for w in s.waits)
