"""Bad inputs raise a RuleError that says what would work, and change nothing: state, sheets or the RNG."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.base import NeedsGMError, RuleError
from tests.rules.serpent.helpers import Game


def fresh() -> Game:
    g = Game()
    g.do("gm", "spell define", name="Universum Negation", dispel_to="discard")
    g.do("white", "magi create", name="White", codex="Fireball x2, Dissolve Tissue, Karmic Debt, Purification")
    g.do(
        "black", "magi create", name="Black", codex="Dissolve Tissue x2, Karmic Binding of Protection, Pillar of Earth"
    )
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=4, rolloff="White")  # 2 Resonance each
    g.do("white", "prepare", spells="Fireball, Dissolve Tissue, Purification")
    g.do("black", "prepare", spells="Dissolve Tissue, Pillar of Earth")
    return g


def refused(g: Game, who: str, action: str, match: str, **options: Any) -> None:
    state = g.state.model_dump()
    sheets = {k: v.model_dump() for k, v in g.characters.items()}
    rng = g.rng.getstate()
    with pytest.raises(RuleError, match=match):
        g.do(who, action, **options)
    assert g.state.model_dump() == state
    assert {k: v.model_dump() for k, v in g.characters.items()} == sheets
    assert g.rng.getstate() == rng


CASES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    (
        "out of turn",
        "black",
        "cast",
        "not Black's turn: it is White's",
        {"spell": "Dissolve Tissue", "target": "White"},
    ),
    ("meditate out of turn", "black", "meditate", "not Black's turn", {}),
    ("unprepared", "white", "cast", "has not prepared Karmic Debt", {"spell": "Karmic Debt", "target": "Black"}),
    ("not in the book", "white", "cast", "no spell 'Fire Bal'", {"spell": "Fire Bal", "target": "Black"}),
    ("energy not held", "white", "cast", "needs 5 Resonance \\(has 2\\)", {"spell": "Fireball", "target": "Black"}),
    ("attack yourself", "white", "cast", "must target an opponent", {"spell": "Dissolve Tissue", "target": "White"}),
    ("unknown target", "white", "cast", "No one named 'Grey'", {"spell": "Dissolve Tissue", "target": "Grey"}),
    (
        "no spell to dispel",
        "white",
        "cast",
        "not a spell this can target",
        {"spell": "Purification", "target": "Karmic Debt"},
    ),
    ("nothing manifesting", "white", "respond", "nothing manifesting", {"spell": "Universum Negation"}),
    ("another's Magi", "white", "meditate", "belongs to another player", {"magi": "Black"}),
    ("GM only", "white", "battle round", "needs the GM", {}),
    ("undo as a player", "black", "battle undo", "needs the GM", {}),
    ("prepare in actions", "white", "prepare", "spell preparation phase", {"spells": "Fireball"}),
    ("reattune in actions", "white", "reattune", "only during spell preparation", {"spells": "Fireball"}),
    ("shed no stone", "white", "shed-stone", "holds no interrupt stone", {}),
    ("no spec", "white", "spec", "no active Specialization", {"tree": "A"}),
    ("dismiss nothing", "white", "dismiss", "not a spell this can target", {"spell": "Fireball"}),
    (
        "bad upgrade",
        "white",
        "cast",
        "has no upgrade 'shiny'",
        {"spell": "Dissolve Tissue", "target": "Black", "upgrade": "shiny"},
    ),
    (
        "intone unknown phrase",
        "white",
        "cast",
        "does not give Dissolve Tissue's cast phrase",
        {"spell": "Dissolve Tissue", "target": "Black", "intone": "Ka Ru"},
    ),
    ("bad dice", "gm", "battle dice", "a d10 shows 0 to 10", {"values": "d10=12"}),
    ("start twice", "gm", "battle start", "already running", {}),
    ("join twice", "white", "battle join", "before its first round", {}),
    ("bad exchange", "white", "exchange", "not allowed", {"gain": "Will", "give": "Will"}),
]


@pytest.mark.parametrize(("label", "who", "action", "match", "options"), CASES, ids=[c[0] for c in CASES])
def test_refused_actions_change_nothing(label: str, who: str, action: str, match: str, options: dict[str, Any]) -> None:
    refused(fresh(), who, action, match, **options)


def test_exchanging_twice_in_a_round() -> None:
    g = fresh()
    g.do("black", "exchange", gain="Essence")
    refused(g, "black", "exchange", "already made this round's energy exchange", gain="Resonance")


def test_prepare_more_than_three_and_a_spell_not_in_the_codex() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball x2, Dissolve Tissue x2")
    g.do("black", "magi create", name="Black", codex="Fireball")
    g.do("gm", "battle start")
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle round", resonance=4)
    refused(g, "white", "prepare", "at most 3 spells", spells="Fireball x2, Dissolve Tissue x2")
    refused(g, "white", "prepare", "no Fireball left in their Codex", spells="Fireball x3")
    refused(g, "white", "reattune", "no Fireball in their discard pile", spells="Fireball")


def test_the_gm_is_told_what_value_the_book_lacks() -> None:
    g = fresh()
    g.do("white", "end-turn")
    g.do("black", "cast", spell="Pillar of Earth")
    g.do("gm", "battle round", resonance=10)
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="Karmic Binding")
    refused(g, "black", "cast", "does not give Karmic Binding of Protection's Resonance cost", spell="Karmic Binding")


def test_magi_create_rejects_a_bad_codex_and_keeps_nothing() -> None:
    g = Game()
    before = dict(g.characters)
    with pytest.raises(RuleError, match="at most 3 per title"):
        g.do("white", "magi create", name="White", codex="Fireball x4")
    with pytest.raises(RuleError, match="no Specialization 'Void Talker'"):
        g.do("white", "magi create", name="White", codex="Fireball", specialization="Void Talker")
    assert g.characters == before


def test_spell_define_is_gm_only_and_checks_what_it_reads() -> None:
    g = Game()
    with pytest.raises(NeedsGMError):
        g.do("white", "spell define", name="Judgement", resonance=-2)
    with pytest.raises(RuleError, match="not a sphere"):
        g.do("gm", "spell define", name="Judgement", sphere="Water")
    with pytest.raises(RuleError, match="give its role"):
        g.do("gm", "spell define", name="Brand New", resonance=-1)
    with pytest.raises(RuleError, match="Unknown aspect"):
        g.do("gm", "spell define", name="Judgement", aspects="Sparkly")
    assert g.state.spellbook == {}


def test_no_battle_yet() -> None:
    g = Game()
    g.do("white", "magi create", name="White", codex="Fireball")
    actions: list[Callable[[], object]] = [
        lambda: g.do("white", "battle join"),
        lambda: g.do("gm", "battle board"),
        lambda: g.do("white", "meditate"),
    ]
    for attempt in actions:
        with pytest.raises(RuleError, match="no battle in this channel"):
            attempt()
