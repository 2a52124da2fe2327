"""The Encounter AI (RULING 13): draw a token, walk its chart top to bottom, act, and say why.

Every decision is written to the journal: the token drawn, each chart row tried
and why it was skipped (not enough Resonance, no Curse on it, no Focused
opponent), the target chosen (lowest Harmony, a d10 roll-off on a tie) and the
bag reset. Values the card scan garbles come from GM settings and are shown as
such; Ability Chart A is rolled and left to the GM.
"""

from __future__ import annotations

from typing import Literal

from rules.serpent.book import Amount, ChartEffect, ChartRow, Encounter
from rules.serpent.casting import karma
from rules.serpent.context import Ctx
from rules.serpent.control import cloaked_by
from rules.serpent.rounds import dice_off
from rules.serpent.state import Being, Effect, EncounterState, Impact


def join_encounter(ctx: Ctx, enc: Encounter) -> Being:
    """An Encounter joins at its printed strength; scaling is applied when a round starts."""
    key = enc.name.casefold()
    being = Being(
        key=key,
        name=enc.name,
        kind="encounter",
        team=enc.name,
        resonance=enc.resonance,
        harmony=None if not enc.has_harmony else 0,
        essence=enc.essence,
        starting_essence=enc.essence,
        will=0,
        focus_total=0,
        full_actions=enc.actions,
        actions_per_round=enc.actions,
        encounter=EncounterState(name=enc.name),
    )
    ctx.battle.beings[key] = being
    return being


def rescale(ctx: Ctx, being: Being) -> None:
    """Per-extra-Magi scaling: Essence, Resonance bonus and Actions; none in easy mode."""
    enc = ctx.book.encounter(being.encounter.name) if being.encounter else None
    if enc is None or being.encounter is None:
        return
    opponents = [b for b in ctx.battle.magi() if b.team != being.team]
    extra = 0 if ctx.battle.easy else max(0, len(opponents) - 1)
    delta = extra - being.encounter.scaled_for
    if not delta:
        return
    being.encounter.scaled_for = extra
    being.starting_essence += delta * enc.essence_per_extra
    being.essence += delta * enc.essence_per_extra
    being.actions_per_round = enc.actions + extra * enc.actions_per_extra
    being.full_actions += delta * enc.actions_per_extra
    ctx.j.say(
        f"{being.name} scales for {extra} extra Magi: Essence {being.essence}, Resonance bonus "
        f"{enc.resonance_bonus + extra * enc.resonance_bonus_per_extra}, {being.actions_per_round} actions.",
        "scale",
        extra=extra,
    )


def encounter_turn(ctx: Ctx, being: Being) -> None:
    """One Encounter action: a token from the bag chooses the chart; the first row it can take, it takes."""
    enc = ctx.book.encounter(being.encounter.name) if being.encounter else None
    if enc is None or being.encounter is None:
        being.passed = True
        return
    state = being.encounter
    if not any(b.team != being.team and not b.incapacitated for b in ctx.battle.beings.values()):
        ctx.j.say(f"{being.name} has no opponent left standing and waits.", "pass", being=being.name, auto=True)
        being.passed = True
        return
    token = ctx.draw_token(enc.bag, state.out, f"{being.name} action")
    state.out[token] = state.out.get(token, 0) + 1
    left = {c: enc.bag[c] - state.out.get(c, 0) for c in sorted(enc.bag)}
    ctx.j.say(
        f"🌑 **{being.name}** draws a **{token}** token (out of the bag now: "
        + ", ".join(f"{n} {c}" for c, n in sorted(state.out.items()))
        + f"; left in it: {', '.join(f'{n} {c}' for c, n in left.items())}).",
        "draw",
        token=token,
    )
    rows = enc.charts.get(token, [])
    free = False
    for number, row in enumerate(rows, 1):
        why = row_blocked(ctx, being, row)
        if why:
            ctx.j.say(
                f"  {token.title()} row {number} ({row.name}): skipped, {why}.",
                "row",
                chart=token,
                number=number,
                row=row.name,
                taken=False,
                why=why,
            )
            continue
        ctx.j.say(
            f"  {token.title()} row {number} ({row.name}): taken. {row.text}.",
            "row",
            chart=token,
            number=number,
            row=row.name,
            taken=True,
        )
        if row.cost:
            being.resonance -= row.cost
            ctx.j.say(f"  {being.name} pays {row.cost} Resonance ({being.resonance} left).")
        effect, title = row.effect, row.name
        if row.roll_chart:
            effect, title = roll_ability_chart(ctx, enc, row.roll_chart)
        if effect is not None:
            free = effect.free_action
            act(ctx, being, enc, row, effect, title)
        break
    else:
        ctx.j.say(f"  No {token} row applies; {being.name} does nothing.")
    if not free:
        being.full_actions -= 1
    else:
        ctx.j.say(f"  A Free Action: {being.name} keeps its Full Action.")
    if being.full_actions <= 0:
        being.passed = True
    reset = all(state.out.get(color, 0) >= n for color, n in enc.bag_reset.items())
    if reset:
        state.out = {}
        need = " and ".join(f"{n} {c}" for c, n in enc.bag_reset.items())
        ctx.j.say(f"  {need} are out: the bag resets and every token goes back in.", "bag_reset")


def row_blocked(ctx: Ctx, being: Being, row: ChartRow) -> str | None:
    """Why the Encounter cannot take this row, or None when it can."""
    if being.resonance < row.cost:
        return f"it needs {row.cost} Resonance and has {being.resonance}"
    if row.condition == "curse_on_self":
        curses = [
            c for c in ctx.battle.in_play() if c.zone == "curse" and (c.bearer == being.key or being.key in c.affected)
        ]
        fitting = [c for c in curses if ctx.spell(c.title).sphere in row.condition_spheres]
        if not fitting:
            have = ", ".join(f"{c.title} ({ctx.spell(c.title).sphere or 'sphere unknown'})" for c in curses)
            return f"it bears no {'/'.join(row.condition_spheres)} Curse" + (f" (it bears {have})" if have else "")
    if row.condition == "focused_opponent" and not focused_opponents(ctx, being):
        return "no opponent is Focused on a spell"
    return None


def focused_opponents(ctx: Ctx, being: Being) -> list[Being]:
    holders = {c.focus for c in ctx.battle.in_play() if c.focus}
    return [b for b in ctx.battle.beings.values() if b.team != being.team and b.key in holders and not b.incapacitated]


def roll_ability_chart(ctx: Ctx, enc: Encounter, name: str) -> tuple[ChartEffect | None, str]:
    chart = enc.ability_chart(name)
    die = ctx.d10(f"Ability Chart {name}")
    if chart is None or not chart.legible:
        ctx.j.say(
            f"  🎲 Ability Chart {name}: rolled **{die}**. The chart is garbled in the book: "
            "the GM resolves it by hand "
            "(/serpent battle adjust).",
            "chart",
            chart=name,
            die=die,
            gm=True,
        )
        return None, f"Ability Chart {name}"
    row = next((r for r in chart.rows if r.low <= die <= r.high), None)
    if row is None:
        ctx.j.say(f"  🎲 Ability Chart {name}: rolled {die}; no row matches.")
        return None, f"Ability Chart {name}"
    ctx.j.say(f"  🎲 Ability Chart {name}: rolled **{die}** → {row.text}", "chart", chart=name, die=die)
    span = f"{row.low}-{row.high}" if row.low != row.high else str(row.low % 10)
    return row.effect, f"Ability Chart {name} ({span})"


def choose_target(ctx: Ctx, being: Being) -> Being | None:
    """RULING 13: the lowest Harmony; a tie is broken by d10, the highest roll becomes the target."""
    foes = [b for b in ctx.battle.beings.values() if b.team != being.team and not b.incapacitated]
    foes = [b for b in foes if not cloaked_by(ctx, b)]  # glossary "Cloaked": opponents cannot target them
    if not foes:
        return None
    lowest = min(b.harmony or 0 for b in foes)
    tied = [b for b in foes if (b.harmony or 0) == lowest]
    if len(tied) == 1:
        ctx.j.say(f"  Target: {tied[0].name}, the lowest Harmony ({lowest}).", "target", target=tied[0].name)
        return tied[0]
    ctx.j.say(f"  Target: {', '.join(b.name for b in tied)} tie at {lowest} Harmony; a d10 each decides.")
    chosen = dice_off(ctx, tied, "targeting roll")[0]
    ctx.j.say(f"  Target: {chosen.name} rolled highest.", "target", target=chosen.name)
    return chosen


def act(ctx: Ctx, being: Being, enc: Encounter, row: ChartRow, effect: ChartEffect, title: str) -> None:
    """Turn a chart result into an effect on the stack (it gets a response window like any other)."""
    if effect.critical_failure:
        ctx.j.say(f"  Critical failure: {title} fizzles.", "critical_failure")
        return
    unknown: list[str] = []
    dmg = effect.dmg
    gain = effect.gain_resonance
    if effect.value_setting:
        value = getattr(ctx.settings, effect.value_setting, None)
        if value is None:
            unknown.append(effect.value_setting)
            ctx.j.say(
                f"  ⚠ {row.name}'s value is garbled in the book and the GM has not set `{effect.value_setting}`: "
                "it is treated as 0; the GM may apply it with /serpent battle adjust.",
                "gm_value",
                setting=effect.value_setting,
            )
            value = 0
        else:
            ctx.j.say(
                f"  {row.name} uses the GM-supplied `{effect.value_setting}` = {value}.",
                "gm_value",
                setting=effect.value_setting,
                value=value,
            )
        if dmg is not None:
            dmg = Amount(amount=value, energy=dmg.energy)
        else:
            gain = value
    pierce = 0
    if dmg is not None and enc.low_essence_below is not None and being.essence < enc.low_essence_below:
        pierce = enc.low_essence_pierce
        ctx.j.say(f"  {being.name} is below {enc.low_essence_below} Essence: its attack gains Pierce {pierce}.")
    impact = Impact(
        sphere=enc.sphere,
        dmg=dmg,
        disrupt=effect.disrupt,
        focus_loss_harmony=effect.focus_loss_harmony,
        subtle=effect.subtle,
        pierce=pierce,
        area="team" if effect.area else None,
        gain_resonance=gain,
        unknown=unknown,
    )
    target_kind: Literal["being", "team", "none"] = "none"
    target: str | None = None
    if effect.target == "lowest_harmony":
        victim = choose_target(ctx, being)
        if victim is None:
            return
        target_kind, target = "being", victim.key
    elif effect.target == "team":
        foes = [b for b in ctx.battle.beings.values() if b.team != being.team and not b.incapacitated]
        if not foes:
            return
        lowest = min(foes, key=lambda b: b.harmony or 0)
        target_kind, target = "team", lowest.team
        teams = {b.team for b in foes}
        why = (
            f"the team of the lowest Harmony opponent, {lowest.name} ({lowest.harmony or 0})"
            if len(teams) > 1
            else "its only opposing team"
        )
        ctx.j.say(
            f"  Target: team {lowest.team}, {why}; an Area effect impacts every member.",
            "target",
            target=f"team {lowest.team}",
        )
    offensive = target_kind != "none"
    ctx.battle.stack.append(
        Effect(
            id=ctx.battle.new_id(),
            title=title,
            kind="encounter",
            caster=being.key,
            target_kind=target_kind,
            target=target,
            is_spell=row.is_spell,
            offensive=offensive,
            free_action=effect.free_action,
            impact=impact,
        )
    )
    if row.is_spell and offensive:
        karma(ctx, ctx.battle.stack[-1], being)
