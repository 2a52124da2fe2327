"""Check 3: the examples a player is shown run.

Two kinds of example:

- **A getting-started card** (``/help command:<ruleset>``, and the reply to ``/campaign start``) is a walk
  through a new campaign. Its commands run in order, as the campaign's GM, in a fresh campaign of that ruleset.
  A command with a placeholder (``<place>``, ``...``) cannot be typed as written, and a bare mention of a command
  that needs options (``/realm cast``) is a pointer, not an example: both are skipped (check 1 proves they
  exist). Every other command must run.
- **A /help example** (``/help command:"saga attack"``) is run where a scenario of ``tests/scenarios`` ran the
  same command: the example's own options, each with the scenario's value where the scenario gave one (a real
  spell for ``spell:<spell>``), plus the character the scenario acted through. It must run there at least once:
  an example that no situation accepts (``/saga attack`` names no item) is wrong.
"""

from __future__ import annotations

import pytest

from tests.contract.conftest import EVERY_OWNER
from tests.contract.support import (
    PLACEHOLDER,
    RULESET_IDS,
    Attempt,
    Tree,
    command_refs,
    getting_started,
    probed,
    run_lines,
    scenarios,
)

# Cards a later issue rewrites; each fails for the reason given, and strict: a card that runs must leave this list.
CARD_FAILS = {
    "awakened": "its first command, `/awakened mage create`, lacks the required ruling:, inferior: and resistance:",
    "realm": "`/realm resolve` meets no combat: the card's `/realm combat start` names no clearing: or order:",
    "saga": "`/saga continue` comes at step 3: the card's `/saga move to:<place>` names no real place to move to",
    "serpent": "`/serpent battle round` needs two sides: the card has one Magi join and adds no Encounter",
}


def card_lines(ruleset: str, tree: Tree) -> list[str]:
    """The commands of a getting-started card a player could type as written, in order."""
    lines = []
    for step in getting_started(ruleset):
        for ref in command_refs(step):
            if not ref.backticked:
                continue
            name = " ".join(ref.path)
            leaf = tree.leaves.get(name)
            if leaf is None or any(PLACEHOLDER.match(token) for token in ref.text.split()[len(ref.path) :]):
                continue
            if not ref.options and any(p.required for p in leaf.params.values()):
                continue  # a pointer to the command, not an example of it
            lines.append(ref.text)
    return lines


@pytest.mark.parametrize(
    "ruleset",
    [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=CARD_FAILS[r])) if r in CARD_FAILS else r
     for r in RULESET_IDS],
)  # fmt: skip
def test_a_getting_started_card_runs_in_a_fresh_campaign(ruleset: str, tree: Tree) -> None:
    lines = card_lines(ruleset, tree)
    assert lines, f"{ruleset}'s card shows no command to type"
    results = run_lines([f'/campaign start ruleset:{ruleset} name:"Getting started"', *lines])
    assert results[0].ok, results[0].text
    for line, result in zip(lines, results[1:], strict=True):
        assert result.ok, f"{line}\n-> {result.text}"


def attempts_of(owner: str, tree: Tree) -> dict[str, list[Attempt]]:
    """Every try of an example of ``owner``'s commands, in every scenario, by command."""
    found: dict[str, list[Attempt]] = {}
    for scenario in scenarios():
        for attempt in probed(scenario.name):
            if tree.leaves[attempt.command].owner == owner:
                found.setdefault(attempt.command, []).append(attempt)
    return found


# Examples that are right although every scenario use of their command needed more: each says why. Strict too: an
# example that comes to run where a scenario uses it must leave this list.
SITUATIONAL = {
    "awakened spell refresh": "the scenario's Storm costs more than Gnosis 3 spends; a cheaper spell refreshes so",
    "awakened oblation": "a mage without a Legacy names a Hallow and one with a Legacy must not: no one example fits",
    "campaign export": "the walkthrough exports an ended campaign (`archived:`); a live one exports as shown",
}


@EVERY_OWNER
def test_every_help_example_runs_where_its_command_does(owner: str, tree: Tree) -> None:
    wrong, refused = [], set()
    for command, attempts in attempts_of(owner, tree).items():
        judged = [a for a in attempts if a.use_ok]
        if judged and not any(a.ok for a in judged):
            refused.add(command)
            if command not in SITUATIONAL:
                first = judged[0]
                wrong.append(
                    f"{tree.leaves[command].example}: as `{first.tried}` where `{first.use}` ran -> {first.said}"
                )
    stale = [c for c in SITUATIONAL if tree.leaves[c].owner == owner and c not in refused]
    assert not wrong, "\n".join(wrong)
    assert not stale, f"these examples run where their scenarios use them now; take them off SITUATIONAL: {stale}"
