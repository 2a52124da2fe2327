"""Every ruleset's first session (``Ruleset.first_session``) plays through the console line by line, and every help
example (``Ruleset.help_examples``) is one of its lines, so ``/help command:"<id> <action>"`` shows a command that
runs."""

from __future__ import annotations

import pytest

from bot.adapter.help import command_path
from bot.table.registry import discover_rulesets
from tests.conftest import Console

RULESETS = {ruleset.id: ruleset for ruleset in discover_rulesets()}


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
async def test_the_first_session_runs_and_holds_every_help_example(console: Console, ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    for line in ruleset.first_session:
        await console.ok(line)
    played = set(ruleset.first_session)
    for action, typed in ruleset.help_examples.items():
        assert action in ruleset.actions, action
        group, name = command_path(action)
        assert typed.startswith("/" + " ".join(p for p in (ruleset.id, group, name) if p) + " ") or typed == (
            "/" + " ".join(p for p in (ruleset.id, group, name) if p)
        ), typed
        if ruleset.first_session:
            assert typed in played, f"{typed} is not a line of the first session, so nothing shows it runs"


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_built_in_ruleset_has_a_first_session_and_examples(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    assert ruleset.first_session and len(ruleset.help_examples) >= 5


async def test_help_shows_the_rulesets_example(console: Console) -> None:
    attack = await console.ok('/help command:"saga attack"')
    assert attack["data"]["example"] == '/saga attack item:"Sample Iron Spear" enemy:"Sample Marsh Wisp"'
    cast = await console.ok('/help command:"serpent battle round"')
    assert cast["data"]["example"] == RULESETS["serpent"].help_examples["battle round"]
    generated = await console.ok('/help command:"saga win"')  # no example of its own: one built from its options
    assert generated["data"]["example"].startswith("/saga win")
