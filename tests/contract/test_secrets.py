"""The secrets sweep: nothing a ruleset declares private or secret reaches a reader who may not see it.

For every discovered ruleset, its own script (``Ruleset.secrets_case()``: every action with a private or secret
part, each secret a distinctive marker string) is played by a player (and the GM where the script says so) at a
fresh console table. Then every read path is read by three readers who may see none of it: another player (Oz,
who plays at the table), a non-member (Nia, who never acted here) and a GM removed from the campaign (Rex, a GM
while the secrets were made). A cell is (marker, path, reader); it leaks when the marker is anywhere in what the
reader's client would get (text, data, buttons, choices). Every cell must stay clean.

The paths: what the channel saw as the script ran (public messages, buttons, pings), the live board as it was
edited, the log (every page, the Next button, ``player:``, ``command:`` for every command, ``text:`` for every
marker, ``secrets:``), the recap, ``/campaign status``, ``/character list`` and ``show`` of every character,
``/campaign waiting``, the ruleset's own read-only actions (its sheets, boards), autocomplete of every option that
has it (`/verify`'s too), `/verify` of every sealed result, undo messages, the export (refused) and, after
``/campaign end``, the archive's export (refused), the imported copy of a GM's export (its log, text search,
recap, status, sheets), and the store's public side of every event.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from discord import app_commands

from bot.cli.console import ConsoleTable, message_text
from bot.cli.virtual import Sent
from cogs._ruleset import command_path
from rules.base import BenchStep, Ruleset, SecretsCase, option_words
from tests.conftest import Console
from tests.contract.support import RULESETS

READERS = ("Oz", "Nia", "Rex")  # another player, a non-member, a GM removed from the campaign
GM, PLAYER = "Gwen", "Pat"
HOME, ELSEWHERE = 2002, 2003  # the campaign's channel, and where its export is imported


@dataclass
class Sweep:
    """What each reader could read, path by path, and where each marker was found."""

    console: Console
    ruleset: Ruleset
    case: SecretsCase
    seen: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    channel: list[str] = field(default_factory=list)  # what everyone in the channel saw as the script ran
    boards: list[str] = field(default_factory=list)  # every version of the live board
    last_sent: list[Sent] = field(default_factory=list)
    sealed: list[int] = field(default_factory=list)  # the numbers of the sealed results (docs/sealed-rolls.md)

    @property
    def table(self) -> ConsoleTable:
        return self.console.table

    def see(self, path: str, reader: str, *texts: str) -> None:
        self.seen[(path, reader)].extend(texts)

    async def read(self, path: str, reader: str, line: str) -> dict:
        """``line`` as ``reader``: everything their client gets (text, data, buttons, where a file went)."""
        await self.console(f"@as {reader}")
        result = await self.console(line)
        self.see(path, reader, json.dumps(result, ensure_ascii=False))
        return result

    async def search(self, path: str, reader: str, marker: str) -> None:
        """``/campaign log text:marker``: the reader typed the marker, so what counts is what matched. A match at
        all is a leak (it tells that the marker is there), whatever the matching lines show."""
        await self.console(f"@as {reader}")
        result = await self.console(f"/campaign log text:{marker}")
        events = result["data"].get("events", [])
        self.see(path, reader, json.dumps(events, ensure_ascii=False), marker if events else "")

    def public_of_last(self) -> str:
        """The messages of the last command that everyone in the channel sees: not ephemeral, with components."""
        shown = [m for m in self.last_sent if not m.ephemeral and m.kind in ("message", "followup", "edit")]
        return "\n".join(message_text(m) + json.dumps(m.components, ensure_ascii=False) for m in shown)

    def cells(self) -> tuple[int, list[tuple[str, str, str]]]:
        """How many (marker, path, reader) cells were read, and those where the marker was found."""
        paths = sorted({path for path, _ in self.seen} | {"channel", "board"})
        leaks = []
        for marker in self.case.markers:
            for path in paths:
                for reader in READERS:
                    texts = self.seen.get((path, reader), [])
                    if path == "channel":
                        texts = self.channel
                    elif path == "board":
                        texts = self.boards
                    if any(marker.casefold() in text.casefold() for text in texts):
                        leaks.append((marker, path, reader))
        return len(self.case.markers) * len(paths) * len(READERS), leaks


async def _step(sweep: Sweep, step: BenchStep, who: str) -> dict:
    group, name = command_path(step.action)
    path = [sweep.ruleset.id, *([group] if group else []), name]
    await sweep.console("@gm" if step.as_gm else f"@as {who}")
    result = await sweep.table.run_command(path, dict(step.options))
    assert result.ok, (step, result.text)
    sweep.channel.append(sweep.public_of_last())
    return result.as_json()


def _autocompleted(table: ConsoleTable, roots: Iterable[str]) -> list[tuple[list[str], str]]:
    """Every (command path, option) that autocompletes, under these top-level commands."""
    found = []
    for root in roots:
        top = table.virtual.tree.get_command(root)
        commands = top.walk_commands() if isinstance(top, app_commands.Group) else [top]
        for command in commands:
            if not isinstance(command, app_commands.Command):
                continue
            for parameter in command.parameters:
                if parameter.autocomplete:
                    found.append((command.qualified_name.split(), parameter.name))
    return found


async def _read_everything(sweep: Sweep, reader: str, commands: list[str], characters: list[str]) -> None:
    first = await sweep.read("log", reader, "/campaign log")
    for page in range(2, first["data"]["pages"] + 1):
        await sweep.read("log", reader, f"/campaign log page:{page}")
    if "Next" in first.get("buttons", []):
        await sweep.read("log button", reader, "@press Next")
    for who in (PLAYER, GM, reader):
        await sweep.read("log player", reader, f"/campaign log player:{who}")
    for command in commands:
        await sweep.read("log command", reader, f'/campaign log command:"{command}"')
    for marker in sweep.case.markers:
        await sweep.search("log text", reader, marker)
    await sweep.read("log secrets", reader, "/campaign log secrets:true")
    await sweep.read("recap", reader, "/campaign recap")
    await sweep.read("status", reader, "/campaign status")
    await sweep.read("waiting", reader, "/campaign waiting")
    await sweep.read("character list", reader, "/character list")
    for name in characters:
        await sweep.read("character show", reader, f'/character show name:"{name}"')
    await sweep.read("export", reader, "/campaign export")
    await _ruleset_views(sweep, reader, characters)
    await sweep.console(f"@as {reader}")
    for path, option in _autocompleted(sweep.table, ("campaign", "character", "verify", sweep.ruleset.id)):
        choices = await sweep.table.autocomplete(path, {option: ""}, option)
        sweep.see("autocomplete", reader, json.dumps([path, option, choices], ensure_ascii=False))
    for number in sweep.sealed:  # a sealed result, not yet revealed: /verify says only that it is sealed
        await sweep.read("verify", reader, f"/verify event:{number}")


CHARACTER_OPTIONS = ("mage", "character", "magi")


async def _ruleset_views(sweep: Sweep, reader: str, characters: list[str]) -> None:
    """The ruleset's own read-only actions (``logged=False``: sheets, boards, previews), of every character."""
    await sweep.console(f"@as {reader}")
    for action in sweep.ruleset.actions.values():
        if action.logged:
            continue
        fields = action.options.model_fields
        if any(field.is_required() for name, field in fields.items() if name not in CHARACTER_OPTIONS):
            continue
        group, name = command_path(action.name)
        path = [sweep.ruleset.id, *([group] if group else []), name]
        option = next((o for o in CHARACTER_OPTIONS if o in fields), None)
        for options in [{option: who} for who in characters] if option else [{}]:
            result = await sweep.table.run_command(path, options)
            sweep.see("ruleset views", reader, json.dumps(result.as_json(), ensure_ascii=False))


async def sweep_ruleset(console: Console, ruleset: Ruleset, tmp_path: Path) -> Sweep:
    """Play the ruleset's secrets script, then read every path as every reader."""
    case = ruleset.secrets_case()
    assert case is not None
    sweep = Sweep(console, ruleset, case)
    table = console.table
    shown = table._result

    def capture(line, interaction, sent, *, origin=None):  # the messages behind each result, ephemeral or not
        sweep.last_sent = sent
        return shown(line, interaction, sent, origin=origin)

    table._result = capture  # type: ignore[method-assign]
    board = table.poster.board

    async def every_board(bot, channel_id, message_id, card, *, view=None):
        sweep.boards.append(json.dumps(card.model_dump(), ensure_ascii=False))
        return await board(bot, channel_id, message_id, card, view=view)

    table.poster.board = every_board  # type: ignore[method-assign]

    await console.ok(f"@as {GM}")
    await console.ok(f"/campaign start ruleset:{ruleset.id} name:Sweep")
    await console.ok("/campaign gm add member:Rex")
    await console.ok("/campaign board")
    await console.ok("@as Oz")
    await console.ok('/roll expression:1d6 label:"Oz plays"')
    for step in case.setup:
        await _step(sweep, step, PLAYER)
    for step in case.steps:
        await _step(sweep, step, PLAYER)
    await console.ok(f"@as {GM}")
    await console.ok("/campaign gm remove member:Rex")

    service = table.bot.service
    campaign = await service.campaign(table._place())
    assert campaign is not None
    commands = sorted({f"{ruleset.id} {step.action}" for step in (*case.setup, *case.steps)})
    # every result with a GM's side was sealed as it was logged, whatever the ruleset (docs/sealed-rolls.md)
    logged = await service.store.events(campaign.row.id, limit=10_000)
    unsealed = [e.seq for e in logged if isinstance(e.result.get("secret"), dict) and "sealed" not in e.result]
    assert unsealed == [], unsealed
    sweep.sealed = [e.seq for e in logged if "sealed" in e.result]
    characters = sorted(c.name for c in campaign.characters.values())
    for reader in READERS:
        await _read_everything(sweep, reader, commands, characters)

    # the store: the public side of every event (what any member's view of the log is made of)
    events = await service.store.events(campaign.row.id, limit=10_000)
    public = [
        json.dumps([e.summary, {k: v for k, v in e.result.items() if k not in ("secret", "private")}]) for e in events
    ]
    for reader in READERS:
        sweep.see("store", reader, *public)

    # an imported copy of the GM's export keeps every secret as secret
    await console.ok(f"@as {GM}")
    exported = await console.ok("/campaign export")
    source = next(name for name in exported["files"] if name.endswith((".json", ".json.gz")))
    await console.ok(f"@channel {ELSEWHERE}")
    await console.ok(f"/campaign import file:{source}")
    for reader in READERS:
        await sweep.read("import log", reader, "/campaign log")
        for marker in case.markers:
            await sweep.search("import log text", reader, marker)
        await sweep.read("import recap", reader, "/campaign recap")
        await sweep.read("import status", reader, "/campaign status")
        await sweep.read("import character list", reader, "/character list")
        for name in characters:
            await sweep.read("import character show", reader, f'/character show name:"{name}"')
    await console.ok(f"@channel {HOME}")

    # undo messages: the GM undoes every step, newest first; the channel reads each message. A step that is not the
    # GM's own newest action is named first, to the GM alone (and no reader may ask): Confirm posts the undo
    for reader in READERS:
        await sweep.read("undo asked", reader, "/campaign undo")
    await console.ok(f"@as {GM}")
    for _ in case.steps:
        undone = await console.ok("/campaign undo")
        if undone["data"].get("confirm"):
            assert undone["ephemeral"], undone
            undone = await console.ok("@press Confirm")
        for reader in READERS:
            sweep.see("undo", reader, json.dumps(undone, ensure_ascii=False))
    for reader in READERS:
        await sweep.read("log after undo", reader, "/campaign log")

    # ended: the archive's export stays the GMs' (a removed GM is not one of them)
    await console.ok(f"@as {GM}")
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    for reader in READERS:
        await sweep.read("export archived", reader, f"/campaign export archived:{campaign.row.id}")
        await sweep.read("archive list", reader, "/campaign archive list")
    return sweep


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.id for r in RULESETS])
async def test_no_secret_reaches_another_player_a_non_member_or_a_removed_gm(
    contract_console: Console, ruleset: Ruleset, tmp_path: Path
) -> None:
    case = ruleset.secrets_case()
    if case is None:
        assert not _declared(ruleset), f"{ruleset.id} declares secrets but gives the sweep no script to play them"
        pytest.skip(f"{ruleset.id} declares nothing private or secret")
    sweep = await sweep_ruleset(contract_console, ruleset, tmp_path)
    cells, leaks = sweep.cells()
    assert not leaks, f"{len(leaks)} of {cells} cells leak: {leaks}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.id for r in RULESETS])
def test_the_script_covers_what_the_ruleset_declares(ruleset: Ruleset) -> None:
    """Every action declared private or secret is played, and every value typed into a declared option is a
    marker the sweep looks for: a ruleset's new secret is swept as soon as it is declared and scripted."""
    case = ruleset.secrets_case()
    if case is None:
        assert not _declared(ruleset)
        return
    played = {step.action for step in case.steps}
    declared = {name for name, action in ruleset.actions.items() if action.secrecy}
    assert declared <= played, f"declared but never played: {sorted(declared - played)}"
    for step in case.steps:
        secrecy = ruleset.actions[step.action].secrecy
        for name in secrecy.private_options | secrecy.secret_options:
            words = option_words(step.options.get(name))
            assert not words or words & set(case.markers) or case.unmarked, (step, name)
    assert case.markers or case.unmarked, "a script with no marker says why"
    assert len(set(case.markers)) == len(case.markers)
    for marker in case.markers:
        assert len(marker) >= 5 and not any(m != marker and marker in m for m in case.markers), marker


def _declared(ruleset: Ruleset) -> bool:
    return bool(ruleset.private_fields) or any(action.secrecy for action in ruleset.actions.values())


@pytest.mark.parametrize("ruleset", RULESETS, ids=[r.id for r in RULESETS])
async def test_the_sweep_is_not_blind_the_owner_and_the_gm_read_every_marker(
    contract_console: Console, ruleset: Ruleset
) -> None:
    """Each marker was really made: the player's own results, the GM's deliveries and the log hold it."""
    console = contract_console
    case = ruleset.secrets_case()
    if case is None or not case.markers:
        return
    await console.ok(f"@as {GM}")
    await console.ok(f"/campaign start ruleset:{ruleset.id} name:Sweep")
    sweep = Sweep(console, ruleset, case)
    made = [await _step(sweep, step, PLAYER) for step in (*case.setup, *case.steps)]
    delivered = [sent.card.model_dump() for sent in console.table.courier.sent]
    for reader in (PLAYER, GM):
        await console.ok(f"@as {reader}")
        first = await console.ok("/campaign log")
        pages = [first, *[await console.ok(f"/campaign log page:{n}") for n in range(2, first["data"]["pages"] + 1)]]
        sheets = [await console.ok(f'/character show name:"{name}"') for name in await _names(console)]
        seen = json.dumps([pages, sheets, delivered if reader == GM else made]).casefold()
        missing = {marker for marker in case.markers if marker.casefold() not in seen}
        assert not missing or (reader == PLAYER and _secret_only(ruleset, case, missing)), (reader, missing)


async def _names(console: Console) -> list[str]:
    campaign = await console.table.bot.service.campaign(console.table._place())
    assert campaign is not None
    return sorted(c.name for c in campaign.characters.values())


def _secret_only(ruleset: Ruleset, case: SecretsCase, markers: set[str]) -> bool:
    """Markers only the GM may read (typed by the GM, or declared secret) need not reach the player."""
    for step in case.steps:
        secrecy = ruleset.actions[step.action].secrecy
        for name, value in step.options.items():
            if option_words(value) & markers and not (step.as_gm or name in secrecy.secret_options):
                return False
    return True
