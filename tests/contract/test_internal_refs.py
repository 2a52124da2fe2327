"""Check 2: no player text carries the developers' references.

The seed's line numbers (``(L85)``, ``L182:``, ``l.150``), the spec's and the rulings' working codes
(``F-R12``, ``P-G47``, ``G-R25``), mechanic and example numbers (``M32``, ``E4``), issue numbers, "the seed" (the
spec's name for the book) and the names of internal checks (``in_combat:``) mean nothing to a player. Developers
keep them in code comments; a player reads plain words. ``ruling 15`` stays: ``/lookup term:"ruling 15"`` opens it.

Player text, gathered statically and by playing every scenario through the console: the rules' strings (the
refusals, cards, notes and summaries they build; docstrings aside), getting-started cards, lookup entries,
command and option descriptions and choice names as Discord shows them, and everything the scenarios show:
replies, secrets, buttons, timers, boards and the log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.contract.conftest import EVERY_OWNER
from tests.contract.support import (
    RULESET_IDS,
    SHARED,
    Text,
    Tree,
    getting_started,
    lookup_entries,
    played,
    python_strings,
    scenarios,
    settings_keys,
    shared_lookup_entries,
    source_of,
)

CHITS = r"(?<!MOVE )(?<!FIGHT )"  # realm's chits carry strengths like L4 and M4*: `MOVE L3`, `FIGHT M3*`
INTERNAL = {
    "a line of the seed": re.compile(CHITS + r"\bL\d+\b|\bl\.\s?\d+"),
    "a spec or ruling code": re.compile(r"\b[A-Z]{1,2}-[A-Z]{1,2}\d+\b"),
    "a mechanic, example or glossary number": re.compile(CHITS + r"\b[EGMSW]\d{1,3}\b(?!\*)"),
    "an issue number": re.compile(r"\bissues? \d+"),  # lower case: "Issue 14" is a campaign's name
    "the spec's name for the book": re.compile(r"\b[Tt]he seed\b"),  # a shuffle's seed is "the same seed"
}
CHECK_NAME = re.compile(r"(?<![\w`/<:])([a-z]+(?:_[a-z]+)+):(?=\s|$)")  # "in_combat: Spells are cast only..."
BACKTICKED = re.compile(r"`[^`]*`")


def descriptions(node: dict, where: str) -> Iterable[Text]:
    """What Discord shows of a serialized command: descriptions and choice names, at every depth."""
    here = f"{where} {node['name']}".strip()
    if node.get("description"):
        yield Text(f"{here} (description)", node["description"])
    for choice in node.get("choices") or []:
        yield Text(f"{here} (choice)", choice["name"])
    for option in node.get("options") or []:
        yield from descriptions(option, here)


def player_texts(owner: str, tree: Tree) -> Iterable[Text]:
    for name, payload in tree.payloads.items():
        if (name == owner) or (owner == SHARED and name not in RULESET_IDS):
            yield from descriptions(payload, "/")
    if owner == SHARED:
        for where in ("bot", "cogs", "rules/base.py", "rules/dice"):
            yield from python_strings(where)
        for entry in shared_lookup_entries():
            yield Text(f"lookup {entry.category} {entry.key}", f"{entry.title}\n{entry.body}")
        return
    yield from python_strings(source_of(owner))
    yield from (Text(f"{owner} getting-started step {i}", step) for i, step in enumerate(getting_started(owner), 1))
    for entry in lookup_entries(owner):
        yield Text(f"lookup {owner} {entry.category} {entry.key}", f"{entry.title}\n{entry.body}")
    for scenario in scenarios():
        if scenario.ruleset == owner:
            yield from played(scenario.name).texts


def internal_references(text: str, allowed_names: set[str]) -> list[str]:
    found = [f"{what} {match[0]!r}" for what, pattern in INTERNAL.items() for match in pattern.finditer(text)]
    for match in CHECK_NAME.finditer(BACKTICKED.sub(" ", text)):
        if match[1] not in allowed_names:
            found.append(f"an internal name {match[0]!r}")
    return found


@EVERY_OWNER
def test_no_player_text_carries_internal_references(owner: str, tree: Tree) -> None:
    allowed = settings_keys() | {name for leaf in tree.leaves.values() for name in leaf.params}
    found: dict[str, list[str]] = {}
    for text in player_texts(owner, tree):
        for reference in internal_references(text.text, allowed):
            found.setdefault(text.where, []).append(reference)
    report = [f"{where}: {', '.join(dict.fromkeys(refs))}" for where, refs in found.items()]
    assert not report, f"{len(report)} texts:\n" + "\n".join(report)


def test_the_patterns_know_a_reference_from_a_rule() -> None:
    allowed = {"effort_limit"}
    assert internal_references("The turn ends with no cards in hand: the game is LOST (L85).", allowed)
    assert internal_references("Spells are cast only in rounds of combat (L9; RULINGS 16).", allowed)
    assert internal_references("declare it with value:<n> (F-R25); a GM may correct it.", allowed)
    assert internal_references("Free (cost 0): assumed cast (M37).", allowed)
    assert internal_references("in_combat: Spells are cast only in rounds of combat.", allowed)
    assert internal_references("it is not sustained (l.150).", allowed)
    assert internal_references("The seed does not say how much MP a dose restores.", allowed)
    for plain in (
        'Give his chits, e.g. `chits:"MAGIC IV3*, MOVE M4*, FIGHT H5"`.',
        "Wizard's MOVE L3 and FIGHT L4 are ready.",
        'Colors as ruling 16 has them (`/lookup term:"ruling 16"`); RULINGS 13 for the Shadow.',
        "at most two asterisks (house rule effort_limit: 2)",
        "The rule `turn_timeout: skip` skipped Pat's turn.",
        "damage minimum 1, or 0 for crushing (B378)",
        "Shuffle seed (the same seed, the same game)",
    ):
        assert internal_references(plain, allowed) == [], plain


GENDERED = re.compile(r"\b(?:he|him|his|himself)\b(?!/)(?<!\bhe/him)", re.IGNORECASE)  # "he/him" is a choice


@EVERY_OWNER
def test_rules_speak_of_characters_by_their_pronouns(owner: str) -> None:
    """Magister's own words never call a character "he": they follow the character's pronouns (``Table.they``,
    default "they"). The books' text that a card quotes (a Calamity row, a glossary entry) stays the books'."""
    texts = python_strings(source_of(owner) if owner != SHARED else "bot")
    found = {text.where: sorted(set(GENDERED.findall(text.text))) for text in texts if GENDERED.search(text.text)}
    assert found == {}
    assert GENDERED.search("so he cannot be a target") and not GENDERED.search("they/them, she/her, he/him")
