"""Hypothesis strategies for a slash command's options: what Discord's client lets a user send.

Shared by the fuzz of the shared commands (``tests/bot/test_fuzz_commands.py``) and the contract suite's fuzz of
every ruleset's actions (``tests/contract/test_fuzz.py``). Text options draw from the names a table knows half the
time (most commands do nothing without one), so each fuzz says which names: the shared one a fixed list, the
contract one the values its ruleset's first session typed.

``MAGISTER_FUZZ_EXAMPLES`` sets how many examples each command gets (README: a longer run).
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from hypothesis import strategies as st

LIBRARY_TEXT = re.compile(r"Input should|validation error|pydantic|_WS|LPAR|\bINTEGER\b|errors\.pydantic")
OPTION_TYPE = discord.AppCommandOptionType
PUNCTUATION = list("[]{}\"':,;-0123456789 dDxX")
TOO_LONG = "x" * 2100  # over any option's length and Discord's 2,000 characters of content


def examples(default: int) -> int:
    """Examples per command: ``MAGISTER_FUZZ_EXAMPLES``, or the fuzz's own default."""
    return int(os.environ.get("MAGISTER_FUZZ_EXAMPLES", str(default)))


def texts(known: Iterable[str]) -> st.SearchStrategy[str]:
    """Any text, and half the time a name the table knows (or one of them spaced and cased as a player might)."""
    names = list(dict.fromkeys(name for name in known if name))
    odd = [f"  {name.casefold()} " for name in names[:3]]
    named = st.sampled_from([*names, *odd, TOO_LONG])
    return st.one_of(named, st.text(max_size=30), named, st.text(st.sampled_from(PUNCTUATION), max_size=40))


def leaves(tree: app_commands.CommandTree, under: str | None = None) -> list[app_commands.Command]:
    """Every slash command a user can run; with ``under``, only that top-level command's."""
    found: list[app_commands.Command] = []
    for top in tree.get_commands(type=discord.AppCommandType.chat_input):
        if under is not None and top.name != under:
            continue
        if isinstance(top, app_commands.Group):
            found += [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            found.append(top)
    return found


def values(parameter: app_commands.Parameter, text: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Values of the option's type within its bounds: what Discord's client lets a user send."""
    if parameter.choices:
        return st.sampled_from([choice.value for choice in parameter.choices])
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is OPTION_TYPE.integer:
        low = -(10**6) if low is None else int(low)
        high = 10**6 if high is None else int(high)
        return st.one_of(st.integers(low, high), st.sampled_from([low, high, max(low, min(high, 0))]))
    if kind is OPTION_TYPE.number:
        return st.floats(low if low is not None else -1e6, high if high is not None else 1e6, allow_nan=False)
    if kind is OPTION_TYPE.boolean:
        return st.booleans()
    if kind is OPTION_TYPE.string:
        shortest, longest = int(low or 0), int(high or 6000)
        return text.map(lambda typed: (typed * (1 + shortest // max(1, len(typed) or 1)))[:longest]).filter(
            lambda typed: len(typed) >= shortest
        )
    if kind is OPTION_TYPE.user:
        return st.sampled_from(["Pat", "Oz", "Gwen"])
    if kind is OPTION_TYPE.role:
        return st.sampled_from(["players", "everyone"])
    if kind is OPTION_TYPE.attachment:  # (file name, bytes), as the console uploads a file
        body = st.one_of(st.binary(max_size=2000), text.map(str.encode), st.just(b'{"format":"magister-campaign/2"}'))
        return st.tuples(st.sampled_from(["export.json", "export.json.gz", "notes.txt"]), body)
    return st.nothing()


@st.composite
def invocations(
    draw: st.DrawFn, command: app_commands.Command, text: st.SearchStrategy[str]
) -> tuple[dict[str, Any], str | None]:
    """Options for one use of ``command`` (every required one, any optional one), and now and then an option being
    typed, for autocomplete (``focused``)."""
    options: dict[str, Any] = {}
    for parameter in command.parameters:
        if parameter.required or draw(st.booleans()):
            options[parameter.name] = draw(values(parameter, text))
    completing = [p.name for p in command.parameters if p.autocomplete and p.type is OPTION_TYPE.string]
    focused = draw(st.sampled_from(completing)) if completing and draw(st.integers(0, 3)) == 0 else None
    if focused is not None:
        options.setdefault(focused, draw(text.map(lambda typed: typed[:100])))
    return options, focused


def typed_values(lines: Iterable[str]) -> list[str]:
    """The option values a console script typed (``name:Merlin`` → Merlin; a list's items too) and whom it acted as."""
    found: list[str] = []
    for line in lines:
        if line.startswith("@as "):
            found.append(line.removeprefix("@as ").strip())
            continue
        if not line.startswith("/"):
            continue
        try:
            tokens = shlex.split(line)
        except ValueError:
            continue
        for token in tokens:
            name, colon, value = token.partition(":")
            if colon and name.isidentifier() and value:
                found.append(value)
                found += [part.strip() for part in re.split(r"[,;]", value) if part.strip() and part.strip() != value]
    return list(dict.fromkeys(found))
