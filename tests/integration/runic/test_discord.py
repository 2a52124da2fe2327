"""`/runic` through real discord.Interaction objects and the bot's CommandTree: what Discord would be sent.

The GM rolls the dice that matter here by hand (`dice`, `calamity_dice`), so the embeds are exact whatever
the seed. Every embed is checked against Discord's limits, and every card before any clipping.
"""

from __future__ import annotations

import discord
import pytest

from bot.adapter.render import embed_problems, to_embed
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser
from tests.conftest import Console
from tests.support.discord_harness import ok, refused, slash

GM, PAT, OZ = "Gwen", "Pat", "Oz"


@pytest.fixture
async def camelot(console: Console) -> ConsoleTable:
    """A runic campaign run by Gwen; Merlin (Pat's) with trained Words and four spells, Nimue (Oz's)."""
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:runic name:Camelot",
        f"@as {PAT}",
        "/runic mage create name:Merlin magery:3 iq:15 ht:11 hp:14 thaumatology:15 faster_casting:4",
        "/runic mage word word:In skill:14",
        "/runic mage word word:Flam skill:13",
        "/runic mage word word:Jux skill:13",
        '/runic spell define name:Fireball words:In-Flam type:regular parameters:"damage: 10d burning" known:true',
        '/runic spell define name:"Extinguish Fire" words:Jux-Flam type:blocking known:true',
        f"@as {OZ}",
        "/runic mage create name:Nimue magery:2 iq:14 thaumatology:14",
    ):
        await console.ok(line)
    return console.table


# ---------------------------------------------------------------- /runic mage create


async def test_mage_create(console: Console) -> None:
    table = console.table
    await console.ok(f"@as {GM}")
    await console.ok("/campaign start ruleset:runic name:Camelot")
    reply = await ok(
        table, PAT, "runic mage create", name="Merlin", magery=3, iq=15, ht=11, thaumatology=15, faster_casting=4
    )
    assert type(reply.interaction) is discord.Interaction
    assert reply.interaction.command is not None and reply.interaction.command.qualified_name == "runic mage create"
    assert not reply.ephemeral
    assert reply.embed["title"] == "New mage: Merlin: Magery 3"
    assert reply.embed["description"] == "IQ 15 · HT 11 · Will 15\nHP 10/10 · FP 11/11 · MP 60/60"
    assert reply.fields == {
        "Skills": "Thaumatology 15 · Symbol Drawing —\nFaster Casting 4\nOther Words at default: 11 · cap 15",
        "Spells": "none",
    }
    assert reply.outcome.data == {"mage": "Merlin"}
    shown = await console.ok("/character show name:Merlin")
    assert shown["data"]["sheet"]["mp"] == 60 and shown["data"]["owner_id"] == VirtualUser(PAT).id

    # what the Discord client would never send, the rules still refuse cleanly
    assert "magery" in (await refused(table, PAT, "runic mage create", name="Morgan", magery=11)).error
    no_skill = await refused(table, PAT, "runic mage create", name="Morgan", magery=2, thaumatology=0)
    assert "Thaumatology or Symbol Drawing" in no_skill.error
    taken = await refused(table, OZ, "runic mage create", name="merlin", thaumatology=12)
    assert "already exists" in taken.error


# ---------------------------------------------------------------- /runic spell define


async def test_spell_define(camelot: ConsoleTable) -> None:
    reply = await ok(
        camelot, PAT, "runic spell define", name="Seek Enchantments", words="Gal-Ort-Xen", type="information",
        parameters="duration: 10 minutes; traits: +20", known=True,
        effect="Pinpoint magical items on a Per roll, as if with Detect (Magical Items, Precise).",
    )  # fmt: skip
    embed = reply.embed
    assert embed["title"] == "Spell defined: Seek Enchantments" and not reply.ephemeral
    assert embed["description"].startswith(
        "**Gal-Ort-Xen**: Gal (Sense) - Ort (Magic) - Xen (Matter)\nType: information"
    )
    assert embed["footer"]["text"] == "Saved in Merlin's spells."
    fields = reply.fields
    assert fields["Energy"] == (
        "Words: +5 (Gal 1 + Ort 2 + Xen 2)\n"
        "duration: 10 minutes: +4 (up to 10 minutes)\n"
        "traits: +20: +4 (net +20 points, +1 per full 5 added)\n"
        "**Energy 13**"
    )
    assert (
        fields["Casting time"]
        == "Words: Gal 0 + Ort 2 + Xen 1 = 3\n**3 second(s)**, or 3 minute(s) from a grimoire or scroll"
    )
    assert fields["Maintenance"].startswith("2 MP per 10 minutes")
    assert fields["Merlin's base skill"] == (
        "Word skills: Gal 11 (default), Ort 11 (default), Xen 11 (default); lowest 11\n3 Words: -1\n"
        "capped by Thaumatology 15: **10**"
    )
    assert reply.outcome.data["energy"] == 13 and reply.outcome.data["replaced"] is False

    again = await ok(camelot, PAT, "runic spell define", name="Seek  Enchantments", words="Gal Ort Xen")
    assert again.embed["title"] == "Spell redefined: Seek Enchantments" and again.outcome.data["replaced"]

    unknown = await refused(camelot, PAT, "runic spell define", name="Oops", words="Vas-Jux-Flim")
    assert unknown.error.startswith("'Flim' is not a Word of Power. The Words are: Flam (Fire), Aq (Water)")
    player_campaign = await refused(camelot, PAT, "runic spell define", name="Ward", words="Sanct", where="campaign")
    assert "needs the GM" in player_campaign.error


async def test_spell_define_area_and_melee_lines(camelot: ConsoleTable) -> None:
    area = await ok(camelot, PAT, "runic spell define", name="Mass Extinguish Fire", words="Vas-Jux-Flam", type="area",
                    parameters="area: 5 yd")  # fmt: skip
    assert area.fields["Energy"] == (
        "Words: +3 (Jux 1 + Flam 2)\nVas (Greater): +2\narea: radius 5 yd: +5 (radius 5 yd)\n**Energy 10**"
    )
    assert area.fields["Casting time"].startswith("Words: Jux 1 + Flam 1 = 2\nVas: ×2 = 4\n**4 second(s)**")
    melee = await ok(camelot, PAT, "runic spell define", name="Touch", words="Des-Jux", type="melee")
    assert "Des (Lesser): -2" in melee.fields["Energy"] and "Melee spell: -2" in melee.fields["Energy"]
    assert "raised to the minimum" in melee.fields["Energy"] and melee.fields["Energy"].endswith("**Energy 0**")


# ---------------------------------------------------------------- /runic cast


async def test_cast_shows_skill_dice_energy_mp_and_calamity(camelot: ConsoleTable) -> None:
    await ok(camelot, GM, "runic adjust", character="Merlin", field="mp", value=-10, reason="Drained by the Grail",
             apply_rules=False)  # fmt: skip
    reply = await ok(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", dice="2 3 4", calamity_dice="6 5 4")
    embed = reply.embed
    assert embed["title"] == "Merlin casts Fireball" and not reply.ephemeral
    assert embed["description"].startswith("**In-Flam** · regular · from memory\nSuccess: the spell works.")
    assert "The GM rolled these dice at the table." in embed["description"]
    fields = reply.fields
    assert fields["Skill"] == (
        "Word skills: In 14, Flam 13; lowest 13\ncapped by Thaumatology 15: **13**\n**Effective skill 13**"
    )
    assert fields["Roll"] == "3d6 [2+3+4] = **9** vs 13: success by 4"
    assert fields["Energy"] == (
        "Words: +3 (In 1 + Flam 2)\ndamage: 10d standard burning: +9 (10d standard is +9)\n"
        "**Cost 12**\nPaid **12** from MP 12"
    )
    assert fields["MP"] == "MP -10 → -22"
    # MP -22 is 4 full fives below zero: 3d [6+5+4] = 15, + 4 = 19
    assert fields["Calamity 19 (Merlin)"] == (
        "3d [6+5+4] = 15 + 4 (MP below zero) = **19**\nAs 17, but the disadvantage is -10 points."
    )
    effects = fields["Calamity effects"]
    assert effects.startswith("Strange energies: ") and "\nInjury: 1d [" in effects
    assert "A disadvantage of up to -10 points, the GM's choice." in effects
    calamity = reply.outcome.data["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([6, 5, 4], 4, 19, "19")
    assert reply.interaction.extras.get("secret") is None


async def test_cast_failure_costs_one_and_the_card_says_where_it_came_from(camelot: ConsoleTable) -> None:
    await ok(camelot, GM, "runic mage implement", mage="Merlin", name="Staff", capacity=20)
    await ok(camelot, GM, "runic adjust", character="Merlin", field="implement_mp", value=20, reason="Charged")
    await ok(camelot, GM, "runic adjust", character="Merlin", field="mp", value=5, reason="Tired", apply_rules=False)
    failed = await ok(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", dice="6 6 4")
    assert failed.fields["Roll"] == "3d6 [6+6+4] = **16** vs 13: failure by 3"
    assert failed.fields["Energy"].endswith("**Cost 12**\nPaid **1** from MP 1")  # ruling 4: a failure costs 1
    assert failed.fields["MP"] == "MP 5 → 4"
    worked = await ok(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", dice="1 2 2")
    assert worked.fields["Roll"] == "3d6 [1+2+2] = **5** vs 13: success by 8"
    # ruling 4: MP down to zero, then the implement, never more than 5 × Magery (15) from mana
    assert worked.fields["Energy"].endswith("Paid **12** from MP 4, implement 8")
    assert worked.fields["MP"] == "MP 4 → 0\nImplement 20 → 12"
    critical = await ok(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", dice="1 1 1")
    assert critical.embed["description"].splitlines()[1].startswith("Critical success: the spell works especially well")
    assert critical.fields["Energy"].endswith("Paid **0** from nothing") and critical.fields["MP"] == "MP 0 → 0"


async def test_players_cannot_roll_their_own_dice_or_cast_for_others(camelot: ConsoleTable) -> None:
    before = (await ok(camelot, GM, "character show", name="Merlin")).outcome.data["sheet"]
    dice = await refused(camelot, PAT, "runic cast", spell="Fireball", dice="1 1 1")
    assert dice.error.startswith("Supplying the dice needs the GM.")
    other = await refused(camelot, OZ, "runic cast", spell="Fireball", mage="Merlin")
    assert other.error == "Merlin belongs to another player. You can only act through your own characters."
    typo = await refused(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", dice="1 2 7")
    assert typo.error == "dice: a d6 shows 1 to 6; got 7."
    short = await refused(camelot, GM, "runic cast", spell="Fireball", mage="Merlin", calamity_dice="1 2")
    assert "give exactly 3 dice (3d6)" in short.error
    after = (await ok(camelot, GM, "character show", name="Merlin")).outcome.data["sheet"]
    assert after == before and after["mp"] == 60


async def test_information_spell_goes_to_the_gm(camelot: ConsoleTable) -> None:
    await ok(camelot, PAT, "runic spell define", name="Seek Enchantments", words="Gal-Ort-Xen", type="information",
             parameters="duration: 10 minutes; traits: +20", known=True)  # fmt: skip
    courier = camelot.courier
    seen: list[dict] = []
    for dice, verdict in (("3 3 3", "It works: give the information"), ("6 6 5", "Critical failure: **lie to")):
        before = len(courier.sent)
        reply = await ok(camelot, GM, "runic cast", spell="Seek Enchantments", mage="Merlin", dice=dice)
        public = reply.embed
        assert public["title"] == "Merlin casts Seek Enchantments (Information)" and not reply.ephemeral
        assert list(reply.fields) == ["Energy", "Casting time", "MP", "Spell on"]
        assert "Paid **13** from MP 13" in reply.fields["Energy"]
        everything = str(public)
        for hidden in ("3d6", "Effective skill", "Roll", "works", "fails", "critical", "lie"):
            assert hidden not in everything, hidden
        seen.append({k: v for k, v in public.items() if k != "fields"} | {"fields": list(reply.fields)})
        (secret,) = courier.sent[before:]
        assert secret.destination == "gm dm"
        assert secret.card.title == "Secret roll: Merlin casts Seek Enchantments"
        assert secret.card.description.startswith(verdict)
        secret_fields = {f.name: f.value for f in secret.card.fields}
        assert secret_fields["Roll"].startswith(f"3d6 [{dice.replace(' ', '+')}]")
        assert secret_fields["Skill"].endswith("**Effective skill 10**")
        assert embed_problems(to_embed(secret.card)) == []  # the GM's embed fits as well
        assert reply.interaction.extras["secret"]["to"] == "the GM by direct message"
        await ok(camelot, GM, "runic drop", mage="Merlin", spell="all")
    # a success and a critical failure look the same to the channel
    assert seen[0] == seen[1]

    # with a GM channel, the secret goes there
    await ok(camelot, GM, "campaign gmchannel", channel="gm-only")
    reply = await ok(camelot, PAT, "runic cast", spell="Seek Enchantments")
    assert reply.interaction.extras["secret"]["to"] == "the GM channel"
    assert courier.sent[-1].destination.startswith("gm channel ")


# ---------------------------------------------------------------- the wrong channel


async def test_runic_commands_where_there_is_no_runic_campaign(console: Console) -> None:
    table = console.table
    nothing = await refused(table, PAT, "runic cast", spell="Fireball")
    assert nothing.error.startswith("There is no campaign in this channel. A GM can start one with `/campaign start")
    assert "runic" in nothing.error
    creation = await refused(table, PAT, "runic mage create", name="Merlin", thaumatology=12)
    assert creation.error == nothing.error

    await console.ok(f"@as {GM}")
    await console.ok("/campaign start ruleset:serpent name:Coils")
    for path, options in (("runic cast", {"spell": "Fireball"}), ("runic mage create", {"name": "Merlin"}),
                          ("runic sunrise", {})):  # fmt: skip
        wrong = await refused(table, GM, path, **options)
        assert wrong.error == (
            "This channel's campaign uses the serpent ruleset, not runic. Use the `/serpent` commands here."
        )

    await console.ok("@channel 2003")
    await console.ok("/campaign start ruleset:runic name:Camelot")
    table.virtual.channel_id = 2003
    serpent_here = await slash(table, GM, "serpent spell list")
    assert (
        serpent_here.error
        == "This channel's campaign uses the runic ruleset, not serpent. Use the `/runic` commands here."
    )


# ---------------------------------------------------------------- Discord's limits


async def test_embeds_fit_with_the_longest_inputs(camelot: ConsoleTable) -> None:
    """Longest names, 20 Parameters, a dozen spells on, ten subjects and a Calamity: every embed still fits."""
    await ok(camelot, GM, "runic adjust", character="Merlin", field="hp", value=200, reason="x" * 200)
    long_name = "Grand " + "Conflagration " * 3 + "of the Everlasting Pentacle"
    long_name = long_name[:60]
    parameters = "; ".join(
        [
            "damage: 6d burning", "area: 3 yd", "range: 100 yd", "duration: 10 minutes", "targets: 3",
            "traits: +20", "affliction: +150%", "bonus: +2 moderate", "condition: +9 until sunrise",
            "exclude: 2", "time: 3 days", "dimensions: 1", "speed: 20 yd/s", "weight: 1,000 lbs",
            "creation: 4 oz", "extra: +3 " + "glows " * 30, "modifier: +50%", "modifier: explosive-per-yard",
            "modifier: malediction-speed-range", "modifier: -25%",
        ]
    )[:1000]  # fmt: skip
    define = await ok(camelot, GM, "runic spell define", name=long_name, mage="Merlin", words="Vas-In-Flam-Jux-Ylem-Ex",
                      type="area", resisted="Will", parameters=parameters, effect="E" * 500)  # fmt: skip
    assert define.fields["Energy"].endswith("**Energy 82**")
    await ok(camelot, GM, "runic spell define", name="Glow", mage="Merlin", words="In-Lux",
             parameters="duration: 1 minute", known=True)  # fmt: skip
    for _ in range(12):
        await ok(camelot, GM, "runic cast", spell="Glow", mage="Merlin", dice="1 1 2", modifier=50)
    for index in range(8):
        await ok(camelot, GM, "runic mage create", name=f"Witness {index} of the Long Road", magery=0)
    targets = ", ".join(["Nimue"] + [f"Witness {i} of the Long Road" for i in range(8)])
    await ok(camelot, GM, "runic adjust", character="Merlin", field="mp", value=-60, reason="Spent", apply_rules=False)
    reply = await ok(
        camelot, GM, "runic cast", spell=long_name, mage="Merlin", dice="2 2 4", calamity_dice="6 6 6", modifier=50,
        target=targets, distance=50, unseen=True, ritual="no_gesture", shock=4, magic_resistance=3, source="scroll",
        sacrifice="hp", sacrifice_energy=70, halvings=1,
    )  # fmt: skip
    assert reply.fields["Resistance"].count("\n") >= 8
    assert reply.fields["Skill"].count(" on: -2") == 12
    # the fields clip in the middle, never the totals
    assert reply.fields["Skill"].endswith("\n**Effective skill 16**")
    assert "… and " in reply.fields["Energy"]
    assert reply.fields["Energy"].endswith("Paid **82** from MP 12, 140 HP (70 energy)")
    assert reply.fields["Casting time"].endswith("**6 minutes**")
    # MP -72: 3d 18 + 14 = 32, "As 13 and 28, but the Mage permanently loses all levels of Magery"
    assert reply.fields["Calamity 30–39 (Merlin)"].startswith("3d [6+6+6] = 18 + 14 (MP below zero) = **32**")
    assert "Will roll at -14 (1): cannot be rolled; the spell fails." in reply.fields["Calamity effects"]
    assert reply.outcome.data["ended"] == ["Glow"] + [f"Glow ({n})" for n in range(2, 13)]
    sheet = await ok(camelot, GM, "runic mage show", mage="Merlin")
    assert sheet.ephemeral and "Conditions" in sheet.fields and sheet.embed["title"].startswith("Merlin: Magery 0")
