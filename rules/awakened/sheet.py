"""The awakened models the table service stores: the mage's sheet, the campaign state, the house rules.

Bounds live on the fields (Gnosis 0-10, Arcana 0-5, Wisdom 0-5: ruling P-G11), so
a sheet that reaches the database is one the rules can play. The effective
maximum Mana is derived (base minus the soul-stone penalty), never stored twice.
"""

from typing import Literal

from pydantic import Field

from rules.awakened.book import ActionName, AspectName
from rules.base import HouseRules, Model, PrivateField

Name = Field(min_length=1, max_length=60)
WoundKind = Literal["bashing", "lethal", "aggravated"]
SEVERITY = {"bashing": 0, "lethal": 1, "aggravated": 2}
WILLPOWER_DOTS_MAX = 10  # dots held and dots lost together: a regained dot never passes what the mage had


class Factors(Model):
    """A spell's factors (M27). ``sympathy`` is the factor count the most distant target needs."""

    area: int = Field(default=0, ge=0, le=20)
    size: int = Field(default=0, ge=0, le=20)
    precision: int = Field(default=0, ge=0, le=2)
    targets: int = Field(default=1, ge=1, le=1_000_000)
    damage: list[str] = Field(default_factory=list)  # keys of factors.toml damage features
    sympathy: int = Field(default=0, ge=0, le=10)
    sympathy_text: str = Field(default="", max_length=300)  # what the sympathy was worked out from

    @property
    def target_factors(self) -> int:
        return (self.targets - 1).bit_length()

    @property
    def count(self) -> int:
        return self.area + self.size + self.precision + self.target_factors + len(self.damage) + self.sympathy


class Design(Model):
    """A declared spell or a rote: Arcana, aspect, action, method and factors."""

    name: str = Name
    arcana: list[str] = Field(min_length=1, max_length=10)
    aspect: AspectName
    action: ActionName = "instant"
    method: Literal["improvised", "rote"] = "improvised"
    factors: Factors = Field(default_factory=Factors)
    covert_sustain: bool = False
    effect: str = Field(default="", max_length=300)


class ActiveSpell(Model):
    """A spell in effect on its caster's sheet (M36), with its Shaping state (M32)."""

    id: int = Field(ge=1)
    design: Design
    cost: int = Field(ge=0)  # the actual cost now: after reductions and the GM's adjustment, before free Mana
    gm_adjust: int = 0
    free_copy: bool = False  # a rote's one free copy (M37)
    inscribed: bool = False  # supported by an inscription: outside the one-free-copy limit
    status: Literal["running", "expiring", "sustained", "ritual"] = "running"
    window: tuple[int, int] = (1, 1)  # (scene, round) of the cast or refresh: the Shaping window (P-G6)
    potency_bonus: int = 0
    tenacity_bonus: int = 0
    potency_until: tuple[int, int] | None = None  # (scene, round) after which the bonus lapses
    tenacity_until: tuple[int, int] | None = None
    lasting_tenacity: int = 0  # ritual: +1 per point of potential spent, until Shaped again
    strength: int | None = None  # successes lowered by a reduction (P-G15); None = full
    conjunctional: list[str] = Field(default_factory=list)
    connection: str | None = None  # a named sympathy connection the spell reaches through
    # rituals
    hours: int = Field(default=0, ge=0)
    potential: int = Field(default=0, ge=0)
    shaped_ritual: bool = False
    sacrament: str = Field(default="", max_length=200)  # the ritual's sacrament and anchor, as the player wrote them

    @property
    def tenacity_extra(self) -> int:
        """What Shaping adds to Tenacity now. A Shaped ritual counts its successes until the GM ends the scene,
        and only afterwards +1 per point of potential spent (l.277): the two never add up. Its Shaping sets a
        bonus of at least the potential spent, and the scene's end clears it, so a standing bonus means the
        Shaping's scene is still on."""
        if self.status == "ritual" and self.tenacity_bonus:
            return self.tenacity_bonus
        return self.tenacity_bonus + self.lasting_tenacity


class Wound(Model):
    kind: WoundKind
    resistant: bool = False


class SoulStone(Model):
    id: int = Field(ge=1)
    holder: str = Field(default="", max_length=60)  # "" = the maker holds it
    destroyed: bool = False


class Legacy(Model):
    name: str = Name
    scrutiny_skills: list[str] = Field(default_factory=list)
    oblation_traits: list[str] = Field(min_length=2, max_length=2)


class Attainment(Model):
    name: str = Name
    order: int = Field(default=1, ge=1, le=10)
    prerequisites: dict[str, int] = Field(default_factory=dict)
    pool: list[str] = Field(default_factory=list, max_length=2)
    mana: int = Field(default=0, ge=0, le=10)
    limit: Literal["none", "scene", "day", "week", "story"] = "none"
    uses: int = Field(default=0, ge=0)
    used_in: int | None = None  # the scene or day number the uses count in
    shaped: int = Field(default=0, ge=0)  # the last Shaping's successes: Potency and Tenacity 1 + shaped
    shaped_until: tuple[int, int] | None = None  # (scene, round) after which the Shaping lapses


class Crisis(Model):
    pool: int = Field(ge=0, le=30)
    failures: int = Field(default=0, ge=0)
    successes: int = Field(default=0, ge=0)
    roll_owed: bool = False  # the GM started or replaced the crisis, or called for a roll, and it is not rolled yet


class ScrutinyTrack(Model):
    """Rolls to one end: a subject through one source (P-G24)."""

    rolls: int = Field(default=0, ge=0)
    increments: list[str] = Field(default_factory=list)


class Connection(Model):
    """A sympathetic connection (M27): its level now, the level it heals back to, and when magic last touched it."""

    level: int = Field(ge=1, le=6)  # 1 Intimate ... 5 Described, 6 Unknown (degraded out of reach)
    original: int = Field(ge=1, le=5)
    fame: bool = False
    real_name_known: bool = True
    heals: bool = True  # objects and places heal only if their sentient endpoint wants it
    touched_day: int = 0


class AwakenedSheet(Model):
    """A mage's sheet (spec section 5)."""

    path: str = Name
    ruling: list[str] = Field(min_length=2, max_length=2)
    inferior: str
    resistance: Literal["composure", "resolve"]
    scrutiny_skills: list[str] = Field(default_factory=list, max_length=10)
    nimbus: str = Field(default="", max_length=300)
    legacy: Legacy | None = None
    attainments: list[Attainment] = Field(default_factory=list, max_length=20)
    gnosis: int = Field(ge=0, le=10)
    gnosis_lost: int = Field(default=0, ge=0, le=10)
    soul_lost: bool = False
    arcana: dict[str, int]
    attributes: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    high_speech: bool = False
    rotes: list[Design] = Field(default_factory=list, max_length=40)
    mana: int = Field(ge=0, le=100)
    mana_max_base: int = Field(ge=0, le=100)
    willpower: int = Field(ge=0, le=20)
    willpower_dots: int = Field(ge=0, le=WILLPOWER_DOTS_MAX)  # the dots held now; the points never exceed them
    willpower_dots_lost: int = Field(default=0, ge=0, le=WILLPOWER_DOTS_MAX)  # to regain, one a month (l.32)
    wisdom: int = Field(ge=0, le=5)
    wisdom_max: int = Field(default=5, ge=0, le=5)
    health_max: int = Field(ge=1, le=30)
    wounds: list[Wound] = Field(default_factory=list)
    armor: int = Field(default=0, ge=0, le=20)
    state: Literal["conscious", "unconscious", "dead"] = "conscious"
    scoured_out: bool = False  # incapacitated by pattern scouring: does not bleed out
    stones: list[SoulStone] = Field(default_factory=list)
    spells: list[ActiveSpell] = Field(default_factory=list)
    contingency: Design | None = None
    sight: Literal["on", "suppressed", "lost"] = "on"
    sight_paid_scene: int | None = None
    last_oblation_day: int | None = None
    last_sacrifice_day: int | None = None
    last_soul_loss_day: int | None = None
    last_willpower_month: int | None = None
    crisis: Crisis | None = None
    scrutiny: dict[str, ScrutinyTrack] = Field(default_factory=dict)
    resonance_increments: dict[str, list[str]] = Field(default_factory=dict)  # subject -> increments counted
    connections: dict[str, Connection] = Field(default_factory=dict)

    def familiarity(self, design: Design) -> str:
        """rote, ruling, common or inferior (P-G5): what the spell's Shaping costs."""
        if design.method == "rote":
            return "rote"
        if self.inferior in design.arcana:
            return "inferior"
        if all(a in self.ruling for a in design.arcana):
            return "ruling"
        return "common"

    @property
    def live_stones(self) -> list[SoulStone]:
        return [s for s in self.stones if not s.destroyed]

    @property
    def destroyed_stones(self) -> int:
        return len([s for s in self.stones if s.destroyed])


class Hallow(Model):
    name: str = Name
    rating: int = Field(ge=1, le=5)
    potential: int = Field(ge=0, le=50)
    resonance: str = Field(default="", max_length=200)


class ParadoxDice(Model):
    caster: str
    spell: str
    dice: int = Field(ge=0)


ParadoxUnit = Literal["round", "scene", "day"]


class StandingParadox(Model):
    """A standing paradox as the GM declared it; with ``lasts`` and ``unit`` it counts down and fades by itself."""

    id: int = Field(ge=1)
    kind: str
    where: str = Field(default="", max_length=200)
    duration: str = Field(default="", max_length=100)  # the GM's words
    lasts: int | None = Field(default=None, ge=1, le=1000)  # rounds, scenes or days left; None: until ended
    unit: ParadoxUnit | None = None

    def remaining(self) -> str:
        if self.lasts is None or self.unit is None:
            return self.duration or "until the GM ends it"
        return f"{self.lasts} {self.unit}{'s' if self.lasts != 1 else ''} left"


class AwakenedState(Model):
    """The calendar, the round's paradox pool, standing paradoxes and Hallows."""

    day: int = Field(default=1, ge=1)
    scene: int = Field(default=1, ge=1)
    round: int = Field(default=1, ge=1)
    next_spell_id: int = Field(default=1, ge=1)
    next_paradox_id: int = Field(default=1, ge=1)
    paradox_pool: list[ParadoxDice] = Field(default_factory=list)
    paradox_marks: list[str] = Field(default_factory=list)  # vulgar casts and refreshes this round
    paradoxes: list[StandingParadox] = Field(default_factory=list)
    hallows: dict[str, Hallow] = Field(default_factory=dict)  # keyed by casefolded name

    @property
    def now(self) -> tuple[int, int]:
        return (self.scene, self.round)


class AwakenedSettings(HouseRules):
    """House rules, each defaulting to the spec's ruling (spec section 5)."""

    base_cost: Literal["lists", "rule_of_thumb"] = "lists"
    gnosis_limit_on_shaping: bool = True
    words_of_power_per_payment: int = Field(default=1, ge=0, le=10)
    hallow_pays_shaping: bool = False
    paradox_again: Literal[10, 9, 8] = 10
    paradox_rote: bool = False
    vulgar_cast_paradox_dice: int = Field(default=0, ge=0, le=10)
    contest_ties: Literal["status_quo", "attacker"] = "status_quo"
    potency_exceptional: bool = True
    refresh_degrades_sympathy: bool = True
    aftereffect_after_year: Literal["encountered", "unknown"] = "encountered"
    hallow_oblation_bonus: Literal["three_plus_rating", "rating"] = "three_plus_rating"
    crisis_willpower: int = Field(default=1, ge=0, le=10)
    month_days: int = Field(default=30, ge=1, le=366)
    scouring_damage_cap: bool = False


# The mage's secrets (docs/awakened.md "Who sees what"): whom it has sympathy to, what it scrutinized, who holds its
# soul stones and its prepared contingency are its owner's and the GMs' alone. The table service hides them from
# every other reader and keeps them off every public result (rules/base.py, "Secrecy").
PRIVATE_FIELDS = (
    PrivateField("connections"),
    PrivateField("spells.*.connection"),
    PrivateField("scrutiny"),
    PrivateField("resonance_increments"),
    PrivateField("stones.*.holder"),
    PrivateField("contingency", words="name"),
)
