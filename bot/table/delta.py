"""Reverse deltas: what an undo needs to put back, and nothing else.

A log entry keeps the parts of the state an action changed, as they were
before it, so a campaign that runs for months does not store its whole state
once per event. Dicts are compared key by key; any other changed value
(a list, a number) is kept whole.
"""

from __future__ import annotations

from typing import Any

Op = list[Any]  # [path, value] puts value back at path; [path] deletes what the action added


def reverse_delta(before: Any, after: Any, path: tuple[str, ...] = ()) -> list[Op]:
    """The operations that turn ``after`` back into ``before``."""
    if isinstance(before, dict) and isinstance(after, dict):
        ops: list[Op] = []
        for key in after.keys() - before.keys():
            ops.append([[*path, key]])
        for key, value in before.items():
            if key not in after:
                ops.append([[*path, key], value])
            elif value != after[key]:
                ops.extend(reverse_delta(value, after[key], (*path, key)))
        return ops
    return [] if before == after else [[list(path), before]]


def apply_delta(after: Any, ops: list[Op]) -> Any:
    """``before``, rebuilt from ``after`` and :func:`reverse_delta`'s operations."""
    for op in ops:
        path = op[0]
        if not path:
            after = op[1]
            continue
        parent = after
        for key in path[:-1]:
            parent = parent[key]
        if len(op) == 1:
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = op[1]
    return after
