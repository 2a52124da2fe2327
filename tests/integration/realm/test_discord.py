"""`/realm` through real discord.Interaction objects and the bot's CommandTree: what Discord would be sent.

Castable, cast, target, resolve and the board as players and the GM click them; autocomplete; a button
(the campaign log's pager over realm actions); the biggest cards (a full sheet, a crowded board) against
Discord's embed limits; and the `/realm` tree within Discord's 25 subcommands and groups.
"""

from __future__ import annotations

import pytest

from bot.adapter.render import card_problems, embed_problems, to_embed
from bot.cli.console import ConsoleTable
from rules.realm import RULESET
from rules.realm.book import SpellDef
from rules.realm.state import Casting
from tests.conftest import Console
from tests.rules.realm.helpers import Realm
from tests.support.discord_harness import choices, ok, slash

GM, PAT, OZ = "Gwen", "Pat", "Oz"


@pytest.fixture
async def valley(console: Console) -> ConsoleTable:
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:realm name:Valley",
        '/realm spell import format:csv text:"name,type,color,target_type,duration; Curse,V,black,individual,'
        'permanent; Blind,IV,purple,individual,combat"',
        '/realm clearing set name:"Cave 1" colors:"purple, black"',
        f"@as {PAT}",
        '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV3*, MOVE M4*" spells:Blind location:"Cave 1"',
        f"@as {OZ}",
        '/realm character create name:Witch chits:"MAGIC V3*, MAGIC V4*, MOVE L3" spells:Curse location:"Cave 1"',
    ):
        await console.ok(line)
    return console.table


async def test_the_tree_fits_discords_limits() -> None:
    top = {action.split()[0] for action in RULESET.actions}
    assert len(top) <= 25, sorted(top)
    for group in top:
        assert sum(1 for a in RULESET.actions if a.split()[0] == group and " " in a) <= 25


async def test_a_round_through_the_tree(valley: ConsoleTable) -> None:
    refused = await slash(valley, PAT, "realm combat start", clearing="Cave 1", order="Wizard, Witch")
    assert refused.error and "needs the GM" in refused.error and refused.ephemeral
    await ok(valley, GM, "realm combat start", clearing="Cave 1", order="Wizard, Witch")

    asked = await ok(valley, PAT, "realm castable", spell="Blind", ritual="MAGIC IV4")
    assert asked.ephemeral and asked.embed["title"] == "Can Wizard cast Blind?"
    assert asked.embed["description"] == "**Castable**: Blind by Wizard with MAGIC IV4, speed 4."
    assert "✅ Purple magic here: clearing Cave 1." in asked.fields["Checks"]

    cast = await ok(valley, PAT, "realm cast", spell="Blind", ritual="MAGIC IV4")
    assert not cast.ephemeral and cast.embed["title"] == "Wizard casts Blind"
    await ok(valley, OZ, "realm cast", spell="Curse", ritual="MAGIC V3*")
    await ok(valley, GM, "realm combat melee")
    await ok(valley, PAT, "realm target", targets="Witch")
    await ok(valley, OZ, "realm target", targets="Wizard")
    resolved = await ok(valley, GM, "realm resolve")
    assert resolved.fields["Order"].splitlines() == [
        "speed 3: ✨ #2 Curse (Witch) → Wizard",
        "speed 4: ❌ #1 Blind (Wizard) canceled by #2 Curse at speed 3",
    ]
    board = await ok(valley, PAT, "realm spells")
    assert board.fields["In effect"] == (
        "#2 **Curse** (Witch on Wizard; permanent, black): active until midnight of day 1"
    )


async def test_autocomplete_offers_spells_chits_and_castings(valley: ConsoleTable) -> None:
    spells = ["Blind", "Curse", "Fiery Blast", "Lightning Bolt", "Stones Fly"]
    assert await choices(valley, PAT, "realm castable", "spell", spell="") == spells
    rituals = await choices(valley, PAT, "realm cast", "ritual", spell="Blind", ritual="MAGIC")
    assert rituals == ["MAGIC IV4", "MAGIC IV3*"]
    assert await choices(valley, OZ, "realm enchant", "chit", chit="") == ["MAGIC V3*", "MAGIC V4*"]  # Magic chits only


async def test_the_log_pager_button_over_realm_actions(valley: ConsoleTable, console: Console) -> None:
    await console.ok(f"@as {GM}")
    for day in range(2, 12):
        await console.ok(f"/realm day set day:{day}")
    first = await console.ok("/campaign log")
    assert first["data"]["pages"] >= 2 and first["buttons"] == ["Next"]
    second = await console.ok("@press Next")
    assert "Page 2 of" in second["text"]


def test_the_biggest_cards_fit() -> None:
    """A full sheet (30 chits, 60 long spell names, items, its spells in effect) and a board of 80 spells."""
    realm = Realm()
    names = [f"Spell number {i:02d} with a rather long name of sixty chars"[:60] for i in range(60)]
    for name in names:
        realm.state.spells[name.casefold()] = SpellDef(name=name, type="V", color="black", duration="permanent",
                                                       target_type="individual", text="x" * 1000)  # fmt: skip
    chits = ", ".join(["MAGIC VIII3**"] * 24 + ["FIGHT H4**"] * 3 + ["MOVE M5*"] * 3)
    caster = "W" * 60
    realm.act("pat", "character create", name=caster, chits=chits, location="C" * 60)
    realm.sheet(caster).spells = names
    for index in range(80):
        realm.state.castings.append(Casting(
            id=index + 1, spell=names[index % 60], caster=caster, type="V", color="black", duration="permanent",
            ritual="MAGIC VIII3**", ritual_kind="chit", speed=3, clearing="C" * 60, day=1, round=1,
            status="inert" if index % 2 else "active", targets=[caster], active_until=1,
        ))  # fmt: skip
    for item in range(10):
        realm.act("gm", "item define", name=f"Item {item} " + "i" * 50, kind="book", type="V",
                  spells=", ".join(names[:9]), holder=caster)  # fmt: skip
    for outcome in (
        realm.act("pat", "character show"),
        realm.act("gm", "spells"),
        realm.act("gm", "spell list"),
        realm.act("gm", "spell show", spell=names[0]),
    ):
        assert card_problems(outcome.card) == [], card_problems(outcome.card)
        assert embed_problems(to_embed(outcome.card)) == []


async def test_lookup_finds_the_primer_in_a_realm_channel(valley: ConsoleTable, console: Console) -> None:
    energize = await console.ok('/lookup term:"rule energizing"')
    assert "Permanent Spells are activated any time" in energize["text"] and "*Magic Primer.*" in energize["text"]
    colors = await console.ok('/lookup term:"color table"')
    assert "7                 white and black" in colors["text"] and "V                black" in colors["text"]
    blast = await console.ok('/lookup term:"Fiery Blast"')
    assert "Type: not in the primer" in blast["text"]
