"""Whatever a user types, the console answers with a result or a clear error, never a bug."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.table.expressions import roll_expression
from rules.base import RuleError
from tests.support.loop_console import LoopConsole

DICE_ALPHABET = st.sampled_from(list("0123456789d+-*/()khlmiroe%<>=[] ,."))


@settings(max_examples=400, deadline=None)
@given(st.text(DICE_ALPHABET, max_size=40) | st.text(max_size=30))
def test_any_expression_rolls_or_says_why(expression: str) -> None:
    try:
        outcome = roll_expression(expression, random.Random(0))
    except RuleError as error:
        assert str(error)
        assert "Traceback" not in str(error)
    else:
        assert len(outcome.card.description) <= 4096
        assert all(isinstance(d, int) for d in outcome.data["dice"])


OPTION_VALUES = st.text(st.characters(blacklist_categories=["Cs"]), max_size=25)
COMMANDS = st.sampled_from(
    [
        "/roll expression:",
        "/roll expression:1d6 label:",
        "/roll expression:1d6 secret:",
        "/campaign log page:",
        "/campaign settings key:step value:",
        "/character show name:",
        "/tally add name:",
        "/campaign gm add member:",
        "/campaign start ruleset:",
        "@as ",
        "@press ",
        "/",
    ]
)


def test_console_lines_never_crash(tmp_path: Path, registry) -> None:
    console = LoopConsole(
        tmp_path / "fuzz.sqlite3",
        registry,
        setup=["/campaign start ruleset:tally name:Fuzz", "/tally create name:Pip"],
    )
    try:

        @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
        @given(COMMANDS, OPTION_VALUES)
        def check(command: str, value: str) -> None:
            quoted = '"' + value.replace('"', "") + '"' if " " in value else value
            result = console.run(command + quoted)
            if result is None:
                return
            assert "incident" not in result.extra, (command, value, result.text)
            assert result.text
            assert "Traceback" not in result.text

        check()
    finally:
        console.close()
