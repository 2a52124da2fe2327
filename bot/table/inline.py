"""Rolls inside a post (``/say``): ``[[3d6+2]]``, ``[[1d20+5 # to hit]]``, ``[[secret 1d20]]`` and a ruleset's own
words (``[[check 12]]``, ``[[pool 6]]``, declared as :class:`rules.base.InlineAction`).

Each roll goes through the code of the command it stands for (``/roll``'s :func:`roll_text`, ``/check``'s and
``/pool``'s :mod:`bot.table.rolls`), so it rolls, reads and logs exactly as that command; this module only finds
the rolls in a text and words each one for the post. Pure: the RNG is an argument, nothing is saved here.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from bot.table import rolls
from bot.table.expressions import HELP, roll_text
from rules.base import InlineAction, Outcome, RuleError
from rules.text import clip

OPEN, CLOSE = "[[", "]]"
MAX_INLINE = 10  # rolls in one post
MAX_BODY = 200  # characters between the brackets: /roll's limit for an expression
SECRET = re.compile(r"^secret(?:\s+|$)", re.IGNORECASE)
ROLL_WORD = re.compile(r"^roll(?:\s+|$)", re.IGNORECASE)
WORD = re.compile(r"^([a-z]+)\b\s*(.*)$", re.IGNORECASE | re.DOTALL)
NUMBERS = re.compile(r"^(?:\s*[+-]?\d{1,4})*\s*$")
NUMBER = re.compile(r"[+-]?\d{1,4}")
# the bounds of each shared roll's options, as the slash commands hold them (cogs/dice.py)
BOUNDS = {"skill": (-50, 100), "modifier": (-50, 50), "dice": (-20, 60)}
SECRET_SHOWN = "secret roll, sent to the GM"


@dataclass(frozen=True)
class Marker:
    """One ``[[...]]`` of a post: what is between the brackets (``body``, without ``secret``) and where it was."""

    body: str
    secret: bool
    start: int
    end: int

    @property
    def written(self) -> str:
        """The marker as a player would write it again (an edit keeps a roll by writing it the same)."""
        return OPEN + ("secret " if self.secret else "") + self.body + CLOSE

    @property
    def key(self) -> str:
        """What makes two markers the same roll: the same words, whatever the case and spacing."""
        return same_roll(self.written)


@dataclass(frozen=True)
class Rolled:
    """A marker rolled: the command it stands for, the line that would repeat it, its outcome, and its text in
    the post (every die; for a secret roll only that it went to the GM)."""

    marker: Marker
    command: str
    line: str
    outcome: Outcome
    shown: str


def same_roll(written: str) -> str:
    """A roll as written, without case or spaces: ``[[3d6 + 2]]`` is ``[[3d6+2]]``."""
    return "".join(written.casefold().split())


def parse(text: str) -> list[str | Marker]:
    """The text cut into its words and its rolls, in order. A ``[[`` never closed, an empty roll or more than
    :data:`MAX_INLINE` rolls is refused with what would work; a ``]]`` alone is just text."""
    pieces: list[str | Marker] = []
    at = 0
    while True:
        start = text.find(OPEN, at)
        if start < 0:
            pieces.append(text[at:])
            break
        end = text.find(CLOSE, start + len(OPEN))
        if end < 0:
            raise RuleError(
                f"The `[[` at character {start + 1} is never closed: end each roll with `]]`, e.g. `[[3d6+2]]`."
            )
        inner = text[start + len(OPEN) : end]
        if OPEN in inner:
            raise RuleError(
                f"A roll cannot hold another `[[` (at character {start + 1}): close each roll with `]]` first."
            )
        body = " ".join(inner.split())
        secret = bool(SECRET.match(body))
        if secret:
            body = SECRET.sub("", body, count=1)
        if not body:
            raise RuleError("Put dice between `[[` and `]]`, e.g. `[[3d6+2]]` or `[[secret 1d20]]`.")
        if len(body) > MAX_BODY:
            raise RuleError(f"A roll has {len(body)} characters between its brackets; the limit is {MAX_BODY}.")
        pieces.append(text[at:start])
        pieces.append(Marker(body, secret, start, end + len(CLOSE)))
        at = end + len(CLOSE)
    markers = [piece for piece in pieces if isinstance(piece, Marker)]
    if len(markers) > MAX_INLINE:
        raise RuleError(f"That post has {len(markers)} rolls; one post holds at most {MAX_INLINE}.")
    return [piece for piece in pieces if piece != ""]


def words_help(actions: tuple[InlineAction, ...]) -> str:
    """The inline rolls this campaign knows, as examples."""
    own = "".join(f", `{action.example}`" for action in actions)
    return f"Inline rolls: `[[3d6+2]]`, `[[1d20+5 # to hit]]`, `[[secret 1d20]]`{own}."


def roll_marker(marker: Marker, rng: random.Random, actions: tuple[InlineAction, ...]) -> Rolled:
    """Roll one marker through the command it stands for."""
    body, label = _label(marker.body)
    word = WORD.match(body)
    by_word = {action.word: action for action in actions}
    if word is not None and word.group(1).casefold() in by_word:
        action = by_word[word.group(1).casefold()]
        return _shared(marker, action, word.group(2), label, rng, actions)
    named = word.group(1) if word is not None else ""
    if len(named) > 2 and named.casefold() != "roll" and not re.fullmatch(r"d\d*", named, re.IGNORECASE):
        raise RuleError(f"`{clip(named, 20)}` is not a roll I know here. {words_help(actions)}")
    body = ROLL_WORD.sub("", body, count=1)
    expression = body + (f" # {label}" if label else "")
    try:
        outcome = roll_text(expression, rng)
    except RuleError as error:
        raise RuleError(f"In `{clip(marker.written, 60)}`: {error}".replace(f" {HELP}", "")) from None
    line = _command_line("roll", {"expression": body, "label": label})
    return _done(marker, "roll", line, outcome, _dice_shown(outcome))


def _label(body: str) -> tuple[str, str | None]:
    """``1d20+5 # to hit`` -> ("1d20+5", "to hit"): what the roll is for, as /roll reads it after ``#``."""
    text, sep, label = body.partition("#")
    return text.strip(), (clip(label.strip(), 100) or None) if sep else None


def _shared(
    marker: Marker, action: InlineAction, rest: str, label: str | None, rng: random.Random, actions: tuple
) -> Rolled:
    if not NUMBERS.match(rest) or not rest.strip():
        raise RuleError(
            f"`{clip(marker.written, 60)}` needs whole numbers after `{action.word}`: "
            f"{', '.join(action.options)}, e.g. `{action.example}`."
        )
    numbers = [int(n) for n in NUMBER.findall(rest)]
    if len(numbers) > len(action.options):
        raise RuleError(
            f"`{clip(marker.written, 60)}` takes at most {len(action.options)} numbers "
            f"({', '.join(action.options)}), e.g. `{action.example}`."
        )
    options = dict(zip(action.options, numbers, strict=False))
    for name, value in options.items():
        low, high = BOUNDS.get(name, (-100, 100))
        if not low <= value <= high:
            raise RuleError(f"In `{clip(marker.written, 60)}`, {name} must be from {low} to {high}, not {value}.")
    if action.command == "check":
        outcome = rolls.check(rng, options["skill"], options.get("modifier", 0), label)
        shown = outcome.card.description.splitlines()[-1]
    else:
        outcome = rolls.pool(rng, options["dice"], label=label)
        dice = next((f.value for f in outcome.card.fields if f.name == "Dice"), outcome.card.description)
        shown = f"pool {options['dice']} {dice}: {outcome.card.title.removeprefix(f'{label}: ' if label else '')}"
    shown = f"{label}: {shown}" if label else shown
    line = _command_line(action.command, {**options, "label": label})
    return _done(marker, action.command, line, outcome, shown)


def _dice_shown(outcome: Outcome) -> str:
    """Every die of a /roll result on one line (several ``;`` rolls joined by ``;``)."""
    data = outcome.data
    label = data.get("label")
    if "rolls" in data:
        shown = "; ".join(str(roll.get("text") or roll.get("total")) for roll in data["rolls"])
    else:
        shown = str(data.get("text") or outcome.card.description.splitlines()[0] or outcome.card.title)
    return f"{label}: {shown}" if label else shown


def _done(marker: Marker, command: str, line: str, outcome: Outcome, shown: str) -> Rolled:
    shown = SECRET_SHOWN if marker.secret else " ".join(shown.split())
    return Rolled(marker, command, line, outcome, f"[🎲 {clip(shown, 400)}]")


def _command_line(command: str, options: dict[str, object]) -> str:
    """The slash command a roll stands for, as the log and "Roll again" read it."""
    parts = [f"/{command}"]
    for name, value in options.items():
        if value is None or (name == "modifier" and value == 0):
            continue
        text = str(value)
        parts.append(f'{name}:"{text}"' if " " in text or ";" in text else f"{name}:{text}")
    return " ".join(parts)


def roll_all(
    text: str, rng: random.Random, actions: tuple[InlineAction, ...]
) -> tuple[list[str | Marker], list[Rolled]]:
    """Every roll of a text, rolled in order; the text's pieces. Nothing is rolled if any roll is refused:
    each is read (and refused) before the first die is cast."""
    pieces = parse(text)
    markers = [piece for piece in pieces if isinstance(piece, Marker)]
    trial = random.Random(0)  # a dry run reads every roll first, so a bad one refuses the post before any is made
    for marker in markers:
        roll_marker(marker, trial, actions)
    return pieces, [roll_marker(marker, rng, actions) for marker in markers]


def render(pieces: list[str | Marker], shown: dict[int, str]) -> str:
    """The post's words with each roll (by its place among the markers) replaced by what it showed."""
    out = []
    index = 0
    for piece in pieces:
        if isinstance(piece, Marker):
            out.append(shown.get(index, piece.written))
            index += 1
        else:
            out.append(piece)
    return "".join(out)
