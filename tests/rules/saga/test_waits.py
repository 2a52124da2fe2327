"""Who a saga table waits on, post by post: each wait appears, keeps its key while it goes on, and goes."""

from __future__ import annotations

from rules.base import Wait
from rules.saga import RULESET
from rules.saga.area import remove, source_limit
from rules.saga.state import HeroState, ItemState
from rules.saga.turn import advance
from tests.rules.saga.helpers import GM, PLAYER, ctx, make_table, run
from tests.rules.saga.test_turn import battle_table, sample


def waits(table) -> list[Wait]:
    return RULESET.waits(table)


def only(table) -> Wait:
    found = waits(table)
    assert len(found) == 1, found
    return found[0]


def test_no_game_no_wait() -> None:
    assert waits(make_table()) == []


def test_the_player_is_waited_on_at_every_step_of_a_turn() -> None:
    table = sample()
    first = only(table)
    assert (first.key, first.user_id, first.who, first.kind) == (
        "turn 1 step 1",
        PLAYER.user_id,
        "Sample Wanderer",
        "turn",
    )
    assert first.what == "move to an adjacent place (step 1)" and first.commands == ["/saga move"]
    assert first.on_deadline is None  # a move is the player's choice: the campaign's own rule applies
    table.actor = GM
    run(table, "table")  # a read, and a GM's: the wait goes on, same key
    assert only(table) == first
    table.actor = PLAYER
    run(table, "move", to="Sample Cellar")  # the Cellar's ~ rule holds step 3
    step3 = only(table)
    assert step3.key == "turn 1 step 3" and "Sample Cellar's mandatory rules" in step3.what
    assert step3.commands == ["/saga continue"]
    run(table, "continue")  # steps 4-7 run on to step 8
    step8 = only(table)
    assert step8.key == "turn 1 step 8" and step8.what == "continue: acknowledge the action cards (step 8)"
    run(table, "continue")  # no enemy: step 10
    step10 = only(table)
    game = ctx(table).game
    assert (len(game.hand), source_limit(ctx(table))) == (6, 5)  # good luck brought the action card to hand
    assert (step10.key, step10.commands) == ("turn 1 step 10", ["/saga end"])
    assert step10.what == "cycle 1 hand card(s) down to the source limit and end the turn (step 10)"
    run(table, "end", cycle=game.hand[0])
    assert only(table).key == "turn 2 step 1"  # a new turn is a new wait


def test_a_battle_round_waits_with_a_pass_at_the_deadline() -> None:
    table, game = battle_table("Sample Marsh Wisp", luck="bad")  # two rounds
    first = only(table)
    assert first.key == "turn 1 battle round 1" and first.what == "attack or pass (battle round 1)"
    assert first.commands == ["/saga attack", "/saga pass"]
    assert first.on_deadline is not None and first.on_deadline.action == "pass"
    assert (
        first.on_deadline.options == {"hero": "Sample Wanderer"} and "passes battle round 1" in first.on_deadline.says
    )
    # the deadline's action is a real one: run as the GM it passes the round
    table.actor = GM
    run(table, first.on_deadline.action, **first.on_deadline.options)
    assert game.battle.round == 2 and only(table).key == "turn 1 battle round 2"
    table.actor = PLAYER
    run(table, "attack", item="Sample Lantern Blade")
    assert game.battle is None and only(table).key == "turn 1 step 10"


def test_several_heroes_are_waited_on_one_by_one_in_a_battle_round() -> None:
    table = sample()
    game = ctx(table).game
    for name in ("Sample Lost Sister", "Sample Sling", "Sample Marsh Wisp", "Sample Tin Brigand"):
        remove(game, name)
    game.heroes.append(HeroState(name="Sample Lost Sister", items=[ItemState(name="Sample Sling")]))
    run(table, "move", to="Sample Cellar")
    game.step = 4
    game.deck[2:2] = ["Sample Marsh Wisp", "Sample Tin Brigand"]
    advance(ctx(table))
    kismetic = only(table)
    assert kismetic.key == "turn 1 step 5" and "Sample Marsh Wisp" in kismetic.what
    run(table, "continue", spot="Sample Wanderer")
    assert only(table).key == "turn 1 step 5"  # the next card: the same wait goes on
    run(table, "continue", spot="Sample Lost Sister")
    game.luck["Sample Wanderer"].result = "none"
    game.luck["Sample Lost Sister"].result = "none"
    run(table, "continue")
    both = waits(table)
    assert [w.key for w in both] == [
        "turn 1 battle round 1: Sample Wanderer",
        "turn 1 battle round 1: Sample Lost Sister",
    ]
    assert all(w.who == "Sample Wanderer" and w.user_id == PLAYER.user_id for w in both)  # one player, two heroes
    assert both[1].what == "Sample Lost Sister: attack or pass (battle round 1)"
    assert both[1].on_deadline.options == {"hero": "Sample Lost Sister"}
    run(table, "pass", hero="Sample Wanderer")
    assert waits(table) == both[1:]  # the hero who acted is no longer waited on; the other's wait goes on


def test_reported_draws_wait_for_the_report() -> None:
    table = sample(draws="reported")
    setup = only(table)
    assert setup.key == "turn 1 setup report luck" and setup.commands == ["/saga report"]
    assert setup.what == "report the card(s) you drew into the luck pile (setup)"
    run(table, "report", card="Sample Rations")
    hand = only(table)
    assert hand.key == "turn 1 setup report hand"
    run(table, "report", card="Sample Sling, Sample Lute")
    assert only(table) == hand  # two of five reported: the same wait goes on
    run(table, "report", card="Sample Torn Banner, Sample Old Mill, Sample Ferryman")
    assert only(table).key == "turn 1 step 1"
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    assert only(table).key == "turn 1 step 4 report hand"


def test_nothing_once_the_game_is_won_or_lost() -> None:
    table = sample()
    game = ctx(table).game
    game.story.append(game.hand.pop(game.hand.index("Sample Epilogue")))
    run(table, "win", card="Sample Epilogue")
    assert waits(table) == []
    table, game = battle_table("Sample Bog Troll")
    run(table, "pass")
    assert (only(table).key, only(table).what) == (
        "turn 1 step 10",
        "end the turn (step 10): your hand is empty, and a turn that ends with no cards in hand loses the game",
    )  # an empty hand: the reminder warns
    run(table, "end")
    assert game.outcome == "lost" and waits(table) == []
