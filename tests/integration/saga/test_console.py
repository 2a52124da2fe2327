"""The checks on demand (`harmonic`, `luck`, `odds`, `bonus`), house rules, card define and the card-rule
primitives, through the console table and the real command tree."""

from __future__ import annotations

from tests.conftest import Console

GM, PAT = "Gwen", "Pat"


async def started(console: Console) -> None:
    for line in (
        f"@as {GM}",
        "/campaign start ruleset:saga name:Stars",
        f"@as {PAT}",
        "/saga start deck:sample seed:168",
    ):
        await console.ok(line)


async def test_harmonic_on_demand(console: Console) -> None:
    await started(console)
    w2 = await console.ok('/saga harmonic cards:"GREEN, BLUE, YELLOW, RED, VIOLET"')
    assert w2["data"]["order"] == "discordant" and w2["data"]["first_bad_step"] == 2 and w2["ephemeral"]
    assert "BLUE → YELLOW is not a step" in w2["text"]
    back = await console.ok('/saga harmonic cards:"G Y R V B"')
    assert back["data"]["order"] == "harmonic" and back["data"]["direction"] == "backward"
    cards = await console.ok('/saga harmonic cards:"Sample Crossroads, Sample Old Mill, Sample Quiet Ford"')
    assert cards["data"]["order"] == "harmonic" and "read as B G Y" in cards["data"]["reason"]  # one color each
    place = await console.ok("/saga harmonic pile:place")
    assert place["data"]["cards"] == ["Sample Crossroads"] and place["data"]["order"] == "harmonic"
    story = await console.ok("/saga harmonic pile:story")
    assert story["data"]["cards"] == ["Sample Prologue"]
    assert "neither a color" in (await console.fails('/saga harmonic cards:"Blue, Nowhere"'))["text"]
    assert "Name colors or cards" in (await console.fails("/saga harmonic"))["text"]


async def test_luck_for_three_named_cards(console: Console) -> None:
    await started(console)
    good = await console.ok('/saga luck cards:"Sample Cellar, Sample Iron Spear, Sample Rations"')
    assert good["data"]["result"] == "good" and good["data"]["shared"] == ["green"]
    bad = await console.ok('/saga luck cards:"Sample Cellar, Sample Marsh Wisp, Sample Wanderer"')
    assert (bad["data"]["result"], bad["data"]["advantage"]) == ("bad", "enemies")
    some = await console.ok('/saga luck cards:"Sample Prologue, Sample Sling, Sample Old Mill"')
    assert (some["data"]["result"], some["data"]["advantage"]) == ("none", "heroes")
    assert "Name three cards" in (await console.fails('/saga luck cards:"Sample Cellar"'))["text"]
    assert "No action card yet" in (await console.fails("/saga luck"))["text"]


async def test_house_rules_change_the_checks(console: Console) -> None:
    await started(console)
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok("/saga continue")
    shared = await console.ok("/saga luck")
    assert shared["data"]["luck"]["Sample Wanderer"]["result"] == "good"  # the Cellar shares its host's colors
    await console.ok(f"@as {GM}")
    await console.ok("/campaign settings key:attached_sharing value:false")
    await console.ok(f"@as {PAT}")
    alone = await console.ok("/saga luck")
    assert alone["data"]["luck"]["Sample Wanderer"]["kismet"][0] == "Sample Cellar"
    await console.ok(f"@as {GM}")
    await console.ok("/campaign settings key:kismet_order value:place-luck-action")
    await console.ok(f"@as {PAT}")
    swapped = await console.ok("/saga luck")
    assert swapped["data"]["luck"]["Sample Wanderer"]["kismet"][1] == "Sample Iron Spear"  # the luck card second


async def test_bonus_checks_by_source(console: Console) -> None:
    await started(console)
    hero = await console.ok('/saga bonus cost:"R, Y" where:hero')
    assert hero["data"]["where"] == "Sample Wanderer and their items" and hero["ephemeral"]
    stack = await console.ok('/saga bonus cost:"B, G" where:stack')
    assert sorted(stack["data"]["cards"]) == ["Sample Cellar", "Sample Crossroads"]
    refused = await console.fails('/saga bonus cost:"R, G" where:hero')
    assert "not met" in refused["text"] and "no card left" in refused["text"]
    auto = await console.fails('/saga bonus cost:"B, V, R, Y, G, B"')
    assert "story pile:" in auto["text"] and "place pile:" in auto["text"]
    assert "not a harmonic" in (await console.fails('/saga bonus cost:"pink"'))["text"]


async def test_define_a_card_and_the_hand_same_harmonic_bonus(console: Console) -> None:
    await started(console)
    await console.ok(f"@as {GM}")
    defined = await console.ok(
        '/saga card define name:"Sample Lantern Blade" type:item cost:start glyph:autumn harmonics:Y attack:3 '
        'harmonic_bonus:"hand: Search In Game for a non-wanted folk-hero and move it to the hero pile."'
    )
    assert defined["data"]["replaced"] and defined["data"]["card"]["harmonic_bonus"]["hand_same_harmonic"]
    await console.ok(f"@as {PAT}")
    await console.ok('/saga move to:"Sample Cellar"')
    refused = await console.fails('/saga bonus card:"Sample Lantern Blade"')
    assert "do not all carry one harmonic" in refused["text"]
    assert "blue, violet" in (await console.fails("/saga card define name:X type:item cost:1 harmonics:pink"))["text"]
    assert "a number" in (await console.fails("/saga card define name:X type:item cost:free"))["text"]
    too_dear = (await console.fails("/saga card define name:X type:hero cost:100"))["text"]  # the fuzz test's find
    assert "`cost` must be at most 99, or must be one of: blank or start" in too_dear
    assert "Input should" not in too_dear


async def test_primitives_for_card_rules(console: Console) -> None:
    await started(console)
    await console.ok('/saga move to:"Sample Cellar"')
    # W9's harmonic bonus: search In Game for a folk-hero and move it to the hero pile
    joined = await console.ok('/saga search in_game:true take:"Sample Lost Sister" to:hero-pile')
    assert [h["name"] for h in joined["data"]["table"]["heroes"]] == ["Sample Wanderer", "Sample Lost Sister"]
    assert joined["data"]["table"]["source_limit"] == 6  # 1 + 4 + 1: a further hero extends it (L252)
    blank = await console.ok('/saga put card:"Sample Map Fragment" to:acknowledge reason:"a card rule"')
    assert "acknowledged this turn" in blank["text"]
    assert "numerical cost" in (await console.fails('/saga put card:"Sample Sling" to:acknowledge reason:x'))["text"]
    await console.ok(f"@as {GM}")
    log = await console.ok("/campaign log")
    assert log["data"]["events"][0]["summary"].endswith("a card rule")


async def test_lookup_finds_the_rules_tables_and_glossary(console: Console) -> None:
    await started(console)
    for term, needle in (
        ("kismet cards", "The current place card + action card"),
        ("glossary harmonic order", "Erratum"),
        ("luck table", "some matching"),
        ("harmonic cycle", "BLUE → VIOLET → RED → YELLOW → GREEN"),
        ("step 10", "source limit"),
        ("battle step 4", "armor is reset"),
        ("card type folk", "free"),
        ("glyph new-winter", "end-winter"),
    ):
        found = await console.ok(f'/lookup term:"{term}"')
        assert needle.casefold() in found["text"].casefold(), (term, found["text"][:300])


async def test_undo_of_start_removes_the_game_and_its_character(console: Console) -> None:
    await started(console)
    await console.ok(f"@as {GM}")
    await console.undo()
    assert "No characters yet" in (await console.ok("/character list"))["text"]
    assert "No Spell Saga game" in (await console.fails("/saga table"))["text"]
