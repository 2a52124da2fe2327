"""`/saga draw` at the console table and through real discord.Interaction objects: a card rule's "draw n" (spec
S4), with the bot's deck and with a reported one, its window, its undo, and the hint that names it."""

from __future__ import annotations

from bot.cli.console import ConsoleTable
from tests.conftest import Console
from tests.support.discord_harness import ok, refused

GM, PAT = "Gwen", "Pat"

# Seed 168 (docs/saga.md): the Quiet Ford enters the place pile by its own rule (W9), and turn 3 visits it.
TO_THE_FORD = (
    f"@as {GM}",
    "/campaign start ruleset:saga name:Stars",
    f"@as {PAT}",
    "/saga start deck:sample seed:168",
    '/saga move to:"Sample Cellar"',
    '/saga put card:"Sample Quiet Ford" to:place if_harmonic:true reason:"Sample Quiet Ford"',
    "/saga continue",
    "/saga continue",
    "/saga end",
    '/saga move to:"Sample Crossroads"',
    "/saga continue",
    '/saga end cycle:"Sample Song of Dusk, Sample Old Mill"',
    '/saga move to:"Sample Quiet Ford"',
)
FORD_RULE = "Sample Quiet Ford"


async def at_the_ford(console: Console) -> dict:
    """Turn 3 at step 10, visiting the Quiet Ford: the step-10 post."""
    for line in TO_THE_FORD:
        await console.ok(line)
    return await console.ok("/saga continue")


async def test_the_fords_rule_names_the_draw_and_the_draw_takes_the_top_cards(console: Console) -> None:
    step10 = await at_the_ford(console)
    table = step10["data"]["table"]
    assert (table["turn"], table["step"], table["visiting"], table["source_limit"]) == (3, 10, FORD_RULE, 5)
    assert f'To do it: `/saga draw count:5 reason:"{FORD_RULE}"`' in step10["text"]
    hand, deck = table["hand"], table["deck_count"]
    drawn = await console.ok(f'/saga draw count:5 reason:"{FORD_RULE}"')
    after = drawn["data"]["table"]
    new = after["hand"][len(hand) :]
    assert after["hand"][: len(hand)] == hand and len(new) == 5 and after["deck_count"] == deck - 5
    assert f"Drew 5 card(s) from the top of the deck: {', '.join(new)}." in drawn["text"]
    assert "over the source limit 5: step 10 cycles it down" in drawn["text"] and not drawn["ephemeral"]
    # a draw never cycles by itself: step 10 cycles the hand (11) down to the limit (5)
    short = await console.fails(f'/saga end cycle:"{hand[0]}"')
    assert "Name exactly 6 hand card(s)" in short["text"]
    ended = await console.ok(f'/saga end cycle:"{", ".join(after["hand"][:6])}"')
    assert ended["data"]["table"]["hand"] == after["hand"][6:]


async def test_undo_puts_the_drawn_cards_back_on_the_deck_in_order(console: Console) -> None:
    await at_the_ford(console)
    await console.ok(f"@as {GM}")
    order = (await console.ok("/saga deck"))["data"]
    await console.ok(f"@as {PAT}")
    first = await console.ok(f'/saga draw count:3 reason:"{FORD_RULE}"')
    await console.ok(f"@as {GM}")
    await console.undo()
    await console.ok(f"@as {PAT}")
    back = (await console.ok("/saga table"))["data"]["table"]
    assert back["hand"] == first["data"]["table"]["hand"][:-3] and back["deck_count"] == order["deck_count"]
    again = await console.ok(f'/saga draw count:3 reason:"{FORD_RULE}"')
    assert again["data"]["table"]["hand"] == first["data"]["table"]["hand"]  # the same three, in the same order


async def test_a_draw_is_refused_outside_the_optional_window_and_for_anyone_else(console: Console) -> None:
    for line in TO_THE_FORD[:4]:
        await console.ok(line)
    early = await console.fails('/saga draw count:1 reason:"a card rule"')
    assert "after step 1" in early["text"] and "/saga move" in early["text"]
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok("@as Quinn")
    stranger = await console.fails('/saga draw count:1 reason:"a card rule"')
    assert "Sample Wanderer belongs to another player" in stranger["text"]
    await console.ok(f"@as {PAT}")
    typed = await console.fails('/saga draw count:1 to:item reason:"a card rule"')
    assert "`to` must be one of: hand, action, luck, story, cycle." in typed["text"]
    cards = await console.fails('/saga draw count:1 cards:"Sample Lute" reason:"a card rule"')
    assert "draws for you: leave cards: out" in cards["text"]
    zero = await console.fails('/saga draw count:0 reason:"a card rule"')
    assert "`count` must be between 1 and 60, not 0." in zero["text"]
    after = (await console.ok("/saga table"))["data"]["table"]
    assert after["deck_count"] == 13 and len(after["hand"]) == 5  # every refusal changed nothing


async def test_an_empty_deck_stops_the_draw(console: Console) -> None:
    for line in TO_THE_FORD[:5]:
        await console.ok(line)
    deck = (await console.ok("/saga table"))["data"]["table"]["deck_count"]
    drawn = await console.ok(f'/saga draw count:{deck + 3} to:story reason:"a card rule"')
    table = drawn["data"]["table"]
    assert table["deck_count"] == 0 and len(table["story"]) == 1 + deck
    assert "The deck is empty: 3 card(s) could not be drawn." in drawn["text"]
    again = await console.ok('/saga draw count:2 reason:"a card rule"')
    assert "Drew no card." in again["text"] and "the deck is empty" in again["text"].casefold()


async def test_reported_draws_name_the_cards_and_check_them_against_the_deck(console: Console) -> None:
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:saga name:Stars",
        f"@as {PAT}",
        "/saga start deck:sample draws:reported",
        '/saga report card:"Sample Rations"',
        '/saga report card:"Sample Sling, Sample Lute, Sample Torn Banner, Sample Old Mill, Sample Ferryman"',
        '/saga move to:"Sample Cellar"',
        "/saga continue",
    ):
        await console.ok(line)
    waiting = await console.fails('/saga draw count:1 cards:"Sample Quiet Ford" reason:"a card rule"')
    assert "/saga report card:<name>" in waiting["text"]
    await console.ok('/saga report card:"Sample Quiet Ford"')
    await console.ok('/saga report card:"Sample Iron Spear"')
    unnamed = await console.fails('/saga draw count:2 reason:"a card rule"')
    assert 'name the 2 card(s) you drew, cards:"A, B"' in unnamed["text"]
    in_play = await console.fails('/saga draw count:1 cards:"Sample Sling" reason:"a card rule"')
    assert "'Sample Sling' is not in your deck as the table knows it (it is already in play)" in in_play["text"]
    twice = await console.fails('/saga draw count:2 cards:"Sample Epilogue, sample epilogue" reason:"a card rule"')
    assert "named twice" in twice["text"]
    few = await console.fails('/saga draw count:2 cards:"Sample Epilogue" reason:"a card rule"')
    assert "You drew 2 card(s): name exactly that many, not 1." in few["text"]
    luck = await console.ok('/saga draw count:2 cards:"Sample Epilogue, Sample Bog Troll" to:luck reason:"a rule"')
    hero = luck["data"]["table"]["heroes"][0]
    assert hero["luck"][:2] == ["Sample Bog Troll", "Sample Epilogue"]  # one at a time, each on top
    assert "Drew 2 card(s) from your deck: Sample Epilogue, Sample Bog Troll." in luck["text"]


async def test_draw_through_discord(console: Console) -> None:
    step10 = await at_the_ford(console)
    table: ConsoleTable = console.table
    done = await ok(table, PAT, "saga draw", count=2, reason=FORD_RULE, to="action")
    action = [a["name"] for a in done.data["table"]["action"]]
    assert len(action) == len(step10["data"]["table"]["action"]) + 2
    said = await refused(table, PAT, "saga draw", count=2, reason=FORD_RULE, cards="Sample Lute")
    assert "leave cards: out" in said.error


async def test_help_shows_the_draw_with_an_example(console: Console) -> None:
    for line in TO_THE_FORD[:4]:
        await console.ok(line)
    shown = await console.ok('/help command:"saga draw"')
    assert shown["data"]["example"] == '/saga draw count:2 reason:"<the card rule>"'
    assert "Draw cards as a card rule says" in shown["text"]
