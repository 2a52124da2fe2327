"""The engine: runs the battle forward until it needs a person.

After every action the engine resolves what it can: it activates effects whose
response windows have closed, resolves maintenance spell by spell, moves from
preparation to actions once everyone is ready, runs Encounter turns, and passes
Magi who have nothing left to do. It stops when a Magi must answer a response
window, prepare, or take their turn, so a play-by-post battle can wait there.
"""

from __future__ import annotations

from rules.serpent.context import Ctx
from rules.serpent.encounter import encounter_turn
from rules.serpent.impact import activate, encounter_responses
from rules.serpent.rounds import finish_maintenance, resolve_step, start_actions, unprepare_leftovers
from rules.serpent.state import Effect
from rules.serpent.turns import next_turn, priority_holder, should_auto_pass, window_waiting

MAX_STEPS = 10_000  # a guard against a rules bug looping forever; no real round comes close


def advance(ctx: Ctx) -> None:
    b = ctx.battle
    for _ in range(MAX_STEPS):
        if b.stack:
            top = b.stack[-1]
            auto_pass_window(ctx, top)
            if not top.encounters_answered and priority_holder(ctx, top) is None:
                encounter_responses(ctx, top)  # the Shadow's Evade: in the Response phase, after the caster's priority
            if window_waiting(ctx, top):
                top.waited = True
                if top.opened_at is None and ctx.now:
                    top.opened_at = ctx.now  # the play-by-post clock starts when the window starts waiting
                return
            b.stack.pop()
            if not top.waited and top.kind != "maintenance":
                say_unanswerable(ctx, top)
            activate(ctx, top)
            if b.stack:
                b.stack[-1].passed = []  # back in the earlier window: everyone may respond again
                b.stack[-1].opened_at = None  # ...and it gets its full time again
                b.stack[-1].waited = False
            continue
        if b.phase == "maintenance":
            if b.queue:
                resolve_step(ctx, b.queue.pop(0))
            else:
                finish_maintenance(ctx)
            continue
        if b.phase == "preparation":
            if all(x.ready for x in b.beings.values()):
                start_actions(ctx)
                continue
            return
        if b.phase == "actions":
            being = b.current()
            if being is None:
                b.phase = "round_end"
                ctx.j.say(
                    "Every being has passed: the round is over. The GM starts the next with /serpent battle round.",
                    "round_end",
                )
                unprepare_leftovers(ctx)
                return
            if being.passed or being.incapacitated:
                next_turn(ctx)
                continue
            if being.kind == "encounter":
                if being.full_actions <= 0:
                    being.passed = True
                    next_turn(ctx)
                    continue
                encounter_turn(ctx, being)
                next_turn(ctx)
                continue
            if should_auto_pass(ctx, being):
                being.passed = True
                ctx.j.say(
                    f"{being.name} has no Full Actions and no Free Action left, and passes.",
                    "pass",
                    being=being.name,
                    auto=True,
                )
                next_turn(ctx)
                continue
            return
        return
    raise RuntimeError("the serpent engine did not settle; this is a bug")


AUTOPASS_WHY = {"always": "auto-pass: always", "allies": "auto-pass: allies' spells"}


def auto_pass_window(ctx: Ctx, effect: Effect) -> None:
    """Issue 13: Magi whose auto-pass covers this effect pass its window as soon as it would wait on them.

    ``always`` passes every window; ``allies`` those on effects of the Magi's own team (their own included).
    A caster who auto-passes gives up her priority, so the others' race starts at once.
    """
    if all(being.autopass == "never" for being in ctx.battle.beings.values()):
        return  # the common case, without working out who could respond
    caster = ctx.battle.beings.get(effect.caster)
    while True:
        chosen = [
            key
            for key in window_waiting(ctx, effect)
            if ctx.being(key).autopass == "always"
            or (ctx.being(key).autopass == "allies" and caster is not None and caster.team == ctx.being(key).team)
        ]
        if not chosen:
            return
        for key in chosen:
            being = ctx.being(key)
            effect.passed.append(key)
            if key == effect.caster:
                effect.priority_over = True
            ctx.j.say(
                f"{being.name} auto-passes on {effect.title} (#{effect.id}) ({AUTOPASS_WHY[being.autopass]}).",
                "auto_pass",
                magi=being.name,
                effect=effect.title,
                id=effect.id,
                mode=being.autopass,
            )


def say_unanswerable(ctx: Ctx, effect: Effect) -> None:
    """Issue 13: a window nobody could answer never waits; the card says the effect went straight through."""
    if effect.veiled:
        why = f"{effect.title} (#{effect.id}) is Veiled: no one may respond, so it activates at once."
    else:
        who = "else " if effect.passed else ""
        why = f"No one {who}holds a Response they could cast on {effect.title} (#{effect.id}): it activates at once."
    ctx.j.say(why, "no_response", effect=effect.title, id=effect.id)


def close_window(ctx: Ctx) -> list[str]:
    """The GM (or the play-by-post timer) closes the open window: everyone still eligible passes."""
    b = ctx.battle
    if not b.stack:
        return []
    top = b.stack[-1]
    closed: list[str] = []
    while waiting := window_waiting(ctx, top):  # the caster's priority first, then everyone else
        top.passed.extend(waiting)
        closed.extend(waiting)
        top.priority_over = top.priority_over or top.caster in waiting
    return closed
