"""What every awakened action shares: finding a mage, GM dice, rolling a pool and showing it, Mana and health.

Every roll goes through ``rules.dice.roll_pool`` (ruling 15); the text of a roll
shows every die, its explosions and its rote rerolls, so nothing is hidden.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, ValidationError

from rules.awakened.book import AwakenedBook
from rules.awakened.sheet import SEVERITY, ActiveSpell, AwakenedSheet, Wound
from rules.awakened.words import article, quantity
from rules.base import CharacterRecord, Model, RuleError, Table
from rules.dice import PoolRoll, roll_pool

MageOption = Field(default=None, max_length=60, description="Your mage")
DiceOption = Field(default=None, max_length=200, description="GM: d10s rolled by hand")
MAX_DICE_TEXT = 60


def mage_of(table: Table, name: str | None) -> tuple[CharacterRecord, AwakenedSheet]:
    """The actor's own mage (any mage for a GM)."""
    record = table.default_character(name)
    return record, record.sheet


def assign(target: Model, field: str, value: Any, label: str) -> None:
    """Set a model field, turning its bounds into a message a player can act on."""
    try:
        setattr(target, field, value)
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"].lower()
        raise RuleError(f"{label} cannot be {value!r}: {reason}.") from None


def gm_dice(table: Table, text: str | None) -> list[int] | None:
    """d10s a GM rolled by hand, ``"8 3 10 0"`` (0 reads as 10); only a GM may supply dice."""
    if text is None or not text.strip():
        return None
    table.require_gm("Supplying the dice")
    tokens = [t for t in re.split(r"[\s,;+/\[\]()]+", text.strip()) if t]
    if not all(re.fullmatch(r"\d{1,2}", t) for t in tokens) or len(tokens) > MAX_DICE_TEXT:
        raise RuleError(f"Write the dice as numbers from 1 to 10 (0 reads as 10), like `8 3 10 4`; got {text!r}.")
    faces = [int(t) for t in tokens]
    if any(f > 10 for f in faces):
        raise RuleError(f"A d10 shows 1 to 10 (0 reads as 10); got {max(faces)}.")
    return faces


def roll(
    table: Table,
    pool: int,
    *,
    again: int | None = 10,
    rote: bool = False,
    dice: list[int] | None = None,
    what: str = "The roll",
) -> PoolRoll:
    """A d10 pool through the shared dice (ruling 15); GM dice must be exactly what the roll needs."""
    try:
        return roll_pool(table.rng, pool, again=again, rote=rote, dice=dice)  # type: ignore[arg-type]
    except RuleError as exc:
        raise RuleError(f"{what}: {exc}") from None


def roll_text(result: PoolRoll, label: str = "", *, judged: bool = True) -> str:
    """``6 dice, 8-again, rote: [8→3] [2↻9→1] … = 2 successes``: every die, explosion and reroll.

    ``judged=False`` leaves off the roll's own verdict (dramatic failure, exceptional): for a raw roll whose
    outcome is judged on another count, such as a boosted roll's guaranteed minimum."""
    parts = []
    for die in result.dice:
        chain = "→".join(str(f) for f in die.faces)
        if die.rote_faces:
            chain += "↻" + "→".join(str(f) for f in die.rote_faces)
        parts.append(f"[{chain}]")
    how = []
    if result.chance_die:
        how.append("chance die")
    else:
        how.append(quantity(result.pool, "die"))
        how.append(f"{result.again}-again" if result.again else "no again")
    if result.rote:
        how.append("rote")
    noun = "success" if result.successes == 1 else "successes"
    verdicts = {"dramatic_failure": " (dramatic failure)", "exceptional_success": " (exceptional)"}
    outcome = verdicts.get(result.outcome, "") if judged else ""
    head = f"{label}: " if label else ""
    return f"{head}{', '.join(how)}: {' '.join(parts)} = **{result.successes}** {noun}{outcome}"


def roll_data(result: PoolRoll) -> dict[str, Any]:
    return {
        "pool": result.pool,
        "again": result.again,
        "rote": result.rote,
        "chance_die": result.chance_die,
        "dice": [{"faces": d.faces, "rote_faces": d.rote_faces} for d in result.dice],
        "successes": result.successes,
        "outcome": result.outcome,
    }


def lengthen_limit(book: AwakenedBook, wisdom: int) -> str:
    """The paradoxes a mage of this Wisdom may inadvertently lengthen, in words (l.38-43): ``no paradox``,
    ``paradoxes up to an Aurora``, or at Wisdom 0 ``every paradox``."""
    ceiling = book.tables.wisdom_ceiling[wisdom]
    if ceiling in book.tables.paradox_kinds:
        return f"paradoxes up to {article(ceiling)}"
    return "every paradox" if wisdom == 0 else "no paradox"


# ---------------------------------------------------------------- Mana and health


def mana_max(sheet: AwakenedSheet, book: AwakenedBook) -> int:
    """The effective maximum (P-G10, P-G29): the GM's base less the stones' penalty; 0 at Gnosis 0."""
    if sheet.gnosis == 0:
        return 0
    return max(0, sheet.mana_max_base - book.soul_stone_penalty(len(sheet.live_stones)))


def gain_mana(sheet: AwakenedSheet, book: AwakenedBook, amount: int) -> tuple[int, int]:
    """Add Mana up to the maximum (P-G31); returns (gained, lost to the cap)."""
    room = max(0, mana_max(sheet, book) - sheet.mana)
    gained = min(room, amount)
    sheet.mana += gained
    return gained, amount - gained


def clip_mana(sheet: AwakenedSheet, book: AwakenedBook) -> int:
    """Clip Mana to a lowered maximum; returns what was lost."""
    top = mana_max(sheet, book)
    lost = max(0, sheet.mana - top)
    sheet.mana -= lost
    return lost


def scourable(sheet: AwakenedSheet) -> int:
    """Empty or bashing boxes: the most wounds pattern scouring may take (l.286)."""
    empty = sheet.health_max - len(sheet.wounds)
    return empty + len([w for w in sheet.wounds if w.kind == "bashing"])


def add_wound(sheet: AwakenedSheet, kind: str, resistant: bool = False) -> None:
    """One wound: an empty box if any, else it upgrades the least severe wound below it."""
    wound = Wound(kind=kind, resistant=resistant)  # type: ignore[arg-type]
    if len(sheet.wounds) < sheet.health_max:
        sheet.wounds.append(wound)
    else:
        lesser = [i for i, w in enumerate(sheet.wounds) if SEVERITY[w.kind] < SEVERITY[kind]]
        if lesser:
            weakest = min(lesser, key=lambda i: SEVERITY[sheet.wounds[i].kind])
            sheet.wounds[weakest] = wound
        elif sheet.wounds and SEVERITY[kind] < 2:
            # a full track of this severity or worse: the wound upgrades the least severe one (CofD overflow)
            i = min(range(len(sheet.wounds)), key=lambda j: SEVERITY[sheet.wounds[j].kind])
            upgraded = {"bashing": "lethal", "lethal": "aggravated"}.get(sheet.wounds[i].kind, "aggravated")
            sheet.wounds[i] = Wound(kind=upgraded, resistant=sheet.wounds[i].resistant)  # type: ignore[arg-type]
    sheet.wounds.sort(key=lambda w: -SEVERITY[w.kind])


def health_text(sheet: AwakenedSheet) -> str:
    boxes = {"aggravated": "*", "lethal": "X", "bashing": "/"}
    filled = "".join(boxes[w.kind] + ("ʳ" if w.resistant else "") for w in sheet.wounds)
    return f"[{filled}{'·' * (sheet.health_max - len(sheet.wounds))}] {len(sheet.wounds)}/{sheet.health_max}"


# ---------------------------------------------------------------- spells on a sheet


def find_spell(sheet: AwakenedSheet, name: str, who: str) -> ActiveSpell:
    """An active spell by ``#id`` or by name (unique among the mage's spells)."""
    text = name.strip()
    match = re.match(r"#?(\d+)\b", text)
    if match:
        found = [s for s in sheet.spells if s.id == int(match.group(1))]
    else:
        found = [s for s in sheet.spells if s.design.name.casefold() == text.casefold()]
    if len(found) == 1:
        return found[0]
    listing = ", ".join(spell_label(s) for s in sheet.spells) or "none"
    if len(found) > 1:
        raise RuleError(f"{who} has several spells named {text!r}; name one by its number. Spells: {listing}.")
    raise RuleError(f"{who} has no spell {text!r} in effect. Spells in effect: {listing}.")


def spell_label(spell: ActiveSpell) -> str:
    return f"#{spell.id} {spell.design.name}"


def conscious(sheet: AwakenedSheet, who: str, doing: str) -> None:
    if sheet.state != "conscious":
        raise RuleError(f"{who} is {sheet.state}: a mage must be conscious to {doing}.")
    if sheet.gnosis == 0:
        # cites l.30
        raise RuleError(f"{who} has Gnosis 0 and can no longer {doing} (soul loss).")


def spell_data(spell: ActiveSpell) -> dict[str, Any]:
    """A spell in effect as a result's data: the connection it reaches through is the mage's secret, so it goes
    under ``"private"`` (the owner's and the GMs' side) and is null on the public side."""
    data = spell.model_dump(mode="json")
    if spell.connection is None:
        return data
    return {**data, "connection": None, "private": {"connection": spell.connection}}
