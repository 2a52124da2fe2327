"""The runic book: every table of the seed, as validated models of ``data/runic/*.toml``.

One field of :class:`RunicBook` per data file. The models check what a typo
could break (dice notation, row order, gaps in a roll table), so a bad edit
stops start-up instead of reaching a casting. Code reads numbers from here and
never repeats a row.
"""

from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.base import Model, RuleError
from rules.runic.rolls import DiceSpec
from rules.text import fold

# ---------------------------------------------------------------- Words


class Word(Model):
    name: str
    letter: str
    category: Literal["noun", "verb", "modifier"]
    meaning: str
    alternatives: list[str]
    difficulty: Literal["Hard", "Average"]
    cost: int
    time: int | None = None  # seconds, or minutes from a grimoire
    time_factor: float | None = None  # Des ×1/2, Vas ×2

    @model_validator(mode="after")
    def _one_time(self) -> "Word":
        if (self.time is None) == (self.time_factor is None):
            raise ValueError("a Word has either a time or a time_factor")
        return self

    @property
    def time_text(self) -> str:
        if self.time_factor is None:
            return str(self.time)
        return "×1/2" if self.time_factor == 0.5 else f"×{self.time_factor:g}"


class WordsFile(Model):
    word: list[Word]

    @model_validator(mode="after")
    def _unique(self) -> "WordsFile":
        names = [w.name.casefold() for w in self.word]
        letters = [w.letter for w in self.word]
        if len(set(names)) != len(names) or len(set(letters)) != len(letters):
            raise ValueError("Word names and letters must be unique")
        return self


# ---------------------------------------------------------------- Parameters


class Afflictions(Model):
    text: str
    stun_energy: int
    percent_per_energy: int


class AlteredTraits(Model):
    text: str
    points_removed_per_energy: int
    points_added_per_energy: int


class Area(Model):
    text: str
    radius_yards_per_energy: int
    cone_width_yards_per_energy: int
    wall_square_yards_per_energy: int
    arbitrary_shape_multiplier: int


class BonusRow(Model):
    modifier: int
    broad: int
    moderate: int
    single: int


class BonusTable(Model):
    text: str
    continuation: str
    factor: int
    rows: list[BonusRow]


class DamageRow(Model):
    energy: int
    standard: str
    explosive: str
    malediction: str

    @field_validator("standard", "explosive", "malediction")
    @classmethod
    def _dice(cls, value: str) -> str:
        DiceSpec.parse(value)
        return value


class DamageContinuation(Model):
    energy: int
    standard: str
    explosive: str
    malediction: str
    adds_per_die: dict[str, int]


class DamageType(Model):
    types: list[str]
    multiplier: float


class DamageTable(Model):
    text: str
    rows: list[DamageRow]
    continuation: DamageContinuation
    types: list[DamageType]


class DurationRow(Model):
    energy: int
    duration: str
    duration_seconds: int
    persistence: str
    persistence_seconds: int


class DurationTable(Model):
    text: str
    maintenance_text: str
    maintenance_divisor: int
    pc_limit_seconds: int
    rows: list[DurationRow]
    continuation: DurationRow


class ConditionalRow(Model):
    energy: str
    low: int
    high: int
    condition: str


class ConditionalTable(Model):
    text: str
    rows: list[ConditionalRow]


class MetaMagic(Model):
    text: str
    energy_per_skill: int


class ModifierExample(Model):
    key: str
    energy: int
    text: str


class Modifiers(Model):
    text: str
    percent_per_energy: int
    examples: list[ModifierExample]


class MultipleTargets(Model):
    text: str
    broad_text: str
    energy_per_target: int
    skill_per_target: int
    energy_per_excluded: int
    energy_per_doubling: int
    skill_per_doubling: int


class Extend(Model):
    """How a table ending in "etc." goes on: each further energy is ``factor`` × the row ``rows`` above."""

    rows: int
    factor: int


class RangeRow(Model):
    energy: int
    range: str
    yards: int


class RangeTable(Model):
    text: str
    per_yard_energy: int
    melee_energy: int
    speed_range_energy: int
    long_distance_energy: int
    continuation: str
    extend: Extend
    rows: list[RangeRow]


class TimeRangeRow(Model):
    energy: int
    range: str
    hours: int


class TimeRangeTable(Model):
    text: str
    continuation: str
    extend: Extend
    rows: list[TimeRangeRow]


class Extradimensional(Model):
    text: str
    energy_per_dimension: int
    weak_energy_per_dimension: int


class TextOnly(Model):
    text: str


class SpellTypeRule(Model):
    text: str
    melee_missile_energy: int


class WeightRow(Model):
    energy: int
    weight: str
    pounds: int
    creation: str
    creation_pounds: float


class WeightTable(Model):
    text: str
    continuation: str
    extend: Extend
    rows: list[WeightRow]


class ParameterTables(Model):
    intro: str
    afflictions: Afflictions
    altered_traits: AlteredTraits
    area: Area
    bonus: BonusTable
    damage: DamageTable
    duration: DurationTable
    conditional: ConditionalTable
    meta_magic: MetaMagic
    modifiers: Modifiers
    multiple_targets: MultipleTargets
    range: RangeTable
    range_in_time: TimeRangeTable
    extradimensional: Extradimensional
    speed: TextOnly
    spell_type: SpellTypeRule
    subject_weight: WeightTable


# ---------------------------------------------------------------- effects of Calamity and Critical Failure rows


def _check_dice(value: str | None) -> str | None:
    if value is not None:
        DiceSpec.parse(value)
    return value


class RecoverMP(Model):
    kind: Literal["recover_mp"]
    dice: str
    multiply: int = 1
    _dice = field_validator("dice")(_check_dice)


class Injury(Model):
    kind: Literal["injury"]
    dice: str | None = None
    points: int | None = None
    multiply: int = 1
    _dice = field_validator("dice")(_check_dice)

    @model_validator(mode="after")
    def _one(self) -> "Injury":
        if (self.dice is None) == (self.points is None):
            raise ValueError("an injury has either dice or points")
        return self


TimeUnit = Literal["turn", "minute", "hour", "day", "week"]


class ConditionEffect(Model):
    """Named conditions sharing one rolled duration; no dice means until the GM ends it."""

    kind: Literal["condition"]
    conditions: list[str]
    dice: str | None = None
    unit: TimeUnit | None = None
    area_dice: str | None = None
    area_unit: Literal["yard", "mile"] | None = None
    _dice = field_validator("dice", "area_dice")(_check_dice)

    @model_validator(mode="after")
    def _units(self) -> "ConditionEffect":
        if (self.dice is None) != (self.unit is None) or (self.area_dice is None) != (self.area_unit is None):
            raise ValueError("dice and their unit come together")
        return self


class MPLoss(Model):
    kind: Literal["mp_loss"]
    dice: str
    permanent: bool
    hidden: bool = False
    _dice = field_validator("dice")(_check_dice)


class Disadvantage(Model):
    kind: Literal["disadvantage"]
    points: int


class Aging(Model):
    kind: Literal["aging"]
    dice: str
    _dice = field_validator("dice")(_check_dice)


class LosePoints(Model):
    kind: Literal["lose_points"]
    dice: str
    multiply: int = 1
    _dice = field_validator("dice")(_check_dice)


class LoseMagery(Model):
    kind: Literal["lose_magery"]
    levels: int | None = None  # None: all of it


class Companion(Model):
    kind: Literal["companion"]


class Backlash(Model):
    kind: Literal["backlash"]
    modifier: int
    success_dice: str
    _dice = field_validator("success_dice")(_check_dice)


Effect = Annotated[
    RecoverMP
    | Injury
    | ConditionEffect
    | MPLoss
    | Disadvantage
    | Aging
    | LosePoints
    | LoseMagery
    | Companion
    | Backlash,
    Field(discriminator="kind"),
]


class ConditionKind(Model):
    key: str
    name: str
    effect: str
    failures_critical: bool = False
    spell_cost_multiplier: int = 1
    recovery_halted: bool = False


class TableRow(Model):
    """One row of a 3d roll table; ``high`` None means "and up" (Calamity 40+)."""

    low: int
    high: int | None = None
    text: str
    includes: list[int] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"

    def covers(self, total: int) -> bool:
        return self.low <= total and (self.high is None or total <= self.high)


class RollTable(Model):
    """A 3d table: rows in order, without gaps, from 3 up."""

    text: str
    row: list[TableRow]
    condition: list[ConditionKind] = Field(default_factory=list)

    @model_validator(mode="after")
    def _contiguous(self) -> "RollTable":
        expected = 3
        for index, row in enumerate(self.row):
            if row.low != expected:
                raise ValueError(f"row {index + 1} starts at {row.low}; expected {expected}")
            if row.high is None:
                if index != len(self.row) - 1:
                    raise ValueError("only the last row may be open-ended")
                break
            if row.high < row.low:
                raise ValueError(f"row {index + 1} ends before it starts")
            expected = row.high + 1
        known = {c.key for c in self.condition}
        for row in self.row:
            for effect in row.effects:
                if isinstance(effect, ConditionEffect) and not set(effect.conditions) <= known:
                    raise ValueError(f"row {row.label} names an unknown condition: {effect.conditions}")
            for included in row.includes:
                if included >= row.low:
                    raise ValueError(f"row {row.label} includes {included}, which is not an earlier row")
        return self

    def row_for(self, total: int) -> TableRow:
        for row in self.row:
            if row.covers(total):
                return row
        if total < self.row[0].low:
            return self.row[0]
        return self.row[-1]

    def effects_of(self, row: TableRow) -> list[Effect]:
        """The row's effects with the rows it includes expanded first ("As 13 and 27, but ...")."""
        effects: list[Effect] = []
        for included in row.includes:
            effects.extend(self.effects_of(self.row_for(included)))
        effects.extend(row.effects)
        return effects

    @cached_property
    def conditions(self) -> dict[str, ConditionKind]:
        return {c.key: c for c in self.condition}


class CalamityTable(RollTable):
    when: str
    bonus_per: int
    spell_fails_from: int


# ---------------------------------------------------------------- items, grimoires, rules, numbers


class PowerRow(Model):
    power: int
    value: int


class PowerItems(Model):
    text: str
    table_note: str
    magic_items_text: str
    typical_item_mp: int
    typical_item_recovery: int
    rows: list[PowerRow]

    def power_for_value(self, value: int) -> int:
        """The most Power an item worth ``value`` C can store (0 below the cheapest row)."""
        fitting = [row.power for row in self.rows if row.value <= value]
        return max(fitting, default=0)


class GrimoireRow(Model):
    bonus: int
    multiplier: int


class Grimoires(Model):
    text: str
    standard_text: str
    inscribe_text: str
    esoteric_text: str
    weight_lbs: int
    pages: int
    base_value: int
    rows: list[GrimoireRow]

    @property
    def max_bonus(self) -> int:
        return max(row.bonus for row in self.rows)

    def multiplier(self, bonus: int) -> int:
        for row in self.rows:
            if row.bonus == bonus:
                return row.multiplier
        raise RuleError(f"A grimoire bonus is from +0 to +{self.max_bonus}; got {bonus:+d}.")


class RuleSection(Model):
    key: str
    title: str
    lines: list[int]
    aliases: list[str]
    body: str

    @field_validator("body")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()


class RulesText(Model):
    rule: list[RuleSection]


class ManaNumbers(Model):
    mp_per_magery: int
    recovery_per_magery: int
    recovery_minimum: int
    fp_per_energy: int
    hp_per_energy: int
    sacrifice_skill: int
    ritual_energy_per_hp: int
    spell_limit_per_magery: int
    strain_fp_per_mp: int


class SkillNumbers(Model):
    free_words: int
    per_extra_word: int
    default_from_thaumatology: int
    default_from_symbol_drawing: int
    default_cap: int
    cap_over_magery: int


class ModifierNumbers(Model):
    unknown_spell: int
    per_yard: int
    unseen: int
    hurry_per_halving: int
    instant: int
    faster_casting_per_level: int
    omit_one_ritual: int
    omit_both_rituals: int
    precise_ritual: int
    precise_time_factor: int
    elaborate_ritual_below: int
    per_spell_on: int
    per_spell_concentrating: int
    free_spell_on: int
    skill_per_energy_saved: int
    energy_per_skill: int
    cheaper_casting_per_level: int
    minimum_energy: int
    failure_cost: int


class LastingNumbers(Model):
    lasting_per_magery: int
    permanent_materials_per_energy: int
    greater_sigil_value_per_energy: int
    runesmith_sigil_divisor: int
    default_trigger: dict[str, str]


class LearningNumbers(Model):
    """B170's skill cost table: (level relative to IQ, points), and the step past the last row."""

    step: int
    costs: dict[Literal["Average", "Hard"], list[tuple[int, int]]]

    def points(self, difficulty: Literal["Average", "Hard"], relative: int) -> int | None:
        """Points for a skill at IQ + ``relative``; None below the cheapest level (it cannot be bought)."""
        rows = self.costs[difficulty]
        if relative < rows[0][0]:
            return None
        for level, points in rows:
            if level == relative:
                return points
        last_level, last_points = rows[-1]
        return last_points + (relative - last_level) * self.step


class RecognizeNumbers(Model):
    one_ritual: int
    knows_spell: int


class CastingNumbers(Model):
    recognize: RecognizeNumbers
    mana: ManaNumbers
    skill: SkillNumbers
    modifiers: ModifierNumbers
    lasting: LastingNumbers
    learning: LearningNumbers


# ---------------------------------------------------------------- the book


class RunicBook(Model):
    """``data/runic/*.toml``: one field per file stem."""

    words: WordsFile
    parameters: ParameterTables
    calamity: CalamityTable
    critical_failure: RollTable
    power_items: PowerItems
    grimoires: Grimoires
    casting: CastingNumbers
    rules: RulesText

    @cached_property
    def _words_by_key(self) -> dict[str, Word]:
        return {w.name.casefold(): w for w in self.words.word}

    def word(self, name: str) -> Word:
        """A Word by name, any case, or as autocomplete offers it ("Flam (Fire)"); the error lists every Word."""
        key = fold(name)
        found = self._words_by_key.get(key)
        if found is None:  # "Flam (Fire)", as autocomplete offers it
            found = next((w for w in self.words.word if f"{w.name} ({w.meaning})".casefold() == key), None)
        if found is None:
            raise RuleError(f"{name.strip()!r} is not a Word of Power. The Words are: {self.word_list()}.")
        return found

    def word_list(self) -> str:
        return ", ".join(f"{w.name} ({w.meaning})" for w in self.words.word)
