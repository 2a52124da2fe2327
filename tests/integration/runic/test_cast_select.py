"""A list beats typing (issue 15): a mage's sheet carries Cast a spell…, the mage's own saved spells.

Picking one runs ``/runic cast spell:<it> mage:<mage>`` through the real tree, for the person the sheet was
shown to only, also after a restart (a fresh process on the same database); ``/runic`` gains no option.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.cli.virtual import Sent, VirtualUser
from bot.table.registry import Registry
from tests.integration.serpent.test_buttons import run

SETUP = (
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 ht:11 hp:14 thaumatology:15",
    "/runic spell define name:Sleep words:Vas-Jux type:regular",
    "/runic spell define name:Ward words:Sanct-Kal type:regular",
    "@as Oz",
    "/runic mage create name:Nimue magery:2 iq:14 ht:12 thaumatology:14",
)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cast-select.sqlite3"


def choices(message: Sent) -> list[str]:
    (menu,) = message.selects()
    return [option["label"] for option in menu["options"]]


async def events(table: ConsoleTable) -> int:
    campaign = await table.bot.service.campaign(table._place())
    assert campaign is not None
    return await table.bot.service.store.count_events(campaign.row.id)


async def test_a_sheet_offers_its_mages_spells_and_a_pick_casts_one(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, *SETUP)
        shown = await run(table, "@as Pat", "/runic mage show mage:Merlin")
        assert table.last_with_select is not None and choices(table.last_with_select) == ["Sleep", "Ward"]
        assert "[select: Cast a spell as Merlin… Sleep | Ward]" in shown.text
        before = await events(table)
        await run(table, "@as Oz")
        refused = await table.execute("@pick Sleep")  # not Oz's to use: refused, nothing cast
        assert refused is not None and not refused.ok and "belongs to whoever ran the command" in refused.text
        assert await events(table) == before
        await run(table, "@as Pat")
        cast = await run(table, "@pick Sleep")
        assert cast.data["mage"] == "Merlin" and cast.data["spell"] == "Sleep"
        assert await events(table) == before + 1
    finally:
        await table.close()


async def test_someone_elses_sheet_offers_nothing_to_cast(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, *SETUP)
        shown = await run(table, "@as Oz", "/runic mage show mage:Merlin")  # anyone may read it
        assert "[select:" not in shown.text and table.last_with_select is None
        gm = await run(table, "@as Gwen", "/runic mage show mage:Merlin")  # a GM may cast for any mage
        assert "[select: Cast a spell as Merlin…" in gm.text
    finally:
        await table.close()


async def test_the_pick_works_after_a_restart_and_not_after_the_campaign_ends(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    await run(table, *SETUP, "@as Pat", "/runic mage show mage:Merlin")
    message = table.last_with_select
    await table.close()
    assert message is not None
    (menu,) = message.selects()

    fresh = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        interaction, sent = await fresh.virtual.select(VirtualUser("Pat"), message, menu, ["Ward"])
        cast = fresh._result("@pick Ward", interaction, sent)
        assert cast.ok and cast.data["spell"] == "Ward" and cast.data["mage"] == "Merlin"
        await run(fresh, "@as Gwen", "/campaign end")
        await run(fresh, "@press Confirm")
        interaction, sent = await fresh.virtual.select(VirtualUser("Pat"), message, menu, ["Sleep"])
        late = fresh._result("@pick Sleep", interaction, sent)
        assert not late.ok and "campaign has ended" in late.text
    finally:
        await fresh.close()


async def test_a_gm_naming_no_mage_gets_the_list_of_mages(db: Path, registry: Registry) -> None:
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        await run(table, *SETUP)
        before = await events(table)
        await run(table, "@as Gwen")
        asked = await table.execute("/runic mage show")  # the GM has no mage of her own: which one?
        assert asked is not None and not asked.ok and asked.ephemeral
        assert "Or pick the mage to act with below" in asked.text
        assert table.last_with_select is not None and choices(table.last_with_select) == ["Merlin", "Nimue"]
        await run(table, "@as Oz")
        refused = await table.execute("@pick Merlin")  # Gwen's list
        assert refused is not None and not refused.ok and "belongs to whoever ran the command" in refused.text
        await run(table, "@as Gwen")
        shown = await run(table, "@pick Nimue")
        assert shown.data["mage"] == "Nimue" and await events(table) == before
        typed = await table.execute("/runic cast spell:Sleep")  # more was typed: a pick would drop it, so no list
        assert typed is not None and not typed.ok and "[select:" not in typed.text
        assert "no character in this campaign" in typed.text
    finally:
        await table.close()
