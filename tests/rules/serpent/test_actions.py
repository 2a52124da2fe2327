"""The action contract: options a slash command can fill, undo, the board within embed limits, pure rules."""

from __future__ import annotations

import ast
import json
import types
import typing
from pathlib import Path

from rules.serpent import RULESET
from rules.serpent.state import CardState
from tests.rules.serpent.helpers import Game, assert_card_fits
from tests.rules.serpent.test_act1 import act_one_setup, round_one

RULES_DIR = Path(__file__).resolve().parents[3] / "rules" / "serpent"
PRIMITIVES = {str, int, bool, type(None)}


def test_every_action_the_issue_names_exists() -> None:
    names = set(RULESET.actions)
    required = {
        "battle start", "battle join", "battle encounter add", "battle round", "battle board", "battle undo",
        "prepare", "reattune", "cast", "respond", "meditate", "exchange", "dismiss", "focus", "shed-stone",
        "spec", "pass", "spell define", "magi create",
    }  # fmt: skip
    assert required <= names
    gm = {k for k, a in RULESET.actions.items() if a.gm_only}
    assert {"battle start", "battle round", "battle undo", "battle encounter add", "spell define"} <= gm
    assert not gm & {"cast", "respond", "prepare", "battle join", "battle board", "meditate", "pass"}
    for key, action in RULESET.actions.items():
        assert action.name == key and action.description and len(action.description) <= 100


def test_options_are_primitives_a_slash_command_can_fill() -> None:
    for key, action in RULESET.actions.items():
        assert len(action.options.model_fields) <= 25, key
        for name, field in action.options.model_fields.items():
            annotation = field.annotation
            args = (
                typing.get_args(annotation)
                if isinstance(annotation, types.UnionType) or typing.get_origin(annotation)
                else ()
            )
            kinds = set(args) if typing.get_origin(annotation) is not typing.Literal else {str}
            if not args:
                kinds = {annotation}
            literal_args = [a for a in kinds if typing.get_origin(a) is typing.Literal]
            kinds -= set(literal_args)
            assert kinds <= PRIMITIVES, (key, name, annotation)
            assert len(name) <= 32 and name == name.lower()


def test_data_is_json_and_every_card_fits() -> None:
    g = act_one_setup()
    round_one(g)
    for out in g.outcomes:
        json.dumps(out.data)
        assert_card_fits(out.card)
    data = g.outcomes[-1].data
    assert {"action", "events", "battle"} <= set(data)
    assert {"round", "phase", "turn", "order", "window", "winner", "beings", "in_play"} <= set(data["battle"])


def test_a_crowded_board_still_fits_discords_limits() -> None:
    g = Game()
    codex = "Fireball x3, Dissolve Tissue x3, Acidic Matter x3, Pillar of Earth x3, Air Essence x3"
    for i in range(6):
        g.do(f"p{i}", "magi create", name=f"Magus of the Very Long Name Number {i}", codex=codex)
    g.do("gm", "battle start", mode="teams")
    for i in range(6):
        g.do(f"p{i}", "battle join", team=f"team {'abcdefgh'[i % 2]}")
    battle = g.battle
    order = 0
    for being in list(battle.beings.values()):
        for zone in ("attack", "defense", "curse", "enhance"):
            for _ in range(6):
                order += 1
                card_id = battle.new_id()
                battle.cards[card_id] = CardState(
                    id=card_id, title="Materia Binding of Mal-kuth", owner=being.key, controller=being.key,
                    location="play", zone=zone, bearer=being.key, durability=3, duration=2, order=order,
                    charges={"Karma": 3},
                )  # fmt: skip
    out = g.do("gm", "battle board")
    assert_card_fits(out.card)
    assert len(out.card.fields) >= 6


def test_rules_stay_pure() -> None:
    forbidden = {
        "discord",
        "aiosqlite",
        "sqlite3",
        "bot",
        "cogs",
        "time",
        "datetime",
        "os",
        "pathlib",
        "io",
        "requests",
    }
    for path in RULES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, (path.name, name)
        source = path.read_text(encoding="utf-8")
        assert "random.random(" not in source and "random.randint(" not in source and "open(" not in source


def test_magi_show_is_private_and_prepared_spells_go_to_the_gm() -> None:
    g = act_one_setup()
    g.do("gm", "battle round", resonance=7, rolloff="Black")
    out = g.do("black", "prepare", spells="Fireball, Dissolve Tissue")
    assert out.secret is not None and "Fireball" in out.secret.description
    assert "Fireball" not in out.card.description
    shown = g.do("black", "magi show")
    assert shown.ephemeral and shown.data["cards"]["prepared"] == ["Fireball", "Dissolve Tissue"]


def test_autocomplete_offers_what_fits_the_action() -> None:
    g = act_one_setup()
    g.do("gm", "battle round", resonance=7, rolloff="Black")
    g.do("black", "prepare", spells="Fireball, Dissolve Tissue")
    black = g.table("black")
    assert RULESET.suggest(black, "cast", "spell", "") == ["Dissolve Tissue", "Fireball"]
    assert RULESET.suggest(black, "cast", "target", "wh") == ["White"]
    assert "Judgement" in RULESET.suggest(g.table("gm"), "spell define", "name", "judg")
    assert RULESET.suggest(g.table("gm"), "battle encounter add", "name", "") == ["Sentient Shadow"]
    assert len(RULESET.suggest(g.table("gm"), "prepare", "spells", "")) <= 25
