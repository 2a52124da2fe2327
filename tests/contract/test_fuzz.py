"""Check 6: every action of every ruleset answers any options Discord's client would send, and pings no one it
should not.

For each ruleset, the table is set up by playing its ``first_session`` (so a new ruleset needs no setup written
here), then every command of its ``/<id>`` group gets hypothesis's options of each option's type and bounds
(``tests/support/fuzz.py``; text half the time from the values the first session typed), through the real command
tree, as the GM or either of two players, in the campaign's channel or in one with no campaign. Now and then an
option is being typed instead, and autocomplete must offer at most 25 choices. Every answer must be:

- no incident, no traceback, no library text (pydantic's, the parser's): words a player can read;
- within Discord's limits: the virtual Discord refuses an over-limit payload with a 400, as Discord does, and the
  bot's error handler turns that into an incident;
- no unwanted mention: a message whose ``allowed_mentions`` permits a user ping (or whose content mentions a user
  and whose ``allowed_mentions`` would let it ping) pings only users the table now waits on (its stored waits,
  ``docs/play-by-post.md``), never a role, never everyone.

``MAGISTER_FUZZ_EXAMPLES`` examples per command (default small, for CI's time; README gives a longer run).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.contract.conftest import EVERY_RULESET
from tests.contract.support import FuzzTable, Sent, unwanted_pings
from tests.support.fuzz import LIBRARY_TEXT, examples, invocations, texts

EXAMPLES = examples(20)


@EVERY_RULESET
def test_every_action_answers_any_options_and_pings_only_whom_the_table_waits_on(ruleset: str, tmp_path: Path) -> None:
    table = FuzzTable(ruleset, tmp_path)
    try:
        commands = table.commands()
        assert commands, f"/{ruleset} has no commands"
        text = texts(table.known())
        for command in commands:
            fuzz(table, command.qualified_name.split(), invocations(command, text))
    finally:
        table.close()


def fuzz(table: FuzzTable, path: list[str], options: st.SearchStrategy[tuple[dict[str, Any], str | None]]) -> None:
    """One command's own hypothesis run."""
    name = " ".join(path)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(options, st.sampled_from(table.people()), st.sampled_from([False, False, False, True]))
    def check(invocation: tuple[dict[str, Any], str | None], who: str, elsewhere: bool) -> None:
        typed, focused = invocation
        if focused is not None:
            assert len(table.complete(path, typed, focused, who, elsewhere)) <= 25
            return
        answer = table.send(path, typed, who, elsewhere)
        said = answer.result.text
        assert "incident" not in answer.result.extra, (name, who, typed, said)
        assert said and "Traceback" not in said, (name, who, typed, said)
        assert not LIBRARY_TEXT.search(said), (name, who, typed, said)
        assert not unwanted_pings(answer.messages, answer.waited), (name, who, typed, unwanted_pings(
            answer.messages, answer.waited
        ))  # fmt: skip

    check()


def test_the_mention_check_knows_a_ping_from_a_name() -> None:
    def said(content: str, allowed: dict | None) -> list[Sent]:
        return [Sent("message", 1, content=content, allowed_mentions=allowed)]

    waits_on_5 = frozenset({5})
    assert unwanted_pings(said("<@5> **Pat**: your turn", {"parse": [], "users": ["5"]}), waits_on_5) == []
    assert unwanted_pings(said("<@6> is named, not pinged", {"parse": []}), waits_on_5) == []
    assert unwanted_pings(said("no mention at all", None), frozenset()) == []
    for content, allowed in (
        ("<@5> your turn", {"parse": [], "users": ["5", "6"]}),  # permits one the table does not wait on
        ("<@6> a sheet naming someone", None),  # no allowed_mentions: Discord pings every mention
        ("<@!6> a sheet naming someone", {"parse": ["users"]}),
        ("<@&9> players", {"parse": [], "roles": ["9"]}),
        ("@everyone", {"parse": ["everyone"]}),
    ):
        assert unwanted_pings(said(content, allowed), waits_on_5), (content, allowed)
