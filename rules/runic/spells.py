"""Spells: Words from a string, and the energy and casting time worked out line by line.

Energy is the Words' costs (Des -2 and Vas +2 among them), plus each
Parameter, less 2 for Melee and Missile spells, never below 0. Casting time is
the Words' times, halved by Des and doubled by Vas: seconds, or minutes from a
grimoire. Both are recomputed from the book at every use, so a corrected table
corrects every saved spell.
"""

import math
import re

from rules.base import Model, RuleError
from rules.runic.book import RunicBook, Word
from rules.runic.parameters import ParameterLine, RangeMode, parse_parameters
from rules.runic.sheet import ResistTrait, RunicSettings, SpellDef, SpellType

MAX_WORD_TEXT = 200
MIN_CASTING_TIME = 1  # a casting is at least one turn of concentration (docs/runic.md, "Rulings")


class EnergyLine(Model):
    label: str
    energy: int
    detail: str = ""

    def text(self) -> str:
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.label}: {self.energy:+d}{detail}"


class SpellPlan(Model):
    """A spell's energy and time before any casting choices, with every line that made them."""

    words: list[str]
    energy_lines: list[EnergyLine]
    parameters: list[ParameterLine]
    raw_energy: int
    energy: int  # never below the book's minimum
    time_lines: list[str]
    base_time: float  # exact: Des can leave a half
    time: int  # rounded up, at least 1
    skill_from_parameters: int
    maintenance: int | None  # per interval, before the cap at the casting cost; None: not maintainable
    interval: str | None
    range_mode: RangeMode | None
    max_range_yards: float | None
    area: bool
    damage_dice: str | None = None  # GURPS notation from the damage Parameter
    damage_type: str | None = None


def parse_words(text: str, book: RunicBook) -> list[Word]:
    """ "Vas-Jux-Flam" (or spaces, commas) into Words; each at most once, Des and Vas not together."""
    if not text or not text.strip():
        raise RuleError(f"Name the spell's Words, like `Vas-Jux-Flam`. The Words are: {book.word_list()}.")
    if len(text) > MAX_WORD_TEXT:
        raise RuleError(f"The Words are at most {MAX_WORD_TEXT} characters.")
    tokens = [t for t in re.split(r"[\s,\-–—+/·.]+", text.strip()) if t]
    if not tokens:
        raise RuleError(f"Name the spell's Words, like `Vas-Jux-Flam`. The Words are: {book.word_list()}.")
    words = [book.word(token) for token in tokens]
    names = [w.name for w in words]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RuleError(f"Each Word appears once in a spell; {', '.join(repeated)} is repeated.")
    factors = [w for w in words if w.time_factor is not None]
    if len(factors) > 1:
        raise RuleError(f"{' and '.join(w.name for w in factors)} contradict each other; use one of them.")
    if all(w.category == "modifier" for w in words):
        raise RuleError("A spell needs at least one noun or verb besides its modifiers (Nor, Des, Vas).")
    return words


def spell_words(spell: SpellDef, book: RunicBook) -> list[Word]:
    return [book.word(name) for name in spell.words]


def define_spell(
    book: RunicBook,
    *,
    name: str,
    words: str,
    type: SpellType = "regular",
    resisted: ResistTrait | None = None,
    parameters: str | None = None,
    concentration: bool = False,
    inscription: bool = False,
    effect: str = "",
) -> SpellDef:
    """A checked spell definition; every Parameter must already be readable."""
    clean = " ".join(name.split())
    if not clean or len(clean) > 60:
        raise RuleError("A spell name is 1 to 60 characters.")
    parsed = parse_words(words, book)
    lines = parse_parameters(parameters, book)
    if len(effect) > 500:
        raise RuleError("Describe the effect in at most 500 characters.")
    spell = SpellDef(
        name=clean,
        words=[w.name for w in parsed],
        type=type,
        resisted=resisted,
        parameters=[line.text for line in lines],
        concentration=concentration,
        inscription=inscription,
        effect=effect.strip(),
    )
    check_type(spell, lines)
    return spell


def check_type(spell: SpellDef, lines: list[ParameterLine]) -> None:
    """Parameters the spell's type cannot take (Subject Weight: not for Melee and Missile spells)."""
    kinds = {line.kind for line in lines}
    if spell.type in ("melee", "missile") and kinds & {"weight", "creation"}:
        raise RuleError(f"{spell.type.title()} spells do not use the Subject Weight chart; drop weight/creation.")


def plan_spell(spell: SpellDef, book: RunicBook, settings: RunicSettings, *, overrides: str | None = None) -> SpellPlan:
    """Energy and casting time, line by line; ``overrides`` are Parameters given at casting time."""
    words = spell_words(spell, book)
    lines = parse_parameters("; ".join(spell.parameters), book, overrides=overrides)
    check_type(spell, lines)

    base = [w for w in words if w.time_factor is None]
    factors = [w for w in words if w.time_factor is not None]
    energy_lines = [
        EnergyLine(
            label="Words",
            energy=sum(w.cost for w in base),
            detail=" + ".join(f"{w.name} {w.cost}" for w in base),
        )
    ]
    energy_lines += [EnergyLine(label=f"{w.name} ({w.meaning})", energy=w.cost) for w in factors]
    energy_lines += [EnergyLine(label=line.text, energy=line.energy, detail=line.detail) for line in lines]
    if spell.type in ("melee", "missile"):
        energy_lines.append(
            EnergyLine(label=f"{spell.type.title()} spell", energy=book.parameters.spell_type.melee_missile_energy)
        )
    raw = sum(line.energy for line in energy_lines)
    minimum = book.casting.modifiers.minimum_energy

    def word_time(word: Word) -> int:
        return settings.word_times.get(word.name, word.time or 0)

    summed = sum(word_time(w) for w in base)
    shown = " + ".join(f"{w.name} {word_time(w)}" + ("*" if w.name in settings.word_times else "") for w in base)
    time_lines = [f"Words: {shown} = {summed}"]
    if any(w.name in settings.word_times for w in base):
        time_lines.append("*house rule time, not the Word table's (ruling 6)")
    exact = float(summed)
    for word in factors:
        exact *= word.time_factor or 1
        time_lines.append(f"{word.name}: {word.time_text} = {exact:g}")
    rounded = max(MIN_CASTING_TIME, math.ceil(exact))
    if rounded != exact:
        time_lines.append(f"rounded up to {rounded}")

    duration = next((line for line in lines if line.duration_seconds), None)
    persistence = next((line for line in lines if line.persistence_seconds), None)
    kept = duration or persistence
    divisor = book.parameters.duration.maintenance_divisor
    range_line = next((line for line in lines if line.range_mode), None)
    return SpellPlan(
        words=[w.name for w in words],
        energy_lines=energy_lines,
        parameters=lines,
        raw_energy=raw,
        energy=max(minimum, raw),
        time_lines=time_lines,
        base_time=exact,
        time=rounded,
        skill_from_parameters=sum(line.skill for line in lines),
        maintenance=math.ceil(kept.energy / divisor) if kept else None,
        interval=(kept.detail.removeprefix("up to ") if kept else None),
        range_mode=range_line.range_mode if range_line else None,
        max_range_yards=range_line.max_range_yards if range_line else None,
        area=any(line.area for line in lines),
        damage_dice=next((line.damage_dice for line in lines if line.damage_dice), None),
        damage_type=next((line.damage_type for line in lines if line.damage_type), None),
    )


def inline_spell(words: str, book: RunicBook, *, type: SpellType = "regular") -> SpellDef:
    """A spell improvised on the spot from Words alone (named after them)."""
    parsed = parse_words(words, book)
    return SpellDef(name="-".join(w.name for w in parsed), words=[w.name for w in parsed], type=type)
