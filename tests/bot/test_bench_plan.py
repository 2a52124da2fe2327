"""The planner's bench (issue 26) runs end to end: each system's slowest plan timed, and its target row shown."""

from __future__ import annotations

from bot.bench import targets
from bot.bench.plan import CASES, TARGET_S, measure_planner, planner_targets


async def test_the_planner_bench_times_each_systems_case_and_reports_its_target() -> None:
    figures = await measure_planner(runs=1)
    assert set(figures) == set(CASES) == {"runic", "awakened"}
    for figure in figures.values():
        assert figure["plans_searched"] > 1
        assert 0 < figure["p50_s"] <= figure["max_s"]
    (row,) = planner_targets(figures)
    assert row[0] == f"planner answers within {TARGET_S:g} s" and "runic p50" in row[1]
    assert row[2] == (max(f["max_s"] for f in figures.values()) <= TARGET_S)
    result = {
        "saturation": {"ratio_to_raw": 1.0},
        "raw": "sqlite3",
        "channels": 1,
        "offered_load": {"service_p99_ms": 1, "rate_per_s": 1},
        "planner": figures,
    }
    assert row in targets(result)
