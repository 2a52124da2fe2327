"""``/runic mage import``: a mage from a GCS character file, shown first and saved only on Confirm.

The question (``Action.confirm``) reads the file and builds the mage on a copy of the table, so every refusal
comes before Confirm and the question lists what will be saved and what could not be placed. Confirm runs the
same build for real: the normal new-mage checks (:func:`rules.runic.mages.new_sheet`), then the Words within
their cap. A mage of the same name that is the importer's own is replaced (the question says so first); one of
another player's is never touched. The change is logged and undone like any other.
"""

from typing import Annotated

from pydantic import Field, ValidationError

from rules.base import CharacterRecord, Confirmable, Outcome, RuleError, Table, Upload, add_field, fit, plain_error
from rules.runic.book import RunicBook
from rules.runic.cards import sheet_card
from rules.runic.gcs import MAX_GCS_BYTES, NAMES_BUDGET, GcsMage, parse_gcs
from rules.runic.mages import MageCreateOptions, new_sheet
from rules.runic.sheet import MageSheet, MagicItem
from rules.runic.skill import word_cap
from rules.text import TITLE, clip, fold, listing

RESERVE_ITEM = "Energy Reserve"
NAME_MAX = 60
TOO_LARGE = "A GCS character is far smaller: attach the `.gcs` file GCS saves, not an export or an archive."


class MageImportOptions(Confirmable):
    file: Annotated[str, Upload(max_bytes=MAX_GCS_BYTES, too_large=TOO_LARGE)] = Field(description="The .gcs file")
    name: str | None = Field(default=None, max_length=NAME_MAX, description="Name (default: the file's)")


class _Plan:
    """What the import will do: the new sheet, its name, whose mage it replaces, and the notes on the way."""

    def __init__(self, mage: GcsMage, name: str, sheet: MageSheet, replaces: CharacterRecord | None) -> None:
        self.mage, self.name, self.sheet, self.replaces = mage, name, sheet, replaces
        self.unplaced = list(mage.unplaced)  # then the Word caps' notes, then ``mage.others``


def _plan(table: Table, options: MageImportOptions, *, names: int | None = NAMES_BUDGET) -> _Plan:
    """Read, check and build, on the table given (a copy, for the question); ``names``: see ``parse_gcs``."""
    book: RunicBook = table.book
    mage = parse_gcs(options.file, book, names=names)
    name = " ".join((options.name or mage.name or "").split())
    if not name:
        raise RuleError("That file gives the character no name; give the mage one with `name:`.")
    if len(name) > NAME_MAX:
        raise RuleError(
            f"The file names the character {clip(name, 80)!r}, longer than {NAME_MAX} characters; "
            "give the mage a shorter name with `name:`."
        )
    existing = table.characters.get(name.casefold())
    if existing is not None and existing.owner_id != table.actor.user_id:
        raise RuleError(
            f"{existing.name} is another player's character here, so the import would not replace it. "
            "Give your mage another name with `name:`."
        )
    if mage.magery and mage.thaumatology is None and mage.symbol_drawing is None:
        raise RuleError(
            f"The file gives Magery {mage.magery} but neither Thaumatology nor Symbol Drawing, and a runic mage "
            "needs one of them before any Word. Add one in GCS and save the file again, or build the mage with "
            "`/runic mage create`."
        )
    try:
        create = MageCreateOptions(
            name=name,
            magery=mage.magery,
            iq=mage.iq,
            ht=mage.ht,
            will=mage.will,
            hp=mage.hp,
            fp=mage.fp,
            thaumatology=mage.thaumatology or 0,
            symbol_drawing=mage.symbol_drawing or 0,
            faster_casting=mage.faster_casting,
            age=mage.age,
        )
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]).replace("_", " ") if error.get("loc") else "a value"
        raise RuleError(
            f"The file's {field} {plain_error(error)} on a runic mage sheet; nothing was imported."
        ) from None
    sheet = new_sheet(create, book)
    plan = _Plan(mage, name, sheet, existing)
    cap = word_cap(sheet, book)
    for word, level in mage.words.items():
        if cap is None or not sheet.magery:
            plan.unplaced.append(f"{word} {level}: a mage without Magery cannot learn Words, so it was not placed.")
            continue
        if level > cap:
            plan.unplaced.append(
                f"{word} {level} is above the cap of {cap} (the higher of Thaumatology and Symbol Drawing, and "
                f"12 + Magery), so it was placed at {cap}."
            )
        sheet.words[word] = min(level, cap)
    plan.unplaced.extend(mage.others)
    sheet.cheaper_casting.update(mage.cheaper_casting)
    if mage.energy_reserve:
        reserve = mage.energy_reserve
        sheet.items[fold(RESERVE_ITEM)] = MagicItem(name=RESERVE_ITEM, mp=reserve, max_mp=reserve, recovery=reserve)
    return plan


def _read_lines(plan: _Plan) -> list[str]:
    lines = [line for line in plan.mage.read if not line.startswith("Words: ")]
    if plan.sheet.words:
        lines.append("Words: " + ", ".join(f"{w} {n}" for w, n in plan.sheet.words.items()))
    lines.append(f"MP {plan.sheet.mp_max} (20 per level of Magery)")
    return lines


def import_question(table: Table, options: MageImportOptions) -> str:
    """What Confirm will save, and what it could not place: everything is checked before anyone confirms."""
    plan = _plan(table, options)
    what = f"Import **{plan.name}** from GCS (format {plan.mage.version})"
    if plan.replaces is not None:
        what += f", replacing your mage {plan.replaces.name} and everything on that sheet"
    read = listing(_read_lines(plan), 1000)  # with what follows, well within an embed's 4,096
    unplaced = listing([clip(line, 400) for line in plan.unplaced], 2400) or "Nothing: everything was placed."
    return f"{what}?\n\n**Read**\n{read}\n\n**Not placed**\n{unplaced}\n"


def mage_import(table: Table, options: MageImportOptions) -> Outcome:
    plan = _plan(table, options)
    if plan.replaces is not None:
        record = plan.replaces
        record.sheet = plan.sheet
        verb = "replaced"
    else:
        record = table.add_character(table.actor.user_id, plan.name, plan.sheet)
        verb = "imported"
    card = sheet_card(record, table.book, reveal=False, campaign=table.state.spells)
    card.title = clip(f"Imported from GCS: {card.title}", TITLE)
    add_field(card, "Read from the file", _read_lines(plan))
    add_field(card, "Not placed", plan.unplaced or ["Nothing: everything in the file was placed."])
    summary = f"{table.actor.name} {verb} {record.name} from a GCS file (Magery {plan.sheet.magery})."
    data = {
        "mage": record.name,
        "replaced": plan.replaces is not None,
        "format": plan.mage.version,
        "read": _read_lines(plan),
        "not_placed": _plan(table, options, names=None).unplaced,  # every name, for the log
    }
    return Outcome(card=fit(card), summary=summary, data=data)
