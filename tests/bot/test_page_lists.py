"""The rulesets' own lists on the campaign's web page (``Ruleset.page_lists``, drawn by ``bot.table.pages.lists``).

Every ruleset the contract suite checks (the guide's sixth too), on the table its first session leaves: each list
is well formed for a GM, a player and a stranger. Then what a list keeps for the few who may read it: serpent's
prepared spells (their Magi's player and the GMs) and runic's Information answers (the GMs). Realm's secret
directions are swept in the browser (tests/web: the contract's markers).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapter.help import command_path
from bot.table import pages
from bot.table.weblinks import Access
from rules.base import PageList
from tests.conftest import Console
from tests.contract.support import RULESET_IDS, open_console, ruleset_of

GM, PAT, OZ = "Gwen", "Pat", "Oz"


async def read_as(console: Console, who: str) -> dict[str, PageList]:
    """The lists of the console's campaign as ``who`` reads them on the web (a GM of the campaign: the GM's)."""
    table = console.table
    campaign = await table.bot.service.campaign(table._place())
    assert campaign is not None
    user = table.user_id(who)
    access = Access(campaign, user, {user: who}, 0)
    return {item.title: item for item in pages.lists(table.bot.service, access).lists}


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
async def test_every_rulesets_lists_are_well_formed_for_every_reader(ruleset_id: str, tmp_path: Path) -> None:
    console = Console(await open_console(tmp_path))
    try:
        for line in ruleset_of(ruleset_id).first_session:
            await console(line)
        for who in (GM, PAT, "Nia"):
            found = await read_as(console, who)
            for item in found.values():
                assert item.title and item.columns, item
                assert all(len(row) == len(item.columns) for row in item.rows), item
                assert all(isinstance(cell, str) for row in item.rows for cell in row), item
    finally:
        await console.table.close()


async def test_serpent_prepared_spells_are_their_players_and_the_gms(tmp_path: Path) -> None:
    console = Console(await open_console(tmp_path))
    try:
        case = ruleset_of("serpent").secrets_case()
        assert case is not None
        await console.ok(f"@as {GM}")
        await console.ok("/campaign start ruleset:serpent name:Duel")
        await console.ok('/serpent magi create name:Black codex:"Fireball, Dissolve Tissue"')
        await console.ok("@as Pat")
        await console.ok('/serpent magi create name:White codex:"Fireball x2, Dissolve Tissue"')
        await console.ok(f"@as {GM}")
        await console.ok("/serpent battle start mode:teams")
        await console.ok("@as Pat")
        await console.ok("/serpent battle join team:Sun")
        await console.ok(f"@as {GM}")
        await console.ok("/serpent battle join magi:Black team:Moon")
        await console.ok('/serpent battle round resonance:10 rolloff:"White, Black"')
        await console.ok("@as Pat")
        await console.ok('/serpent prepare spells:"Dissolve Tissue"')
        await console.ok("@as Oz")
        await console.ok("/roll expression:1d6")
        prepared = "Prepared spells"
        assert ("White", "Dissolve Tissue") in (await read_as(console, PAT))[prepared].rows
        assert ("White", "Dissolve Tissue") in (
            await read_as(
                console,
                GM,
            )
        )[prepared].rows
        theirs = (await read_as(console, OZ))[prepared].rows
        assert ("White", "1 prepared") in theirs and all("Dissolve" not in cell for row in theirs for cell in row)
    finally:
        await console.table.close()


async def test_runic_information_answers_are_the_gms(tmp_path: Path) -> None:
    console = Console(await open_console(tmp_path))
    try:
        case = ruleset_of("runic").secrets_case()
        assert case is not None
        await console.ok(f"@as {GM}")
        await console.ok("/campaign start ruleset:runic name:Winter")
        table = console.table
        for step in (*case.setup, *case.steps):
            await console.ok("@gm" if step.as_gm else f"@as {PAT}")
            group, name = command_path(step.action)
            result = await table.run_command(["runic", *([group] if group else []), name], dict(step.options))
            assert result.ok, result.text
        answers = "Information answers today"
        gm_view = await read_as(
            console,
            GM,
        )
        assert any("XqAnswerMark" in row for row in gm_view[answers].rows)
        assert answers not in await read_as(console, PAT)
        assert "XqAnswerMark" not in repr(await read_as(console, PAT))
    finally:
        await console.table.close()
