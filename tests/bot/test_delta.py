"""Reverse deltas rebuild exactly the state before an action, and stay small."""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from bot.table.delta import apply_delta, reverse_delta

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=20,
)


@given(JSON, JSON)
def test_apply_rebuilds_before(before, after) -> None:
    ops = reverse_delta(before, after)
    json.dumps(ops)  # storable as JSON
    assert apply_delta(copy.deepcopy(after), ops) == before


def test_only_the_changed_part_is_kept() -> None:
    big = {f"being{i}": {"essence": 12, "log": ["x" * 100] * 10} for i in range(20)}
    after = copy.deepcopy(big)
    after["being3"]["essence"] = 9
    after["new"] = 1
    del after["being4"]
    ops = reverse_delta(big, after)
    assert [["being3", "essence"], 12] in ops
    assert [["new"]] in ops
    assert len(json.dumps(ops)) < len(json.dumps(big)) / 10
    assert apply_delta(after, ops) == big


def test_changes_overlap_only_at_or_under_each_others_paths() -> None:
    from bot.table.service import overlaps, touched

    a = touched({"state_delta": [[["battle", "magi", "White", "essence"], 7]], "characters": []})
    sibling = touched({"state_delta": [[["battle", "magi", "Black", "essence"], 7]]})
    parent = touched({"state_delta": [[["battle"], {}]]})
    same_character = touched({"state_delta": [], "characters": [{"name": "Pip", "before": None}]})
    pip = touched({"characters": [{"name": "pip", "before": {"owner_id": 1, "sheet": {}}}]})
    assert not overlaps(a, sibling)
    assert overlaps(a, parent) and overlaps(parent, sibling)
    assert overlaps(same_character, pip) and not overlaps(a, pip)
    assert overlaps(touched({"row": {}}), touched({"row": {}}))
