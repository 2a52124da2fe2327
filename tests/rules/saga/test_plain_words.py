"""Issue 22 for saga, at the rules: every message says the real reason and nothing a player reads is wrong.

The console and Discord side of each item is in tests/integration/saga/test_plain_words.py.
"""

from __future__ import annotations

from rules.saga import hints, steps
from rules.saga.area import destinations, remove
from rules.saga.cards import public_data, table_card
from rules.saga.state import HeroState, SagaSettings
from tests.rules.saga.helpers import GM, ctx, make_table, refused, run
from tests.rules.saga.test_turn import battle_table, sample, to_hand

RULE = "Look under the stairs: nothing happens in the sample deck."


def _fields(table) -> dict[str, str]:
    card = table_card(ctx(table), "t", [])
    return {f.name: f.value for f in card.fields} | {"footer": card.footer}


def test_a_hero_card_stays_in_the_hero_pile_and_says_why() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    for to in ("hand", "cycle", "luck", "story", "action"):
        message = refused(table, "put", card="Sample Wanderer", to=to, reason="a card rule")
        assert "is a hero in the hero pile" in message and "not in this game" not in message, message
        assert "no rule that takes a hero card out" in message
    assert refused(table, "put", card="Sample Wanderer", to="hero-pile", reason="x") == (
        "Sample Wanderer is already in the hero pile."
    )
    assert "already attached to Sample Wanderer" in refused(
        table, "put", card="Sample Lantern Blade", to="item", reason="x"
    )
    started = refused(table, "put", card="Sample Wanderer", to="acknowledge", reason="x")
    assert "a source icon (a starting card)" in started and "numerical" not in started


def test_ending_with_an_empty_hand_is_asked_first() -> None:
    table, game = battle_table("Sample Bog Troll")  # attack 9: its damage takes the whole hand
    run(table, "pass")
    assert game.hand == [] and game.step == 10
    question = steps.end_question(ctx(table))
    assert question is not None and question.startswith("Ending turn 1 now loses the game: your hand is empty")
    assert "loses the game" in _fields(table)["footer"]
    to_hand(game, "Sample Rations")  # a card rule brings one card back: no question
    assert steps.end_question(ctx(table)) is None
    assert _fields(table)["footer"] == "Next: `/saga end` (step 10: the hand, 1, is within the source limit 5)"
    # a source limit of 0 (a house rule's fixed limit) cycles the whole hand: the same warning, its own reason
    game.fixed_limit = 0
    table.settings = SagaSettings(source_limit="fixed")
    assert "the source limit is 0" in (steps.end_question(ctx(table)) or "")
    game.step = 8
    assert steps.end_question(ctx(table)) is None  # only step 10 ends the turn


def test_the_step_10_footer_names_cycle_only_when_it_applies_with_real_cards() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    run(table, "continue")
    game = ctx(table).game
    assert len(game.hand) == 6 and game.step == 10
    footer = _fields(table)["footer"]
    assert footer.startswith(f'Next: `/saga end cycle:"{game.hand[0]}"` (step 10: cycle any 1 of your 6 hand cards')
    assert "<card>" not in footer
    run(table, "end", cycle=game.hand[0])
    run(table, "move", to="Sample Crossroads")  # no ~ rule here: on to step 8
    while len(game.hand) > 4:  # a hand within the limit (good luck may add the action card): `/saga end` alone
        game.deck.append(game.hand.pop())
    run(table, "continue")
    assert game.step == 10 and "cycle:" not in _fields(table)["footer"] and len(game.hand) <= 5


def test_step_5_names_only_the_command_this_game_takes() -> None:
    table = sample()
    game = ctx(table).game
    remove(game, "Sample Lost Sister")
    game.heroes.append(HeroState(name="Sample Lost Sister"))
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    assert game.step == 5 and game.pending
    said = steps.expects(ctx(table))
    assert "/saga report" not in said and "`/saga continue spot:<hero>`" in said and game.pending in said
    assert "/saga report" not in refused(table, "end")
    run(table, "continue", spot="Sample Lost Sister")
    assert '`/saga continue spot:"Sample Wanderer"`' in steps.expects(ctx(table))  # one spot left: named
    reported = sample(draws="reported")
    game = ctx(reported).game
    run(reported, "report", card="Sample Rations")
    run(reported, "report", card="Sample Sling, Sample Lute, Sample Torn Banner, Sample Old Mill, Sample Ferryman")
    run(reported, "move", to="Sample Cellar")
    run(reported, "continue")
    run(reported, "report", card="Sample Quiet Ford")
    assert game.step == 5 and game.wanted_draw == "action"
    said = steps.expects(ctx(reported))
    assert "`/saga report card:<name>`" in said and "continue" not in said


def test_a_places_rules_apply_where_it_is_visited() -> None:
    table = sample()
    game = ctx(table).game
    to_hand(game, "Sample Quiet Ford")
    game.hand.remove("Sample Quiet Ford")
    game.places[1].stack = ["Sample Quiet Ford"]  # "cycle this card at end of turn": a place's rule
    run(table, "move", to="Sample Cellar")
    assert [n for n, _ in steps.rules_in_force(ctx(table), "mandatory")] == ["Sample Cellar"]
    assert steps.rules_in_force(ctx(table), "optional") == []  # the Quiet Ford is not visited
    run(table, "continue")
    run(table, "continue")
    assert "Quiet Ford" not in steps.end_prompt(ctx(table))
    run(table, "end", cycle=", ".join(game.hand[5:]))
    moved = run(table, "move", to="Sample Crossroads")
    assert not any("Look under the stairs" in note for note in moved.data["notes"])  # the room's ~ rule: not here
    assert steps.rules_in_force(ctx(table), "mandatory") == []
    # a folk card attached to the Crossroads' stack: followed while its place is visited (L294), not from the room
    table.actor = GM
    run(table, "card define", name="Test Ghost", type="folk", cost="1", mandatory="Whisper at the crossing.")
    game.places[0].attached.append("Test Ghost")
    assert steps.rules_in_force(ctx(table), "mandatory") == [("Test Ghost", "Whisper at the crossing.")]
    game.token_room = "Sample Cellar"
    assert steps.rules_in_force(ctx(table), "mandatory") == [("Sample Cellar", RULE)]


def test_bonus_and_song_texts_name_their_commands() -> None:
    table = sample()
    c = ctx(table)
    hero = c.game.heroes[0]
    sling = "Search the top (5) cards of the deck for any spell-song and move any (1) found into hand."
    assert hints.commands(c, sling, "x", card="Sample Sling") == [
        "`/saga search top:5 type:spell-song`, then `/saga search take:<card>`"
    ]
    luck = "Move the top card of your luck stack into hand."
    assert hints.commands(c, luck, "Sample Song of Dawn", card="Sample Song of Dawn") == [
        f'`/saga put card:"{hero.luck[0]}" to:hand reason:"Sample Song of Dawn"`'
    ]
    w9 = "Search In Game for a non-wanted folk-hero and move it to the hero pile."
    assert hints.commands(c, w9, "x", card="Y") == ["`/saga search in_game:true take:<card> to:hero-pile`"]
    w11 = (
        "Flip this card face-down: move your hero token to any place card in the place pile that shares any "
        "harmonic colors with the current place. Move the current place you are leaving into your hand."
    )
    said = hints.commands(c, w11, "the item", card="Item")
    assert said[0] == '`/saga put card:<place> to:token reason:"the item"`'
    assert said[1] == 'then `/saga put card:"Sample Crossroads" to:hand reason:"the item"` (the place left)'
    assert hints.how_to(c, "End of Demo: you win.", "x", card="Y") == []  # no search or move: no command
    hero.luck.clear()
    assert hints.commands(c, luck, "x", card="Y") == ["nothing to move: Sample Wanderer's luck stack is empty"]


def test_a_place_shows_the_colors_the_checks_read() -> None:
    table = sample()
    run(table, "move", to="Sample Cellar")
    run(table, "continue")
    card = table_card(ctx(table), "t", [])
    from rules.saga.cards import kismet_fields

    kismet_fields(ctx(table), card)
    fields = {f.name: f.value for f in card.fields}
    cellar = "Sample Cellar [new-winter · G, with B/V from Sample Crossroads]"
    assert fields["Visiting"] == cellar and f"place: {cellar}" in fields["Kismet: Sample Wanderer"]
    assert "Sample Crossroads [spring · B/V, with G from Sample Cellar]" in fields["Place pile"]
    table.settings = SagaSettings(attached_sharing=False)  # the house rule: no sharing, on every line
    assert _fields(table)["Visiting"] == "Sample Cellar [new-winter · G]"


def test_the_token_is_never_left_off_a_place() -> None:
    table = sample()
    game = ctx(table).game
    run(table, "move", to="Sample Cellar")
    message = refused(table, "put", card="Sample Cellar", to="hand", reason="x")
    assert message.startswith("The hero token is on Sample Cellar") and "to:token" in message
    message = refused(table, "put", card="Sample Crossroads", to="hand", reason="x")  # the room's only host
    assert "Rooms are adjacent only to the card they are attached to" in message
    run(table, "put", card="Sample Crossroads", to="token", reason="x")
    assert "The hero token is on Sample Crossroads" in refused(table, "put", card="Sample Crossroads", to="cycle",
                                                               reason="x")  # fmt: skip
    # an older game saved with the token on an emptied spot: every stack top takes it back
    game.places[0].stack.clear()
    game.places[1].stack = ["Sample Old Mill"]
    game.token_room = None
    assert [name for _, _, name in destinations(ctx(table))] == ["Sample Old Mill"]
    game.step, game.moved = 1, False
    message = refused(table, "move")
    assert "Adjacent to :" not in message and "on no place of the place pile" in message
    moved = run(table, "move", to="Sample Old Mill")
    assert game.visiting == "Sample Old Mill" and "moves from no place to Sample Old Mill" in moved.card.description


def test_hand_cards_are_marked_acknowledged() -> None:
    table = sample()
    game = ctx(table).game
    hand = _fields(table)["Hand (5, source limit 5)"]
    for name in game.hand:
        cost = table.state.card(name).cost
        marked = f"{name} [" in hand and hand.split(f"{name} [", 1)[1].split(", Sample", 1)[0].endswith(
            "(acknowledged)"
        )
        assert marked == (isinstance(cost, int) and cost <= 1), (name, cost, hand)
    assert public_data(ctx(table))["hand_acknowledged"] == [
        n for n in game.hand if isinstance(table.state.card(n).cost, int) and table.state.card(n).cost <= 1
    ]


def test_a_harmonic_check_of_no_cards_is_refused() -> None:
    table = make_table()
    for blank in (",", " , ; ", " "):
        assert refused(table, "harmonic", cards=blank).startswith("Name colors or cards, comma-separated")
