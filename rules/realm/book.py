"""The realm book: the color table (RULINGS 16), the primer's named spells and book, the melee rows, rules, glossary.

``data/realm/*.toml`` is validated into :class:`RealmBook` at start-up. A spell keeps only what the
primer states (spec G-R3): the three attack spells carry no type and no color until the GM sets them.
The vocabulary (colors, durations, target types, roman numerals) is the primer's own (L39, L59).
"""

from typing import Literal

from pydantic import Field, model_validator

from rules.base import Model, RuleError, quoted
from rules.glossary import Glossary
from rules.text import fold

Color = Literal["white", "grey", "gold", "purple", "black"]
COLORS: tuple[Color, ...] = ("white", "grey", "gold", "purple", "black")
Roman = Literal["I", "II", "III", "IV", "V", "VI", "VII", "VIII"]
ROMANS: tuple[Roman, ...] = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
Duration = Literal["instant", "attack", "combat", "move", "phase", "day", "permanent"]
DURATIONS: tuple[Duration, ...] = ("instant", "attack", "combat", "move", "phase", "day", "permanent")
# L59 "individual, clearing, hex, action chit, etc"; `individuals` takes several, `self` only the caster.
TargetType = Literal["individual", "individuals", "character", "self", "clearing", "hex", "chit", "item", "spell"]
TARGET_TYPES: tuple[TargetType, ...] = (
    "individual",
    "individuals",
    "character",
    "self",
    "clearing",
    "hex",
    "chit",
    "item",
    "spell",
)
ItemKind = Literal["book", "artifact", "item"]
Direction = Literal["thrust", "swing", "smash"]
Maneuver = Literal["charge", "dodge", "duck"]


def clean_name(text: str, what: str) -> str:
    """A name as it will be shown: blanks collapsed; an empty one is refused."""
    name = " ".join(text.split())
    if not name:
        raise RuleError(f"Give the {what} a name.")
    return name


class SpellDef(Model):
    """A spell (L59): type, color, target type and duration; any of them may be unset until the GM sets it."""

    name: str = Field(min_length=1, max_length=60)
    type: Roman | None = None
    color: Color | None = None
    target_type: TargetType | None = None
    duration: Duration | None = None
    text: str = Field(default="", max_length=1000)

    def missing(self) -> list[str]:
        """What casting needs that is not set: the type and the color (issue 10)."""
        return [name for name in ("type", "color", "duration") if getattr(self, name) is None]


class ItemDef(Model):
    """An Artifact or Spell Book (a ritual of its own type, G-R14) or an item with color magic (L41)."""

    name: str = Field(min_length=1, max_length=60)
    kind: ItemKind
    type: Roman | None = None
    color: Color | None = None
    spells: list[str] = Field(default_factory=list, max_length=40)
    text: str = Field(default="", max_length=500)


class ChitColor(Model):
    type: Roman
    color: Color


class DayColor(Model):
    day: int = Field(ge=1)
    colors: list[Color] = Field(min_length=1)


class ColorTable(Model):
    month_length: int = Field(ge=1)
    source: str
    chit: list[ChitColor]
    day: list[DayColor]

    @model_validator(mode="after")
    def _consistent(self) -> "ColorTable":
        types = [c.type for c in self.chit]
        if len(set(types)) != len(types):
            raise ValueError("a chit type is listed twice")
        days = [d.day for d in self.day]
        if len(set(days)) != len(days) or any(d > self.month_length for d in days):
            raise ValueError("day colors must name distinct days within the month")
        return self

    def chit_color(self, roman: Roman) -> Color | None:
        return next((c.color for c in self.chit if c.type == roman), None)

    def day_of_month(self, day: int) -> int:
        """G-R12: day n is day ((n - 1) mod month) + 1 of its month."""
        return (day - 1) % self.month_length + 1

    def book_day_colors(self, day: int) -> list[Color]:
        """The table's colors for absolute day ``day`` (RULINGS 16), before any GM override."""
        dom = self.day_of_month(day)
        return next((list(d.colors) for d in self.day if d.day == dom), [])


class SpellsFile(Model):
    spell: list[SpellDef]
    book: list[ItemDef]


class MeleeRow(Model):
    attack: Direction
    maneuver: Maneuver


class MeleeTable(Model):
    source: str
    row: list[MeleeRow] = Field(min_length=3, max_length=3)

    def matches(self, attack: Direction, maneuver: Maneuver) -> bool:
        return any(r.attack == attack and r.maneuver == maneuver for r in self.row)


class RuleSection(Model):
    key: str
    title: str
    lines: str
    body: str
    aliases: list[str] = Field(default_factory=list)


class RulesFile(Model):
    rule: list[RuleSection]


class RealmBook(Model):
    colors: ColorTable
    spells: SpellsFile
    melee: MeleeTable
    rules: RulesFile
    glossary: Glossary

    def spell(self, name: str) -> SpellDef | None:
        return next((s for s in self.spells.spell if fold(s.name) == fold(name)), None)

    def item(self, name: str) -> ItemDef | None:
        return next((b for b in self.spells.book if fold(b.name) == fold(name)), None)


def roman(text: str) -> Roman:
    value = text.strip().upper()
    if value not in ROMANS:
        raise RuleError(f"{quoted(text)} is not a spell type. Types are I to VIII: {', '.join(ROMANS)}.")
    return value  # type: ignore[return-value]


def color(text: str) -> Color:
    value = text.strip().casefold()
    if value == "gray":
        value = "grey"
    if value not in COLORS:
        raise RuleError(f"{quoted(text)} is not a color of magic. Colors: {', '.join(COLORS)}.")
    return value  # type: ignore[return-value]


def colors(text: str) -> list[Color]:
    """``"white, black"`` → [white, black]; ``"none"`` → []."""
    parts = [p for p in text.replace("/", ",").replace(" and ", ",").split(",") if p.strip()]
    if not parts:
        raise RuleError(f'Give colors ({", ".join(COLORS)}), separated by commas, or "none".')
    if len(parts) == 1 and fold(parts[0]) == "none":
        return []
    found: list[Color] = []
    for part in parts:
        value = color(part)
        if value not in found:
            found.append(value)
    return found
