"""The rolls and resources outside a spell: oblation, blood sacrifice, soul loss, Willpower dots, soul stones.

Each follows the spec's ruling exactly (M7, M8, M10, M11, M14; P-G26 to P-G32).
Mana gained stops at the effective maximum and the excess is shown as lost (P-G31).
"""

from typing import Literal

from pydantic import Field

from rules.awakened.common import (
    DiceOption,
    MageOption,
    clip_mana,
    gain_mana,
    gm_dice,
    mage_of,
    mana_max,
    roll,
    roll_data,
    roll_text,
)
from rules.awakened.payment import find_hallow
from rules.awakened.sheet import AwakenedSheet, SoulStone
from rules.awakened.words import quantity
from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table

LEGACY_GNOSIS_FROM = 5  # a Legacy oblation gains a die per Gnosis dot past the fifth (l.56, l.352)
LEGACY_BASE_MANA = 3
SACRIFICE_MANA_PER_SUCCESS = 3
WILLPOWER_DICE = 3


def trait(sheet: AwakenedSheet, name: str) -> int:
    key = name.strip().casefold()
    for table in (sheet.attributes, sheet.skills):
        for trait, value in table.items():
            if trait.casefold() == key:
                return value
    if key == "gnosis":
        return sheet.gnosis
    return 0


# ---------------------------------------------------------------- oblation (M11)


class OblationOptions(Model):
    hallow: str | None = Field(default=None, max_length=60, description="Hallow (without a Legacy)")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def oblation_pool(sheet: AwakenedSheet) -> tuple[int, str]:
    if sheet.legacy is not None:
        a, b = sheet.legacy.oblation_traits
        bonus = max(0, sheet.gnosis - LEGACY_GNOSIS_FROM)
        pool = trait(sheet, a) + trait(sheet, b) + bonus
        return pool, f"{a} {trait(sheet, a)} + {b} {trait(sheet, b)}" + (f" + {bonus} (Gnosis past 5)" if bonus else "")
    resistance = trait(sheet, sheet.resistance)
    return max(
        sheet.gnosis, resistance
    ), f"the higher of Gnosis {sheet.gnosis} and {sheet.resistance.title()} {resistance}"


def oblation(table: Table, options: OblationOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    state, settings, book = table.state, table.settings, table.book
    who = record.name
    if sheet.last_oblation_day == state.day:
        raise RuleError(f"{who} has made today's oblation already (one per day; day {state.day}).")
    if sheet.state != "conscious":
        raise RuleError(f"{who} is {sheet.state}: an oblation is an hour-long ceremony.")
    hallow = None
    if sheet.legacy is None:
        if not options.hallow:
            raise RuleError(f"{who} has no Legacy: an oblation can only be performed in a Hallow; name it in `hallow`.")
        hallow = find_hallow(state, options.hallow)
        if hallow.potential < 1:
            # cites P-G26
            raise RuleError(f"The Hallow {hallow.name} has no potential Mana left to exhaust.")
    elif options.hallow:
        # cites l.56
        raise RuleError("A Legacy oblation never benefits from a Hallow; drop `hallow`.")
    dice = gm_dice(table, options.dice)
    pool, how = oblation_pool(sheet)
    result = roll(table, pool, dice=dice, what="The oblation roll")
    sheet.last_oblation_day = state.day
    lines = []
    regained = False
    if result.successes >= 1 and not sheet.soul_lost and sheet.gnosis_lost:
        sheet.gnosis += 1
        sheet.gnosis_lost -= 1
        regained = True
        if sheet.sight == "lost":
            sheet.sight = "on"  # the nimbus regenerates: Mage Sight returns with the first dot
        # cites M7, P-G27
        lines.append(f"A successful oblation with the soul restored: Gnosis regained → {sheet.gnosis}.")
    if hallow is not None:
        hallow.potential -= 1
        bonus = (
            LEGACY_BASE_MANA + hallow.rating if settings.hallow_oblation_bonus == "three_plus_rating" else hallow.rating
        )
        earned = result.successes + bonus
        lines.append(
            # cites P-G26
            f"Mana: {quantity(result.successes, 'success')} + {bonus} (the Hallow) = {earned}; "
            f"{hallow.name} potential → {hallow.potential}."
        )
    else:
        earned = LEGACY_BASE_MANA + result.successes
        lines.append(f"Mana: 3 + {quantity(result.successes, 'success')} = {earned} (Legacy oblation).")
    if sheet.gnosis == 0:
        earned = 0
        lines.append("Gnosis 0: the mage cannot store Mana.")
    before = sheet.mana
    gained, lost = gain_mana(sheet, book, earned)
    lines.append(
        f"Mana {before} → {sheet.mana}" + (f" ({lost} lost above the maximum {mana_max(sheet, book)})" if lost else "")
    )
    card = Card(title=f"Oblation: {who}", description=roll_text(result, f"Pool {pool} ({how})"))
    card.add("Result", "\n".join(lines))
    if dice is not None:
        card.footer = "The GM rolled these dice at the table."
    data = {
        "mage": who,
        "pool": pool,
        "roll": roll_data(result),
        "earned": earned,
        "gained": gained,
        "lost": lost,
        "mana": sheet.mana,
        "hallow": hallow.name if hallow else None,
        "gnosis_regained": regained,
    }
    return Outcome(card=card, summary=f"{who}'s oblation: +{gained} Mana.", data=data)


# ---------------------------------------------------------------- blood sacrifice (M10)


class SacrificeOptions(Model):
    size: Literal["small", "large", "huge"] = Field(description="cat / dog, goat / human, bull")
    sapient: bool = Field(default=False, description="Sapient victim")
    morality: int = Field(default=0, ge=0, le=10, description="Victim's Morality")
    victim_willpower: bool = Field(default=False, description="Victim spends Willpower")
    mage: str | None = MageOption
    dice: str | None = DiceOption


def sacrifice(table: Table, options: SacrificeOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    state, book = table.state, table.book
    who = record.name
    if not options.sapient and (options.morality or options.victim_willpower):
        raise RuleError("`morality` and `victim_willpower` are for a sapient victim; add `sapient:true`.")
    dice = gm_dice(table, options.dice)
    row = book.sacrifice(options.size)
    lines = []
    size_mana = 0
    if sheet.last_sacrifice_day == state.day:
        lines.append(f"Mana from size already reaped today (day {state.day}): 0 from {row.text}.")
    else:
        size_mana = row.mana
        sheet.last_sacrifice_day = state.day
        lines.append(f"Size: {row.text}: {row.mana} Mana.")
    result = None
    extra = 0
    if options.sapient:
        pool = options.morality + (WILLPOWER_DICE if options.victim_willpower else 0)
        result = roll(table, pool, dice=dice, what="The Morality roll")
        extra = SACRIFICE_MANA_PER_SUCCESS * result.successes
        lines.append(
            f"Morality roll: {result.successes} × 3 = {extra} Mana"
            # cites P-G32
            + (" (a dramatic failure: nothing more)" if result.dramatic_failure else "")
            + "."
        )
    elif dice is not None:
        raise RuleError("Only a sapient sacrifice is rolled for; drop `dice`.")
    before = sheet.mana
    gained, lost = gain_mana(sheet, book, size_mana + extra)
    lines.append(f"Mana {before} → {sheet.mana}" + (f" ({lost} lost above the maximum)" if lost else ""))
    card = Card(title=f"Blood sacrifice: {who}", description=roll_text(result, "Morality roll") if result else "")
    card.add("Mana", "\n".join(lines))
    data = {
        "mage": who,
        "size_mana": size_mana,
        "extra": extra,
        "gained": gained,
        "lost": lost,
        "mana": sheet.mana,
        "roll": roll_data(result) if result else None,
    }
    return Outcome(card=card, summary=f"{who} sacrificed ({options.size}): +{gained} Mana.", data=data)


# ---------------------------------------------------------------- soul loss and Willpower dots (M7, M8)


def soul_loss_roll(table: Table, record: CharacterRecord, dice: list[int] | None, *, day: int) -> tuple[str, dict]:
    """A pool of Gnosis dice, 10-again (P-G28); a success costs a Gnosis dot. At 0 the mage is a Sleepwalker."""
    sheet: AwakenedSheet = record.sheet
    result = roll(table, sheet.gnosis, dice=dice, what="The soul-loss roll")
    sheet.last_soul_loss_day = day
    line = roll_text(result, f"{record.name}: soul loss (Gnosis {sheet.gnosis})")
    if result.successes:
        sheet.gnosis -= 1
        sheet.gnosis_lost += 1
        line += f" → Gnosis {sheet.gnosis}"
        if sheet.gnosis == 0:
            sheet.mana = 0
            sheet.spells = []
            sheet.sight = "lost"
            # cites P-G28
            line += ": a Sleepwalker: no Mana, no spells, no Mage Sight"
        else:
            clip_mana(sheet, table.book)
            total = sum(s.cost for s in sheet.spells if s.status == "sustained")
            if total > sheet.gnosis:
                # cites P-G17
                line += f"; sustained spells total {total}: dismiss some"
                shed_newest(sheet)
    return line, {"mage": record.name, "kind": "soul_loss", "roll": roll_data(result), "gnosis": sheet.gnosis}


def shed_newest(sheet: AwakenedSheet) -> list[str]:
    """P-G17: the newest sustained spells end until the total fits (the caster may choose first with dismiss)."""
    ended = []
    for spell in sorted((s for s in sheet.spells if s.status == "sustained"), key=lambda s: -s.id):
        if sum(s.cost for s in sheet.spells if s.status == "sustained") <= sheet.gnosis:
            break
        sheet.spells.remove(spell)
        ended.append(spell.design.name)
    return ended


def willpower_dot_roll(
    table: Table, record: CharacterRecord, dice: list[int] | None, *, edge: int, month: int
) -> tuple[str, dict]:
    """Gnosis + Edge dice; no Willpower may be spent (l.32). A success returns one lost dot."""
    sheet: AwakenedSheet = record.sheet
    result = roll(table, sheet.gnosis + edge, dice=dice, what="The Willpower-dot roll")
    sheet.last_willpower_month = month
    line = roll_text(
        result, f"{record.name}: Willpower dot (Gnosis {sheet.gnosis}" + (f" + Edge {edge})" if edge else ")")
    )
    if result.successes:
        sheet.willpower_dots += 1
        sheet.willpower_dots_lost -= 1
        line += f" → Willpower dots {sheet.willpower_dots}"
    else:
        line += ": wait another month"
    return line, {
        "mage": record.name,
        "kind": "willpower_dot",
        "roll": roll_data(result),
        "willpower_dots": sheet.willpower_dots,
    }


class UpkeepRollOptions(Model):
    roll: Literal["soul-loss", "willpower-dot"] = Field(description="Which roll")
    character: str = Field(min_length=1, max_length=60, description="The mage")
    edge: int = Field(default=0, ge=0, le=5, description="Willpower dot: Edge")
    dice: str | None = DiceOption


def upkeep_roll(table: Table, options: UpkeepRollOptions) -> Outcome:
    """`/awakened roll upkeep` (GM): a soul-loss or Willpower-dot roll by hand, e.g. with the GM's dice."""
    table.require_gm("Rolling soul loss and Willpower dots")
    record = table.find_character(options.character)
    sheet: AwakenedSheet = record.sheet
    dice = gm_dice(table, options.dice)
    if options.roll == "soul-loss":
        if not sheet.soul_lost or sheet.gnosis < 1:
            raise RuleError(f"{record.name} is not a soulless mage with Gnosis left; there is no soul-loss roll.")
        if options.edge:
            raise RuleError("The soul-loss roll takes no Edge; drop `edge`.")
        line, data = soul_loss_roll(table, record, dice, day=table.state.day)
    else:
        if not sheet.willpower_dots_lost:
            raise RuleError(f"{record.name} has no lost Willpower dots to regain.")
        if sheet.gnosis < 1:
            raise RuleError(f"{record.name} has Gnosis 0: there is no Gnosis roll to make.")
        month = (table.state.day - 1) // table.settings.month_days
        line, data = willpower_dot_roll(table, record, dice, edge=options.edge, month=month)
    card = Card(title=f"{options.roll.replace('-', ' ').title()}: {record.name}", description=line)
    return Outcome(card=card, summary=line[:200], data=data)


# ---------------------------------------------------------------- soul stones (M14)


class SoulstoneOptions(Model):
    mode: Literal["create", "reintegrate", "give", "destroyed", "repaired"] = Field(description="What happens")
    stone: int | None = Field(default=None, ge=1, le=100, description="Stone number")
    holder: str | None = Field(default=None, max_length=60, description="give: new holder")
    mage: str | None = MageOption


def stone_limit(sheet: AwakenedSheet) -> int:
    return min(sheet.wisdom_max, (sheet.gnosis + 1) // 2)


def soulstone(table: Table, options: SoulstoneOptions) -> Outcome:
    record, sheet = mage_of(table, options.mage)
    book, who = table.book, record.name
    before_max = mana_max(sheet, book)
    lines = []
    private = []  # who holds a stone is the mage's secret: the owner's and the GMs'
    if options.mode == "create":
        limit = stone_limit(sheet)
        if len(sheet.live_stones) >= limit:
            raise RuleError(
                f"{who} keeps {quantity(len(sheet.live_stones), 'soul stone')}; the limit is {limit} (the lesser of "
                f"maximum Wisdom {sheet.wisdom_max} and half Gnosis {sheet.gnosis} rounded up)."
            )
        if sheet.mana < 1 or sheet.willpower < 1:
            raise RuleError(f"A soul stone costs 1 Mana and 1 Willpower; {who} has {sheet.mana} and {sheet.willpower}.")
        sheet.mana -= 1
        sheet.willpower -= 1
        number = max((s.id for s in sheet.stones), default=0) + 1
        sheet.stones.append(SoulStone(id=number))
        lost = clip_mana(sheet, book)
        lines.append(f"Stone #{number} made for 1 Mana and 1 Willpower after a minute's concentration.")
        if lost:
            # cites P-G29
            lines.append(f"Mana clipped to the new maximum: −{lost}.")
    else:
        stone = _stone(sheet, options.stone, who)
        if options.mode == "give":
            stone.holder = " ".join((options.holder or "").split())
            lines.append(f"Stone #{stone.id} changes hands.")
            private.append(f"Stone #{stone.id} is now held by {stone.holder or who}.")
        elif options.mode == "reintegrate":
            if stone.holder:
                raise RuleError(f"Stone #{stone.id} is held by {stone.holder}; {who} must hold their own stone.")
            if sheet.mana < sheet.gnosis or sheet.willpower_dots < 1:
                raise RuleError(
                    f"Reintegrating costs Mana equal to Gnosis ({sheet.gnosis}) and a Willpower dot; "
                    f"{who} has {sheet.mana} Mana and {quantity(sheet.willpower_dots, 'dot')}."
                )
            sheet.mana -= sheet.gnosis
            sheet.willpower_dots -= 1
            sheet.willpower = min(sheet.willpower, sheet.willpower_dots)
            sheet.stones.remove(stone)
            lines.append(f"Stone #{stone.id} reintegrated after an hour: −{sheet.gnosis} Mana, −1 Willpower dot.")
        else:
            table.require_gm(f"Marking a soul stone {options.mode}")
            if options.mode == "destroyed":
                if stone.destroyed:
                    raise RuleError(f"Stone #{stone.id} is already destroyed.")
                stone.destroyed = True
                sheet.wisdom_max = max(0, sheet.wisdom_max - 1)
                sheet.wisdom = min(sheet.wisdom, sheet.wisdom_max)
                lines.append(
                    f"Stone #{stone.id} destroyed: maximum Mana restored, maximum Wisdom → {sheet.wisdom_max}."
                )
            else:
                if not stone.destroyed:
                    raise RuleError(f"Stone #{stone.id} is not destroyed; nothing to repair.")
                sheet.stones.remove(stone)
                sheet.wisdom_max = min(5, sheet.wisdom_max + 1)
                lines.append(f"The soul is repaired: maximum Wisdom → {sheet.wisdom_max}.")
    over = len(sheet.live_stones) > stone_limit(sheet)
    if over:
        # cites P-G29
        lines.append(f"More stones than the limit {stone_limit(sheet)}: they persist, but no new one.")
    lines.append(
        f"Maximum Mana {before_max} → {mana_max(sheet, book)} · Mana {sheet.mana} · "
        f"Willpower {sheet.willpower}/{sheet.willpower_dots}"
    )
    card = Card(title=f"Soul stone ({options.mode}): {who}", description="\n".join(lines))
    data = {
        "mage": who,
        "mode": options.mode,
        "stones": [{**s.model_dump(), "holder": None} for s in sheet.stones],
        "mana": sheet.mana,
        "mana_max": mana_max(sheet, book),
        "wisdom_max": sheet.wisdom_max,
        "private": {"stones": [s.model_dump() for s in sheet.stones]},
    }
    full = card.model_copy(update={"description": "\n".join([*lines[:1], *private, *lines[1:]])}) if private else None
    return Outcome(
        card=card,
        summary=f"{who}: soul stone {options.mode}.",
        data=data,
        private=full,
        private_summary=" ".join(private) or None,
    )


def _stone(sheet: AwakenedSheet, number: int | None, who: str) -> SoulStone:
    stones = {s.id: s for s in sheet.stones}
    if number is None or number not in stones:
        listed = ", ".join(f"#{s.id}" + (" (destroyed)" if s.destroyed else "") for s in sheet.stones) or "none"
        raise RuleError(f"Name the `stone` by its number; {who}'s stones: {listed}.")
    return stones[number]
