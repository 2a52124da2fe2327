"""Who a serpent table waits on, for play-by-post pings, reminders and deadlines (``Ruleset.waits``).

Read from the battle as the engine left it after an action, so it only ever
names people: the engine has already run everything the rules run themselves
(maintenance, Encounter turns, windows nobody can answer).

- A response window waits on each Magi who could still answer it (``window_waiting``:
  the caster alone while she holds priority, then every other eligible Magi). At the
  deadline that Magi passes, through ``battle close-window window:<id> magi:<name>``.
- During the action phase, the being whose turn it is (a Koishaka's controller plays it).
- During spell preparation, each Magi who has not prepared yet.
- A Magi who owes a Spell Loss choice (``/serpent lose``).
- The GM, when a round must be run (after setup, at the round's end) or an Encounter's
  turn is stuck with the table.

Keys stay the same while the same wait goes on, so the service pings once: a window's
id and the Magi; the round, the turn count and the being; the round and the Magi.
"""

from __future__ import annotations

from rules.base import OnDeadline, OrderOffer, OrderRun, StandingOrder, Table, Wait
from rules.serpent.context import Ctx
from rules.serpent.runner import make_ctx, state_of
from rules.serpent.state import Being
from rules.serpent.turns import priority_holder, window_waiting

RESPOND = "/serpent respond"
PASS = "/serpent pass"
GM_TURN = ("/serpent battle adjust", "/serpent battle round")


def table_waits(table: Table) -> list[Wait]:
    """Every wait of the channel's battle; none without a battle or once it is over."""
    state = state_of(table)
    battle = state.battle
    if battle is None or battle.phase == "over":
        return []
    ctx = make_ctx(table, state, battle)
    waits = [*spell_loss_waits(ctx, table)]
    if battle.stack:
        return waits + window_waits(ctx, table)  # nothing else moves while a window is open
    if battle.phase == "preparation":
        return waits + preparation_waits(ctx, table)
    if battle.phase == "actions":
        return waits + turn_waits(ctx, table)
    if battle.phase == "round_end" or (battle.phase == "setup" and len(battle.teams()) >= 2):
        return [*waits, gm_wait(f"round {battle.round + 1}", f"run round {battle.round + 1}")]
    return waits


def owner_of(table: Table, ctx: Ctx, being: Being) -> int | None:
    """The player who answers for this being: a Magi's owner, a Koishaka's controller's; None for an Encounter."""
    if being.kind == "koishaka" and being.controller:
        controller = ctx.battle.beings.get(being.controller)
        return owner_of(table, ctx, controller) if controller else None
    if being.kind != "magi":
        return None
    record = table.characters.get(being.name.casefold())
    return record.owner_id if record is not None else being.owner_id


def window_waits(ctx: Ctx, table: Table) -> list[Wait]:
    top = ctx.battle.stack[-1]
    holder = priority_holder(ctx, top)
    waits = []
    for key in window_waiting(ctx, top):
        being = ctx.being(key)
        first = " (you cast it, so you may answer first)" if key == holder else ""
        waits.append(
            Wait(
                key=f"window {top.id}: {being.name}",
                user_id=owner_of(table, ctx, being),
                who=being.name,
                what=f"respond to {top.title}{first}, or pass",
                commands=[RESPOND, PASS],
                kind="response",
                on_deadline=OnDeadline(
                    action="battle close-window",
                    options={"window": top.id, "magi": being.name},
                    says=f"{being.name} did not answer {top.title} in time, so they passed",
                ),
            )
        )
    return waits


def turn_waits(ctx: Ctx, table: Table) -> list[Wait]:
    b = ctx.battle
    being = b.current()
    if being is None:
        return []
    if being.kind == "encounter":  # the engine runs Encounter turns; one left standing needs the GM
        return [gm_wait(f"round {b.round} turn {b.turn_count}", f"run {being.name}'s turn", GM_TURN)]
    owner = owner_of(table, ctx, being)
    if owner is None:
        return [gm_wait(f"round {b.round} turn {b.turn_count}", f"play {being.name}'s turn", GM_TURN)]
    return [
        Wait(
            key=f"round {b.round} turn {b.turn_count}: {being.name}",
            user_id=owner,
            who=being.name,
            what=f"your turn (round {b.round}): cast, meditate, another action, or end your turns for the round",
            commands=["/serpent cast", "/serpent meditate", "/serpent end-turn"],
            kind="turn",
        )
    ]


def preparation_waits(ctx: Ctx, table: Table) -> list[Wait]:
    b = ctx.battle
    return [
        Wait(
            key=f"round {b.round} prepare: {being.name}",
            user_id=owner_of(table, ctx, being),
            who=being.name,
            what=f"prepare up to {ctx.book.rules.max_prepared} spells for round {b.round}",
            commands=["/serpent prepare"],
            kind="turn",
        )
        for being in b.beings.values()
        if being.is_magi and not being.ready and not being.incapacitated
    ]


def spell_loss_waits(ctx: Ctx, table: Table) -> list[Wait]:
    b = ctx.battle
    return [
        Wait(
            key=f"round {b.round} spell loss: {being.name}",
            user_id=owner_of(table, ctx, being),
            who=being.name,
            what=f"choose your {being.spell_loss.describe()}",
            commands=["/serpent lose"],
            kind="turn",
        )
        for being in b.beings.values()
        if being.spell_loss is not None and being.is_magi
    ]


def gm_wait(key: str, what: str, commands: tuple[str, ...] = ("/serpent battle round",)) -> Wait:
    return Wait(key=f"{key}: GM", user_id=None, who="GM", what=what, commands=list(commands), kind="gm")


# ---------------------------------------------------------------------- standing orders

PASS_ORDER = OrderOffer(
    "pass",
    "When a response window's deadline passes while it waits on my Magi, pass it for them",
)
END_TURNS_ORDER = OrderOffer(
    "end-turns",
    "When my Magi's turn reaches its deadline, end their turns for the round; a response window's deadline passes",
)
ORDERS = (PASS_ORDER, END_TURNS_ORDER)


def run_order(table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
    """``pass`` answers a response window with ``/serpent pass``; ``end-turns`` does that too, and at a turn's
    deadline ends the Magi's turns for the round with ``/serpent end-turn``. Preparing spells and choosing a Spell
    Loss are choices only the player can make: no order covers them (the campaign's rule applies)."""
    if wait.key.startswith("window "):
        return OrderRun(action="pass", options={"magi": wait.who}, says=f"{wait.who} passes")
    if order.order == END_TURNS_ORDER.name and wait.key.startswith("round ") and " turn " in wait.key:
        return OrderRun(action="end-turn", options={"magi": wait.who}, says=f"{wait.who}'s turns end for the round")
    return None
