"""Spell Parameters: "damage: 3d burning; duration: 10 minutes" into energy, line by line.

A slash command can only hand over a string, so the Parameters arrive as
``kind: value`` items separated by semicolons. Each kind reads its own table in
the book; anything it cannot read is a RuleError that says what would work.
"""

import math
import re
from collections.abc import Callable, Iterator
from typing import Literal

from rules.base import Model, RuleError
from rules.runic.book import Extend, ParameterTables, RunicBook
from rules.runic.rolls import DiceSpec

RangeMode = Literal["per_yard", "melee", "speed_range", "long_distance", "table"]
MAX_ITEMS = 20
MAX_ENERGY = 10_000  # far past anything the tables can mean; stops runaway table extension
MAX_TEXT = 1000
MAX_DAMAGE_DICE = 100

SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86_400, "week": 604_800, "month": 2_592_000}
SECONDS["year"] = 365 * SECONDS["day"]
_TIME_UNITS = {
    "s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second",
    "m": "minute", "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute",
    "h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour",
    "d": "day", "day": "day", "days": "day",
    "w": "week", "wk": "week", "wks": "week", "week": "week", "weeks": "week",
    "mo": "month", "month": "month", "months": "month",
    "y": "year", "yr": "year", "yrs": "year", "year": "year", "years": "year",
}  # fmt: skip
_YARDS = {"yd": 1, "yds": 1, "yard": 1, "yards": 1, "ft": 1 / 3, "foot": 1 / 3, "feet": 1 / 3}
_YARDS |= {"mi": 1760, "mile": 1760, "miles": 1760}
_POUNDS = {"lb": 1, "lbs": 1, "pound": 1, "pounds": 1, "oz": 1 / 16, "ounce": 1 / 16, "ounces": 1 / 16}
_POUNDS |= {"ton": 2000, "tons": 2000}
_DAMAGE_ABBREVIATIONS = {
    "pi-": "small piercing", "pi": "piercing", "pi+": "large piercing", "pi++": "huge piercing",
    "cr": "crushing", "cut": "cutting", "imp": "impaling", "burn": "burning", "tox": "toxic",
    "cor": "corrosion", "fat": "fatigue",
}  # fmt: skip
_QUANTITY = re.compile(r"^([+-]?\d[\d,]*(?:\.\d+)?)\s*([a-z/]*)$")


class ParameterLine(Model):
    """One Parameter as worked out: its energy, any skill modifier, and what it leaves for later steps."""

    kind: str
    text: str  # canonical "kind: value", what the spell stores
    energy: int
    skill: int = 0
    detail: str  # how the energy was found, for the breakdown
    duration_seconds: int | None = None
    persistence_seconds: int | None = None
    range_mode: RangeMode | None = None
    max_range_yards: float | None = None
    area: bool = False
    damage_dice: str | None = None  # GURPS notation, rolled when the spell lands ("3d-1")
    damage_type: str | None = None


# ---------------------------------------------------------------- small readers


def _number(text: str, what: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise RuleError(f"{what}: {text!r} is not a number.") from None


def _quantity(value: str, units: dict[str, float], what: str, example: str) -> tuple[float, str]:
    """A number with a unit, e.g. "1,000 yd"; returns the amount in base units and the unit as typed."""
    match = _QUANTITY.match(value.strip().casefold())
    if not match or match.group(2) not in units:
        known = ", ".join(sorted({u for u in units if len(u) > 2}))
        raise RuleError(f"{what}: {value!r} needs a number and a unit ({known}), like {example!r}.")
    amount = _number(match.group(1), what)
    if amount <= 0:
        raise RuleError(f"{what}: {value!r} must be more than zero.")
    return amount * units[match.group(2)], match.group(2)


def _seconds(value: str, what: str, example: str) -> float:
    units = {name: float(SECONDS[unit]) for name, unit in _TIME_UNITS.items()}
    return _quantity(value, units, what, example)[0]


def _whole(value: str, what: str, *, low: int = 0, high: int = MAX_ENERGY, signed: bool = False) -> int:
    text = value.strip().replace(",", "")
    if not re.fullmatch(r"[+-]?\d+", text):
        raise RuleError(f"{what}: {value!r} is not a whole number.")
    number = int(text)
    if not signed and text.startswith("-"):
        raise RuleError(f"{what}: {number} cannot be negative; use {low} to {high}.")
    if not low <= number <= high:
        raise RuleError(f"{what}: {number} is out of range; use {low} to {high}.")
    return number


def _percent(value: str, what: str) -> int:
    text = value.strip().removesuffix("%").strip()
    return _whole(text, f"{what} (a percentage like +50%)", low=-1000, high=10_000, signed=True)


def _ceil(value: float) -> int:
    return math.ceil(value - 1e-9)


def _table_energy(
    wanted: float,
    rows: list[tuple[int, float]],
    extend: Callable[[list[tuple[int, float]]], tuple[int, float]],
    what: str,
) -> tuple[int, float]:
    """The cheapest row that reaches ``wanted``, continuing the table past its end as it says."""
    rows = list(rows)
    for energy, amount in rows:
        if amount + 1e-9 >= wanted:
            return energy, amount
    while True:
        energy, amount = extend(rows)
        if energy > MAX_ENERGY:
            raise RuleError(f"{what}: that is far beyond the table; ask the GM for a custom energy instead.")
        rows.append((energy, amount))
        if amount + 1e-9 >= wanted:
            return energy, amount


def _times(extend: Extend) -> Callable[[list[tuple[int, float]]], tuple[int, float]]:
    return lambda rows: (rows[-1][0] + 1, rows[-extend.rows][1] * extend.factor)


def _additive_energy(wanted: float, rows: list[tuple[int, float]], step: float, what: str) -> tuple[int, float]:
    """A table continued by adding ``step`` per energy ("+1 Day"): past its end, arithmetic rather than a loop."""
    last_energy, last = rows[-1]
    if wanted <= last + 1e-9:
        return next((energy, amount) for energy, amount in rows if amount + 1e-9 >= wanted)
    steps = _ceil((wanted - last) / step)
    if last_energy + steps > MAX_ENERGY:
        raise RuleError(f"{what}: that is far beyond the table; ask the GM for a custom energy instead.")
    return last_energy + steps, last + steps * step


def _fmt(amount: float) -> str:
    return f"{amount:,.2f}".rstrip("0").rstrip(".")


def _time_text(seconds: float) -> str:
    for unit in ("year", "week", "day", "hour", "minute", "second"):
        size = SECONDS[unit]
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{_fmt(seconds)} seconds"


# ---------------------------------------------------------------- one reader per kind


def _affliction(value: str, p: ParameterTables) -> ParameterLine:
    if value.strip().casefold() == "stun":
        return ParameterLine(
            kind="affliction", text="affliction: stun", energy=p.afflictions.stun_energy, detail="stun"
        )
    percent = _percent(value, "affliction")
    if percent <= 0:
        raise RuleError("affliction: give the enhancement's worth, like +150% (sleep), or `stun`.")
    energy = _ceil(percent / p.afflictions.percent_per_energy)
    detail = f"+{percent}% ÷ {p.afflictions.percent_per_energy}% per energy, rounded up"
    return ParameterLine(kind="affliction", text=f"affliction: +{percent}%", energy=energy, detail=detail)


def _traits(value: str, p: ParameterTables) -> ParameterLine:
    parts = re.findall(r"[+-]?\s*\d[\d,]*", value)
    if not parts or re.sub(r"[+-]?\s*\d[\d,]*|\s|,", "", value):
        raise RuleError("traits: give the character points added (+) or removed (-), like +20 or `+5 -10`.")
    points = [_whole(part.replace(" ", ""), "traits", low=-10_000, high=10_000, signed=True) for part in parts]
    net = sum(points)
    t = p.altered_traits
    if net >= 0:
        energy, detail = (
            net // t.points_added_per_energy,
            f"net {net:+d} points, +1 per full {t.points_added_per_energy} added",
        )
    else:
        energy, detail = (
            -net // t.points_removed_per_energy,
            f"net {net:+d} points, +1 per full {t.points_removed_per_energy} removed",
        )
    text = "traits: " + " ".join(f"{n:+d}" for n in points)
    return ParameterLine(kind="traits", text=text, energy=energy, detail=detail)


def _area(value: str, p: ParameterTables) -> ParameterLine:
    words = value.strip().casefold().split()
    shape = "radius"
    if words and words[0] in ("radius", "cone", "wall", "shaped"):
        shape = words.pop(0)
        if shape == "shaped":
            if not words or words.pop(0) != "wall":
                raise RuleError("area: write `shaped wall 30` for a wall of any shape.")
            shape = "shaped wall"
    amount_text = " ".join(words)
    if re.fullmatch(r"[\d,.]+", amount_text):
        amount_text += " yd"
    a = p.area
    if shape in ("wall", "shaped wall"):
        amount_text = amount_text.replace("sq yd", "yd").replace("square yards", "yd")
        square_yards, _ = _quantity(amount_text, {"yd": 1, "yds": 1, "yards": 1}, "area", "wall 30 sq yd")
        energy = _ceil(square_yards / a.wall_square_yards_per_energy)
        detail = f"{_fmt(square_yards)} sq yd ÷ {a.wall_square_yards_per_energy}, rounded up"
        if shape == "shaped wall":
            energy *= a.arbitrary_shape_multiplier
            detail += f", ×{a.arbitrary_shape_multiplier} for any shape"
        text = f"area: {shape} {_fmt(square_yards)} sq yd"
    else:
        yards, _ = _quantity(amount_text, _YARDS, "area", "radius 5 yd")
        per = a.radius_yards_per_energy if shape == "radius" else a.cone_width_yards_per_energy
        energy = _ceil(yards / per)
        detail = f"{shape} {_fmt(yards)} yd" + (", rounded up" if energy != yards else "")
        text = f"area: {shape} {_fmt(yards)} yd"
    return ParameterLine(kind="area", text=text, energy=energy, detail=detail, area=True)


def _bonus(value: str, p: ParameterTables, kind: str) -> ParameterLine:
    match = re.fullmatch(r"([+-]?\d+)\s*(broad|moderate|single)", value.strip().casefold())
    if not match:
        raise RuleError(f"{kind}: write the modifier and its scope, like `+2 moderate` (broad, moderate or single).")
    modifier, scope = int(match.group(1)), match.group(2)
    if modifier == 0 or abs(modifier) > 50:
        raise RuleError(f"{kind}: the modifier is from 1 to 50 (either sign); got {modifier}.")
    rows = [(row.modifier, float(getattr(row, scope))) for row in p.bonus.rows]
    energy = rows[abs(modifier) - 1][1] if abs(modifier) <= len(rows) else None
    if energy is None:
        energy = rows[-1][1] * p.bonus.factor ** (abs(modifier) - len(rows))
    detail = f"±{abs(modifier)}, {scope}" + (
        "" if abs(modifier) <= len(rows) else f" (×{p.bonus.factor} per step past ±5)"
    )
    return ParameterLine(kind=kind, text=f"{kind}: {modifier:+d} {scope}", energy=int(energy), detail=detail)


def damage_progression(p: ParameterTables, column: str) -> Iterator[tuple[int, DiceSpec]]:
    """A damage column by energy: the printed rows, then on by the last printed row ("+1 +1d +2 +1").

    Adds roll over into a die as the table's own rows do (``adds_per_die``). Stops past 100 dice.
    """
    rows = [(row.energy, DiceSpec.parse(getattr(row, column))) for row in p.damage.rows]
    yield from rows
    energy, last = rows[-1]
    step = getattr(p.damage.continuation, column)
    per_die = p.damage.continuation.adds_per_die[column]
    while last.count <= MAX_DAMAGE_DICE:
        if step.endswith("d"):
            last = DiceSpec(count=last.count + int(step[1:-1] or 1), adds=last.adds)
        else:
            count, adds = last.count, last.adds + int(step)
            if per_die and adds >= per_die - 1:
                count, adds = count + 1, adds - per_die
            last = DiceSpec(count=count, adds=adds)
        energy += p.damage.continuation.energy
        yield energy, last


def _damage(value: str, p: ParameterTables) -> ParameterLine:
    words = value.strip().casefold().split()
    if not words:
        raise RuleError("damage: write dice, column and type, like `3d burning` or `2d+2 explosive crushing`.")
    wanted = DiceSpec.parse(words.pop(0))
    column = "standard"
    if words and words[0] in ("standard", "explosive", "malediction"):
        column = words.pop(0)
    type_name = " ".join(words)
    type_name = _DAMAGE_ABBREVIATIONS.get(type_name, type_name)
    multipliers = {name.casefold(): row.multiplier for row in p.damage.types for name in row.types}
    if type_name not in multipliers:
        names = ", ".join(name for row in p.damage.types for name in row.types)
        raise RuleError(f"damage: name the damage type ({names}); got {type_name or 'nothing'!r}.")
    if not 1 <= wanted.count <= MAX_DAMAGE_DICE:
        raise RuleError(f"damage: from 1 to {MAX_DAMAGE_DICE} dice.")
    target = wanted.count * 3.5 + wanted.adds
    progression = damage_progression(p, column)
    reached = next(((e, d) for e, d in progression if d.count * 3.5 + d.adds >= target - 1e-9), None)
    if reached is None:  # dice within the limit, but adds beyond what the table's last step reaches
        raise RuleError(
            f"damage: {wanted.text} is more than the damage table reaches ({MAX_DAMAGE_DICE}d); use fewer adds."
        )
    base, dice = reached
    multiplier = multipliers[type_name]
    energy = _ceil(base * multiplier)
    exact = dice.text == wanted.text
    detail = f"{dice.text} {column} is +{base}" + ("" if exact else f" (no {wanted.text} on the table; next step up)")
    if multiplier != 1:
        detail += f", ×{multiplier:g} for {type_name}, rounded up"
    return ParameterLine(
        kind="damage", text=f"damage: {wanted.text} {column} {type_name}", energy=energy, detail=detail,
        damage_dice=wanted.text, damage_type=type_name if column == "standard" else f"{column} {type_name}",
    )  # fmt: skip


def _duration(value: str, p: ParameterTables, kind: Literal["duration", "persistence"]) -> ParameterLine:
    table = p.duration
    none_word = "momentary" if kind == "duration" else "none"
    if value.strip().casefold() in ("momentary", "none", "0"):
        return ParameterLine(kind=kind, text=f"{kind}: {none_word}", energy=0, detail=none_word)
    seconds = _seconds(value, kind, "10 minutes")
    rows = [(r.energy, float(getattr(r, f"{kind}_seconds"))) for r in table.rows]
    step = float(getattr(table.continuation, f"{kind}_seconds"))
    energy, reached = _additive_energy(seconds, rows, step, kind)
    detail = f"up to {_time_text(reached)}"
    line = ParameterLine(kind=kind, text=f"{kind}: {_time_text(seconds)}", energy=energy, detail=detail)
    if kind == "duration":
        line.duration_seconds = int(reached)
        if reached > table.pc_limit_seconds:
            line.detail += " (over 1 day: the book says PCs generally shouldn't get this)"
    else:
        line.persistence_seconds = int(reached)
    return line


def _condition(value: str, p: ParameterTables) -> ParameterLine:
    match = re.fullmatch(r"\+?(\d+)\s*(.*)", value.strip())
    if not match:
        raise RuleError("condition: give the energy the GM set from the guidelines, like `+9 until sunrise`.")
    energy = _whole(match.group(1), "condition")
    band = next((r for r in p.conditional.rows if r.low <= energy <= r.high), None)
    guide = f"guideline {band.energy}: {band.condition}" if band else "between the guideline bands"
    label = match.group(2).strip()
    text = f"condition: +{energy}" + (f" {label}" if label else "")
    return ParameterLine(kind="condition", text=text, energy=energy, detail=guide)


def _modifier(value: str, p: ParameterTables) -> ParameterLine:
    key = value.strip().casefold()
    for example in p.modifiers.examples:
        if key == example.key:
            return ParameterLine(
                kind="modifier", text=f"modifier: {example.key}", energy=example.energy, detail=example.text
            )
    if "%" not in key:
        named = ", ".join(e.key for e in p.modifiers.examples)
        raise RuleError(f"modifier: give a percentage like +50% or -25%, or one of the book's examples: {named}.")
    percent = _percent(value, "modifier")
    energy = _ceil(percent / p.modifiers.percent_per_energy)
    detail = f"{percent:+d}% ÷ {p.modifiers.percent_per_energy}% per energy, rounded up"
    return ParameterLine(kind="modifier", text=f"modifier: {percent:+d}%", energy=energy, detail=detail)


def _targets(value: str, p: ParameterTables) -> ParameterLine:
    words = value.strip().casefold().split()
    t = p.multiple_targets
    broad = bool(words) and words[-1] == "broad"
    count = _whole(words[0] if words else "", "targets", low=1, high=1_000_000)
    if len(words) != 1 + broad:
        raise RuleError("targets: write a number, like `targets: 3`, or `targets: 1024 broad` for broad spells.")
    if broad:
        doublings = max(0, math.ceil(math.log2(count) - 1e-9))
        return ParameterLine(
            kind="targets",
            text=f"targets: {count} broad",
            energy=doublings * t.energy_per_doubling,
            skill=doublings * t.skill_per_doubling,
            detail=f"{doublings} doubling(s) to reach {count:,}",
        )
    extra = count - 1
    return ParameterLine(
        kind="targets",
        text=f"targets: {count}",
        energy=extra * t.energy_per_target,
        skill=extra * t.skill_per_target,
        detail=f"{extra} target(s) after the first",
    )


def _exclude(value: str, p: ParameterTables) -> ParameterLine:
    count = _whole(value, "exclude", low=1, high=10_000)
    energy = count * p.multiple_targets.energy_per_excluded
    return ParameterLine(kind="exclude", text=f"exclude: {count}", energy=energy, detail=f"{count} spared in the area")


def _range_table(yards: float, p: ParameterTables, what: str) -> tuple[int, float]:
    rows = [(r.energy, float(r.yards)) for r in p.range.rows]
    return _table_energy(yards, rows, _times(p.range.extend), what)


def _range(value: str, p: ParameterTables) -> ParameterLine:
    key = value.strip().casefold().replace(" ", "")
    r = p.range
    # (mode, energy, the canonical value the spell stores, how the energy was found); every key reads back
    modes: dict[str, tuple[RangeMode, int, str, str]] = {
        "melee": ("melee", r.melee_energy, "melee", "melee"),
        "peryard": ("per_yard", r.per_yard_energy, "per yard", "-1 per yard"),
        "-1peryard": ("per_yard", r.per_yard_energy, "per yard", "-1 per yard"),
        "-1/yd": ("per_yard", r.per_yard_energy, "per yard", "-1 per yard"),
        "speed/range": ("speed_range", r.speed_range_energy, "speed/range", "Speed/Range table penalties"),
        "long-distance": ("long_distance", r.long_distance_energy, "long-distance", "long-distance modifiers"),
        "longdistance": ("long_distance", r.long_distance_energy, "long-distance", "long-distance modifiers"),
    }
    if key in modes:
        mode, energy, value_text, label = modes[key]
        return ParameterLine(kind="range", text=f"range: {value_text}", energy=energy, detail=label, range_mode=mode)
    yards, _ = _quantity(value, _YARDS, "range", "100 yd")
    energy, reached = _range_table(yards, p, "range")
    return ParameterLine(
        kind="range",
        text=f"range: {_fmt(yards)} yd",
        energy=energy,
        detail=f"no range penalty, up to {_fmt(reached)} yd",
        range_mode="table",
        max_range_yards=reached,
    )


def _time_range(value: str, p: ParameterTables) -> ParameterLine:
    hours = _seconds(value, "time", "3 days") / 3600
    rows = [(r.energy, float(r.hours)) for r in p.range_in_time.rows]
    energy, reached = _table_energy(hours, rows, _times(p.range_in_time.extend), "time")
    detail = f"up to {_time_text(reached * 3600)}"
    return ParameterLine(kind="time", text=f"time: {_time_text(hours * 3600)}", energy=energy, detail=detail)


def _dimensions(value: str, p: ParameterTables) -> ParameterLine:
    words = value.strip().casefold().split()
    weak = bool(words) and words[-1] == "weak"
    if len(words) != 1 + weak:
        raise RuleError("dimensions: write how many barriers, like `1`, or `1 weak` in a dimensionally weak place.")
    count = _whole(words[0], "dimensions", low=1, high=100)
    e = p.extradimensional
    per = e.weak_energy_per_dimension if weak else e.energy_per_dimension
    text = f"dimensions: {count}" + (" weak" if weak else "")
    return ParameterLine(kind="dimensions", text=text, energy=count * per, detail=f"{count} × {per}")


def _speed(value: str, p: ParameterTables) -> ParameterLine:
    text = value.strip().casefold().replace("/sec", "").replace("/s", "").replace("per second", "").strip()
    yards, _ = _quantity(text, _YARDS, "speed", "20 yd/s")
    energy, reached = _range_table(yards, p, "speed")
    detail = f"Range table read as yards/second: up to {_fmt(reached)} yd/s"
    return ParameterLine(kind="speed", text=f"speed: {_fmt(yards)} yd/s", energy=energy, detail=detail)


def _weight(value: str, p: ParameterTables, kind: Literal["weight", "creation"]) -> ParameterLine:
    pounds, _ = _quantity(value, _POUNDS, kind, "1,000 lbs" if kind == "weight" else "10 lbs")
    column = "pounds" if kind == "weight" else "creation_pounds"
    rows = [(r.energy, float(getattr(r, column))) for r in p.subject_weight.rows]
    energy, reached = _table_energy(pounds, rows, _times(p.subject_weight.extend), kind)
    detail = f"up to {_fmt(reached)} lbs"
    return ParameterLine(kind=kind, text=f"{kind}: {_fmt(pounds)} lbs", energy=energy, detail=detail)


def _extra(value: str, p: ParameterTables) -> ParameterLine:
    match = re.fullmatch(r"([+-]?\d+)\s*(.*)", value.strip())
    if not match:
        raise RuleError("extra: a GM-approved energy, like `+3 glows`.")
    energy = _whole(match.group(1), "extra", low=-MAX_ENERGY, high=MAX_ENERGY, signed=True)
    label = match.group(2).strip()
    text = f"extra: {energy:+d}" + (f" {label}" if label else "")
    return ParameterLine(kind="extra", text=text, energy=energy, detail=label or "GM-approved energy")


READERS: dict[str, Callable[[str, ParameterTables], ParameterLine]] = {
    "affliction": _affliction,
    "traits": _traits,
    "area": _area,
    "bonus": lambda v, p: _bonus(v, p, "bonus"),
    "penalty": lambda v, p: _bonus(v, p, "penalty"),
    "damage": _damage,
    "duration": lambda v, p: _duration(v, p, "duration"),
    "persistence": lambda v, p: _duration(v, p, "persistence"),
    "condition": _condition,
    "modifier": _modifier,
    "targets": _targets,
    "exclude": _exclude,
    "range": _range,
    "time": _time_range,
    "dimensions": _dimensions,
    "speed": _speed,
    "weight": lambda v, p: _weight(v, p, "weight"),
    "creation": lambda v, p: _weight(v, p, "creation"),
    "extra": _extra,
}
ALIASES = {
    "afflictions": "affliction", "altered traits": "traits", "trait": "traits", "aoe": "area",
    "persistance": "persistence", "conditional": "condition", "modifiers": "modifier", "target": "targets",
    "range in time": "time", "extradimensional": "dimensions", "dimension": "dimensions",
    "subject weight": "weight", "meta-magic": "metamagic", "meta magic": "metamagic",
}  # fmt: skip
REPEATABLE = {"modifier", "extra"}
SYNTAX = (
    "Write Parameters as `kind: value` separated by `;`, e.g. `damage: 3d burning; range: 20 yd; duration: 1 minute`. "
    f"Kinds: {', '.join(READERS)}."
)


def parse_items(text: str | None) -> list[tuple[str, str]]:
    """Split a Parameters string into (kind, value) pairs, checking the kinds only."""
    if text is None or not text.strip():
        return []
    if len(text) > MAX_TEXT:
        raise RuleError(f"Parameters are at most {MAX_TEXT} characters.")
    items = [item.strip() for item in re.split(r"[;\n]", text) if item.strip()]
    if len(items) > MAX_ITEMS:
        raise RuleError(f"At most {MAX_ITEMS} Parameters in one spell.")
    pairs = []
    for item in items:
        match = re.fullmatch(r"([a-zA-Z][a-zA-Z -]*?)\s*[:=]\s*(.+)", item)
        if not match:
            raise RuleError(f"{item!r} is not a Parameter. {SYNTAX}")
        kind = " ".join(match.group(1).casefold().split())
        kind = ALIASES.get(kind, kind)
        if kind == "metamagic":
            raise RuleError(
                "Meta-magic is a Quick Contest of spell skills: define the spell as resisted by `spell`, and "
                "buy skill with energy when casting (2 energy per +1)."
            )
        if kind not in READERS:
            raise RuleError(f"{match.group(1).strip()!r} is not a Parameter kind. {SYNTAX}")
        pairs.append((kind, match.group(2).strip()))
    return pairs


def parse_parameters(text: str | None, book: RunicBook, *, overrides: str | None = None) -> list[ParameterLine]:
    """Work out each Parameter; ``overrides`` (given when casting) replace the spell's own of the same kind."""
    pairs = parse_items(text)
    extra = parse_items(overrides)
    replaced = {kind for kind, _ in extra if kind not in REPEATABLE}
    pairs = [(k, v) for k, v in pairs if k not in replaced] + extra
    seen: set[str] = set()
    lines = []
    for kind, value in pairs:
        if kind in seen and kind not in REPEATABLE:
            raise RuleError(f"The Parameter {kind!r} is given twice; give it once.")
        seen.add(kind)
        lines.append(READERS[kind](value, book.parameters))
    if "persistence" in seen and "area" not in seen:
        raise RuleError("A spell with persistence must have an area as well (the book's Duration rule).")
    return lines
