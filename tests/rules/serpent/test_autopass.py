"""Issue 13: each player may set auto-pass for their Magi: always, for allies' spells, or never."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.serpent import RULESET
from tests.rules.serpent.helpers import Game


def waited(g: Game) -> list[str]:
    return [w.who for w in RULESET.waits(g.table("gm")) if w.kind == "response"]


def teams(
    white: str = "Fireball", black: str = "Universum Negation, Fireball", grey: str = "Universum Negation"
) -> Game:
    """White and Grey (team Sun) against Black (team Moon); round 1, White first."""
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("grey", "magi create", name="Grey", codex=grey)
    g.do("gm", "battle start", mode="teams")
    g.do("white", "battle join", team="Sun")
    g.do("black", "battle join", team="Moon")
    g.do("grey", "battle join", team="Sun")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black, Grey")
    return g


def test_the_setting_lives_on_the_sheet_and_only_its_player_may_change_it() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    out = g.do("white", "autopass", mode="allies")
    assert g.characters["white"].sheet.autopass == "allies"
    assert out.data == {"action": "autopass", "magi": "White", "mode": "allies"}
    assert "own team's spells" in out.card.description
    with pytest.raises(RuleError, match="belongs to another player"):
        g.do("black", "autopass", mode="always", magi="White")
    assert g.characters["white"].sheet.autopass == "allies"
    shown = g.do("white", "magi show")
    assert any(f.name == "Auto-pass" and f.value == "allies" for f in shown.card.fields)


def test_always_passes_every_window_and_the_card_says_who_auto_passed() -> None:
    g = teams(grey="Fireball")
    g.do("black", "autopass", mode="always")
    assert g.being("Black").autopass == "always"
    for who, spells in (("white", "Fireball"), ("black", ""), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    out = g.do("white", "cast", spell="Fireball", target="Black")
    assert g.battle.stack == [] and g.being("Black").essence == 10  # no window waited on Black
    text = out.card.description
    assert "Black auto-passes on Fireball (#" in text and "(auto-pass: always)" in text
    assert "No one else holds a Response they could cast on Fireball" in text
    (event,) = [e for e in out.data["events"] if e["type"] == "auto_pass"]
    assert (event["magi"], event["effect"], event["mode"]) == ("Black", "Fireball", "always")


def test_allies_passes_only_on_the_teams_own_spells() -> None:
    g = teams(white="Fireball")
    g.do("grey", "autopass", mode="allies")
    for who, spells in (("white", "Fireball"), ("black", "Fireball"), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    out = g.do("white", "cast", spell="Fireball", target="Black")
    assert waited(g) == ["Black"]  # Grey auto-passed on her ally's Fireball; Black is asked
    assert "Grey auto-passes on Fireball" in out.card.description
    g.do("black", "pass")
    out = g.do("black", "cast", spell="Fireball", target="White")
    assert "auto-passes" not in out.card.description
    assert waited(g) == ["Black"]  # his own priority first
    g.do("black", "pass")
    assert waited(g) == ["Grey"]  # an enemy's spell: Grey is asked


def test_a_caster_who_auto_passes_gives_up_her_priority_at_once() -> None:
    g = teams(white="Fireball, Universum Negation")
    g.do("white", "autopass", mode="allies")
    for who, spells in (("white", "Fireball"), ("black", ""), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    g.do("grey", "autopass", mode="never")
    out = g.do("white", "cast", spell="Fireball", target="Black")
    assert "White auto-passes on Fireball" in out.card.description
    assert sorted(waited(g)) == ["Black", "Grey"]  # the race after her priority, at once
    assert g.battle.stack[-1].priority_over


def test_setting_auto_pass_while_a_window_waits_passes_it_and_never_asks_again() -> None:
    g = teams(grey="Fireball")
    for who, spells in (("white", "Fireball"), ("black", ""), ("grey", "")):
        g.do(who, "prepare", spells=spells)
    g.do("white", "cast", spell="Fireball", target="Black")
    assert waited(g) == ["Black"]
    out = g.do("black", "autopass", mode="always")
    assert g.battle.stack == [] and g.being("Black").essence == 10
    assert "Black auto-passes on Fireball" in out.card.description
    assert out.data["battle"]["window"] is None and out.data["mode"] == "always"
    g.do("black", "autopass", mode="never")
    assert g.being("Black").autopass == "never" and g.characters["black"].sheet.autopass == "never"


def test_a_magi_joins_with_the_setting_of_their_sheet() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("white", "autopass", mode="always")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    assert g.being("White").autopass == "always"


def test_the_character_card_shows_the_auto_pass() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    record = g.characters["white"]
    assert "Auto-pass" not in [f.name for f in RULESET.character_card(record).fields]
    g.do("white", "autopass", mode="allies")
    fields = {f.name: f.value for f in RULESET.character_card(g.characters["white"]).fields}
    assert fields["Auto-pass"] == "allies"
