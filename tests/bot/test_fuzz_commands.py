"""Every registered command, with any input Discord's client would send, answers without an incident.

The fuzzer walks the real command tree (the shared commands and every ruleset's generated
ones), builds option values of each option's type and bounds, and sends them as the GM or
a player, in a channel running each ruleset and in one with no campaign. It also asks for
autocomplete on every option that offers it. The virtual Discord refuses any payload over
Discord's limits with a 400, as Discord does, so an over-long reply is caught here too.

Each command gets ``MAGISTER_FUZZ_EXAMPLES`` examples of its own (default 25 in CI); the
README gives a longer run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.loop_console import LoopConsole

LIBRARY_TEXT = re.compile(r"Input should|validation error|pydantic|_WS|LPAR|\bINTEGER\b|errors\.pydantic")
EXAMPLES = int(os.environ.get("MAGISTER_FUZZ_EXAMPLES", "25"))
NO_CAMPAIGN = 2999
SETUP = {
    "runic": [
        "/campaign start ruleset:runic name:Runes",
        "@as Pat",
        "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
        "/runic mage word word:Flam skill:13",
        "/runic spell define name:Fireball words:In-Flam type:missile known:true",
    ],
    "serpent": [
        "/campaign start ruleset:serpent name:Serpents",
        "@as Pat",
        '/serpent magi create name:White codex:"Pillar of Earth, Acidic Matter x2, Air Essence, Judgement"',
        "@as Oz",
        '/serpent magi create name:Black codex:"Fireball x2, Dissolve Tissue x2, Beast Form"',
        "@gm",
        "/serpent battle start essence:7",
        "@as Pat",
        "/serpent battle join",
        "@as Oz",
        "/serpent battle join",
        "@gm",
        "/serpent battle round resonance:7 rolloff:Black",
    ],
    "awakened": [
        "/campaign start ruleset:awakened name:Boston",
        '/awakened gm hallow name:"Old Oak" rating:3 potential:3 resonance:green',
        "@as Pat",
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
        'gnosis:3 arcana:"Forces 3, Life 3, Spirit 3, Prime 2" mana_max:15 willpower:5 health:7',
        '/awakened spell cast mode:rote spell:"Green Ward" arcana:Life aspect:covert action:reflexive',
        "@as Oz",
        '/awakened mage create name:Bo path:Mastigos ruling:"Mind, Space" inferior:Forces resistance:resolve '
        'gnosis:2 arcana:"Mind 3, Space 2" mana_max:12',
    ],
    "saga": [
        "/campaign start ruleset:saga name:Stars",
        "@as Pat",
        "/saga start deck:sample seed:168",
    ],
    "realm": [
        "/campaign start ruleset:realm name:Valley",
        '/realm spell import format:csv text:"name,type,color,target_type,duration,text; Blind,IV,purple,individual,'
        'combat,Cannot see; Curse,V,black,individual,permanent,A curse"',
        '/realm clearing set name:"Ruins 5" tile:Ruins',
        "@as Pat",
        '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC V5, MOVE M4*" spells:Blind location:"Ruins 5"',
        "@as Oz",
        '/realm character create name:Witch chits:"MAGIC V3*, MAGIC II2" spells:Curse location:"Ruins 5"',
        "@gm",
        '/realm combat start clearing:"Ruins 5" order:"Wizard, Witch"',
    ],
}
OPTION_TYPE = discord.AppCommandOptionType
NAMES = st.sampled_from(
    [
        *("Merlin", "White", "Black", "Fireball", "Flam", "In-Flam", "Pat", "  merlin ", "x" * 2100),
        *("Wizard", "Witch", "Blind", "Curse", "MAGIC IV4", "Ruins 5"),
        *("Ash", "Bo", "Storm", "Old Oak", "Forces", "Life 2"),
        *("Sample Cellar", "Sample Wanderer", "blue red", "sample"),
    ]
)
TEXT = st.one_of(  # names this table knows, half the time: most commands do nothing without one
    NAMES,
    st.text(max_size=30),
    NAMES,
    st.text(st.sampled_from(list("[]{}\"':,;-0123456789 dDxX")), max_size=40),
)


def _leaves(tree: app_commands.CommandTree) -> list[app_commands.Command]:
    leaves = []
    for top in tree.get_commands():
        if isinstance(top, app_commands.Group):
            leaves += [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            leaves.append(top)
    return leaves


def _values(parameter: app_commands.Parameter) -> st.SearchStrategy[Any]:
    """Values of the option's type within its bounds: what Discord's client lets a user send."""
    if parameter.choices:
        return st.sampled_from([choice.value for choice in parameter.choices])
    kind, low, high = parameter.type, parameter.min_value, parameter.max_value
    if kind is OPTION_TYPE.integer:
        low = -(10**6) if low is None else int(low)
        high = 10**6 if high is None else int(high)
        return st.one_of(st.integers(low, high), st.sampled_from([low, high, max(low, min(high, 0))]))
    if kind is OPTION_TYPE.number:
        return st.floats(low if low is not None else -1e6, high if high is not None else 1e6, allow_nan=False)
    if kind is OPTION_TYPE.boolean:
        return st.booleans()
    if kind is OPTION_TYPE.string:
        shortest, longest = int(low or 0), int(high or 6000)
        return TEXT.map(lambda text: (text * (1 + shortest // max(1, len(text) or 1)))[:longest]).filter(
            lambda text: len(text) >= shortest
        )
    if kind is OPTION_TYPE.user:
        return st.sampled_from(["Pat", "Oz", "Gwen"])
    if kind is OPTION_TYPE.role:
        return st.sampled_from(["players", "everyone"])
    if kind is OPTION_TYPE.attachment:  # (file name, bytes), as the console uploads a file
        body = st.one_of(st.binary(max_size=2000), TEXT.map(str.encode), st.just(b'{"format":"magister-campaign/2"}'))
        return st.tuples(st.sampled_from(["export.json", "export.json.gz", "notes.txt"]), body)
    return st.nothing()


@st.composite
def invocations(draw: st.DrawFn, command: app_commands.Command) -> tuple[dict, str | None]:
    options: dict[str, Any] = {}
    for parameter in command.parameters:
        values = _values(parameter)
        if parameter.required or draw(st.booleans()):
            options[parameter.name] = draw(values)
    completing = [p.name for p in command.parameters if p.autocomplete and p.type is OPTION_TYPE.string]
    focused = draw(st.sampled_from(completing)) if completing and draw(st.integers(0, 3)) == 0 else None
    if focused is not None:
        options.setdefault(focused, draw(TEXT.map(lambda text: text[:100])))
    return options, focused


def _fuzz(console: LoopConsole, command: app_commands.Command, channels: dict[str, int]) -> None:
    """One command's own hypothesis run: any values, any of three people, its ruleset's channel or none."""
    path = command.qualified_name.split()
    home = channels.get(path[0])

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(invocations(command), st.sampled_from(["@gm", "@as Pat", "@as Oz"]), st.booleans())
    def check(invocation: tuple[dict, str | None], who: str, elsewhere: bool) -> None:
        options, focused = invocation
        console.run(f"@channel {home or (NO_CAMPAIGN if elsewhere else channels['runic'])}")
        console.run(who)
        if focused is not None:
            choices = console.call(console.table.autocomplete(path, options, focused))
            assert len(choices) <= 25
            return
        result = console.call(console.table.run_command(path, options))
        assert "incident" not in result.extra, (command.qualified_name, options, result.text)
        assert result.text, (command.qualified_name, options)
        assert "Traceback" not in result.text
        assert not LIBRARY_TEXT.search(result.text), (command.qualified_name, options, result.text)

    check()


def test_every_command_answers_any_input_without_an_incident(tmp_path: Path, registry) -> None:
    lines = []
    channels: dict[str, int] = {}
    for index, (ruleset, setup) in enumerate(SETUP.items()):
        channels[ruleset] = 3000 + index
        lines += [f"@channel {channels[ruleset]}", "@as Gwen", *setup]
    console = LoopConsole(tmp_path / "fuzz-all.sqlite3", registry, setup=lines)
    try:
        for command in _leaves(console.table.virtual.tree):
            _fuzz(console, command, channels)
    finally:
        console.close()
