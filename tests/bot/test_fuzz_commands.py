"""Every shared command, with any input Discord's client would send, answers without an incident.

The fuzzer walks the real command tree's shared commands (``/campaign``, ``/character``, ``/roll``, ``/help``...),
builds option values of each option's type and bounds (``tests/support/fuzz.py``), and sends them as the GM or a
player, in a channel running each ruleset (set up by playing that ruleset's first session) and in one with no
campaign. It also asks for autocomplete on every option that offers it. The virtual Discord refuses any payload
over Discord's limits with a 400, as Discord does, so an over-long reply is caught here too.

Every ruleset's own ``/<id>`` commands are fuzzed by the contract suite (``tests/contract/test_fuzz.py``), the
guide's sixth ruleset included. Each command gets ``MAGISTER_FUZZ_EXAMPLES`` examples of its own (default 25 in
CI); the README gives a longer run.
"""

from __future__ import annotations

from pathlib import Path

from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.table.registry import Registry, discover_rulesets
from tests.support.fuzz import LIBRARY_TEXT, examples, invocations, leaves, texts, typed_values
from tests.support.loop_console import LoopConsole

EXAMPLES = examples(25)
NO_CAMPAIGN = 2999
NAMES = ("Merlin", "Pat", "Oz", "Gwen", "Fireball", "sample", "blue red", "1d6+2", "3d6")


def _fuzz(console: LoopConsole, command: app_commands.Command, channels: list[int], text: st.SearchStrategy) -> None:
    """One command's own hypothesis run: any values, any of three people, any ruleset's channel or none."""
    path = command.qualified_name.split()

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(invocations(command, text), st.sampled_from(["@gm", "@as Pat", "@as Oz"]), st.sampled_from(channels))
    def check(invocation: tuple[dict, str | None], who: str, channel: int) -> None:
        options, focused = invocation
        console.run(f"@channel {channel}")
        console.run(who)
        if focused is not None:
            choices = console.call(console.table.autocomplete(path, options, focused))
            assert len(choices) <= 25
            return
        result = console.call(console.table.run_command(path, options))
        assert "incident" not in result.extra, (command.qualified_name, options, result.text)
        assert result.text, (command.qualified_name, options)
        assert "Traceback" not in result.text
        assert not LIBRARY_TEXT.search(result.text), (command.qualified_name, options, result.text)

    check()


def test_every_shared_command_answers_any_input_without_an_incident(tmp_path: Path, registry: Registry) -> None:
    lines: list[str] = []
    channels = [NO_CAMPAIGN]
    for index, ruleset in enumerate(discover_rulesets()):
        channels.append(3000 + index)
        lines += [f"@channel {channels[-1]}", *ruleset.first_session]
    console = LoopConsole(tmp_path / "fuzz-shared.sqlite3", registry, setup=lines)
    text = texts([*NAMES, *typed_values(lines)])
    try:
        shared = [
            c for c in leaves(console.table.virtual.tree) if c.root_parent is None or c.root_parent.name not in registry
        ]
        assert {"campaign start", "roll", "help"} <= {c.qualified_name for c in shared}
        for command in shared:
            _fuzz(console, command, channels, text)
    finally:
        console.close()
