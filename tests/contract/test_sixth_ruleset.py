"""A sixth ruleset needs no edit outside its own package: docs/new-ruleset.md's hedge magic, built here from the
guide's own code blocks as a temporary installed package, found through a real ``magister.rulesets`` entry point,
and played through the console, the Discord layer, ``/help``, a form, the board, ``/lookup`` and an export.

The package is written into ``tmp_path`` with a ``*.dist-info`` holding its ``entry_points.txt``, so
``importlib.metadata.entry_points(group="magister.rulesets")`` finds it exactly as it finds a pip-installed one;
nothing under bot/, cogs/, rules/ or data/ changes. The guide-building helpers are ``tests/support/guide.py``'s,
shared with the contract suite, which runs every one of its checks over hedge magic too (``tests/contract``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import sys
import tomllib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser, command_data
from bot.table.registry import ENTRY_POINTS, Registry, book_folder, discover_rulesets, is_built_in
from tests.conftest import Console
from tests.contract.support import RULESET_IDS, registry
from tests.support.guide import ROOT, guide_files, install

WATCHED = ("bot", "cogs", "rules", "data")


def fingerprint() -> dict[str, str]:
    """Every file of Magister's own code and data, by path, with a hash of its bytes."""
    return {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
        for top in WATCHED
        for path in sorted((ROOT / top).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture
def hedge_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    before = fingerprint()
    site = tmp_path / "site-packages"
    module = install(site)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    try:
        yield module
    finally:
        for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
            del sys.modules[name]
        assert fingerprint() == before, "adding a ruleset changed Magister's own files"


@pytest.fixture
async def hedge(tmp_path: Path, hedge_installed: str) -> AsyncIterator[Console]:
    registry = Registry.discover()  # as the bot starts: built-in packages and installed entry points
    table = await ConsoleTable.open(
        tmp_path / "hedge.sqlite3", seed=7, files_dir=tmp_path / "exports", registry=registry
    )
    yield Console(table)
    await table.close()


def test_the_guide_holds_a_whole_package() -> None:
    files = guide_files()
    assert set(files) == {"pyproject.toml", "magister_hedge/__init__.py", "magister_hedge/data/charms.toml"}
    assert "hedge" in tomllib.loads(files["pyproject.toml"])["project"]["entry-points"][ENTRY_POINTS]


def test_the_contract_suite_checks_it_and_no_other_test_sees_it() -> None:
    """The suite's own registry holds it beside the five; every other test's discovery finds the five alone."""
    discovered = [ruleset.id for ruleset in discover_rulesets()]
    assert "hedge" not in discovered and [*discovered, "hedge"] == RULESET_IDS
    assert [charm.name for charm in registry().get("hedge").book.charms.charm] == ["Kindle", "Mend", "Hush"]


def test_the_entry_point_is_found_and_its_book_read_from_its_package(hedge_installed: str) -> None:
    (entry,) = [e for e in importlib.metadata.entry_points(group=ENTRY_POINTS) if e.name == "hedge"]
    assert entry.value == f"{hedge_installed}:RULESET"
    registry = Registry.discover()
    loaded = registry.get("hedge")
    assert not is_built_in(loaded.ruleset)
    assert book_folder(loaded.ruleset).parts[-2:] == (hedge_installed, "data")
    assert [charm.name for charm in loaded.book.charms.charm] == ["Kindle", "Mend", "Hush"]
    assert {"runic", "serpent", "awakened", "realm", "saga", "hedge"} <= set(registry.ids())


async def test_its_first_session_plays_at_the_console(hedge: Console) -> None:
    ruleset = hedge.table.bot.service.registry.get("hedge").ruleset
    results = [await hedge.ok(line) for line in ruleset.first_session]
    charm = next(r for r in results if r["command"] == "/hedge charm charm:Kindle")
    assert len(charm["data"]["dice"]) == 2 and all(1 <= d <= 6 for d in charm["data"]["dice"])
    assert f"{charm['data']['dice'][0]} + {charm['data']['dice'][1]} + Wits 2" in charm["text"]  # every die shown
    assert charm["buttons"] == ["Turn the moon"]
    assert results[-2]["data"]["moon"] == "waxing"  # the GM pressed Turn the moon
    assert results[-1]["data"]["moon"] == "waxing" and results[-1]["data"]["last"] == ["Wren: Kindle"]
    for action, typed in ruleset.help_examples.items():
        assert typed in ruleset.first_session or action == "moon"  # /hedge moon runs as the button above


async def test_gm_only_actions_pronouns_settings_and_lookup(hedge: Console) -> None:
    await hedge.ok("@as Gwen")
    await hedge.ok("/campaign start ruleset:hedge name:Hedge")
    await hedge.ok("@as Pat")
    await hedge.ok("/hedge witch create name:Wren wits:5")
    assert "needs the GM" in (await hedge.fails("/hedge moon"))["text"]
    await hedge.ok("/character pronouns name:Wren pronouns:she/her")
    for _ in range(8):  # a miss speaks of her fingers; 2d6 + 5 misses Hush (10) on 2-4
        missed = await hedge.ok("/hedge charm charm:Hush")
        if not missed["data"]["worked"]:
            assert "slips from her fingers" in missed["text"]
    assert "There is no charm 'Nope'" in (await hedge.fails("/hedge charm charm:Nope"))["text"]
    await hedge.ok("@gm")
    changed = await hedge.ok("/campaign settings key:full_moon_bonus value:2")
    assert changed["data"] == {"key": "full_moon_bonus", "old": 1, "new": 2}
    assert "full_moon_bonus" in (await hedge.fails("/campaign settings key:full_moon_bonus value:9"))["text"]
    found = await hedge.ok("/lookup term:Kindle")
    assert "A small flame wakes" in found["text"]


async def test_help_a_form_the_board_and_an_export(hedge: Console, tmp_path: Path) -> None:
    card = await hedge.ok("/help command:hedge")
    assert "Getting started" in card["text"] and "/hedge witch create name:Wren wits:2" in card["text"]
    assert set(card["data"]["commands"]) == {"hedge witch create", "hedge charm", "hedge moon", "hedge board"}
    example = await hedge.ok('/help command:"hedge charm"')
    assert example["data"]["example"] == "/hedge charm charm:Kindle"

    await hedge.ok("@as Gwen")
    await hedge.ok('/campaign start ruleset:hedge name:"Crooked Hedge"')
    await hedge.ok("@as Pat")
    form = await hedge.ok("/character create")  # the create action as a form
    assert form["form"] == {"title": "New character (hedge)", "fields": {"name": "", "wits": "1"}}
    await hedge.ok("@form name:Wren wits:3")
    filled = await hedge.ok("/form action:charm")
    assert filled["form"]["fields"] == {"charm": "", "witch": ""}
    worked = await hedge.ok("@form charm:Mend")
    assert worked["data"]["witch"] == "Wren" and worked["data"]["charm"] == "Mend"

    await hedge.ok("@gm")
    posted = await hedge.ok("/campaign board")
    boards = hedge.table.poster.boards
    board = boards[posted["data"]["message_id"]]
    assert "new moon" in board.title and "Wren: Mend" in board.fields[0].value
    await hedge.ok("/hedge moon")  # the board follows the change
    assert "waxing moon" in boards[posted["data"]["message_id"]].title

    exported = await hedge.ok("/campaign export")
    assert sorted(p.rsplit("/", 1)[-1] for p in exported["files"]) == ["crooked-hedge-log.md", "crooked-hedge.json"]
    document = json.loads((tmp_path / "exports" / "crooked-hedge.json").read_text())
    assert document["campaign"]["ruleset"] == "hedge"
    (wren,) = document["characters"]
    assert wren["name"] == "Wren" and wren["sheet"]["wits"] == 3
    assert "hedge charm" in (tmp_path / "exports" / "crooked-hedge-log.md").read_text()


async def test_through_the_discord_layer(hedge: Console) -> None:
    """Real interactions through the real CommandTree: the generated command, its autocomplete, its button."""
    table = hedge.table
    virtual, guild = table.virtual, table.virtual.guild_id
    gwen, pat = VirtualUser("Gwen"), VirtualUser("Pat")
    start = command_data(virtual.tree, ["campaign", "start"], {"ruleset": "hedge", "name": "Hedge"}, guild_id=guild)
    await virtual.command(gwen, start)
    create = command_data(virtual.tree, ["hedge", "witch", "create"], {"name": "Wren", "wits": 2}, guild_id=guild)
    interaction, sent = await virtual.command(pat, create)
    assert interaction.command is not None and interaction.command.qualified_name == "hedge witch create"
    assert sent[0].embeds[0]["title"] == "New witch: Wren"
    typed = command_data(virtual.tree, ["hedge", "charm"], {"charm": "k"}, focused="charm", guild_id=guild)
    assert [c["value"] for c in await virtual.autocomplete(pat, typed)] == ["Kindle"]
    mine = command_data(
        virtual.tree, ["hedge", "charm"], {"charm": "Kindle", "witch": ""}, focused="witch", guild_id=guild
    )
    assert [c["value"] for c in await virtual.autocomplete(pat, mine)] == ["Wren"]
    charm = command_data(virtual.tree, ["hedge", "charm"], {"charm": "Kindle"}, guild_id=guild)
    _, sent = await virtual.command(pat, charm)
    (message,) = sent
    assert message.embeds[0]["title"] == "Wren works Kindle"
    (button,) = message.buttons()
    assert button["label"] == "Turn the moon"
    _, refused = await virtual.press(pat, message, button)  # a player: the table refuses
    assert "needs the GM" in (refused[0].content or "")
    _, turned = await virtual.press(gwen, message, button)
    assert turned[0].embeds[0]["title"] == "The moon turns: waxing"
