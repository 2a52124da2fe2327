"""The Serpent's Tongue book: spells, Specializations, Encounters, the Resonance chart and the glossary.

``data/serpent/*.toml`` is validated into :class:`SerpentBook`. A spell keeps only
what the walkthrough states (RULING 12): a value the text does not give is left
out, and an aspect the text says exists without giving its value is named in
``missing`` so the engine can ask the GM for it instead of guessing. The
campaign's spell book (``/serpent spell define``) overrides or adds spells with
the same model.
"""

import re
from collections.abc import Iterable
from typing import Literal

from pydantic import Field, model_validator

from rules.base import LookupEntry, Model, RuleError
from rules.dice.threshold import ResonanceBand, check_resonance_bands
from rules.glossary import Glossary
from rules.text import fold

Sphere = Literal["Soul", "Mind", "Quantum", "Bio", "Forces", "Matter"]
SPHERES: tuple[Sphere, ...] = ("Soul", "Mind", "Quantum", "Bio", "Forces", "Matter")
PHYSICAL_SPHERES: frozenset[str] = frozenset({"Bio", "Matter", "Forces"})
Role = Literal["Attack", "Defense", "Enhance", "Component", "Abjuration", "Transmute", "Ally", "Artifact", "Nam-Shub"]
Energy = Literal["Essence", "Resonance", "Harmony", "Will", "Voice"]
ENERGIES: tuple[Energy, ...] = ("Resonance", "Harmony", "Essence", "Will", "Voice")

# Aspects a spell may leave unstated although the text says the spell has them.
MissingAspect = Literal[
    "sphere",
    "resonance",
    "harmony",
    "duration",
    "curse_duration",
    "durability",
    "dispel_to",
    "shield_spheres",
    "cast_phrase",
    "fluency",
]


NUMBERED = re.compile(r"#\s*(\d+)\b")


def number_of(text: str) -> int | None:
    """``"#12"`` or ``"#12 Fireball"`` (as autocomplete offers it) → 12; a plain title → None."""
    match = NUMBERED.match(text.strip())
    return int(match.group(1)) if match else None


class Boost(Model):
    """What an upgrade, ritual tier, passive effect or Spec ability adds to a spell."""

    add_dmg: int = 0
    add_duration: int = 0
    add_resonance: int = 0  # "generates +N Resonance" when cast (paid less, or gained more)
    refined: bool = False
    subtle: bool = False
    free_action: bool = False
    pierce: int = 0
    shatter: int = 0
    sealed: bool = False  # glossary "Sealed": Duration F becomes Duration P

    def describe(self) -> str:
        parts = []
        if self.add_dmg:
            parts.append(f"+{self.add_dmg} Dmg")
        if self.add_duration:
            parts.append(f"+{self.add_duration} Duration")
        if self.add_resonance:
            parts.append(f"generates +{self.add_resonance} Resonance")
        for flag in ("refined", "subtle", "free_action", "sealed"):
            if getattr(self, flag):
                parts.append(flag.replace("_", " ").title())
        if self.pierce:
            parts.append(f"Pierce {self.pierce}")
        if self.shatter:
            parts.append(f"Shatter {self.shatter}")
        return ", ".join(parts) or "nothing"


class SpellFilter(Model):
    """Which spells a passive or Spec ability applies to; every given field must match."""

    title: str | None = None
    sphere: Sphere | None = None
    descriptor: str | None = None
    role: Role | None = None
    shape_shift: bool | None = None

    def describe(self) -> str:
        parts = [self.sphere or "", "Shape-Shift" if self.shape_shift else "", self.descriptor or "", self.role or ""]
        text = " ".join(p for p in parts if p) or "any"
        return f"{self.title!r}" if self.title else f"{text} spells"


class Amount(Model):
    """A directive's size and energy: "Dmg 2", "Harmony Dmg 5", "Dmg equal to Karma charges"."""

    amount: int | None = None  # None: the text does not give it (see ``from_charges``)
    energy: Energy = "Essence"
    from_charges: str | None = None  # the amount is the target's charges of this kind
    physical: bool = False  # "Physical Dmg": blocked by any Shield of a Physical sphere

    def describe(self, what: str = "Dmg") -> str:
        energy = "" if self.energy == "Essence" else f"{self.energy} "
        physical = "Physical " if self.physical else ""
        if self.from_charges:
            return f"{energy}{physical}{what} equal to the target's {self.from_charges} charges"
        return f"{energy}{physical}{what} {self.amount if self.amount is not None else '?'}"


class DurationSpec(Model):
    """Duration #, P (Persistent) or F (Focus); ``count`` only for #, None when the text omits it."""

    kind: Literal["rounds", "P", "F"]
    count: int | None = Field(default=None, ge=1)

    def describe(self) -> str:
        if self.kind == "rounds":
            return f"Duration {self.count if self.count is not None else '?'}"
        return f"Duration {self.kind}"


class Dispel(Model):
    """A Dispel directive: which spells it may remove and where they go."""

    targets: Literal["active", "manifesting", "both"]
    to: Literal["discard", "banish", "codex"] | None = None


class Requirement(Model):
    """A "!" requirement: checked or paid when casting, and/or when sustaining in maintenance."""

    kind: Literal[
        "discard_component",  # discard a Component you control (of a sphere or descriptor)
        "active_on_bearer",  # an active spell (descriptor/role) on the bearer, anyone's
        "active",  # an active spell you control
        "pay_essence",
        "pay_will",
        "pay_resonance",
        "discard_charge",  # discard charges of a kind from a spell you control
        "attunement",  # a spell of ``sphere`` in the caster's discard pile
        "dominance",  # more discards of ``sphere`` than of any other sphere
        "burn_focus",  # discard a Focus
    ]
    when: Literal["cast", "sustain", "both"] = "cast"
    sphere: Sphere | None = None
    descriptor: str | None = None
    role: Role | None = None
    charge: str | None = None
    amount: int = Field(default=1, ge=1)
    text: str

    def at_cast(self) -> bool:
        return self.when in ("cast", "both")

    def at_sustain(self) -> bool:
        return self.when in ("sustain", "both")


class Upgrade(Model):
    """A "^" upgrade: bought while paying, with one of several prices."""

    key: str
    text: str
    prices: list[dict[Energy, int]] = Field(min_length=1)
    boost: Boost


class Ability(Model):
    """An ability an active spell grants its bearer (Beast Form's attack)."""

    name: str
    text: str
    free_action: bool = True
    per_round: int | None = 1
    dmg: Amount | None = None
    offensive: bool = True
    is_spell: bool = False  # abilities are not spells unless they say so


class Passive(Model):
    """A passive effect of an active spell, applied while it is in play."""

    kind: Literal[
        "boost_bearer_spells",  # the bearer's own spells matching ``applies_to`` gain ``boost``
        "boost_against_bearer",  # the controller's spells at the bearer matching ``applies_to`` gain ``boost``
        "immune",  # the bearer is immune to effects with ``descriptor``
        "charge_on_offense",  # the bearer's offensive spells at the controller add a ``charge``
    ]
    text: str
    applies_to: SpellFilter = Field(default_factory=SpellFilter)
    boost: Boost = Field(default_factory=Boost)
    descriptor: str | None = None
    charge: str | None = None


class SpellLoss(Model):
    """Glossary "Spell Loss": how many spells leave the target's Codex, and how."""

    amount: int = Field(ge=1)
    how: Literal["sacrifice", "banish", "codex"]

    def describe(self) -> str:
        verb = {"sacrifice": "Sacrificed", "banish": "Banished", "codex": "returned to the Codex unprepared"}[self.how]
        return f"Spell Loss {self.amount} ({verb})"


class Spell(Model):
    """One spell as the book (or the campaign's spell book) gives it.

    Orbs follow the card: ``resonance = -3`` costs 3, ``resonance = 1`` generates 1.
    """

    title: str
    aliases: list[str] = Field(default_factory=list)
    fluency: int | None = Field(default=None, ge=1, le=4)
    sphere: Sphere | None = None
    role: Role
    curse: bool = False
    defense: Literal["Shield", "Evade", "Ward"] | None = None
    descriptors: list[str] = Field(default_factory=list)
    resonance: int | None = None
    harmony: int | None = None
    requirements: list[Requirement] = Field(default_factory=list)
    sustain: dict[Energy, int] = Field(default_factory=dict)  # paid each maintenance
    # directives
    dmg: Amount | None = None
    infusion: Amount | None = None
    siphon: Amount | None = None
    disrupt: bool = False
    dispel: Dispel | None = None
    clears_charges: str | None = None  # removes the target's charges of this kind on impact (Judgement)
    # empowerments
    duration: DurationSpec | None = None
    curse_duration: DurationSpec | None = None
    durability: int | None = Field(default=None, ge=1)
    shield_spheres: list[Sphere] = Field(default_factory=list)
    evade_spheres: list[Sphere] = Field(default_factory=list)
    ward: Amount | None = None
    ward_spheres: list[Sphere] = Field(default_factory=list)
    refined: bool = False
    impenetrable: bool = False
    resilient: bool = False
    invulnerable: bool = False
    subtle: bool = False
    pierce: int = 0
    shatter: int = 0
    area: Literal["team", "global"] | None = None
    unblockable: bool = False
    free_action: bool = False
    response: bool = False
    bonded: bool = False
    shape_shift: bool = False
    unique_to_codex: bool = False
    eloquent: int = 0
    immune: list[str] = Field(default_factory=list)  # the spell itself ignores effects of these descriptors/spheres
    # the glossary's further aspects (issue 14); each is read where the glossary says it matters
    ward_spell_loss: int = Field(default=0, ge=0)  # a Ward that mitigates Spell Loss (glossary "Ward")
    veiled: bool = False  # no Response phase
    vowed: bool = False  # its controller cannot dismiss it
    legendary: bool = False  # one active spell of this title, by any Magi
    unique_to_bearer: bool = False
    unique_to_caster: bool = False
    unique_to_descriptor: str | None = None
    adamant: bool = (
        False  # immune to abilities/Abjurations/Transmutes targeting it, unless Inexorable or its controller's
    )
    inexorable: bool = False
    backlash: int = Field(default=0, ge=0)  # Unblockable Harmony Dmg to whoever Abjures or Transmutes it
    dampen: Amount | None = None  # directive: the caster of the target effect pays this much more, or loses it
    haste: bool = False  # passive: its bearer has one more Full Action each round (never more than one)
    slow: bool = False  # directive: the target collects an interrupt stone (one a round from offensive effects)
    cloaks: bool = False  # passive: its bearer is Cloaked (opponents cannot target them)
    phases: bool = False  # passive: its bearer is Phased (only meditates; immune to offensive effects)
    prevents: Role | Literal["all"] | None = None  # passive (a Prevented effect): its bearer cannot cast these spells
    will_break: int | None = Field(default=None, ge=0)  # its bearer may end it by spending this much Will
    injunction: Energy | None = None  # passive (Injunction): its bearer cannot gain this energy
    obliterate: bool = False  # directive: incapacitates the target at once
    shed_discord: int = Field(default=0, ge=0)  # directive: removes up to this much negative Harmony
    spell_loss: SpellLoss | None = None  # directive: the target removes spells from their Codex
    absolute_free_action: bool = False  # a Free Action even when it needs "# Actions"
    actions: int = Field(default=1, ge=1, le=9)  # "# Actions": Full Actions invested (in the Rite zone) to cast it
    exclusive: bool = False  # a Transmute: one Exclusive Transmute per target spell
    steps: int | None = Field(default=None, ge=1)  # a Nam-Shub: the steps its page lists (the GM's value)
    charges: int | None = Field(default=None, ge=1)  # an Artifact: the charges it starts a battle with
    ally_essence: int | None = Field(default=None, ge=1)  # an Ally spell: its Koishaka's Essence (the GM's value)
    makes_dormant: bool = False  # a Transmute: the spell it combines with is Dormant while it lasts
    combine: Boost | None = None  # a Transmute: what it adds to the spell it combines with
    target_manifesting: bool = False  # an Abjuration that needs a manifesting spell
    upgrades: list[Upgrade] = Field(default_factory=list)
    ritual_path: list[Boost | None] = Field(default_factory=list, max_length=4)
    abilities: list[Ability] = Field(default_factory=list)
    passives: list[Passive] = Field(default_factory=list)
    cast_phrase: str | None = None
    text: str = ""
    source: str = ""  # where the walkthrough describes it
    missing: list[MissingAspect] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> "Spell":
        if self.curse and self.role != "Attack":
            raise ValueError("only an Attack can be a Curse")
        if self.defense and self.role != "Defense":
            raise ValueError("defense kind (Shield/Evade/Ward) needs role Defense")
        if self.shape_shift and self.role != "Enhance":
            raise ValueError("Shape-Shift is an empowerment of Enhance spells")
        return self

    @property
    def key(self) -> str:
        return fold(self.title)

    def needs(self, aspect: str) -> bool:
        """True when the text says the spell has this aspect but gives no value."""
        return aspect in self.missing

    def cost_text(self) -> str:
        parts = []
        for name, value in (("Resonance", self.resonance), ("Harmony", self.harmony)):
            if value is None:
                if name.casefold() in self.missing:
                    parts.append(f"{name} ? (not in the book)")
                continue
            parts.append(f"{name} {'+' if value > 0 else ''}{value}")
        return ", ".join(parts) or "no orb costs given"


class SpecTier(Model):
    """One unlockable tier of a Specialization tree; unknown tiers carry ``missing``."""

    tree: Literal["A", "B"]
    tier: Literal[1, 2]
    name: str | None = None
    cost: int | None = None  # Resonance (Voice may stand in 1-for-1)
    text: str = ""
    applies_to: SpellFilter | None = None
    boost: Boost | None = None
    missing: list[Literal["name", "cost", "ability"]] = Field(default_factory=list)


class Specialization(Model):
    name: str
    initiate_text: str
    initiate_applies_to: SpellFilter | None = None
    initiate_boost: Boost | None = None
    tiers: list[SpecTier] = Field(default_factory=list)
    source: str = ""
    notes: str = ""

    def tier(self, tree: str, tier: int) -> SpecTier | None:
        return next((t for t in self.tiers if t.tree == tree and t.tier == tier), None)


EncounterCondition = Literal["none", "curse_on_self", "focused_opponent"]


class ChartEffect(Model):
    """What an Encounter's chart row or ability-chart roll does when it impacts."""

    dmg: Amount | None = None
    area: bool = False
    subtle: bool = False
    disrupt: bool = False
    focus_loss_harmony: int = 0  # a Magi who loses Focus to this Disrupt also loses this much Harmony
    gain_resonance: int | None = None  # the Encounter gains this much Resonance
    free_action: bool = False
    critical_failure: bool = False
    target: Literal["lowest_harmony", "team", "self"] = "team"
    value_setting: str | None = None  # the settings field that supplies a value the scan garbles


class ChartRow(Model):
    name: str
    cost: int = 0  # Resonance
    is_spell: bool = False
    condition: EncounterCondition = "none"
    condition_spheres: list[Sphere] = Field(default_factory=list)
    roll_chart: str | None = None  # roll a d10 on this ability chart instead of ``effect``
    effect: ChartEffect | None = None
    text: str


class AbilityChartRow(Model):
    low: int = Field(ge=1, le=10)
    high: int = Field(ge=1, le=10)
    text: str
    effect: ChartEffect


class AbilityChart(Model):
    name: str
    legible: bool = True
    rows: list[AbilityChartRow] = Field(default_factory=list)
    text: str = ""


class Encounter(Model):
    """An Encounter card (RULING 13): stats with per-extra-Magi scaling, bag, charts, response."""

    name: str
    essence: int
    essence_per_extra: int = 0
    resonance: int = 0
    resonance_bonus: int = 0
    resonance_bonus_per_extra: int = 0
    actions: int = 2
    actions_per_extra: int = 0
    has_harmony: bool = False
    sphere: Sphere
    targeting: Literal["lowest_harmony"] = "lowest_harmony"
    bag: dict[str, int]
    bag_reset: dict[str, int]
    evade_cost: int | None = None
    evade_token: str | None = None
    evade_text: str = ""
    low_essence_below: int | None = None
    low_essence_pierce: int = 0
    charts: dict[str, list[ChartRow]]
    ability_charts: list[AbilityChart] = Field(default_factory=list)
    text: str = ""
    source: str = ""

    def ability_chart(self, name: str) -> AbilityChart | None:
        return next((c for c in self.ability_charts if c.name == name), None)


class ExchangeOption(Model):
    give: Energy
    amount: int
    gains: dict[Energy, int]


class CoreRules(Model):
    """The numbers the rules chapters state once (Quick Start, Crucible Update, glossary)."""

    starting: dict[Energy, int]
    focus: int
    full_actions: int
    enhancement_slots: int
    max_prepared: int
    max_interrupt_stones: int
    meditate: dict[Energy, int]
    exchanges: list[ExchangeOption]
    codex_size: int
    codex_max_fluency_3: int
    codex_max_fluency_4: int
    codex_max_same_title: int
    reattune_bonded_cost: int
    miscast_harmony: int
    miscast_others_resonance: int


class SpellTable(Model):
    spell: list[Spell]


class SpecTable(Model):
    specialization: list[Specialization]


class EncounterTable(Model):
    encounter: list[Encounter]


class ResonanceTable(Model):
    band: list[ResonanceBand]

    @model_validator(mode="after")
    def _complete(self) -> "ResonanceTable":
        try:
            check_resonance_bands(self.band)
        except RuleError as exc:
            raise ValueError(str(exc)) from exc
        return self


class SerpentBook(Model):
    """``data/serpent``: one field per file stem."""

    spells: SpellTable
    specializations: SpecTable
    encounters: EncounterTable
    resonance: ResonanceTable
    glossary: Glossary
    rules: CoreRules

    @model_validator(mode="after")
    def _unique(self) -> "SerpentBook":
        for label, names in (
            ("spell", [s.key for s in self.spells.spell]),
            ("specialization", [fold(s.name) for s in self.specializations.specialization]),
            ("encounter", [fold(e.name) for e in self.encounters.encounter]),
        ):
            seen: set[str] = set()
            for name in names:
                if name in seen:
                    raise ValueError(f"{label} {name!r} appears twice")
                seen.add(name)
        return self

    def spell(self, name: str) -> Spell | None:
        key = fold(name)
        for spell in self.spells.spell:
            if spell.key == key or key in (fold(a) for a in spell.aliases):
                return spell
        return None

    def specialization(self, name: str) -> Specialization | None:
        return next((s for s in self.specializations.specialization if fold(s.name) == fold(name)), None)

    def encounter(self, name: str) -> Encounter | None:
        return next((e for e in self.encounters.encounter if fold(e.name) == fold(name)), None)


def find_spell(book: SerpentBook, campaign_spells: dict[str, Spell], name: str) -> Spell:
    """The campaign's definition wins over the book's; a RuleError names what exists."""
    key = fold(name)
    if key in campaign_spells:
        return campaign_spells[key]
    for spell in campaign_spells.values():
        if key in (fold(a) for a in spell.aliases):
            return spell
    spell = book.spell(name)
    if spell is None:
        known = sorted({s.title for s in book.spells.spell} | {s.title for s in campaign_spells.values()})
        raise RuleError(
            f"There is no spell {name!r} in the book or this campaign's spell book. Known: {', '.join(known)}."
        )
    override = campaign_spells.get(spell.key)
    return override or spell


# ---------------------------------------------------------------- lookup


def spell_body(spell: Spell) -> str:
    """A spell as `/lookup` shows it: every stated aspect, and what the book leaves out."""
    lines = [f"**{spell.sphere or '? sphere'} {spell.role}{' (Curse)' if spell.curse else ''}**"]
    if spell.fluency:
        lines[0] += f", fluency {spell.fluency}"
    lines.append(f"Orbs: {spell.cost_text()}")
    aspects = describe_aspects(spell)
    if aspects:
        lines.append("Aspects: " + "; ".join(aspects))
    for req in spell.requirements:
        lines.append(f"! {req.text}")
    if spell.sustain:
        lines.append("Sustain: " + ", ".join(f"{v} {k}" for k, v in spell.sustain.items()))
    for upgrade in spell.upgrades:
        lines.append(f"^ {upgrade.text}")
    for ability in spell.abilities:
        lines.append(f"Ability - {ability.name}: {ability.text}")
    for passive in spell.passives:
        lines.append(f"Passive: {passive.text}")
    if spell.cast_phrase:
        lines.append(f"Cast phrase: {spell.cast_phrase}")
    if spell.text:
        lines.append(spell.text)
    if spell.missing:
        lines.append(
            "Not given by the book (a GM sets these with `/serpent spell define`): " + ", ".join(spell.missing)
        )
    if spell.source:
        lines.append(f"_Source: {spell.source}_")
    return "\n".join(lines)


def describe_aspects(spell: Spell) -> list[str]:
    out: list[str] = []
    if spell.descriptors:
        out.append(", ".join(spell.descriptors))
    if spell.defense:
        out.append(spell.defense)
    if spell.dmg:
        out.append(spell.dmg.describe())
    if spell.infusion:
        out.append(spell.infusion.describe("Infusion"))
    if spell.siphon:
        out.append(spell.siphon.describe("Siphon"))
    if spell.disrupt:
        out.append("Disrupt")
    if spell.dispel:
        to = spell.dispel.to or "? (not in the book)"
        out.append(f"Dispel ({spell.dispel.targets}, to {to})")
    for label, value in (("Duration", spell.duration), ("Curse Duration", spell.curse_duration)):
        if value:
            out.append(value.describe().replace("Duration", label, 1))
    if spell.durability or spell.needs("durability"):
        out.append(f"Durability {spell.durability or '?'}")
    if spell.shield_spheres:
        out.append("Shields " + "/".join(spell.shield_spheres))
    if spell.evade_spheres:
        out.append("Evades " + "/".join(spell.evade_spheres))
    if spell.ward:
        out.append(f"Ward {spell.ward.amount} {spell.ward.energy} ({'/'.join(spell.ward_spheres) or 'any'})")
    flags = [
        "refined",
        "impenetrable",
        "resilient",
        "invulnerable",
        "subtle",
        "unblockable",
        "free_action",
        "response",
        "bonded",
        "shape_shift",
        "unique_to_codex",
    ]
    out.extend(flag.replace("_", " ").title() for flag in flags if getattr(spell, flag))
    if spell.pierce:
        out.append(f"Pierce {spell.pierce}")
    if spell.shatter:
        out.append(f"Shatter {spell.shatter}")
    if spell.area:
        out.append("Area" if spell.area == "team" else "Area:G")
    if spell.eloquent:
        out.append(f"Eloquent {spell.eloquent}")
    out.extend(further_aspects(spell))
    return out


def further_aspects(spell: Spell) -> list[str]:
    """The glossary's further aspects (issue 14), named as a GM types them in ``spell define aspects:``."""
    out: list[str] = []
    flags = {
        "veiled": "Veiled",
        "vowed": "Vowed",
        "legendary": "Legendary",
        "unique_to_bearer": "Unique to Bearer",
        "unique_to_caster": "Unique to Caster",
        "adamant": "Adamant",
        "inexorable": "Inexorable",
        "haste": "Haste",
        "slow": "Slow",
        "cloaks": "Cloaked",
        "phases": "Phased",
        "obliterate": "Obliteration",
        "exclusive": "Exclusive",
        "makes_dormant": "Dormant",
        "absolute_free_action": "Absolute Free Action",
    }
    out.extend(label for field, label in flags.items() if getattr(spell, field))
    numbers = {
        "backlash": "Backlash",
        "shed_discord": "Shed Discord",
        "will_break": "Will Break",
        "ally_essence": "Ally Essence",
        "charges": "Charges",
        "steps": "Steps",
    }
    out.extend(f"{label} {getattr(spell, field)}" for field, label in numbers.items() if getattr(spell, field))
    if spell.actions > 1:
        out.append(f"Actions {spell.actions}")
    if spell.immune:
        out.append("Immune " + ", ".join(spell.immune))
    if spell.unique_to_descriptor:
        out.append(f"Unique to Descriptor {spell.unique_to_descriptor}")
    if spell.dampen:
        out.append(f"Dampen {spell.dampen.amount} {spell.dampen.energy}")
    if spell.prevents:
        out.append(f"Prevents {spell.prevents}")
    if spell.injunction:
        out.append(f"Injunction {spell.injunction}")
    if spell.spell_loss:
        out.append(spell.spell_loss.describe())
    if spell.ward_spell_loss:
        out.append(f"Ward {spell.ward_spell_loss} Spell Loss")
    if spell.combine:
        out.append(f"Combines {spell.combine.describe()}")
    return out


OVERLOAD_NOTE = " (Resonance Overload: every being with Harmony loses 1)"


def lookup_entries(book: SerpentBook) -> Iterable[LookupEntry]:
    """Every glossary term, spell, Specialization, Encounter and the Resonance chart."""
    yield from book.glossary.lookup_entries("serpent")
    for spell in book.spells.spell:
        yield LookupEntry(
            ruleset="serpent",
            category="spell",
            key=spell.title,
            title=spell.title,
            body=spell_body(spell),
            aliases=list(spell.aliases),
        )
    for spec in book.specializations.specialization:
        yield LookupEntry(
            ruleset="serpent", category="specialization", key=spec.name, title=spec.name, body=spec_body(spec)
        )
    for encounter in book.encounters.encounter:
        yield LookupEntry(
            ruleset="serpent",
            category="encounter",
            key=encounter.name,
            title=encounter.name,
            body=encounter_body(encounter),
        )
    for encounter in book.encounters.encounter:
        for token, chart in encounter.charts.items():
            for row in chart:
                if row.roll_chart is None:
                    yield LookupEntry(
                        ruleset="serpent",
                        category="encounter ability",
                        key=row.name,
                        title=f"{row.name} ({encounter.name})",
                        body=f"{row.text}.\nOn the {token} chart of {encounter.name}; its sphere is {encounter.sphere}."
                        + (
                            " It is a spell: Abjurations may target it, and it adds Karma charges."
                            if row.is_spell
                            else ""
                        ),
                    )
    rows = "\n".join(
        f"{b.low}-{b.high} = {b.gain} Resonance{' (Resonance Overload)' if b.overload else ''}"
        if b.low != b.high
        else f"{b.low} = {b.gain} Resonance{OVERLOAD_NOTE if b.overload else ''}"
        for b in book.resonance.band
    )
    yield LookupEntry(
        ruleset="serpent",
        category="table",
        key="Resonance chart",
        title="Resonance chart",
        body="Roll 1d10 once for the whole table (a 0 reads as 10):\n" + rows,
        aliases=["Resonance table", "Resonance bands"],
    )


def spec_body(spec: Specialization) -> str:
    lines = [f"**Initiate:** {spec.initiate_text}"]
    for tier in spec.tiers:
        name = tier.name or "?"
        cost = f"{tier.cost} Resonance/Voice" if tier.cost is not None else "cost ?"
        text = tier.text or "not described by the book"
        lines.append(f"**Tree {tier.tree} tier {tier.tier}** - {name} ({cost}): {text}")
    if spec.notes:
        lines.append(spec.notes)
    if spec.source:
        lines.append(f"_Source: {spec.source}_")
    return "\n".join(lines)


def encounter_body(enc: Encounter) -> str:
    lines = [
        f"Essence {enc.essence} (+{enc.essence_per_extra} per extra Magi), Resonance {enc.resonance}, "
        f"Resonance bonus {enc.resonance_bonus} (+{enc.resonance_bonus_per_extra}), "
        f"Actions {enc.actions} (+{enc.actions_per_extra}). Sphere: {enc.sphere}. "
        f"{'Has Harmony.' if enc.has_harmony else 'No Harmony.'} Targets the lowest Harmony.",
        "Draw bag: "
        + ", ".join(f"{n} {c}" for c, n in enc.bag.items())
        + "; resets once "
        + " and ".join(f"{n} {c}" for c, n in enc.bag_reset.items())
        + " are out.",
    ]
    if enc.evade_text:
        lines.append(f"Response: {enc.evade_text}")
    for token, rows in enc.charts.items():
        lines.append(f"**{token.title()} chart:** " + " / ".join(f"{i}. {r.text}" for i, r in enumerate(rows, 1)))
    for chart in enc.ability_charts:
        if chart.legible:
            lines.append(f"**Ability Chart {chart.name}:** " + " / ".join(r.text for r in chart.rows))
        else:
            lines.append(f"**Ability Chart {chart.name}:** {chart.text}")
    if enc.low_essence_below is not None:
        lines.append(f"Below {enc.low_essence_below} Essence its attacks gain Pierce {enc.low_essence_pierce}.")
    if enc.text:
        lines.append(enc.text)
    return "\n".join(lines)
