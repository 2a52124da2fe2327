"""Walkthrough Act I through the real command line (``python -m bot console --json``), as issue 5 asks.

``tests/scenarios/serpent_act1.txt`` feeds the Resonance rolls the text assumes
(7, 4, 10, 5, 10). Every end-of-round summary the text states is asserted from
the JSON ``data`` (energies, Essence, shield Durability, spells in play), and so
are the in-between numbers the text reads out ("Now you have 3 Resonance and I
have 2", "We are now tied at 4 Essence each"...). The final state: Black is
incapacitated by Judgement.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.scenario import SCENARIOS, run_scenario

SEED = 1


class Replay:
    """The scenario's results, read in order: each command line is found after the previous one."""

    def __init__(self, results: list[dict]) -> None:
        self.results = results
        self.position = 0

    def after(self, command: str) -> dict[str, Any]:
        """The ``data`` of the next result whose line is exactly ``command`` (it must have succeeded)."""
        for index in range(self.position, len(self.results)):
            result = self.results[index]
            if result["command"] == command:
                self.position = index + 1
                assert result["ok"], (command, result["text"])
                return result["data"]
        raise AssertionError(f"{command!r} does not follow line {self.position} of the scenario")

    def board(self) -> dict[str, Any]:
        return self.after("/serpent battle board")["battle"]


def energies(battle: dict[str, Any], name: str) -> tuple[int, int]:
    being = battle["beings"][name]
    return being["essence"], being["resonance"]


def in_play(battle: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Spells in play by title (Act I never has two of one title in play at once)."""
    cards: dict[str, dict[str, Any]] = {}
    for card in battle["in_play"]:
        assert card["title"] not in cards, card
        cards[card["title"]] = card
    return cards


def where(card: dict[str, Any]) -> tuple[str, str]:
    return card["zone"], card["bearer"]


@pytest.fixture(scope="module")
def act1(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario("serpent_act1.txt", tmp_path_factory.mktemp("act1"), seed=SEED)


@pytest.fixture
def replay(act1: list[dict]) -> Replay:
    return Replay(act1)


def test_every_line_of_the_scenario_runs(act1: list[dict]) -> None:
    lines = [
        line.strip()
        for line in (SCENARIOS / "serpent_act1.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert [r["command"] for r in act1] == lines
    assert [r["command"] for r in act1 if not r["ok"]] == []
    assert all("incident" not in r for r in act1)


def test_setup_in_basic_play_at_seven_essence(replay: Replay) -> None:
    assert replay.after("/campaign settings key:basic_play value:true") == {
        "key": "basic_play",
        "old": False,
        "new": True,
    }
    joined = replay.after("/serpent battle join")
    assert joined["battle"]["phase"] == "setup"
    battle = replay.after("/serpent battle join")["battle"]
    for name in ("White", "Black"):
        being = battle["beings"][name]
        assert (being["essence"], being["resonance"], being["harmony"], being["will"]) == (7, 0, 0, 3)
        assert being["team"] == name  # a duel: each Magi their own team


def test_round_one(replay: Replay) -> None:
    data = replay.after("/serpent battle round resonance:7 rolloff:Black")
    (roll,) = [e for e in data["events"] if e["type"] == "resonance"]
    assert (roll["die"], roll["gain"], roll["supplied"]) == (7, 3, True)
    battle = data["battle"]
    assert battle["order"] == ["Black", "White"]  # Black won the roll-off and chose to go first
    assert (energies(battle, "White"), energies(battle, "Black")) == ((7, 3), (7, 3))
    assert battle["phase"] == "preparation"

    battle = replay.after("/serpent meditate")["battle"]
    assert energies(battle, "Black") == (7, 5)  # "meditate to gain 2 Resonance"
    assert battle["beings"]["Black"]["harmony"] == 0  # basic play: no Harmony
    battle = replay.after('/serpent cast spell:"Pillar of Earth"')["battle"]
    assert energies(battle, "White") == (7, 4)  # "you earn 1 Resonance"
    assert where(in_play(battle)["Pillar of Earth"]) == ("defense", "White")
    battle = replay.after("/serpent cast spell:Fireball target:White")["battle"]
    assert energies(battle, "White") == (5, 4)  # "Dmg 2"
    assert energies(battle, "Black") == (7, 0)  # "I pay 5 Resonance"
    assert "Fireball" not in in_play(battle)  # no Duration: discarded
    data = replay.after('/serpent cast spell:"Acidic Matter" target:Black')
    assert any(e["type"] == "discard" and "Pillar of Earth" in e.get("text", "") for e in data["events"])
    battle = data["battle"]
    cards = in_play(battle)
    assert "Pillar of Earth" not in cards  # the Matter Component it required
    assert where(cards["Acidic Matter"]) == ("attack", "Black") and cards["Acidic Matter"]["duration"] == 2
    assert battle["phase"] == "round_end"

    # End of Round 1 Summary: White 5 Essence and 1 Resonance; Black 6 Essence and 0 Resonance.
    board = replay.board()
    assert energies(board, "White") == (5, 1)
    assert energies(board, "Black") == (6, 0)
    assert list(in_play(board)) == ["Acidic Matter"]


def test_round_two(replay: Replay) -> None:
    replay.after("/serpent battle board")  # the end of round 1
    battle = replay.after("/serpent battle round resonance:4")["battle"]
    # "Now you have 3 Resonance and I have 2. Since you have more Resonance you gain initiative."
    assert (energies(battle, "White")[1], energies(battle, "Black")[1]) == (3, 2)
    assert battle["order"] == ["White", "Black"]
    # maintenance: Acidic Matter's 1 Dmg, one counter off
    assert energies(battle, "Black")[0] == 5
    assert in_play(battle)["Acidic Matter"]["duration"] == 1

    battle = replay.after('/serpent cast spell:"Air Essence"')["battle"]
    assert energies(battle, "White") == (5, 4)
    battle = replay.after('/serpent cast spell:"Dissolve Tissue" target:White')["battle"]
    assert energies(battle, "White") == (4, 4) and energies(battle, "Black") == (5, 1)
    battle = replay.after('/serpent cast spell:"Materia Binding"')["battle"]
    cards = in_play(battle)
    assert "Air Essence" not in cards  # the Gas Component it required
    assert where(cards["Materia Binding of Mal-kuth"]) == ("defense", "White")
    assert cards["Materia Binding of Mal-kuth"]["durability"] == 3  # "place 3 Durability counters on it"
    assert energies(battle, "White") == (4, 2)
    data = replay.after('/serpent cast spell:"Dissolve Tissue" target:White')
    assert any(e["type"] == "blocked" for e in data["events"])

    # The White Magi has 4 Essence and 2 Resonance. The Materia Binding with 2 Durability is in White Magi's
    # Defense zone. The Black Magi has 5 Essence and 0 Resonance. The Acidic Matter is still in his Attack zone.
    board = replay.board()
    assert energies(board, "White") == (4, 2)
    assert energies(board, "Black") == (5, 0)
    cards = in_play(board)
    assert where(cards["Materia Binding of Mal-kuth"]) == ("defense", "White")
    assert cards["Materia Binding of Mal-kuth"]["durability"] == 2
    assert where(cards["Acidic Matter"]) == ("attack", "Black")
    assert set(cards) == {"Materia Binding of Mal-kuth", "Acidic Matter"}


def test_round_three(replay: Replay) -> None:
    for _ in range(2):
        replay.after("/serpent battle board")
    data = replay.after("/serpent battle round resonance:10")
    (roll,) = [e for e in data["events"] if e["type"] == "resonance"]
    assert roll["overload"] and roll["gain"] == 5
    battle = data["battle"]
    # "You have 7 Resonance now and I have 5 ... We are now tied at 4 Essence each."
    assert energies(battle, "White") == (4, 7) and energies(battle, "Black") == (4, 5)
    assert battle["beings"]["White"]["harmony"] == 0  # basic play: the Overload costs no Harmony
    assert "Acidic Matter" not in in_play(battle)  # its last counter came off

    battle = replay.after('/serpent reattune spells:"Dissolve Tissue"')["battle"]
    assert energies(battle, "Black")[1] == 4  # Bonded: 1 Resonance
    battle = replay.after('/serpent reattune spells:"Air Essence, Pillar of Earth"')["battle"]
    assert energies(battle, "White")[1] == 5  # two Bonded spells: 2 Resonance

    battle = replay.after('/serpent cast spell:"Karmic Debt" target:Black')["battle"]
    debt = in_play(battle)["Karmic Debt"]
    assert where(debt) == ("curse", "Black") and debt["persistent"]
    battle = replay.after('/serpent cast spell:"Cellular Degeneration" target:White')["battle"]
    cards = in_play(battle)
    assert (
        where(cards["Cellular Degeneration"]) == ("curse", "White") and cards["Cellular Degeneration"]["duration"] == 3
    )
    assert cards["Karmic Debt"]["charges"] == {"Karma": 1}
    assert cards["Materia Binding of Mal-kuth"]["durability"] == 2  # Subtle slips past, costing it nothing
    replay.after('/serpent cast spell:"Pillar of Earth"')
    data = replay.after('/serpent cast spell:"Dissolve Tissue" target:White')
    assert any("Subtle: slips past Materia Binding of Mal-kuth" in e.get("text", "") for e in data["events"])
    assert in_play(data["battle"])["Karmic Debt"]["charges"] == {"Karma": 2}

    # End of Round 3 Summary: White 3 Essence and 3 Resonance; Black 4 Essence and 0 Resonance.
    board = replay.board()
    assert energies(board, "White") == (3, 3)
    assert energies(board, "Black") == (4, 0)
    cards = in_play(board)
    assert cards["Materia Binding of Mal-kuth"]["durability"] == 2
    assert set(cards) == {"Materia Binding of Mal-kuth", "Pillar of Earth", "Karmic Debt", "Cellular Degeneration"}


def test_round_four(replay: Replay) -> None:
    for _ in range(3):
        replay.after("/serpent battle board")
    battle = replay.after("/serpent battle round resonance:5")["battle"]
    # "putting you at 5 Resonance and me at 2"; the Curse zone: Cellular Degeneration loses a counter
    assert energies(battle, "White")[1] == 5 and energies(battle, "Black")[1] == 2
    assert in_play(battle)["Cellular Degeneration"]["duration"] == 2

    replay.after('/serpent cast spell:"Air Essence"')
    battle = replay.after('/serpent cast spell:"Cellular Augmentation"')["battle"]
    assert where(in_play(battle)["Cellular Augmentation"]) == ("enhance", "Black")
    battle = replay.after('/serpent cast spell:Purification target:"Cellular Degeneration"')["battle"]
    cards = in_play(battle)
    assert "Cellular Degeneration" not in cards and "Purification" not in cards  # "They are then both discarded"
    data = replay.after("/serpent meditate")
    assert any(e["type"] == "pass" and e["being"] == "White" and e["auto"] for e in data["events"])
    battle = replay.after('/serpent cast spell:"Beast Form"')["battle"]
    assert where(in_play(battle)["Beast Form"]) == ("enhance", "Black")
    battle = replay.after('/serpent use ability:"Beast Form attack"')["battle"]
    assert in_play(battle)["Materia Binding of Mal-kuth"]["durability"] == 1  # "Your Shield loses 1 Durability"
    assert in_play(battle)["Karmic Debt"]["charges"] == {"Karma": 2}  # an ability is not an offensive spell

    # End of Round 4 Summary: White 3 Essence and 3 Resonance; Black 4 Essence and 0 Resonance.
    board = replay.board()
    assert energies(board, "White") == (3, 3)
    assert energies(board, "Black") == (4, 0)
    cards = in_play(board)
    assert cards["Materia Binding of Mal-kuth"]["durability"] == 1
    assert set(cards) == {
        "Materia Binding of Mal-kuth",
        "Air Essence",
        "Karmic Debt",
        "Cellular Augmentation",
        "Beast Form",
    }
    assert board["phase"] == "round_end"


def test_round_five_ends_with_black_incapacitated_by_judgement(replay: Replay) -> None:
    for _ in range(4):
        replay.after("/serpent battle board")
    battle = replay.after("/serpent battle round resonance:10")["battle"]
    cards = in_play(battle)
    assert cards["Cellular Augmentation"]["duration"] == 2 and cards["Beast Form"]["duration"] == 2
    assert energies(battle, "White") == (3, 8) and energies(battle, "Black") == (4, 5)

    battle = replay.after('/serpent cast spell:"Acidic Matter" target:Black')["battle"]
    assert energies(battle, "Black")[0] == 3  # "I lose 1 Essence, tying me with you."
    assert in_play(battle)["Acidic Matter"]["duration"] == 2
    battle = replay.after('/serpent cast spell:"Infernal Shot" target:White')["battle"]
    cards = in_play(battle)
    assert "Materia Binding of Mal-kuth" not in cards  # "your Shield loses its last Durability counter"
    assert energies(battle, "Black")[0] == 2  # "Pay 1 Essence"; "only 2 Essence"
    assert cards["Karmic Debt"]["charges"] == {"Karma": 3}  # "I have 3 Karmic charges"
    data = replay.after("/serpent cast spell:Judgement target:Black")
    (hit,) = [e for e in data["events"] if e["type"] == "dmg" and e["target"] == "Black"]
    assert (hit["energy"], hit["amount"]) == ("Essence", 3)
    assert any(e["type"] == "incapacitated" for e in data["events"])

    # The final state: Black is incapacitated by Judgement; Karmic Debt stays, without charges.
    board = replay.board()
    black = board["beings"]["Black"]
    assert black["incapacitated"] and black["essence"] == 0
    assert in_play(board)["Karmic Debt"]["charges"] == {}
    assert energies(board, "White") == (3, 3)
    assert not board["beings"]["White"]["incapacitated"]

    # and the victory check after the next maintenance phase
    over = replay.after("/serpent battle round")["battle"]
    assert (over["phase"], over["winner"]) == ("over", "White")


def test_seed_is_irrelevant_to_the_walkthrough(tmp_path: Path) -> None:
    """Every roll the text makes is supplied: another seed replays the same five rounds."""
    other = run_scenario("serpent_act1.txt", tmp_path, seed=SEED + 1)
    replay = Replay(other)
    boards = [replay.board() for _ in range(5)]
    assert [(energies(b, "White"), energies(b, "Black")) for b in boards] == [
        ((5, 1), (6, 0)),
        ((4, 2), (5, 0)),
        ((3, 3), (4, 0)),
        ((3, 3), (4, 0)),
        ((3, 3), (0, 5)),
    ]
