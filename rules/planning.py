"""The spell planner's common part: goals, dominance, choosing plans and the card (`/runic plan`, `/awakened plan`).

A ruleset lists every plan the caster really has, each with its exact odds (fractions) worked out by the
ruleset's own casting code; this module keeps only the plans nothing beats (no other plan is at least as
likely to succeed, at most as risky and no dearer on every count of the cost), picks the plans a goal asks
for and draws them as one card. Pure: no I/O, no dice.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from fractions import Fraction
from random import Random
from typing import Any, Literal

from rules.base import Actor, Card, Chart, Outcome, RuleError, RunOptionsButton, Table
from rules.dice.odds import percent
from rules.text import clip

GoalKind = Literal["best", "success", "risk"]
DEFAULT_SUCCESS = Fraction(90, 100)  # with no goal: the cheapest plan reaching 90%...
DEFAULT_RISK = Fraction(5, 100)  # ...and the likeliest plan keeping the risk at or under 5%
SHOWN = 3
FRACTION_DIGITS = 8  # a fraction is shown beside its percentage while its denominator has at most this many digits
_GOAL = re.compile(r"^\s*(?P<what>[a-z]+)\s*(?P<op>>=|=>|≥|<=|=<|≤)\s*(?P<number>\d+(?:\.\d+)?)\s*%?\s*$")


def scratch(table: Table, *, as_gm: bool = False) -> Table:
    """A copy of the table a plan may be tried on freely: the real casting runs on it, and nothing is kept."""
    actor = Actor(user_id=table.actor.user_id, name=table.actor.name, is_gm=table.actor.is_gm or as_gm)
    return Table(
        ruleset_id=table.ruleset_id,
        campaign_name=table.campaign_name,
        actor=actor,
        rng=Random(0),
        book=table.book,
        settings=table.settings,
        state=table.state.model_copy(deep=True),
        characters=copy.deepcopy(table.characters),
        now=table.now,
    )


@dataclass(frozen=True)
class Goal:
    """What the caster wants: the highest chance, a chance reached cheaply, or the risk kept under a bound."""

    kind: GoalKind
    bound: Fraction | None = None

    def target(self, risk_word: str) -> str:
        """The goal in a few words: "success ≥ 90%"."""
        if self.kind == "best":
            return "the highest chance"
        assert self.bound is not None
        if self.kind == "success":
            return f"success ≥ {_bound(self.bound)}"
        return f"{risk_word} ≤ {_bound(self.bound)}"

    def describe(self, risk_word: str, rank: int = 1) -> str:
        """Why a plan was picked; ``rank`` is its place among the plans meeting the goal (1: the best), so the
        second and third plans shown for one goal say so instead of each claiming to be the cheapest."""
        place = "" if rank == 1 else f"{ORDINALS.get(rank, f'{rank}th')} "
        if self.kind == "best":
            return f"the {place}highest chance of success"
        if self.kind == "success":
            return f"the {place}cheapest plan with {self.target(risk_word)}"
        return f"the {place}likeliest plan with {self.target(risk_word)}"


ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _bound(value: Fraction) -> str:
    return f"{float(value) * 100:g}%"


def parse_goal(text: str | None, risk_word: str) -> list[Goal]:
    """``best``, ``success>=90%`` (or ``≥``), ``<risk_word><=5%``; nothing: the three kinds at 90% and 5%."""
    if text is None or not text.strip():
        return [Goal("best"), Goal("success", DEFAULT_SUCCESS), Goal("risk", DEFAULT_RISK)]
    folded = text.strip().casefold()
    if folded in ("best", "highest", "max"):
        return [Goal("best")]
    match = _GOAL.match(folded)
    usage = f"`best`, `success>=90%` or `{risk_word}<=5%`"
    if match is None:
        raise RuleError(f"I can't read the goal {text.strip()!r}. Write {usage}.")
    what, op, number = match["what"], match["op"], Fraction(match["number"]) / 100
    if number > 1:
        raise RuleError(f"A chance is at most 100%; got {match['number']}%. Write {usage}.")
    at_least = op in (">=", "=>", "≥")
    if what == "success" and at_least:
        return [Goal("success", number)]
    if what == risk_word and not at_least:
        return [Goal("risk", number)]
    raise RuleError(f"A goal asks for success at least (>=) a chance, or {risk_word} at most (<=) one. Write {usage}.")


@dataclass
class Plan:
    """One way to cast: the command that casts it, what it costs and its exact odds."""

    steps: list[tuple[str, dict[str, Any]]]  # (action, options) run in order: the normal commands
    commands: list[str]  # the same, as a person types them
    cost: tuple[int, ...]  # smaller is cheaper, compared in order (each ruleset says what each place counts)
    cost_text: str
    success: Fraction
    risk: Fraction
    outcomes: list[tuple[str, Fraction]]  # every outcome of the roll with its exact chance; they sum to 1
    lines: list[str] = field(default_factory=list)  # anything else worth knowing (the pool rolled)
    facts: dict[str, Any] = field(default_factory=dict)  # the ruleset's own numbers (effective skill, pool)

    def data(self) -> dict[str, Any]:
        return {
            "steps": [{"action": action, "options": options} for action, options in self.steps],
            "commands": self.commands,
            "cost": list(self.cost),
            "cost_text": self.cost_text,
            "success": str(self.success),
            "risk": str(self.risk),
            "outcomes": {name: str(p) for name, p in self.outcomes},
            **self.facts,
        }


def dominates(a: Plan, b: Plan) -> bool:
    """Whether ``a`` is at least as good as ``b`` on every count: chance, risk and each part of the cost."""
    return (
        a.success >= b.success
        and a.risk <= b.risk
        and len(a.cost) == len(b.cost)
        and all(x <= y for x, y in zip(a.cost, b.cost, strict=True))
    )


def undominated(plans: list[Plan]) -> list[Plan]:
    """The plans no other beats (of equal plans, the first listed): whatever the goal, the answer is among them."""
    kept: list[Plan] = []
    for plan in sorted(plans, key=lambda p: (-p.success, p.risk, p.cost)):
        if not any(dominates(other, plan) for other in kept):
            kept.append(plan)
    return kept


def ranked(plans: list[Plan], goal: Goal) -> list[Plan]:
    """The plans that meet the goal, best first."""
    if goal.kind == "best":
        return sorted(plans, key=lambda p: (-p.success, p.risk, p.cost))
    assert goal.bound is not None
    if goal.kind == "success":
        return sorted((p for p in plans if p.success >= goal.bound), key=lambda p: (p.cost, -p.success, p.risk))
    return sorted((p for p in plans if p.risk <= goal.bound), key=lambda p: (-p.success, p.cost, p.risk))


def nearest(plans: list[Plan], goal: Goal) -> Plan | None:
    """The plan closest to a goal none meets: the likeliest (success), or the least risky (risk)."""
    if not plans:
        return None
    if goal.kind == "risk":
        return min(plans, key=lambda p: (p.risk, -p.success, p.cost))
    return min(plans, key=lambda p: (-p.success, p.risk, p.cost))


def chance(value: Fraction) -> str:
    """A chance as the planner shows it: the percentage, and the exact fraction while it is short enough to read."""
    if not value:
        return "0%"
    if value.denominator == 1 or len(str(value.denominator)) <= FRACTION_DIGITS:
        return f"{percent(value)} ({value})"
    return f"≈{float(value) * 100:.4f}%"  # the exact fraction is in the reply's data


@dataclass
class Chosen:
    """A plan picked for the card, and why."""

    why: str
    plan: Plan


def choose(plans: list[Plan], goals: list[Goal], risk_word: str) -> tuple[list[Chosen], list[str]]:
    """Up to three plans for the goals (one goal: its three best; several: the best of each) and, for a goal no
    plan meets, a sentence naming the nearest plan."""
    chosen: list[Chosen] = []
    missed: list[str] = []
    for goal in goals:
        meeting = ranked(plans, goal)
        if not meeting:
            near = nearest(plans, goal)
            if near is not None:
                missed.append(
                    f"No plan reaches {goal.target(risk_word)}. Nearest: `{near.commands[0]}` "
                    f"(success {percent(near.success)}, {risk_word} {percent(near.risk)})."
                )
            continue
        for rank, plan in enumerate(meeting[: SHOWN if len(goals) == 1 else 1], 1):
            chosen.append(Chosen(goal.describe(risk_word, rank), plan))
    return chosen, missed


def plan_outcome(
    *,
    title: str,
    description: str,
    chosen: list[Chosen],
    missed: list[str],
    risk_word: str,
    searched: int,
    kept: int,
    data: dict[str, Any],
) -> Outcome:
    """The card of up to three plans, their chart (each plan's chance of every outcome) and their data."""
    card = Card(title=clip(title, 256), description=clip(description, 4000), tone="neutral")
    for number, item in enumerate(chosen, 1):
        plan = item.plan
        lines = [f"`{command}`" for command in plan.commands]
        lines.append(f"Cost: {plan.cost_text}")
        lines += [f"{name.capitalize()}: {chance(p)}" for name, p in plan.outcomes]
        lines.append(f"Any success: {chance(plan.success)} · {risk_word.capitalize()}: {chance(plan.risk)}")
        lines += plan.lines
        card.add(clip(f"Plan {number}: {item.why}", 256), clip("\n".join(lines), 1024))
    if missed:
        card.add("Not reached", clip("\n".join(missed), 1024))
    if not chosen and not missed:
        card.add("No plan", "This caster has no way to cast it now.")
    card.footer = (
        f"Exact odds, not sampled: {searched} plans worked out, {kept} not beaten by another. "
        "Nothing was cast or paid; press a Cast button to cast a plan."
    )
    bars: list[tuple[str, float]] = []
    for number, item in enumerate(chosen, 1):
        bars += [(f"{number}: {name}", float(p)) for name, p in item.plan.outcomes]
    chart = (
        Chart(
            title=clip(f"{title}: every outcome of each plan", 120),
            bars=bars,
            highlight=[label for label, _ in bars if "critical failure" in label or "dramatic" in label],
            x_label="plan: outcome",
        )
        if bars
        else None
    )
    data = {
        **data,
        "plans": [{"why": item.why, **item.plan.data()} for item in chosen],
        "missed": missed,
        "searched": searched,
        "kept": kept,
    }
    summary = f"planned {data.get('spell', 'a spell')}"
    return Outcome(card=card, summary=summary, data=data, ephemeral=True, chart=chart)


def cast_buttons(data: dict[str, Any]) -> list[RunOptionsButton]:
    """**Cast plan N** for each plan of a planner's reply: runs its steps as the presser. Each step names the
    mage, so the rules refuse anyone but its player and the GMs (the reply is shown to whoever asked alone)."""
    plans = data.get("plans")
    if not isinstance(plans, list) or not data.get("planner"):
        return []
    buttons = []
    for number, plan in enumerate(plans, 1):
        steps = tuple(
            (str(step["action"]), tuple((str(k), _text(v)) for k, v in step["options"].items()))
            for step in plan.get("steps", [])
        )
        if steps:
            buttons.append(RunOptionsButton(label=f"Cast plan {number}", steps=steps))
    return buttons


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
