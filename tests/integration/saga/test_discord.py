"""`/saga` through real discord.Interaction objects and the bot's CommandTree, the Next step button, undo,
`/character show`, autocomplete, and the largest cards against Discord's embed limits."""

from __future__ import annotations

import discord
import pytest

from bot.adapter.render import card_problems
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser, command_data
from rules.base import Card
from rules.saga.area import Ctx
from rules.saga.book import CardDef
from rules.saga.cards import catalog_card, kismet_fields, table_card
from rules.saga.state import Battle, EnemyState, Game, HeroState, ItemState, LuckRecord, SagaSettings, SagaState, Spot
from tests.conftest import Console
from tests.rules.saga.helpers import make_table
from tests.support.discord_harness import slash

GM, PAT, OZ = "Gwen", "Pat", "Oz"


@pytest.fixture
async def stars(console: Console) -> ConsoleTable:
    for line in (f"@as {GM}", "/campaign start ruleset:saga name:Stars", f"@as {PAT}",
                 "/saga start deck:sample seed:168"):  # fmt: skip
        await console.ok(line)
    return console.table


async def test_a_turn_through_the_tree_and_the_next_step_button(stars: ConsoleTable, console: Console) -> None:
    listed = await slash(stars, PAT, "saga table")
    assert type(listed.interaction) is discord.Interaction and listed.error is None
    assert listed.interaction.command.qualified_name == "saga table"
    fields = {f["name"]: f["value"] for f in listed.embed["fields"]}
    assert fields["Turn"] == "1 · step 1" and fields["Deck"] == "13 card(s)"
    assert listed.messages[0].buttons() == []  # nothing waits for continue at step 1

    await console.ok(f"@as {PAT}")
    moved = await console.ok('/saga move to:"Sample Cellar"')
    assert moved["buttons"] == ["Next step"] and moved["data"]["table"]["step"] == 3  # the Cellar's ~ rule waits
    pressed = await console.ok("@press Next step")  # the button runs /saga continue
    assert pressed["data"]["table"]["step"] == 8
    assert "Kismet: Sample Wanderer" in pressed["text"] and "GOOD LUCK" in pressed["text"]
    await console.ok(f"@as {OZ}")
    assert "belong to whoever ran the command" in (await console("@press Next step"))["text"]


async def test_refusals_are_ephemeral_and_change_nothing(stars: ConsoleTable) -> None:
    early = await slash(stars, PAT, "saga end")
    assert early.outcome is None and early.messages[0].ephemeral
    assert "Turn 1 is at step 1" in early.error and "/saga move" in early.error
    far = await slash(stars, PAT, "saga move", to="Sample Old Mill")
    assert "not adjacent" in far.error and "Sample Cellar" in far.error
    other = await slash(stars, OZ, "saga move", to="Sample Cellar")
    assert "belongs to another player" in other.error
    state = await stars.bot.service.store.campaign(stars.virtual.guild_id, stars.virtual.channel_id)
    assert state.state["game"]["turn"] == 1 and state.state["game"]["step"] == 1


async def test_undo_reverts_a_move_exactly(stars: ConsoleTable, console: Console) -> None:
    store = stars.bot.service.store

    async def state() -> dict:
        row = await store.campaign(stars.virtual.guild_id, stars.virtual.channel_id)
        return row.state

    before = await state()
    await console.ok(f"@as {PAT}")
    await console.ok('/saga move to:"Sample Cellar"')
    await console.ok("/saga continue")
    assert (await state())["game"]["step"] == 8
    await console.ok(f"@as {GM}")
    undone = await console.undo()
    assert "saga continue" in undone["text"]
    await console.undo()
    assert await state() == before


async def test_character_show_hides_the_deck_order(stars: ConsoleTable, console: Console) -> None:
    for user in (PAT, OZ, GM):
        await console.ok(f"@as {user}")
        shown = await console.ok('/character show name:"Sample Wanderer"')
        sheet = shown["data"]["sheet"]
        assert sheet["deck_count"] == 13 and "deck" not in sheet
        row = await stars.bot.service.store.campaign(stars.virtual.guild_id, stars.virtual.channel_id)
        top = row.state["game"]["deck"][0]
        assert top not in shown["text"] and top not in str(sheet).replace(str(sheet["heroes"]), "")
    deck = await console.ok("/saga deck")  # the GM's secret card
    assert deck["ephemeral"] and deck["secret"]["to"] == "the GM by direct message"
    await console.ok(f"@as {PAT}")
    assert "needs the GM" in (await console.fails("/saga deck"))["text"]


async def test_autocomplete_offers_the_table(stars: ConsoleTable) -> None:
    data = command_data(stars.virtual.tree, ["saga", "move"], {"to": ""}, focused="to", guild_id=stars.virtual.guild_id)
    choices = await stars.virtual.autocomplete(VirtualUser(PAT), data)
    assert [c["name"] for c in choices] == ["Sample Cellar"]
    data = command_data(
        stars.virtual.tree, ["saga", "buy"], {"pay": "sl"}, focused="pay", guild_id=stars.virtual.guild_id
    )
    assert "Sample Sling" in [c["name"] for c in await stars.virtual.autocomplete(VirtualUser(PAT), data)]


def test_the_tree_fits_discords_limits() -> None:
    from rules.saga import RULESET

    top = {name.split()[0] for name in RULESET.actions}
    assert len(top) <= 25


def test_the_largest_cards_fit_in_an_embed() -> None:
    """A crowded table (five full stacks, a long hand, a battle, two heroes) and the fullest catalog card."""
    long = "A Very Long Card Name For A Crowded Table Number"
    cards = {}
    for i in range(80):
        cards[f"{long} {i}"] = CardDef(name=f"{long} {i}", type="place", cost=3, glyph="spring",
                                      harmonics=["blue", "violet", "red"], mandatory=["x" * 300])  # fmt: skip
    table = make_table()
    state = SagaState(catalog={k.casefold(): v for k, v in cards.items()})
    names = list(cards)
    game = Game(player_id=1, character="x", deck=names[:10], hand=names[10:40], story=names[40:50],
                heroes=[HeroState(name=names[50], items=[ItemState(name=n, songs=[names[60]]) for n in names[51:55]],
                                  luck=names[55:60]),
                        HeroState(name=names[61], items=[ItemState(name=names[62])], luck=[names[63]])],
                places=[Spot(stack=names[64 + 3 * i: 67 + 3 * i], attached=[names[79]]) for i in range(5)],
                step=9,
                luck={names[50]: LuckRecord(result="good", reason="r" * 200, kismet=names[64:67], shared=["blue"])},
                battle=Battle(enemies=[EnemyState(name=n, armor=9, attack=9, rounds=3, hero=names[50])
                                       for n in names[:5]]))  # fmt: skip
    state.game = game
    table.state = state
    ctx = Ctx(table, state, game, SagaSettings())
    card = table_card(ctx, "Crowded", ["note " * 100] * 30)
    kismet_fields(ctx, card)
    assert card_problems(card) == []
    big = CardDef(name="B" * 80, type="enemy", cost=9, armor=9, attack=9, rounds=9, mandatory=["m" * 1500],
                  optional=["o" * 1500], good_luck_bonus="g" * 1000, prize="p" * 500, penalty="q" * 500,
                  end_of_demo=True)  # fmt: skip
    assert card_problems(catalog_card(big)) == []
    assert isinstance(card, Card)


async def test_autocomplete_for_every_kind_of_option(stars: ConsoleTable) -> None:
    async def offered(path: str, option: str, typed: str = "") -> list[str]:
        data = command_data(stars.virtual.tree, path.split(), {option: typed}, focused=option,
                            guild_id=stars.virtual.guild_id)  # fmt: skip
        return [c["name"] for c in await stars.virtual.autocomplete(VirtualUser(PAT), data)]

    assert "blank" in await offered("saga card define", "cost")
    assert "folk-hero" in await offered("saga card define", "subtypes")
    assert "R, Y" in await offered("saga bonus", "cost")
    assert await offered("saga attack", "item") == ["Sample Lantern Blade"]
    assert await offered("saga switch", "hero") == ["Sample Wanderer"]
    assert "Sample Prologue" in await offered("saga luck", "cards", "Pro")
