"""The ``/lookup`` index: every book entry, searchable by exact key or fuzzily.

Scoring runs through rapidfuzz (C speed), so autocomplete over every table
answers well inside Discord's 3-second window.
"""

from __future__ import annotations

import hashlib

from rapidfuzz import fuzz, process, utils

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
            for rank, name in names:
                self._keys.setdefault(_norm(name), []).append((rank, entry))

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
        """A full label, key or title beats an alias; the channel's own ruleset wins a tie."""
        found = self._keys.get(_norm(term))
        if not found:
            return None
        return min(found, key=lambda item: (item[0], item[1].ruleset != ruleset))[1]

    def search(self, term: str, *, ruleset: str | None = None, limit: int = MAX_CHOICES) -> list[LookupEntry]:
        """Best matches first; the channel's ruleset (if any) ranks ahead on ties."""
        if not term.strip():
            pool = [e for e in self.entries if ruleset is None or e.ruleset in (ruleset, None)]
            return pool[:limit]
        matches = process.extract(
            term, self._names, scorer=fuzz.WRatio, processor=utils.default_process, limit=limit * 3
        )
        ranked = sorted(
            matches,
            key=lambda m: (-m[1] - (5 if ruleset and self.entries[m[2]].ruleset == ruleset else 0), m[2]),
        )
        return [self.entries[index] for _, _, index in ranked[:limit]]


CLEAR_SCORE, CLEAR_LEAD = 80, 8  # a near-miss this close, this far ahead of the next entry, is what was meant


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


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


def suggestions(index: LookupIndex, term: str, ruleset: str | None) -> LookupEntry:
    """An unknown term is a user error that names the nearest entries."""
    near = index.search(term, ruleset=ruleset, limit=5)
    hint = ", ".join(f"`{index.label(e)}`" for e in near) or "nothing close"
    raise RuleError(f"Nothing is called {term!r}. Nearest: {hint}. Start typing in `term` for suggestions.")
