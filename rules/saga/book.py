"""The Spell Saga book as data: harmonics, luck, the turn, icons, glossary, card types, and the card model.

``data/saga/*.toml`` is validated into :class:`SagaBook`. The book never lists its
deck, so cards come from the player (``/saga card define``, ``/saga card import``)
and are validated by :class:`CardDef`; the one deck shipped, ``sample_deck.toml``,
is an invented sample for learning the engine, never the demo's cards.
"""

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from rules.base import Model, RuleError
from rules.glossary import Glossary
from rules.text import fold

Color = Literal["blue", "violet", "red", "yellow", "green"]
COLORS: tuple[Color, ...] = ("blue", "violet", "red", "yellow", "green")
Glyph = Literal["end-winter", "spring", "summer", "autumn", "new-winter"]
CardType = Literal["hero", "enemy", "folk", "item", "place", "spell-song", "story"]
CARD_TYPES: tuple[CardType, ...] = ("hero", "enemy", "folk", "item", "place", "spell-song", "story")
Subtype = Literal["room", "wanted", "folk-hero", "folk-enemy"]
LETTERS: dict[str, Color] = {"b": "blue", "v": "violet", "r": "red", "y": "yellow", "g": "green"}


def _color_value(text: str) -> Color:
    """``read_color`` inside a validator: a ValueError, so pydantic reports it with every other field's."""
    try:
        return read_color(text)
    except RuleError as exc:
        raise ValueError(str(exc)) from exc


def read_color(text: str) -> Color:
    """``"B"``, ``"blue"`` or ``"Blue"`` → ``"blue"``; anything else is refused, naming the five."""
    word = text.strip().casefold()
    if word in LETTERS:
        return LETTERS[word]
    if word in COLORS:
        return word  # type: ignore[return-value]
    raise RuleError(
        f"{text.strip()!r} is not a harmonic. The five are blue, violet, red, yellow, green (or B V R Y G)."
    )


class Bonus(Model):
    """A harmonic or discordant bonus: the colors to find (``any`` for any color) and what it grants."""

    cost: list[Color | Literal["any"]] = Field(default_factory=list)
    hand_same_harmonic: bool = False  # "If all cards in HAND are same HARMONIC" (L228, F-R31) instead of a cost
    text: str = ""

    @field_validator("cost", mode="before")
    @classmethod
    def _colors(cls, value: object) -> object:
        if isinstance(value, list):
            return [v if not isinstance(v, str) or v.casefold() == "any" else _color_value(v) for v in value]
        return value


class CardDef(Model):
    """One card of a deck, as printed. A value the card does not print is left out (None), never guessed."""

    name: str = Field(min_length=1, max_length=80)
    type: CardType
    subtypes: list[Subtype] = Field(default_factory=list)
    cost: Annotated[int, Field(ge=0, le=99)] | Literal["blank", "start"] = Field(
        description="numerical source cost, blank, or start (source icon)"
    )
    glyph: Glyph | None = None
    harmonics: list[Color] = Field(default_factory=list)
    # hero warning bar: source limit = story pile + source_bonus (F-R15); hero limit; item limit
    source_bonus: int | None = Field(default=None, ge=0, le=50)
    hero_limit: int | None = Field(default=None, ge=1, le=10)
    item_limit: int | None = Field(default=None, ge=0, le=20)
    # enemy warning bar
    armor: int | None = Field(default=None, ge=0, le=99)
    attack: int | None = Field(default=None, ge=0, le=99)  # enemies; items too (F-R25)
    rounds: int | None = Field(default=None, ge=1, le=20)
    mandatory: list[str] = Field(default_factory=list)  # the ~ rules
    optional: list[str] = Field(default_factory=list)  # the (&) rules
    good_luck_bonus: str = ""
    harmonic_bonus: Bonus | None = None
    discordant_bonus: Bonus | None = None
    prize: str = ""
    penalty: str = ""
    end_of_demo: bool = False
    sample: bool = False  # a card of Magister's sample deck, never the book's

    @field_validator("harmonics", mode="before")
    @classmethod
    def _harmonics(cls, value: object) -> object:
        if isinstance(value, str):
            value = [part for part in value.replace(",", " ").replace("/", " ").split() if part]
        if isinstance(value, list):
            colors = [_color_value(v) if isinstance(v, str) else v for v in value]
            return list(dict.fromkeys(colors))
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        name = " ".join(value.split())
        if not name or any(ch in name for ch in ",;"):
            raise ValueError("a card name cannot be empty or contain ',' or ';' (lists of cards are comma-separated)")
        return name

    @model_validator(mode="after")
    def _fits_type(self) -> "CardDef":
        if "room" in self.subtypes and self.type != "place":
            raise ValueError("only a place card can be a room")
        if {"folk-hero", "folk-enemy"} & set(self.subtypes) and self.type != "folk":
            raise ValueError("folk-hero and folk-enemy are folk subtypes")
        return self

    @property
    def is_enemy(self) -> bool:
        return self.type == "enemy" or "folk-enemy" in self.subtypes

    def line(self) -> str:
        """One line: name, type, cost, glyph, harmonics."""
        kind = self.type + "".join(f"/{s}" for s in self.subtypes)
        colors = "/".join(c[0].upper() for c in COLORS if c in self.harmonics) or "no harmonic"  # cycle order
        return f"{self.name} ({kind}, cost {self.cost}, {self.glyph or 'no glyph'}, {colors})"


class HarmonicExample(Model):
    colors: list[Color]
    expected: Literal["harmonic", "discordant"]


class HarmonicsTable(Model):
    cycle: list[Color]
    letters: dict[Color, str]
    example: list[HarmonicExample]

    @model_validator(mode="after")
    def _five(self) -> "HarmonicsTable":
        if sorted(self.cycle) != sorted(COLORS) or len(self.cycle) != 5:
            raise ValueError("the harmonic cycle must name each of the five colors once")
        return self


class LuckRow(Model):
    glyphs: str
    luck: Literal["good", "bad", "none"]
    opportunity: str


class LuckTable(Model):
    glyphs: list[Glyph]
    row: list[LuckRow]


class Step(Model):
    number: int = Field(ge=1, le=10)
    name: str
    text: str
    command: str


class OptionalStep(Model):
    text: str
    command: str


class BattleStep(Model):
    number: int = Field(ge=1, le=5)
    name: str
    text: str


class TurnTable(Model):
    step: list[Step]
    optional: list[OptionalStep]
    battle_step: list[BattleStep]

    @model_validator(mode="after")
    def _ten(self) -> "TurnTable":
        if [s.number for s in self.step] != list(range(1, 11)):
            raise ValueError("the turn has exactly ten mandatory steps, numbered 1 to 10 in order")
        if [s.number for s in self.battle_step] != list(range(1, 6)):
            raise ValueError("a battle has exactly five steps, numbered 1 to 5 in order")
        return self

    def name_of(self, number: int) -> str:
        return self.step[number - 1].name


class Icon(Model):
    name: str
    group: str
    meaning: str


class IconTable(Model):
    icon: list[Icon]


class TypeRow(Model):
    name: CardType
    text: str
    goes: str


class CardTypes(Model):
    type: list[TypeRow]


class Rule(Model):
    key: str
    title: str
    body: str


class RulesTable(Model):
    rule: list[Rule]


class SampleDeck(Model):
    card: list[CardDef]

    @model_validator(mode="after")
    def _marked(self) -> "SampleDeck":
        names = [fold(c.name) for c in self.card]
        if len(names) != len(set(names)):
            raise ValueError("the sample deck repeats a card name")
        if not all(c.sample and c.name.startswith("Sample ") for c in self.card):
            raise ValueError("every sample card is marked sample = true and named 'Sample ...'")
        return self


class SagaBook(Model):
    harmonics: HarmonicsTable
    luck: LuckTable
    turn: TurnTable
    icons: IconTable
    glossary: Glossary
    card_types: CardTypes
    rules: RulesTable
    sample_deck: SampleDeck
