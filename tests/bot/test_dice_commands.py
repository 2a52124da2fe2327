"""/check, /contest, /pool and /odds through the console, as a player would type them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Console
from tests.support.loop_console import LoopConsole


async def test_check_shows_every_die_and_the_margin(console: Console) -> None:
    result = await console.ok("/check skill:12 modifier:-2 label:Stealth")
    data = result["data"]
    assert data["skill"] == 10
    assert data["base_skill"] == 12
    assert data["modifier"] == -2
    assert len(data["dice"]) == 3
    assert data["total"] == sum(data["dice"])
    assert data["margin"] == 10 - data["total"]
    assert data["outcome"] in {"critical_success", "success", "failure", "critical_failure"}
    assert f"[{', '.join(map(str, data['dice']))}]" in result["text"]
    assert result["text"].startswith("== Stealth: ")


async def test_check_below_three_cannot_be_attempted(console: Console) -> None:
    result = await console.fails("/check skill:5 modifier:-3")
    assert "below 3" in result["text"]


async def test_contest_and_resisted_roll(console: Console) -> None:
    quick = await console.ok("/contest skill:12 against:11")
    assert quick["data"]["result"] in {"a_wins", "b_wins", "tie"}
    assert len(quick["data"]["a"]["dice"]) == len(quick["data"]["b"]["dice"]) == 3
    resisted = await console.ok("/contest skill:20 against:12 resisted:true")
    data = resisted["data"]
    assert data["cap"] == 16
    assert data["capped"] is True
    assert data["effective_skill"] == 16
    assert "Rule of 16" in resisted["text"] or data["result"] == "caster_failed"
    spell = await console.ok("/contest skill:20 against:12 resisted:true living:false")
    assert spell["data"]["capped"] is False
    assert "resisted:true" in (await console.fails("/contest skill:12 against:12 living:false"))["text"]


async def test_pool_keeps_every_die_with_its_explosions(console: Console) -> None:
    result = await console.ok("/pool dice:8 again:8-again rote:true exceptional:3 label:Shaping")
    data = result["data"]
    assert data["again"] == 8
    assert data["rote"] is True
    assert data["exceptional_at"] == 3
    assert len(data["dice"]) == 8
    faces = [f for die in data["dice"] for f in die["faces"] + die["rote_faces"]]
    assert all(1 <= f <= 10 for f in faces)
    assert data["successes"] == sum(1 for f in faces if f >= 8)
    chance = await console.ok("/pool dice:-1")
    assert chance["data"]["chance_die"] is True
    assert "Chance die" in chance["text"]
    assert "must be one of" in (await console.fails("/pool dice:3 again:7-again"))["text"]


async def test_odds_are_exact(console: Console) -> None:
    check = await console.ok("/odds check skill:14")
    assert Fraction(check["data"]["success"]) == Fraction(49, 54)
    assert check["ephemeral"]
    crit = await console.ok("/odds check skill:15")
    assert Fraction(crit["data"]["critical_success"]) == Fraction(10, 216)
    discord_odds = await console.ok("/odds discord level:12")
    assert Fraction(discord_odds["data"]["event"]) == Fraction(55, 100)
    calm = await console.ok("/odds discord level:6")
    assert calm["data"]["owed"] is False
    pool = await console.ok("/odds pool dice:1 again:9-again")
    assert Fraction(pool["data"]["expected"]) == Fraction(3, 8)
    rote = await console.ok("/odds pool dice:1 again:8-again rote:true")
    assert Fraction(rote["data"]["expected"]) == Fraction(3, 7) * Fraction(17, 10)


async def test_calamity_odds_cover_the_table(console: Console) -> None:
    result = await console.ok("/odds calamity mp:-12")
    data = result["data"]
    assert data["bonus"] == 2
    assert sum(Fraction(p) for p in data["bands"].values()) == 1
    none_below = await console.ok("/odds calamity mp:-4")
    assert none_below["data"]["bonus"] == 0
    deep = await console.ok("/odds calamity mp:-100")
    assert Fraction(deep["data"]["spell_fails"]) > Fraction(1, 2)  # 3d6+20: 29+ on 9 or more


async def test_rolls_are_logged_in_a_campaign_and_secret_works(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Dice")
    await console.ok("/check skill:12")
    await console.ok("/pool dice:3")
    await console.ok("/contest skill:12 against:10")
    hidden = await console.ok("/check skill:12 label:Perception secret:true")
    assert "went to the GM" in hidden["text"]
    assert "Perception" in hidden["secret"]["text"]
    await console.ok("/odds check skill:12")  # odds change nothing and are not logged
    log = await console.ok("/campaign log")
    assert [e["command"] for e in log["data"]["events"]][:4] == ["check", "contest", "pool", "check"]


COMMANDS = st.sampled_from(
    [
        "/check skill:{a}",
        "/check skill:{a} modifier:{b}",
        "/contest skill:{a} against:{b}",
        "/contest skill:{a} against:{b} resisted:true living:{t}",
        "/pool dice:{a} again:{g} rote:{t} exceptional:{b}",
        "/odds check skill:{a}",
        "/odds pool dice:{a} rote:{t}",
        "/odds discord level:{a} harmony:{t}",
        "/odds calamity mp:{a}",
    ]
)
VALUES = st.one_of(st.integers(-600, 600).map(str), st.text(max_size=6))


def test_every_dice_command_answers_any_input(tmp_path: Path, registry) -> None:
    console = LoopConsole(tmp_path / "dice-fuzz.sqlite3", registry)
    try:

        @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
        @given(
            COMMANDS, VALUES, VALUES, st.sampled_from(["true", "false", "x"]), st.sampled_from(["8-again", "none", "3"])
        )
        def check(template: str, a: str, b: str, t: str, g: str) -> None:
            quote = lambda v: '"' + v.replace('"', "") + '"' if not v or " " in v else v  # noqa: E731
            line = template.format(a=quote(a), b=quote(b), t=t, g=g)
            result = console.run(line)
            assert "incident" not in result.extra, (line, result.text)
            assert result.text, line

        check()
    finally:
        console.close()


async def test_roll_reads_gurps_damage_notation(console: Console) -> None:
    damage = await console.ok("/roll expression:2d+2 label:sword")
    assert len(damage["data"]["dice"]) == 2 and all(1 <= d <= 6 for d in damage["data"]["dice"])
    assert damage["data"]["total"] == sum(damage["data"]["dice"]) + 2
    assert "GURPS damage" in damage["text"]
    weak = await console.ok("/roll expression:1d-3")
    assert weak["data"]["total"] == max(0, weak["data"]["dice"][0] - 3)  # never below 0
    d20_style = await console.ok("/roll expression:2d6+2")  # d20 notation is unchanged
    assert "GURPS" not in d20_style["text"]
