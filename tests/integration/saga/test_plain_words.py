"""Issue 22 for saga, at the console table and through real discord.Interaction objects: every message says the
real reason, names the command that works in this game, and nothing a player reads is wrong."""

from __future__ import annotations

import re

import pytest

from bot.cli.console import ConsoleTable
from tests.conftest import Console
from tests.support.discord_harness import ok, refused, slash

GM, PAT = "Gwen", "Pat"


@pytest.fixture
async def stars(console: Console) -> ConsoleTable:
    for line in (f"@as {GM}", "/campaign start ruleset:saga name:Stars", f"@as {PAT}",
                 "/saga start deck:sample seed:168"):  # fmt: skip
        await console.ok(line)
    return console.table


def _line(text: str, label: str) -> str:
    """One line of a post's text: the field ``label`` (``-- Visiting: …``) or a kismet line (``place: …``)."""
    found = re.search(rf"^(?:-- )?{re.escape(label)}: (.*)$", text, re.MULTILINE)
    assert found, (label, text)
    return found.group(1)


TURN_ONE = (  # the first session's turn 1 (docs/saga.md): good luck at the Cellar, the Sling's search, 7 cards
    '/saga move to:"Sample Cellar"',
    "@press Next step",
    '/saga bonus card:"Sample Sling" kind:good-luck',
    "/saga search top:5 type:spell-song",
    '/saga search take:"Sample Song of Dawn"',
)


async def turn_one(console: Console, *, end: bool = True) -> dict:
    """Turn 1 to step 10 (and ended, with ``end``); the step 10 post."""
    for line in TURN_ONE:
        await console.ok(line)
    ten = await console.ok("/saga continue")
    if end:
        await console.ok('/saga end cycle:"Sample Song of Dusk, Sample Old Mill"')
    return ten


def _footer(result: dict) -> str:
    return result["text"].rsplit("\n(Next: ", 1)[1]


async def test_moving_a_hero_by_a_card_rule_gives_the_real_reason(stars: ConsoleTable, console: Console) -> None:
    await console.ok('/saga move to:"Sample Cellar"')
    said = await refused(stars, PAT, "saga put", card="Sample Wanderer", to="hand", reason="a card rule")
    assert "Sample Wanderer is a hero in the hero pile" in said.error and "not in this game" not in said.error
    assert "`/saga put card:<item or luck card>" in said.error
    again = await console.fails('/saga put card:"Sample Wanderer" to:hero-pile reason:"a card rule"')
    assert "already in the hero pile" in again["text"]
    found = await console.fails('/saga search in_game:true take:"Sample Wanderer" to:luck')
    assert "is a hero in the hero pile" in found["text"]


async def test_an_empty_hand_is_warned_of_and_asked_before_it_loses(stars: ConsoleTable, console: Console) -> None:
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok("@press Next step")
    at_ten = await console.ok("/saga continue")
    hand = at_ten["data"]["table"]["hand"]
    for name in hand:  # card rules cycle the whole hand away
        emptied = await console.ok(f'/saga put card:"{name}" to:cycle reason:"a card rule"')
    assert emptied["data"]["table"]["hand"] == []
    assert "your hand is empty, and a turn that ends with no cards in hand loses the game" in _footer(emptied)
    asked = await slash(stars, PAT, "saga end")  # Discord: the question, ephemeral, with Confirm and Cancel
    assert asked.outcome is not None and asked.data["confirm"] and asked.ephemeral
    assert "Ending turn 1 now loses the game: your hand is empty" in asked.description
    assert [b["label"] for b in asked.message.buttons()] == ["Confirm", "Cancel"]
    state = await stars.bot.service.store.campaign(stars.virtual.guild_id, stars.virtual.channel_id)
    assert state.state["game"]["outcome"] == "playing" and state.state["game"]["step"] == 10  # nothing ran
    await console.ok(f"@as {PAT}")
    console_asked = await console.ok("/saga end")
    assert console_asked["buttons"] == ["Confirm", "Cancel"]
    await console.ok("@press Cancel")
    assert (await console.ok("/saga table"))["data"]["table"]["outcome"] == "playing"
    lost = await ok(stars, PAT, "saga end", confirm=True)  # typed outright, confirm:true answers in advance
    assert lost.data["table"]["outcome"] == "lost" and "LOST" in lost.description


async def test_the_step_10_footer_shows_cycle_only_when_it_applies(console: Console, stars: ConsoleTable) -> None:
    ten = await turn_one(console, end=False)
    assert _footer(ten).startswith(
        '`/saga end cycle:"Sample Song of Dusk, Sample Old Mill"` (step 10: cycle any 2 of your 7 hand cards'
    )
    assert 'e.g. `/saga end cycle:"Sample Song of Dusk, Sample Old Mill"`' in ten["text"]
    assert "<card>" not in ten["text"]
    refused_early = await console.fails('/saga move to:"Sample Crossroads"')  # a refusal names it the same way
    assert '`/saga end cycle:"Sample Song of Dusk, Sample Old Mill"`' in refused_early["text"]
    await console.ok('/saga end cycle:"Sample Song of Dusk, Sample Old Mill"')
    await console.ok('/saga move to:"Sample Crossroads"')
    await console.ok('/saga bonus card:"Sample Chapter Three"')
    await console.ok('/saga put card:"Sample Iron Spear" to:hand reason:"Sample Chapter Three\'s harmonic bonus"')
    await console.ok('/saga buy card:"Sample Iron Spear" pay:"Sample Epilogue"')
    within = await console.ok("/saga continue")
    assert len(within["data"]["table"]["hand"]) == 5
    assert _footer(within).startswith("`/saga end` (step 10: the hand, 5, is within the source limit 5)")
    assert "cycle:" not in within["text"]


async def test_step_5_never_suggests_report_in_a_bot_deck_game(console: Console, stars: ConsoleTable) -> None:
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok('/saga search in_game:true take:"Sample Lost Sister" to:hero-pile')
    five = await console.ok("/saga continue")
    assert five["data"]["table"]["step"] == 5 and "/saga report" not in five["text"]
    assert _footer(five).startswith("`/saga continue spot:<hero>` to place Sample Chapter Three")
    refused_end = await refused(stars, PAT, "saga end")
    assert "/saga report" not in refused_end.error and "/saga continue spot:<hero>" in refused_end.error
    assert "nothing to report" in (await console.fails('/saga report card:"Sample Sling"'))["text"]


async def test_a_rooms_rules_are_shown_only_where_it_is_visited(console: Console, stars: ConsoleTable) -> None:
    cellar = await console.ok('/saga move to:"Sample Cellar"')
    assert "Step 3: follow Sample Cellar's mandatory rules: ~ Look under the stairs" in cellar["text"]
    await console.ok("@press Next step")
    await console.ok("/saga continue")
    await console.ok('/saga end cycle:"Sample Song of Dusk"')
    crossroads = await console.ok('/saga move to:"Sample Crossroads"')
    assert "Look under the stairs" not in crossroads["text"] and "Also in force" not in crossroads["text"]
    assert "Step 3: Sample Crossroads has no mandatory rules." in crossroads["text"]


async def test_bonus_and_song_posts_name_the_command(console: Console, stars: ConsoleTable) -> None:
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok("@press Next step")
    sling = await console.ok('/saga bonus card:"Sample Sling" kind:good-luck')
    assert "To do it: `/saga search top:5 type:spell-song`, then `/saga search take:<card>`." in sling["text"]
    await console.ok("/saga search top:5 type:spell-song")
    await console.ok('/saga search take:"Sample Song of Dawn"')
    await console.ok("/saga continue")
    await console.ok('/saga end cycle:"Sample Song of Dusk, Sample Old Mill"')
    await console.ok('/saga move to:"Sample Crossroads"')
    chapter = await ok(stars, PAT, "saga bonus", card="Sample Chapter Three")  # through Discord
    assert (
        'To do it: `/saga put card:"Sample Iron Spear" to:hand reason:"Sample Chapter Three\'s harmonic bonus"`.'
        in chapter.description
    )
    song = await console.ok('/saga buy card:"Sample Song of Dawn"')
    assert 'To do it: `/saga put card:"Sample Iron Spear" to:hand reason:"Sample Song of Dawn"`.' in song["text"]
    done = await console.ok('/saga put card:"Sample Iron Spear" to:hand reason:"Sample Song of Dawn"')
    assert "Sample Iron Spear" in done["data"]["table"]["hand"]  # the named command runs as written


async def test_a_places_colors_agree_on_every_line(console: Console, stars: ConsoleTable) -> None:
    await console.ok('/saga move to:"Sample Cellar"')
    eight = await console.ok("@press Next step")
    visiting = _line(eight["text"], "Visiting")
    assert visiting == "Sample Cellar [new-winter · G, with B/V from Sample Crossroads]"
    assert _line(eight["text"], "place") == visiting  # the kismet card's line: the same colors
    assert "1. Sample Crossroads [spring · B/V, with G from Sample Cellar]" in eight["text"]
    shown = await ok(stars, PAT, "saga table")
    assert shown.fields["Visiting"] == visiting and f"place: {visiting}" in shown.fields["Kismet: Sample Wanderer"]
    wayshrine = await console.ok('/saga card show card:"Sample Wayshrine"')  # printed green, yellow
    assert "spring, Y/G)" in wayshrine["text"] and "G/Y" not in wayshrine["text"]  # letters in the cycle's order


async def test_putting_the_visited_place_away_never_strands_the_hero(console: Console, stars: ConsoleTable) -> None:
    await turn_one(console)
    await console.ok('/saga move to:"Sample Crossroads"')
    before = (await console.ok("/saga table"))["data"]["table"]
    away = await console.fails('/saga put card:"Sample Crossroads" to:hand reason:"a card rule"')
    assert away["text"].startswith("The hero token is on Sample Crossroads") and "to:token" in away["text"]
    via_room = await console.ok('/saga put card:"Sample Cellar" to:token reason:"a card rule"')
    assert via_room["data"]["table"]["visiting"] == "Sample Cellar"
    host = await console.fails('/saga put card:"Sample Crossroads" to:hand reason:"the place left"')
    assert "the token could never leave Sample Cellar" in host["text"]
    after = (await console.ok("/saga table"))["data"]["table"]
    assert after["places"] == before["places"] and after["hand"] == before["hand"]
    hand = (await console.ok("/saga continue"))["data"]["table"]["hand"]
    await console.ok(f'/saga end cycle:"{", ".join(hand[5:])}"')
    move = await console.fails("/saga move")
    assert "Adjacent to Sample Cellar: Sample Crossroads." in move["text"] and "Adjacent to :" not in move["text"]


async def test_the_table_marks_the_acknowledged_hand_cards(console: Console, stars: ConsoleTable) -> None:
    shown = await ok(stars, PAT, "saga table")
    hand = shown.fields["Hand (5, source limit 5)"]
    assert "Sample Sling [spring · B] (acknowledged)" in hand  # cost 1 ≤ story 1
    assert "Sample Epilogue [new-winter · G]," in hand and "Epilogue [new-winter · G] (ack" not in hand  # cost 3
    assert shown.data["table"]["hand_acknowledged"] == ["Sample Song of Dusk", "Sample Old Mill", "Sample Sling"]


async def test_a_blank_harmonic_check_is_refused(console: Console, stars: ConsoleTable) -> None:
    for blank in (",", " , "):
        said = await console.fails(f'/saga harmonic cards:"{blank}"')
        assert "`cards` is blank" in said["text"] and "HARMONIC" not in said["text"]
    discord_said = await refused(stars, PAT, "saga harmonic", cards=",")
    assert "`cards` is blank" in discord_said.error
