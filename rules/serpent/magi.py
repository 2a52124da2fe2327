"""A Magi's sheet (their Codex, Specialization and Artifact) and the Laws of the Codex (RULING 11).

The sheet is what persists between battles; energies, zones and counters live in
the battle. Codex limits are checked when the sheet is written, so a battle
never starts from an illegal Codex.
"""

import re
from collections import Counter

from pydantic import Field

from rules.base import Model, RuleError
from rules.serpent.book import SerpentBook, Spell, find_spell
from rules.serpent.state import AutoPass


class MagiSheet(Model):
    """A Magi: the spells bound in their Codex (titles, repeated per copy), one Spec and one Artifact."""

    codex: list[str] = Field(default_factory=list)
    specialization: str | None = None
    artifact: str | None = None
    starting_essence: int = Field(default=12, ge=1)
    # play-by-post (issue 13): response windows this Magi passes by themselves, without being asked
    autopass: AutoPass = "never"


def parse_spell_list(text: str) -> list[str]:
    """``"Fireball x2, Dissolve Tissue"`` → ``["Fireball", "Fireball", "Dissolve Tissue"]``.

    Players type lists in one slash-command option, so copies are written ``x2``
    (or ``2x`` / ``2 x``) and entries are separated by commas or semicolons.
    """
    names: list[str] = []
    for raw in re.split(r"[,;\n]", text):
        item = raw.strip()
        if not item:
            continue
        count = 1
        match = re.fullmatch(r"(.+?)\s*[x×]\s*(\d+)", item, flags=re.IGNORECASE) or None
        before = re.fullmatch(r"(\d+)\s*[x×]?\s+(.+)", item, flags=re.IGNORECASE)
        if match:
            item, count = match.group(1).strip(), int(match.group(2))
        elif before:
            count, item = int(before.group(1)), before.group(2).strip()
        if not 1 <= count <= 27:
            raise RuleError(f"{raw.strip()!r}: a Codex holds 1 to 27 copies of a spell; write e.g. 'Fireball x2'.")
        names.extend([item] * count)
    return names


VARIANT = re.compile(r"(.+?)\s*(?:@\s*|\(\s*(?:fluency\s*)?)([1-4])\s*\)?$", re.IGNORECASE)


def split_variant(entry: str) -> tuple[str, int | None]:
    """``"Karmic Debt@3"`` or ``"Karmic Debt (fluency 3)"``: the title and the printed fluency of that copy.

    Glossary "Fluency Level": "The same spell title may be printed at multiple Fluencies"; "Title": they
    "still count as the same spell for Codex limits and other title-specific effects".
    """
    match = VARIANT.fullmatch(entry.strip())
    return (match.group(1).strip(), int(match.group(2))) if match else (entry.strip(), None)


def codex_entries(book: SerpentBook, campaign_spells: dict[str, Spell], entries: list[str]) -> list[str]:
    """Checked Codex entries as stored on the sheet: the book's title, with ``@N`` for a fluency variant."""
    out = []
    for entry, spell in zip(entries, check_codex(book, campaign_spells, entries), strict=True):
        fluency = split_variant(entry)[1]
        out.append(f"{spell.title}@{fluency}" if fluency and fluency != spell.fluency else spell.title)
    return out


def check_codex(book: SerpentBook, campaign_spells: dict[str, Spell], titles: list[str]) -> list[Spell]:
    """The Laws of the Codex: 27 spells, at most 5 of fluency 3, 2 of fluency 4, 3 per title, Unique to Codex."""
    rules = book.rules
    variants = [split_variant(t) for t in titles]
    spells = [find_spell(book, campaign_spells, title) for title, _ in variants]
    problems: list[str] = []
    for spell in spells:
        if spell.role == "Artifact":
            problems.append(f"{spell.title} is an Artifact: it goes in the artifact slot, not the Codex")
    # glossary "Nam-Shub": "There is no limit to the number of Nam-Shubs your Codex may contain"
    bound = [(s, v) for s, (_, v) in zip(spells, variants, strict=True) if s.role != "Nam-Shub"]
    if len(bound) > rules.codex_size:
        problems.append(f"it holds {len(bound)} spells; a Codex binds at most {rules.codex_size}")
    fluency = Counter(variant or s.fluency for s, variant in bound)
    if fluency[3] > rules.codex_max_fluency_3:
        problems.append(f"{fluency[3]} spells of fluency 3; at most {rules.codex_max_fluency_3}")
    if fluency[4] > rules.codex_max_fluency_4:
        problems.append(f"{fluency[4]} spells of fluency 4; at most {rules.codex_max_fluency_4}")
    per_title = Counter(s.title for s, _ in bound)
    for title, count in sorted(per_title.items()):
        spell = next(s for s, _ in bound if s.title == title)
        if spell.unique_to_codex and count > 1:
            problems.append(f"{count} copies of {title}, which is Unique to Codex (1 allowed)")
        elif count > rules.codex_max_same_title:
            problems.append(f"{count} copies of {title}; at most {rules.codex_max_same_title} per title")
    if problems:
        raise RuleError("That Codex breaks the Laws of the Codex: " + "; ".join(problems) + ".")
    return spells


def check_specialization(book: SerpentBook, name: str | None) -> str | None:
    if not name:
        return None
    spec = book.specialization(name)
    if spec is None:
        known = ", ".join(s.name for s in book.specializations.specialization)
        raise RuleError(f"There is no Specialization {name!r} in the book. Known: {known}.")
    return spec.name


def build_sheet(
    book: SerpentBook,
    campaign_spells: dict[str, Spell],
    codex: str,
    specialization: str | None,
    artifact: str | None,
) -> MagiSheet:
    """A checked sheet from slash-command text; titles are stored as the book spells them."""
    return MagiSheet(
        codex=codex_entries(book, campaign_spells, parse_spell_list(codex)),
        specialization=check_specialization(book, specialization),
        artifact=(artifact or "").strip() or None,
        starting_essence=book.rules.starting["Essence"],
    )


def codex_summary(sheet: MagiSheet) -> str:
    counts = Counter(sheet.codex)
    return ", ".join(f"{t} x{n}" if n > 1 else t for t, n in counts.items()) or "empty"
