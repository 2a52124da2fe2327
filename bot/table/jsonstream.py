"""One JSON document read in pieces, in bounded memory: a campaign export's events one at a time.

The standard library's ``json`` decodes whole texts only, and a long campaign's export runs to hundreds of
megabytes. :class:`JsonStream` reads the top-level object from a binary stream a chunk at a time and hands out
its members one by one; an array the caller names (the events) is handed out item by item. Each item is
decoded by ``json``'s own C decoder (``raw_decode``), so what is accepted is exactly what ``json.loads`` accepts,
and no single call holds the interpreter for long: a worker thread doing this leaves the event loop free.
Memory is one chunk plus the largest single item, never the document.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

CHUNK = 1 << 20  # bytes read at a time
_SPACE = re.compile(r"[ \t\n\r]*")


class JsonStreamError(ValueError):
    """The text is not JSON (``kind`` "syntax"), nests deeper than the decoder goes ("deep"), or one part of it
    is larger than allowed ("large")."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class NotAnObjectError(JsonStreamError):
    """The text is JSON, but not an object: no document of members."""

    def __init__(self) -> None:
        super().__init__("not an object")


class JsonStream:
    """The members of the JSON object ``source`` holds (UTF-8, a BOM allowed), read a chunk at a time.

    ``max_item`` bounds the characters of any one member's value or streamed item: a larger one raises
    :class:`JsonStreamError` ("large") rather than fill memory. ``decoder`` decodes each value (its hooks may
    refuse what they meet with any exception that is not a ValueError). Errors of the source itself (a damaged
    gzip stream) propagate as they are.
    """

    def __init__(
        self, source: BinaryIO, *, max_item: int, chunk: int = CHUNK, decoder: json.JSONDecoder | None = None
    ) -> None:
        self._source = source
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self._json = decoder or json.JSONDecoder()
        self._text = ""
        self._pos = 0
        self._eof = False
        self._max = max_item
        self._chunk = chunk
        self._last = (0, 0)

    @property
    def last_text(self) -> str:
        """The JSON text of the value handed out last (read it before asking for the next)."""
        return self._text[self._last[0] : self._last[1]]

    # ------------------------------------------------------------------ reading

    def _more(self, at_least: int = 0) -> bool:
        """Append the next piece of text (what was read is dropped: positions start again from 0); False, with
        nothing moved, at the end of the input."""
        while not self._eof:
            raw = self._source.read(max(self._chunk, at_least))
            try:
                text = self._decoder.decode(raw, final=not raw)
            except UnicodeDecodeError:
                raise JsonStreamError("syntax") from None
            self._eof = not raw
            if text:
                self._text = self._text[self._pos :] + text
                self._pos = 0
                return True
        return False

    def _char(self) -> str:
        """The next character that is not white space ("" at the end); the position moves to it."""
        while True:
            self._pos = _SPACE.match(self._text, self._pos).end()  # type: ignore[union-attr]
            if self._pos < len(self._text):
                return self._text[self._pos]
            if not self._more():
                return ""

    def _expect(self, wanted: str) -> None:
        if self._char() != wanted:
            raise JsonStreamError("syntax")
        self._pos += 1

    def _value(self) -> Any:
        """Decode the value at the position, reading more text while it may be cut off by the chunk's end."""
        self._char()
        while True:
            held = len(self._text) - self._pos
            try:
                value, end = self._json.raw_decode(self._text, self._pos)
            except RecursionError:  # deeper than any cut could explain
                raise JsonStreamError("deep") from None
            except ValueError:  # cut off, or not JSON: more text tells which
                if held > self._max:
                    raise JsonStreamError("large") from None
                if not self._more(held):
                    raise JsonStreamError("syntax") from None
                continue
            # a number the chunk cut may go on: "12" of "125", "1.5" of "1.5e3" (the "e" left over), "1" of "1.5"
            if len(self._text) - end <= 2 and self._more(held):
                continue
            if end - self._pos > self._max:
                raise JsonStreamError("large")
            self._last = (self._pos, end)
            self._pos = end
            return value

    # ------------------------------------------------------------------ structure

    def members(self, streamed: frozenset[str] = frozenset()) -> Iterator[tuple[str, Any]]:
        """Each member as (key, value), in the file's order. A member named in ``streamed`` whose value is an
        array comes as (key, iterator of its items): consume it before asking for the next member (what is left
        of it is skipped). After the last member, only white space may follow."""
        if self._char() != "{":
            self._value()  # JSON, or not JSON at all?
            if self._char() != "":
                raise JsonStreamError("syntax")
            raise NotAnObjectError()
        self._pos += 1
        first = True
        while True:
            found = self._char()
            if found == "}":
                self._pos += 1
                break
            if not first:
                if found != ",":
                    raise JsonStreamError("syntax")
                self._pos += 1
                found = self._char()
            if found != '"':
                raise JsonStreamError("syntax")
            key = self._value()
            self._expect(":")
            if key in streamed and self._char() == "[":
                self._pos += 1
                items = self._items()
                yield key, items
                for _ in items:  # the caller stopped early: skip the rest
                    pass
            else:
                yield key, self._value()
            first = False
        if self._char() != "":
            raise JsonStreamError("syntax")

    def _items(self) -> Iterator[Any]:
        first = True
        while True:
            found = self._char()
            if found == "]":
                self._pos += 1
                return
            if not first:
                if found != ",":
                    raise JsonStreamError("syntax")
                self._pos += 1
            yield self._value()
            first = False
