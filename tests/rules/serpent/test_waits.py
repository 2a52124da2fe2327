"""``SerpentRuleset.waits``: who a play-by-post table waits on, for what, and what its deadline does."""

from __future__ import annotations

import pytest

from rules.base import RuleError, Wait
from rules.serpent import RULESET
from tests.rules.serpent.helpers import Game


def waits(g: Game) -> list[Wait]:
    return RULESET.waits(g.table("gm"))


def keys(g: Game) -> list[str]:
    return [w.key for w in waits(g)]


def run_deadline(g: Game, wait: Wait) -> None:
    """What the service does at a wait's deadline: its ruleset action, as the GM."""
    assert wait.on_deadline is not None
    g.do("gm", wait.on_deadline.action, **wait.on_deadline.options)


def started(white: str = "Fireball", black: str = "Universum Negation", *, teams: bool = False) -> Game:
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start")
    return g


def test_no_battle_and_a_battle_short_of_sides_wait_on_nobody() -> None:
    g = Game()
    assert waits(g) == []
    g = started()
    assert waits(g) == []  # nobody has joined: the table waits on no one in particular
    g.do("white", "battle join")
    assert waits(g) == []  # one side: more must join before a round can run


def test_the_gm_runs_the_first_round_once_two_sides_stand() -> None:
    g = started()
    g.do("white", "battle join")
    g.do("black", "battle join")
    (wait,) = waits(g)
    assert (wait.key, wait.user_id, wait.who, wait.kind) == ("round 1: GM", None, "GM", "gm")
    assert wait.what == "run round 1"  # the wait line adds the command (`/serpent battle round`) once
    assert wait.commands == ["/serpent battle round"] and wait.on_deadline is None


def test_preparation_waits_on_each_magi_until_they_prepare() -> None:
    g = started()
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    assert {(w.key, w.user_id, w.kind) for w in waits(g)} == {
        ("round 1 prepare: White", g.user("white"), "turn"),
        ("round 1 prepare: Black", g.user("black"), "turn"),
    }
    g.do("white", "prepare", spells="Fireball")
    assert keys(g) == ["round 1 prepare: Black"]  # the same key: the wait on Black goes on, no new ping


def test_the_turn_waits_on_its_magi_with_a_key_that_changes_each_turn() -> None:
    g = started("Fireball, Acidic Matter", "Dissolve Tissue")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    (wait,) = waits(g)
    first = wait.key
    assert (wait.who, wait.user_id, wait.kind) == ("White", g.user("white"), "turn")
    assert first.startswith("round 1 turn ") and first.endswith(": White")
    assert "/serpent end-turn" in wait.commands and "/serpent pass" not in wait.commands
    g.do("white", "battle board")  # a read changes nothing: the same wait goes on
    assert keys(g) == [first]
    g.do("white", "meditate")
    (wait,) = waits(g)
    assert wait.who == "Black" and wait.user_id == g.user("black")
    g.do("black", "meditate")
    (wait,) = waits(g)
    assert wait.who == "White" and wait.key != first  # White's second turn is a new wait


def test_the_round_end_waits_on_the_gm_and_a_finished_battle_on_nobody() -> None:
    g = started("Fireball", "Dissolve Tissue")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    g.do("white", "end-turn")
    g.do("black", "end-turn")
    assert g.battle.phase == "round_end"
    (wait,) = waits(g)
    assert (wait.key, wait.user_id, wait.kind, wait.what) == (
        "round 2: GM",
        None,
        "gm",
        "run round 2",
    )
    g.battle.phase = "over"
    assert waits(g) == []


def window_game() -> Game:
    g = started("Fireball", "Universum Negation")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    return g


def test_a_window_waits_on_the_magi_who_could_answer_and_its_deadline_passes_them() -> None:
    g = window_game()
    (effect,) = g.battle.stack
    (wait,) = waits(g)  # only the window: White's next turn is not asked for while it is open
    assert wait.key == f"window {effect.id}: Black"
    assert (wait.user_id, wait.who, wait.kind) == (g.user("black"), "Black", "response")
    assert wait.what == "respond to Fireball, or pass"
    assert wait.commands == ["/serpent respond", "/serpent pass"]
    assert wait.on_deadline is not None
    assert wait.on_deadline.action == "battle close-window"
    assert wait.on_deadline.options == {"window": effect.id, "magi": "Black"}
    assert "did not answer Fireball in time, so they passed" in wait.on_deadline.says
    run_deadline(g, wait)
    assert g.battle.stack == [] and g.being("Black").essence == 10  # the window closed as a pass: Fireball hit
    assert [w.who for w in waits(g)] == ["Black"] and waits(g)[0].kind == "turn"


def test_the_casters_priority_is_its_own_wait_and_its_deadline_passes_only_her() -> None:
    g = started("Fireball, Universum Negation", "Universum Negation")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    (effect,) = g.battle.stack
    (wait,) = waits(g)
    assert wait.key == f"window {effect.id}: White" and "you cast it, so you may answer first" in wait.what
    assert wait.user_id == g.user("white")
    run_deadline(g, wait)  # White's priority ran out: the others' race begins
    assert g.battle.stack and keys(g) == [f"window {effect.id}: Black"]


def test_a_window_on_two_magi_closes_for_one_at_a_time() -> None:
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("black", "magi create", name="Black", codex="Universum Negation")
    g.do("grey", "magi create", name="Grey", codex="Universum Negation")
    g.do("gm", "battle start", mode="teams")
    g.do("white", "battle join", team="Sun")
    g.do("black", "battle join", team="Moon")
    g.do("grey", "battle join", team="Moon")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black, Grey")
    for who, spells in (("white", "Fireball"), ("black", ""), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    g.do("white", "cast", spell="Fireball", target="Black")
    (effect,) = g.battle.stack
    assert keys(g) == [f"window {effect.id}: Black", f"window {effect.id}: Grey"]
    assert [w.user_id for w in waits(g)] == [g.user("black"), g.user("grey")]
    g.do("grey", "pass")
    assert keys(g) == [f"window {effect.id}: Black"]  # Black's wait goes on, under the same key
    with pytest.raises(RuleError, match="not waiting for 'Grey'"):
        g.do("gm", "battle close-window", window=effect.id, magi="Grey")
    run_deadline(g, waits(g)[0])
    assert g.battle.stack == []


def test_a_spell_loss_waits_on_its_magi() -> None:
    g = window_game()
    g.do("black", "pass")
    being = g.being("Black")
    from rules.serpent.book import SpellLoss

    being.spell_loss = SpellLoss(amount=1, how="sacrifice")
    found = [w for w in waits(g) if "spell loss" in w.key]
    assert [(w.who, w.user_id, w.commands) for w in found] == [("Black", g.user("black"), ["/serpent lose"])]


def test_a_koishakas_turn_waits_on_its_controllers_player_and_an_encounters_on_the_gm() -> None:
    g = window_game()
    g.do("black", "pass")
    black = g.being("Black")
    b = g.battle
    black.kind = "koishaka"
    black.controller = "white"
    b.turn = b.order.index("black")
    (wait,) = waits(g)
    assert (wait.who, wait.user_id, wait.kind) == ("Black", g.user("white"), "turn")
    black.kind = "encounter"
    (wait,) = waits(g)
    assert (wait.who, wait.user_id, wait.kind, wait.what) == ("GM", None, "gm", "run Black's turn")


def test_autocomplete_offers_the_waiting_magi_to_close_window_and_your_magi_to_autopass() -> None:
    g = window_game()
    assert RULESET.suggest(g.table("gm"), "battle close-window", "magi", "") == ["Black"]
    assert RULESET.suggest(g.table("white"), "autopass", "magi", "") == ["White"]
    g.do("black", "pass")
    assert RULESET.suggest(g.table("gm"), "battle close-window", "magi", "") == []
