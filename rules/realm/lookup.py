"""``/lookup`` entries: every rule section of the primer, its glossary, the color table, the named spells
and book, the melee rows, and the rulings Magister plays by. Built from the same data the rules read."""

from __future__ import annotations

from collections.abc import Iterator

from rules.base import LookupEntry
from rules.realm.book import DURATIONS, TARGET_TYPES, RealmBook

RULESET = "realm"


def _entry(category: str, key: str, title: str, body: str, aliases: list[str] | None = None) -> LookupEntry:
    return LookupEntry(ruleset=RULESET, category=category, key=key, title=title, body=body, aliases=aliases or [])


def entries(book: RealmBook) -> Iterator[LookupEntry]:
    for section in book.rules.rule:
        yield _entry(
            "rule",
            section.key,
            section.title,
            f"{section.body}\n\n*Magic Primer.*",  # section.lines: the seed's lines, for developers
            [f"rule {a}" for a in section.aliases] + section.aliases,
        )
    yield from book.glossary.lookup_entries(RULESET)
    c = book.colors
    chits = "\n".join(f"| {row.type} | {row.color} |" for row in c.chit)
    days = "\n".join(f"| {row.day} | {' and '.join(row.colors)} |" for row in c.day)
    yield _entry(
        "table",
        "colors",
        "The color table",
        f"| Magic chit type | Color |\n|---|---|\n{chits}\n\nOther types make no color.\n\n"
        # cites G-R12
        f"A month has {c.month_length} days. Day n is day ((n-1) mod {c.month_length})+1 of its month.\n\n"
        f"| Day of the month | Colors |\n|---|---|\n{days}\n\nEvery other day has no color. "
        "The GM may override the day's "
        "colors and a tile's or clearing's (`/realm day colors`, `/realm clearing set`, `/realm enchant tile:`)."
        f"\n\n*{c.source}.*",
        ["color table", "colors", "day colors", "chit colors", "white", "grey", "gold", "purple", "black"],
    )
    for spell in book.spells.spell:
        yield _entry(
            "spell",
            spell.name,
            spell.name,
            f"Duration: {spell.duration}. Type: {spell.type or 'not in the primer'}. Color: "
            f"{spell.color or 'not in the primer'}.\n\n{spell.text}",
            [f"spell {spell.name}"],
        )
    for item in book.spells.book:
        yield _entry("item", item.name, item.name, f"A type {item.type} {item.kind}.\n\n{item.text}", ["good book"])
    rows = "\n".join(f"| {r.attack} | {r.maneuver} |" for r in book.melee.row)
    yield _entry(
        "table",
        "melee",
        "Attack directions and maneuvers",
        # cites L63, G-R18
        f"An attack hits a maneuver in its row, or undercuts it when strictly faster; speed 0 "
        f"always hits.\n\n| Attack | Maneuver |\n|---|---|\n{rows}\n\n*{book.melee.source}.*",
        ["directions", "maneuvers", "thrust", "swing", "smash", "charge", "dodge", "duck"],
    )
    yield _entry(
        "table",
        "spell attributes",
        "Spell attributes Magister records",
        f"Type I-VIII; color white, grey, gold, purple or black; target type: {', '.join(TARGET_TYPES)}; "
        # cites L59
        f"duration: {', '.join(DURATIONS)}. Targets are named as individuals, `clearing`, `hex`, "
        "`self`, `chit:…`, `item:…` or `spell:…`.",
        ["target types", "durations list"],
    )
    yield _entry(
        "rule",
        "magister-rulings",
        "How Magister rules the primer's gaps",
        # the spec's G-R3 to G-R32
        "RULINGS 16 (colors) and 17 (expiry), and Magister's own where the primer is silent: equal speeds go "
        "into effect together; a canceled spell cancels nothing (house rule cancel_by); a canceled spell's chit "
        "fatigues (canceled_chit); only chargers of the caster and their sheet's move times limit their speed; a book "
        "casts only its own type; death ends every spell of and on the dead (death_ends); tile and item colors "
        "energize at each phase or round start (standing_color). See docs/realm.md for every ruling.",
        ["rulings", "house rules", "settings"],
    )
