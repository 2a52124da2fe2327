"""Issue 4's console scenario: tests/scenarios/runic_campaign.txt through `python -m bot console --json --seed 240`.

The seed decides every die except the ones the GM supplies in step 11, so each value below is exact. If a rules
change alters how many dice a step rolls, these fail: replay the file with the seed, check the new story is still
the one the comments tell, and update both together.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.scenario import SCENARIOS, run_scenario, without_seals

SEED = 240
SCENARIO = "runic_campaign.txt"


def _lines() -> list[str]:
    text = (SCENARIOS / SCENARIO).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    return run_scenario(SCENARIO, tmp_path_factory.mktemp("runic"), seed=SEED)


class Steps:
    """The results in file order; each ``next`` names the command it expects, so a reordering fails loudly."""

    def __init__(self, results: list[dict]) -> None:
        self._results: Iterator[dict] = iter(results)

    def next(self, command: str) -> dict:
        result = next(self._results)
        assert result["command"].startswith(command), (command, result["command"])
        assert result["ok"], result["text"]
        return result

    def skip_to(self, command: str) -> dict:
        while True:
            result = next(self._results)
            if result["command"].startswith(command):
                assert result["ok"], result["text"]
                return result


def three_d6(roll: dict) -> None:
    """Dice are shown, one per die, and add up."""
    assert len(roll["dice"]) == 3 and all(1 <= d <= 6 for d in roll["dice"]), roll
    assert roll["total"] == sum(roll["dice"])


def test_every_line_runs_and_replays_identically(results: list[dict], tmp_path: Path) -> None:
    assert [r["command"] for r in results] == _lines()
    assert all(r["ok"] for r in results), [r["text"] for r in results if not r["ok"]]
    assert not any("incident" in r for r in results)
    again = run_scenario(SCENARIO, tmp_path, seed=SEED)
    assert [_without_times(r) for r in results] == [_without_times(r) for r in again]


def _without_times(result: dict) -> dict:
    """A result with the log's clock readings blanked: only they may differ between two runs."""
    data = result["data"]
    if isinstance(data.get("events"), list):
        data = {**data, "events": [{k: v for k, v in e.items() if k != "at"} for e in data["events"]]}
    if isinstance(data.get("created_at"), str):
        data = {**data, "created_at": None}
    text = re.sub(r"\d\d-\d\d \d\d:\d\d", "MM-DD hh:mm", result["text"])
    return without_seals({**result, "data": data, "text": text})


def test_campaign_mages_and_spells(results: list[dict]) -> None:
    steps = Steps(results)
    steps.next("@as Gwen")
    started = steps.next("/campaign start")
    assert started["data"]["ruleset"] == "runic" and started["data"]["campaign"] == "Camelot"

    steps.next("@as Pat")
    merlin = steps.next("/runic mage create name:Merlin")
    assert merlin["data"]["mage"] == "Merlin" and not merlin["ephemeral"]
    assert "MP 60/60" in merlin["text"] and "Other Words at default: 11 · cap 15" in merlin["text"]
    for word, skill in (("Jux", 13), ("Flam", 13), ("In", 14), ("Sanct", 14)):
        trained = steps.next(f"/runic mage word word:{word}")
        assert trained["data"] == {"mage": "Merlin", "word": word, "skill": skill, "cheaper_casting": None}

    steps.next("@as Oz")
    nimue = steps.next("/runic mage create name:Nimue")
    assert "MP 40/40" in nimue["text"]

    steps.next("@as Pat")
    seek = steps.next('/runic spell define name:"Seek Enchantments"')["data"]
    assert seek["spell"]["words"] == ["Gal", "Ort", "Xen"] and seek["spell"]["type"] == "information"
    assert [(line["label"], line["energy"]) for line in seek["energy_lines"]] == [
        ("Words", 5),
        ("duration: 10 minutes", 4),
        ("traits: +20", 4),
    ]
    assert (seek["energy"], seek["time"], seek["maintenance"], seek["where"], seek["mage"]) == (
        13, 3, 2, "mage", "Merlin",
    )  # fmt: skip

    mass = steps.next('/runic spell define name:"Mass Extinguish Fire"')["data"]
    assert [(line["label"], line["energy"]) for line in mass["energy_lines"]] == [
        ("Words", 3),
        ("Vas (Greater)", 2),
        ("area: radius 5 yd", 5),
    ]
    assert (mass["energy"], mass["time"]) == (10, 4)  # (Jux 1 + Flam 1) × 2 for Vas
    grimoire = steps.next("/runic mage grimoire")["data"]
    assert grimoire["spells"] == {"mass extinguish fire": 5} and grimoire["pages"] == 60

    extinguish = steps.next('/runic spell define name:"Extinguish Fire"')["data"]
    assert (extinguish["energy"], extinguish["time"], extinguish["spell"]["type"]) == (3, 2, "blocking")
    fireball = steps.next('/runic spell define name:"Flaming Staff"')["data"]
    assert [(line["label"], line["energy"]) for line in fireball["energy_lines"]] == [
        ("Words", 3),
        ("damage: 12d standard burning", 11),
        ("Melee spell", -2),
    ]  # a Melee spell: a Missile spell may hold at most Magery (3) energy (issue 14)
    assert fireball["energy"] == 12

    steps.next("@gm")
    ward = steps.next('/runic spell define name:"Ward of Flame"')
    assert ward["data"]["where"] == "campaign" and ward["data"]["mage"] is None
    assert (ward["data"]["energy"], ward["data"]["maintenance"]) == (6, 1)
    assert "Saved in the campaign grimoire." in ward["text"]

    steps.next("@as Pat")
    assert steps.next("/runic mage learn")["data"] == {"mage": "Merlin", "spell": "Ward of Flame", "known": True}
    shown = steps.next("/runic mage show")
    sheet = shown["data"]["sheet"]
    assert (sheet["mp"], sheet["mp_max"], sheet["magery"]) == (60, 60, 3)
    assert sheet["known"] == ["extinguish fire", "flaming staff", "ward of flame"]
    assert shown["ephemeral"] and "Known from the campaign grimoire: Ward of Flame" in shown["text"]


def test_merlin_castings_and_the_information_spell(results: list[dict]) -> None:
    steps = Steps(results)
    mass = steps.skip_to('/runic cast spell:"Mass Extinguish Fire"')["data"]
    assert mass["skill"] == {
        "base": 10,  # Vas at default 11, -1 for the third Word
        "modifiers": [
            {"label": "Hurried (2 halving(s))", "value": -4},
            {"label": "Faster Casting 4", "value": 4},
            {"label": "Grimoire bonus", "value": 5},
        ],
        "effective": 15,
    }
    assert (mass["time"], mass["time_unit"], mass["source"]) == (1, "minute", "grimoire")  # ruling 6: not 2
    three_d6(mass["roll"])
    assert mass["roll"]["dice"] == [5, 1, 1] and mass["outcome"] == "success"
    assert mass["paid"]["due"] == 10 and mass["paid"]["mp"] == 10
    assert mass["mp"] == {"before": 60, "after": 50} and mass["calamity"] is None

    instant = steps.next('/runic cast spell:"Extinguish Fire" instant:true')
    data = instant["data"]
    assert data["skill"]["modifiers"] == [
        {"label": "Instant casting", "value": -4},  # ruling 6: -4, not the example's -6
        {"label": "Faster Casting 4", "value": 4},
    ]
    assert (data["skill"]["effective"], data["time"], data["roll"]["dice"]) == (13, 1, [3, 2, 5])
    assert data["mp"] == {"before": 50, "after": 47}
    for needle in ("Instant casting: -4", "Faster Casting 4: +4", "3d6 [3+2+5] = **10** vs 13", "MP 50 → 47"):
        assert needle in instant["text"]

    seek = steps.next('/runic cast spell:"Seek Enchantments"')
    data = seek["data"]
    assert data["secret"] is True and not seek["ephemeral"]
    assert not {"roll", "skill", "outcome", "gm"} & set(data)  # the roll is the GM's alone
    gm = seek["secret"]["data"]["gm"]
    assert gm["roll"]["dice"] == [5, 6, 3] and gm["outcome"] == "critical_failure"
    assert gm["skill"]["modifiers"] == [{"label": "Unknown spell (not bought)", "value": -6}]
    assert gm["skill"]["effective"] == 4
    assert data["paid"]["due"] == 13 and data["mp"] == {"before": 47, "after": 34}  # paid in full on a failure
    assert "Cost 13" in seek["text"] and "MP 47 → 34" in seek["text"]
    public = without_seals(seek["text"])  # its commitment is random hex: a "3d6" there tells nothing
    assert "3d6" not in public and "Effective skill" not in public and "critical" not in public
    assert seek["secret"]["to"] == "the GM by direct message"
    assert "lie to the player" in seek["secret"]["text"] and "3d6 [5+6+3] = **14** vs 4" in seek["secret"]["text"]
    # it goes on as if it worked (the mage cannot tell), and the GM is told so
    assert data["spell_on"]["name"] == "Seek Enchantments" and data["spell_on"]["maintenance"] == 2
    assert "-- Spell on: Seek Enchantments: 2 MP per 10 minutes" in seek["text"]
    assert "stays on the mage's sheet as if it worked" in seek["secret"]["text"]
    dropped = steps.next('/runic drop spell:"Seek Enchantments"')
    assert dropped["data"] == {"mage": "Merlin", "ended": ["Seek Enchantments"], "spells_on": []}
    assert "nothing is paid" in dropped["text"]


def test_fireballs_until_a_calamity(results: list[dict]) -> None:
    steps = Steps(results)
    casts = [steps.skip_to('/runic cast spell:"Flaming Staff"') for _ in range(4)]
    chain = [c["data"]["mp"] for c in casts]
    assert chain == [
        {"before": 34, "after": 22},
        {"before": 22, "after": 10},
        {"before": 10, "after": -2},
        {"before": -2, "after": -14},
    ]
    for cast in casts:
        data = cast["data"]
        three_d6(data["roll"])
        assert data["cost"] == 12 and data["paid"]["due"] == 12 and data["paid"]["mp"] == 12
        assert data["paid"]["item"] == data["paid"]["fp"] == data["paid"]["hp"] == data["paid"]["strain_fp"] == 0
        assert data["skill"]["effective"] == 13
    assert [c["data"]["calamity"] for c in casts[:2]] == [None, None]  # MP still at or above zero

    # MP 10 → -2: the first Calamity check, at +0 (-2 is not a full 5 below zero).
    third = casts[2]["data"]
    assert third["roll"]["dice"] == [4, 3, 6] and third["outcome"] == "success"
    calamity = third["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([5, 5, 5], 0, 15, "15")
    assert calamity["effects"] == [
        "Strange energies: 9 minutes",
        "Violent headaches: 8 turns",
        "Unstable casting: 5 weeks",
    ]
    assert [(r["spec"], r["dice"], r["total"]) for r in calamity["rolls"]] == [
        ("3d", [2, 5, 2], 9),
        ("3d", [2, 5, 1], 8),
        ("1d+1", [4], 5),
    ]
    assert calamity["harmful"] and not calamity["spell_fails"] and calamity["will_roll"] is None
    text = casts[2]["text"]
    assert "-- Calamity 15 (Merlin):" in text and "3d [5+5+5] = 15 + 0 (MP below zero) = **15**" in text

    # Unstable casting turns the next failure (16 vs 13) into a critical failure, paid in full.
    fourth = casts[3]["data"]
    assert fourth["roll"] == {"dice": [5, 6, 5], "total": 16, "skill": 13, "margin": -3, "outcome": "failure"}
    assert fourth["outcome"] == "critical_failure" and not fourth["worked"]
    calamity = fourth["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([4, 5, 1], 2, 12, "12")
    assert calamity["effects"] == ["Strange energies: 12 minutes", "Injury: 1d [1] = 1 → HP 13/14"]
    critical = fourth["critical_failure"]
    assert (critical["dice"], critical["total"], critical["row"]) == ([1, 4, 6], 11, "10–11")
    assert critical["text"].startswith("Spell produces nothing but a loud noise")
    assert "Unstable casting (Calamity 15): this failure is a critical failure." in casts[3]["text"]
    assert "Critical Spell Failure 10–11" in casts[3]["text"]


def test_a_spell_on_and_its_maintenance_below_zero(results: list[dict]) -> None:
    steps = Steps(results)
    ward = steps.skip_to('/runic cast spell:"Ward of Flame"')
    data = ward["data"]
    assert data["saved"] == "campaign" and data["outcome"] == "success" and data["roll"]["dice"] == [3, 5, 2]
    assert data["mp"] == {"before": -14, "after": -20}
    calamity = data["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([3, 2, 1], 4, 10, "10–11")
    assert data["spell_on"] == {
        "name": "Ward of Flame", "words": ["Sanct", "Flam"], "cost": 6, "maintenance": 1, "interval": "1 minute",
        "concentrating": False,
        "frozen": False,
    }  # fmt: skip
    assert data["ended"] == []  # the new spell survives its own Calamity

    maintained = steps.next("/runic maintain")
    data = maintained["data"]
    assert (data["mp_before"], data["mp_after"], data["spells"]) == (-20, -21, ["Ward of Flame"])
    (payment,) = data["payments"]
    assert (payment["cost"], payment["mp_before"], payment["mp_after"], payment["strain_fp"]) == (1, -20, -21, 0)
    calamity = payment["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([5, 6, 1], 4, 16, "16")
    assert "gm" not in calamity  # the player's data holds nothing the Calamity hid
    hidden = maintained["secret"]["data"]["payments"]["0"]["calamity"]["gm"]
    assert hidden["effects"] == ["Maximum MP lost: 3d+5 [1+1+6] = 13 (back at 1 per day); max MP now 47"]
    assert payment["ended"] == ["Ward of Flame"] and data["spells_on"] == []
    # "aware that there's been a drop, but not of how much": the channel never sees 47 or 13
    assert "how much, only the GM knows" in maintained["text"]
    shown = without_seals(maintained["text"])  # its commitment is random hex: a "47" there tells nothing
    assert "47" not in shown and "13 (back" not in shown
    assert "(GM) Maximum MP lost: 3d+5 [1+1+6] = 13" in maintained["secret"]["text"]


def test_the_gm_rolls_a_calamity_22_for_the_companion(results: list[dict]) -> None:
    steps = Steps(results)
    steps.skip_to("/runic maintain")
    steps.next("@gm")
    cast = steps.next("/runic cast mage:Merlin")
    data = cast["data"]
    assert data["roll"]["dice"] == [3, 3, 3] and data["outcome"] == "success"
    assert data["mp"] == {"before": -21, "after": -24}
    calamity = data["calamity"]
    assert (calamity["dice"], calamity["bonus"], calamity["total"], calamity["row"]) == ([6, 6, 6], 4, 22, "22")
    assert not calamity["harmful"]  # 22 does nothing to the caster
    companion = calamity["companion"]
    assert companion["name"] == "Nimue"  # the campaign's only other mage
    assert (companion["dice"], companion["bonus"], companion["total"], companion["row"]) == ([2, 3, 2], 4, 11, "10–11")
    assert companion["effects"] == ["Strange energies: 9 minutes"]
    assert "The GM rolled these dice at the table." in cast["text"] and "-- 22: it strikes Nimue:" in cast["text"]


def test_gm_adjustment_is_logged_with_its_reason(results: list[dict]) -> None:
    steps = Steps(results)
    adjusted = steps.skip_to("/runic adjust")
    assert adjusted["data"] == {
        "character": "Merlin", "field": "hp", "name": None, "before": 9, "after": 14,
        "reason": "Healed by the Lady of the Lake",
    }  # fmt: skip
    assert "MP -24 (maximum lowered by a Calamity; the GM knows how far)" in adjusted["text"]
    log = steps.next("/campaign log")["data"]
    newest = log["events"][0]
    assert newest["command"] == "runic adjust" and newest["actor"] == "Gwen"
    assert newest["summary"] == "GM Gwen set Merlin's hp: 9 → 14 (Healed by the Lady of the Lake)"
    assert [e["command"] for e in log["events"][1:3]] == ["runic cast", "runic maintain"]


def test_sunrise_recovers_and_ticks(results: list[dict]) -> None:
    steps = Steps(results)
    sunrise = steps.skip_to("/runic sunrise")["data"]
    assert sunrise["day"] == 1 and sunrise["days"] == 1
    (merlin,) = sunrise["mages"]["Merlin"]
    assert merlin == {
        "mage": "Merlin", "mp_before": -24, "recovery": 15, "halted": False, "mp_gained": 15,
        "implement_gained": 0, "mp_after": -9, "temporary_restored": 1,
        "conditions_ended": ["Strange energies", "Violent headaches"],
    }  # fmt: skip
    (nimue,) = sunrise["mages"]["Nimue"]
    assert (nimue["recovery"], nimue["mp_gained"], nimue["mp_after"]) == (10, 0, 40)  # 5 × Magery 2; already full
    assert nimue["conditions_ended"] == ["Strange energies"]  # from the companion's Calamity

    gm_view = steps.next("/runic mage show mage:Merlin")["data"]["sheet"]
    assert (gm_view["mp"], gm_view["mp_max"], gm_view["mp_lost_temporary"], gm_view["hp"]) == (-9, 48, 12, 14)
    (condition,) = gm_view["conditions"]
    assert (condition["name"], condition["until"], condition["days_left"]) == ("Unstable casting", "days", 34)
    assert steps.next("/runic mage show mage:Nimue")["data"]["sheet"]["conditions"] == []

    steps.next("@as Pat")
    player = steps.next("/runic mage show")
    assert player["data"]["sheet"]["mp"] == -9
    assert player["data"]["sheet"]["mp_max"] is None and player["data"]["sheet"]["mp_lost_temporary"] is None
    assert "MP -9 (maximum lowered by a Calamity; the GM knows how far)" in player["text"]
    assert "48" not in player["text"]
