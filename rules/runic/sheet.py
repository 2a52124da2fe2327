"""The runic models the table service stores: the mage's sheet, the campaign state, the house rules.

Bounds live on the fields so a sheet that reaches the database is always one
the rules can play. Current HP, FP and MP may go negative (the seed says so);
maxima may not.
"""

from typing import Literal

from pydantic import Field

from rules.base import HouseRules, Model

SpellType = Literal["regular", "melee", "missile", "blocking", "information", "area"]
ResistTrait = Literal["HT", "Will", "IQ", "spell"]
ConditionEnd = Literal["sunrise", "days", "gm", "permanent"]

Name = Field(min_length=1, max_length=60)


class SpellDef(Model):
    """A named spell: Words, type, resistance and Parameters. Energy and time are worked out from the book."""

    name: str = Name
    words: list[str] = Field(min_length=1, max_length=26)
    type: SpellType = "regular"
    resisted: ResistTrait | None = None
    parameters: list[str] = Field(default_factory=list, max_length=20)
    concentration: bool = False  # needs Concentrate to keep up: -3 instead of -2 while on
    inscription: bool = False  # a Runic Inscription: Symbol Drawing, no word-count or unknown-spell penalty
    effect: str = Field(default="", max_length=500)


class PowerItem(Model):
    """The one bonded magic implement or power item: stored MP, up to its capacity."""

    name: str = Name
    capacity: int = Field(ge=0, le=10_000)
    mp: int = Field(ge=0, le=10_000)
    value: int | None = Field(default=None, ge=0)  # in C, when bonded from a value


class MagicItem(Model):
    """A magic item with its own MP and daily recovery (typically 10 MP, 5 per day)."""

    name: str = Name
    mp: int = Field(ge=0, le=10_000)
    max_mp: int = Field(ge=0, le=10_000)
    recovery: int = Field(ge=0, le=10_000)


class Grimoire(Model):
    """A grimoire: spells inscribed with their casting bonus, in pages (a spell's length is its casting time)."""

    name: str = Name
    pages: int = Field(ge=1, le=10_000)
    spells: dict[str, int] = Field(default_factory=dict)  # casefolded spell name -> bonus


class SpellOn(Model):
    """A spell being maintained: what each maintenance interval costs."""

    name: str = Name
    words: list[str]
    cost: int = Field(ge=0)  # the casting's energy cost, the cap on maintenance
    maintenance: int = Field(ge=0)
    interval: str  # the Duration (or Persistence) that each payment buys
    concentrating: bool = False
    frozen: bool = False  # a concentrated spell after a failed Will-3: it stays as it was until resumed


class HeldSpell(Model):
    """A Melee or Missile spell charged in hand: "You do not have to launch the missile until you want to." """

    name: str = Name
    type: Literal["melee", "missile"]
    energy: int = Field(ge=0)
    damage_dice: str | None = None
    damage_type: str | None = None
    effect: str = ""

    @property
    def explosive(self) -> bool:
        return "explosive" in (self.damage_type or "")


class LastingMagic(Model):
    """A Runic Inscription in place: a ward, sigil or inscription, its trigger, and what it cost to make."""

    name: str = Name
    spell: str
    words: list[str]
    form: Literal["ward", "sigil", "inscription"]
    duration: Literal["temporary", "lasting", "permanent", "enchantment"]
    trigger: str | None = None  # the trigger's Words
    trigger_energy: int = Field(default=0, ge=0)
    spell_energy: int = 0
    materials: int | None = Field(default=None, ge=0)  # C: permanent components, or a Greater Sigil's making
    value: int | None = Field(default=None, ge=0)  # C: a Greater Sigil's price
    maintenance: int | None = Field(default=None, ge=0)  # temporary: the trigger's
    damage_dice: str | None = None
    damage_type: str | None = None
    day: int = Field(default=0, ge=0)
    triggered: int = Field(default=0, ge=0)


class Condition(Model):
    """A lasting Calamity or backfire result with its remaining duration."""

    key: str
    name: str
    effect: str
    source: str  # "Calamity 15", "Critical failure 9"
    duration: str  # as rolled: "12 minutes", "3 weeks", "until the GM ends it"
    until: ConditionEnd
    days_left: int | None = Field(default=None, ge=0)
    failures_critical: bool = False
    spell_cost_multiplier: int = Field(default=1, ge=1)
    recovery_halted: bool = False


class MageSheet(Model):
    """A character in a runic campaign. Magery 0 is a mundane (or a mage who lost it all)."""

    magery: int = Field(default=0, ge=0, le=10)
    magery_locked: bool = False  # Calamity 24: can never increase again
    iq: int = Field(default=10, ge=1, le=30)
    ht: int = Field(default=10, ge=1, le=30)
    will: int = Field(default=10, ge=1, le=30)
    hp_max: int = Field(default=10, ge=1, le=200)
    hp: int = Field(default=10, ge=-2000, le=200)
    fp_max: int = Field(default=10, ge=1, le=200)
    fp: int = Field(default=10, ge=-2000, le=200)
    mp_max: int = Field(default=0, ge=0, le=10_000)  # 20 × Magery less losses; kept by sheet rules
    mp: int = Field(default=0, ge=-100_000, le=10_000)
    mp_lost_temporary: int = Field(default=0, ge=0, le=10_000)  # Calamity 16: back at 1 per day
    mp_lost_permanent: int = Field(default=0, ge=0, le=10_000)  # Calamity 18
    thaumatology: int | None = Field(default=None, ge=1, le=40)
    symbol_drawing: int | None = Field(default=None, ge=1, le=40)
    words: dict[str, int] = Field(default_factory=dict)  # trained Word skills by Word name
    cheaper_casting: dict[str, int] = Field(default_factory=dict)  # levels by Word name
    faster_casting: int = Field(default=0, ge=0, le=10)
    age: int | None = Field(default=None, ge=0, le=100_000)
    spells: dict[str, SpellDef] = Field(default_factory=dict)  # casefolded name -> spell
    known: list[str] = Field(default_factory=list)  # casefolded names of spells bought (no -6)
    grimoires: dict[str, Grimoire] = Field(default_factory=dict)
    implement: PowerItem | None = None
    items: dict[str, MagicItem] = Field(default_factory=dict)
    spells_on: list[SpellOn] = Field(default_factory=list)
    held: HeldSpell | None = None  # a charged Melee or Missile spell: no other spell until it is gone
    blocked_on_turn: int | None = None  # the combat turn of this mage's last Blocking spell
    lasting: list[LastingMagic] = Field(default_factory=list)  # wards, sigils, inscriptions in place
    word_points: int | None = Field(default=None, ge=0, le=10_000)  # what the player's sheet says Words cost
    conditions: list[Condition] = Field(default_factory=list)

    def end_spells(self, names: list[str] | set[str]) -> None:
        """End spells on; a temporary inscription ends with its upkeep (its trigger's maintenance)."""
        ending = set(names)
        self.spells_on = [on for on in self.spells_on if on.name not in ending]
        self.lasting = [item for item in self.lasting if not (item.duration == "temporary" and item.name in ending)]

    @property
    def hides_mp_max(self) -> bool:
        """Calamities 16 and 18: the mage knows the maximum dropped, "but not of how much"; only GMs see it."""
        return bool(self.mp_lost_temporary or self.mp_lost_permanent)

    def mp_max_shown(self, *, reveal: bool = False) -> str:
        """``/60``, or nothing while a Calamity hides the maximum from the players."""
        return f"/{self.mp_max}" if reveal or not self.hides_mp_max else ""


class InfoAnswer(Model):
    """A question an Information spell asked today, and the answer the GM gave (the same all day)."""

    day: int = Field(ge=0)
    mage: str
    spell: str
    question: str
    answer: str | None = None
    asked: int = Field(default=1, ge=1)


class UpkeepDue(Model):
    """The maintenance a mage owes since the GM's call (``/runic upkeep``): paid or dropped, it goes."""

    call: int = Field(ge=1)  # which call: a new call is a new wait
    spells: list[str] = Field(default_factory=list)


class RunicState(Model):
    """The campaign: its shared grimoire of spells, and how many sunrises have passed."""

    spells: dict[str, SpellDef] = Field(default_factory=dict)
    day: int = Field(default=0, ge=0)
    turn: int | None = Field(default=None, ge=1)  # the combat turn the GM counts with /runic turn; None: no combat
    answers: dict[str, InfoAnswer] = Field(default_factory=dict)  # question key -> today's answer
    gm_values: dict[str, int] = Field(default_factory=dict)  # values the seed leaves to the GM, once set
    upkeep_calls: int = Field(default=0, ge=0)  # how many times the GM called for maintenance (/runic upkeep)
    upkeep_due: dict[str, UpkeepDue] = Field(default_factory=dict)  # casefolded mage -> the maintenance still owed


class RunicSettings(HouseRules):
    """House rules. Defaults follow docs/rulings.md and docs/runic.md; each is a reading a GM could reasonably flip."""

    word_times: dict[str, int] = Field(
        default_factory=dict,
        description="Casting times overriding the Word table, e.g. {'Flam': 2} for the Merlin examples (ruling 6).",
    )
    free_spell_on_penalty: Literal["full", "reduced"] = Field(
        default="full",
        description="A spell on that is maintained free: -2/-3 like any other (full), or -1 (the Duration text).",
    )
    bonded_recovery: Literal["implement", "implement_then_mage"] = Field(
        default="implement",
        description="Sunrise recovery of a mage with a bonded implement: all to the implement, or to it until full.",
    )
    calamity_ends_spells: bool = Field(
        default=True, description="A Calamity that does harm (10+) ends the spells the mage had on."
    )
    secret_information: bool = Field(default=True, description="Information spells are rolled in secret for the GM.")
