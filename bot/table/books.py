"""Loads the book tables in ``data/`` and validates them at start-up.

Each ruleset's book is the merge of ``data/<id>/*.toml``, one top-level key per
file stem, validated by the ruleset's ``book_model``. A broken file stops
start-up with its file and row named, so a typo in a table never reaches play.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

BookT = TypeVar("BookT", bound=BaseModel)

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class BookError(Exception):
    """A data file is missing, unreadable or does not match its model."""


def read_tables(folder: Path) -> dict[str, Any]:
    """Every ``*.toml`` in ``folder`` as ``{file stem: parsed contents}``."""
    if not folder.is_dir():
        raise BookError(f"{folder}: the data folder is missing")
    tables: dict[str, Any] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            tables[path.stem] = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise BookError(f"{_relative(path)}: not valid TOML: {exc}") from exc
    return tables


def load_book(model: type[BookT], folder: Path) -> BookT:
    """Validate a ruleset's tables; errors name the file and the row."""
    tables = read_tables(folder)
    try:
        return model.model_validate(tables)
    except ValidationError as exc:
        problems = [_describe(folder, error) for error in exc.errors()[:10]]
        raise BookError("broken book data:\n  " + "\n  ".join(problems)) from exc


def _describe(folder: Path, error: Any) -> str:
    location = list(error["loc"])
    stem = location.pop(0) if location else "?"
    where = []
    for part in location:
        if isinstance(part, int):
            where.append(f"row {part + 1}")
        else:
            where.append(str(part))
    place = " / ".join(where) or "the whole file"
    return f"{_relative(folder / f'{stem}.toml')}: {place}: {error['msg']}"


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(DATA_DIR.parent))
    except ValueError:
        return str(path)
