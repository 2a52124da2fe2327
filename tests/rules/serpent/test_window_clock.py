"""A response window in play-by-post: "The window closes when all eligible players pass, or after a GM-set time
in play-by-post." The GM-set time is the campaign's ``response_window`` (bot/table/pbp.py): the core's deadline passes
for each Magi the window waits on (``rules/serpent/waits.py``). The rules only stamp when a window starts waiting
and close it when told (``battle close-window``); no clock is read anywhere in the rules."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.serpent import RULESET
from rules.serpent.state import SerpentSettings
from tests.rules.serpent.helpers import Game

NOON = "2030-01-01T12:00:00+00:00"


def at(minutes: int) -> str:
    """NOON plus some minutes (under a day), as the service's clock writes it."""
    hours, minutes = divmod(minutes, 60)
    return f"2030-01-01T{12 + hours:02d}:{minutes:02d}:00+00:00"


def test_settings_saved_before_the_core_timers_still_load() -> None:
    """``response_window_minutes`` moved to the campaign's ``response_window``: an old campaign loads, minus it."""
    old = SerpentSettings.model_validate({"response_window_minutes": 90, "basic_play": True})
    assert old.basic_play is True and "response_window_minutes" not in old.model_dump()
    assert RULESET.settings_model.model_validate({"response_window_minutes": 0}) == SerpentSettings()
    with pytest.raises(ValueError, match="basic_pley"):  # any other unknown key is still a typo, refused
        SerpentSettings.model_validate({"basic_pley": True})


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
    assert window["opened_at"] == NOON and "closes_at" not in window  # the deadline is the campaign's, not the rules'
    assert "until the campaign's response_window deadline" in g.outcomes[-1].card.fields[0].value


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


def test_close_window_names_the_window_it_means() -> None:
    """What a deadline runs (``magi:``) and what a GM runs by hand, each naming the window it means."""
    g = duel()
    (effect,) = g.battle.stack
    with pytest.raises(RuleError, match=f"Window #{effect.id + 1} is not open"):
        g.do("gm", "battle close-window", window=effect.id + 1)
    out = g.do("gm", "battle close-window", window=effect.id)
    assert "The response window on Fireball closes: Black pass." in out.card.description
    with pytest.raises(RuleError, match="No response window is open"):
        g.do("gm", "battle close-window", window=effect.id)


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
    assert out.data["battle"]["window"]["opened_at"] == at(50)  # and the core's new waits get the full time


def test_close_window_for_one_magi_is_what_a_deadline_runs() -> None:
    g = duel()
    (effect,) = g.battle.stack
    with pytest.raises(RuleError, match="not waiting for 'White'"):
        g.do("gm", "battle close-window", window=effect.id, magi="White")  # she passed her priority already
    out = g.do("gm", "battle close-window", window=effect.id, magi="Black")
    assert out.summary == "Black passes on Fireball" and g.battle.stack == []
    assert g.being("Black").essence == 10  # the Fireball landed
