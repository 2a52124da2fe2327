"""Rounds, scenes and days, advanced by the GM (M22, M32, M33, M36, M7, M8, M27): what lapses and what recovers.

A round's end rolls the collective paradox pool if it holds a die (P-G12), then
Shaping bonuses lapse at the start of their caster's next turn (the next
round), spells cast last round reach the instant they would expire, and spells
left expiring end. A scene's end lapses sustained spells (they must be
refreshed to be sustained again); a day's end rolls soul loss, the monthly
Willpower dot, and heals worn sympathy.
"""

from pydantic import Field

from rules.awakened.common import DiceOption, gm_dice, lengthen_limit, roll, roll_data, roll_text, spell_label
from rules.awakened.shaping import paradox_total
from rules.awakened.sheet import AwakenedSheet, AwakenedState
from rules.awakened.upkeep import soul_loss_roll, willpower_dot_roll
from rules.awakened.words import quantity
from rules.base import Card, Model, Outcome, RuleError, Table
from rules.text import FIELD_VALUE, clip


class RoundOptions(Model):
    tools: int = Field(default=0, ge=0, le=100, description="Dice removed by tools")
    dice: str | None = DiceOption


def end_round(table: Table, options: RoundOptions) -> Outcome:
    """`/awakened time round`: roll the round's paradox pool, then start the next round."""
    state, settings, book = table.state, table.settings, table.book
    dice = gm_dice(table, options.dice)
    total = paradox_total(state)
    card = Card(title=f"End of round {state.round} (scene {state.scene})")
    data: dict = {"scene": state.scene, "round": state.round, "paradox_dice": total, "tools": options.tools}
    secret = None
    pool = max(0, total - options.tools)
    if state.paradox_pool or state.paradox_marks:
        lines = [f"{p.caster}: {p.spell}: {p.dice}" for p in state.paradox_pool]
        lines += [f"{mark}: caused or aggravated paradox" for mark in state.paradox_marks]
        card.add("Paradox this round", clip("\n".join(lines)))
    if pool >= 1:
        result = roll(
            table, pool, again=settings.paradox_again, rote=settings.paradox_rote, dice=dice, what="The paradox roll"
        )
        text = roll_text(
            result,
            f"Collective paradox roll ({quantity(total, 'die')}"
            + (f" − {quantity(options.tools, 'die')} for tools)" if options.tools else ")"),
        )
        card.add("Paradox roll", clip(text))
        # cites P-G12
        card.add("The GM rules", "What the successes do is the GM's ruling (the book gives no table).")
        data["roll"] = roll_data(result)
        data["successes"] = result.successes
        casters = sorted({p.caster for p in state.paradox_pool})
        ceilings = []
        for name in casters:
            record = table.characters.get(name.casefold())
            if record is not None:
                wisdom = record.sheet.wisdom
                ceilings.append(
                    f"{name} (Wisdom {wisdom}) may inadvertently lengthen {lengthen_limit(book, wisdom)}"
                    + (": all, simultaneously." if wisdom == 0 else ".")
                )
        if ceilings:
            secret = Card(
                # cites M9
                title="Paradox: the casters' Wisdom ceilings",
                description="\n".join(ceilings),
                tone="secret",
            )
            data["ceilings"] = ceilings
    else:
        if dice is not None:
            raise RuleError("There is no paradox roll this round (the pool holds no dice); drop `dice`.")
        card.add(
            "Paradox roll",
            # cites P-G12
            "No dice in the pool: no roll, and no chance die."
            if total or state.paradox_marks
            else "No paradox this round.",
        )
        data["roll"] = None
    state.paradox_pool = []
    state.paradox_marks = []
    lapsed = _advance_round(table)
    state.round += 1
    if lapsed:
        card.add("Lapsed", clip("\n".join(lapsed)))
    card.footer = f"Now scene {state.scene}, round {state.round}."
    data["lapsed"] = lapsed
    return Outcome(card=card, summary=f"Round {state.round - 1} ended; paradox pool {pool}.", data=data, secret=secret)


def count_down_paradoxes(state: AwakenedState, unit: str, steps: int = 1) -> list[str]:
    """Standing paradoxes declared to last so many rounds, scenes or days fade when their time runs out."""
    faded, kept = [], []
    for item in state.paradoxes:
        if item.unit == unit and item.lasts is not None:
            left = item.lasts - steps
            if left <= 0:
                faded.append(f"Paradox #{item.id} ({item.kind}{' at ' + item.where if item.where else ''}) fades")
                continue
            item.lasts = left
        kept.append(item)
    state.paradoxes = kept
    return faded


def _advance_round(table: Table) -> list[str]:
    """Lapse Shaping bonuses; running spells reach their expiry instant; expired ones end."""
    state = table.state
    lapsed = count_down_paradoxes(state, "round")
    for record in table.characters.values():
        sheet: AwakenedSheet = record.sheet
        kept = []
        for spell in sheet.spells:
            label = f"{record.name}: {spell_label(spell)}"
            if spell.potency_until is not None and spell.potency_until <= state.now:
                spell.potency_bonus, spell.potency_until = 0, None
                lapsed.append(f"{label}: Potency back to base")
            if spell.tenacity_until is not None and spell.tenacity_until <= state.now:
                spell.tenacity_bonus, spell.tenacity_until = 0, None
                lapsed.append(f"{label}: Tenacity back to base")
            if spell.strength is not None:
                spell.strength = (
                    None  # lowered successes can only be restored during the turn; the next turn starts full
                )
            if spell.status == "expiring":
                lapsed.append(f"{label}: ended (not sustained or refreshed)")
                continue
            if spell.status == "running":
                spell.status = "expiring"
                lapsed.append(f"{label}: reaches its end; sustain or refresh it this turn or it ends")
            kept.append(spell)
        sheet.spells = kept
        for attainment in sheet.attainments:
            if attainment.shaped_until is not None and attainment.shaped_until <= state.now:
                attainment.shaped, attainment.shaped_until = 0, None
                lapsed.append(f"{record.name}: {attainment.name}: Potency and Tenacity back to 1")
    return lapsed


class SceneOptions(Model):
    note: str | None = Field(default=None, max_length=200, description="Note")


def end_scene(table: Table, options: SceneOptions) -> Outcome:
    """`/awakened time scene`: sustained spells lapse (refresh them to sustain again); ritual Tenacity settles."""
    state = table.state
    if paradox_total(state) or state.paradox_marks:
        raise RuleError("This round still holds paradox; end the round first with `/awakened time round`.")
    lapsed = _end_scene(table)
    state.scene += 1
    state.round = 1
    card = Card(title=f"Scene {state.scene - 1} ends", description=options.note or "")
    if lapsed:
        card.add("Lapsed", clip("\n".join(lapsed)))
    card.footer = f"Now scene {state.scene}, round 1."
    return Outcome(card=card, summary=f"Scene {state.scene - 1} ended.", data={"scene": state.scene, "lapsed": lapsed})


def _end_scene(table: Table) -> list[str]:
    state = table.state
    lapsed = count_down_paradoxes(state, "scene")
    for record in table.characters.values():
        sheet: AwakenedSheet = record.sheet
        kept = []
        for spell in sheet.spells:
            label = f"{record.name}: {spell_label(spell)}"
            spell.potency_bonus, spell.potency_until = 0, None
            if spell.tenacity_bonus:
                lapsed.append(
                    f"{label}: Shaping Tenacity lapses"
                    + (f" (a ritual keeps +{spell.lasting_tenacity})" if spell.lasting_tenacity else "")
                )
            spell.tenacity_bonus, spell.tenacity_until = 0, None
            if spell.status == "ritual" or (
                spell.status == "sustained" and spell.cost == 0 and sheet.state == "conscious"
            ):
                kept.append(spell)
                continue
            if spell.status == "sustained":
                spell.status = "expiring"
                spell.window = (state.scene + 1, 1)
                lapsed.append(f"{label}: the scene's sustain ends; refresh it now to keep it")
                kept.append(spell)
            else:
                lapsed.append(f"{label}: ended with the scene")
        sheet.spells = kept
        for attainment in sheet.attainments:
            if attainment.limit == "scene":
                attainment.uses = 0
        if sheet.sight_paid_scene is not None:
            sheet.sight_paid_scene = None
            if sheet.sight == "suppressed":
                lapsed.append(f"{record.name}: Mage Sight suppression ends with the scene")
                sheet.sight = "on"
    return lapsed


class DayOptions(Model):
    days: int = Field(default=1, ge=1, le=60, description="Days")
    rolls: bool = Field(default=True, description="Roll soul loss and Willpower dots")


def end_day(table: Table, options: DayOptions) -> Outcome:
    """`/awakened time day`: scenes end, soul loss and the monthly Willpower dot are rolled, sympathy heals."""
    state, settings = table.state, table.settings
    if paradox_total(state) or state.paradox_marks:
        raise RuleError("This round still holds paradox; end the round first with `/awakened time round`.")
    lines: list[str] = _end_scene(table) + count_down_paradoxes(state, "day", options.days)
    rolls: list[dict] = []
    healed: list[str] = []  # connections are each mage's secret: the GM's side (several owners share this result)
    for _ in range(options.days):
        finished = state.day
        state.day += 1
        for record in sorted(table.characters.values(), key=lambda r: r.name):
            sheet: AwakenedSheet = record.sheet
            healed += _heal_sympathy(sheet, record.name, state, table)
            if not options.rolls:
                continue
            if sheet.soul_lost and sheet.gnosis >= 1 and (sheet.gnosis >= 2 or finished % 7 == 0):
                line, data = soul_loss_roll(table, record, None, day=finished)
                lines.append(line)
                rolls.append(data)
            month = (state.day - 1) // settings.month_days
            new_month = (state.day - 1) % settings.month_days == 0 and sheet.last_willpower_month != month
            if sheet.willpower_dots_lost and new_month and sheet.gnosis >= 1:
                line, data = willpower_dot_roll(table, record, None, edge=0, month=month)
                lines.append(line)
                rolls.append(data)
    state.scene += 1
    state.round = 1
    card = Card(title=f"Day {state.day}", description=f"{quantity(options.days, 'day')} pass; a new scene begins.")
    if lines:
        text = "\n".join(lines)
        card.add("What changed", text[:FIELD_VALUE])
        if len(text) > FIELD_VALUE:
            card.add("…more", clip(text[FIELD_VALUE:]))
    card.footer = "Oblations and blood sacrifice by size are available again."
    secret = Card(title=f"Day {state.day}: sympathy heals", description="\n".join(healed)[:4000], tone="secret")
    return Outcome(
        card=card,
        summary=f"Day {state.day} begins.",
        data={"day": state.day, "rolls": rolls, "lines": lines, **({"gm": {"healed": healed}} if healed else {})},
        secret=secret if healed else None,
        secret_summary="; ".join(healed)[:1000] or None,
    )


def _heal_sympathy(sheet: AwakenedSheet, who: str, state: AwakenedState, table: Table) -> list[str]:
    """Worn connections heal a step per day untouched by magic, never past where they began (P-G33)."""
    levels = [*table.book.factors.sympathy.levels, "Unknown"]
    lines = []
    for name, link in sheet.connections.items():
        if link.level > link.original and link.heals and link.touched_day < state.day - 1:
            link.level -= 1
            lines.append(f"{who}: connection to {name} heals to {levels[link.level]}")
    return lines
