"""`/runic plan`: search the castings a mage really has for a spell and show the best three, on exact odds.

The options searched are those of `/runic cast` that trade skill against energy, FP or time: where the
spell is read from (memory, or a grimoire that holds it), a precise ritual (+1, twice the time), halvings
of the time (-2 each), energy saved (-4 skill each) or bought (+1 skill per 2 energy), and FP sacrificed
so MP stays at or above zero (no Calamity check, -4 skill). Each plan is worked out by the real casting
(``casting.cast``) on a scratch copy of the table, once for each outcome its effective skill allows, so a
plan's odds, cost and Calamity risk are the cast's own, and every plan is one `/runic cast` accepts.

Cheapest means: the least energy, then the least FP, then the shortest casting time. The risk is the
chance the casting owes a Calamity check (MP below zero before or after it).
"""

from fractions import Fraction
from typing import Any

from pydantic import Field

from rules.base import Model, Outcome, RuleError, Table
from rules.dice.gurps import judge
from rules.dice.odds import sum_distribution
from rules.planning import Plan, choose, parse_goal, plan_outcome, scratch, undominated
from rules.runic import mana
from rules.runic.casting import CastOptions, CastResult, cast, resolve_spell
from rules.runic.preview import OUTCOMES, faces_for
from rules.runic.sheet import MageSheet

RISK = "calamity"
SATURATED = 16  # from effective skill 16 on, no 3d6 total changes outcome: more skill buys nothing
MAX_HALVINGS = 6


class PlanOptions(Model):
    """Few options, short words: `/runic` is near Discord's size limit for one command."""

    spell: str = Field(min_length=1, max_length=200, description="Spell")
    goal: str | None = Field(default=None, max_length=40, description="e.g. success>=90%")
    mage: str | None = Field(default=None, max_length=60, description="Your mage")
    resistance: int | None = Field(default=None, ge=0, le=100, description="Subject's resistance")


def _run(table: Table, options: CastOptions, total: int) -> CastResult:
    """The real casting on a scratch table, the 3d6 showing ``total``: nothing of it is kept."""
    dice = " ".join(map(str, faces_for(total)))
    return cast(scratch(table, as_gm=True), options.model_copy(update={"dice": dice}))


def evaluate(table: Table, options: CastOptions) -> Plan | None:
    """One plan's exact odds of every outcome, cost and Calamity risk; None when the cast would refuse it."""
    try:
        probe = _run(table, options, 3)  # a critical success whatever the skill: shows the effective skill
        if probe.effective < 3:
            return None  # below 3 the casting cannot be attempted
        by_class: dict[str, tuple[int, Fraction]] = {}
        for total, p in sum_distribution(3, 6).items():
            kind = judge(total, probe.effective)
            first, mass = by_class.get(kind, (total, Fraction(0)))
            by_class[kind] = (first, mass + p)
        results = [(probe if total == 3 else _run(table, options, total), p) for total, p in by_class.values()]
    except RuleError:
        return None
    sheet: MageSheet = table.characters[probe.mage.casefold()].sheet
    outcome_p: dict[str, Fraction] = {}
    calamity = Fraction(0)
    for result, p in results:
        outcome_p[result.outcome] = outcome_p.get(result.outcome, Fraction(0)) + p
        if mana.calamity_owed(result.paid.mp_before, result.paid.mp_after):
            calamity += p
    success = outcome_p.get("success", Fraction(0)) + outcome_p.get("critical_success", Fraction(0))
    fp = options.sacrifice_energy * table.book.casting.mana.fp_per_energy if options.sacrifice == "fp" else 0
    if fp and fp > sheet.fp:
        return None
    seconds = probe.time * (60 if probe.unit == "minute" else 1)
    shown = {key: value for key, value in options.model_dump(exclude_defaults=True).items() if key != "dice"}
    shown = {"spell": options.spell, **shown}
    if options.mage:
        shown["mage"] = options.mage
    cost_text = f"{probe.cost} energy"
    if fp:
        cost_text += f" ({options.sacrifice_energy} of it from {fp} FP)"
    cost_text += f", {probe.time} {probe.unit}{'s' if probe.time != 1 else ''}; skill {probe.effective}"
    return Plan(
        steps=[("cast", shown)],
        commands=["/runic cast " + " ".join(f"{key}:{_typed(value)}" for key, value in shown.items())],
        cost=(probe.cost, fp, seconds),
        cost_text=cost_text,
        success=success,
        risk=calamity,
        outcomes=[(name.replace("_", " "), outcome_p[name]) for name in OUTCOMES if outcome_p.get(name)],
        facts={"effective": probe.effective, "energy": probe.cost, "fp": fp, "seconds": seconds},
    )


def _typed(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'"{text}"' if " " in text else text


def candidates(table: Table, base: CastOptions, sheet: MageSheet) -> list[Plan]:
    """Every plan worth working out: dominated knobs (saving and buying energy at once, skill past 16, more FP
    than keeps MP at zero) are never tried."""
    spell, _ = resolve_spell(table, sheet, base)  # an unknown spell: the cast's own refusal
    key = spell.name.casefold()
    sources = ["memory"] + (["grimoire"] if any(key in g.spells for g in sheet.grimoires.values()) else [])
    plans: list[Plan] = []
    for source in sources:
        for ritual in ("normal", "precise"):
            for halvings in range(MAX_HALVINGS + 1):
                if ritual == "precise" and halvings:
                    break  # a precise ritual cannot be hurried
                fixed = base.model_copy(update={"source": source, "ritual": ritual, "halvings": halvings})
                found = _along_skill(table, fixed)
                if not found and halvings:
                    break  # no more halvings: the time is down to 1, or the skill below 3
                plans += found
    if not plans:
        cast(scratch(table), base)  # the cast's own refusal, in its own words
        raise RuleError(f"{spell.name} cannot be cast as things stand, whatever the options.")
    return plans


def _along_skill(table: Table, fixed: CastOptions) -> list[Plan]:
    """Energy saved (from the most) up to energy bought (until skill 16), with and without FP to stay above 0."""
    plain = evaluate(table, fixed)
    if plain is None:  # below skill 3, perhaps: the least energy bought that lets the mage attempt it
        bought = (evaluate(table, fixed.model_copy(update={"boost": b})) for b in range(1, SATURATED))
        first = next((found for found in bought if found is not None), None)
        if first is None:
            return []
        boost = int(first.steps[0][1]["boost"])
        return _boosted(table, fixed, first, boost)
    cost = plain.cost[0]
    plans: list[Plan] = []
    for save in range(cost, 0, -1):
        plan = evaluate(table, fixed.model_copy(update={"save_energy": save}))
        if plan is not None:
            plans += _with_sacrifice(table, fixed.model_copy(update={"save_energy": save}), plan)
    return plans + _boosted(table, fixed, plain, 0)


def _boosted(table: Table, fixed: CastOptions, start: Plan, boost: int) -> list[Plan]:
    """``start`` (with ``boost`` energy bought) and each more skill bought after it, until skill 16."""
    options = fixed.model_copy(update={"boost": boost}) if boost else fixed
    plans = _with_sacrifice(table, options, start)
    effective = start.facts["effective"]
    while effective < SATURATED:
        boost += 1
        options = fixed.model_copy(update={"boost": boost})
        found = evaluate(table, options)
        if found is None:
            break
        effective = found.facts["effective"]
        plans += _with_sacrifice(table, options, found)
    return plans


def _with_sacrifice(table: Table, options: CastOptions, plan: Plan) -> list[Plan]:
    """The plan, and (when it risks a Calamity) the same with just enough of the mage's own FP to keep MP ≥ 0."""
    if not plan.risk:
        return [plan]
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    energy = plan.cost[0]
    available = max(0, sheet.mp) + (sheet.implement.mp if sheet.implement else 0)
    needed = energy - available
    if sheet.mp < 0 or needed <= 0 or needed > energy:
        return [plan]
    sacrificed = evaluate(table, options.model_copy(update={"sacrifice": "fp", "sacrifice_energy": needed}))
    return [plan] if sacrificed is None else [plan, sacrificed]


def plan(table: Table, options: PlanOptions) -> Outcome:
    """`/runic plan`: the three best castings of a spell for a goal, each with its exact odds and a Cast button."""
    goals = parse_goal(options.goal, RISK)
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    base = CastOptions(
        spell=options.spell,
        mage=record.name,
        resistance=options.resistance,
    )
    searched = candidates(table, base, sheet)
    kept = undominated(searched)
    chosen, missed = choose(kept, goals, RISK)
    spell = searched[0].steps[0][1]["spell"] if searched else options.spell
    return plan_outcome(
        title=f"Plan: {record.name} casts {spell}",
        description=(
            f"MP {sheet.mp}, FP {sheet.fp}. Cheapest: least energy, then FP, then time. "
            "Calamity: the chance the casting owes a Calamity check."
        ),
        chosen=chosen,
        missed=missed,
        risk_word=RISK,
        searched=len(searched),
        kept=len(kept),
        data={"planner": True, "mage": record.name, "spell": spell, "goal": options.goal or ""},
    )
