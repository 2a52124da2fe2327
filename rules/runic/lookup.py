"""``/lookup`` entries: every Word, table row, Parameter table and rules section of the book.

Bodies are Markdown built from the same data the rules read, so what a player
looks up is what the bot plays.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.base import LookupEntry
from rules.runic.book import (
    Aging,
    Backlash,
    Companion,
    ConditionEffect,
    Disadvantage,
    Effect,
    Injury,
    LoseMagery,
    LosePoints,
    MPLoss,
    RecoverMP,
    RollTable,
    RunicBook,
    TableRow,
)

RULESET = "runic"


def _entry(category: str, key: str, title: str, body: str, aliases: list[str] | None = None) -> LookupEntry:
    return LookupEntry(ruleset=RULESET, category=category, key=key, title=title, body=body, aliases=aliases or [])


def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def describe_effect(effect: Effect, table: RollTable) -> str:
    """One applied effect in words, as the rules carry it out."""
    times = lambda e: f"×{e.multiply}" if getattr(e, "multiply", 1) != 1 else ""  # noqa: E731
    if isinstance(effect, RecoverMP):
        return f"free recovery of {effect.dice}{times(effect)} MP"
    if isinstance(effect, Injury):
        return f"{effect.dice}{times(effect)} injury" if effect.dice else f"{effect.points} point(s) of injury"
    if isinstance(effect, ConditionEffect):
        names = " and ".join(table.conditions[k].name for k in effect.conditions)
        length = f" for {effect.dice} {effect.unit}s" if effect.dice else " until the GM ends it"
        area = f", within {effect.area_dice} {effect.area_unit}s" if effect.area_dice else ""
        return f"{names}{length}{area}"
    if isinstance(effect, MPLoss):
        how = "permanently" if effect.permanent else "recovering 1 per day"
        return f"maximum MP −{effect.dice}, {how}" + (" (amount hidden from the player)" if effect.hidden else "")
    if isinstance(effect, Disadvantage):
        return f"a {effect.points}-point disadvantage (GM's choice); HT or Will roll: lasting, else permanent"
    if isinstance(effect, Aging):
        return f"aged {effect.dice} years"
    if isinstance(effect, LosePoints):
        return f"permanently loses {effect.dice}{times(effect)} points (GM's choice)"
    if isinstance(effect, LoseMagery):
        return "loses all Magery" if effect.levels is None else f"loses {effect.levels} Magery, can never raise it"
    if isinstance(effect, Companion):
        return "roll again with the same bonus against a random companion (another mage of the campaign)"
    if isinstance(effect, Backlash):
        return (
            f"HT{effect.modifier} roll: failed, (Will+Magery)d explosive burning, ignoring DR; "
            f"made, {effect.success_dice}"
        )
    return effect.kind  # pragma: no cover


def _row_body(row: TableRow, table: RollTable) -> str:
    effects = [describe_effect(e, table) for e in table.effects_of(row)]
    body = row.text
    if effects:
        body += "\n\n**Magister applies:** " + "; ".join(effects) + "."
    return body


def _row_aliases(category: str, row: TableRow) -> list[str]:
    high = row.high if row.high is not None else row.low
    return [f"{category} {n}" for n in range(row.low, high + 1)]


def entries(book: RunicBook) -> Iterator[LookupEntry]:
    skill = book.casting.skill
    for word in book.words.word:
        alts = f" ({', '.join(word.alternatives)})" if word.alternatives else ""
        body = _table(
            ["Word", "Letter", "Meaning", "Alternative meanings", "Difficulty", "Cost", "Time"],
            [[word.name, word.letter, word.meaning, ", ".join(word.alternatives) or "—", word.difficulty,
              word.cost, word.time_text]],
        )  # fmt: skip
        body += (
            f"\n\nA {word.category}. An IQ-based Word skill; it defaults to "
            f"Thaumatology{skill.default_from_thaumatology} or Symbol Drawing{skill.default_from_symbol_drawing}, "
            f"never above {skill.default_cap}."
        )
        aliases = [f"word {word.letter}", f"word {word.meaning}", *(f"word {a}" for a in word.alternatives)]
        yield _entry("word", word.name, f"{word.name} ({word.letter}): {word.meaning}{alts}", body, aliases)
    yield _entry(
        "table",
        "words",
        "The Words of Power",
        _table(
            ["Word", "Letter", "Meaning", "Alternatives", "Difficulty", "Cost", "Time"],
            [
                [w.name, w.letter, w.meaning, ", ".join(w.alternatives), w.difficulty, w.cost, w.time_text]
                for w in book.words.word
            ],
        ),
        ["words of power", "word list"],
    )
    for row in book.calamity.row:
        key = row.label.replace("–", "-")
        yield _entry(
            "calamity", key, f"Calamity {row.label}", _row_body(row, book.calamity), _row_aliases("calamity", row)
        )
    yield _entry("rule", "calamity-checks", "Calamity Checks", f"{book.calamity.when}\n\n{book.calamity.text}",
                 ["calamity check", "calamity"])  # fmt: skip
    for kind in book.calamity.condition + book.critical_failure.condition:
        yield _entry("condition", kind.key, kind.name, kind.effect, [f"condition {kind.name}"])
    for row in book.critical_failure.row:
        key = row.label.replace("–", "-")
        aliases = _row_aliases("critical failure", row) + _row_aliases("critical", row)
        yield _entry(
            "critical", key, f"Critical Spell Failure {row.label}", _row_body(row, book.critical_failure), aliases
        )
    yield from _parameter_entries(book)
    p = book.power_items
    yield _entry(
        "table", "power items", "Power Item Table",
        f"{p.text}\n\n" + _table(["Power (MP)", "Value"], [[r.power, f"C{r.value:,}"] for r in p.rows])
        + f"\n\n{p.table_note}\n\n{p.magic_items_text}",
        ["power item", "implement", "magic items"],
    )  # fmt: skip
    g = book.grimoires
    yield _entry(
        "table", "grimoire bonus", "Grimoire bonus costs",
        f"{g.text}\n\n{g.standard_text}\n\n"
        + _table(["Bonus", "Cost Multiplier"], [[f"+{r.bonus}", f"C{r.multiplier:,}"] for r in g.rows])
        + f"\n\n{g.inscribe_text}\n\n{g.esoteric_text}",
        ["grimoire", "grimoires", "scroll"],
    )  # fmt: skip
    learning = book.casting.learning
    levels = range(-2, 4)
    yield _entry(
        "table", "word points", "Word skill costs (GURPS B170)",
        "Points for a Word skill at a level relative to IQ (the book gives each Word's difficulty; the prices are "
        "GURPS's, ruling 1). `/runic mage points` checks a sheet.\n\n"
        + _table(["Difficulty", *(f"IQ{level:+d}" for level in levels)],
                 [[d, *(learning.points(d, level) or "—" for level in levels)] for d in ("Average", "Hard")])
        + f"\n\nEach level past the last: +{learning.step} points.",
        ["word points", "learning words", "skill cost", "points"],
    )  # fmt: skip
    lasting = book.casting.lasting
    yield _entry(
        "table", "lasting magic", "Lasting magic: limits and costs",
        _table(["What", "Number"], [
            ["Lasting spells a Runesmith may have at once", f"{lasting.lasting_per_magery} × Magery"],
            ["Permanent spell: material components", f"C{lasting.permanent_materials_per_energy} per energy"],
            ["Greater Sigil: price", f"C{lasting.greater_sigil_value_per_energy} per energy"],
            ["Greater Sigil made by a Runesmith", f"1/{lasting.runesmith_sigil_divisor} of the price"],
            *([f"Default trigger ({form})", words] for form, words in lasting.default_trigger.items()),
        ]) + "\n\n`/runic lasting inscribe`, `trigger`, `end`.",
        ["ward", "sigil", "trigger", "runesmith", "permanent spell", "enchantment"],
    )  # fmt: skip
    for section in book.rules.rule:
        yield _entry("rule", section.key, section.title, section.body, [f"rule {a}" for a in section.aliases])


def _parameter_entries(book: RunicBook) -> Iterator[LookupEntry]:
    p = book.parameters
    yield _entry("parameter", "afflictions", "Afflictions", p.afflictions.text, ["affliction"])
    yield _entry("parameter", "altered traits", "Altered Traits", p.altered_traits.text, ["traits"])
    yield _entry("parameter", "area", "Area of Effect", p.area.text, ["area of effect"])
    bonus_rows = [[f"±{r.modifier}", r.broad, r.moderate, r.single] for r in p.bonus.rows]
    bonus_rows.append(["etc.", f"x{p.bonus.factor}", f"x{p.bonus.factor}", f"x{p.bonus.factor}"])
    yield _entry("parameter", "bonus", "Bestows a Bonus or Penalty",
                 f"{p.bonus.text}\n\n" + _table(["Modifier", "Broad", "Moderate", "Single"], bonus_rows),
                 ["penalty", "bonus or penalty"])  # fmt: skip
    d = p.damage
    damage_rows = [[f"+{r.energy}", r.standard, r.explosive, r.malediction] for r in d.rows]
    c = d.continuation
    damage_rows.append([f"+{c.energy}", c.standard, c.explosive, c.malediction])
    types = _table(["Damage Type", "Multiplier"], [[", ".join(t.types), f"x{t.multiplier:g}"] for t in d.types])
    yield _entry("parameter", "damage", "Damage",
                 f"{d.text}\n\n" + _table(["Energy", "Standard", "Explosive", "Malediction"], damage_rows)
                 + f"\n\n{types}", ["damage type"])  # fmt: skip
    t = p.duration
    duration_rows = [[f"+{r.energy}", r.duration, r.persistence] for r in t.rows]
    duration_rows.append([f"+{t.continuation.energy}", t.continuation.duration, t.continuation.persistence])
    yield _entry("parameter", "duration", "Duration and Persistence",
                 f"{t.text}\n\n{t.maintenance_text}\n\n" + _table(["Energy", "Duration", "Persistance"], duration_rows),
                 ["persistence", "persistance"])  # fmt: skip
    yield _entry("parameter", "conditional", "Conditional Durations",
                 f"{p.conditional.text}\n\n"
                 + _table(["Energy", "Condition"], [[r.energy, r.condition] for r in p.conditional.rows]),
                 ["condition", "conditional duration"])  # fmt: skip
    yield _entry("parameter", "meta-magic", "Meta-Magic", p.meta_magic.text, ["metamagic", "dispel"])
    examples = "\n".join(f"- `{e.key}`: {e.text}" for e in p.modifiers.examples)
    yield _entry("parameter", "modifiers", "Modifiers", f"{p.modifiers.text}\n\n{examples}", ["modifier"])
    m = p.multiple_targets
    yield _entry("parameter", "multiple targets", "Multiple Targets", f"{m.text}\n\n{m.broad_text}", ["targets"])
    r = p.range
    range_rows = [[f"+{row.energy}", row.range] for row in r.rows] + [[r.continuation, ""]]
    yield _entry("parameter", "range", "Range",
                 f"{r.text}\n\n" + _table(["Energy", "Max Range"], range_rows), ["max range"])  # fmt: skip
    rt = p.range_in_time
    time_rows = [[f"+{row.energy}", row.range] for row in rt.rows] + [[rt.continuation, ""]]
    yield _entry("parameter", "range in time", "Range in Time",
                 f"{rt.text}\n\n" + _table(["Energy", "Range"], time_rows), ["time"])  # fmt: skip
    yield _entry("parameter", "extradimensional", "Extradimensional Range", p.extradimensional.text, ["dimensions"])
    yield _entry("parameter", "speed", "Speed", p.speed.text)
    yield _entry("parameter", "spell type", "Spell Type", p.spell_type.text)
    w = p.subject_weight
    weight_rows = [[f"+{row.energy}", row.weight, row.creation] for row in w.rows] + [[w.continuation, "", ""]]
    yield _entry("parameter", "subject weight", "Subject Weight and Creation",
                 f"{w.text}\n\n" + _table(["Energy", "Maximum Weight", "Maximum Creation"], weight_rows),
                 ["weight", "creation"])  # fmt: skip
    yield _entry("parameter", "parameters", "Parameters", p.intro, ["parameter"])
