"""Reading a GCS (GURPS Character Sheet) file into a runic mage: what it read, and what it could not place and why.

Pure: the file's text comes in, a :class:`GcsMage` goes out (or a RuleError saying plainly why the file is not
one GCS character this can read). GCS saves characters as JSON, in file format versions 1 (GCS 4.20) to 5 (GCS
5.24 and later); each part is validated with a pydantic model that ignores what it does not need, and a part that
does not fit is listed as unreadable rather than stopping the import. The mapping (docs/runic.md, "Importing a
character from GCS"):

- IQ, HT, Will, HP and FP: the values GCS shows (its ``calc``, which counts every point adjustment and trait
  bonus); without them, GCS's base rules (10 + adjustment; Will from IQ, HP from ST, FP from HT).
- Magery: the trait "Magery" (or "Magery 0", or "Ritual Magery") with its level.
- Thaumatology, Symbol Drawing: the skills of those names (any specialization); the level GCS shows.
- Words: a skill named for a Word ("Flam", "Flam (Fire)"), or a generic Word skill specialized in one ("Word
  of Power (Flam)", "Runic Word: Flam"). "Symbol Drawing (Flam)" is Symbol Drawing, not the Word.
- Energy Reserve (Magic) or (Magical): a reserve of that many MP, kept as a magic item that refills at sunrise.
- Faster Casting, Cheaper Casting (Word): their levels.

Everything else (ST, DX, other traits and skills, GURPS spells, equipment) is listed as not placed, each with why.
"""

import json
import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.base import Model, RuleError, quoted
from rules.runic.book import RunicBook, Word
from rules.text import clip, fold

MAX_GCS_BYTES = 4_000_000  # GCS files with a portrait run to a few hundred KB; nothing a character needs is larger
FORMATS = range(1, 6)  # GCS file format versions this reads: 1 (GCS 4.20) to 5 (GCS 5.24+)
MAX_DEPTH = 40  # nesting deeper than any GCS sheet has (containers of containers of traits)
MAX_ITEMS = 5_000  # traits, skills or spells in one file
NAMES_BUDGET = 300  # characters of names in one "not placed" sentence before "and N more"

NOT_JSON = (
    "That file is not a GCS character: it is not JSON. Attach the `.gcs` file GCS saves (File → Save), "
    "not a PDF or an exported text sheet."
)
WORD_SKILL_NAMES = ("word", "words", "word of power", "words of power", "runic word", "rune", "runes", "word skill")
_WORD_PAREN = re.compile(r"^(?P<head>[^()]+?)\s*\((?P<inner>[^()]+)\)$")
_WORD_COLON = re.compile(r"^(?P<head>[^:]+?)\s*:\s*(?P<inner>.+)$")
_MAGERY = re.compile(r"^(?P<ritual>ritual )?magery(?: (?P<zero>0))?$")
_RESERVE = re.compile(r"^energy reserve\s*\((?P<kind>[^()]+)\)$")
_CHEAPER = re.compile(r"^cheaper casting\s*\((?P<word>[^()]+)\)$")
MAGIC_RESERVES = ("magic", "magical", "mana")
ATTRIBUTE_NAMES = {
    "st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Perception", "fp": "FP", "hp": "HP",
    "fright_check": "Fright Check", "vision": "Vision", "hearing": "Hearing", "taste_smell": "Taste & Smell",
    "touch": "Touch", "basic_speed": "Basic Speed", "basic_move": "Basic Move",
}  # fmt: skip
ATTRIBUTE_BASES = {"st": "10", "dx": "10", "iq": "10", "ht": "10", "will": "iq", "per": "iq", "hp": "st", "fp": "ht"}
PLACED_ATTRIBUTES = ("iq", "ht", "will", "hp", "fp")
SENSES = ("per", "fright_check", "vision", "hearing", "taste_smell", "touch", "basic_speed", "basic_move")


class _Gcs(BaseModel):
    """A part of a GCS file: what this needs is checked, the rest (GCS keeps much more) ignored."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built at the first GCS import, not at start-up


class GcsCalc(_Gcs):
    value: float | None = None
    current: float | None = None
    level: float | None = None
    current_level: float | None = None


class GcsAttribute(_Gcs):
    attr_id: str = Field(min_length=1, max_length=64)
    adj: float = Field(default=0, ge=-10_000, le=10_000)
    calc: GcsCalc | None = None


class GcsModifier(_Gcs):
    name: str = Field(default="", max_length=200)
    disabled: bool = False


class GcsItem(_Gcs):
    """A trait (advantage), skill or spell; containers hold more of them in ``children``."""

    type: str = Field(default="", max_length=64)
    id: str = Field(default="", max_length=64)
    name: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=500)  # equipment's name
    specialization: str = Field(default="", max_length=200)
    levels: float | None = Field(default=None, ge=-10_000, le=10_000)
    points: float | None = Field(default=None, ge=-1_000_000, le=1_000_000)
    difficulty: str = Field(default="", max_length=20)
    disabled: bool = False
    modifiers: list[GcsModifier] = Field(default_factory=list, max_length=500)
    calc: GcsCalc | None = None
    children: list[Any] | None = None

    @field_validator("levels", mode="before")
    @classmethod
    def _blank_levels(cls, value: Any) -> Any:
        """Format 1 and 2 files write levels as text ("3"), blank for none."""
        return None if value == "" else value

    @property
    def container(self) -> bool:
        # format 5 marks containers by an id starting with a capital letter; earlier ones by their type
        return self.type.endswith("_container") or self.children is not None or self.id[:1].isupper()

    @property
    def title(self) -> str:
        name = " ".join((self.name or self.description).split()) or "(unnamed)"
        return f"{name} ({' '.join(self.specialization.split())})" if self.specialization.strip() else name


class GcsProfile(_Gcs):
    name: str = Field(default="", max_length=500)
    age: str | int | None = None


class GcsFile(_Gcs):
    """The top of a character file; format 1 keeps the four attributes at the top, later ones in ``attributes``."""

    version: int
    type: str = Field(default="character", max_length=64)
    profile: GcsProfile = Field(default_factory=GcsProfile)
    attributes: list[Any] = Field(default_factory=list, max_length=200)
    traits: list[Any] | None = Field(default=None, max_length=MAX_ITEMS)
    advantages: list[Any] | None = Field(default=None, max_length=MAX_ITEMS)  # the traits, before format 4
    skills: list[Any] = Field(default_factory=list, max_length=MAX_ITEMS)
    spells: list[Any] = Field(default_factory=list, max_length=MAX_ITEMS)
    equipment: list[Any] = Field(default_factory=list, max_length=MAX_ITEMS)
    other_equipment: list[Any] = Field(default_factory=list, max_length=MAX_ITEMS)
    ST: float | None = None
    DX: float | None = None
    IQ: float | None = None
    HT: float | None = None
    HP: float | None = None  # format 1: adjustments to the derived values
    FP: float | None = None
    will: float | None = None


class GcsMage(Model):
    """A mage as read from GCS, before any rule of the table is applied (the Word caps are the import's)."""

    name: str | None = None
    version: int
    magery: int = 0
    iq: int
    ht: int
    will: int
    hp: int
    fp: int
    thaumatology: int | None = None
    symbol_drawing: int | None = None
    words: dict[str, int] = Field(default_factory=dict)
    faster_casting: int = 0
    cheaper_casting: dict[str, int] = Field(default_factory=dict)
    energy_reserve: int = 0
    age: int | None = None
    read: list[str] = Field(default_factory=list)  # what was placed, one line each
    unplaced: list[str] = Field(default_factory=list)  # what was not, each a sentence saying why
    others: list[str] = Field(default_factory=list)  # the same for what no mage sheet keeps (ST, other skills...)


# ---------------------------------------------------------------- the file


def parse_gcs(text: str, book: RunicBook, *, names: int | None = NAMES_BUDGET) -> GcsMage:
    """The mage in a GCS file's text, or a RuleError saying plainly why there is none to read.

    ``names``: characters of names a "not placed" sentence lists before "and N more" (None: every name).
    """
    if len(text) > MAX_GCS_BYTES:
        raise RuleError(f"That file is {len(text):,} characters; a GCS character is read up to {MAX_GCS_BYTES:,}.")
    try:
        data = json.loads(text, parse_constant=_no_constant)  # GCS never writes NaN or Infinity
    except (ValueError, RecursionError):
        raise RuleError(NOT_JSON) from None
    if not isinstance(data, dict):
        raise RuleError("That file is JSON but not a GCS character: a character file is one JSON object.")
    if _depth(data) > MAX_DEPTH:
        raise RuleError(f"That file nests deeper than any GCS character ({MAX_DEPTH} levels), so it was not read.")
    _check_kind(data)
    try:
        sheet = GcsFile.model_validate(data)
    except ValidationError as exc:
        raise RuleError(f"That GCS file is damaged: {_where(exc)}. Open it in GCS and save it again.") from None
    return _Reader(sheet, book, names).mage()


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _depth(data: Any) -> int:
    """How deeply the JSON nests, walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            return depth
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def _check_kind(data: dict[str, Any]) -> None:
    version = data.get("version")
    if "version" not in data:
        raise RuleError(
            "That JSON is not a GCS character: it has no GCS format version. Attach the `.gcs` file GCS saves."
        )
    if isinstance(version, bool) or not isinstance(version, int):
        raise RuleError("That file's GCS format version is not a number, so it is not a GCS file this can read.")
    if version not in FORMATS:
        newer = version > FORMATS[-1]
        raise RuleError(
            f"That file is in GCS format {version}, "
            + ("newer than" if newer else "not one of")
            + f" the formats this reads ({FORMATS[0]} to {FORMATS[-1]}, GCS 4.20 to 5.x). "
            + ("Save it from GCS 5 and attach it again." if newer else "Open it in GCS and save it again.")
        )
    kind = data.get("type")
    if isinstance(kind, str) and kind != "character":
        what = kind.replace("_", " ")
        raise RuleError(f"That is a GCS {what} file, not a character sheet. Attach the character's `.gcs` file.")
    if "rows" in data:
        raise RuleError("That is a GCS list (of traits, skills or equipment), not a character sheet.")
    if not any(key in data for key in ("profile", "attributes", "ST")):
        raise RuleError("That GCS file is not a character sheet (it has no profile or attributes).")


def _where(exc: ValidationError) -> str:
    error = exc.errors()[0]
    path = " › ".join(str(part) for part in error.get("loc", ())) or "the file"
    kinds = {
        "int_type": "should be a whole number",
        "int_parsing": "should be a whole number",
        "int_from_float": "should be a whole number",
        "float_type": "should be a number",
        "float_parsing": "should be a number",
        "string_type": "should be text",
        "list_type": "should be a list",
        "model_type": "should be an object",
        "dict_type": "should be an object",
        "bool_type": "should be true or false",
        "bool_parsing": "should be true or false",
        "too_long": "is too long",
        "string_too_long": "is too long",
        "missing": "is missing",
    }
    return f"{path} {kinds.get(error.get('type', ''), 'is not what GCS writes')}"


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value // 1) if value >= 0 else -int(-value // 1)


def _names(items: list[str], budget: int | None = NAMES_BUDGET) -> str:
    """Names joined up to a length a card can show, then "and N more": the count is never lost."""
    shown: list[str] = []
    used = 0
    for name in items:
        name = clip(name, 80)
        if shown and budget is not None and used + len(name) > budget:
            break
        shown.append(name)
        used += len(name) + 2
    more = len(items) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


# ---------------------------------------------------------------- reading


class _Reader:
    """One pass over a validated file, collecting what it places and sentences for what it does not."""

    def __init__(self, sheet: GcsFile, book: RunicBook, names: int | None) -> None:
        self.sheet, self.book, self.budget = sheet, book, names
        self.read: list[str] = []
        self.unplaced: list[str] = []
        self.others: list[str] = []  # the long lists of what a mage sheet has no place for, said last
        self.words: dict[str, Word] = {w.name.casefold(): w for w in book.words.word}
        self.reserve_pool = 0

    def _names(self, items: list[str]) -> str:
        return _names(items, self.budget)

    def mage(self) -> GcsMage:
        values = self._attributes()
        magery, reserve, faster, cheaper = self._traits()
        thaumatology, symbol_drawing, words = self._skills(values)
        self._rest()
        return GcsMage(
            name=" ".join(self.sheet.profile.name.split()) or None,
            version=self.sheet.version,
            magery=magery,
            iq=values["iq"],
            ht=values["ht"],
            will=values["will"],
            hp=values["hp"],
            fp=values["fp"],
            thaumatology=thaumatology,
            symbol_drawing=symbol_drawing,
            words=words,
            faster_casting=faster,
            cheaper_casting=cheaper,
            energy_reserve=reserve,
            age=self._age(),
            read=self.read,
            unplaced=self.unplaced,
            others=self.others,
        )

    # -- attributes

    def _attributes(self) -> dict[str, int]:
        found: dict[str, float] = {}
        adjustments: dict[str, float] = {}
        if self.sheet.version == 1:
            for key, field in (("st", "ST"), ("dx", "DX"), ("iq", "IQ"), ("ht", "HT")):
                value = getattr(self.sheet, field)
                found[key] = 10 if value is None else value
            for key, field in (("hp", "HP"), ("fp", "FP"), ("will", "will")):
                adjustments[key] = getattr(self.sheet, field) or 0
        else:
            for raw in self.sheet.attributes:
                try:
                    attribute = GcsAttribute.model_validate(raw)
                except ValidationError:
                    self.unplaced.append("An attribute entry GCS did not write in its usual form was skipped.")
                    continue
                if attribute.calc is not None and attribute.calc.value is not None:
                    found[attribute.attr_id] = attribute.calc.value
                else:
                    adjustments[attribute.attr_id] = attribute.adj
        for key in ("st", "dx", "iq", "ht", "will", "per", "hp", "fp"):  # bases before what derives from them
            if key not in found:
                base = ATTRIBUTE_BASES[key]
                found[key] = (found.get(base, 10) if base.isalpha() else int(base)) + adjustments.get(key, 0)
        self.reserve_pool = max(_whole(found.pop("er", 0)) or 0, 0)  # the Energy Reserve pool GCS adds as "er"
        values = {key: _whole(value) or 0 for key, value in found.items()}
        bounds = {"iq": 30, "ht": 30, "will": 30, "hp": 200, "fp": 200}
        for key, top in bounds.items():
            if not 1 <= values[key] <= top:
                raise RuleError(
                    f"{ATTRIBUTE_NAMES[key]} {values[key]} in that file is outside what a runic mage sheet holds "
                    f"(1 to {top}), so nothing was imported. Correct it in GCS, or create the mage with "
                    "`/runic mage create`."
                )
        self.read.append(
            f"IQ {values['iq']}, HT {values['ht']}, Will {values['will']}, HP {values['hp']}, FP {values['fp']}"
        )
        self.others.append(
            f"ST {values['st']} and DX {values['dx']}: a runic mage sheet has no ST or DX (HP, which GCS derives "
            "from ST, was read)."
        )
        senses = [f"{ATTRIBUTE_NAMES[k]} {_show(found[k])}" for k in SENSES if k in found]
        if senses:
            self.others.append(f"{self._names(senses)}: a runic mage sheet does not keep these.")
        other = sorted(k for k in found if k not in ATTRIBUTE_NAMES)
        if other:
            shown = [f"{k.replace('_', ' ')} {_show(found[k])}" for k in other]
            self.others.append(
                f"This file's own attributes ({self._names(shown)}): a runic mage sheet has no place for them."
            )
        return values

    def _age(self) -> int | None:
        age = self.sheet.profile.age
        text = str(age).strip() if age is not None else ""
        if not text:
            return None
        if text.isdigit() and int(text) <= 10_000:
            self.read.append(f"Age {int(text)}")
            return int(text)
        self.unplaced.append(f"Age {quoted(text, 20)}: not a number of years, so the mage's age was left blank.")
        return None

    # -- traits

    def _walk(self, items: list[Any] | None, what: str) -> Iterator[GcsItem]:
        """The enabled items of a list, containers opened; a switched-off one is named as not placed."""
        stack: list[Any] = list(reversed(items or []))
        while stack:
            raw = stack.pop()
            try:
                item = GcsItem.model_validate(raw)
            except ValidationError:
                self.unplaced.append(f"One of the {what} is not written as GCS writes them, so it was skipped.")
                continue
            if item.disabled:
                self.unplaced.append(f"{item.title} is switched off in GCS, so it was not read.")
                continue
            if item.container:
                stack.extend(reversed(item.children or []))
                continue
            yield item

    def _traits(self) -> tuple[int, int, int, dict[str, int]]:
        magery: tuple[int, str] | None = None
        reserve = faster = 0
        cheaper: dict[str, int] = {}
        others: list[str] = []
        traits = self.sheet.traits if self.sheet.traits is not None else self.sheet.advantages
        for item in self._walk(traits, "traits"):
            name = fold(item.name)
            level = _level(item)
            limits = [m.name for m in item.modifiers if not m.disabled and m.name.strip()]
            if found := _MAGERY.match(name):
                value = 0 if found["zero"] else max(level or 0, 0)
                if value > 10:
                    self.unplaced.append(f"{item.title} {value}: a runic mage has at most Magery 10; read as 10.")
                    value = 10
                if magery is not None and magery[0] >= value:
                    self.unplaced.append(f"{item.title} {value}: the mage already has Magery {magery[0]}.")
                    continue
                magery = (value, item.title)
                if limits:
                    self.unplaced.append(
                        f"{item.title}'s modifiers ({self._names(limits)}) have no meaning in runic magic; its "
                        "level was read without them."
                    )
            elif (found := _RESERVE.match(name)) and found["kind"].strip() in MAGIC_RESERVES:
                reserve += max(level or 0, 0)
            elif found:
                others.append(f"{item.title} (only a magical Energy Reserve holds MP)")
            elif name == "faster casting":
                faster = min(max(level or 0, 0), 10)
            elif (found := _CHEAPER.match(name)) and found["word"].strip() in self.words:
                cheaper[self.words[found["word"].strip()].name] = min(max(level or 0, 0), 10)
            else:
                others.append(f"{item.title} {level}" if level else item.title)
        reserve = max(reserve, self.reserve_pool)
        if magery is not None:
            self.read.append(f"Magery {magery[0]}" + (f" (from {magery[1]})" if fold(magery[1]) != "magery" else ""))
        else:
            self.unplaced.append("No Magery in the file: the mage has Magery 0 and cannot speak Words.")
        if reserve:
            self.read.append(f"Energy Reserve {reserve}: a reserve of {reserve} MP (a magic item, full at sunrise)")
        if faster:
            self.read.append(f"Faster Casting {faster}")
        if cheaper:
            self.read.append("Cheaper Casting: " + ", ".join(f"{w} {n}" for w, n in cheaper.items()))
        if others:
            self.others.append(f"Traits {self._names(others)}: a runic mage sheet has no place for them.")
        return magery[0] if magery else 0, min(reserve, 10_000), faster, cheaper

    # -- skills

    def _skills(self, values: dict[str, int]) -> tuple[int | None, int | None, dict[str, int]]:
        best: dict[str, int] = {}
        seen: dict[str, list[int]] = {}
        words: dict[str, int] = {}
        others: list[str] = []
        for item in self._walk(self.sheet.skills, "skills"):
            name = fold(item.name)
            level = self._skill_level(item, values)
            if name in ("thaumatology", "symbol drawing"):
                label = "Thaumatology" if name == "thaumatology" else "Symbol Drawing"
                if level is None:
                    self.unplaced.append(f"{item.title} has no level in the file, so it was not read.")
                    continue
                spec = fold(item.specialization)
                if spec in self.words:
                    self.unplaced.append(
                        f"{item.title} was read as {label}, not as the Word {self.words[spec].name}: a Word skill is "
                        "a skill of its own, named for the Word."
                    )
                seen.setdefault(label, []).append(level)
                best[label] = max(best.get(label, level), level)
                continue
            word = self._word_of(item)
            if word is None:
                others.append(f"{item.title} {level}" if level is not None else item.title)
                continue
            if level is None:
                self.unplaced.append(f"{item.title} has no level in the file, so the Word {word.name} was not read.")
            elif word.name in words:
                self.unplaced.append(f"{item.title} {level}: {word.name} appears twice; the higher was kept.")
                words[word.name] = max(words[word.name], level)
            else:
                words[word.name] = level
        for label, levels in seen.items():
            if len(levels) > 1:
                shown = ", ".join(str(n) for n in levels)
                self.unplaced.append(
                    f"{label} appears {len(levels)} times in the file ({shown}); the highest was kept."
                )
        for label in ("Thaumatology", "Symbol Drawing"):
            if label in best:
                if not 1 <= best[label] <= 40:
                    self.unplaced.append(f"{label} {best[label]} is outside 1 to 40, so it was not read.")
                    del best[label]
                else:
                    self.read.append(f"{label} {best[label]}")
        for name, level in list(words.items()):
            if not 1 <= level <= 40:
                self.unplaced.append(f"{name} {level} is outside 1 to 40, so it was not read.")
                del words[name]
        if words:
            self.read.append("Words: " + ", ".join(f"{w} {n}" for w, n in words.items()))
        if others:
            self.others.append(f"Skills {self._names(others)}: not Words of Power, Thaumatology or Symbol Drawing.")
        return best.get("Thaumatology"), best.get("Symbol Drawing"), words

    def _word_of(self, item: GcsItem) -> Word | None:
        """The Word a skill trains: named for it, or a Word skill specialized in it (never Symbol Drawing)."""
        name, spec = fold(item.name), fold(item.specialization)
        if name in self.words:
            return self.words[name]
        for pattern in (_WORD_PAREN, _WORD_COLON):
            found = pattern.match(name)
            if found is None:
                continue
            head, inner = found["head"].strip(), found["inner"].strip()
            if head in WORD_SKILL_NAMES and inner in self.words:
                return self.words[inner]
            if head in self.words and fold(self.words[head].meaning) == inner:  # "Flam (Fire)"
                return self.words[head]
        if name in WORD_SKILL_NAMES and spec in self.words:
            return self.words[spec]
        return None

    def _skill_level(self, item: GcsItem, values: dict[str, int]) -> int | None:
        """The level GCS shows; for a file without it (format 1), worked out from the points as GCS would."""
        if item.calc is not None and item.calc.level is not None:
            return _whole(item.calc.level)
        if item.points is None or item.points < 1:
            return None
        attribute, _, difficulty = fold(item.difficulty).partition("/")
        offsets = {"e": 0, "a": -1, "h": -2, "vh": -3, "w": -3}
        if attribute not in values or difficulty not in offsets:
            return None
        points = item.points
        step = 0 if points < 2 else 1 if points < 4 else 2 + int((points - 4) // 4)
        return values[attribute] + offsets[difficulty] + step

    # -- the rest

    def _rest(self) -> None:
        spells = [item.title for item in self._walk(self.sheet.spells, "spells")]
        if spells:
            self.others.append(
                f"GURPS spells {self._names(spells)}: runic magic builds spells from Words; define them with "
                "`/runic spell define`."
            )
        gear = [item.title for item in self._walk(self.sheet.equipment + self.sheet.other_equipment, "equipment")]
        if gear:
            self.others.append(
                f"Equipment ({len(gear)}: {self._names(gear)}): not carried; add an implement or magic items with "
                "`/runic mage implement` and `/runic mage item`."
            )


def _level(item: GcsItem) -> int | None:
    if item.calc is not None and item.calc.current_level is not None:
        return _whole(item.calc.current_level)
    return _whole(item.levels)


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
