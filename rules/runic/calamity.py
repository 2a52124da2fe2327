"""Calamity checks (ruling 3) and the effects of Calamity and Critical Failure rows.

The effects come from the book as data; this module rolls each sub-die,
applies what the text states to the sheet, and records lasting conditions with
their rolled durations. Amounts the book hides from the mage ("aware that
there's been a drop, but not of how much") go to the GM's lines only.
"""

from collections.abc import Callable
from fractions import Fraction
from random import Random

from pydantic import Field

from rules.base import Card, Chart, Model, Outcome, Table
from rules.dice import CannotAttemptError, SuccessRoll, roll_success
from rules.dice.odds import SumBand, percent, sum_band_odds
from rules.runic import rolls
from rules.runic.book import (
    Aging,
    Backlash,
    Companion,
    ConditionEffect,
    Disadvantage,
    Injury,
    LoseMagery,
    LosePoints,
    MPLoss,
    RecoverMP,
    RollTable,
    RunicBook,
    TableRow,
)
from rules.runic.mana import calamity_bonus, refresh_mp_max
from rules.runic.rolls import DiceRoll
from rules.runic.sheet import Condition, MageSheet

MAX_REROLLS = 10  # 22 on a 22's reroll rolls again; this stops a freak chain
UNIT_SECONDS = {"turn": 1, "minute": 60, "hour": 3600, "day": 86_400, "week": 604_800}


class Applied(Model):
    """What a table row did: public lines, GM-only lines, and every sub-roll."""

    lines: list[str] = Field(default_factory=list)
    secret_lines: list[str] = Field(default_factory=list)
    rolls: list[DiceRoll] = Field(default_factory=list)
    secret_rolls: list[DiceRoll] = Field(default_factory=list)  # dice whose result the mage may not know
    checks: list[SuccessRoll] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list)
    harmful: bool = False


class CalamityResult(Model):
    """One Calamity check: the 3d, the bonus, the entry, and what it did."""

    who: str
    dice: list[int]
    bonus: int
    total: int
    row: str
    text: str
    applied: Applied
    will_roll: SuccessRoll | None = None
    will_skill: int | None = None
    spell_fails: bool = False
    companion: "CalamityResult | None" = None
    companion_note: str = ""
    rerolled: list[list[int]] = Field(default_factory=list)  # a companion's rerolls that came up 22 again

    def summary(self) -> str:
        return f"Calamity {self.total} ({self.row})"


# ---------------------------------------------------------------- conditions


def _rank(condition: Condition) -> tuple[int, int]:
    order = {"sunrise": 0, "days": 1, "gm": 2, "permanent": 3}
    return order[condition.until], condition.days_left or 0


def add_condition(sheet: MageSheet, condition: Condition) -> None:
    """Record a condition; one already running under the same key keeps whichever lasts longer."""
    for index, old in enumerate(sheet.conditions):
        if old.key == condition.key:
            if _rank(condition) > _rank(old):
                sheet.conditions[index] = condition
            return
    sheet.conditions.append(condition)


def _condition_effect(
    rng: Random, book: RunicBook, table: RollTable, effect: ConditionEffect, sheet: MageSheet, source: str
) -> Applied:
    applied = Applied(harmful=True)
    duration, until, days = "until the GM ends it", "gm", None
    if effect.dice and effect.unit:
        rolled = rolls.roll(rng, effect.dice)
        applied.rolls.append(rolled)
        count = rolled.total
        duration = f"{count} {effect.unit}{'s' if count != 1 else ''}"
        if effect.unit in ("day", "week"):
            until, days = "days", count * (7 if effect.unit == "week" else 1)
        else:
            until = "sunrise"
    area = ""
    if effect.area_dice and effect.area_unit:
        rolled_area = rolls.roll(rng, effect.area_dice)
        applied.rolls.append(rolled_area)
        area = f", within {rolled_area.total} {effect.area_unit}s"
    for key in effect.conditions:
        kind = table.conditions[key]
        add_condition(
            sheet,
            Condition(
                key=key,
                name=kind.name,
                effect=kind.effect + area,
                source=source,
                duration=duration,
                until=until,
                days_left=days,
                failures_critical=kind.failures_critical,
                spell_cost_multiplier=kind.spell_cost_multiplier,
                recovery_halted=kind.recovery_halted,
            ),
        )
        applied.conditions.append(kind.name)
    names = " and ".join(table.conditions[k].name for k in effect.conditions)
    applied.lines.append(f"{names}: {duration}{area}")
    return applied


# ---------------------------------------------------------------- one function per effect kind


def apply_effects(
    rng: Random,
    book: RunicBook,
    table: RollTable,
    row: TableRow,
    sheet: MageSheet,
    *,
    source: str,
    companion: Callable[[], CalamityResult | None] | None = None,
) -> tuple[Applied, CalamityResult | None]:
    """Apply a row (with the rows it includes) to ``sheet``; returns what happened and any companion result."""
    out = Applied()
    magery, will = sheet.magery, sheet.will  # the backlash uses them as they were before this row
    other: CalamityResult | None = None
    for effect in table.effects_of(row):
        step = Applied(harmful=True)
        if isinstance(effect, RecoverMP):
            rolled = rolls.roll(rng, rolls.DiceSpec.parse(effect.dice, effect.multiply))
            gained = max(0, min(rolled.total, sheet.mp_max - sheet.mp))
            sheet.mp += gained
            step = Applied(rolls=[rolled], lines=[f"Free recovery: {rolled.text}, +{gained} MP (now {sheet.mp})"])
        elif isinstance(effect, Injury):
            step = _injury(rng, effect, sheet)
        elif isinstance(effect, ConditionEffect):
            step = _condition_effect(rng, book, table, effect, sheet, source)
        elif isinstance(effect, MPLoss):
            step = _mp_loss(rng, book, effect, sheet)
        elif isinstance(effect, Disadvantage):
            step = _disadvantage(rng, effect, sheet, source)
        elif isinstance(effect, Aging):
            rolled = rolls.roll(rng, effect.dice)
            if sheet.age is not None:
                sheet.age += rolled.total
            age = f" (now {sheet.age})" if sheet.age is not None else ""
            step.rolls, step.lines = [rolled], [f"Aged {rolled.text} years{age}"]
        elif isinstance(effect, LosePoints):
            step = _lose_points(rng, effect, sheet, source)
        elif isinstance(effect, LoseMagery):
            step = _lose_magery(book, effect, sheet)
        elif isinstance(effect, Companion):
            other = companion() if companion else None
            step.harmful = False
        elif isinstance(effect, Backlash):
            step = _backlash(rng, effect, sheet, magery=magery, will=will)
        _merge(out, step)
    return out, other


def _merge(into: Applied, step: Applied) -> None:
    into.lines += step.lines
    into.secret_lines += step.secret_lines
    into.rolls += step.rolls
    into.secret_rolls += step.secret_rolls
    into.checks += step.checks
    into.conditions += step.conditions
    into.harmful = into.harmful or step.harmful


def _injury(rng: Random, effect: Injury, sheet: MageSheet) -> Applied:
    if effect.dice is None:
        amount, shown, done = effect.points or 0, [], f"{effect.points}"
    else:
        rolled = rolls.roll(rng, rolls.DiceSpec.parse(effect.dice, effect.multiply))
        amount, shown, done = rolled.total, [rolled], rolled.text
    sheet.hp -= amount
    return Applied(harmful=True, rolls=shown, lines=[f"Injury: {done} → HP {sheet.hp}/{sheet.hp_max}"])


def _mp_loss(rng: Random, book: RunicBook, effect: MPLoss, sheet: MageSheet) -> Applied:
    rolled = rolls.roll(rng, effect.dice)
    if effect.permanent:
        sheet.mp_lost_permanent += rolled.total
        how = "permanently"
    else:
        sheet.mp_lost_temporary += rolled.total
        how = "back at 1 per day"
    refresh_mp_max(sheet, book)
    exact = f"Maximum MP lost: {rolled.text} ({how}); max MP now {sheet.mp_max}"
    if effect.hidden:
        public = f"The mage's grasp on magic weakens: maximum MP drops ({how}); how much, only the GM knows"
        return Applied(harmful=True, secret_rolls=[rolled], lines=[public], secret_lines=[exact])
    return Applied(harmful=True, rolls=[rolled], lines=[exact])


def _disadvantage(rng: Random, effect: Disadvantage, sheet: MageSheet, source: str) -> Applied:
    faces = [rng.randint(1, 6) for _ in range(3)]
    checks, verdicts = [], []
    for label, score in (("HT", sheet.ht), ("Will", sheet.will)):
        try:
            check = roll_success(rng, score, dice=faces)
        except CannotAttemptError:
            verdicts.append(f"{label} {score}: cannot roll → permanent")
            continue
        checks.append(check)
        verdicts.append(f"{label} {score}: {'made → lasting' if check.succeeded else 'failed → permanent'}")
    roll_text = f"3d [{'+'.join(map(str, faces))}] = {sum(faces)}"
    effect_text = (
        f"A disadvantage of up to {effect.points} points, the GM's choice. {roll_text}: "
        f"{'; '.join(verdicts)} (HT for a physical disadvantage, Will for a mental one)."
    )
    add_condition(
        sheet,
        Condition(
            key=f"disadvantage_{source}",
            name=f"Disadvantage ({effect.points} points)",
            effect=effect_text,
            source=source,
            duration="lasting or permanent crippling injury, as rolled",
            until="gm",
        ),
    )
    return Applied(harmful=True, checks=checks, lines=[effect_text], conditions=["Disadvantage"])


def _lose_points(rng: Random, effect: LosePoints, sheet: MageSheet, source: str) -> Applied:
    rolled = rolls.roll(rng, rolls.DiceSpec.parse(effect.dice, effect.multiply))
    text = f"Permanently loses {rolled.total} points of advantages, attributes or secondary characteristics"
    add_condition(
        sheet,
        Condition(
            key=f"lost_points_{source}",
            name=f"Lost {rolled.total} points",
            effect=text + " (the GM chooses which, then edits the sheet).",
            source=source,
            duration="permanent",
            until="permanent",
        ),
    )
    return Applied(harmful=True, rolls=[rolled], lines=[f"{text}: {rolled.text}"], conditions=["Lost points"])


def _lose_magery(book: RunicBook, effect: LoseMagery, sheet: MageSheet) -> Applied:
    before = sheet.magery
    sheet.magery = 0 if effect.levels is None else max(0, sheet.magery - effect.levels)
    sheet.magery_locked = True
    refresh_mp_max(sheet, book)
    what = "all Magery" if effect.levels is None else f"{effect.levels} level of Magery, and can never raise it again"
    line = f"Loses {what}: Magery {before} → {sheet.magery}"
    if sheet.hides_mp_max:  # the lost MP stays the GM's secret
        return Applied(harmful=True, lines=[line], secret_lines=[f"{line}, max MP {sheet.mp_max}"])
    return Applied(harmful=True, lines=[f"{line}, max MP {sheet.mp_max}"])


def _backlash(rng: Random, effect: Backlash, sheet: MageSheet, *, magery: int, will: int) -> Applied:
    skill = sheet.ht + effect.modifier
    step = Applied(harmful=True)
    try:
        check: SuccessRoll | None = roll_success(rng, skill)
    except CannotAttemptError:
        check = None
    if check is not None:
        step.checks.append(check)
    made = check is not None and check.succeeded
    shown = f"3d {check.dice} = {check.total} vs {skill}" if check else f"HT{effect.modifier} is {skill}: cannot roll"
    dice = effect.success_dice if made else f"{will + magery}d"
    rolled = rolls.roll(rng, dice)
    sheet.hp -= rolled.total
    step.rolls.append(rolled)
    if made:
        step.lines.append(f"HT{effect.modifier} roll ({shown}) made: backlash {rolled.text} → HP {sheet.hp}")
    else:
        step.lines.append(
            f"HT{effect.modifier} roll ({shown}) failed: consumed by a backlash of (Will {will} + Magery {magery}) "
            f"dice of explosive burning damage, ignoring DR: {rolled.text} → HP {sheet.hp}"
        )
    return step


# ---------------------------------------------------------------- the check


def companions(table: Table, caster: str) -> dict[str, MageSheet]:
    """Who a Calamity 22 can strike: the campaign's other mages."""
    return {r.name: r.sheet for r in table.characters.values() if r.name != caster and r.sheet.magery > 0}


def calamity_check(
    rng: Random,
    book: RunicBook,
    sheet: MageSheet,
    *,
    who: str,
    companions: dict[str, MageSheet],
    bonus: int | None = None,
    will_roll: bool = True,
    dice: list[int] | None = None,
) -> CalamityResult:
    """Roll 3d + bonus, apply the entry, and on 29+ make the Will roll at -bonus (ruling 3).

    ``dice`` are the three faces a GM rolled at the table (checked by the caller); sub-rolls use ``rng``.
    """
    bonus = calamity_bonus(sheet.mp, book) if bonus is None else bonus
    dice = list(dice) if dice is not None else [rng.randint(1, 6) for _ in range(3)]
    total = sum(dice) + bonus
    row = book.calamity.row_for(total)
    source = f"Calamity {total}"

    def strike_companion() -> CalamityResult | None:
        if not companions:
            return None
        name = rng.choice(sorted(companions))
        return _companion_check(rng, book, companions[name], who=name, bonus=bonus)

    applied, companion = apply_effects(rng, book, book.calamity, row, sheet, source=source, companion=strike_companion)
    result = CalamityResult(
        who=who, dice=dice, bonus=bonus, total=total, row=row.label, text=row.text, applied=applied, companion=companion
    )
    if companion is None and any(e.kind == "companion" for e in row.effects):
        result.companion_note = "No other mage in the campaign: the GM picks the companion and applies a new roll."
    if will_roll and total >= book.calamity.spell_fails_from:
        result.will_skill = sheet.will - bonus
        try:
            result.will_roll = roll_success(rng, result.will_skill)
            result.spell_fails = not result.will_roll.succeeded
        except CannotAttemptError:
            result.spell_fails = True
    return result


def _companion_check(rng: Random, book: RunicBook, sheet: MageSheet, *, who: str, bonus: int) -> CalamityResult:
    """22: roll again with the same modifier against a companion; another 22 rolls again for the same one."""
    rerolled: list[list[int]] = []
    for _ in range(MAX_REROLLS):
        dice = [rng.randint(1, 6) for _ in range(3)]
        total = sum(dice) + bonus
        row = book.calamity.row_for(total)
        if any(e.kind == "companion" for e in book.calamity.effects_of(row)):
            rerolled.append(dice)
            continue
        applied, _ = apply_effects(rng, book, book.calamity, row, sheet, source=f"Calamity {total} (companion)")
        return CalamityResult(
            who=who,
            dice=dice,
            bonus=bonus,
            total=total,
            row=row.label,
            text=row.text,
            applied=applied,
            rerolled=rerolled,
        )
    note = Applied(lines=[f"{MAX_REROLLS} rerolls in a row came up 22; the GM decides."])
    return CalamityResult(who=who, dice=[], bonus=bonus, total=0, row="—", text="", applied=note, rerolled=rerolled)


def calamity_odds(book: RunicBook, mp: int) -> Outcome:
    """``/odds calamity``: the chance of each row of the Calamity Table at ``mp``, for 3d6 + the bonus (ruling 3)."""
    table = book.calamity
    bonus = calamity_bonus(mp, book)
    odds = sum_band_odds(3, 6, [SumBand(low=row.low, high=row.high, label=row.label) for row in table.row], bonus=bonus)
    fails_from = table.spell_fails_from
    lines = [f"`{band.band.label:>5}` {percent(band.probability):>7}" for band in odds.bands if band.probability]
    fails = sum((b.probability for b in odds.bands if b.band.low >= fails_from), Fraction(0))
    card = Card(title=f"Odds: Calamity check at MP {mp}", description="\n".join(lines)[:4000])
    card.add("Bonus", f"+{bonus} (a full {table.bonus_per} MP below zero each)", inline=True)
    card.add(f"{fails_from}+ (spell fails without a Will roll)", percent(fails), inline=True)
    card.footer = "3d6 + bonus, exact (ruling 3)."
    data = {"mp": mp, "bonus": bonus, "bands": {b.band.label: str(b.probability) for b in odds.bands}}
    data["spell_fails"] = str(fails)
    shown = [b for b in odds.bands if b.probability]
    chart = Chart(
        title=f"Calamity check at MP {mp} (3d6+{bonus})",
        bars=[(b.band.label, float(b.probability)) for b in shown],
        highlight=[b.band.label for b in shown if b.band.low is not None and b.band.low >= fails_from],
        x_label="Calamity Table row",
    )
    return Outcome(card=card, summary=f"calamity odds at MP {mp}", data=data, ephemeral=True, chart=chart)
