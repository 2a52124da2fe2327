"""Who a Spell Saga table waits on: its one player, between posts (issue 13's ``Ruleset.waits``).

A saga game pauses for days between posts; the step pointer says which post the table needs next.
This reads it and names that post, keyed by turn and step (and battle round, and hero inside a
battle), so a wait that goes on keeps its key and pings nobody again. Pure: it reads the state only.
"""

from __future__ import annotations

from rules.base import OnDeadline, OrderOffer, OrderRun, RuleError, StandingOrder, Table, Wait
from rules.saga.area import Ctx, exact, source_limit
from rules.saga.optional import split_names
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


# ---------------------------------------------------------------------- standing orders

END_ORDER = OrderOffer(
    "end-turn",
    "At step 10's deadline, end my turn, cycling the cards I name (the first ones in my hand) down to the source limit",
    option="cards",
    option_help="hand cards to cycle, in the order you would give them up: `Sample Old Mill, Sample Quiet Ford`",
)
ORDERS = (END_ORDER,)
MAX_CARDS = 20


def check_order(table: Table, order: StandingOrder) -> StandingOrder:
    """The cards are names, each once (at most 20); they need not be in hand yet: the deadline checks that."""
    cards = split_names(order.option)
    if len(cards) > MAX_CARDS:
        raise RuleError(f"Name at most {MAX_CARDS} cards to cycle.")
    if len({fold(card) for card in cards}) != len(cards):
        raise RuleError("Name each card to cycle once.")
    return order.model_copy(update={"option": ", ".join(cards)})


def order_choices(table: Table, current: str) -> list[str]:
    """The hand's cards, added after those already typed (``A, B, `` offers ``A, B, C``)."""
    game = table.state.game
    if game is None:
        return []
    typed = split_names(current)
    done, rest = (typed, "") if current.rstrip().endswith(",") else (typed[:-1], typed[-1] if typed else "")
    taken = {fold(card) for card in done}
    prefix = "".join(card + ", " for card in done)
    return [prefix + card for card in game.hand if fold(card) not in taken and fold(rest) in fold(card)]


def run_order(table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
    """Step 10's wait: ``/saga end`` as the player, cycling the first named cards still in hand, as many as the
    source limit needs (S22). Fewer named cards in hand than that, or a turn end that would lose the game (L85,
    which the command asks about first), and the order does not run: the player decides those."""
    game = table.state.game
    if game is None or not wait.key.endswith(" step 10") or game.step != 10 or game.wanted_draw is not None:
        return None
    state: SagaState = table.state
    need = max(0, len(game.hand) - source_limit(Ctx(table, state, game, table.settings)))
    chosen = []
    for card in split_names(order.option):
        found = exact(game.hand, card)
        if found is not None and found not in chosen:
            chosen.append(found)
    if len(chosen) < need:
        named = ", ".join(chosen) or "none of them"
        raise RuleError(
            f"step 10 cycles {need} hand card(s), and of the cards the order names only {named} "
            f"{'is' if len(chosen) == 1 else 'are'} in hand"
        )
    cycled = chosen[:need]
    says = f"the turn ends, cycling {', '.join(cycled)}" if cycled else "the turn ends (nothing to cycle)"
    return OrderRun(action="end", options={"cycle": ", ".join(cycled)} if cycled else {}, says=says)
