"""Bad `/realm` input, fuzzed through the console: a clear ephemeral error, no incident, nothing changed.

An unknown spell, a fatigued chit, the wrong chit type, a target not in the clearing, an imported spell list
with errors, malformed chits. After every refusal the campaign in the database (state, settings, sheets) is
what it was, and the event log has not grown.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.loop_console import CampaignConsole

GM, PAT, OZ = "Gwen", "Pat", "Oz"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
SPELLS = {"blind", "curse", "fiery blast", "stones fly", "lightning bolt"}

SETUP = (
    f"@as {GM}",
    "/campaign start ruleset:realm name:Valley",
    '/realm spell import format:csv text:"name,type,color,target_type,duration; Curse,V,black,individual,'
    'permanent; Blind,IV,purple,individual,combat"',
    '/realm clearing set name:"Cave 1" colors:"purple, black"',
    f"@as {PAT}",
    '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV3*, MOVE M4*, FIGHT L4" spells:Blind '
    'location:"Cave 1"',
    f"@as {OZ}",
    '/realm character create name:Witch chits:"MAGIC V3*, MAGIC V4*, MOVE L3" spells:Curse location:"Cave 1"',
    f"@as {GM}",
    '/realm character create name:Hermit chits:"MAGIC I2" location:"Tower 2"',
    '/realm character chit character:Wizard change:fatigue chit:"MAGIC IV3*"',
    '/realm combat start clearing:"Cave 1" order:"Wizard, Witch" others:Goblin',
)


class RealmConsole(CampaignConsole):
    def __init__(self, db: Path, registry) -> None:
        super().__init__(db, registry, setup=SETUP, seed=5, gm=GM)


@pytest.fixture
def realm(tmp_path: Path, registry) -> RealmConsole:
    console = RealmConsole(tmp_path / "fuzz.sqlite3", registry)
    yield console
    assert console.status()["events"] == console.events  # no refusal was logged
    console.close()


NAME = st.text(string.ascii_letters + " ", min_size=1, max_size=20).filter(
    lambda n: n.strip() and " ".join(n.split()).casefold() not in SPELLS
)


def _q(text: str) -> str:
    return '"' + text.replace('"', "") + '"'


def test_unknown_spells_are_refused(realm: RealmConsole) -> None:
    before = realm.stored()
    commands = [
        (PAT, '/realm castable spell:{s} ritual:"MAGIC IV4"'),
        (PAT, '/realm cast spell:{s} ritual:"MAGIC IV4"'),
        (PAT, "/realm character learn spell:{s}"),
        (PAT, "/realm spell show spell:{s}"),
        (GM, "/realm item define name:Tome kind:book type:IV spells:{s}"),
    ]

    @FUZZ
    @given(st.sampled_from(commands), NAME)
    def check(command: tuple[str, str], name: str) -> None:
        user, template = command
        text = realm.refuses(realm.run(template.format(s=_q(name)), user))
        assert "There is no spell" in text and "Spells: Blind, Curse" in text
        assert realm.stored() == before

    check()


def test_bad_rituals_targets_and_chits(realm: RealmConsole) -> None:
    before = realm.stored()
    fixed = [
        (PAT, '/realm cast spell:Blind ritual:"MAGIC IV3*"', "MAGIC IV3* is fatigued"),
        (PAT, '/realm cast spell:Blind ritual:"FIGHT L4"', "FIGHT L4 is a Fight chit"),
        (PAT, '/realm cast spell:Blind ritual:"MOVE M4*"', "MOVE M4* is a Move chit"),
        (OZ, '/realm cast spell:Curse ritual:"MAGIC V3*" color_chit:"MAGIC V4*"', "MAGIC V4* is not a color chit"),
        (PAT, "/realm target targets:Witch", "Targets are named in the Melee Step"),
        (OZ, '/realm energize spell:#1 chit:"MAGIC V3*"', "No spell '#1' is in effect"),
        (OZ, "/realm energize spell:²²", "No spell '²²' is in effect"),  # a digit to isdigit(), not to int()
        (PAT, '/realm combat charge at:Goblin chit:"MOVE M4*"', "A character charges another character"),
        (PAT, '/realm combat action kind:run chit:"MAGIC IV4"', "running away takes a Move chit"),
        (OZ, '/realm prepare chit:"MAGIC V3*"', "happens in a daylight phase"),
        (PAT, '/realm cast character:Witch spell:Curse ritual:"MAGIC V3*"', "belongs to another player"),
        (PAT, "/realm resolve", "needs the GM"),
        (GM, '/realm spell define name:"  "', "`name` is blank"),
        (GM, '/realm clearing set name:" "', "`name` is blank"),
        (GM, '/realm day colors colors:","', "`colors` is blank"),
        (GM, '/realm combat start clearing:Moor order:","', "`order` is blank"),
        (PAT, '/realm character create name:Newt chits:","', "`chits` is blank"),
    ]
    for user, line, says in fixed:
        text = realm.refuses(realm.run(line, user))
        assert says in text, (line, text)
        assert realm.stored() == before
    realm.run('/realm cast spell:Blind ritual:"MAGIC IV4"', PAT)
    realm.run("/realm combat melee", GM)
    during = realm.stored()
    realm.events = realm.status()["events"]

    @FUZZ
    @given(st.one_of(NAME, st.sampled_from(["Hermit", "hermit", "HERMIT"])))
    def target(name: str) -> None:
        text = realm.refuses(realm.run(f"/realm target targets:{_q(name)}", PAT))
        if name.casefold() == "hermit":
            assert "Hermit is not in Cave 1 now, so they cannot be a target." in text
        else:
            assert "is not an individual in Cave 1 (Wizard, Witch, Goblin)" in text or "named twice" in text
        assert realm.stored() == during

    target()


BAD_CELL = st.sampled_from(["IX", "0", "V I", "blue", "forever", "x"])


def test_imported_lists_with_errors_import_nothing(realm: RealmConsole) -> None:
    before = realm.stored()

    @FUZZ
    @given(st.lists(st.tuples(NAME, BAD_CELL, st.sampled_from(["type", "color", "duration"])), min_size=1, max_size=6))
    def check(rows: list[tuple[str, str, str]]) -> None:
        body = ["name,type,color,duration"]
        for name, bad, column in rows:
            cells = {"type": "II", "color": "grey", "duration": "day", column: bad}
            body.append(",".join([name.replace(",", ""), cells["type"], cells["color"], cells["duration"]]))
        text = realm.refuses(realm.run(f"/realm spell import format:csv text:{_q('; '.join(body))}", GM))
        assert text.startswith("Nothing imported.")
        for number in range(2, len(rows) + 2):
            assert f"line {number}:" in text
        assert realm.stored() == before

    check()


def test_malformed_chits_are_refused(realm: RealmConsole) -> None:
    before = realm.stored()

    @FUZZ
    @given(st.text(string.ascii_uppercase + string.digits + "* ", min_size=1, max_size=12))
    def check(chit: str) -> None:
        result = realm.run(f"/realm character create name:Newt chits:{_q(chit)}", PAT)
        if result.ok:  # a well-formed chit: undo it so the table stays as it was
            realm.run("/campaign undo", GM)
            return
        text = realm.refuses(result)
        assert (
            "is not a chit" in text
            or "at most two effort asterisks" in text
            or "needs its type" in text
            or ("strength" in text)
        ), text
        assert realm.stored() == before

    check()
