"""The Sentient Shadow (RULING 13): its draw bag, charts, targeting, Evade and scaling, each decision explained."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.base import RuleError
from tests.rules.serpent.helpers import Game

GM_VALUES = {"shadow_spectral_claw_dmg": 3, "shadow_gain_resonance": 2}  # the scan reads "3 Dmg" and "Gain 2"
DEFINITIONS: dict[str, dict[str, Any]] = {
    "Flame Form": {"resonance": -3},
    "Flame Eternae": {"sphere": "Forces"},
    "Infernal Shot": {"sphere": "Forces"},
    "Karmic Binding of Protection": {"resonance": -2, "durability": 2},
    "Universum Negation": {"dispel_to": "discard"},
}


def start(
    seed: int = 1,
    *,
    easy: bool = False,
    white: str = "Fireball x2, Dissolve Tissue x3",
    black: str = "Fireball x2, Dissolve Tissue x3",
    **settings: Any,
) -> Game:
    g = Game(seed=seed, **{**GM_VALUES, **settings})
    for name, fields in DEFINITIONS.items():
        g.do("gm", "spell define", name=name, **fields)
    g.do("white", "magi create", name="White", codex=white)
    g.do("black", "magi create", name="Black", codex=black)
    g.do("gm", "battle start", mode="encounter", easy=easy)
    g.do("white", "battle join")
    g.do("black", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    return g


def shadow_lines(g: Game) -> list[str]:
    return [line for out in g.outcomes for line in out.card.description.splitlines()]


def test_scaling_per_extra_magi_and_none_in_easy_mode() -> None:
    g = start()
    g.do("gm", "battle round", resonance=7)
    shadow = g.being("Sentient Shadow")
    assert (shadow.essence, shadow.actions_per_round, shadow.resonance) == (12, 3, 3 + 2)
    easy = start(easy=True)
    easy.do("gm", "battle round", resonance=7)
    shadow = easy.being("Sentient Shadow")
    assert (shadow.essence, shadow.actions_per_round, shadow.resonance) == (10, 2, 3 + 1)
    # Act II, Round 2: leaving easy mode adds the extra Magi's Essence, bonus and action
    easy.do("white", "prepare", spells="")
    easy.do("black", "prepare", spells="")
    easy.do("gm", "battle mode", easy=False)
    easy.battle.phase = "round_end"
    easy.do("gm", "battle round", resonance=7)
    assert (easy.being("Sentient Shadow").essence, easy.being("Sentient Shadow").actions_per_round) == (12, 3)


def test_red_token_purge_the_light_hits_the_team_and_adds_karma() -> None:
    g = start(white="Karmic Debt, Fireball", black="Fireball")
    g.do("gm", "battle dice", values="token=yellow d10=5 d10=6")
    g.do("gm", "battle round", resonance=10)
    g.do("white", "prepare", spells="Karmic Debt")
    out = g.do("black", "prepare", spells="")
    text = out.card.description
    # White has 0... no: White -1 Harmony, Black -1; the Shadow (0 counts) acts first; yellow: rows 1 and 2 skip
    assert "draws a **yellow** token" in text
    assert "Yellow row 1 (Ability Chart A): skipped, it needs 3 Resonance and has 2" not in text
    assert re.search(r"Yellow row 1 \(Ability Chart A\): skipped, it bears no Soul/Mind Curse", text)
    assert "Yellow row 2 (Ability Chart B): skipped, no opponent is Focused on a spell" in text
    assert "Yellow row 3 (Dark Lash): taken" in text
    assert g.being("White").harmony == -2 and g.being("Black").harmony == -2


def test_purge_the_light_is_area_and_its_karma_charge() -> None:
    g = start(white="Karmic Debt, Fireball", black="Fireball")
    g.do("gm", "battle dice", values="d10=9 d10=1 token=yellow")  # roll-off White 9, Black 1
    g.do("gm", "battle round", resonance=10)
    g.do("white", "prepare", spells="Karmic Debt")
    g.do("black", "prepare", spells="")
    # Shadow drew yellow: Dark Lash. Now White curses it, then the next Shadow draw is red: Purge the Light.
    g.do("gm", "battle dice", values="token=red")
    g.do("white", "cast", spell="Karmic Debt", target="Sentient Shadow")
    g.do("black", "end-turn")
    out = g.outcomes[-1]
    text = out.card.description + g.outcomes[-2].card.description
    assert "Red row 1 (Purge the Light): taken" in text
    assert "a Karma charge goes on Karmic Debt" in text
    assert g.being("White").harmony == -1 - 1 - 5 and g.being("Black").harmony == -7


def test_spectral_claw_targets_the_lowest_harmony_with_a_d10_on_a_tie() -> None:
    g = start()
    g.do("gm", "battle dice", values="d10=3 d10=8 token=red")
    g.do("gm", "battle round", resonance=1)  # the Shadow has 1 + 1 + 1 = 3 Resonance: not enough for Purge
    g.do("gm", "battle dice", values="d10=2 d10=7")  # targeting tie: White 2, Black 7
    g.do("white", "prepare", spells="")
    out = g.do("black", "prepare", spells="")
    text = out.card.description
    assert "Red row 1 (Purge the Light): skipped, it needs 4 Resonance and has 3" in text
    assert "Red row 2 (Spectral Claw): taken" in text
    assert "Targeting roll: White 2, Black 7" in text
    assert "Target: Black rolled highest." in text
    assert "uses the GM-supplied `shadow_spectral_claw_dmg` = 3" in text
    assert g.being("Black").essence == 9


def test_garbled_values_not_supplied_are_flagged_not_invented() -> None:
    g = Game(seed=1)
    g.do("white", "magi create", name="White", codex="Fireball")
    g.do("gm", "battle start", mode="encounter")
    g.do("white", "battle join")
    g.do("gm", "battle encounter add", name="Sentient Shadow")
    g.do("gm", "battle dice", values="token=red token=red")
    g.do("gm", "battle round", resonance=1)  # 1 + 1 Resonance: Spectral Claw, whose Dmg the GM has not set
    out = g.do("white", "prepare", spells="")
    text = out.card.description
    assert "Red row 2 (Spectral Claw): taken" in text
    assert "has not set `shadow_spectral_claw_dmg`: it is treated as 0" in text
    assert g.being("White").essence == 12
    g.do("white", "end-turn")  # now at 0 Resonance: the bottom row, whose amount the GM has not set either
    text = g.outcomes[-1].card.description
    assert "Red row 2 (Spectral Claw): skipped, it needs 2 Resonance and has 0" in text
    assert "Red row 3 (Gain Resonance): taken" in text
    assert "has not set `shadow_gain_resonance`" in text
    assert g.being("Sentient Shadow").resonance == 0


def test_the_shadow_evades_targeted_dmg_but_not_in_easy_mode_and_the_token_goes_back() -> None:
    g = start()
    g.do("gm", "battle dice", values="d10=9 d10=1 token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="Fireball")
    g.do("black", "prepare", spells="Fireball")
    out_before = dict(g.being("Sentient Shadow").encounter.out)  # type: ignore[union-attr]
    g.do("gm", "battle dice", values="token=red")
    out = g.do("white", "cast", spell="Fireball", target="Sentient Shadow")
    assert (
        "pays 1 Resonance to Evade Fireball: draws **red** (returned to the bag) and evades it" in out.card.description
    )
    assert g.being("Sentient Shadow").encounter.out == out_before  # type: ignore[union-attr]
    assert g.being("Sentient Shadow").essence == 12

    easy = start(easy=True)
    easy.do("gm", "battle dice", values="token=yellow")
    easy.do("gm", "battle round", resonance=10, rolloff="White, Black")
    easy.do("white", "prepare", spells="Fireball")
    easy.do("black", "prepare", spells="")
    out = easy.do("white", "cast", spell="Fireball", target="Sentient Shadow")
    assert "Evade" not in out.card.description and easy.being("Sentient Shadow").essence == 8


def test_chart_b_disrupts_a_focused_magi_and_costs_harmony_on_1_to_3() -> None:
    g = start(black="Flame Eternae, Fireball")
    g.do("gm", "battle dice", values="token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="Black")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="Flame Eternae")
    g.do("gm", "battle dice", values="token=yellow")  # evade attempt fails
    g.do("black", "cast", spell="Flame Eternae", target="Sentient Shadow")
    assert g.in_play("Flame Eternae")[0].focus == "black"
    g.do("gm", "battle dice", values="token=yellow d10=2")
    out = g.do("white", "end-turn")
    text = out.card.description
    assert "Yellow row 2 (Ability Chart B): taken" in text
    assert "Ability Chart B: rolled **2** → 1-3: Area, Subtle, Disrupt" in text
    assert "Ability Chart B (1-3) Disrupts Black: loses Focus on Flame Eternae" in text
    assert not g.in_play("Flame Eternae")
    assert g.being("Black").harmony == -1 - 1 - 2  # Overload, Dark Lash, then 2 for losing Focus


def test_below_five_essence_its_attacks_gain_pierce_2() -> None:
    g = start(white="Karmic Binding of Protection, Karmic Debt", black="Fireball")
    g.do("gm", "battle dice", values="d10=9 d10=1 token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="White")
    shadow = g.being("Sentient Shadow")
    shadow.essence = 4
    g.do("white", "prepare", spells="Karmic Debt")
    g.do("black", "prepare", spells="")
    assert "its attack gains Pierce 2" in g.outcomes[-1].card.description


def test_the_bag_resets_once_three_red_and_one_yellow_are_out() -> None:
    g = start()
    g.do("gm", "battle dice", values="token=red token=red token=yellow")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="")
    g.do("black", "prepare", spells="")
    assert g.being("Sentient Shadow").encounter.out == {"red": 1}  # type: ignore[union-attr]
    g.do("white", "end-turn")
    g.do("black", "end-turn")
    assert g.being("Sentient Shadow").encounter.out == {"red": 2, "yellow": 1}  # type: ignore[union-attr]
    g.do("gm", "battle dice", values="token=red")
    g.do("gm", "battle round", resonance=10)
    g.do("white", "prepare", spells="")
    out = g.do("black", "prepare", spells="")
    assert "are out: the bag resets" in out.card.description
    assert g.being("Sentient Shadow").encounter.out == {}  # type: ignore[union-attr]


def test_a_queued_token_must_still_be_in_the_bag() -> None:
    g = start()
    g.do("gm", "battle dice", values="token=purple")
    g.do("gm", "battle round", resonance=10, rolloff="White, Black")
    g.do("white", "prepare", spells="")
    with pytest.raises(RuleError, match="not in the bag"):
        g.do("black", "prepare", spells="")


# ---------------------------------------------------------------- a full battle


def play_full_battle(seed: int) -> Game:
    """Two Magi play a simple, honest policy against the full-strength Shadow until the battle ends."""
    g = start(
        seed,
        white="Karmic Debt, Universum Negation, Acidic Matter x3, Pillar of Earth x3, Air Essence x3, "
        "Dissolve Tissue x3",
        black="Fireball x3, Dissolve Tissue x3, Infernal Shot x3, Flame Form, Flame Eternae",
    )
    for _ in range(25):
        if g.battle.phase == "over":
            break
        g.do("gm", "battle round")  # the table's dice
        for who in ("white", "black"):
            name = who.title()
            if g.battle.phase != "preparation" or g.being(name).incapacitated or g.being(name).ready:
                continue
            discards = [
                c.title
                for c in g.battle.cards_in("discard", name.casefold())
                if g.state.spellbook.get(c.title.casefold()) is None
            ]
            bonded = [t for t in discards if g.book.spell(t) and g.book.spell(t).bonded]  # type: ignore[union-attr]
            if bonded and g.being(name).resonance >= len(bonded) + 3:
                g.do(who, "reattune", spells=", ".join(bonded))
            codex = [c.title for c in g.battle.cards_in("codex", name.casefold())]
            wish = (
                ["Pillar of Earth", "Acidic Matter", "Dissolve Tissue"]
                if who == "white"
                else ["Fireball", "Dissolve Tissue", "Infernal Shot"]
            )
            chosen = [t for t in wish if t in codex][:3]
            g.do(who, "prepare", spells=", ".join(chosen))
        steps = 0
        while g.battle.phase == "actions" and steps < 60:
            steps += 1
            if g.battle.stack:
                g.do("gm", "battle close-window")
                continue
            current = g.battle.current()
            if current is None:
                break
            who = current.name.casefold()
            acted = False
            for card in list(g.battle.cards_in("prepared", who)):
                target = "Sentient Shadow" if g.book.spell(card.title).role == "Attack" else None  # type: ignore[union-attr]
                try:
                    g.do(who, "cast", spell=card.title, target=target)
                    acted = True
                    break
                except RuleError:
                    continue
            if acted:
                continue
            try:
                g.do(who, "meditate")
            except RuleError:
                g.do(who, "pass")
    return g


def test_a_full_battle_against_two_magi_explains_every_decision() -> None:
    g = play_full_battle(seed=11)
    assert g.battle.phase == "over"
    assert g.battle.winner in ("Magi", "Sentient Shadow")
    lines = shadow_lines(g)
    draws = [i for i, line in enumerate(lines) if "**Sentient Shadow** draws a" in line]
    assert len(draws) >= 6
    for i in draws:
        # each draw is followed by the chart rows tried: skipped ones with a reason, then the one taken
        following = []
        for line in lines[i + 1 :]:
            if not line.startswith("  "):
                break
            following.append(line)
        rows = [line for line in following if re.match(r"\s+(Red|Yellow) row \d", line)]
        assert rows, lines[i]
        assert all(("skipped, " in r) or (": taken." in r) for r in rows)
        assert sum(": taken." in r for r in rows) <= 1
        assert all(
            re.search(
                r"skipped, (it needs \d+ Resonance and has \d+|it bears no .*Curse.*|"
                r"no opponent is Focused on a spell)",
                r,
            )
            for r in rows
            if "skipped" in r
        )
    events = [e for out in g.outcomes for e in out.data.get("events", [])]
    assert any(e["type"] == "draw" for e in events)
    assert any(e["type"] == "row" and not e["taken"] for e in events)
    assert any(e["type"] == "evade" for e in events)


def test_the_full_battle_is_reproducible_from_its_seed() -> None:
    first = [o.card.description for o in play_full_battle(seed=5).outcomes]
    second = [o.card.description for o in play_full_battle(seed=5).outcomes]
    assert first == second
