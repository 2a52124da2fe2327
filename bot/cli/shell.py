"""The console table as a shell: line editing, history kept between runs, Tab completion, Ctrl-C that cancels.

Only for a person at a terminal; scripts and ``--json`` read plain lines. Completion offers the command
tree's own paths and option names, so it can never disagree with what the table accepts.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from discord import app_commands

from bot.cli.virtual import name_for

HISTORY = Path(os.environ.get("MAGISTER_HISTORY", Path.home() / ".magister_history"))
HISTORY_LINES = 1000
DIRECTIVES = (
    "@as ", "@gm", "@press ", "@pick ", "@form ", "@menu ", "@wait ",
    "@channel ", "@thread ", "@guild ", "@help", "@quit",
)  # fmt: skip
HELP = """Lines:
  /command sub option:value option:"two words"   a slash command, as Discord shows it (Tab completes)
  @as NAME      act as another person          @gm        act as the campaign's GM
  @press LABEL  click a button                 @wait 2h   move the clock; due timers fire
  @pick CHOICE  pick in a select menu          @form FIELD:VALUE ...   fill the form just opened
  @menu NAME    an app menu on the last message (@menu NAME: USER on a user)
  @channel ID   another channel                @guild ID  another server (0: a DM)
  @thread ID    a thread of this channel (off: back)
  @help         this                           @quit      leave (or Ctrl-D; Ctrl-C twice)
/help lists every command with an example."""


def completions(tree: app_commands.CommandTree) -> list[str]:
    """Every command path, and every path with each of its options, as a person would type them."""
    found: list[str] = []
    for top in tree.get_commands():
        commands = list(top.walk_commands()) if isinstance(top, app_commands.Group) else [top]
        if isinstance(top, app_commands.Group):
            found.append(f"/{top.name} ")
        for command in commands:
            if isinstance(command, app_commands.Command):
                path = f"/{command.qualified_name} "
                found.append(path)
                found += [f"{path}{parameter.name}:" for parameter in command.parameters]
    return sorted(set(found))


def complete(line: str, candidates: Iterable[str]) -> list[str]:
    """What may follow ``line``: a whole command path, or the next option name of the command typed so far."""
    if line.startswith("@"):
        return [d for d in DIRECTIVES if d.startswith(line)]
    words = line.split(" ")
    head = " ".join(words[:-1])
    matches = []
    for candidate in candidates:
        if candidate.startswith(line):
            rest = candidate[len(line) :]
            cut = rest.find(" ")  # one word at a time: `/runic ca` completes to `/runic cast `, not its options
            matches.append(candidate if cut < 0 else candidate[: len(line) + cut + 1])
        elif head and candidate.endswith(":") and candidate.rsplit(" ", 1)[0] + " " == _command_part(head):
            option = candidate.rsplit(" ", 1)[-1]
            if option.startswith(words[-1]) and f" {option}" not in f" {head} ":
                matches.append(f"{head} {option}")
    return list(dict.fromkeys(matches))


def _command_part(head: str) -> str:
    return " ".join(word for word in head.split(" ") if ":" not in word) + " "


def with_names(text: str, names: dict[int, str]) -> str:
    """Mentions of members (<@id>), channels (<#id>) and roles (<@&id>) as the names a console user typed, and
    Discord's timestamps (<t:N:f>) as UTC times. ``names`` first (who acted here), then any name a line of this
    run turned into an id; a member no line named reads as Discord shows one it cannot resolve."""
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + _member(int(m.group(1)), names), text)
    text = re.sub(r"<#(\d+)>", lambda m: "#" + (name_for(int(m.group(1))) or m.group(1)).lstrip("#"), text)
    text = re.sub(r"<@&(\d+)>", lambda m: "@" + (name_for(int(m.group(1))) or "unknown-role").lstrip("@"), text)
    return re.sub(r"<t:(\d+)(?::[a-zA-Z])?>", lambda m: _utc(int(m.group(1))), text)


def _member(user_id: int, names: dict[int, str]) -> str:
    return names.get(user_id) or name_for(user_id) or UNKNOWN_MEMBER


UNKNOWN_MEMBER = "unknown-user"  # what Discord shows for a mention it cannot resolve


def _utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


class LineReader:
    """``input`` with readline: history in ``HISTORY``, Tab completion, Ctrl-C cancels the line."""

    def __init__(self, candidates: Callable[[], list[str]]) -> None:
        self.interrupted = False
        try:
            import readline
        except ImportError:  # a Python without readline: plain input still works
            self.readline = None
            return
        self.readline = readline
        self._candidates = candidates
        self._matches: list[str] = []
        readline.set_completer_delims("")
        readline.set_completer(self._complete)
        readline.parse_and_bind("tab: complete")
        readline.set_history_length(HISTORY_LINES)
        if HISTORY.exists():
            with contextlib.suppress(OSError):
                readline.read_history_file(HISTORY)

    def _complete(self, text: str, state: int) -> str | None:
        if state == 0:
            line = self.readline.get_line_buffer() if self.readline else text
            self._matches = complete(line, self._candidates())
        return self._matches[state] if state < len(self._matches) else None

    def read(self, prompt: str) -> str | None:
        """The next line; None to leave (Ctrl-D, or Ctrl-C on an empty prompt twice in a row)."""
        # asyncio.run's own Ctrl-C handler would only cancel the program once this blocking read returned:
        # while a person types, Ctrl-C must interrupt the read itself.
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            line = input(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            if self.interrupted:
                return None
            self.interrupted = True
            print("\n(line cancelled; Ctrl-C again, Ctrl-D or @quit to leave)")
            return ""
        finally:
            signal.signal(signal.SIGINT, previous)
        self.interrupted = False
        return line

    def close(self) -> None:
        if self.readline is not None:
            with contextlib.suppress(OSError):  # a read-only home still plays; it just forgets
                HISTORY.parent.mkdir(parents=True, exist_ok=True)
                self.readline.write_history_file(HISTORY)
