"""Bad `/runic` input, fuzzed through the console: a clear ephemeral error, no incident, and nothing changed.

Unknown Words, impossible Parameters and castings, negative skills (typed at the console, whose option checks
are Discord's client's, and sent raw past it), and another player's mage. After every refusal the campaign in
the database (its state, settings and every sheet) is what it was, and the event log has not grown.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli.console import Result
from bot.cli.virtual import VirtualUser, command_data
from bot.table.service import Place
from rules.runic.parameters import ALIASES, READERS
from tests.support.loop_console import LoopConsole

GM, PAT, OZ = "Gwen", "Pat", "Oz"
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

SETUP = (
    f"@as {GM}",
    "/campaign start ruleset:runic name:Camelot",
    '/runic spell define name:"Ward of Flame" words:Sanct-Flam parameters:"duration: 1 minute" where:campaign',
    f"@as {PAT}",
    "/runic mage create name:Merlin magery:3 iq:15 ht:11 thaumatology:15",
    "/runic mage word word:Flam skill:13",
    '/runic spell define name:Fireball words:In-Flam type:regular parameters:"damage: 10d burning" known:true',
    "/runic spell define name:Charm words:Ex-Wor type:regular resisted:Will known:true",
    '/runic mage learn spell:"Ward of Flame"',
    f"@as {GM}",
    '/runic cast mage:Merlin spell:"Ward of Flame" dice:"1 1 2"',
    f"@as {OZ}",
    "/runic mage create name:Nimue magery:2 iq:14 thaumatology:14",
)


class RunicConsole(LoopConsole):
    """A console table with a runic campaign, on its own event loop so hypothesis can drive it."""

    def __init__(self, db: Path, registry) -> None:
        super().__init__(db, registry, seed=11, setup=SETUP)
        self.book = self.table.bot.service.registry.get("runic").book
        self.events = self.status()["events"]

    def run(self, line: str, user: str | None = None) -> Result:
        if user is not None:
            self.table.switch_user(user)
        return super().run(line)

    def raw(self, user: str, path: str, options: dict) -> Result:
        """An interaction straight to the tree, with values Discord's client would never send."""
        tree = self.table.virtual.tree
        data = command_data(tree, path.split(), options, guild_id=self.table.virtual.guild_id)

        async def go():
            interaction, sent = await self.table.virtual.command(VirtualUser(user), data)
            return self.table._result(f"/{path} {options}", interaction, sent)

        return self.call(go())

    def status(self) -> dict:
        return self.run("/campaign status", GM).data

    def stored(self) -> tuple:
        """The campaign as the database holds it: state, settings and every sheet."""
        store = self.table.bot.service.store
        place = Place(self.table.virtual.guild_id, self.table.virtual.channel_id)

        async def read():
            row = await store.campaign(place.guild_id, place.channel_id)
            characters = await store.characters(row.id)
            return row.state, row.settings, row.gm_ids, {c.name: (c.owner_id, c.sheet) for c in characters}

        return self.call(read())

    def refuses(self, result: Result) -> str:
        assert not result.ok, (result.command, result.text)
        assert result.ephemeral, result.command
        assert "incident" not in result.extra, (result.command, result.text)
        assert result.data == {}
        assert result.text and "Traceback" not in result.text and "ValidationError" not in result.text
        return result.text


@pytest.fixture
def runic(tmp_path: Path, registry) -> RunicConsole:
    console = RunicConsole(tmp_path / "fuzz.sqlite3", registry)
    yield console
    assert console.status()["events"] == console.events  # no refusal was logged
    console.close()


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "") + '"'


# ---------------------------------------------------------------- unknown Words


UNKNOWN_WORD = st.text(string.ascii_letters, min_size=1, max_size=12)
WORD_COMMANDS = [
    (PAT, "/runic mage word word:{w} skill:10"),
    (PAT, "/runic mage word word:{w} cheaper_casting:1"),
    (PAT, "/runic spell define name:Oops words:Vas-{w}-Flam"),
    (PAT, "/runic cast spell:In-{w}"),
    (GM, "/runic adjust character:Merlin field:word value:10 reason:fuzz name:{w}"),
    (GM, "/runic adjust character:Merlin field:cheaper_casting value:1 reason:fuzz name:{w}"),
]


def test_unknown_words_list_the_valid_ones(runic: RunicConsole) -> None:
    known = {w.name.casefold() for w in runic.book.words.word}
    listed = "The Words are: " + runic.book.word_list() + "."
    before = runic.stored()

    @FUZZ
    @given(st.sampled_from(WORD_COMMANDS), UNKNOWN_WORD.filter(lambda w: w.casefold() not in known))
    def check(command: tuple[str, str], word: str) -> None:
        user, template = command
        text = runic.refuses(runic.run(template.format(w=word), user))
        assert f"{word!r} is not a Word of Power. {listed}" in text
        assert runic.stored() == before

    check()


# ---------------------------------------------------------------- impossible Parameters and castings


NEGATIVE = st.integers(min_value=1, max_value=10**9).map(lambda n: -n)
IMPOSSIBLE_PARAMETERS = st.one_of(
    NEGATIVE.map(lambda n: f"damage: {n}d burning"),
    st.integers(min_value=101, max_value=10**9).map(lambda n: f"damage: {n}d burning"),
    st.sampled_from(["plasma", "sonic", "holy"]).map(lambda kind: f"damage: 3d {kind}"),
    NEGATIVE.map(lambda n: f"area: {n} yd"),
    NEGATIVE.map(lambda n: f"range: {n} yd"),
    NEGATIVE.map(lambda n: f"duration: {n} minutes"),
    NEGATIVE.map(lambda n: f"time: {n} days"),
    NEGATIVE.map(lambda n: f"speed: {n} yd/s"),
    NEGATIVE.map(lambda n: f"weight: {n} lbs"),
    NEGATIVE.map(lambda n: f"creation: {n} oz"),
    st.integers(max_value=0).map(lambda n: f"targets: {n}"),
    st.integers(min_value=1_000_001).map(lambda n: f"targets: {n}"),
    st.integers(max_value=0).map(lambda n: f"exclude: {n}"),
    st.one_of(st.integers(max_value=0), st.integers(min_value=101)).map(lambda n: f"dimensions: {n}"),
    st.one_of(st.just(0), st.integers(min_value=51)).map(lambda n: f"bonus: +{n} moderate"),
    st.integers(min_value=10_001).map(lambda n: f"extra: +{n} glows"),
    st.sampled_from(["parsecs", "leagues of doom", "fortnights"]).map(lambda unit: f"range: 5 {unit}"),
    st.sampled_from(["forever", "a while", "until tuesday"]).map(lambda value: f"duration: {value}"),
    st.sampled_from(["persistence: 20 seconds", "duration: 1 minute; duration: 1 hour", "metamagic: 3"]),
    st.text(string.ascii_lowercase, min_size=3, max_size=10)
    .filter(lambda kind: kind not in READERS and kind not in ALIASES)
    .map(lambda kind: f"{kind}: 1"),
)
PARAMETER_COMMANDS = [
    (PAT, "/runic spell define name:Oops words:Flam parameters:{p}"),
    (PAT, "/runic cast spell:Fireball parameters:{p}"),
    (PAT, "/runic cast spell:In-Flam type:missile parameters:{p}"),
    (GM, "/runic spell define name:Oops words:Flam where:campaign parameters:{p}"),
]


def test_impossible_parameters_are_refused(runic: RunicConsole) -> None:
    before = runic.stored()

    @FUZZ
    @given(st.sampled_from(PARAMETER_COMMANDS), IMPOSSIBLE_PARAMETERS)
    def check(command: tuple[str, str], parameters: str) -> None:
        user, template = command
        runic.refuses(runic.run(template.format(p=_quoted(parameters)), user))
        assert runic.stored() == before

    check()


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("/runic cast spell:Fireball halvings:5", "already 1 after 2 halving(s)"),  # 3 s → 1.5 → 0.75
        ("/runic cast spell:Fireball instant:true halvings:1", "drop `halvings`"),
        ('/runic cast spell:"Ward of Flame" instant:true', "Only Blocking, Melee and Missile spells"),
        ("/runic cast spell:Fireball save_energy:50", "Only 12 energy is left to save"),
        ("/runic cast spell:Fireball sacrifice:fp", "give both `sacrifice`"),
        ("/runic cast spell:Fireball sacrifice:hp sacrifice_energy:13", "you cannot sacrifice 13 energy"),
        ("/runic cast spell:Fireball item_energy:3", "no bonded implement"),
        ("/runic cast spell:Fireball target:Nimue", "not a resisted spell"),
        ("/runic cast spell:Charm", "name the `target`"),
        ("/runic cast spell:Charm target:Morgan", "There is no character named 'Morgan'"),
        ("/runic cast spell:Fireball ritual:precise halvings:1", "cannot also be hurried"),
        ("/runic cast spell:Fireball source:grimoire", "in none of this mage's grimoires"),
        ("/runic cast spell:Fireball modifier:-50", "the roll cannot be attempted, so it fails and costs nothing"),
        ("/runic cast spell:Fireball boost:50", "One spell may take at most 15 MP"),
        ("/runic cast spell:In-Flam type:area", "An Area spell needs its area"),
        ('/runic cast spell:"Ward of Flame" parameters:"range: 10 yd" distance:20', "this spell reaches 10"),
        ("/runic cast spell:Fireball type:area", "`type` is only for Words cast inline"),
        ('/runic cast spell:Fireball dice:"1 1 1"', "needs the GM"),
        ("/runic cast spell:Nothing", "is neither a saved spell (Charm, Fireball, Ward of Flame) nor Words"),
        ("/runic spell define name:Oops words:Des-Vas-Flam", "contradict each other"),
        ("/runic spell define name:Oops words:Flam-Flam", "Flam is repeated"),
        ("/runic spell define name:Oops words:Nor-Vas", "at least one noun or verb"),
        ("/runic maintain spell:Fireball", "has no spell 'Fireball' on"),
        ("/runic drop spell:Nothing", "has no spell 'Nothing' on. Spells on: Ward of Flame"),
        ("/runic mage grimoire grimoire:Codex spell:Fireball bonus:2 pages:1", "holds 1 pages"),
        ("/runic mage item item:Ring use:11", "has 10 MP left"),
        ("/runic mage implement name:Staff", "Give the implement's `capacity`"),
        ("/runic mage word word:Flam skill:16", "Flam cannot exceed 15"),
        ("/runic spell forget spell:Nothing", "No spell 'Nothing'"),
        ("/runic sunrise", "needs the GM"),
        # issue 14
        ('/runic cast spell:In-Flam type:missile parameters:"damage: 12d burning"', "A missile holds 1 to Magery (3)"),
        ("/runic cast spell:Fireball critical_hit:true", "`critical_hit` is for Blocking spells"),
        ("/runic cast spell:Fireball sacrifice:fp sacrifice_energy:1 donor:Nimue", "only the GM can commit"),
        ("/runic cast spell:Fireball sacrifice:ritual", "needs its victim and HP"),
        ("/runic cast spell:Fireball sacrifice:ritual donor:Nimue", "like `goat 8 HP`"),
        ("/runic held launch", "holds no Melee or Missile spell"),
        ("/runic held drop at_feet:true", "holds no Melee or Missile spell"),
        ("/runic turn", "needs the GM"),
        ("/runic concentration event:resume", "no spell frozen"),
        ("/runic concentration event:stunned injury:2", "goes with `event: injured`"),
        ('/runic info ask spell:Fireball question:"Where?"', "ask questions with an Information spell"),
        ('/runic info answer mage:Merlin spell:Seek question:"?" answer:No', "needs the GM"),
        ("/runic energy give to:Merlin amount:1", "cannot give MP to themself"),
        ("/runic energy paut", "does not say how much MP a dose of Paut restores"),
        ("/runic energy paut mp_per_dose:5", "needs the GM"),
        ("/runic lasting inscribe name:Door spell:Fireball", "needs Symbol Drawing"),
        ("/runic lasting trigger name:Door", "no lasting magic named"),
        ("/runic lasting end name:Door", "no lasting magic named"),
    ],
)
def test_impossible_castings_and_moves(runic: RunicConsole, line: str, says: str) -> None:
    before = runic.stored()
    text = runic.refuses(runic.run(line, PAT))
    assert says in text, text
    assert runic.stored() == before


# ---------------------------------------------------------------- negative skills


SKILL_OPTIONS = [  # (user, command, option, other options)
    (PAT, "runic mage word", "skill", {"word": "Flam"}),
    (PAT, "runic mage word", "cheaper_casting", {"word": "Flam"}),
    (PAT, "runic mage create", "thaumatology", {"name": "Morgan"}),
    (PAT, "runic mage create", "symbol_drawing", {"name": "Morgan"}),
    (PAT, "runic mage create", "magery", {"name": "Morgan", "thaumatology": 12}),
    (PAT, "runic mage create", "faster_casting", {"name": "Morgan", "thaumatology": 12}),
    (PAT, "runic mage create", "iq", {"name": "Morgan", "thaumatology": 12}),
    (PAT, "runic mage set", "value", {"field": "thaumatology"}),
    (PAT, "runic cast", "shock", {"spell": "Fireball"}),
    (PAT, "runic cast", "save_energy", {"spell": "Fireball"}),
    (PAT, "runic cast", "distance", {"spell": "Fireball"}),
]
ADJUSTED_SKILLS = ["thaumatology", "symbol_drawing", "magery", "iq", "ht", "will", "faster_casting", "word",
                   "cheaper_casting", "age", "hp_max", "fp_max"]  # fmt: skip


def test_negative_skills_are_refused(runic: RunicConsole) -> None:
    before = runic.stored()

    @FUZZ
    @given(st.sampled_from(SKILL_OPTIONS), NEGATIVE, st.booleans())
    def check(option: tuple, value: int, typed: bool) -> None:
        user, path, name, others = option
        if typed:  # at the console, whose checks are the Discord client's
            line = f"/{path} " + " ".join(f"{k}:{v}" for k, v in {**others, name: value}.items())
            text = runic.refuses(runic.run(line, user))
            assert f"`{name}` must be between" in text
        else:  # sent raw, past the client: the service's own validation answers
            text = runic.refuses(runic.raw(user, path, {**others, name: value}))
            assert name in text
        assert runic.stored() == before

    check()

    @FUZZ
    @given(st.sampled_from(ADJUSTED_SKILLS), NEGATIVE.filter(lambda n: n >= -100_000))
    def adjust(field: str, value: int) -> None:
        named = " name:Flam" if field in ("word", "cheaper_casting") else ""
        line = f"/runic adjust character:Merlin field:{field} value:{value} reason:fuzz{named}"
        text = runic.refuses(runic.run(line, GM))
        assert field.replace("_", " ") in text.replace("_", " ") or "from 0 (remove) to 40" in text, text
        assert runic.stored() == before

    adjust()


# ---------------------------------------------------------------- another player's mage


OTHERS_MAGE = [
    "/runic cast mage:{m} spell:Fireball",
    "/runic maintain mage:{m}",
    "/runic drop mage:{m} spell:all",
    "/runic mage word mage:{m} word:Flam skill:10",
    "/runic mage set mage:{m} field:iq value:12",
    "/runic mage learn mage:{m} spell:Fireball",
    "/runic mage grimoire mage:{m} grimoire:Codex",
    "/runic mage implement mage:{m} name:Staff capacity:5",
    "/runic mage item mage:{m} item:Ring",
    "/runic spell define mage:{m} name:Oops words:Flam",
    "/runic spell forget mage:{m} spell:Fireball",
]


def test_another_players_mage_is_out_of_reach(runic: RunicConsole) -> None:
    before = runic.stored()

    @FUZZ
    @given(st.sampled_from(OTHERS_MAGE), st.sampled_from(["Merlin", "merlin", "MERLIN"]),
           st.sampled_from([OZ, "Mallory"]))  # fmt: skip
    def check(template: str, name: str, user: str) -> None:
        text = runic.refuses(runic.run(template.format(m=_quoted(name)), user))
        assert text.startswith("Merlin belongs to another player. You can only act through your own characters.")
        assert runic.stored() == before

    check()

    for line in ("/runic sunrise", "/runic adjust character:Merlin field:mp value:0 reason:mine"):
        assert "needs the GM" in runic.refuses(runic.run(line, OZ))
    assert runic.stored() == before
    # reading is open to everyone, changes nothing and is not logged (the fixture checks the log)
    shown = runic.run("/runic mage show mage:Merlin", OZ)
    assert shown.ok and shown.ephemeral and shown.data["sheet"]["mp"] == before[3]["Merlin"][1]["mp"]
    assert runic.stored() == before
