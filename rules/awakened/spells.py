"""Declaring a spell and what it costs: Arcana, aspect, method, factors (M19, M26, M27, M34, M37, M38).

The base cost follows ruling 14's lists (or the rule of thumb, as a house rule);
each factor adds 1; the GM may adjust any cast. Sympathy is worked out per
target and the most distant one decides (l.210); reaching past sensory range
needs a conjunctional Arcanum whose benefit allows it for the spell's aspect.
"""

from typing import Any, Literal

from pydantic import Field

from rules.awakened.book import ActionName, AspectName, AwakenedBook
from rules.awakened.sheet import ActiveSpell, AwakenedSettings, AwakenedSheet, Design, Factors
from rules.awakened.words import quantity
from rules.base import Model, RuleError

SPELL_NAME = Field(min_length=1, max_length=60, description="Spell or rote name")


class DesignOptions(Model):
    """The options that declare a spell; None means "as the rote has it" or the default."""

    spell: str = SPELL_NAME
    arcana: str | None = Field(default=None, max_length=120, description="Arcana, e.g. Forces, Prime")
    aspect: AspectName | None = Field(default=None, description="Aspect")
    action: ActionName | None = Field(default=None, description="Action")
    method: Literal["improvised", "rote"] | None = Field(default=None, description="Method")
    area: int | None = Field(default=None, ge=0, le=20, description="Area factors")
    size: int | None = Field(default=None, ge=0, le=20, description="Size factors")
    precision: int | None = Field(default=None, ge=0, le=2, description="Precision factors")
    targets: int | None = Field(default=None, ge=1, le=1_000_000, description="Number of targets")
    damage: str | None = Field(default=None, max_length=120, description="e.g. aggravated, resistant")
    sympathy: str | None = Field(default=None, max_length=300, description="Per target: e.g. intimate, known fame")
    covert_sustain: bool | None = Field(default=None, description="Vulgar, covert after turn 1")
    effect: str | None = Field(default=None, max_length=300, description="What it does")


class CostLine(Model):
    label: str
    mana: int


class Cost(Model):
    lines: list[CostLine]
    total: int
    base: int
    factors: int
    gm_adjust: int = 0
    free_copy_minimum: bool = False
    familiarity: str

    @property
    def text(self) -> str:
        lines = [f"{line.label}: {line.mana:+d}" for line in self.lines]
        return "\n".join(lines) + f"\n**Cost {self.total} Mana**"


# ---------------------------------------------------------------- factors from option text


def parse_damage(book: AwakenedBook, text: str) -> list[str]:
    keys = [f.key for f in book.factors.damage.feature]
    chosen = []
    for part in text.replace(";", ",").split(","):
        word = part.strip().casefold().replace(" ", "_").replace("-", "_")
        if not word or word in ("none", "base", "lethal", "bashing"):
            continue
        if word not in keys:
            raise RuleError(f"{part.strip()!r} is not a damage factor. Damage factors: {', '.join(keys)}.")
        if word in chosen:
            raise RuleError(f"The damage factor {word} is named twice.")
        chosen.append(word)
    return chosen


def parse_sympathy(book: AwakenedBook, text: str) -> tuple[int, int, list[str]]:
    """(factors needed, targets named, one line per target) from ``"intimate, known fame, described unnamed"``.

    Modifiers per P-G34: Fame or Occultation adds 1 only at Known or worse; an
    unknown real name adds 1 at any sympathetic level; sensory range needs none.
    """
    levels = [level.casefold() for level in book.factors.sympathy.levels]
    needs, lines = [], []
    for part in [p for p in text.replace(";", ",").split(",") if p.strip()]:
        words = part.strip().casefold().split()
        level_word, flags = words[0], set(words[1:])
        if level_word == "unknown":
            raise RuleError(book.factors.sympathy.unknown + ": an Unknown target cannot be reached.")
        if level_word not in levels:
            raise RuleError(f"{words[0]!r} is not a sympathy level. Levels: {', '.join(book.factors.sympathy.levels)}.")
        unknown_flags = flags - {"fame", "occultation", "unnamed"}
        if unknown_flags:
            raise RuleError(f"Sympathy flags are fame (or occultation) and unnamed; got {sorted(unknown_flags)}.")
        level = levels.index(level_word)
        need = level
        notes = []
        if flags & {"fame", "occultation"} and level >= 2:
            need += 1
            notes.append("Fame/Occultation +1")
        if "unnamed" in flags and level >= 1:
            need += 1
            notes.append("real name unknown +1")
        needs.append(need)
        lines.append(
            f"{book.factors.sympathy.levels[level]}" + (f" ({', '.join(notes)})" if notes else "") + f": {need}"
        )
    if not needs:
        return 0, 0, []
    return max(needs), len(needs), lines


# ---------------------------------------------------------------- the design


def find_rote(sheet: AwakenedSheet, name: str) -> Design | None:
    return next((r for r in sheet.rotes if r.name.casefold() == name.strip().casefold()), None)


def build_design(book: AwakenedBook, sheet: AwakenedSheet, options: DesignOptions, who: str) -> Design:
    """The declared spell: a rote's design with any overrides, or a new improvised spell."""
    rote = find_rote(sheet, options.spell)
    if options.method == "rote" and rote is None:
        names = ", ".join(r.name for r in sheet.rotes) or "none yet"
        raise RuleError(
            f"{options.spell!r} is not one of {who}'s rotes ({names}); save it with `/awakened spell cast mode:rote`."
        )
    base: dict[str, Any] = rote.model_dump() if rote is not None else {"name": " ".join(options.spell.split())}
    if rote is None or options.method == "improvised":
        base["method"] = "improvised"
    if options.arcana is not None:
        base["arcana"] = book.arcana_list(options.arcana)
    if "arcana" not in base:
        raise RuleError("Name the Arcana the spell weaves (`arcana:`), e.g. `arcana:Forces` or `arcana:Mind, Space`.")
    if options.aspect is not None:
        base["aspect"] = options.aspect
    if "aspect" not in base:
        raise RuleError("Give the spell's `aspect`: sensory, covert or vulgar.")
    for key in ("action", "covert_sustain", "effect"):
        if getattr(options, key) is not None:
            base[key] = getattr(options, key)
    factors = dict(base.get("factors") or {})
    for key in ("area", "size", "precision", "targets"):
        if getattr(options, key) is not None:
            factors[key] = getattr(options, key)
    if options.damage is not None:
        factors["damage"] = parse_damage(book, options.damage)
    if options.sympathy is not None:
        need, named, lines = parse_sympathy(book, options.sympathy)
        factors["sympathy"] = need
        factors["sympathy_text"] = "; ".join(lines)
        factors["targets"] = max(factors.get("targets", 1), named)
    base["factors"] = Factors(**factors)
    design = Design(**base)
    if design.covert_sustain and design.aspect != "vulgar":
        # cites M25
        raise RuleError("Only a vulgar spell can have covert sustained effects; drop `covert_sustain`.")
    weak = [a for a in design.arcana if sheet.arcana.get(a, 0) < 1]
    if weak:
        raise RuleError(f"{who} has no dots in {', '.join(weak)}; a spell can weave only Arcana the mage has.")
    return design


def check_conjunctional(
    book: AwakenedBook, sheet: AwakenedSheet, design: Design, text: str | None, who: str
) -> tuple[list[str], list[str]]:
    """The conjunctional Arcana named, and the benefits they grant; sympathy needs one that reaches."""
    names = book.arcana_list(text) if text else []
    benefits = []
    for name in names:
        dots = sheet.arcana.get(name, 0)
        rows = book.conjunctions(name, dots)
        if not rows:
            lowest = min(c.dots for c in book.arcana.conjunction if c.arcanum == name)
            raise RuleError(f"{name} gives conjunctional benefits from {lowest} dots; {who} has {dots}.")
        benefits += [f"{row.arcanum} {'●' * row.dots}: {row.text}" for row in rows]
    if design.factors.sympathy > 0:
        reaching = [c for n in names for c in book.conjunctions(n, sheet.arcana.get(n, 0)) if c.reaches(design.aspect)]
        if not reaching:
            options = sorted({f"{c.arcanum} {c.dots}" for c in book.arcana.conjunction if c.reaches(design.aspect)})
            raise RuleError(
                f"A {design.aspect} spell at sympathetic range needs a conjunctional Arcanum that reaches it "
                f"({', '.join(options)}); name it in `conjunctional` (and have the dots)."
            )
    return names, benefits


def base_cost(book: AwakenedBook, settings: AwakenedSettings, sheet: AwakenedSheet, design: Design) -> CostLine:
    """Ruling 14's lists; the rule-of-thumb house rule reproduces the book's example (G1)."""
    aspect = book.aspect(design.aspect)
    ruling_only = all(a in sheet.ruling for a in design.arcana)
    if settings.base_cost == "rule_of_thumb":
        cut = 2 if design.method == "rote" else 1 if ruling_only else 0
        return CostLine(label=f"Base ({design.aspect}, rule of thumb)", mana=max(0, aspect.scale - cut))
    if design.method == "rote":
        return CostLine(label=f"Base ({design.aspect} rote)", mana=aspect.cost_rote)
    if ruling_only:
        return CostLine(label=f"Base ({design.aspect} improvised, ruling Arcana only)", mana=aspect.cost_ruling_only)
    return CostLine(label=f"Base ({design.aspect} improvised)", mana=aspect.cost_improvised)


def factor_lines(book: AwakenedBook, factors: Factors) -> list[CostLine]:
    lines = []
    if factors.area:
        lines.append(
            CostLine(label=f"Area {factors.area}: {book.factors.area.describe(factors.area)}", mana=factors.area)
        )
    if factors.size:
        lines.append(
            CostLine(label=f"Size {factors.size}: {book.factors.size.describe(factors.size)}", mana=factors.size)
        )
    if factors.precision:
        lines.append(CostLine(label=f"Precision {factors.precision}", mana=factors.precision))
    if factors.target_factors:
        lines.append(
            CostLine(
                label=f"Targets {factors.targets} ({quantity(factors.target_factors, 'factor')})",
                mana=factors.target_factors,
            )
        )
    for key in factors.damage:
        lines.append(CostLine(label=f"Damage: {key.replace('_', ' ')}", mana=1))
    if factors.sympathy:
        detail = f" ({factors.sympathy_text})" if factors.sympathy_text else ""
        lines.append(CostLine(label=f"Sympathy{detail}", mana=factors.sympathy))
    return lines


def spell_cost(
    book: AwakenedBook,
    settings: AwakenedSettings,
    sheet: AwakenedSheet,
    design: Design,
    gm_adjust: int = 0,
    *,
    inscribed: bool = False,
    ignore: ActiveSpell | None = None,
) -> Cost:
    """Total cost (M34): base + factors + the GM's adjustment, never below 0; a second free rote copy costs ≥ 1."""
    base = base_cost(book, settings, sheet, design)
    lines = [base, *factor_lines(book, design.factors)]
    if gm_adjust:
        lines.append(CostLine(label="GM adjustment", mana=gm_adjust))
    total = max(0, sum(line.mana for line in lines))
    minimum = False
    if design.method == "rote" and not inscribed and total == 0:
        copies = [
            s
            for s in sheet.spells
            if s.free_copy and s is not ignore and s.design.name.casefold() == design.name.casefold()
        ]
        if copies:
            lines.append(CostLine(label=f"Another copy of a free rote (#{copies[0].id} runs free): minimum 1", mana=1))
            total, minimum = 1, True
    return Cost(
        lines=lines,
        total=total,
        base=base.mana,
        factors=design.factors.count,
        gm_adjust=gm_adjust,
        free_copy_minimum=minimum,
        familiarity=sheet.familiarity(design),
    )


def design_text(book: AwakenedBook, design: Design) -> str:
    aspect = book.aspect(design.aspect)
    parts = [
        f"{design.aspect.title()} {design.method} · {design.action} · {', '.join(design.arcana)}",
        f"Potency {aspect.potency} · Tenacity {aspect.tenacity} · Boost {aspect.boost_minimum} minimum"
        + (f", {aspect.boost_again}-again" if aspect.boost_again < 10 else "")
        + (f" · Hindrance {aspect.hindrance}" if aspect.hindrance else ""),
    ]
    if design.covert_sustain:
        parts.append("Covert after its first turn (vulgar cost and Disbelief when cast)")
    if design.effect:
        parts.append(design.effect)
    return "\n".join(parts)
