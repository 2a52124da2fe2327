"""Word skills and the base spell skill (ruling 5).

A spell rolls against its weakest Word, less one per Word past the second, and
never above Thaumatology (Symbol Drawing for inscriptions). Word skills default
to the better of the two foundations less 4, never above 12, and none may exceed
the better foundation or 12 + Magery.
"""

from typing import Literal

from rules.base import Model, RuleError
from rules.runic.book import RunicBook, Word
from rules.runic.sheet import MageSheet


class WordSkill(Model):
    word: str
    skill: int
    source: Literal["trained", "default"]


class BaseSkill(Model):
    """How the unmodified spell skill was reached, step by step."""

    words: list[WordSkill]
    lowest: int
    word_penalty: int
    foundation: Literal["Thaumatology", "Symbol Drawing"]
    foundation_level: int
    skill: int

    def lines(self) -> list[str]:
        shown = ", ".join(f"{w.word} {w.skill}{'' if w.source == 'trained' else ' (default)'}" for w in self.words)
        out = [f"Word skills: {shown}; lowest {self.lowest}"]
        if self.word_penalty:
            out.append(f"{len(self.words)} Words: {self.word_penalty:+d}")
        out.append(f"capped by {self.foundation} {self.foundation_level}: **{self.skill}**")
        return out


def word_cap(sheet: MageSheet, book: RunicBook) -> int | None:
    """The highest a trained Word skill may be, or None when the mage has neither foundation skill."""
    foundations = [s for s in (sheet.thaumatology, sheet.symbol_drawing) if s is not None]
    if not foundations:
        return None
    return min(max(foundations), book.casting.skill.cap_over_magery + sheet.magery)


def default_word_skill(sheet: MageSheet, book: RunicBook) -> int | None:
    numbers = book.casting.skill
    options = []
    if sheet.thaumatology is not None:
        options.append(sheet.thaumatology + numbers.default_from_thaumatology)
    if sheet.symbol_drawing is not None:
        options.append(sheet.symbol_drawing + numbers.default_from_symbol_drawing)
    if not options:
        return None
    return min(max(options), numbers.default_cap)


def word_skill(sheet: MageSheet, word: Word, book: RunicBook) -> WordSkill | None:
    """The better of the trained level (held to today's cap) and the default; None if neither exists."""
    default = default_word_skill(sheet, book)
    trained = sheet.words.get(word.name)
    cap = word_cap(sheet, book)
    if trained is not None and cap is not None:
        trained = min(trained, cap)
        if default is None or trained > default:
            return WordSkill(word=word.name, skill=trained, source="trained")
    if default is None:
        return None
    return WordSkill(word=word.name, skill=default, source="default")


def base_skill(sheet: MageSheet, words: list[Word], book: RunicBook, *, inscription: bool) -> BaseSkill:
    """Ruling 5: lowest Word skill, -1 per Word past the second (not for inscriptions), then the foundation cap."""
    if sheet.magery <= 0:
        raise RuleError("Only those with Magery may speak a Word of Power; this character has Magery 0.")
    foundation: Literal["Thaumatology", "Symbol Drawing"] = "Symbol Drawing" if inscription else "Thaumatology"
    level = sheet.symbol_drawing if inscription else sheet.thaumatology
    if level is None:
        what = "a Runic Inscription" if inscription else "a spell (Evocation)"
        raise RuleError(f"Casting {what} needs {foundation}; set it with `/runic mage set`.")
    skills = [word_skill(sheet, word, book) for word in words]
    known = [s for s in skills if s is not None]  # a foundation exists, so every Word has at least its default
    lowest = min(s.skill for s in known)
    numbers = book.casting.skill
    extra = 0 if inscription else max(0, len(words) - numbers.free_words)
    penalty = extra * numbers.per_extra_word
    return BaseSkill(
        words=known,
        lowest=lowest,
        word_penalty=penalty,
        foundation=foundation,
        foundation_level=level,
        skill=min(lowest + penalty, level),
    )
