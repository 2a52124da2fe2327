"""The shared system rolls and exact odds as Outcomes: what /check, /contest, /pool and /odds show.

The dice themselves are ``rules.dice``; this module only words their results,
showing every die, so Discord, the console and the log read the same.
"""

from __future__ import annotations

import random
from fractions import Fraction

from rules.base import Card, Chart, Outcome, Tone
from rules.dice import (
    PoolRoll,
    QuickContest,
    ResistedRoll,
    SuccessRoll,
    check_odds,
    pool_odds,
    quick_contest,
    resisted_roll,
    roll_pool,
    roll_success,
    threshold_odds,
)
from rules.dice.odds import exact

OUTCOME_WORDS = {
    "critical_success": "Critical success",
    "success": "Success",
    "failure": "Failure",
    "critical_failure": "Critical failure",
}
POOL_WORDS = {
    "exceptional_success": "Exceptional success",
    "success": "Success",
    "failure": "Failure",
    "dramatic_failure": "Dramatic failure",
}


def dice_text(dice: list[int]) -> str:
    return "[" + ", ".join(str(d) for d in dice) + "]"


def success_line(roll: SuccessRoll) -> str:
    """``3d6 [4, 5, 2] = 11 vs 12: Success by 1``."""
    margin = f"by {abs(roll.margin)}" if roll.margin else "exactly"
    return f"3d6 {dice_text(roll.dice)} = **{roll.total}** vs {roll.skill}: {OUTCOME_WORDS[roll.outcome]} {margin}"


def _titled(label: str | None, text: str) -> str:
    return f"{label}: {text}" if label else text


# ---------------------------------------------------------------------- rolls


def check(rng: random.Random, skill: int, modifier: int = 0, label: str | None = None) -> Outcome:
    effective = skill + modifier
    roll = roll_success(rng, effective)
    shown_skill = f"{skill}{modifier:+d} = {effective}" if modifier else str(skill)
    card = Card(
        title=_titled(label, OUTCOME_WORDS[roll.outcome]),
        description=f"Skill {shown_skill}\n{success_line(roll)}",
        tone=roll.outcome,
    )
    return Outcome(
        card=card,
        summary=_titled(label, f"3d6 vs {effective}: {roll.total}, {roll.outcome.replace('_', ' ')}"),
        data={"label": label, **roll.model_dump(mode="json"), "modifier": modifier, "base_skill": skill},
    )


def contest(
    rng: random.Random,
    skill: int,
    against: int,
    *,
    resisted: bool = False,
    living: bool = True,
    label: str | None = None,
) -> Outcome:
    if resisted:
        result = resisted_roll(rng, skill, against, living=living)
        return _resisted_outcome(result, label)
    return _contest_outcome(quick_contest(rng, skill, against), label)


def _contest_outcome(result: QuickContest, label: str | None) -> Outcome:
    if result.winner == "a":
        verdict, tone = "You win the Quick Contest", "success"
    elif result.winner == "b":
        verdict, tone = "Your opponent wins the Quick Contest", "failure"
    else:
        verdict, tone = "A tie: nobody wins", "neutral"
    card = Card(title=_titled(label, verdict), tone=tone)
    card.add("You", success_line(result.a))
    card.add("Opponent", success_line(result.b))
    if result.both_failed:
        card.footer = "Both failed; the one who failed by less wins (a tie stays a tie)."
    data = {"label": label, "a": result.a.model_dump(mode="json"), "b": result.b.model_dump(mode="json")}
    data |= {"result": result.result, "winner": result.winner, "both_failed": result.both_failed}
    return Outcome(card=card, summary=_titled(label, f"Quick Contest: {result.result}"), data=data)


def _resisted_outcome(result: ResistedRoll, label: str | None) -> Outcome:
    words = {"caster_failed": "The roll failed", "resisted": "Resisted", "overcome": "Overcomes the resistance"}
    tone: Tone = "success" if result.caster_wins else "failure"
    card = Card(title=_titled(label, words[result.result]), tone=tone)
    skill_note = f" (Rule of 16: capped from {result.caster_skill} to {result.cap})" if result.capped else ""
    card.add("Roll", success_line(result.caster) + skill_note)
    if result.subject is not None:
        card.add(f"Resistance {result.resistance}", success_line(result.subject))
    else:
        card.add(f"Resistance {result.resistance}", "not rolled: the first roll failed")
    if result.tie:
        card.footer = "Margins tied: a tie goes to the subject."
    return Outcome(
        card=card,
        summary=_titled(label, f"resisted roll: {result.result}"),
        data={"label": label, **result.model_dump(mode="json"), "caster_wins": result.caster_wins},
    )


def pool(
    rng: random.Random,
    dice: int,
    *,
    again: int | None = 10,
    rote: bool = False,
    exceptional_at: int = 5,
    label: str | None = None,
) -> Outcome:
    roll = roll_pool(rng, dice, again=again, rote=rote, exceptional_at=exceptional_at)  # type: ignore[arg-type]
    return _pool_outcome(roll, label)


def _pool_outcome(roll: PoolRoll, label: str | None) -> Outcome:
    tone: Tone = {
        "exceptional_success": "critical_success",
        "success": "success",
        "failure": "failure",
        "dramatic_failure": "critical_failure",
    }[roll.outcome]  # type: ignore[assignment]
    noun = "success" if roll.successes == 1 else "successes"
    card = Card(title=_titled(label, f"{POOL_WORDS[roll.outcome]}: {roll.successes} {noun}"), tone=tone)
    if roll.chance_die:
        card.description = (
            f"Chance die (pool {roll.pool}): {dice_text(roll.dice[0].faces)}. 10 succeeds, 1 is a dramatic failure."
        )
    else:
        again = f"{roll.again}-again" if roll.again else "no again"
        card.description = f"{len(roll.dice)} dice, {again}{', rote' if roll.rote else ''}; 8+ succeeds"
        card.add("Dice", _pool_dice_text(roll)[:1024])
    if roll.cap_hit:
        card.footer = f"Stopped after {roll.max_explosions} extra dice."
    summary = _titled(label, f"pool of {roll.pool}: {roll.successes} {noun} ({roll.outcome.replace('_', ' ')})")
    return Outcome(card=card, summary=summary, data={"label": label, **roll.model_dump(mode="json")})


def _pool_dice_text(roll: PoolRoll) -> str:
    """Each die with its explosions (→) and its rote reroll (↻); successes in bold."""
    parts = []
    for die in roll.dice:
        text = "→".join(_face(f) for f in die.faces)
        if die.rote_faces:
            text += " ↻" + "→".join(_face(f) for f in die.rote_faces)
        parts.append(text)
    return ", ".join(parts)


def _face(value: int) -> str:
    return f"**{value}**" if value >= 8 else str(value)


# ---------------------------------------------------------------------- exact odds


def odds_check(skill: int) -> Outcome:
    odds = check_odds(skill)
    rows = [
        ("Success (any)", odds.success),
        ("Critical success", odds.critical_success),
        ("Failure (any)", odds.failure),
        ("Critical failure", odds.critical_failure),
    ]
    card = Card(title=f"Odds: 3d6 at skill {skill}", description=_table(rows))
    card.footer = "Exact, from all 216 outcomes of 3d6 (ruling 1)."
    data = {"skill": skill, **{name: str(value) for name, value in odds.model_dump().items() if name != "skill"}}
    chart = Chart(
        title=f"3d6 at skill {skill}",
        bars=[
            ("critical success", float(odds.critical_success)),
            ("success", float(odds.success - odds.critical_success)),
            ("failure", float(odds.failure - odds.critical_failure)),
            ("critical failure", float(odds.critical_failure)),
        ],
        highlight=["critical failure"],
    )
    return Outcome(card=card, summary=f"odds at skill {skill}", data=data, ephemeral=True, chart=chart)


def odds_threshold(level: int, kind: str = "discord") -> Outcome:
    odds = threshold_odds(level, kind=kind)  # type: ignore[arg-type]
    what = "a Discord event" if kind == "discord" else "a Harmony gain"
    if odds.incapacitated:
        description = "At 20 Discord a Magi is incapacitated at once: no roll."
    elif not odds.owed:
        description = f"Below 7 there is no roll, so never {what}."
    else:
        description = _table([(f"P({what})", odds.event), ("P(nothing)", 1 - odds.event)])
    card = Card(title=f"Odds: {kind.title()} {level}", description=description)
    card.footer = "2d10 (2 to 20); the event happens when the sum is below the level, from 7 up (ruling 8)."
    data = {"level": level, "kind": kind, "owed": odds.owed, "event": str(odds.event)}
    data["incapacitated"] = odds.incapacitated
    return Outcome(card=card, summary=f"odds of {kind} {level}", data=data, ephemeral=True)


def odds_pool(dice: int, again: int | None = 10, rote: bool = False, exceptional_at: int = 5) -> Outcome:
    odds = pool_odds(dice, again, rote, exceptional_at)  # type: ignore[arg-type]
    rows = [
        ("At least 1 success", odds.success),
        (f"Exceptional ({exceptional_at}+)", odds.exceptional),
        ("Dramatic failure", odds.dramatic_failure),
    ]
    again_text = f"{again}-again" if again else "no again"
    title = f"Odds: pool of {dice}, {again_text}{', rote' if rote else ''}"
    card = Card(title=title, description=_table(rows) + f"\nExpected successes: **{float(odds.expected):.3f}**")
    card.footer = "Exact closed forms, not sampling (ruling 15)." + (" Chance die." if odds.chance_die else "")
    data = {"dice": dice, "again": again, "rote": rote, "exceptional_at": exceptional_at}
    data |= {"success": str(odds.success), "exceptional": str(odds.exceptional)}
    data |= {"dramatic_failure": str(odds.dramatic_failure), "expected": str(odds.expected)}
    data["expected_float"] = float(odds.expected)
    bars: list[tuple[str, float]] = []
    shown = Fraction(0)
    for k, p in enumerate(odds.distribution):  # the bars a reader can see; the long thin tail as one "k+"
        if shown >= Fraction(199, 200) and k > exceptional_at:
            bars.append((f"{k}+", float(1 - shown)))
            break
        bars.append((str(k), float(p)))
        shown += p
    else:
        if odds.tail:
            bars.append((f"{len(odds.distribution)}+", float(odds.tail)))
    chart = Chart(title=title.removeprefix("Odds: "), bars=bars, x_label="successes", highlight=["0"])
    return Outcome(card=card, summary=f"odds of a pool of {dice}", data=data, ephemeral=True, chart=chart)


def _table(rows: list[tuple[str, Fraction]]) -> str:
    return "\n".join(f"{name}: **{exact(value)}**" for name, value in rows)
