"""Every JSON column is written by :func:`bot.storage.rows.dumps` (orjson, issue 23): the same values the standard
library writes, in the same text but for a float's notation (``0.00006103515625`` for ``6.103515625e-05``, both
exact), and the standard library's answer for what orjson refuses."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage.rows import dumps, dumps_text


def _standard(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


keys = st.one_of(st.text(), st.integers(min_value=-(2**63), max_value=2**63 - 1))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),  # every code point but lone surrogates, control characters included
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=30,
)


def _floats(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_floats(item) for item in value.values())
    return isinstance(value, list) and any(_floats(item) for item in value)


@given(values)
def test_dumps_writes_what_the_standard_library_writes(value: object) -> None:
    assert json.loads(dumps(value)) == json.loads(_standard(value))  # the same value, exactly
    if not _floats(value):
        assert dumps(value) == _standard(value)  # and the same text


@pytest.mark.parametrize(
    "value",
    [
        {"big": 2**80, "small": -(2**70)},  # past 64 bits: orjson refuses, the standard library writes it
        ["\ud800 a lone surrogate"],
        {1: "int key", "nested": [{2: 3}]},
        "NUL \x00 and \x1f and \u2028",
    ],
)
def test_what_orjson_refuses_or_writes_its_own_way_comes_out_as_before(value: object) -> None:
    assert dumps(value) == _standard(value)


def test_what_neither_can_write_still_raises() -> None:
    with pytest.raises(TypeError):
        dumps({"a set": {1, 2}})


def test_postgres_text_has_no_nul_either_way() -> None:
    assert dumps_text({"a": "x\x00y", "big": 2**80}) == _standard({"a": "x\ufffdy", "big": 2**80})
