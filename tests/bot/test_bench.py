"""The benchmark runs end to end (tiny sizes; the real figures come from `python -m bot.bench`).

On the PostgreSQL pass it measures PostgreSQL (`python -m bot.bench --db postgresql://…`), beside raw asyncpg.
"""

from __future__ import annotations

import math

from bot.bench import (
    LOG_BOUNDED,
    measure,
    measure_history,
    measure_log,
    measure_rulesets,
    measure_serpent,
    measure_startup,
    measure_web,
    targets,
)
from bot.table.registry import discover_rulesets
from tests.support import db as test_db

DB = test_db.SERVER if test_db.ON_POSTGRES else None


async def test_bench_measures_both_paths() -> None:
    result = await measure(channels=4, rate=200, seconds=0.2, db=DB)
    saturation, load = result["saturation"], result["offered_load"]
    assert result["backend"].startswith("PostgreSQL" if DB else "SQLite")
    assert result["baseline"] == ("asyncpg bare" if DB else "aiosqlite bare")
    assert saturation["service_actions_per_s"] > 0
    assert saturation["baseline_per_s"] > 0
    assert saturation["raw_per_s"] > 0
    # the floor is the better of a run before the service's and one after: a slow moment cannot pass a ratio
    assert len(saturation["raw_runs_per_s"]) == 2 and saturation["raw_per_s"] == max(saturation["raw_runs_per_s"])
    if not DB:
        schemas = saturation["schema_raw_runs_per_s"]
        assert len(schemas) == 2 and saturation["schema_raw_per_s"] == max(schemas)
    assert load["actions"] == 40
    assert set(result["durability"]) == {"FULL", "NORMAL"}
    assert all(figure["service_actions_per_s"] > 0 for figure in result["durability"].values())
    assert 0 < load["service_p50_ms"] <= load["service_p99_ms"]


async def test_bench_times_every_rulesets_heaviest_action_beside_runic() -> None:
    figures = await measure_rulesets(runs=3, db=DB)
    assert set(figures) == {ruleset.id for ruleset in discover_rulesets()}  # every ruleset declares its case
    assert figures["runic"]["ratio_to_runic_cast"] == 1.0
    for figure in figures.values():
        assert figure["cpu_ms"] > 0
        assert figure["ratio_to_runic_cast"] > 0


async def test_bench_measures_history_serpent_scaling_and_prints_every_target() -> None:
    result = await measure(channels=4, rate=200, seconds=0.2, db=DB)
    result["history"] = await measure_history(sizes=(0, 300), repeats=2, db=DB)
    assert set(result["history"]) == {"undo", "status", "last log page"}
    assert all(set(figures) == {"0", "300"} for figures in result["history"].values())
    result["log"] = await measure_log(sizes=(0, 300, 600), repeats=2, db=DB)
    assert {"log text (GM)", "log player", "log secrets", "log middle page", *LOG_BOUNDED} <= set(result["log"])
    assert all(set(figures) == {"0", "300", "600"} and all(figures.values()) for figures in result["log"].values())
    result["serpent"] = await measure_serpent(runs=1, db=DB)
    assert result["serpent"]["8 magi"]["spells"] > result["serpent"]["2 magi"]["spells"]
    assert result["serpent"]["ratio"] > 0
    result["web"] = await measure_web(events=500, seconds=0.3, clients=2, db=DB)
    assert result["web"]["log page"]["per_s"] > 0 and result["web"]["sheet page"]["p99_ms"] > 0
    result["startup"] = measure_startup(tries=1, db=DB)
    assert result["startup"]["first_reply_s"] > 0
    assert result["startup"]["import_discord_s"] > 0
    result["rulesets"] = {"runic": {"ratio_to_runic_cast": 1.0}, "serpent": {"ratio_to_runic_cast": 1.5}}
    rows = targets(result)
    names = " ".join(name for name, _, _ in rows)
    for target in (
        "saturation",
        "p99",
        "serpent",
        "undo",
        "status",
        "last log page",
        "log text (GM) flat",
        "log last page flat",
        "web log page",
        "start-up",
    ):
        assert target in names
    assert all(isinstance(met, bool) and figure for _, figure, met in rows)
    assert not [name for name, _, _ in rows if any(bounded in name for bounded in LOG_BOUNDED)]


async def test_log_reaches_its_last_page() -> None:
    """The whole log's last page, typed, holds the first event: a page that could not be reached reads as
    infinitely slow, and its flat target misses."""
    figures = await measure_log(sizes=(0, 300, 600), repeats=1, db=DB)
    assert all(math.isfinite(ms) for ms in figures["log last page"].values())


def _targets(on_postgres: bool, **figures: float) -> dict[str, tuple[str, bool]]:
    """The saturation and p99 rows for made-up figures."""
    saturation = {"ratio_to_raw": figures.get("raw", 1.0)}
    if "schema" in figures:
        saturation["ratio_to_schema_raw"] = figures["schema"]
    result = {
        "raw": "asyncpg pool x8" if on_postgres else "sqlite3 sync",
        "channels": 200,
        "saturation": saturation,
        "offered_load": {"service_p99_ms": figures.get("p99", 1.0), "rate_per_s": 1000.0},
        "rulesets": {
            "runic": {"ratio_to_runic_cast": 1.0},
            "serpent": {"ratio_to_runic_cast": figures.get("serpent", 1)},
        },
        "startup": {"first_reply_s": figures.get("startup", 0.5)},
    }
    return {name: (figure, met) for name, figure, met in targets(result)}


def test_sqlite_is_held_to_the_issues_floors() -> None:
    """Issue 23 on SQLite: 30% of raw sqlite3 on bare tables, 90% of raw sqlite3 on the service's schema, p99
    within 10 ms."""
    rows = _targets(False, raw=0.29, schema=0.95, p99=10.5)
    assert rows["saturation >= 30% of raw sqlite3 sync, bare tables (NORMAL)"] == ("29%", False)
    assert rows["saturation >= 90% of raw sqlite3 on the service's schema"] == ("95%", True)
    assert rows["p99 <= 10 ms at 1000 actions/s over 200 channels (FULL)"] == ("10.5 ms", False)
    rows = _targets(False, raw=0.30, schema=0.89, p99=10)
    assert rows["saturation >= 30% of raw sqlite3 sync, bare tables (NORMAL)"][1] is True
    assert rows["saturation >= 90% of raw sqlite3 on the service's schema"][1] is False
    assert rows["p99 <= 10 ms at 1000 actions/s over 200 channels (FULL)"][1] is True


def test_postgres_saturation_is_held_to_half_of_its_raw_pool() -> None:
    """Issue 23 on PostgreSQL: half of raw asyncpg on a pool of 8, p99 within 20 ms; no schema floor."""
    rows = _targets(True, raw=0.49, p99=20)
    assert rows["saturation >= 50% of raw asyncpg pool x8 (both NORMAL)"] == ("49%", False)
    assert rows["p99 <= 20 ms at 1000 actions/s over 200 channels (FULL)"] == ("20 ms", True)
    assert not [name for name in rows if "schema" in name]
    assert _targets(True, raw=0.5, p99=20.1)["p99 <= 20 ms at 1000 actions/s over 200 channels (FULL)"][1] is False


def test_start_up_and_serpent_targets() -> None:
    """Start-up within 0.8 s to the first console reply; serpent's heaviest action within 2x a runic cast."""
    rows = _targets(False, startup=0.81, serpent=2.01)
    assert rows["start-up to first console reply <= 0.8 s"] == ("0.81 s", False)
    assert rows["serpent's heaviest action <= 2x a runic cast (CPU)"] == ("2.01x", False)
    rows = _targets(False, startup=0.8, serpent=2)
    assert rows["start-up to first console reply <= 0.8 s"][1] is True
    assert rows["serpent's heaviest action <= 2x a runic cast (CPU)"][1] is True
