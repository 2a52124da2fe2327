"""The export's streaming reader (bot/table/jsonstream.py) reads what json.loads reads, a chunk at a time.

Every document is read with chunks from one byte up, so each value is cut at every place a chunk can end: a
number cut in two must not be read as a shorter number, a string must not end early, a UTF-8 character cut
between two chunks must come back whole.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.table.jsonstream import JsonStream, JsonStreamError, NotAnObjectError


def read(text: str | bytes, chunk: int, streamed: frozenset[str] = frozenset({"events"}), **kwargs: Any) -> dict:
    """The document as the stream hands it out, streamed arrays gathered into lists."""
    body = text.encode() if isinstance(text, str) else text
    stream = JsonStream(io.BytesIO(body), max_item=kwargs.pop("max_item", 1 << 20), chunk=chunk, **kwargs)
    found: dict[str, Any] = {}
    for key, value in stream.members(streamed):
        found[key] = list(value) if key in streamed and not isinstance(value, (dict, str, int, float)) else value
    return found


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4)
)


@settings(max_examples=150, deadline=None)
@given(
    document=st.dictionaries(st.text(), VALUES, max_size=5),
    events=st.lists(VALUES, max_size=6),
    chunk=st.integers(1, 64),
    indent=st.sampled_from([None, 0, 2]),
    ascii_only=st.booleans(),
)
def test_it_reads_what_json_loads_reads(document, events, chunk, indent, ascii_only) -> None:
    whole = {**document, "events": events}
    text = json.dumps(whole, indent=indent, ensure_ascii=ascii_only)
    assert read(text, chunk) == json.loads(text)


def test_numbers_cut_at_a_chunk_s_end_are_read_whole() -> None:
    text = '{"a": 123456789, "events": [1.5e3, -0.25, 100000000000000000000, 7], "b": 42}'
    for chunk in range(1, len(text) + 1):
        assert read(text, chunk) == json.loads(text), chunk


def test_multi_byte_characters_cut_between_chunks_come_back_whole() -> None:
    text = '{"name": "Ælfgifu 🐉 Þórr", "events": ["🎲🎲", "ñ"]}'
    for chunk in range(1, 12):
        assert read(text, chunk) == json.loads(text)
    assert read(b"\xef\xbb\xbf" + text.encode(), 3) == json.loads(text)  # a BOM


def test_each_item_s_text_is_handed_out_with_it() -> None:
    stream = JsonStream(io.BytesIO(b'{"events": [ {"a": [1, 2]} ,  "x" , 3 ]}'), max_item=100, chunk=2)
    seen = []
    for _, items in stream.members(frozenset({"events"})):
        seen.extend((item, stream.last_text) for item in items)
    assert seen == [({"a": [1, 2]}, '{"a": [1, 2]}'), ("x", '"x"'), (3, "3")]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"a": 1} x', "syntax"),  # something after the document
        ('{"a": 1,}', "syntax"),
        ('{"a" 1}', "syntax"),
        ('{"a": 1 "b": 2}', "syntax"),
        ('{"events": [1 2]}', "syntax"),
        ('{"events": [1,]}', "syntax"),
        ('{"events": [1, 2', "syntax"),  # cut short
        ('{"a": "never ends', "syntax"),
        ("my campaign notes", "syntax"),
        ('{"a": "' + "x" * 500 + '"}', "large"),
        ('{"events": ["' + "x" * 500 + '"]}', "large"),
    ],
)
def test_what_is_not_json_or_too_large_is_said_so(text: str, kind: str) -> None:
    with pytest.raises(JsonStreamError) as raised:
        read(text, 7, max_item=200)
    assert raised.value.kind == kind and not isinstance(raised.value, NotAnObjectError)


def test_nesting_deeper_than_the_decoder_goes_is_said_so() -> None:
    with pytest.raises(JsonStreamError) as raised:
        read('{"a": ' + "[" * 5000 + "]" * 5000 + "}", 64, max_item=100_000)
    assert raised.value.kind == "deep"


@pytest.mark.parametrize("text", ["[]", "null", '"magister-campaign/2"', " 42 ", "[[1], {}]"])
def test_json_that_is_not_an_object_is_told_apart_from_what_is_not_json(text: str) -> None:
    with pytest.raises(NotAnObjectError):
        read(text, 3)


def test_bad_utf8_is_not_json() -> None:
    with pytest.raises(JsonStreamError):
        read(b'{"a": "\xff\xfe"}', 4)
    with pytest.raises(JsonStreamError):
        read(json.dumps({"a": 1}).encode("utf-16"), 4)


def test_a_streamed_array_left_early_is_skipped_to_the_next_member() -> None:
    stream = JsonStream(io.BytesIO(b'{"events": [1, 2, 3], "after": true}'), max_item=100, chunk=4)
    members = stream.members(frozenset({"events"}))
    key, items = next(members)
    assert key == "events" and next(items) == 1
    assert next(members) == ("after", True)


def test_the_decoder_s_refusals_pass_through() -> None:
    class RefusedError(Exception):
        pass

    def no_constants(name: str) -> float:
        raise RefusedError(name)

    strict = json.JSONDecoder(parse_constant=no_constants)
    with pytest.raises(RefusedError, match="NaN"):
        read('{"events": [1, NaN]}', 5, decoder=strict)
    assert read('{"events": [1, NaN]}', 5)["events"][1] != 0  # the default decoder reads it (as nan)
