"""Learning Words: what each trained Word skill costs in character points, so a sheet can be checked.

The seed makes every Word "IQ-based" with a printed difficulty (nouns Hard, verbs and modifiers Average); the
points per level are GURPS's own table (Basic Set p. B170), kept in ``data/runic/casting.toml`` [learning]
(ruling 1: the seed plays GURPS rules it does not print). A Word at default costs nothing; a trained Word below
the table's cheapest level (IQ-2 for Hard, IQ-1 for Average) cannot be bought and is flagged.
"""

from pydantic import Field

from rules.base import Card, Model, Outcome, Table, add_field, fit
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet
from rules.text import listing


class WordCost(Model):
    word: str
    difficulty: str
    skill: int
    relative: int  # skill - IQ
    points: int | None  # None: below the cheapest level


def word_costs(sheet: MageSheet, book: RunicBook) -> list[WordCost]:
    learning = book.casting.learning
    costs = []
    for name, skill in sorted(sheet.words.items()):
        word = book.word(name)
        relative = skill - sheet.iq
        points = learning.points(word.difficulty, relative)
        costs.append(WordCost(word=word.name, difficulty=word.difficulty, skill=skill, relative=relative,
                              points=points))  # fmt: skip
    return costs


class MagePointsOptions(Model):
    mage: str | None = Field(default=None, max_length=60, description="Your mage, if several")
    points: int | None = Field(default=None, ge=0, le=10_000, description="Points your sheet spends on Words")


def mage_points(table: Table, options: MagePointsOptions) -> Outcome:
    """The points each trained Word costs at its level; checked against the sheet's own figure when given."""
    if options.points is None and options.mage:  # reading a sheet is open to everyone
        record = table.find_character(options.mage)
    else:
        record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    if options.points is not None:
        sheet.word_points = options.points
    costs = word_costs(sheet, table.book)
    total = sum(c.points or 0 for c in costs)
    wrong = [c for c in costs if c.points is None]
    lines = [
        f"{c.word} ({c.difficulty}) {c.skill} = IQ{c.relative:+d}: "
        + (f"{c.points} pt" if c.points is not None else "below the cheapest level; it cannot be bought")
        for c in costs
    ] or ["No trained Words: every Word is at default (free)."]
    card = Card(title=f"{record.name}'s Words: {total} points")
    add_field(card, "Words (IQ " + str(sheet.iq) + ")", listing(lines))
    verdict = None
    if sheet.word_points is not None:
        verdict = "matches" if sheet.word_points == total and not wrong else "differs"
        add_field(card, "Sheet", f"The sheet says {sheet.word_points}: it {verdict}" + (
            f" (the Words cost {total})." if verdict == "differs" else "."))  # fmt: skip
    if wrong:
        card.tone = "failure"
        card.description = "Trained below the cheapest level: raise it, or set it back to default (skill 0)."
    data = {"mage": record.name, "words": [c.model_dump() for c in costs], "total": total,
            "sheet_points": sheet.word_points, "check": verdict}  # fmt: skip
    return Outcome(card=fit(card), summary=f"{record.name}'s Words cost {total} points", data=data,
                   ephemeral=options.points is None)  # fmt: skip
