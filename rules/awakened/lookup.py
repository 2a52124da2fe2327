"""``/lookup`` entries: every rule, table and Arcanum benefit of the awakened book, from the data the rules read."""

from __future__ import annotations

from collections.abc import Iterator

from rules.awakened.book import AwakenedBook
from rules.base import LookupEntry

RULESET = "awakened"


def _entry(category: str, key: str, title: str, body: str, aliases: list[str] | None = None) -> LookupEntry:
    return LookupEntry(ruleset=RULESET, category=category, key=key, title=title, body=body, aliases=aliases or [])


def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows])


def entries(book: AwakenedBook) -> Iterator[LookupEntry]:
    for rule in book.rules.rule:
        body = f"{rule.body}\n\n**Magister:** `{rule.command}`."  # rule.mechanic: the spec's number, for developers
        yield _entry("rule", rule.key, rule.title, body, [rule.mechanic, *rule.aliases])
    for aspect in book.aspects.aspect:
        body = f"{aspect.text}\n\n" + _table(
            ["Potency", "Tenacity", "Boost", "Hindrance", "Shaping pool", "improvised", "ruling only", "rote"],
            [
                [
                    aspect.potency,
                    aspect.tenacity,
                    f"{aspect.boost_minimum} min, {aspect.boost_again}-again",
                    aspect.hindrance or "—",
                    f"{aspect.shaping_dice_per_gnosis}×Gnosis, {aspect.shaping_again}-again, rote"
                    if aspect.shaping_dice_per_gnosis
                    else "can't be Shaped",
                    aspect.cost_improvised,
                    aspect.cost_ruling_only,
                    aspect.cost_rote,
                ]
            ],
        )
        yield _entry("aspect", aspect.name, f"{aspect.name.title()} aspect", body, [f"{aspect.name} spell"])
    for action in book.aspects.action:
        yield _entry(
            "action", action.name, f"{action.name.title()} spells", f"{action.text}\n\nExamples: {action.examples}."
        )
    cost = book.aspects.shaping_cost
    yield _entry(
        "table",
        "shaping cost",
        "Shaping cost by familiarity",
        _table(
            ["rote", "improvised, ruling only", "improvised, common", "improvised, inferior"],
            [[cost.rote, cost.ruling, cost.common, cost.inferior]],
        ),
        ["shaping mana"],
    )
    factors = book.factors
    for name, row in (("area", factors.area), ("size", factors.size)):
        rows = [[i, text] for i, text in enumerate(row.rows)] + [["+1", row.continuation]]
        yield _entry("factor", name, f"{name.title()} factors", f"{row.text}\n\n" + _table(["factors", name], rows))
    precision = [[0, factors.precision.base]] + [["+1", f] for f in factors.precision.features]
    yield _entry(
        "factor",
        "precision",
        "Precision factors",
        f"{factors.precision.text}\n\n" + _table(["factors", "when"], precision),
    )
    yield _entry("factor", "targets", "Target factors", factors.targets.text)
    damage = [[0, factors.damage.base]] + [[f"+1 ({f.key})", f.text] for f in factors.damage.feature]
    yield _entry(
        "factor", "damage", "Damage factors", f"{factors.damage.text}\n\n" + _table(["factors", "effect"], damage)
    )
    sym = factors.sympathy
    rows = [[i, f"{lv}: {t}"] for i, (lv, t) in enumerate(zip(sym.levels, sym.level_text, strict=True))]
    rows += [["N/A", sym.unknown], ["", sym.fame], ["", sym.unnamed]]
    yield _entry(
        "factor",
        "sympathy",
        "Sympathy factors",
        f"{sym.text}\n\n" + _table(["factors", "level"], rows),
        ["sympathetic range"],
    )
    for row in book.arcana.conjunction:
        key = f"{row.arcanum} {row.dots}"
        yield _entry("conjunction", key, f"Conjunctional {row.arcanum} {'●' * row.dots}", row.text, [row.arcanum])
    tables = book.tables
    penalty = [[n, f"−{p}"] for n, p in enumerate(tables.soul_stone_penalty) if n]
    yield _entry(
        "table", "soul stone penalty", "Soul stones and maximum Mana", _table(["stones", "maximum Mana"], penalty)
    )
    ceiling = [[w, k] for w, k in reversed(list(enumerate(tables.wisdom_ceiling)))]
    yield _entry(
        "table",
        "wisdom ceiling",
        "Wisdom and paradox",
        "The most severe paradox a mage can inadvertently lengthen.\n\n" + _table(["Wisdom", "paradox"], ceiling),
        ["lengthen"],
    )
    yield _entry(
        "table",
        "sacrifice",
        "Blood sacrifice by size",
        _table(["size", "Mana", "creature"], [[s.size, s.mana, s.text] for s in tables.sacrifice]),
    )
    yield _entry(
        "table",
        "scrutiny schedule",
        "Scrutiny time increments",
        _table(["increment", "Edge", ""], [[s.increment, f"+{s.edge}", s.text] for s in tables.scrutiny]),
        ["edge"],
    )
    yield _entry(
        "table",
        "resonance",
        "Resonance by successes",
        _table(["successes", "level", "detects"], [[r.successes, r.level, r.text] for r in tables.resonance]),
    )
