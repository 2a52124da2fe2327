"""The campaign state of a realm table: the day, the map's colors, the campaign's spells and items, every
spell in effect, the combats under way, and the GM-entered results of tables the primer does not print.

Character sheets hold chits, known spells, location and hidden status. Everything is plain pydantic data,
so ``/campaign undo`` restores any step exactly from the service's reverse deltas.
"""

from typing import Literal

from pydantic import Field

from rules.base import HouseRules, Model
from rules.realm.book import Color, Direction, Duration, ItemDef, Maneuver, Roman, SpellDef, TargetType
from rules.text import fold

ChitKind = Literal["magic", "fight", "move"]
ChitState = Literal["active", "fatigued", "committed", "color", "prepared"]
Phase = Literal["daylight", "evening", "night"]
CastingStatus = Literal["cast", "targeted", "active", "inert", "launched", "held", "played"]
Step = Literal["encounter", "melee", "resolved", "attacks"]
Action = Literal["none", "run", "alert", "cast"]


class RealmSettings(HouseRules):
    """House rules; every default is the spec's proposed ruling (docs/realm.md)."""

    effort_limit: int = Field(default=2, ge=0, le=10)  # L43 "Normally only two asterisks", G-R20
    ambush: bool = False  # the Ambush advanced rule (L51)
    cancel_by: Literal["effective", "declared"] = "effective"  # G-R5
    canceled_chit: Literal["fatigue", "unused"] = "fatigue"  # G-R6
    standing_color: Literal["at_events", "continuous"] = "at_events"  # G-R11
    death_ends: Literal["all", "permanent_only"] = "all"  # G-R15
    prepared_used_fatigues_at_combat_end: bool = False  # G-R23, the other reading of L32
    run_limit_includes_chargers: bool = True  # G-R7 (unsure): L43 names only move times


class Chit(Model):
    """One action chit: ``MAGIC IV3*`` is a type IV Magic chit of speed 3 with one asterisk."""

    label: str
    kind: ChitKind
    type: Roman | None = None  # Magic chits only
    strength: str | None = None  # Fight and Move chits: L, M, H, T (the board game's letters), if given
    speed: int = Field(ge=0, le=9)
    asterisks: int = Field(default=0, ge=0, le=2)
    state: ChitState = "active"
    color: Color | None = None  # while enchanted into color magic
    committed_to: int | None = None  # the casting holding it
    prepared_day: int | None = None


class RealmSheet(Model):
    chits: list[Chit] = Field(default_factory=list, max_length=30)
    spells: list[str] = Field(default_factory=list, max_length=60)  # spells recorded on his sheet (L41 "his own")
    location: str = ""
    hidden: bool = False
    dead: bool = False

    def chit(self, label: str) -> Chit | None:
        key = fold(label)
        return next((c for c in self.chits if c.label.casefold() == key), None)


class Clearing(Model):
    name: str
    tile: str = ""
    colors: list[Color] = Field(default_factory=list)  # enchanted or GM-set colors of this clearing


class ItemState(ItemDef):
    """An Artifact, Spell Book or colored item in play: who holds it, where it lies, when it last cast."""

    holder: str | None = None
    clearing: str | None = None  # where it lies when nobody holds it
    used_on_day: int | None = None
    committed_to: int | None = None


class Casting(Model):
    """One spell from its cast (Encounter Step) until it ends; removed from the state once it ends."""

    id: int
    spell: str
    caster: str
    type: Roman
    color: Color
    duration: Duration
    target_type: TargetType | None = None
    ritual: str  # the chit's label or the item's name
    ritual_kind: Literal["chit", "book", "artifact"]
    prepared: bool = False
    color_chit: str | None = None
    speed: int
    clearing: str
    day: int
    round: int
    status: CastingStatus = "cast"
    targets: list[str] = Field(default_factory=list)
    target_clearing: str = ""
    active_until: int | None = None  # a permanent spell affects its target until midnight of this day
    direction: Direction | None = None  # an attack spell's secret direction
    holder: str | None = None  # a move/phase spell's special chit
    played_in: str | None = None  # "combat" or "phase": when the special chit was played


class Play(Model):
    """One chit played in a combat round, and what for: its asterisks count toward the effort limit (L43), and a
    Fight or Move chit's toward the Fatigue Step (L32)."""

    chit: str
    kind: ChitKind
    use: Literal["charge", "run", "alert", "cast", "maneuver", "weapon"]
    asterisks: int = 0

    def purpose(self) -> str:
        return {
            "charge": "to charge",
            "run": "to run away",
            "alert": "to alert a weapon",
            "cast": "to cast",
            "maneuver": "to maneuver",
            "weapon": "to attack with a weapon",
        }[self.use]

    def text(self) -> str:
        return f"{self.chit} {self.purpose()}"


class Fighter(Model):
    """One individual in a combat round: what they did in the Encounter Step and what sits on their sheet."""

    name: str
    character: bool = True
    charged: bool = False
    charged_at: str | None = None
    action: Action = "none"
    asterisks: int = 0  # every asterisk played this round (effort limit)
    fight_move_asterisks: int = 0  # the Fatigue Step's count (L32)
    plays: list[Play] = Field(default_factory=list)  # the chits behind those counts, in the order played
    chargers: list[int] = Field(default_factory=list)  # speeds of Move chits charging him (G-R7)
    move_times: list[int] = Field(default_factory=list)  # monsters and natives on his melee sheet
    present: bool = True
    cast_in_effect: bool = False  # "successfully cast a spell" this round (L26)
    maneuver: Maneuver | None = None
    maneuver_speed: int | None = None
    maneuver_chit: str | None = None  # a character's maneuver is a Move chit; its speed is the maneuver's
    weapon: str | None = None
    weapon_chit: str | None = None  # the Fight chit of a weapon attack


class MissileDue(Model):
    casting: int
    spell: str
    caster: str
    target: str
    result: str | None = None


class Combat(Model):
    clearing: str
    round: int = 1
    step: Step = "encounter"
    order: list[str] = Field(default_factory=list)
    attention: list[str] = Field(default_factory=list)
    fighters: dict[str, Fighter] = Field(default_factory=dict)  # casefolded name
    missile_due: list[MissileDue] = Field(default_factory=list)

    def fighter(self, name: str) -> Fighter | None:
        return self.fighters.get(fold(name))


class Record(Model):
    """A result the GM entered from a table the primer does not print (G-R17)."""

    day: int
    kind: Literal["missile", "hide", "other"]
    who: str
    result: str
    spell: str | None = None
    clearing: str | None = None
    round: int | None = None


class RealmState(Model):
    day: int = Field(default=1, ge=1)
    phase: Phase = "daylight"
    day_overrides: dict[int, list[Color]] = Field(default_factory=dict)
    tiles: dict[str, list[Color]] = Field(default_factory=dict)  # casefolded tile name → enchanted colors
    clearings: dict[str, Clearing] = Field(default_factory=dict)  # casefolded
    spells: dict[str, SpellDef] = Field(default_factory=dict)  # the campaign's spell list, casefolded
    items: dict[str, ItemState] = Field(default_factory=dict)  # casefolded
    castings: list[Casting] = Field(default_factory=list)
    next_id: int = 1
    combats: dict[str, Combat] = Field(default_factory=dict)  # casefolded clearing
    records: list[Record] = Field(default_factory=list)

    def casting(self, casting_id: int) -> Casting | None:
        return next((c for c in self.castings if c.id == casting_id), None)
