"""Bad `/saga` input, fuzzed through the console: a clear ephemeral error, no incident, and nothing changed.

Cards not in the catalog, moves to places that are not adjacent, purchases the story pile does not allow,
deck files with errors, steps out of order. After every refusal the stored campaign is what it was and the
event log has not grown.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.console import Result
from bot.table.service import Place
from tests.support.loop_console import LoopConsole

GM, PAT = "Gwen", "Pat"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
SETUP = (f"@as {GM}", "/campaign start ruleset:saga name:Stars", f"@as {PAT}", "/saga start deck:sample seed:168")
NAME = (
    st.text(string.ascii_letters + " ", min_size=1, max_size=20)
    .map(str.strip)
    .filter(lambda n: n and not n.casefold().startswith("sample"))
)


class SagaConsole(LoopConsole):
    def __init__(self, db: Path, registry) -> None:
        super().__init__(db, registry, seed=7, setup=SETUP)
        self.events = self.run_as(GM, "/campaign status").data["events"]

    def run_as(self, user: str, line: str) -> Result:
        self.table.switch_user(user)
        return self.run(line)

    def stored(self) -> tuple:
        store = self.table.bot.service.store
        place = Place(self.table.virtual.guild_id, self.table.virtual.channel_id)

        async def read():
            row = await store.campaign(place.guild_id, place.channel_id)
            return row.state, row.settings

        return self.call(read())

    def refuses(self, line: str, user: str = PAT) -> str:
        result = self.run_as(user, line)
        assert not result.ok, (line, result.text)
        assert result.ephemeral and "incident" not in result.extra, (line, result.text)
        assert result.text and "Traceback" not in result.text and "ValidationError" not in result.text
        return result.text


@pytest.fixture
def saga(tmp_path: Path, registry) -> SagaConsole:
    console = SagaConsole(tmp_path / "fuzz.sqlite3", registry)
    yield console
    assert console.run_as(GM, "/campaign status").data["events"] == console.events  # no refusal was logged
    console.close()


def _q(text: str) -> str:
    return '"' + text.replace('"', "") + '"'


UNKNOWN_CARD = [
    "/saga move to:{n}",
    "/saga buy card:{n}",
    "/saga buy card:{n} pay:{n}",
    "/saga use item:{n}",
    "/saga attach song:{n} item:{n}",
    "/saga win card:{n}",
    "/saga put card:{n} to:hand reason:fuzz",
    "/saga luck cards:{n}",
    "/saga harmonic cards:{n}",
    "/saga card show card:{n}",
    "/saga bonus card:{n}",
    "/saga report card:{n}",
    "/saga end cycle:{n}",
]


def test_cards_not_in_the_catalog_or_not_adjacent(saga: SagaConsole) -> None:
    before = saga.stored()

    @FUZZ
    @given(st.sampled_from(UNKNOWN_CARD), NAME)
    def check(template: str, name: str) -> None:
        saga.refuses(template.format(n=_q(name)))
        assert saga.stored() == before

    check()


OUT_OF_ORDER = [
    "/saga continue",
    "/saga end",
    '/saga attack item:"Sample Lantern Blade"',
    "/saga pass",
    '/saga buy card:"Sample Sling" pay:"Sample Wayshrine"',
    '/saga use item:"Sample Lantern Blade"',
    "/saga search top:5",
    "/saga start deck:sample",
    "/saga move",
    '/saga move to:"Sample Old Mill"',
    '/saga move to:"Sample Crossroads"',
    '/saga report card:"Sample Sling"',
]


@pytest.mark.parametrize("line", OUT_OF_ORDER)
def test_steps_out_of_order(saga: SagaConsole, line: str) -> None:
    before = saga.stored()
    text = saga.refuses(line)
    assert saga.stored() == before
    if line.startswith(("/saga continue", "/saga end", "/saga attack", "/saga pass")):
        assert "step 1" in text and "/saga move" in text


def test_purchases_the_story_pile_does_not_allow(saga: SagaConsole) -> None:
    saga.run_as(PAT, '/saga move to:"Sample Cellar"')
    saga.run_as(PAT, "/saga continue")
    saga.events = saga.run_as(GM, "/campaign status").data["events"]
    before = saga.stored()
    hand = before[0]["game"]["hand"]

    @FUZZ
    @given(
        st.sampled_from(
            [
                "Sample Lute",
                "Sample Quiet Ford",
                "Sample Torn Banner",
                "Sample Epilogue",
                "Sample Map Fragment",
                "Sample Bog Troll",
            ]
        ),
        st.lists(st.sampled_from(hand), max_size=4),
    )
    def check(card: str, pay: list[str]) -> None:
        line = f"/saga buy card:{_q(card)}" + (f" pay:{_q(', '.join(pay))}" if pay else "")
        saga.refuses(line)
        assert saga.stored() == before

    check()


FIELD_VALUES = {
    "type": st.sampled_from(["weapon", 3, "", None]),
    "cost": st.one_of(st.integers(max_value=-1), st.sampled_from(["free", "", "x"])),
    "harmonics": st.lists(st.sampled_from(["pink", "orange", "B", "Q"]), min_size=1, max_size=3).filter(
        lambda cs: any(c not in ("B",) for c in cs)
    ),
    "glyph": st.sampled_from(["winter", "fall", "X"]),
    "armor": st.sampled_from([-1, 1000, "hard"]),
    "name": st.sampled_from(["", "a, b", "x;y"]),
}


def test_deck_files_with_errors(saga: SagaConsole) -> None:
    before = saga.stored()

    @FUZZ
    @given(
        st.sampled_from(sorted(FIELD_VALUES)).flatmap(lambda f: st.tuples(st.just(f), FIELD_VALUES[f])),
        st.sampled_from(["json", "toml"]),
    )
    def check(bad: tuple[str, object], fmt: str) -> None:
        field, value = bad
        cards = [
            {"name": "Fine Card", "type": "item", "cost": 1},
            {"name": "Broken Card", "type": "item", "cost": 2, field: value},
        ]
        if fmt == "json":
            text = json.dumps({"card": cards})
        else:
            rows = []
            for card in cards:
                if any(v is None for v in card.values()):
                    card = {k: v for k, v in card.items() if v is not None}
                rows.append("{" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in card.items()) + "}")
            text = "card = [" + ", ".join(rows) + "]"
        message = saga.refuses(f"/saga card import text:{repr_text(text)}", GM)
        assert "error" in message.casefold() or "not valid" in message.casefold()
        assert saga.stored() == before

    check()


def repr_text(text: str) -> str:
    """Console quoting: the option value in single quotes when it holds double quotes."""
    return "'" + text.replace("'", "") + "'"
