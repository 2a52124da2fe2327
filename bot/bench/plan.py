"""The spell planner's time (issue 26): `/runic plan` and `/awakened plan` on the largest spell each book casts.

Each case sets a table up through the table service (a real SQLite file) and times the plan command, wall
clock, a few runs: p50 and max. The target: an answer within 1 s.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.storage.database import open_store
from bot.table.registry import Registry
from bot.table.service import Caller, Place, TableService
from rules.base import BenchStep

TARGET_S = 1.0
GM = Caller(user_id=1, name="GM")
PLAYER = Caller(user_id=2, name="Player")

# The runic book's dearest casting: five Words, a Regular spell with a wide area, read from a grimoire that
# holds it, by a mage nearly out of MP (so every knob is open: source, ritual, halvings, energy saved or bought,
# FP sacrificed to stay clear of a Calamity check).
RUNIC = (
    BenchStep("mage create", {"name": "Merlin", "magery": 3, "iq": 15, "thaumatology": 16}),
    *(BenchStep("mage word", {"word": w, "skill": 15}) for w in ("Vas", "Jux", "Flam", "Ort", "Sanct")),
    BenchStep("spell define", {"name": "Firestorm", "words": "Vas-Jux-Flam-Ort-Sanct", "known": True}),
    BenchStep("mage grimoire", {"grimoire": "Codex", "spell": "Firestorm", "bonus": 2}),
    BenchStep(
        "adjust",
        {"character": "Merlin", "field": "mp", "value": 3, "reason": "bench", "apply_rules": False},
        as_gm=True,
    ),
)
RUNIC_PLAN = BenchStep("plan", {"spell": "Firestorm"})

# The awakened book's widest choice: a rote Shaped by a mage of Gnosis 5 with Willpower to spend on Words of
# Power and dice, covert or vulgar, rote or improvised, with a paradox pool already standing.
AWAKENED = (
    BenchStep(
        "mage create",
        {
            "name": "Ash",
            "path": "Thyrsus",
            "ruling": "Life, Spirit",
            "inferior": "Matter",
            "resistance": "composure",
            "gnosis": 5,
            "arcana": "Life 5, Spirit 4, Forces 3",
            "high_speech": True,
            "willpower": 7,
        },
    ),
    BenchStep("spell cast", {"spell": "Mend", "arcana": "Life", "aspect": "covert", "mode": "rote"}),
)
AWAKENED_PLAN = BenchStep("plan", {"spell": "Mend"})

CASES = {"runic": (RUNIC, RUNIC_PLAN), "awakened": (AWAKENED, AWAKENED_PLAN)}


async def time_plan(ruleset: str, setup: tuple[BenchStep, ...], measured: BenchStep, runs: int, folder: Path) -> dict:
    """Wall-clock seconds of ``runs`` plan commands on a table set up by ``setup``: p50 and max."""
    store = await open_store(folder / f"plan-{ruleset}.sqlite3")
    try:
        service = TableService(store, Registry.discover(), random.Random(0))
        place = Place(1, 1)
        await service.start_campaign(place, GM, ruleset, f"plan {ruleset}")
        for step in setup:
            await service.run(place, GM if step.as_gm else PLAYER, ruleset, step.action, dict(step.options))
        seconds = []
        reply = None
        for _ in range(runs):
            started = time.perf_counter()
            reply = await service.run(place, PLAYER, ruleset, measured.action, dict(measured.options))
            seconds.append(time.perf_counter() - started)
        assert reply is not None
        data = reply.outcome.data
        return {
            "spell": data.get("spell"),
            "plans_searched": data.get("searched"),
            "p50_s": round(statistics.median(seconds), 3),
            "max_s": round(max(seconds), 3),
        }
    finally:
        await store.close()


async def measure_planner(runs: int = 5) -> dict:
    """Each ruleset's planner on its case: p50 and max seconds over ``runs`` runs."""
    with tempfile.TemporaryDirectory() as tmp:
        return {name: await time_plan(name, *case, runs, Path(tmp)) for name, case in CASES.items()}


def planner_targets(figures: dict) -> list[tuple[str, str, bool]]:
    """The target row: the planner answers within 1 s (its slowest run, each system)."""
    worst = max(figure["max_s"] for figure in figures.values())
    shown = ", ".join(f"{name} p50 {f['p50_s']} s max {f['max_s']} s" for name, f in figures.items())
    return [(f"planner answers within {TARGET_S:g} s", shown, worst <= TARGET_S)]
