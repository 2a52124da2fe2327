"""Who a Spell Saga table waits on: its one player, between posts (issue 13's ``Ruleset.waits``).

A saga game pauses for days between posts; the step pointer says which post the table needs next.
This reads it and names that post, keyed by turn and step (and battle round, and hero inside a
battle), so a wait that goes on keeps its key and pings nobody again. Pure: it reads the state only.
"""

from __future__ import annotations

from rules.base import OnDeadline, RuleError, Table, Wait
from rules.saga.area import Ctx, source_limit
from rules.saga.state import Game, SagaState
from rules.saga.steps import loses_at_end, loss_warning
from rules.text import fold

DRAWN_INTO = {"luck": "the luck pile", "hand": "hand", "action": "the action pile"}


def saga_waits(table: Table) -> list[Wait]:
    state: SagaState = table.state
    game = state.game
    if game is None or game.outcome != "playing":
        return []
    record = table.characters.get(fold(game.character))
    user_id = record.owner_id if record is not None else game.player_id
    who = record.name if record is not None else game.character
    turn = f"turn {game.turn}"

    def wait(key: str, what: str, commands: list[str], on_deadline: OnDeadline | None = None) -> Wait:
        return Wait(key=key, user_id=user_id, who=who, what=what, commands=commands, on_deadline=on_deadline)

    if game.wanted_draw is not None:  # draws:reported: the player's own deck, a card at a time
        when = "setup" if game.step == 1 else f"step {game.step}"  # reported draws: setup, step 4 or step 5
        return [
            wait(
                f"{turn} {when} report {game.wanted_draw}",
                f"report the card(s) you drew into {DRAWN_INTO[game.wanted_draw]} ({when})",
                ["/saga report"],
            )
        ]
    if game.step == 1:
        return [wait(f"{turn} step 1", "move to an adjacent place (step 1)", ["/saga move"])]
    if game.step == 3:
        return [
            wait(
                f"{turn} step 3",
                f"follow {game.visiting}'s mandatory rules, then continue (step 3)",
                ["/saga continue"],
            )
        ]
    if game.step == 5 and game.pending is not None:
        return [
            wait(
                f"{turn} step 5",
                f"place {game.pending} in a hero's action spot (step 5)",
                ["/saga continue"],
            )
        ]
    if game.step == 8:
        return [wait(f"{turn} step 8", "continue: acknowledge the action cards (step 8)", ["/saga continue"])]
    if game.step == 9 and game.battle is not None:
        return battle_waits(game, wait, turn)
    if game.step == 10:
        excess = _over_the_limit(table, state, game)
        cycle = f"cycle {excess} hand card(s) down to the source limit and " if excess else ""
        warning = _loss_warning(table, state, game)
        what = f"{cycle}end the turn (step 10)" + (f": {warning}" if warning else "")
        return [wait(f"{turn} step 10", what, ["/saga end"])]
    return []


def _over_the_limit(table: Table, state: SagaState, game: Game) -> int:
    """How many hand cards step 10 must cycle (S22); 0 if the catalog cannot tell (the post will say why)."""
    try:
        return max(0, len(game.hand) - source_limit(Ctx(table, state, game, table.settings)))
    except RuleError:
        return 0


def _loss_warning(table: Table, state: SagaState, game: Game) -> str:
    """Why ending now loses the game (an empty hand), or nothing."""
    ctx = Ctx(table, state, game, table.settings)
    try:
        return loss_warning(ctx) if loses_at_end(ctx) else ""
    except RuleError:
        return ""


def battle_waits(game: Game, wait, turn: str) -> list[Wait]:
    """One wait per hero who has neither attacked nor passed this round: each passes at the deadline."""
    battle = game.battle
    assert battle is not None
    several = len(game.heroes) > 1
    waits = []
    for hero in game.heroes:
        if hero.name in battle.used or hero.name in battle.passed:
            continue
        round_text = f"battle round {battle.round}"
        waits.append(
            wait(
                f"{turn} battle round {battle.round}" + (f": {hero.name}" if several else ""),
                (f"{hero.name}: " if several else "") + f"attack or pass ({round_text})",
                ["/saga attack", "/saga pass"],
                OnDeadline(
                    action="pass",
                    options={"hero": hero.name},
                    says=f"{hero.name} did not act in time, so {hero.name} passes {round_text}",
                ),
            )
        )
    return waits
