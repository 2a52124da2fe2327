"""The play-by-post response-window clock: "The window closes when all eligible players pass, or after a
GM-set time in play-by-post." Pure functions of ``Table.now``; no clock is read anywhere in the rules."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.serpent.state import Battle, Effect, SerpentSettings, SerpentState
from rules.serpent.timer import iso_time, overdue_window, overdue_window_id, parse_time, window_deadline
from tests.rules.serpent.helpers import Game

NOON = "2030-01-01T12:00:00+00:00"


def at(minutes: int) -> str:
    """NOON plus some minutes, as the service's clock writes it."""
    moment = parse_time(NOON)
    assert moment is not None
    return iso_time(moment + minutes * 60)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1970-01-01T00:00:00+00:00", 0),
        ("2030-01-01T12:00:00+00:00", 1893499200),
        ("2030-01-01T12:00:00Z", 1893499200),
        ("2030-01-01T14:00:00+02:00", 1893499200),
        ("2030-01-01 12:00", 1893499200),  # no offset: UTC
        ("2030-01-01T12:00:00.123456+00:00", 1893499200),
        ("2024-02-29T23:59:59+00:00", 1709251199),  # a leap day
        ("", None),
        ("soon", None),
        ("2030-13-01T12:00:00+00:00", None),
    ],
)
def test_iso_times_are_read_without_a_clock(text: str, expected: int | None) -> None:
    assert parse_time(text) == expected


def test_iso_times_round_trip() -> None:
    for moment in (0, 951782400, 1709251199, 1893499200, 4102444800 - 1):
        assert parse_time(iso_time(moment)) == moment
    assert iso_time(1893499200) == NOON
    assert at(61) == "2030-01-01T13:01:00+00:00"
    assert at(24 * 60) == "2030-01-02T12:00:00+00:00"


def window(opened_at: str | None) -> Battle:
    return Battle(stack=[Effect(id=5, title="Fireball", kind="spell", caster="white", opened_at=opened_at)])


def test_a_window_is_overdue_from_its_deadline_on() -> None:
    settings = SerpentSettings()  # 60 minutes
    battle = window(NOON)
    assert window_deadline(battle.stack[-1], settings) == parse_time(at(60))
    assert overdue_window(battle, settings, at(59)) is None
    assert overdue_window(battle, settings, at(60)) is battle.stack[-1]
    assert overdue_window(battle, settings, at(600)) is battle.stack[-1]
    assert overdue_window(battle, SerpentSettings(response_window_minutes=720), at(600)) is None


def test_no_window_no_start_time_no_clock_or_no_limit_is_never_overdue() -> None:
    assert overdue_window(None, SerpentSettings(), at(90)) is None
    assert overdue_window(Battle(), SerpentSettings(), at(90)) is None
    assert overdue_window(window(None), SerpentSettings(), at(90)) is None  # never stamped
    assert overdue_window(window(NOON), SerpentSettings(), "") is None  # no clock supplied
    assert overdue_window(window(NOON), SerpentSettings(response_window_minutes=0), at(10_000)) is None


def test_the_sweep_reads_stored_state_and_settings() -> None:
    stored = SerpentState(battle=window(NOON)).model_dump(mode="json")
    assert overdue_window_id(stored, {}, at(61)) == 5
    assert overdue_window_id(stored, {"response_window_minutes": 90}, at(61)) is None
    assert overdue_window_id({}, {}, at(61)) is None  # no battle


# ---------------------------------------------------------------- through the actions


def duel(now: str = NOON, **settings: object) -> Game:
    """White casts a Fireball at Black, who holds a Response: the window waits for Black."""
    g = Game(**settings)  # type: ignore[arg-type]
    g.now = now
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Universum Negation, Dissolve Tissue")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="Dissolve Tissue")
    g.do("white", "cast", spell="Fireball", target="Black")
    out = g.do("white", "pass")  # the caster's priority (glossary "Priority"): she may respond first
    assert out.data["battle"]["window"]["effect"] == "Fireball"
    return g


def test_the_engine_stamps_a_window_when_it_starts_waiting() -> None:
    g = duel()
    (effect,) = g.battle.stack
    assert effect.opened_at == NOON
    window = g.outcomes[-1].data["battle"]["window"]
    assert (window["opened_at"], window["closes_at"]) == (NOON, at(60))
    assert "closes after 60 minutes, at 2030-01-01 13:00 UTC" in g.outcomes[-1].card.fields[0].value


def test_a_response_gets_its_own_window_and_the_one_beneath_starts_again_when_it_resolves() -> None:
    g = duel()
    g.now = at(30)
    g.do("black", "respond", spell="Universum Negation", target="Fireball")
    fireball, negation = g.battle.stack
    assert (fireball.opened_at, negation.opened_at) == (NOON, at(30))  # White may answer the Response
    g.now = at(45)
    g.do("white", "pass")  # White lets Universum Negation resolve: Fireball is Dispelled, nothing beneath
    assert g.battle.stack == []
    assert g.being("Black").essence == 12


def test_engine_reopens_the_window_beneath_with_a_fresh_clock() -> None:
    g = Game()
    g.now = NOON
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do(
        "gm", "spell define", name="Shadow Step", role="Defense", sphere="Mind", resonance=-1, aspects="Evade, Response"
    )
    g.do("white", "magi create", name="White", codex="Dissolve Tissue x2, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Universum Negation, Shadow Step")
    g.do("grey", "magi create", name="Grey", codex="Universum Negation")
    g.do("gm", "battle start", mode="teams")
    g.do("white", "battle join", team="Sun")
    g.do("black", "battle join", team="Moon")
    g.do("grey", "battle join", team="Moon")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black, Grey")
    for who, spells in (("white", "Dissolve Tissue"), ("black", ""), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    g.do("white", "cast", spell="Dissolve Tissue", target="Black")
    g.do("white", "pass")  # the caster's priority (glossary "Priority"): she may respond first
    g.now = at(20)
    g.do("black", "respond", spell="Universum Negation", target="Dissolve Tissue")  # a window on it: White, Grey
    g.now = at(40)
    g.do("grey", "respond", spell="Universum Negation", target="Universum Negation")  # Grey negates Black's
    assert [e.title for e in g.battle.stack] == ["Dissolve Tissue", "Universum Negation", "Universum Negation"]
    assert [e.opened_at for e in g.battle.stack] == [NOON, at(20), at(40)]
    g.now = at(50)
    g.do("white", "pass")  # on Grey's: it resolves and Dispels Black's; the Dissolve Tissue window reopens
    (effect,) = g.battle.stack
    assert effect.title == "Dissolve Tissue"
    assert effect.opened_at == at(50)  # Black may still Shadow Step: full time again from now, not from noon
    assert "Black may /serpent respond" in g.outcomes[-1].card.fields[0].value


def test_the_next_action_after_the_deadline_closes_the_window_first() -> None:
    g = duel()
    g.now = at(59)
    with pytest.raises(RuleError, match="response window is open on Fireball"):
        g.do("black", "meditate")
    g.now = at(75)
    board = g.do("white", "battle board")
    assert "Its 60 minutes ran out at 2030-01-01 13:00 UTC: the next action closes it." in board.card.description
    assert g.battle.stack  # the board only reads
    out = g.do("black", "exchange", gain="Resonance")  # any battle action, by anyone
    text = out.card.description
    number = out.data["events"][0]["id"]
    assert (
        f"⏰ The response window on Fireball (#{number}) closed at 2030-01-01 13:00 UTC, 60 minutes after it opened: "
        "Black did not respond and pass."
    ) in text
    assert text.index("⏰") < text.index("Fireball deals 2 Essence Dmg to Black") < text.index("exchanges 1 Will")
    closed = out.data["events"][0]
    assert (closed["type"], closed["timeout"], closed["deadline"], closed["passed"]) == (
        "window_closed",
        True,
        at(60),
        ["Black"],
    )
    assert g.being("Black").essence == 10 and g.battle.stack == []


def test_a_refused_action_after_the_deadline_changes_nothing_and_says_the_window_closed() -> None:
    g = duel()
    before = g.state.model_dump()
    g.now = at(61)
    with pytest.raises(RuleError) as refused:
        g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert "closed when its 60 minutes ran out" in str(refused.value)
    assert g.state.model_dump() == before  # still open (and overdue): the next action that succeeds closes it


def test_close_window_names_the_window_it_means() -> None:
    g = duel()
    (effect,) = g.battle.stack
    with pytest.raises(RuleError, match=f"Window #{effect.id + 1} is not open"):
        g.do("gm", "battle close-window", window=effect.id + 1)
    out = g.do("gm", "battle close-window", window=effect.id)
    assert "The response window on Fireball closes: Black pass." in out.card.description
    with pytest.raises(RuleError, match="No response window is open"):
        g.do("gm", "battle close-window", window=effect.id)


def test_close_window_after_the_deadline_closes_only_the_overdue_window() -> None:
    g = duel()
    (effect,) = g.battle.stack
    g.now = at(90)
    out = g.do("gm", "battle close-window", window=effect.id)
    assert out.summary == f"Window #{effect.id} closed: its time ran out"
    assert sum(e["type"] == "window_closed" for e in out.data["events"]) == 1


def test_no_time_limit_when_the_setting_is_zero() -> None:
    g = duel(response_window_minutes=0)
    assert "There is no time limit" in g.outcomes[-1].card.fields[0].value
    assert g.outcomes[-1].data["battle"]["window"]["closes_at"] is None
    g.now = at(10_000)
    with pytest.raises(RuleError, match="response window is open"):
        g.do("black", "meditate")


def test_the_others_get_the_full_time_once_the_caster_passes_her_priority() -> None:
    g = Game()
    g.now = NOON
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Universum Negation, Dissolve Tissue")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    assert g.battle.stack[0].opened_at == NOON  # waiting for White's priority
    g.now = at(50)
    out = g.do("white", "pass")
    assert g.battle.stack[0].opened_at == at(50)
    assert out.data["battle"]["window"]["closes_at"] == at(110)


def test_a_caster_who_lets_her_priority_run_out_only_passes_herself() -> None:
    g = Game()
    g.now = NOON
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball, Universum Negation")
    g.do("black", "magi create", name="Black", codex="Universum Negation, Dissolve Tissue")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="")
    g.do("white", "cast", spell="Fireball", target="Black")
    g.now = at(61)
    out = g.do("black", "exchange", gain="Resonance")
    assert "White's priority on Fireball" in g.text(out) and "the others may respond now" in g.text(out)
    (effect,) = g.battle.stack  # still open, now for Black, with the full time from the deadline
    assert effect.opened_at == at(60) and g.being("Black").essence == 12
    g.do("black", "respond", spell="Universum Negation", target="Fireball")
    assert [e.title for e in g.battle.stack] == ["Fireball", "Universum Negation"]  # White may answer it
