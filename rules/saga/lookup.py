"""Every rule, table row, icon, glossary term and card type of the book for `/lookup`."""

from __future__ import annotations

from collections.abc import Iterator

from rules.base import LookupEntry
from rules.saga.book import SagaBook


def entries(book: SagaBook) -> Iterator[LookupEntry]:
    def entry(category: str, key: str, title: str, body: str, aliases: list[str] | None = None) -> LookupEntry:
        return LookupEntry(ruleset="saga", category=category, key=key, title=title, body=body, aliases=aliases or [])

    for rule in book.rules.rule:
        yield entry("rule", rule.key, rule.title, rule.body)
    for step in book.turn.step:
        yield entry(
            "step",
            str(step.number),
            f"Mandatory step {step.number}: {step.name}",
            f"{step.text}\nIn Magister: {step.command}",
        )
    for step in book.turn.battle_step:
        yield entry("battle step", str(step.number), f"Battle step {step.number}: {step.name}", step.text)
    rows = "\n".join(f"| {r.glyphs} | {r.luck} luck | {r.opportunity} |" for r in book.luck.row)
    yield entry(
        "table",
        "luck",
        "Luck table (RULINGS 18)",
        "| kismet cards | luck | opportunity |\n|---|---|---|\n"
        + rows
        + "\n\nGlyphs: "
        + ", ".join(book.luck.glyphs)
        + ".",
        ["luck table", "glyphs"],
    )
    for glyph in book.luck.glyphs:
        yield entry(
            "glyph", glyph, f"Luck glyph: {glyph}", f"One of the (5) luck glyphs: {', '.join(book.luck.glyphs)}."
        )
    cycle = " → ".join(c.upper() for c in book.harmonics.cycle)
    examples = "\n".join(
        f"| {', '.join(c.upper() for c in e.colors)} | {e.expected.upper()} |" for e in book.harmonics.example
    )
    yield entry(
        "table",
        "harmonic cycle",
        "The harmonic cycle (RULINGS 19)",
        f"{cycle} → {book.harmonics.cycle[0].upper()}\n\n| colors | order |\n|---|---|\n{examples}",
        ["harmonics"],
    )
    for color in book.harmonics.cycle:
        yield entry("harmonic", color, f"Harmonic: {color}", f"Letter {book.harmonics.letters[color]}. Cycle: {cycle}.")
    for icon in book.icons.icon:
        yield entry("icon", icon.name, f"Icon: {icon.name}", f"{icon.meaning} ({icon.group})")
    yield from book.glossary.lookup_entries("saga")
    for kind in book.card_types.type:
        yield entry("card type", kind.name, f"Card type: {kind.name}", f"{kind.text}\nWhere it goes: {kind.goes}.")
