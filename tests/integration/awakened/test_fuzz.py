"""Bad input to /awakened, fuzzed with hypothesis through the console: a clear refusal, and nothing changes.

After every refusal the database (its state, settings and every sheet) is what it was, and the event log has not
grown.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.loop_console import CampaignConsole

GM, PAT, OZ = "Gwen", "Pat", "Oz"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
ARCANA = {"death", "fate", "forces", "life", "matter", "mind", "prime", "space", "spirit", "time"}

SETUP = (
    f"@as {GM}",
    "/campaign start ruleset:awakened name:Boston",
    "/awakened gm hallow name:Grove rating:2",
    f"@as {PAT}",
    '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
    'gnosis:3 arcana:"Forces 3, Life 3, Spirit 3, Space 2" mana_max:15 health:7',
    "/awakened spell cast spell:Veil arcana:Life aspect:covert",
    f"@as {OZ}",
    '/awakened mage create name:Bo path:Mastigos ruling:"Mind, Space" inferior:Forces resistance:resolve gnosis:2',
)


class AwakenedConsole(CampaignConsole):
    def __init__(self, db: Path, registry) -> None:
        super().__init__(db, registry, setup=SETUP, seed=5, gm=GM)


@pytest.fixture
def awakened(tmp_path: Path, registry) -> AwakenedConsole:
    console = AwakenedConsole(tmp_path / "fuzz.sqlite3", registry)
    yield console
    assert console.status()["events"] == console.events  # no refusal was logged
    console.close()


def test_unknown_arcana_are_refused_listing_the_ten(awakened: AwakenedConsole) -> None:
    before = awakened.stored()
    commands = [
        "/awakened spell cast spell:X arcana:{a} aspect:covert",
        "/awakened spell cast mode:cost spell:X arcana:Forces aspect:covert conjunctional:{a}",
        "/awakened spell cast mode:rote spell:X arcana:{a} aspect:vulgar",
        "/awakened mage set field:arcanum name:{a} value:2",
    ]

    @FUZZ
    @given(st.sampled_from(commands), st.text(string.ascii_letters, min_size=1, max_size=10))
    def check(template: str, name: str) -> None:
        if name.casefold() in ARCANA:
            return
        text = awakened.refuses(awakened.run(template.format(a=name), PAT))
        assert (
            "is not an Arcanum. The Arcana are Death, Fate, Forces, Life, Matter, Mind, Prime, Space, Spirit, Time"
            in text
        )
        assert awakened.stored() == before

    check()


def test_factors_the_arcana_do_not_allow(awakened: AwakenedConsole) -> None:
    before = awakened.stored()

    @FUZZ
    @given(
        st.sampled_from(["intimate", "known", "acquainted", "encountered", "described"]),
        st.sampled_from(["covert", "vulgar"]),
        st.sampled_from(["", " conjunctional:Space", " conjunctional:Forces"]),
    )
    def check(level: str, aspect: str, conjunctional: str) -> None:
        line = f'/awakened spell cast spell:Hex arcana:Forces aspect:{aspect} sympathy:"{level}"{conjunctional}'
        text = awakened.refuses(awakened.run(line, PAT))
        assert f"A {aspect} spell at sympathetic range needs a conjunctional Arcanum" in text
        assert awakened.stored() == before

    check()


def test_payments_over_the_gnosis_limit(awakened: AwakenedConsole) -> None:
    before = awakened.stored()

    @FUZZ
    @given(st.integers(min_value=4, max_value=20), st.integers(min_value=0, max_value=1))
    def check(targets_power: int, words: int) -> None:
        area = targets_power  # cost = 2 + area, own = cost - words
        if 2 + area - words <= 3:
            return
        line = f"/awakened spell cast spell:Big arcana:Forces aspect:vulgar area:{area}"
        text = awakened.refuses(awakened.run(line, PAT))
        assert "can spend at most 3 of their own Mana at once (Gnosis 3)" in text and "more free Mana" in text
        assert awakened.stored() == before

    check()


@pytest.mark.parametrize(
    ("user", "line", "says"),
    [
        (OZ, "/awakened spell cast mage:Ash spell:X arcana:Forces aspect:covert", "Ash belongs to another player"),
        (OZ, "/awakened spell sustain mage:Ash spell:Veil", "Ash belongs to another player"),
        (OZ, "/awakened oblation mage:Ash hallow:Grove", "Ash belongs to another player"),
        (OZ, "/awakened soulstone mage:Ash mode:create", "Ash belongs to another player"),
        (PAT, '/awakened spell shape spell:Veil dice:"8 8"', "needs the GM"),
        (PAT, "/awakened time round", "needs the GM"),
        (PAT, "/awakened gm adjust character:Ash field:mana value:15 reason:mine", "needs the GM"),
        (PAT, "/awakened spell cast spell:X arcana:Forces aspect:vulgar scour:8", "7 empty or bashing health boxes"),
        (PAT, "/awakened spell cast spell:X arcana:Forces aspect:vulgar words_of_power:1", "no High Speech"),
        (PAT, "/awakened spell cast spell:X arcana:Forces aspect:vulgar hallow:Nowhere", "no Hallow named"),
        (PAT, "/awakened spell shape spell:Nothing", "has no spell 'Nothing' in effect. Spells in effect: #1 Veil"),
        (PAT, "/awakened spell reduce spell:Veil targets:3", "Reducing can't add"),
        (PAT, "/awakened spell cast spell:X arcana:Death aspect:covert", "no dots in Death"),
        (PAT, '/awakened spell cast spell:X arcana:Forces aspect:covert damage:"frost"', "not a damage factor"),
        (PAT, "/awakened crisis mode:roll", "not in crisis"),
        (PAT, "/awakened crisis mode:call", "needs the GM"),
        (GM, "/awakened crisis mage:Ash mode:call", "not in crisis"),
        (PAT, "/awakened soulstone mode:reintegrate stone:4", "Name the `stone` by its number"),
        (PAT, "/awakened scrutinize subject:x skill:Brawl", "may scrutinize with Occult"),
        (PAT, "/awakened oblation", "only be performed in a Hallow"),
        (PAT, "/awakened spell contingency mode:trigger", "holds no contingency"),
    ],
)
def test_impossible_moves(awakened: AwakenedConsole, user: str, line: str, says: str) -> None:
    before = awakened.stored()
    text = awakened.refuses(awakened.run(line, user))
    assert says in text, text
    assert awakened.stored() == before


TEXT_OPTIONS = [
    ("/awakened spell cast spell:X aspect:covert arcana:", PAT),
    ("/awakened spell cast spell:X arcana:Forces aspect:covert sympathy:", PAT),
    ("/awakened spell cast spell:X arcana:Forces aspect:covert damage:", PAT),
    ("/awakened spell cast spell:X arcana:Forces aspect:covert conjunctional:", PAT),
    ("/awakened spell cast spell:", PAT),
    ("/awakened spell shape spell:", PAT),
    ("/awakened spell dismiss spell:", PAT),
    ("/awakened spell reduce strength:1 spell:", PAT),
    ("/awakened mage create path:P ruling:Life,Mind inferior:Time resistance:resolve name:N arcana:", PAT),
    ("/awakened mage create path:P ruling:Life,Mind inferior:Time resistance:resolve name:N attributes:", PAT),
    ("/awakened mage create path:P inferior:Time resistance:resolve name:N ruling:", PAT),
    ("/awakened mage set field:skill value:2 name:", PAT),
    ("/awakened scrutinize subject:", PAT),
    ("/awakened scrutinize subject:x via:", PAT),
    ("/awakened sympathy level:known subject:", PAT),
    ("/awakened spell cast spell:X arcana:Forces aspect:covert connection:", PAT),
    ("/awakened attainment mode:define name:A prerequisites:", GM),
    ("/awakened gm paradox mode:declare kind:", GM),
    ("/awakened gm hallow rating:1 name:", GM),
    ("/awakened time round dice:", GM),
    ("/awakened spell shape mage:Ash spell:Veil dice:", GM),
]


def test_any_text_is_refused_cleanly_or_played(awakened: AwakenedConsole) -> None:
    """Whatever a player types into a free-text option, the answer is a result or a clean refusal, never a crash."""

    @FUZZ
    @given(st.sampled_from(TEXT_OPTIONS), st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=30))
    def check(command: tuple[str, str], value: str) -> None:
        template, user = command
        quoted = '"' + value.replace('"', "") + '"'
        result = awakened.run(template + quoted, user)
        assert "incident" not in result.extra, (template, value, result.text)
        assert result.text and "Traceback" not in result.text

    check()
    awakened.events = awakened.status()["events"]  # some lines were valid and logged: that is fine here
