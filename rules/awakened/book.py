"""The awakened book: every table of the seed as validated models of ``data/awakened/*.toml``.

One field of :class:`AwakenedBook` per data file. The validators check what a
typo could break (ten distinct Arcana, three aspects, a table row per Wisdom
dot), so a bad edit stops start-up instead of reaching a casting.
"""

import itertools
from typing import Literal

from pydantic import Field, model_validator

from rules.awakened.words import quantity
from rules.base import Model, RuleError

AspectName = Literal["sensory", "covert", "vulgar"]
ActionName = Literal["instant", "minor", "reflexive", "ritual"]
Familiarity = Literal["rote", "ruling", "common", "inferior"]


class Conjunction(Model):
    arcanum: str
    dots: int = Field(ge=1, le=5)
    text: str
    sympathetic: Literal["", "all", "sensory", "covert"]

    def reaches(self, aspect: str) -> bool:
        """Whether this benefit lets a spell of ``aspect`` reach at sympathetic range."""
        return self.sympathetic == "all" or (self.sympathetic != "" and self.sympathetic == aspect)


class ArcanaFile(Model):
    names: list[str]
    conjunction: list[Conjunction]

    @model_validator(mode="after")
    def _ten(self) -> "ArcanaFile":
        if len(self.names) != 10 or len(set(self.names)) != 10:
            raise ValueError("there are exactly ten distinct Arcana")
        for row in self.conjunction:
            if row.arcanum not in self.names:
                raise ValueError(f"conjunction row names {row.arcanum!r}, not an Arcanum")
        return self


class Aspect(Model):
    name: AspectName
    potency: int
    tenacity: int
    boost_minimum: int
    boost_again: Literal[10, 9, 8]
    hindrance: int
    shaping_dice_per_gnosis: int
    shaping_again: Literal[10, 9, 8]
    cost_improvised: int
    cost_ruling_only: int
    cost_rote: int
    scale: int
    paradox: bool
    text: str


class ShapingCost(Model):
    rote: int
    ruling: int
    common: int
    inferior: int


class SpellAction(Model):
    name: ActionName
    text: str
    examples: str


class AspectsFile(Model):
    aspect: list[Aspect]
    shaping_cost: ShapingCost
    action: list[SpellAction]

    @model_validator(mode="after")
    def _all(self) -> "AspectsFile":
        if sorted(a.name for a in self.aspect) != ["covert", "sensory", "vulgar"]:
            raise ValueError("the aspects are sensory, covert and vulgar, once each")
        if sorted(a.name for a in self.action) != ["instant", "minor", "reflexive", "ritual"]:
            raise ValueError("the actions are instant, minor, reflexive and ritual, once each")
        return self


class RowFactor(Model):
    text: str
    rows: list[str] = Field(min_length=1)
    continuation: str

    def describe(self, factors: int) -> str:
        if factors < len(self.rows):
            return self.rows[factors]
        return (
            f"{self.rows[-1]}, doubled {quantity(factors - len(self.rows) + 1, 'time')} ({self.continuation.lower()})"
        )


class Precision(Model):
    text: str
    base: str
    features: list[str]


class TextOnly(Model):
    text: str


class DamageFeature(Model):
    key: str
    text: str


class Damage(Model):
    text: str
    base: str
    feature: list[DamageFeature]


class Sympathy(Model):
    text: str
    levels: list[str] = Field(min_length=6, max_length=6)
    level_text: list[str] = Field(min_length=6, max_length=6)
    unknown: str
    fame: str
    unnamed: str


class FactorsFile(Model):
    area: RowFactor
    size: RowFactor
    precision: Precision
    targets: TextOnly
    damage: Damage
    sympathy: Sympathy


class Sacrifice(Model):
    size: Literal["small", "large", "huge"]
    mana: int
    text: str


class ScrutinyStep(Model):
    increment: Literal["minute", "hour", "two_hours", "half_day", "day"]
    edge: int
    text: str


class ResonanceRow(Model):
    successes: int
    level: str
    text: str


class TablesFile(Model):
    soul_stone_penalty: list[int] = Field(min_length=2)
    paradox_kinds: list[str] = Field(min_length=4, max_length=4)
    wisdom_ceiling: list[str] = Field(min_length=6, max_length=6)
    sacrifice: list[Sacrifice]
    scrutiny: list[ScrutinyStep]
    resonance: list[ResonanceRow]

    @model_validator(mode="after")
    def _ordered(self) -> "TablesFile":
        penalty = self.soul_stone_penalty
        if penalty[0] != 0 or any(b <= a for a, b in itertools.pairwise(penalty)):
            raise ValueError("soul_stone_penalty starts at 0 and rises with each stone")
        if [r.successes for r in self.resonance] != list(range(1, len(self.resonance) + 1)):
            raise ValueError("resonance rows run 1, 2, 3... successes")
        return self


class Rule(Model):
    key: str
    mechanic: str
    title: str
    command: str
    body: str
    aliases: list[str] = Field(default_factory=list)


class RulesFile(Model):
    rule: list[Rule]


class AwakenedBook(Model):
    arcana: ArcanaFile
    aspects: AspectsFile
    factors: FactorsFile
    tables: TablesFile
    rules: RulesFile

    # -- lookups the rules use ------------------------------------------------
    def arcanum(self, name: str) -> str:
        """The Arcanum's proper name, or a RuleError listing all ten."""
        for known in self.arcana.names:
            if known.casefold() == name.strip().casefold():
                return known
        raise RuleError(f"{name.strip()!r} is not an Arcanum. The Arcana are {', '.join(self.arcana.names)}.")

    def arcana_list(self, text: str) -> list[str]:
        """``"Forces, Prime"`` → ["Forces", "Prime"]; repeated or unknown names are refused."""
        names = [self.arcanum(part) for part in text.replace("+", ",").replace("/", ",").split(",") if part.strip()]
        if not names:
            raise RuleError(f"Name at least one Arcanum: {', '.join(self.arcana.names)}.")
        if len(set(names)) != len(names):
            raise RuleError(f"An Arcanum is named twice in {text!r}.")
        return names

    def aspect(self, name: str) -> Aspect:
        return next(a for a in self.aspects.aspect if a.name == name)

    def action(self, name: str) -> SpellAction:
        return next(a for a in self.aspects.action if a.name == name)

    def sacrifice(self, size: str) -> Sacrifice:
        return next(s for s in self.tables.sacrifice if s.size == size)

    def soul_stone_penalty(self, stones: int) -> int:
        table = self.tables.soul_stone_penalty
        return table[min(stones, len(table) - 1)]

    def conjunctions(self, arcanum: str, dots: int) -> list[Conjunction]:
        """Every benefit an Arcanum at ``dots`` grants conjunctionally."""
        return [c for c in self.arcana.conjunction if c.arcanum == arcanum and c.dots <= dots]

    def scrutiny_edge(self, increment: str) -> int:
        return next(s.edge for s in self.tables.scrutiny if s.increment == increment)

    def resonance_row(self, successes: int) -> ResonanceRow | None:
        if successes <= 0:
            return None
        rows = self.tables.resonance
        return rows[min(successes, len(rows)) - 1]
