"""``/realm spells``: every spell in effect, its state, and when it ends or next wakes (spec section 3)."""

from pydantic import Field

from rules.base import Card, Model, Outcome, Table, add_field, fit
from rules.realm.core import clearing_colors, day_colors, item_colors, state_of
from rules.realm.days import target_clearing
from rules.realm.state import Casting
from rules.text import fold

HORIZON = 400  # days looked ahead for the next day of a color (GM overrides may push it past a month)


def next_color_day(table: Table, casting: Casting) -> int | None:
    """The first day after today whose colors include the spell's (G-R10)."""
    today = state_of(table).day
    return next((d for d in range(today + 1, today + HORIZON) if casting.color in day_colors(table, d)), None)


def when(table: Table, casting: Casting) -> str:
    """When a spell ends, or when an inert one is active again, in the GM's words."""
    state = state_of(table)
    if casting.status == "cast":
        return "cast; waiting for a target in the Melee Step"
    if casting.status == "targeted":
        return f"aimed at {', '.join(casting.targets)}; goes into effect in speed order"
    if casting.status == "launched":
        return "launched; expires when attacks resolve this round"
    if casting.status == "held":
        return f"special chit held by {casting.holder}; expires at the end of the phase or move it is played in"
    if casting.status == "played":
        return "special chit played; expires at the end of that phase or round"
    if casting.duration == "day":
        return f"expires at sunset of day {casting.day + 1}"
    if casting.duration == "combat":
        return f"expires at the end of combat in {casting.clearing} (day {casting.day})"
    if casting.status == "active":
        return f"active until midnight of day {casting.active_until}"
    where = target_clearing(table, casting)
    standing = [s for c, s in clearing_colors(table, where) + item_colors(table, where) if c == casting.color]
    wake = next_color_day(table, casting)
    text = "inert; " + (
        f"active again on day {wake}, the next {casting.color} day" if wake else f"no {casting.color} day ahead"
    )
    if state.phase != "night" and casting.color in day_colors(table, state.day):
        text = f"inert; today is a {casting.color} day: energize it (`/realm energize`)"
    if standing:
        text += f"; or at the next phase or round in {where} ({', '.join(standing)})"
    return text + f"; or a {casting.color} color chit in {where}"


def casting_line(table: Table, casting: Casting) -> str:
    targets = f" on {', '.join(casting.targets)}" if casting.targets else ""
    what = f"{casting.caster}{targets}; {casting.duration}, {casting.color}"
    return f"#{casting.id} **{casting.spell}** ({what}): {when(table, casting)}"


class SpellsOptions(Model):
    caster: str | None = Field(default=None, max_length=60, description="Only this caster's spells")


def spells_board(table: Table, options: SpellsOptions) -> Outcome:
    state = state_of(table)
    castings = [c for c in state.castings if not options.caster or fold(c.caster) == fold(options.caster)]
    card = Card(title=f"Spells in effect: day {state.day}, {state.phase}")
    colors = day_colors(table, state.day)
    card.description = f"Today's colors: {', '.join(colors) or 'none'}."
    by_status: dict[str, list[str]] = {}
    for casting in castings:
        group = (
            "Inert"
            if casting.status == "inert"
            else "Pending"
            if casting.status in ("cast", "targeted")
            else "In effect"
        )
        by_status.setdefault(group, []).append(casting_line(table, casting))
    for group in ("In effect", "Inert", "Pending"):
        if group in by_status:
            add_field(card, group, by_status[group])
    if not castings:
        add_field(card, "None", "No spell is in effect.")
    data = {
        "day": state.day,
        "phase": state.phase,
        "spells": [
            {
                "id": c.id,
                "spell": c.spell,
                "caster": c.caster,
                "status": c.status,
                "duration": c.duration,
                "color": c.color,
                "targets": c.targets,
                "active_until": c.active_until,
                "when": when(table, c),
            }
            for c in castings
        ],
    }
    return Outcome(card=fit(card), summary="spells board", data=data)
