"""Setup, the ten steps in order, purchases, battles, physical-deck mode and the catalog, against the book."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.saga.area import source_limit
from rules.saga.catalog import parse_deck
from tests.rules.saga.helpers import GM, ctx, make_table, refused, run

SAMPLE_SEED = 168  # the scenario's shuffle: turn 1 has good luck, turn 4 meets the Marsh Wisp


def sample(seed: int = SAMPLE_SEED, **options):
    table = make_table(7)
    run(table, "start", deck="sample", seed=seed, **options)
    return table


def test_w1_setup() -> None:
    table = sample()
    game = ctx(table).game
    assert game.story == ["Sample Prologue"]
    assert [h.name for h in game.heroes] == ["Sample Wanderer"]
    assert [i.name for i in game.heroes[0].items] == ["Sample Lantern Blade"]
    assert game.places[0].stack == ["Sample Crossroads"] and game.places[0].attached == ["Sample Cellar"]
    assert len(game.heroes[0].luck) == 1 and len(game.hand) == 5 == source_limit(ctx(table))  # 1 + 4
    assert len(game.deck) == 24 - 5 - 1 - 5
    assert (game.turn, game.step, game.visiting) == (1, 1, "Sample Crossroads")
    assert table.added[0].name == "Sample Wanderer" and table.added[0].owner_id == 22


def test_the_same_seed_deals_the_same_game_and_the_deck_is_shuffled() -> None:
    assert ctx(sample(5)).game.deck == ctx(sample(5)).game.deck
    assert ctx(sample(5)).game.deck != ctx(sample(6)).game.deck


def test_a_deck_needs_its_five_starting_cards() -> None:
    table = make_table()
    run(table, "card define", name="Lonely Hero", type="hero", cost="start", source_bonus=4)
    message = refused(table, "start")
    assert "exactly five starting cards" in message and "Lonely Hero" in message


def test_steps_out_of_order_are_refused_with_the_step_and_what_it_expects() -> None:
    table = sample()
    message = refused(table, "end")
    assert "step 1" in message and "/saga move" in message
    assert "expects `/saga move" in refused(table, "continue")
    assert "There is no battle" in refused(table, "attack", item="Sample Lantern Blade")
    assert "after step 1" in refused(table, "buy", card="Sample Sling", pay="Sample Tin Brigand")
    run(table, "move", to="Sample Cellar")
    assert ctx(table).game.step == 3  # the Cellar's ~ rule waits
    assert "expects `/saga continue` once the place's mandatory" in refused(table, "move", to="Sample Crossroads")


def test_moves_only_to_adjacent_places_and_the_left_stack_rotates() -> None:
    table = sample()
    assert "not adjacent" in refused(table, "move", to="Sample Old Mill")
    assert "Sample Cellar" in refused(table, "move")  # the legal moves are listed
    game = ctx(table).game
    game.places[0].stack.append("Sample Old Mill")  # a buried place under the Crossroads
    game.deck.remove("Sample Old Mill") if "Sample Old Mill" in game.deck else None
    run(table, "move", to="Sample Cellar")
    assert game.places[0].stack == ["Sample Old Mill", "Sample Crossroads"]  # L344


def test_a_turn_draws_checks_luck_and_acknowledges() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    game = ctx(table).game
    assert game.step == 8 and len(game.hand) == 6 and len(game.action) == 1
    luck = game.luck["Sample Wanderer"]
    assert luck.result == "good" and "share green" in luck.reason  # place (room + its host), action, luck
    assert luck.kismet[0] == "Sample Cellar"
    action = game.action[0].name
    run(table, "continue")
    assert game.step == 10
    assert game.action[0].name == action and game.action[0].acknowledged is False  # ignored (cost 2 > story 1)
    assert "exactly 1" in refused(table, "end", cycle="Sample Sling, Sample Epilogue")
    assert "not in your hand" in refused(table, "end", cycle="Nothing Here")
    run(table, "end", cycle=game.hand[0])
    assert (game.turn, game.step, len(game.hand), game.action) == (2, 1, 5, [])
    assert game.deck[-2] == action  # the leftover first (F-R14), then the hand card (F-R29)


def test_purchase_rules() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    game = ctx(table).game
    for name in ("Sample Quiet Ford", "Sample Map Fragment", "Sample Bog Troll", "Sample Sling", "Sample Tin Brigand"):
        to_hand(game, name)
    pay = "Sample Sling, Sample Tin Brigand"
    assert "ignored (cost 2 > story 1)" in refused(table, "buy", card="Sample Quiet Ford", pay=pay)
    assert "blank" in refused(table, "buy", card="Sample Map Fragment")
    assert "never purchased" in refused(table, "buy", card="Sample Bog Troll")
    assert "costs 1" in refused(table, "buy", card="Sample Sling")
    assert "cannot pay for itself" in refused(table, "buy", card="Sample Sling", pay="Sample Sling")
    deck_before = len(game.deck)
    run(table, "buy", card="Sample Sling", pay="Sample Tin Brigand")
    assert [i.name for i in game.heroes[0].items] == ["Sample Lantern Blade", "Sample Sling"]
    assert game.deck[-1] == "Sample Tin Brigand" and len(game.deck) == deck_before + 1  # cycled to the bottom


def test_place_pile_limits() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    c = ctx(table)
    game = c.game
    for i in range(1, 5):
        game.places[i].stack = [f"Sample X{j}{i}" for j in range(5)]
    from rules.saga.optional import place_spot

    with pytest.raises(RuleError, match="full"):
        game.places[0].stack = ["Sample Crossroads"] + [f"Sample Y{j}" for j in range(4)]
        place_spot(c, None)
    game.places[2].stack = game.places[2].stack[:3]
    assert place_spot(c, 3) == 2
    with pytest.raises(RuleError, match="being visited"):
        place_spot(c, 1)


def test_w8_good_luck_bonus_needs_good_luck() -> None:
    table = sample(5)  # turn 1 of seed 5 has no luck (two glyphs match)
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    assert ctx(table).game.luck["Sample Wanderer"].result == "none"
    to_hand(ctx(table).game, "Sample Sling")
    message = refused(table, "bonus", card="Sample Sling", kind="good-luck")
    assert message.startswith("The good luck bonus needs good luck") and "no luck (two glyphs match" in message


def test_w10_attaching_a_song_cycles_the_one_already_there() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    game = ctx(table).game
    for song in ("Sample Song of Dusk", "Sample Song of Dawn"):
        if song in game.deck:
            game.deck.remove(song)
            game.hand.append(song)
    run(table, "attach", song="Sample Song of Dusk", item="Sample Lantern Blade")
    run(table, "attach", song="Sample Song of Dawn", item="Sample Lantern Blade")
    assert game.heroes[0].items[0].songs == ["Sample Song of Dawn"] and game.deck[-1] == "Sample Song of Dusk"


def to_hand(game, name: str) -> None:
    """Fix a card in hand for a test, wherever the shuffle put it."""
    from rules.saga.area import remove

    remove(game, name)
    game.hand.append(name)


def battle_table(enemy: str, luck: str = "none"):
    """Turn 1 forced into a battle with ``enemy`` as the action card."""
    table = sample()
    run(table, "move", to="Sample Cellar")
    game = ctx(table).game
    game.step = 4
    game.deck.remove(enemy) if enemy in game.deck else game.hand.remove(enemy)
    game.deck.insert(1, enemy)  # step 4 draws one into hand, step 5 the enemy
    from rules.saga.turn import advance

    advance(ctx(table))
    game.luck["Sample Wanderer"].result = luck
    run(table, "continue")
    return table, game


def test_a_battle_won_in_its_second_round() -> None:
    table, game = battle_table("Sample Marsh Wisp", luck="bad")
    assert game.step == 9 and game.battle.rounds_total == 2 and game.battle.pending_damage == 1  # enemies first
    run(table, "attack", item="Sample Lantern Blade")
    assert "one item per hero" not in refused(table, "attack", item="Sample Iron Spear")  # not attached
    assert game.battle.round == 2 and game.heroes[0].items[0].face_up  # items reset at the end of the round
    assert game.battle.enemies[0].hits == 0  # armor reset
    game.heroes[0].items.append(type(game.heroes[0].items[0])(name="Sample Iron Spear"))
    run(table, "attack", item="Sample Iron Spear")
    assert game.battle is None and "Sample Marsh Wisp" in game.hand and game.step == 10


def test_the_gm_may_draw_the_damage_cards() -> None:
    table, game = battle_table("Sample Marsh Wisp", luck="bad")
    chosen = game.hand[2]
    assert "needs the GM" in refused(table, "pass", damage=chosen)
    table.actor = GM
    result = run(table, "pass", damage=chosen)
    assert chosen not in game.hand and game.deck[-1] == chosen
    assert any("as the GM drew them" in n for n in result.data["notes"])
    table, game = battle_table("Sample Marsh Wisp", luck="bad")
    table.actor = GM
    with pytest.raises(RuleError, match="name exactly 1 different"):  # raised mid-action: the service rolls back
        run(table, "pass", damage=f"{game.hand[0]}, {game.hand[1]}")


def test_item_lock_and_strictly_greater_than_armor() -> None:
    table, game = battle_table("Sample Tin Brigand")  # armor 2
    hero = game.heroes[0]
    hero.items.append(type(hero.items[0])(name="Sample Sling"))  # attack 2: not greater than armor 2
    run(table, "attack", item="Sample Sling")
    assert game.battle is None and "Sample Tin Brigand" in game.deck  # one round, undefeated: cycled
    assert game.step == 10


def test_damage_greater_than_the_hand_cycles_it_all_and_loses_at_step_10() -> None:
    table, game = battle_table("Sample Bog Troll")
    hand = list(game.hand)
    run(table, "pass")
    assert game.hand == [] and set(hand) <= set(game.deck)
    run(table, "end")
    assert game.outcome == "lost"
    assert "game is over" in refused(table, "move", to="Sample Cellar")


def test_the_end_of_demo_card_wins() -> None:
    table = sample()
    game = ctx(table).game
    assert "does not say" in refused(table, "win", card="Sample Sling")
    assert "not in force" in refused(table, "win", card="Sample Epilogue")  # cost 3 > story 1, in hand
    game.story.append(game.hand.pop(game.hand.index("Sample Epilogue")))
    run(table, "win", card="Sample Epilogue")
    assert game.outcome == "won"


def test_reported_draws() -> None:
    table = sample(draws="reported")
    game = ctx(table).game
    assert game.wanted_draw == "luck" and game.hand == [] and len(game.deck) == 19
    assert "not in your deck" in refused(table, "report", card="Sample Prologue")
    assert "waits for the draw you are reporting (luck)" in refused(table, "move", to="Sample Cellar")
    run(table, "report", card="Sample Rations")
    run(table, "report", card="Sample Sling, Sample Lute, Sample Torn Banner, Sample Old Mill, Sample Ferryman")
    assert game.heroes[0].luck == ["Sample Rations"] and len(game.hand) == 5 and game.wanted_draw is None
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    assert game.step == 4 and game.wanted_draw == "hand"
    run(table, "report", card="Sample Quiet Ford")
    assert game.step == 5 and game.wanted_draw == "action"
    run(table, "report", card="Sample Iron Spear")  # green, like the Cellar (with the Crossroads) and the Rations
    assert game.step == 8 and game.luck["Sample Wanderer"].result == "good"


def test_two_heroes_draw_in_kismetic_order() -> None:
    table = sample()
    game = ctx(table).game
    from rules.saga.area import remove

    remove(game, "Sample Lost Sister")
    game.heroes.append(type(game.heroes[0])(name="Sample Lost Sister"))
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    assert game.step == 5 and game.pending is not None and len(game.hand) == 7  # one card per hero
    first = game.pending
    assert "Name the hero" in refused(table, "continue")
    run(table, "continue", spot="Sample Lost Sister")
    assert game.action[0].name == first and game.action[0].hero == "Sample Lost Sister"
    assert "already filled" in refused(table, "continue", spot="Sample Lost Sister")
    run(table, "continue", spot="Sample Wanderer")
    assert game.step == 8 and set(game.luck) == {"Sample Wanderer", "Sample Lost Sister"}
    assert game.luck["Sample Lost Sister"].kismet[2] is None  # an empty luck stack (F-R18)


def test_import_reports_every_error_by_line_and_card_name() -> None:
    text = """[[card]]
name = "Good Card"
type = "item"
cost = 1

[[card]]
name = "Bad Type"
type = "weapon"
cost = 1

[[card]]
name = "Bad Color"
type = "item"
cost = "free"
harmonics = ["pink"]
"""
    with pytest.raises(RuleError) as error:
        parse_deck(text)
    message = str(error.value)
    assert message.startswith("The deck has 4 error(s); nothing was imported")
    assert "card 2 'Bad Type' (line 6): type" in message
    assert "card 3 'Bad Color' (line 11)" in message and "pink" in message and "cost" in message
    table = make_table()
    refused(table, "card import", text=text)
    assert table.state.catalog == {}
    with pytest.raises(RuleError, match="Not valid JSON"):
        parse_deck('[{"name": "x",}]', "json")
    json_cards = parse_deck('[{"name": "J", "type": "story", "cost": 0, "harmonics": "B V"}]')
    assert json_cards[0].harmonics == ["blue", "violet"]


def test_the_deck_order_is_for_the_gm_only() -> None:
    table = sample()
    assert "needs the GM" in refused(table, "deck")
    table.actor = GM
    shown = run(table, "deck")
    assert shown.secret is not None and ctx(table).game.deck[0] in shown.secret.description
    assert ctx(table).game.deck[0] not in shown.card.description and shown.data == {"deck_count": 13}


def test_w11_a_card_rule_moves_the_token_to_a_buried_place() -> None:
    table = sample()
    game = ctx(table).game
    from rules.saga.area import remove

    remove(game, "Sample Old Mill")
    game.places[2].stack = (
        ["Sample Quiet Ford", "Sample Old Mill"] if "Sample Quiet Ford" not in game.hand else ["Sample Old Mill"]
    )
    if "Sample Quiet Ford" in game.deck:
        game.deck.remove("Sample Quiet Ford")
    assert "after step 1" in refused(table, "put", card="Sample Old Mill", to="token", reason="W11")
    run(table, "move", to="Sample Cellar")
    run(table, "put", card="Sample Old Mill", to="token", reason="the move-by-harmonic item (W11)")
    assert game.visiting == "Sample Old Mill" and game.places[2].stack[0] == "Sample Old Mill"
    run(table, "put", card="Sample Crossroads", to="hand", reason="W11: the place left goes into hand")
    assert "Sample Crossroads" in game.hand and game.places[0].stack == []
    assert "not a place card in the place pile" in refused(table, "put", card="Sample Sling", to="token", reason="x")


def test_two_heroes_add_their_attacks_and_each_enemy_uses_its_heros_luck() -> None:
    from rules.saga.area import remove
    from rules.saga.state import HeroState, ItemState

    table = sample()
    game = ctx(table).game
    for name in ("Sample Lost Sister", "Sample Sling", "Sample Marsh Wisp", "Sample Tin Brigand"):
        remove(game, name)
    game.heroes.append(HeroState(name="Sample Lost Sister", items=[ItemState(name="Sample Sling")]))
    run(table, "move", to="Sample Cellar")
    game.step = 4
    game.deck[2:2] = ["Sample Marsh Wisp", "Sample Tin Brigand"]  # after the two hand draws
    from rules.saga.turn import advance

    advance(ctx(table))
    run(table, "continue", spot="Sample Wanderer")  # the Wisp
    run(table, "continue", spot="Sample Lost Sister")  # the Brigand
    game.luck["Sample Wanderer"].result = "bad"
    game.luck["Sample Lost Sister"].result = "none"
    run(table, "continue")
    battle = game.battle
    assert battle.rounds_total == 2  # the highest battle round number is shared (L642)
    assert battle.pending_damage == 1  # only the Wisp (bad luck for its hero) attacked first (F-R17)
    run(table, "attack", item="Sample Lantern Blade", enemy="Sample Marsh Wisp", hero="Sample Wanderer")
    assert "one item per hero" in refused(table, "attack", item="Sample Lantern Blade", hero="Sample Wanderer")
    run(table, "attack", item="Sample Sling", enemy="Sample Marsh Wisp", hero="Sample Lost Sister")
    wisp, brigand = battle.enemies if game.battle else (None, None)
    assert wisp is not None and wisp.defeated  # 3 + 2 = 5 > armor 4: attacks add up (L622)
    assert not brigand.defeated and battle.round == 2  # the Brigand attacked after the heroes, damage dealt


def test_immediate_damage_timing() -> None:
    from rules.saga.state import SagaSettings

    table = make_table(7, SagaSettings(damage_timing="immediate"))
    run(table, "start", deck="sample", seed=SAMPLE_SEED)
    run(table, "move", to="Sample Cellar")
    game = ctx(table).game
    game.step = 4
    from rules.saga.area import remove
    from rules.saga.turn import advance

    remove(game, "Sample Marsh Wisp")
    game.deck.insert(1, "Sample Marsh Wisp")
    advance(ctx(table))
    game.luck["Sample Wanderer"].result = "bad"
    hand = len(game.hand)
    run(table, "continue")
    assert len(game.hand) == hand - 1 and game.battle.pending_damage == 0  # cycled when the Wisp attacked


def test_spell_songs_attack_too() -> None:
    from rules.saga.area import remove
    from rules.saga.state import ItemState

    table, game = battle_table("Sample Marsh Wisp")  # armor 4, two rounds, heroes first
    remove(game, "Sample Song of Dusk")
    game.hand.append("Sample Song of Dusk")  # cost 0, prints no attack
    assert "declare it with value" in refused(table, "attack", song="Sample Song of Dusk")
    run(table, "attack", song="Sample Song of Dusk", value=3)
    assert "Sample Song of Dusk" not in game.hand and "Sample Song of Dusk" in game.deck[-2:]  # played, cycled
    assert game.battle.round == 2
    remove(game, "Sample Song of Dawn")
    game.heroes[0].items.append(ItemState(name="Sample Lute", songs=["Sample Song of Dawn"]))
    run(table, "attack", song="Sample Song of Dawn", value=5)  # attached to the Lute: the Lute is the item used
    assert game.battle is None and "Sample Marsh Wisp" in game.hand


def test_w9_a_place_enters_only_if_the_stack_tops_end_in_harmonic_order() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    game = ctx(table).game
    # Crossroads (B/V, sharing the Cellar's G) and the Quiet Ford (Y): G→Y reads backwards, harmonic
    message = refused(table, "put", card="Sample Torn Banner", to="place", if_harmonic=True, reason="W9")
    assert "not a place card" in message
    run(table, "put", card="Sample Quiet Ford", to="place", if_harmonic=True, reason="W9")
    assert game.places[1].stack == ["Sample Quiet Ford"]
    message = refused(table, "put", card="Sample Watchtower", to="place", if_harmonic=True, reason="W9")
    assert "not in this campaign's card catalog" in message
    table.actor = GM
    run(table, "card define", name="Test Bluff", type="place", cost="1", harmonics="V")
    game.deck.append("Test Bluff")
    # around the circle: Crossroads (B/V/G), Quiet Ford (Y), Bluff (V): no reading is harmonic
    message = refused(table, "put", card="Test Bluff", to="place", if_harmonic=True, reason="W9")
    assert "would not be in harmonic order" in message and game.places[2].stack == []
    run(table, "put", card="Sample Old Mill", to="place", if_harmonic=True, reason="W9")  # G Y R: backwards
    assert game.places[2].stack == ["Sample Old Mill"]
