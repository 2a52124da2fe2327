"""The numbered rulings (docs/rulings.md) as data: read at start-up, checked, and offered to ``/lookup``.

docs/rulings.md is the one copy: people read it, ``/lookup ruling 15`` shows its item 15, and code and
cards cite "ruling 15" / "RULINGS 15" by the same number (a test checks every citation names a ruling).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from pydantic import BaseModel, Field, field_validator, model_validator

from rules.base import LookupEntry

RULINGS_PATH = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"
SECTION = re.compile(r"^## (?P<name>.+?)\s*$")
ITEM = re.compile(r"^(?P<number>\d+)\. (?P<text>.*)$")
TITLE = re.compile(r"^\*\*(?P<title>.+?)\*\*")


class Ruling(BaseModel):
    number: int = Field(ge=1)
    section: str = Field(min_length=1)
    title: str = Field(min_length=1, max_length=200)
    body: str = Field(min_length=1)


class Rulings(BaseModel):
    """Every numbered ruling, numbered 1, 2, 3... with no gap or repeat (a cited number must mean one thing)."""

    rulings: list[Ruling] = Field(min_length=1)

    @model_validator(mode="after")
    def _numbered_in_order(self) -> Rulings:
        numbers = [ruling.number for ruling in self.rulings]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"rulings must be numbered 1 to {len(numbers)} in order, found {numbers}")
        return self

    @field_validator("rulings")
    @classmethod
    def _titled(cls, rulings: list[Ruling]) -> list[Ruling]:
        for ruling in rulings:
            if not ruling.body.strip():
                raise ValueError(f"ruling {ruling.number} has no text")
        return rulings


def parse_rulings(text: str) -> Rulings:
    """The numbered items of rulings.md, each with its section, bold title and text (its sub-items included)."""
    found: list[dict] = []
    section = ""
    for line in text.splitlines():
        if heading := SECTION.match(line):
            section = heading["name"]
            if found:
                found[-1]["open"] = False
            continue
        if item := ITEM.match(line):
            title = TITLE.match(item["text"])
            name = title["title"].rstrip(".") if title else item["text"][:60]
            found.append(
                {
                    "number": int(item["number"]),
                    "section": section,
                    "title": name,
                    "lines": [item["text"]],
                    "open": True,
                }
            )
            continue
        if found and found[-1]["open"]:
            if line.strip() and not line.startswith((" ", "\t")):
                found[-1]["open"] = False  # a paragraph after the list: not part of the ruling
            else:
                found[-1]["lines"].append(line.rstrip())
    return Rulings(
        rulings=[
            Ruling(
                number=f["number"],
                section=f["section"],
                title=f["title"],
                body=(f["lines"][0] + "\n" + textwrap.dedent("\n".join(f["lines"][1:]))).strip(),
            )
            for f in found
        ]
    )


def load_rulings(path: Path = RULINGS_PATH) -> Rulings:
    return parse_rulings(path.read_text(encoding="utf-8"))


def ruling_entries(rulings: Rulings | None = None) -> list[LookupEntry]:
    """``/lookup ruling 15`` (also "rulings 15", "RULINGS 15"): the ruling as docs/rulings.md words it."""
    rulings = rulings or load_rulings()
    listing = "\n".join(f"**{r.number}.** {r.title} ({r.section.split()[0]})" for r in rulings.rulings)
    index = LookupEntry(
        ruleset=None,
        category="ruling",
        key="list",
        title="Rulings: where the books are silent or disagree",
        body=f"{listing}\n\nOne of them: `/lookup term:ruling 15`. All of them, with the reasons: docs/rulings.md.",
        aliases=["rulings", "ruling", "rulings list"],
    )
    return [index] + [
        LookupEntry(
            ruleset=None,
            category="ruling",
            key=str(ruling.number),
            title=f"Ruling {ruling.number}: {ruling.title}",
            body=f"{ruling.body}\n\n*{ruling.section.split()[0]} · docs/rulings.md*",
            aliases=[f"rulings {ruling.number}", f"ruling {ruling.title}"],
        )
        for ruling in rulings.rulings
    ]
