"""Every built-in ruleset has a first session (``Ruleset.first_session``) and help examples
(``Ruleset.help_examples``), and ``/help command:"<id> <action>"`` shows the ruleset's own example.

That every line of a first session runs, that every help example is one of its lines and that the getting-started
card shows its commands in its order is the contract suite's to check, for every ruleset the guide's sixth
included (``tests/contract/test_examples_run.py``)."""

from __future__ import annotations

import pytest

from bot.table.registry import discover_rulesets
from tests.conftest import Console

RULESETS = {ruleset.id: ruleset for ruleset in discover_rulesets()}


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_built_in_ruleset_has_a_first_session_and_examples(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    assert ruleset.first_session and ruleset.getting_started and len(ruleset.help_examples) >= 5


async def test_help_shows_the_rulesets_example(console: Console) -> None:
    attack = await console.ok('/help command:"saga attack"')
    assert attack["data"]["example"] == '/saga attack item:"Sample Iron Spear" enemy:"Sample Marsh Wisp"'
    cast = await console.ok('/help command:"serpent battle round"')
    assert cast["data"]["example"] == RULESETS["serpent"].help_examples["battle round"]
    generated = await console.ok('/help command:"saga win"')  # no example of its own: one built from its options
    assert generated["data"]["example"].startswith("/saga win")
