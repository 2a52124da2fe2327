"""`/awakened` through real discord.Interaction objects and the bot's CommandTree: what Discord would be sent.

The GM rolls the dice that matter by hand, so the embeds are exact whatever the seed. Every embed is checked
against Discord's limits, and the largest cards (a full sheet, a crowded round's end) before any clipping.
"""

from __future__ import annotations

import discord
import pytest

from bot.cli.console import ConsoleTable
from tests.conftest import Console
from tests.support.discord_harness import slash

GM, PAT, OZ = "Gwen", "Pat", "Oz"
ASH = (
    '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
    'gnosis:3 arcana:"Forces 3, Life 3, Spirit 3, Prime 2, Space 4, Time 2" attributes:"Intelligence 3, '
    'Composure 4" skills:"Occult 3" mana_max:15 high_speech:true health:7'
)


@pytest.fixture
async def boston(console: Console) -> ConsoleTable:
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:awakened name:Boston",
        "/awakened gm hallow name:Grove rating:2",
        f"@as {PAT}",
        ASH,
        f"@as {OZ}",
        '/awakened mage create name:Bo path:Mastigos ruling:"Mind, Space" inferior:Forces '
        'resistance:resolve gnosis:2 arcana:"Mind 3, Space 2"',
    ):
        await console.ok(line)
    return console.table


async def test_mage_create_through_the_tree(console: Console) -> None:
    await console.ok(f"@as {GM}")
    await console.ok("/campaign start ruleset:awakened name:Boston")
    reply = await slash(
        console.table,
        PAT,
        "awakened mage create",
        name="Ash",
        path="Thyrsus",
        ruling="Life, Spirit",
        inferior="Matter",
        resistance="composure",
        gnosis=3,
        arcana="Forces 3, Life 3",
    )
    assert type(reply.interaction) is discord.Interaction
    assert reply.interaction.command is not None
    assert reply.interaction.command.qualified_name == "awakened mage create"
    assert reply.embed["title"] == "New mage: Ash: Thyrsus, Gnosis 3"
    assert reply.fields["Arcana"] == "Forces 3 · Life 3"
    bad = await slash(
        console.table,
        OZ,
        "awakened mage create",
        name="Bo",
        path="X",
        ruling="Life, Fire",
        inferior="Matter",
        resistance="resolve",
    )
    assert bad.outcome is None and "'Fire' is not an Arcanum" in bad.error


async def test_cast_shape_and_round_end(boston: ConsoleTable) -> None:
    cast = await slash(
        boston,
        PAT,
        "awakened spell cast",
        spell="Storm",
        arcana="Forces",
        aspect="vulgar",
        targets=3,
        damage="aggravated",
        hallow="Grove",
        words_of_power=1,
    )
    assert cast.embed["title"] == "Cast: Ash — #1 Storm"
    assert cast.fields["Cost"].endswith("**Cost 5 Mana**")
    assert cast.fields["Paid"].startswith("Paid 5: own Mana 3 (15 → 12); Hallow Grove: 1; Words of Power: 1")
    player_dice = await slash(boston, PAT, "awakened spell shape", spell="Storm", dice="8 8 8")
    assert "needs the GM" in player_dice.error
    dice = "8 1 1 1 1 1 1 1 1 2 1 1 1 1 1 1 1 1"
    shaped = await slash(boston, GM, "awakened spell shape", mage="Ash", spell="#1", dice=dice)
    assert shaped.embed["description"].startswith("Shaping roll: 9 dice, 8-again, rote: [8→2] [1↻1]")
    assert shaped.outcome.data["successes"] == 1
    not_gm = await slash(boston, PAT, "awakened time round")
    assert not_gm.error is not None and "GM" in not_gm.error
    ended = await slash(boston, GM, "awakened time round", dice="1 2 3")
    assert "3 dice, 10-again: [1] [2] [3] = **0** successes" in ended.fields["Paradox roll"]
    assert ended.outcome.secret is not None


async def test_largest_cards_fit(boston: ConsoleTable, console: Console) -> None:
    """A sheet with everything on it, and a round with many casters, stay within Discord's limits."""
    await console.ok(f"@as {PAT}")
    for i in range(12):
        await console.ok(
            f'/awakened spell cast mode:rote spell:"A Long Rote Name Number {i}" arcana:Life aspect:covert '
            'effect:"A long description of what this rote does to the world around the mage"'
        )
        await console.ok(f'/awakened spell cast spell:"A Long Rote Name Number {i}"')
        await console.ok(f'/awakened sympathy subject:"Somebody With A Long Name {i}" level:known')
    for _ in range(2):
        await console.ok("/awakened soulstone mode:create")
    await console.ok(f"@as {GM}")
    for i in range(20):
        await console.ok(
            f'/awakened spell cast mage:Ash spell:"Vulgar Working {i}" arcana:Forces aspect:vulgar gm_cost_adjust:-2'
        )
        await console.ok("/awakened gm paradox mode:add character:Ash dice:2")
    sheet = await slash(boston, PAT, "awakened mage show")
    assert sum(len(f["value"]) for f in sheet.embed["fields"]) < 6000
    ended = await slash(boston, GM, "awakened time round")
    assert ended.outcome.data["paradox_dice"] == 40


async def test_campaign_log_pages_with_a_button(boston: ConsoleTable, console: Console) -> None:
    await console.ok(f"@as {PAT}")
    for i in range(11):
        await console.ok(f"/awakened spell cast spell:S{i} arcana:Life aspect:sensory")
    await console.ok(f"@as {GM}")
    first = await console.ok("/campaign log")
    assert first["buttons"] == ["Next"]
    second = await console.ok("@press Next")
    assert "/awakened gm hallow" in second["text"]


async def test_undo_reverts_an_awakened_action(boston: ConsoleTable, console: Console) -> None:
    await console.ok(f"@as {PAT}")
    await console.ok("/awakened spell cast spell:Veil arcana:Life aspect:covert")
    await console.ok(f"@as {GM}")
    undone = await console.undo()
    assert undone["data"]["command"] == "awakened spell cast"
    shown = await console.ok("/awakened mage show mage:Ash")
    assert shown["data"]["sheet"]["spells"] == [] and shown["data"]["sheet"]["mana"] == 15
