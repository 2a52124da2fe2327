"""The contract suite's one door into ``bot/``: the command tree, the console, the scenarios, the books.

Every other module of ``tests/contract`` imports bot internals only from here, so when ``bot/`` moves its
modules into layer packages this is the one file to re-point.

What it offers, all computed once per session and returned as plain data:

- :func:`command_tree`: every slash command as Discord would register it (groups, leaves, options, choices,
  help examples, the serialized payloads);
- :func:`played`: what a scenario of ``tests/scenarios`` shows its players, line by line, through the console;
- :func:`probed`: each scenario replayed with every ``/help`` example tried where the scenario ran its command;
- :func:`run_lines`: a few console lines in a fresh campaign;
- :func:`python_strings`: the string constants of a source folder, docstrings left out;
- :func:`command_refs` and :func:`ref_problems`: the ``/command sub option:`` references in a text, and what is
  wrong with each against the tree.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import re
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.adapter.help import example, leaves
from bot.cli.console import ConsoleTable, Result
from bot.table.registry import Registry, discover_rulesets
from rules.base import Card, LookupEntry
from tests.support.db import fetch
from tests.support.scenario import SCENARIO_CLOCK, SCENARIOS

ROOT = Path(__file__).resolve().parents[2]
RULESET_IDS = [ruleset.id for ruleset in discover_rulesets()]
SHARED = "shared"  # the commands and texts that belong to no ruleset: /campaign, /roll, /help...


@functools.cache
def registry() -> Registry:
    """Every discovered ruleset with its book loaded (the test-only tally ruleset is not one of them)."""
    return Registry.discover()


def lookup_entries(ruleset_id: str) -> list[LookupEntry]:
    loaded = registry().get(ruleset_id)
    return list(loaded.ruleset.lookup_entries(loaded.book))


def shared_lookup_entries() -> list[LookupEntry]:
    """The entries no ruleset owns: the numbered rulings of docs/rulings.md."""
    return [entry for entry in registry().lookup.entries if entry.ruleset is None]


def find_entry(term: str, ruleset_id: str | None) -> LookupEntry | None:
    """What ``/lookup term:<term>`` opens outright in a channel of that ruleset (no fuzzy guess)."""
    return registry().lookup.exact(term, ruleset_id)


def getting_started(ruleset_id: str) -> tuple[str, ...]:
    return registry().get(ruleset_id).ruleset.getting_started


def settings_keys() -> set[str]:
    """Every house-rule name a GM may set, so a text naming one (``house rule hallow_pays_shaping``) is fine."""
    keys = {"response_window", "turn_deadline", "turn_timeout", "nudge"}
    for loaded in registry():
        keys |= set(loaded.ruleset.settings_model.model_fields)
    return keys


# ---------------------------------------------------------------------- the command tree


@dataclass(frozen=True)
class Param:
    name: str
    required: bool
    description: str
    choices: tuple[str, ...]  # the choices' names, as a player sees them


@dataclass(frozen=True)
class Leaf:
    name: str  # qualified: "serpent battle round"
    description: str
    params: dict[str, Param]
    example: str  # what /help shows: "/serpent battle round"

    @property
    def owner(self) -> str:
        top = self.name.split()[0]
        return top if top in RULESET_IDS else SHARED


@dataclass(frozen=True)
class Tree:
    tops: frozenset[str]
    groups: frozenset[str]  # qualified names of groups, tops included
    leaves: dict[str, Leaf]
    payloads: dict[str, dict[str, Any]]  # top-level name -> to_dict(tree), as synced to Discord
    menus: tuple[str, ...]  # the right-click menus' names

    def node(self, path: list[str]) -> str | None:
        """``"group"``, ``"leaf"`` or None for a path of command words."""
        name = " ".join(path)
        return "leaf" if name in self.leaves else "group" if name in self.groups else None


@functools.cache
def command_tree() -> Tree:
    return asyncio.run(_command_tree())


async def _command_tree() -> Tree:
    with tempfile.TemporaryDirectory() as folder:
        table = await ConsoleTable.open(Path(folder) / "tree.sqlite3", seed=1, registry=registry())
        try:
            tree = table.virtual.tree
            slash = tree.get_commands(type=discord.AppCommandType.chat_input)
            groups = set()
            for top in slash:
                if isinstance(top, app_commands.Group):
                    groups.add(top.name)
                    groups |= {c.qualified_name for c in top.walk_commands() if isinstance(c, app_commands.Group)}
            found = {
                command.qualified_name: Leaf(
                    command.qualified_name,
                    command.description,
                    {
                        p.name: Param(p.name, p.required, p.description, tuple(c.name for c in p.choices))
                        for p in command.parameters
                    },
                    example(command),
                )
                for command in leaves(tree)
            }
            payloads = {command.name: command.to_dict(tree) for command in slash}
            menus = tuple(
                menu.name
                for kind in (discord.AppCommandType.message, discord.AppCommandType.user)
                for menu in tree.get_commands(type=kind)
            )
            return Tree(frozenset(c.name for c in slash), frozenset(groups), found, payloads, menus)
        finally:
            await table.close()


def discord_size(node: dict[str, Any]) -> int:
    """Characters Discord counts toward a command's 8,000: names, descriptions, choice names and values."""
    total = len(node.get("name", "")) + len(node.get("description", ""))
    for choice in node.get("choices") or []:
        total += len(choice.get("name", "")) + len(str(choice.get("value", "")))
    return total + sum(discord_size(option) for option in node.get("options") or [])


# ---------------------------------------------------------------------- command references in text

BACKTICKED = re.compile(r"`(/[^`\n]+)`")
BARE = re.compile(r"(?:(?<=^)|(?<=[\s(\"'*]))/([a-z][a-z0-9-]*)")
WORD = re.compile(r"^[a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*$")
OPTION = re.compile(r"^([a-z][a-z0-9_]*):")


@dataclass(frozen=True)
class Ref:
    """One ``/command sub option:`` reference: its command words, then the options it names."""

    text: str
    path: tuple[str, ...]
    options: tuple[str, ...]
    extra: tuple[str, ...]  # words between the command and its first option (`/lookup calamity 17`)
    backticked: bool


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:  # an unbalanced quote in prose
        return text.split()


def _ref(body: str, backticked: bool) -> Ref:
    tokens = _tokens(body.lstrip("/"))
    path: list[str] = []
    options: list[str] = []
    extra: list[str] = []
    for token in tokens:
        option = OPTION.match(token)
        if not backticked and option and token == option[0] and not options:
            path.append(option[1])  # prose: "/runic cast: Merlin casts..." (the log's lines)
            break
        if option:
            options.append(option[1])
        elif options:
            if not backticked:
                break
            continue  # the rest of an option's value (`term:ruling 15`)
        elif WORD.match(token) and not extra:
            path.append(token)
        elif not backticked:
            break
        else:
            extra.append(token)
    return Ref(body, tuple(path), tuple(options), tuple(extra), backticked)


def command_refs(text: str) -> list[Ref]:
    """Every command a text names: in backticks (`/runic cast spell:Fireball`) or in prose (/saga move)."""
    refs = [
        _ref(part, True)
        for match in BACKTICKED.finditer(text)
        for part in re.split(r"\s*[,;]\s*(?=/)|\s+or\s+(?=/)", match[1])  # `/a b, /c d`
    ]
    prose = BACKTICKED.sub(" ", text)
    for match in BARE.finditer(prose):
        rest = prose[match.start() :].split("\n", 1)[0]
        refs.append(_ref(re.split(r"[,;)]|\.(?:\s|$)", rest, maxsplit=1)[0], False))
    return refs


NOT_COMMANDS = {
    "livez": "the health server's HTTP path (README)",
    "readyz": "the health server's HTTP path (README)",
    "group": "the console's syntax, `/group sub option:value` (docs/console.md)",
}
PLACEHOLDER = re.compile(r"^(?:<.*>?|\[.*\]?|\.\.\.|…|\{\}|\S*[<{].*)$")


def ref_problems(ref: Ref, tree: Tree) -> list[str]:
    """What is wrong with a reference: a command or subcommand that does not exist, an option it lacks."""
    if not ref.path:
        return []
    if ref.path[0] not in tree.tops:
        named = ref.backticked and "/" not in ref.text[1:] and ref.path[0] not in NOT_COMMANDS
        return [f"there is no command /{ref.path[0]}"] if named else []
    where = [ref.path[0]]
    for word in ref.path[1:]:
        kind = tree.node(where)
        if kind == "leaf":
            if ref.backticked:
                return [f"/{' '.join(where)} has no subcommand {word!r}"]
            break
        children = word.split("|")
        missing = [c for c in children if tree.node([*where, c]) is None]
        if missing:
            return [f"/{' '.join(where)} has no subcommand {', '.join(missing)!r}"]
        where.append(children[0])
    extra = [token for token in ref.extra if not PLACEHOLDER.match(token)]
    name = " ".join(where)
    if extra and tree.node(where) == "leaf":
        return [f"/{name} takes options as name:value, not {' '.join(extra)!r}"]
    if ref.options and tree.node(where) == "group":
        return [f"/{name} is a group; name one of its commands before the options"]
    if tree.node(where) == "leaf":
        params = tree.leaves[name].params
        unknown = [option for option in ref.options if option not in params]
        if unknown:
            return [f"/{name} has no option {', '.join(unknown)!r} (options: {', '.join(params) or 'none'})"]
    return []


# ---------------------------------------------------------------------- source strings


@dataclass(frozen=True)
class Text:
    where: str  # "rules/saga/turn.py:444", "lookup saga glossary Wisp", "serpent_act1.txt: /serpent cast ..."
    text: str


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _joined(node: ast.AST) -> str | None:
    """A string constant, or an f-string with each ``{value}`` as ``{}``, or a ``+`` chain of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _joined(node.left), _joined(node.right)
        if left is not None and right is not None:
            return left + right
    return None


@functools.cache
def python_strings(where: str) -> tuple[Text, ...]:
    """Every string of a module, or of every module in a folder (relative to the repository), docstrings aside."""
    found = []
    paths = [ROOT / where] if where.endswith(".py") else sorted((ROOT / where).rglob("*.py"))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            text = _joined(node)
            if text is None:
                continue
            for inner in ast.walk(node):  # the parts of a joined string are not strings of their own
                if inner is not node:
                    skip.add(id(inner))
            found.append(Text(f"{path.relative_to(ROOT)}:{node.lineno}", text))
    return tuple(found)


# ---------------------------------------------------------------------- the console


def card_text(card: Card) -> str:
    parts = [card.title, card.description, *(f"{f.name}: {f.value}" for f in card.fields), card.footer]
    return "\n".join(part for part in parts if part)


class Session:
    """One console table on a fresh database, in a temporary folder."""

    def __init__(self, table: ConsoleTable, folder: Path) -> None:
        self.table = table
        self.folder = folder

    async def run(self, line: str) -> Result | None:
        return await self.table.execute(line.replace("file:exports/", f"file:{self.folder}/exports/"))

    def timers(self) -> list[Result]:
        return self.table.timer_results()

    async def campaign_id(self) -> int | None:
        campaign = await self.table.bot.service.campaign(self.table._place())
        return campaign.row.id if campaign else None

    async def last_change(self) -> int | None:
        """The newest change of this channel's campaign that undo would revert."""
        campaign = await self.campaign_id()
        event = None if campaign is None else await self.table.bot.service.store.last_undoable(campaign)
        return None if event is None else event.id

    async def undo_last(self) -> None:
        """Revert the newest change as a member with Manage Server, then act as the same user again."""
        user = self.table.user
        self.table.switch_user("Contract Undo", manages_guild=True)
        try:
            result = await self.run("/campaign undo")
            if result is not None and result.ok and result.data.get("confirm"):  # another's change: it asks first
                result = await self.run("@press Confirm")
            assert result is not None and result.ok, result
        finally:
            self.table.user = user

    def remember(self) -> tuple:
        t = self.table
        return (t.last_with_buttons, t.last_message, t.last_form, t.last_with_select, t.form_origin)

    def restore(self, saved: tuple) -> None:
        t = self.table
        t.last_with_buttons, t.last_message, t.last_form, t.last_with_select, t.form_origin = saved

    async def log_summaries(self) -> list[str]:
        """Every summary in the log, the GM's secret side too: what ``/campaign log`` shows its readers."""
        rows = await fetch(self.table.bot.service.store, "SELECT summary, result FROM events ORDER BY id")
        found = []
        for summary, result in rows:
            found.append(summary)
            stored = json.loads(result) if isinstance(result, str) else result or {}
            secret = stored.get("secret") if isinstance(stored, dict) else None
            if isinstance(secret, dict) and secret.get("summary"):
                found.append(secret["summary"])
        return found

    def gm_cards(self) -> list[Card]:
        """Secrets sent to the GM, boards and what timers posted: cards nobody asked for with a command."""
        poster = self.table.poster
        cards = [sent.card for sent in self.table.courier.sent]
        cards += list(poster.boards.values())
        cards += [posted.card for posted in poster.posted if posted.card is not None]
        return cards


async def _open(folder: Path, seed: int) -> Session:
    table = await ConsoleTable.open(
        folder / "contract.sqlite3", seed=seed, files_dir=folder / "exports", registry=registry(), clock=SCENARIO_CLOCK
    )
    return Session(table, folder)


def run_lines(lines: list[str], *, seed: int = 7) -> list[Result]:
    """Console lines on a fresh database; a result per line that printed one (comments print none)."""

    async def go() -> list[Result]:
        with tempfile.TemporaryDirectory() as folder:
            session = await _open(Path(folder), seed)
            try:
                results = []
                for line in lines:
                    result = await session.run(line)
                    if result is not None:
                        results.append(result)
                return results
            finally:
                await session.table.close()

    return asyncio.run(go())


# ---------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Scenario:
    name: str
    ruleset: str
    seed: int
    lines: tuple[str, ...]


@functools.cache
def scenarios() -> tuple[Scenario, ...]:
    """The console scenarios of the discovered rulesets, each with the seed its header names."""
    found = []
    for path in sorted(SCENARIOS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        ruleset = re.search(r"^/campaign start ruleset:(\w+)", text, re.MULTILINE)
        if ruleset is None or ruleset[1] not in RULESET_IDS:
            continue  # pbp_tally plays the tests' own ruleset
        seed = re.search(r"--seed (\d+)", text)
        found.append(Scenario(path.name, ruleset[1], int(seed[1]) if seed else 1, tuple(text.splitlines())))
    return tuple(found)


@dataclass
class Transcript:
    """Everything a scenario showed anyone: replies, secrets, buttons, timers, boards, the log."""

    scenario: str
    texts: list[Text] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # lines refused (scenarios show some refusals on purpose)

    def add(self, where: str, text: str) -> None:
        if text:
            self.texts.append(Text(f"{self.scenario}: {where}", text))


def _result_texts(transcript: Transcript, line: str, result: Result) -> None:
    transcript.add(line, result.text)
    extra = result.extra
    if "secret" in extra:
        transcript.add(f"{line} (to the GM)", extra["secret"]["text"])
    for label in extra.get("buttons", []):
        transcript.add(f"{line} (button)", label)


@functools.cache
def played(name: str) -> Transcript:
    scenario = next(s for s in scenarios() if s.name == name)

    async def go() -> Transcript:
        transcript = Transcript(name)
        with tempfile.TemporaryDirectory() as folder:
            session = await _open(Path(folder), scenario.seed)
            try:
                for line in scenario.lines:
                    result = await session.run(line)
                    if result is None:
                        continue
                    _result_texts(transcript, line, result)
                    if not result.ok:
                        transcript.failed.append(line)
                    for fired in session.timers():
                        _result_texts(transcript, f"{line} then {fired.command}", fired)
                for card in session.gm_cards():
                    transcript.add("a card posted or sent to the GM", card_text(card))
                for summary in await session.log_summaries():
                    transcript.add("the log", summary)
            finally:
                await session.table.close()
        return transcript

    return asyncio.run(go())


# ---------------------------------------------------------------------- help examples, tried in scenarios


@dataclass(frozen=True)
class Attempt:
    """A /help example tried where a scenario ran the same command: with the scenario's values, its options only."""

    command: str
    tried: str  # the example as run
    use: str  # the scenario's own line, run right after
    ok: bool
    use_ok: bool
    said: str


ACTING_AS = ("mage", "magi", "character")  # whom the scenario's player acted through: the situation, not the example


def example_options(text: str) -> dict[str, str]:
    """``/saga put card:<card> to:hand`` -> {"card": "<card>", "to": "hand"}."""
    options = {}
    for token in _tokens(text.replace("<a file>", "<a_file>")):
        option = OPTION.match(token)
        if option:
            options[option[1]] = token[len(option[0]) :]
    return options


def _line(path: str, options: dict[str, str]) -> str:
    return " ".join([f"/{path}", *(f"{name}:{shlex.quote(value)}" for name, value in options.items())])


@functools.cache
def probed(name: str) -> tuple[Attempt, ...]:
    """Replay a scenario; before each command line, try that command's /help example with the line's values.

    The example keeps its own options only; each takes the scenario line's value when the line has it (a real
    spell for ``spell:<spell>``). A tried example that changed something is undone before the line runs.
    """
    scenario = next(s for s in scenarios() if s.name == name)
    tree = command_tree()

    async def go() -> tuple[Attempt, ...]:
        attempts = []
        with tempfile.TemporaryDirectory() as folder:
            session = await _open(Path(folder), scenario.seed)
            try:
                for line in scenario.lines:
                    stripped = line.strip()
                    leaf = _leaf_of(stripped, tree)
                    tried = None
                    if leaf is not None:
                        used = example_options(stripped)
                        wanted = {
                            option: used.get(option, value) for option, value in example_options(leaf.example).items()
                        }
                        wanted |= {option: used[option] for option in ACTING_AS if option in used}
                        if "text" in used and wanted.get("file") == "<a_file>":  # the pasted text, as a file
                            upload = Path(folder) / f"upload-{len(attempts)}.txt"
                            upload.write_text(used["text"], encoding="utf-8")
                            wanted["file"] = str(upload)
                        if wanted.keys() != used.keys():
                            tried = _line(leaf.name, wanted)
                    if tried is not None and leaf is not None:
                        saved, before = session.remember(), await session.last_change()
                        result = await session.run(tried)
                        session.timers()
                        if result is not None and result.ok and await session.last_change() != before:
                            await session.undo_last()
                        session.restore(saved)
                    outcome = await session.run(line)
                    session.timers()
                    if leaf is None or outcome is None:
                        continue
                    if tried is None:
                        attempts.append(Attempt(leaf.name, stripped, stripped, outcome.ok, outcome.ok, outcome.text))
                    else:
                        assert result is not None
                        attempts.append(Attempt(leaf.name, tried, stripped, result.ok, outcome.ok, result.text))
            finally:
                await session.table.close()
        return tuple(attempts)

    return asyncio.run(go())


def _leaf_of(line: str, tree: Tree) -> Leaf | None:
    if not line.startswith("/"):
        return None
    words = []
    for token in _tokens(line[1:]):
        if ":" in token:
            break
        words.append(token)
    return tree.leaves.get(" ".join(words))
