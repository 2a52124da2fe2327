"""The runic scenarios replayed: the waits on every stored state keep the contract, and the held missile shows."""

from __future__ import annotations

from pathlib import Path

from tests.integration.runic.waits_replay import replay


def test_the_battle_scenario_waits_on_the_held_missile_until_it_is_launched(tmp_path: Path, registry) -> None:
    steps = replay(tmp_path, registry, "runic_battle.txt", seed=14)
    held = [s for s in steps if any(w.key.startswith("held ") for w in s.waits)]
    assert held, "the scenario holds a missile"
    launch = next(i for i, s in enumerate(steps) if s.line.startswith("/runic held launch") and s.ok)
    assert not any(w.key.startswith("held Morgan") for w in steps[launch].waits)


def test_the_campaign_scenario_keeps_the_contract(tmp_path: Path, registry) -> None:
    steps = replay(tmp_path, registry, "runic_campaign.txt", seed=240)
    drops = [i for i, s in enumerate(steps) if s.line.startswith("/runic held drop") and s.ok]
    assert drops and all(steps[i - 1].waits and not steps[i].waits for i in drops)
