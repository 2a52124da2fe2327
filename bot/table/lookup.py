"""The ``/lookup`` index: every book entry, found by its name, by the words of a term, or fuzzily.

A term opens, in this order: an entry it names exactly; the best entry one of whose names holds every word of it
whole ("harmonic" → "Harmonic order"), then by their beginnings ("harm ord"); a clear typo of a name; the best
entry whose text holds every word ("Fasul"). The reply says which, and names the next entries found. Each term is
split once and each entry's words at start-up, so ranking every book is set look-ups (a few milliseconds);
near-misses for autocomplete run through rapidfuzz (C speed), well inside Discord's 3-second window.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum

from rules.base import Card, LookupEntry, Outcome, RuleError

MAX_CHOICES = 25


class LookupIndex:
    def __init__(self, entries: list[LookupEntry]) -> None:
        self.entries = entries
        self._names = [self.label(entry) for entry in entries]
        self._keys: dict[str, list[tuple[int, LookupEntry]]] = {}
        self._refs = {self.ref(entry): entry for entry in entries}
        self._plain_names: list[str] = []  # each entry's own names, for judging a typo (clear_best)
        self._plain_owner: list[int] = []
        for position, entry in enumerate(entries):
            for name in dict.fromkeys((entry.key, entry.search_text, entry.title)):
                self._plain_names.append(name)
                self._plain_owner.append(position)
        for entry in entries:
            names = [(0, self.label(entry)), (0, entry.search_text), (1, entry.key), (1, entry.title)]
            names += [(2, alias) for alias in entry.aliases]
            category = _norm(entry.category) + " "  # "rule spell cost" also names it "spell cost", as a last resort
            names += [(3, _norm(a)[len(category) :]) for a in entry.aliases if _norm(a).startswith(category)]
            for rank, name in names:
                found = self._keys.setdefault(_norm(name), [])
                if all(other is not entry for _, other in found):
                    found.append((rank, entry))
        self._words = [_Words.of(entry) for entry in entries]
        self._vocabulary = sorted({word for names in self._words for name in names.names for word in name})

    @staticmethod
    def label(entry: LookupEntry) -> str:
        """The name autocomplete shows and submits, unique per entry."""
        prefix = f"{entry.ruleset} " if entry.ruleset else ""
        return f"{prefix}{entry.category} {entry.key}"[:100]

    @classmethod
    def ref(cls, entry: LookupEntry) -> str:
        """A short name for an entry that stays the same across restarts (buttons carry it)."""
        return hashlib.sha256(cls.label(entry).encode()).hexdigest()[:12]

    def by_ref(self, ref: str) -> LookupEntry:
        entry = self._refs.get(ref)
        if entry is None:
            raise RuleError("That entry is no longer in the books. Look it up again with `/lookup`.")
        return entry

    def clear_best(self, term: str, ruleset: str | None) -> LookupEntry | None:
        """The one entry a near-miss clearly means ("calamty 17", "Pierse"), or None when two are close.

        Scored by edit distance against each entry's own names (key, "category key", title), not the
        prefixed labels autocomplete uses, so a typo is judged against what the person meant to type.
        """
        best: dict[int, float] = {}
        from rapidfuzz import fuzz, process, utils  # imported with the first near-miss, not at every start

        for _name, score, position in process.extract(
            term, self._plain_names, scorer=fuzz.ratio, processor=utils.default_process, limit=12
        ):
            entry_index = self._plain_owner[position]
            bonus = 3 if ruleset and self.entries[entry_index].ruleset == ruleset else 0
            best[entry_index] = max(best.get(entry_index, 0.0), score + bonus)
        ranked = sorted(best.items(), key=lambda item: -item[1])
        if not ranked or ranked[0][1] < CLEAR_SCORE:
            return None
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < CLEAR_LEAD:
            return None
        return self.entries[ranked[0][0]]

    def exact(self, term: str, ruleset: str | None = None) -> LookupEntry | None:
        """The channel's own book first; then a full label, key or title beats an alias."""
        found = self._exact_all(term, ruleset)
        return found[0] if found else None

    def _exact_all(self, term: str, ruleset: str | None) -> list[LookupEntry]:
        found = self._keys.get(_norm(term), [])
        ranked = sorted(found, key=lambda item: (bool(ruleset) and item[1].ruleset != ruleset, item[0]))
        return [entry for _, entry in ranked]

    def hits(self, term: str, ruleset: str | None = None) -> list[tuple[Tier, LookupEntry]]:
        """Every entry the term's words are in, best first: by tier (a name before a prefix before the text),
        then the channel's book, a rule before a table before a glossary term before a row, the tightest name."""
        query = self._query(term)
        if query is None:
            return []
        phrase = _norm(term)
        ranked = []
        for position, (entry, names) in enumerate(zip(self.entries, self._words, strict=True)):
            tier = names.tier(query)
            if tier is None:
                continue
            other_book = bool(ruleset) and entry.ruleset != ruleset
            category = CATEGORY_ORDER.get(entry.category, len(CATEGORY_ORDER))
            if tier in (Tier.NAME, Tier.PREFIX):
                alias_only, size = names.best_name(query)
                order: tuple = (alias_only, category, size)
            else:
                order = (-names.named(query), category, phrase not in names.text, -names.count(query))
            ranked.append(((tier, other_book, *order, position), entry))
        ranked.sort(key=lambda item: item[0])
        return [(key[0], entry) for key, entry in ranked]

    def _query(self, term: str) -> _Query | None:
        """The term's words, each with its plural or singular, the names' words it begins, and its rarity."""
        words = tuple(dict.fromkeys(_tokens(term)))
        if not words:
            return None
        whole = tuple(frozenset(_forms(w)) for w in words)
        begun = []
        for word, forms in zip(words, whole, strict=True):
            start = bisect.bisect_left(self._vocabulary, word)
            end = bisect.bisect_left(self._vocabulary, word + "\U0010ffff")
            begun.append(forms | frozenset(self._vocabulary[start:end]))
        rarity = []
        for forms in whole:
            held = sum(1 for names in self._words if forms & names.every)
            rarity.append(round(math.log(len(self.entries) / max(1, held)), 6))
        return _Query(words, whole, tuple(begun), tuple(rarity))

    def find(self, term: str, ruleset: str | None = None) -> Found | None:
        """What ``/lookup term:`` shows: an exact name, else the best entry named by the term's whole words or
        their beginnings, else a clear typo, else the best entry whose text has every word; None when nothing
        does (a word only inside other words is shown when one entry alone has it)."""
        exact = self._exact_all(term, ruleset)
        if exact:
            return Found(exact[0], Tier.EXACT, tuple(exact[1 : ALSO + 1]))
        hits = self.hits(term, ruleset)
        named = [(tier, entry) for tier, entry in hits if tier in (Tier.NAME, Tier.PREFIX)]
        if named:
            return Found(named[0][1], named[0][0], tuple(e for _, e in hits[1 : ALSO + 1]))
        typo = self.clear_best(term, ruleset)
        if typo is not None:
            return Found(typo, Tier.TYPO, ())
        texts = [entry for tier, entry in hits if tier is Tier.TEXT]
        if texts:
            return Found(texts[0], Tier.TEXT, tuple(texts[1 : ALSO + 1]))
        if len(hits) == 1:
            return Found(hits[0][1], Tier.PART, ())
        return None

    def search(self, term: str, *, ruleset: str | None = None, limit: int = MAX_CHOICES) -> list[LookupEntry]:
        """Autocomplete: exact, then word hits in tier order, then fuzzy near-misses; the channel's ruleset
        (if any) ranks ahead on ties."""
        if not term.strip():
            pool = [e for e in self.entries if ruleset is None or e.ruleset in (ruleset, None)]
            return pool[:limit]
        found: dict[int, LookupEntry] = {}
        exact = self.exact(term, ruleset)
        if exact is not None:
            found[id(exact)] = exact
        for _tier, entry in self.hits(term, ruleset):
            found.setdefault(id(entry), entry)
            if len(found) >= limit:
                return list(found.values())
        from rapidfuzz import fuzz, process, utils  # imported with the first near-miss, not at every start

        matches = process.extract(
            term, self._names, scorer=fuzz.WRatio, processor=utils.default_process, limit=limit * 3
        )
        ranked = sorted(
            matches,
            key=lambda m: (-m[1] - (5 if ruleset and self.entries[m[2]].ruleset == ruleset else 0), m[2]),
        )
        for _, _, index in ranked:
            found.setdefault(id(self.entries[index]), self.entries[index])
        return list(found.values())[:limit]


class Tier(IntEnum):
    """How an entry answers a term, best first."""

    EXACT = 0  # its name, key, title, label or an alias
    NAME = 1  # every word of the term is a whole word of one of its names (or its plural)
    PREFIX = 2  # every word is, or begins, a word of one of its names ("harm ord")
    TYPO = 3  # a clear near-miss of one name (clear_best)
    TEXT = 4  # every word is a whole word of its names or text
    PART = 5  # every word is inside its text, as part of a word


@dataclass(frozen=True)
class Found:
    """What a term opens, how it was found, and the next entries it also names (shown as "Also")."""

    entry: LookupEntry
    tier: Tier
    others: tuple[LookupEntry, ...] = ()


ALSO = 4  # entries named after the one shown
CLEAR_SCORE, CLEAR_LEAD = 80, 8  # a near-miss this close, this far ahead of the next entry, is what was meant
CATEGORY_ORDER = {"rule": 0, "table": 1, "glossary": 2}  # then every other kind of row; "ruling" last
CATEGORY_ORDER["ruling"] = len(CATEGORY_ORDER) + 1
_WORD = re.compile(r"[^\W_]+")


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _forms(word: str) -> set[str]:
    """A word and its plain plural or singular: "harmonic" finds "Harmonics", "costs" finds "Cost"."""
    forms = {word, word + "s", word + "es"}
    if len(word) > 3 and word.endswith("s"):
        forms |= {word[:-1], word[:-2] if word.endswith("es") else word}
    return forms


@dataclass(frozen=True)
class _Query:
    """A term split once per look-up, so judging each entry is only set intersections."""

    words: tuple[str, ...]
    whole: tuple[frozenset[str], ...]  # each word with its plain plural or singular
    begun: tuple[frozenset[str], ...]  # and every word of the names it begins
    rarity: tuple[float, ...]  # log(entries / entries holding it): a rare word says more


@dataclass(frozen=True)
class _Words:
    """An entry's words, split once at start-up."""

    names: tuple[frozenset[str], ...]  # each name's words: key, title, "category key", each alias
    headings: int  # how many of ``names`` come first as the key, the title and "category key"
    every: frozenset[str]  # the words of every name and of the body
    counts: Counter[str]  # how often each word comes up in the names and body
    text: str  # names and body, normalized, for a word inside a word

    @classmethod
    def of(cls, entry: LookupEntry) -> _Words:
        headings = [entry.key, entry.title, entry.search_text]
        names = tuple(frozenset(_tokens(name)) for name in [*headings, *entry.aliases])
        text = _norm(" ".join([entry.search_text, entry.title, *entry.aliases, entry.body]))
        counts = Counter(_tokens(text))
        return cls(names=names, headings=len(headings), every=frozenset(counts), counts=counts, text=text)

    def tier(self, query: _Query) -> Tier | None:
        if any(_all_in(query.whole, name) for name in self.names):
            return Tier.NAME
        if any(_all_in(query.begun, name) for name in self.names):
            return Tier.PREFIX
        if _all_in(query.whole, self.every):
            return Tier.TEXT
        if all(w in self.text for w in query.words):
            return Tier.PART
        return None

    def best_name(self, query: _Query) -> tuple[bool, int]:
        """Where the term's words sit: in the key, title or "category key" before only in an alias; then the
        fewest words of that name ("Harmonic order" before "Harmonic and discordant bonuses")."""
        held = [(at >= self.headings, len(name)) for at, name in enumerate(self.names) if _all_in(query.begun, name)]
        return min(held, default=(True, 99))

    def named(self, query: _Query) -> float:
        """How much of the term one name holds, each word weighed by its rarity in the books: "spell cost"
        finds "Energy Cost" (cost is the rarer word) before "Spell Type"."""
        pairs = list(zip(query.whole, query.rarity, strict=True))
        return max((sum(r for forms, r in pairs if forms & name) for name in self.names), default=0.0)

    def count(self, query: _Query) -> int:
        """How often the term's words come up in the entry."""
        return sum(self.counts[form] for forms in query.whole for form in forms)


def _all_in(wanted: tuple[frozenset[str], ...], words: frozenset[str]) -> bool:
    """Each wanted word (any of its forms) is one of the words."""
    return all(not forms.isdisjoint(words) for forms in wanted)


PAGE_SIZE = 3700  # leaves room for a code fence reopened across a page break


def pages_of(body: str) -> list[str]:
    """Split a long entry at line breaks into pages that fit an embed description."""
    pages, current = [], ""
    for line in body.splitlines() or [""]:
        while len(line) > PAGE_SIZE:
            if current:
                pages.append(current)
                current = ""
            pages.append(line[:PAGE_SIZE])
            line = line[PAGE_SIZE:]
        if len(current) + len(line) + 1 > PAGE_SIZE:
            pages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    pages.append(current)
    return [page for page in pages if page.strip()] or ["(empty)"]


FENCE = "```"


def aligned_tables(body: str) -> str:
    """Markdown tables as aligned monospace blocks: Discord embeds do not draw tables."""
    out: list[str] = []
    block: list[list[str]] = []

    def flush() -> None:
        if not block:
            return
        widths = [max(len(row[i]) if i < len(row) else 0 for row in block) for i in range(max(map(len, block)))]
        out.append(FENCE)
        out.extend(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip() for row in block
        )
        out.append(FENCE)
        block.clear()

    for line in body.splitlines():
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if not all(set(cell) <= set("-: ") for cell in cells):  # skip the |---| separator row
                block.append(cells)
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(out)


def fenced_pages(pages: list[str]) -> list[str]:
    """Close a code block a page break cut in two, and reopen it on the next page."""
    fixed, carry = [], False
    for page in pages:
        text = (FENCE + "\n" + page) if carry else page
        carry = text.count(FENCE) % 2 == 1
        fixed.append(text + ("\n" + FENCE if carry else ""))
    return fixed


def entry_page(entry: LookupEntry, page: int) -> tuple[Outcome, int]:
    pages = fenced_pages(pages_of(aligned_tables(entry.body)))
    number = max(1, min(page, len(pages)))
    source = f"{entry.ruleset} · " if entry.ruleset else ""
    footer = f"{source}{entry.category}" + (f" · page {number} of {len(pages)}" if len(pages) > 1 else "")
    card = Card(title=entry.title[:256], description=pages[number - 1], footer=footer)
    data = {
        "ruleset": entry.ruleset,
        "category": entry.category,
        "key": entry.key,
        "title": entry.title,
        "page": number,
        "pages": len(pages),
    }
    return Outcome(card=card, summary=f"looked up {entry.category} {entry.key}", data=data), len(pages)


def found_note(index: LookupIndex, found: Found, term: str, outcome: Outcome) -> None:
    """Say how a term found what is shown, so a guess never passes for an exact answer, and name the next
    entries it also finds (``data``: ``showing_for`` when not exact, ``also`` the other entries' labels)."""
    label = f"`{index.label(found.entry)}`"
    also = [index.label(entry) for entry in found.others]
    also_text = f" Also: {', '.join(f'`{name}`' for name in also)}." if also else ""
    if found.tier is Tier.EXACT:
        note = f"Also under that name: {', '.join(f'`{name}`' for name in also)}." if also else ""
    elif found.tier is Tier.TEXT:
        note = f"No entry is called '{term}'; {label} mentions it.{also_text}"
    elif found.tier is Tier.PART:
        note = f"No entry is called '{term}'; {label} is the one entry with it inside a word."
    else:
        note = f"Showing {label} for '{term}'.{also_text}"
    if found.tier is not Tier.EXACT:
        outcome.data["showing_for"] = term
    if also:
        outcome.data["also"] = also
    if note:
        outcome.card.description = f"*{note}*\n{outcome.card.description}"[:4096]


def not_found(index: LookupIndex, term: str, ruleset: str | None) -> RuleError:
    """An unknown term is a user error that names the entries it is inside of, or else the nearest names."""
    inside = [entry for _, entry in index.hits(term, ruleset)[:5]]
    if inside:
        listed = ", ".join(f"`{index.label(e)}`" for e in inside)
        return RuleError(
            f"Nothing is called '{term}', and it is a whole word of no entry. It is inside: {listed}. "
            "Look one of them up, or start typing in `term` for suggestions."
        )
    near = index.search(term, ruleset=ruleset, limit=5)
    hint = ", ".join(f"`{index.label(e)}`" for e in near) or "nothing close"
    return RuleError(f"Nothing is called '{term}'. Nearest: {hint}. Start typing in `term` for suggestions.")
