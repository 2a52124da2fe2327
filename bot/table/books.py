"""Loads the book tables in ``data/`` and validates them at start-up.

Each ruleset's book is the merge of ``data/<id>/*.toml``, one top-level key per
file stem, validated by the ruleset's ``book_model``. A broken file stops
start-up with its file and row named, so a typo in a table never reaches play.

Parsing the TOML and building the book models' validators took a tenth of start-up, for the same answer each
time. So a folder keeps its validated book in ``__pycache__/``, as Python keeps bytecode (and only where Python
may write bytecode), under a key: the SHA-256 of every data file's bytes, of the source of the package that
defines the book model (and of ``rules``, whose base models it builds on; rules do no I/O, so that is all their
validators read) and of pydantic's version. A changed table or a changed model misses, so it is read and
validated again at that start, and a broken one still stops start-up naming its file and row.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import tomllib
from pathlib import Path
from typing import Any, TypeVar

import pydantic
import pydantic_core
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
    """Validate a ruleset's tables; errors name the file and the row. The same tables under the same model's code
    come from the cache, validated when they were written."""
    cache = cache_path(folder)
    writable = not sys.dont_write_bytecode
    key = _cache_key(model, folder) if writable or cache.exists() else None
    if key is not None:
        book = _read_cache(cache, key, model)
        if book is not None:
            return book
    tables = read_tables(folder)
    try:
        book = model.model_validate(tables)
    except ValidationError as exc:
        problems = [_describe(folder, error) for error in exc.errors()[:10]]
        raise BookError("broken book data:\n  " + "\n  ".join(problems)) from exc
    if key is not None and writable:
        _write_cache(cache, key, book)
    return book


CACHE_FORMAT = b"magister book cache 1"


def cache_path(folder: Path) -> Path:
    """Where a data folder's validated book is kept; pickle's output may change between Pythons, as bytecode does."""
    return folder / "__pycache__" / f"book.{sys.implementation.cache_tag}.pickle"


def _cache_key(model: type[BaseModel], folder: Path) -> bytes | None:
    """What the cached book was made from: the data files, the model's code, pydantic. None: the model's code
    cannot be found (a model made at run time), so nothing is cached."""
    code = _code_digest(tuple(sorted({model.__module__.split(".")[0], "rules"})))
    if code is None:
        return None
    key = hashlib.sha256(CACHE_FORMAT)
    key.update(f"{model.__module__}.{model.__qualname__} {pydantic.VERSION} {pydantic_core.__version__}".encode())
    key.update(code)
    for path in sorted(folder.glob("*.toml")):
        key.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return key.digest()


@functools.cache
def _code_digest(packages: tuple[str, ...]) -> bytes | None:
    """The SHA-256 of every Python file of these top-level packages (or modules), once per process."""
    digest = hashlib.sha256()
    for name in packages:
        module = sys.modules.get(name)
        if module is None:
            return None
        if hasattr(module, "__path__"):
            files = [(Path(root), path) for root in module.__path__ for path in sorted(Path(root).rglob("*.py"))]
        elif getattr(module, "__file__", None):
            files = [(Path(module.__file__).parent, Path(module.__file__))]
        else:
            return None
        for root, path in files:
            digest.update(f"{name}/{path.relative_to(root).as_posix()}".encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.digest()


def _read_cache(cache: Path, key: bytes, model: type[BookT]) -> BookT | None:
    """The book cached under ``key``, or None (no cache, another key, or a file that does not load)."""
    try:
        with cache.open("rb") as file:
            if file.read(len(key)) != key:
                return None
            book = pickle.load(file)
    except Exception:  # a damaged cache is only a cache: read the tables instead
        return None
    return book if type(book) is model else None


def _write_cache(cache: Path, key: bytes, book: BaseModel) -> None:
    """Best effort, as Python's bytecode cache: a read-only folder is only slower. Written whole to a file of its
    own, then renamed over the old one, so a reader never sees half of it."""
    temporary = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
    try:
        cache.parent.mkdir(exist_ok=True)
        temporary.write_bytes(key + pickle.dumps(book, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(temporary, cache)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        with contextlib.suppress(OSError):
            temporary.unlink()


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
