"""Random play-by-post battles: whatever happens, the waits name exactly who can move, and every deadline works."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.base import RuleError, Wait
from rules.serpent import RULESET
from rules.serpent.runner import make_ctx
from rules.serpent.turns import window_waiting
from tests.rules.serpent.helpers import Game

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
PLAYERS = ("white", "black", "grey")
MOVES = st.lists(
    st.tuples(
        st.sampled_from(
            ["cast", "respond", "pass", "end-turn", "meditate", "prepare", "autopass", "deadline", "round"]
        ),
        st.integers(0, 11),
    ),
    min_size=5,
    max_size=30,
)
MODES = ("never", "allies", "always")


def start() -> Game:
    g = Game(seed=3)
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball x2, Dissolve Tissue, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Fireball, Universum Negation, Dissolve Tissue")
    g.do("grey", "magi create", name="Grey", codex="Universum Negation, Fireball, Dissolve Tissue")
    g.do("gm", "battle start", mode="teams")
    for who, team in (("white", "Sun"), ("black", "Moon"), ("grey", "Moon")):
        g.do(who, "battle join", team=team)
    g.do("gm", "battle round", resonance=10, rolloff="White, Black, Grey")
    for who in PLAYERS:
        g.do(who, "prepare", spells="Fireball, Dissolve Tissue")
    return g


def actor(g: Game, kind: str, n: int) -> str:
    """Who makes the move: mostly someone the table waits on, so battles go somewhere; sometimes anyone."""
    if n >= 9:
        return PLAYERS[n % 3]
    waits = [w for w in RULESET.waits(g.table("gm")) if w.user_id is not None]
    wanted = {"respond": "response", "pass": "response"}.get(kind, "turn")
    names = [w.who.lower() for w in waits if w.kind == wanted] or [PLAYERS[n % 3]]
    return names[n % len(names)]


def move(g: Game, kind: str, n: int) -> None:
    foes = {"white": "Black", "black": "White", "grey": "White"}
    who = actor(g, kind, n)
    options: dict[str, object] = {}
    if kind == "cast":
        options = {"spell": ("Fireball", "Dissolve Tissue")[n % 2], "target": foes[who]}
    elif kind == "respond":
        options = {"spell": "Universum Negation"}
    elif kind == "prepare":
        options = {"spells": ("Fireball", "Dissolve Tissue", "", "Fireball, Dissolve Tissue")[n % 4]}
    elif kind == "autopass":
        options = {"mode": MODES[n % 3]}
    elif kind == "round":
        g.do("gm", "battle round", resonance=min(10, n + 5))
        return
    elif kind == "deadline":
        waits = [w for w in RULESET.waits(g.table("gm")) if w.on_deadline is not None]
        if waits:
            deadline(g, waits[n % len(waits)])
        return
    g.do(who, kind, **options)


def deadline(g: Game, wait: Wait) -> None:
    """A response wait's deadline always works, and the Magi is no longer waited on for that window."""
    assert wait.on_deadline is not None
    g.do("gm", wait.on_deadline.action, **wait.on_deadline.options)
    assert wait.key not in {w.key for w in RULESET.waits(g.table("gm"))}


def check(g: Game) -> None:
    waits = RULESET.waits(g.table("gm"))
    keys = [w.key for w in waits]
    assert len(keys) == len(set(keys)), keys
    assert RULESET.waits(g.table("white")) == waits  # pure: the same whoever asks, and nothing changes
    battle = g.battle
    responses = [w for w in waits if w.kind == "response"]
    if battle.stack:
        top = battle.stack[-1]
        expected = [battle.beings[k].name for k in window_waiting(make_ctx(g.table("gm"), g.state), top)]
        assert [w.who for w in responses] == expected and expected  # an open window always waits on someone
        assert all(w.on_deadline and w.on_deadline.options["window"] == top.id for w in responses)
        assert all(w.kind in ("response",) or "spell loss" in w.key for w in waits)
        for w in responses:
            assert w.user_id == g.user(w.who.lower())
            being = battle.beings[w.who.casefold()]
            assert being.autopass != "always"  # an always-passer is never asked
    else:
        assert responses == []
    if battle.phase == "actions" and not battle.stack and battle.current() is not None:
        (turn,) = [w for w in waits if w.kind == "turn" and "spell loss" not in w.key]
        assert turn.who == battle.current().name and turn.user_id == g.user(turn.who.lower())
    if battle.phase == "round_end":
        assert [w.who for w in waits] == ["GM"]


@FUZZ
@given(MOVES)
def test_waits_always_name_who_can_move_and_every_deadline_works(moves: list[tuple[str, int]]) -> None:
    g = start()
    check(g)
    for kind, n in moves:
        try:
            move(g, kind, n)
        except RuleError:
            continue
        check(g)
