"""Bad inputs at the console table: a clear error, only to the one who typed it, and nothing changes (issue 5).

Each refused line is compared with ``/serpent battle board`` before and after,
and with the campaign state as stored in SQLite. A hypothesis fuzz then throws
arbitrary option values at every ``/serpent`` command in the middle of a battle:
whatever happens, it is an answer or a clear error, never an incident.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.table.service import Place
from tests.conftest import Console
from tests.support.loop_console import LoopConsole

HERE = Place(1001, 2002)

SETUP = [
    "@as Gwen",
    '/campaign start ruleset:serpent name:"Bad Inputs"',
    '/serpent spell define name:"Universum Negation" dispel_to:discard',
    "@as White",
    '/serpent magi create name:White codex:"Fireball x2, Dissolve Tissue, Karmic Debt, Purification, Pillar of Earth"',
    "@as Black",
    '/serpent magi create name:Black codex:"Dissolve Tissue x2, Universum Negation, Pillar of Earth"',
    "@as Gwen",
    "/serpent battle start",
    "@as White",
    "/serpent battle join",
    "@as Black",
    "/serpent battle join",
    "@as Gwen",
    "/serpent battle round resonance:4 rolloff:White",  # 2 Resonance each; White first
    "@as White",
    '/serpent prepare spells:"Fireball, Dissolve Tissue, Purification"',
    "@as Black",
    '/serpent prepare spells:"Dissolve Tissue, Pillar of Earth"',
]


async def set_up(console: Console) -> None:
    for line in SETUP:
        await console.ok(line)


async def snapshot(console: Console) -> tuple[dict[str, Any], dict[str, Any]]:
    """The board's ``data`` and the campaign state as stored."""
    await console.ok("@as Gwen")
    board = (await console.ok("/serpent battle board"))["data"]
    service = console.table.bot.service
    service.forget(HERE)  # read it back from SQLite, not the cache
    campaign = await service.campaign(HERE)
    assert campaign is not None
    return board, campaign.row.state


# (who, line, what the error must say)
BAD: list[tuple[str, str, str]] = [
    # acting out of turn
    ("Black", '/serpent cast spell:"Dissolve Tissue" target:White', "It is not Black's turn: it is White's turn."),
    ("Black", "/serpent meditate", "It is not Black's turn: it is White's turn."),
    ("Black", "/serpent end-turn", "It is not Black's turn"),
    ("White", "/serpent pass", "No response window is open, so there is nothing for White to pass"),
    # casting unprepared spells
    ("White", '/serpent cast spell:"Karmic Debt" target:Black', "White has not prepared Karmic Debt"),
    ("White", '/serpent cast spell:"Pillar of Earth"', "only prepared spells can be cast"),
    ("White", '/serpent respond spell:"Universum Negation"', "There is nothing manifesting to respond to"),
    # paying with energy the Magi does not have
    ("White", "/serpent cast spell:Fireball target:Black", "White cannot pay for Fireball: needs 5 Resonance (has 2)"),
    ("White", "/serpent exchange gain:Essence give:Voice", "Exchanging needs 10 Voice; White has 0"),
    # targeting an invalid spell or Magi
    ("White", '/serpent cast spell:"Dissolve Tissue" target:Grey', "No one named 'Grey' is in this battle"),
    ("White", '/serpent cast spell:"Dissolve Tissue" target:White', "An Attack must target an opponent"),
    ("White", '/serpent cast spell:Purification target:"Karmic Debt"', "is not a spell this can target now"),
    ("White", "/serpent cast spell:Purification target:#999", "is not a spell this can target now"),
    ("White", "/serpent cast spell:Purification", "Name the spell Purification targets"),
    ("White", "/serpent dismiss spell:Fireball", "is not a spell this can target now"),
    # and a few more ways to be wrong
    ("White", '/serpent cast spell:"Fire Bal" target:Black', "Fire Bal"),
    ("White", "/serpent meditate magi:Black", "belongs to another player"),
    ("White", "/serpent battle round", "needs the GM"),
    ("White", "/serpent prepare spells:Fireball", "spell preparation phase"),
    ("White", "/serpent shed-stone", "holds no interrupt stone"),
    (
        "White",
        '/serpent cast spell:"Dissolve Tissue" target:Black component:"Pillar of Earth"',
        "discards no Component",
    ),
    ("Gwen", "/serpent battle close-window", "No response window is open"),
    ("Gwen", "/serpent battle dice values:d10=11", "a d10 shows 0 to 10"),
    ("Gwen", "/serpent battle join", "You have no character in this campaign yet"),
]


async def test_each_bad_input_is_a_clear_error_that_changes_nothing(console: Console) -> None:
    await set_up(console)
    before = await snapshot(console)
    assert before[0]["battle"]["turn"] == "White"
    for who, line, message in BAD:
        await console.ok(f"@as {who}")
        refused = await console.fails(line)  # not ok, ephemeral, no incident
        assert message in refused["text"], (line, refused["text"])
        assert refused["data"] == {}
        assert "Traceback" not in refused["text"]
        assert await snapshot(console) == before, line


async def test_exchanging_twice_in_a_round(console: Console) -> None:
    await set_up(console)
    await console.ok("@as Black")
    exchanged = await console.ok("/serpent exchange gain:Resonance")  # out of turn is fine: any time
    assert exchanged["data"]["battle"]["beings"]["Black"]["resonance"] == 5
    before = await snapshot(console)
    await console.ok("@as Black")
    refused = await console.fails("/serpent exchange gain:Essence")
    assert "Black has already made this round's energy exchange (one per round)." in refused["text"]
    assert await snapshot(console) == before


async def test_a_refusal_in_a_response_window_leaves_the_window_as_it_was(console: Console) -> None:
    await set_up(console)
    await console.ok("@as White")
    await console.ok('/serpent cast spell:"Dissolve Tissue" target:Black')  # Black may answer: a window
    before = await snapshot(console)
    assert before[0]["battle"]["window"]["effect"] == "Dissolve Tissue"
    for who, line, message in [
        ("Black", "/serpent meditate", "A response window is open on Dissolve Tissue"),
        ("White", "/serpent cast spell:Fireball target:Black", "A response window is open on Dissolve Tissue"),
        ("White", "/serpent respond", "White has no Response to make to Dissolve Tissue"),
        ("Black", '/serpent respond spell:"Dissolve Tissue"', "Dissolve Tissue is not a Response"),
        ("Black", '/serpent respond spell:"Universum Negation" target:Fireball', "'Fireball' is not manifesting"),
        ("Gwen", "/serpent battle round", "it must close first"),
    ]:
        await console.ok(f"@as {who}")
        refused = await console.fails(line)
        assert message in refused["text"], (line, refused["text"])
        assert await snapshot(console) == before, line


# ---------------------------------------------------------------- fuzz


USERS = st.sampled_from(["@as White", "@as Black", "@as Gwen"])
COMMANDS = st.sampled_from(
    [
        "/serpent cast spell:",
        "/serpent cast spell:Fireball target:",
        "/serpent cast spell:Purification target:",
        '/serpent cast spell:"Dissolve Tissue" target:Black upgrade:',
        '/serpent cast spell:"Dissolve Tissue" target:Black component:',
        '/serpent cast spell:"Dissolve Tissue" target:Black intone:',
        "/serpent respond spell:",
        '/serpent respond spell:"Universum Negation" target:',
        "/serpent prepare spells:",
        "/serpent reattune spells:",
        "/serpent exchange gain:Resonance give:",
        "/serpent dismiss spell:",
        "/serpent focus spell:",
        "/serpent sustain spell:",
        "/serpent use ability:",
        "/serpent spec tree:A voice:",
        "/serpent meditate magi:",
        "/serpent pass magi:",
        "/serpent battle join team:",
        "/serpent battle round rolloff:",
        "/serpent battle round resonance:",
        "/serpent battle dice values:",
        "/serpent battle adjust being:",
        "/serpent battle adjust being:White essence:",
        "/serpent battle close-window window:",
        "/serpent battle encounter-add name:",
        "/serpent battle mode easy:",
        "/serpent magi show name:",
        "/serpent magi edit codex:",
        "/serpent magi create name:Zed codex:",
        "/serpent spell define name:Fuzzed role:",
        "/serpent spell define name:Fireball aspects:",
        "/serpent spell define name:Fireball dmg:",
        "/serpent spell define name:Fireball duration:",
        "/serpent spell define name:Fireball requirements:",
        "/serpent spell define name:Fireball upgrades:",
        "/serpent spell define name:Fireball ritual_path:",
        "/serpent spell define name:Fireball shields:",
        "/serpent spell define name:Fireball sustain:",
        "/serpent spell define name:Purification dispel:",
        "/serpent spell define name:",
        "/serpent spell define name:Fuzzed role:Attack aspects:",
        "/serpent spell define name:Fuzzed role:Transmute aspects:",
        "/serpent order spells:",
        "/serpent lose spells:",
        "/serpent pledge to:",
        "/serpent pledge to:White tiers:",
        "/serpent nam-shub name:",
        "/serpent nam-shub step:true team:",
        "/serpent battle adjust being:White resistance:",
        "/serpent magi create name:Zed codex:Fireball@",
    ]
)
VALUES = st.one_of(
    st.text(st.characters(blacklist_categories=["Cs"]), max_size=25),
    st.sampled_from(["Fireball", "Black", "White", "#1", "#7 Fireball", "0", "-3", "3", "P", "F", "Area, Subtle", ""]),
    st.sampled_from(
        ["Backlash 2, Veiled", "Spell Loss 2 banish", "Dampen 2", "Prevents all", "Combines +1 Dmg", "#1, #2", "Area:G"]
    ),
)


def quoted(value: str) -> str:
    value = value.replace('"', "")
    return f'"{value}"' if re.search(r"\s", value) or not value else value


def test_serpent_lines_never_crash(tmp_path: Path, registry: Any) -> None:
    console = LoopConsole(tmp_path / "fuzz.sqlite3", registry, setup=SETUP)
    try:

        @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(USERS, COMMANDS, VALUES)
        def check(user: str, command: str, value: str) -> None:
            assert console.run(user).ok
            result = console.run(command + quoted(value))
            assert result is not None
            assert "incident" not in result.extra, (user, command, value, result.text)
            assert result.text and "Traceback" not in result.text
            if not result.ok:
                assert result.ephemeral and result.data == {}

        check()
    finally:
        console.close()


@pytest.mark.parametrize("line", ["/serpent battle board", "/serpent spell list", "/serpent magi show"])
async def test_read_only_commands_are_safe_before_any_battle(console: Console, line: str) -> None:
    await console.ok("@as Gwen")
    await console.ok('/campaign start ruleset:serpent name:"Empty"')
    result = await console(line)
    assert "incident" not in result
