"""Nam-Shubs (glossary "Nam-Shub"): world-altering spells worked step by step by a team.

"To begin casting a Nam-Shub, as a Free Action, remove the page from your Codex and
place it beside your team zone. A team may only be working on one Nam-Shub at a time.
Only one step of a Nam-Shub may be completed per round by the team. Nam-Shubs as a
whole are immune to regular spells, Specification abilities and Artifacts."

"Directions for completing a Nam-Shub appear on the Nam-Shub page itself": the seed
prints none, so the GM defines the page (``spell define role:Nam-Shub aspects:"Steps 3"``,
ruling 12) and records each step its directions are met; Magister keeps the count and
the limits, and says when it is complete (its page's victory condition is then the GM's
to apply with ``battle end``).
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.context import Ctx
from rules.serpent.state import Being, CardState
from rules.serpent.turns import next_turn, require_turn
from rules.text import fold


def team_namshub(ctx: Ctx, team: str) -> CardState | None:
    return next(
        (c for c in ctx.battle.in_play() if c.team == team and ctx.spell(c.title).role == "Nam-Shub"),
        None,
    )


def begin(ctx: Ctx, magi: Being, name: str) -> str:
    require_turn(ctx, magi, "Beginning a Nam-Shub")
    spell = ctx.spell(name)
    if spell.role != "Nam-Shub":
        raise RuleError(f"{spell.title} is not a Nam-Shub.")
    card = next((c for c in ctx.battle.cards_in("codex", magi.key) if c.title == spell.title), None)
    if card is None:
        raise RuleError(f"{magi.name} has no {spell.title} page in their Codex.")
    working = team_namshub(ctx, magi.team)
    if working is not None:
        raise RuleError(f"Team {magi.team} is already working on {working.title}: one Nam-Shub at a time.")
    if spell.steps is None:
        raise RuleError(
            f"The book does not give {spell.title}'s steps. A GM sets them with "
            f'`/serpent spell define name:"{spell.title}" aspects:"Steps 3"` and the action can be tried again.'
        )
    b = ctx.battle
    b.placed += 1
    card.location, card.team, card.controller, card.caster = "play", magi.team, magi.key, magi.key
    card.order, card.persistent = b.placed, True
    ctx.j.say(
        f"📖 {magi.name} removes **{spell.title}** from their Codex and begins it beside team {magi.team}'s zone "
        f"(a Free Action): 0 of {spell.steps} steps.",
        "namshub",
        card=card.id,
        steps=0,
        of=spell.steps,
    )
    next_turn(ctx)
    return f"{magi.name} begins {spell.title}"


def step(ctx: Ctx, team: str | None) -> str:
    b = ctx.battle
    working = [c for c in b.in_play() if ctx.spell(c.title).role == "Nam-Shub"]
    if team is not None:
        working = [c for c in working if fold(c.team or "") == fold(team)]
    if len(working) != 1:
        teams = ", ".join(f"{c.team} ({c.title})" for c in working) or "none"
        raise RuleError(f"Name the team whose Nam-Shub takes the step (team:). Working: {teams}.")
    card = working[0]
    spell = ctx.spell(card.title)
    if card.stepped_round == b.round:
        raise RuleError(f"Team {card.team} already completed a step of {card.title} this round (one per round).")
    card.steps_done += 1
    card.stepped_round = b.round
    total = spell.steps or 0
    done = card.steps_done >= total
    tail = " It is complete: its page's victory condition applies (the GM ends the battle with /serpent battle end)."
    ctx.j.say(
        f"📖 Team {card.team} completes step {card.steps_done} of {total} of {card.title}.{tail if done else ''}",
        "namshub",
        card=card.id,
        steps=card.steps_done,
        of=total,
        complete=done,
    )
    return f"{card.title}: step {card.steps_done} of {total}"
