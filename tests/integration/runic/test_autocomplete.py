"""Autocomplete for `/runic` options through real autocomplete interactions: it reads the channel's campaign."""

from __future__ import annotations

import time

import pytest

from bot.cli.console import ConsoleTable
from rules.runic.suggest import PARAMETER_EXAMPLES
from tests.conftest import Console
from tests.support.discord_harness import choices

GM, PAT, OZ = "Gwen", "Pat", "Oz"


@pytest.fixture
async def camelot(console: Console) -> ConsoleTable:
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:runic name:Camelot",
        '/runic spell define name:"Ward of Flame" words:Sanct-Flam parameters:"duration: 1 minute" where:campaign',
        f"@as {PAT}",
        "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
        '/runic spell define name:Fireball words:In-Flam type:missile parameters:"damage: 3d burning" known:true',
        '/runic spell define name:"Seek Enchantments" words:Gal-Ort-Xen type:information',
        '/runic mage grimoire grimoire:"Merlin\'s Grimoire" spell:Fireball bonus:2',
        "/runic mage item item:Ring",
        f"@as {OZ}",
        "/runic mage create name:Nimue magery:2 iq:14 thaumatology:14",
        '/runic spell define name:"Lake Mist" words:Aq-Quas parameters:"duration: 10 minutes" known:true',
        "/runic mage grimoire grimoire:Codex",
        "/runic mage item item:Chalice",
        f"@as {GM}",
        '/runic cast mage:Nimue spell:"Lake Mist" dice:"1 1 2"',
    ):
        await console.ok(line)
    return console.table


async def test_spells_are_the_mages_and_the_campaigns(camelot: ConsoleTable) -> None:
    assert await choices(camelot, PAT, "runic cast", "spell") == ["Fireball", "Seek Enchantments", "Ward of Flame"]
    assert await choices(camelot, PAT, "runic cast", "spell", "fire") == ["Fireball"]
    assert await choices(camelot, PAT, "runic cast", "spell", "en") == ["Seek Enchantments"]
    assert await choices(camelot, OZ, "runic cast", "spell") == ["Lake Mist", "Ward of Flame"]
    for path in ("runic spell show", "runic spell forget", "runic mage learn", "runic mage grimoire"):
        assert await choices(camelot, PAT, path, "spell") == ["Fireball", "Seek Enchantments", "Ward of Flame"], path
    gm = await choices(camelot, GM, "runic cast", "spell")
    assert gm == ["Fireball", "Lake Mist", "Seek Enchantments", "Ward of Flame"]  # a GM acts for every mage


async def test_maintain_and_drop_offer_the_spells_on(camelot: ConsoleTable) -> None:
    assert await choices(camelot, OZ, "runic maintain", "spell") == ["Lake Mist"]
    assert await choices(camelot, OZ, "runic drop", "spell") == ["Lake Mist", "all"]
    assert await choices(camelot, PAT, "runic maintain", "spell") == []  # Merlin has nothing on
    assert await choices(camelot, PAT, "runic drop", "spell") == []


async def test_words(camelot: ConsoleTable, console: Console) -> None:
    every = await choices(camelot, PAT, "runic mage word", "word")
    assert len(every) == 25 and every[0] == "Flam (Fire)"  # 26 Words; Discord shows 25 until you type
    assert await choices(camelot, PAT, "runic mage word", "word", "fire") == ["Flam (Fire)"]
    assert await choices(camelot, PAT, "runic mage word", "word", "va") == ["Vas (Greater)"]
    assert await choices(camelot, PAT, "runic mage word", "word", "protect") == ["Sanct (Protect)"]
    # what autocomplete fills in is accepted as the Word
    await console.ok(f"@as {PAT}")
    trained = await console.ok('/runic mage word word:"Flam (Fire)" skill:13')
    assert trained["data"]["word"] == "Flam" and trained["data"]["skill"] == 13
    assert "not a Word of Power" in (await console.fails('/runic mage word word:"Flam (Water)" skill:13'))["text"]


async def test_words_and_parameters_complete_what_is_typed(camelot: ConsoleTable) -> None:
    assert await choices(camelot, PAT, "runic spell define", "words", "Vas-Jux-F", name="X") == ["Vas-Jux-Flam"]
    after = await choices(camelot, PAT, "runic spell define", "words", "Des Jux ", name="X")
    assert "Des Jux Flam" in after and "Des Jux Vas" not in after and "Des Jux Jux" not in after  # each Word once
    parameters = await choices(camelot, PAT, "runic spell define", "parameters", "", name="X", words="Flam")
    assert parameters == list(PARAMETER_EXAMPLES)
    chained = await choices(camelot, PAT, "runic cast", "parameters", "duration: 10 minutes; da", spell="Fireball")
    assert chained == ["duration: 10 minutes; damage: 3d burning"]


async def test_characters_grimoires_and_items(camelot: ConsoleTable) -> None:
    assert await choices(camelot, PAT, "runic cast", "mage") == ["Merlin"]  # only your own
    assert await choices(camelot, GM, "runic cast", "mage") == ["Merlin", "Nimue"]
    assert await choices(camelot, PAT, "runic cast", "target") == ["Merlin", "Nimue"]
    assert await choices(camelot, PAT, "runic mage show", "mage") == ["Merlin", "Nimue"]  # anyone's sheet
    assert await choices(camelot, GM, "runic adjust", "character", "ni") == ["Nimue"]
    assert await choices(camelot, PAT, "runic mage grimoire", "grimoire") == ["Merlin's Grimoire"]
    assert await choices(camelot, OZ, "runic mage grimoire", "grimoire") == ["Codex"]
    assert await choices(camelot, PAT, "runic mage item", "item") == ["Ring"]
    assert await choices(camelot, OZ, "runic mage item", "item") == ["Chalice"]
    names = await choices(camelot, GM, "runic adjust", "name", "", character="Merlin")
    assert names[:2] == ["Chalice", "Ring"] and "Tym" in names


async def test_nothing_outside_a_runic_campaign(console: Console) -> None:
    table = console.table
    assert await choices(table, PAT, "runic cast", "spell") == []
    await console.ok(f"@as {GM}")
    await console.ok("/campaign start ruleset:serpent name:Coils")
    assert await choices(table, GM, "runic mage word", "word") == []


async def test_every_option_answers_fast(camelot: ConsoleTable) -> None:
    slowest, asked = 0.0, 0
    tree = camelot.virtual.tree
    group = tree.get_command("runic")
    for command in group.walk_commands():  # type: ignore[union-attr]
        if not hasattr(command, "parameters"):
            continue
        path = command.qualified_name
        required = {p.name: _sample(p) for p in command.parameters if p.required}
        for parameter in command.parameters:
            if parameter.autocomplete:
                others = {k: v for k, v in required.items() if k != parameter.name}
                for typed in ("", "a", "Vas-", "zzzz"):
                    took = []
                    for _ in range(3):  # the best of three, so a busy machine does not fail the test
                        started = time.perf_counter()
                        await choices(camelot, GM, path, parameter.name, typed, **others)
                        took.append(time.perf_counter() - started)
                    slowest = max(slowest, min(took))
                    asked += 1
    assert asked >= 4 * 30  # every free-text option of every /runic command
    assert slowest < 0.05, f"slowest autocomplete took {slowest * 1000:.1f} ms"


def _sample(parameter) -> object:
    if parameter.choices:
        return parameter.choices[0].value
    kind = parameter.type.name
    return {"integer": 1, "boolean": False, "number": 1.0, "attachment": ("x.gcs", b"{}")}.get(kind, "x")


async def test_issue_14_options(camelot: ConsoleTable, console: Console) -> None:
    assert await choices(camelot, PAT, "runic energy give", "to") == ["Merlin", "Nimue"]
    assert await choices(camelot, PAT, "runic cast", "donor", "ni") == ["Nimue"]
    assert await choices(camelot, PAT, "runic info ask", "spell", "seek") == ["Seek Enchantments"]
    assert (await choices(camelot, PAT, "runic lasting inscribe", "trigger", "Des-G"))[0] == "Des-Gal-Wor"
    await console.ok(f"@as {GM}")
    await console.ok("/runic mage set mage:Merlin field:symbol_drawing value:14")
    await console.ok('/runic lasting inscribe mage:Merlin name:"Front Door" spell:Fireball dice:"1 1 2"')
    assert await choices(camelot, PAT, "runic lasting trigger", "name") == ["Front Door"]
    assert await choices(camelot, OZ, "runic lasting end", "name") == []  # not Nimue's
