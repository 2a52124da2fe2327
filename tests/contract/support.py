"""The contract suite's one door into ``bot/``: the command tree, the console, the scenarios, the books.

Every other module of ``tests/contract`` imports bot internals only from here, so when ``bot/`` moves its
modules into layer packages this is the one file to re-point.

The rulesets it checks are every discovered one (the five built in) and the sixth of docs/new-ruleset.md, hedge
magic, built once per session from the guide's code blocks (``tests/support/guide.py``). They meet in the suite's
own :func:`registry`; nothing else in a test session sees the sixth (``discover_rulesets()`` still finds five).
Every store it opens is a SQLite file in a temporary folder, or on the PostgreSQL pass (``MAGISTER_TEST_DB``) the
PostgreSQL database ``tests/support/db.py`` maps that file to, so the suite runs on both stores.

What it offers (plain data, computed once per session where it can be):

- :func:`command_tree`: every slash command as Discord would register it (groups, leaves, options, choices,
  help examples, the serialized payloads);
- :func:`played`: what a scenario of ``tests/scenarios`` shows its players, line by line, through the console;
- :func:`probed`: each scenario replayed with every ``/help`` example tried where the scenario ran its command;
- :func:`first_session`: a ruleset's first session played in a fresh campaign, with ``/help command:<id>``;
- :func:`form_filling`: ``/character create``'s form as a player fills it, keeping its defaults;
- :func:`open_console`: a console table on a fresh store that knows every ruleset the suite checks;
- :func:`python_strings`: the string constants of a source folder, docstrings left out;
- :func:`command_refs` and :func:`ref_problems`: the ``/command sub option:`` references in a text, and what is
  wrong with each against the tree;
- :class:`FuzzTable`: a ruleset's table after its first session, for hypothesis to send any options to, with what
  each command sent and whom the table then waits on (:func:`unwanted_pings`).
"""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import re
import shlex
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.adapter.forms import MORE as FORM_MORE
from bot.adapter.forms import create_action
from bot.adapter.help import command_path, example, leaves, ruleset_example
from bot.cli.console import ConsoleTable, Result
from bot.cli.virtual import Sent  # what the bot sent: a message, a followup, an edit (re-exported for the fuzz)
from bot.table.pbp import wait_users
from bot.table.registry import Registry, discover_rulesets, is_built_in
from rules.base import Card, LookupEntry, Ruleset
from rules.text import clip
from tests.support import db as test_db
from tests.support.db import fetch
from tests.support.fuzz import leaves as fuzz_leaves
from tests.support.fuzz import typed_values
from tests.support.guide import GUIDE, guide_package, guide_ruleset
from tests.support.loop_console import LoopConsole
from tests.support.scenario import SCENARIO_CLOCK, SCENARIOS

ROOT = Path(__file__).resolve().parents[2]
RULESETS: tuple[Ruleset, ...] = (*discover_rulesets(), guide_ruleset())
RULESET_IDS = [ruleset.id for ruleset in RULESETS]  # the five built in, then the guide's sixth
SHARED = "shared"  # the commands and texts that belong to no ruleset: /campaign, /roll, /help...


@functools.cache
def registry() -> Registry:
    """Every ruleset the suite checks, books loaded: the discovered ones and the guide's (not the tests' tally)."""
    return Registry.build(RULESETS)


def ruleset_of(ruleset_id: str) -> Ruleset:
    return registry().get(ruleset_id).ruleset


def source_of(ruleset_id: str) -> Path:
    """Where a ruleset's code lives: ``rules/<id>/``, or the guide's package folder."""
    ruleset = ruleset_of(ruleset_id)
    return ROOT / "rules" / ruleset_id if is_built_in(ruleset) else guide_package()


def doc_of(ruleset_id: str) -> Path:
    """A ruleset's page: ``docs/<id>.md``, or the guide that holds the sixth."""
    return ROOT / "docs" / f"{ruleset_id}.md" if is_built_in(ruleset_of(ruleset_id)) else GUIDE


def store_at(path: Path) -> Path | str:
    """The store a console opens for ``path``: the SQLite file, or its PostgreSQL database on that pass."""
    return test_db.target(path)


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
    return ruleset_of(ruleset_id).getting_started


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
    example: str  # what /help shows: the ruleset's own example, or one built from the options

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
        table = await ConsoleTable.open(store_at(Path(folder) / "tree.sqlite3"), seed=1, registry=registry())
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
                    ruleset_example(registry(), command) or example(command),
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


def _shown(path: Path) -> str:
    """A source path as a report names it: from the repository, or from the guide's package folder."""
    if path.is_relative_to(ROOT):
        return str(path.relative_to(ROOT))
    return f"{GUIDE.relative_to(ROOT)}: {path.relative_to(guide_package().parent)}"


@functools.cache
def python_strings(where: str | Path) -> tuple[Text, ...]:
    """Every string of a module, or of every module in a folder (relative to the repository), docstrings aside."""
    found = []
    where = ROOT / where
    paths = [where] if where.suffix == ".py" else sorted(where.rglob("*.py"))
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
            found.append(Text(f"{_shown(path)}:{node.lineno}", text))
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


async def open_console(folder: Path, *, seed: int = 7) -> ConsoleTable:
    """A console table in ``folder`` on a fresh store, with the suite's registry (the guide's ruleset too)."""
    return await ConsoleTable.open(
        store_at(folder / "contract.sqlite3"),
        seed=seed,
        files_dir=folder / "exports",
        registry=registry(),
        clock=SCENARIO_CLOCK,
    )


async def _open(folder: Path, seed: int) -> Session:
    return Session(await open_console(folder, seed=seed), folder)


# ---------------------------------------------------------------------- first sessions and getting-started cards


@dataclass(frozen=True)
class Played:
    """One line of a console script as it ran."""

    line: str
    ok: bool
    text: str
    incident: bool


@dataclass(frozen=True)
class FirstSession:
    """A ruleset's ``first_session`` played in a fresh campaign, and what ``/help command:<id>`` then showed."""

    ruleset: str
    played: tuple[Played, ...]
    started: str  # what /campaign start showed (the card, numbered)
    help: str  # what /help command:<id> showed


@functools.cache
def first_session(ruleset_id: str) -> FirstSession:
    script = ruleset_of(ruleset_id).first_session

    async def go() -> FirstSession:
        with tempfile.TemporaryDirectory() as folder:
            session = await _open(Path(folder), 7)
            try:
                played = []
                for line in script:
                    result = await session.run(line)
                    if result is not None:
                        played.append(Played(line, result.ok, result.text, "incident" in result.extra))
                shown = await session.run(f"/help command:{ruleset_id}")
                assert shown is not None and shown.ok, shown
            finally:
                await session.table.close()
        started = next((p.text for p in played if p.line.startswith("/campaign start")), "")
        return FirstSession(ruleset_id, tuple(played), started, shown.text)

    return asyncio.run(go())


@dataclass(frozen=True)
class Shown:
    """A command a getting-started card shows: the card's step (from 1), as written, and whether in backticks."""

    step: int
    text: str
    backticked: bool


def card_commands(ruleset_id: str) -> list[Shown]:
    """Every command a ruleset's getting-started card names, step by step, in the card's order."""
    found = []
    for number, step in enumerate(getting_started(ruleset_id), 1):
        found += [Shown(number, ref.text.strip(), ref.backticked) for ref in command_refs(step)]
    return found


# ---------------------------------------------------------------------- /character create as a form


def command_name(ruleset_id: str, action: str) -> str:
    """The command an action is: ``("serpent", "battle encounter add")`` → ``"serpent battle encounter-add"``."""
    group, name = command_path(action)
    return " ".join(part for part in (ruleset_id, group, name) if part)


def form_filling(ruleset_id: str, fields: dict[str, str]) -> dict[str, str]:
    """``/character create``'s form as a player sends it who fills only what it leaves blank that the create action
    requires, with the first session's values for those (a player must type them), and keeps every default shown.

    ``fields`` are the form's fields as it opened (the console's ``form``); ``more`` holds ``option: value`` lines.
    """
    ruleset = ruleset_of(ruleset_id)
    action = create_action(ruleset)
    prefix = "/" + command_name(ruleset_id, action.name)
    creates = [line for line in ruleset.first_session if line == prefix or line.startswith(prefix + " ")]
    typed = example_options(creates[0]) if creates else {}
    required = {name for name, field in action.options.model_fields.items() if field.is_required()}
    sent = {}
    for name, value in fields.items():
        if name == FORM_MORE:
            sent[name] = "\n".join(
                f"{key}: {typed.get(key, '')}" if key in required and not rest.strip() else line
                for line in value.splitlines()
                for key, _, rest in [line.partition(":")]
            )
        elif not value and name in required:
            sent[name] = typed.get(name, "")
        else:
            sent[name] = value
    return sent


def form_line(values: dict[str, str]) -> str:
    """The console line that submits a form with these values; ``@form`` reads ``\n`` as a new line."""
    typed = {name: value.replace("\n", "\\n") for name, value in values.items()}
    return "@form " + " ".join(f"{name}:{shlex.quote(value)}" for name, value in typed.items())


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


# ---------------------------------------------------------------------- the fuzz: a table after its first session

NO_CAMPAIGN = 2999  # a channel with no campaign, where every ruleset command must say so
USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
SPOKEN = ("message", "followup", "edit")  # what lands in the channel or before the user (not a defer, a modal...)


@dataclass(frozen=True)
class Answer:
    """What one command got: its result, every message it sent, and whom the table waits on afterwards."""

    result: Result
    messages: tuple[Sent, ...]
    waited: frozenset[int]  # the users the channel's campaign waits on now (a GM wait: its GMs)


class FuzzTable:
    """A ruleset's table after its ``first_session`` (so a new ruleset needs no setup written for it), on its own
    event loop, for hypothesis to send any options to as the GM or one of two players, here or in a channel with no
    campaign."""

    def __init__(self, ruleset_id: str, folder: Path, *, seed: int = 3) -> None:
        self.ruleset_id = ruleset_id
        self.script = ruleset_of(ruleset_id).first_session
        self.console = LoopConsole(store_at(folder / "fuzz.sqlite3"), registry(), seed=seed, setup=self.script)
        self.home = self.console.table.virtual.channel_id

    def close(self) -> None:
        self.console.close()

    def commands(self) -> list[app_commands.Command]:
        """Every command of the ruleset's ``/<id>`` group."""
        return fuzz_leaves(self.console.table.virtual.tree, under=self.ruleset_id)

    def people(self) -> tuple[str, str, str]:
        """Who acts: the GM and two players, those the first session acted as (made up where it had fewer)."""
        names = [line.removeprefix("@as ").strip() for line in self.script if line.startswith("@as ")]
        players = [name for name in dict.fromkeys(names[1:]) if name != names[0]] + ["Oz", "Quinn"]
        return ("@gm", f"@as {players[0]}", f"@as {players[1]}")

    def known(self) -> list[str]:
        """The names and values the first session typed: what most commands need one of to do anything."""
        return typed_values(self.script)

    def _go(self, who: str, elsewhere: bool) -> None:
        self.console.run(f"@channel {NO_CAMPAIGN if elsewhere else self.home}")
        self.console.run(who)

    def send(self, path: list[str], options: dict[str, Any], who: str, elsewhere: bool) -> Answer:
        self._go(who, elsewhere)
        adapter = self.console.table.virtual.adapter
        before = len(adapter.sent)
        result = self.console.call(self.console.table.run_command(path, options))
        messages = tuple(sent for sent in adapter.sent[before:] if sent.kind in SPOKEN)
        return Answer(result, messages, self.console.call(self._waited()))

    def complete(self, path: list[str], options: dict[str, Any], focused: str, who: str, elsewhere: bool) -> list:
        self._go(who, elsewhere)
        return self.console.call(self.console.table.autocomplete(path, options, focused))

    async def _waited(self) -> frozenset[int]:
        service = self.console.table.bot.service
        campaign = await service.campaign(self.console.table._place())
        if campaign is None:
            return frozenset()
        waits = await service.store.waits(campaign.row.id)
        return frozenset(user for wait in waits for user in wait_users(campaign.row, wait))


def unwanted_pings(messages: Iterable[Sent], waited: frozenset[int]) -> list[str]:
    """What Discord would let these messages ping beyond the users the table waits on: another user, a role,
    everyone. A message without ``allowed_mentions`` pings every mention in its content (Discord's default)."""
    found = []
    for message in messages:
        content = message.content or ""
        users = {int(user) for user in USER_MENTION.findall(content)}
        roles = {int(role) for role in ROLE_MENTION.findall(content)}
        allowed = message.allowed_mentions
        if allowed is None:
            may_users, may_roles, may_everyone = users, roles, "@everyone" in content or "@here" in content
        else:
            parse = set(allowed.get("parse") or ())
            may_users = {int(u) for u in allowed.get("users") or ()} | (users if "users" in parse else set())
            may_roles = {int(r) for r in allowed.get("roles") or ()} | (roles if "roles" in parse else set())
            may_everyone = "everyone" in parse
        where = f"a {message.kind} ({clip(content, 120)!r}, allowed_mentions {allowed})"
        if may_users - waited:
            found.append(f"{where} may ping {sorted(may_users - waited)}; the table waits on {sorted(waited)}")
        if may_roles:
            found.append(f"{where} may ping the roles {sorted(may_roles)}")
        if may_everyone:
            found.append(f"{where} may ping everyone")
    return found
