"""The contract between the table service and a ruleset.

A ruleset is pure game logic: it receives a :class:`Table` (the channel's state,
its characters, who is acting, the RNG and the book) and returns an
:class:`Outcome` (what to show, what to log, structured data). It never does I/O;
the table service in ``bot/`` loads and saves around it.
"""

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.text import DESCRIPTION, EMBED_TOTAL, FIELD_NAME, FIELD_VALUE, FIELDS, FOOTER, TITLE, clip, listing


class RuleError(Exception):
    """Bad input or an impossible move. The message says what was wrong and what would work.

    Shown to the user ephemerally; the action changes nothing.
    """


class NeedsGMError(RuleError):
    """The action is reserved for the campaign's GMs."""

    def __init__(self, what: str = "This") -> None:
        super().__init__(
            f"{what} needs the GM. Ask a GM of this campaign, or have a GM add you with `/campaign gm add`."
        )


class NoCharacterNamedError(RuleError):
    """The actor named no character and has not exactly one: a list of characters to pick from answers it."""


def quoted(text: str, limit: int = 80) -> str:
    """User input echoed in a message, clipped: an error must never outgrow Discord's 2,000 characters."""
    return repr(clip(text, limit))


class Model(BaseModel):
    """Base for every rules model: strict about unknown keys so typos fail loudly."""

    # defer_build: a model's validator is built on its first use, not at import; start-up imports ~430 models
    # and the first reply needs a handful of them (issue 23: start-up to the first console reply <= 0.8 s)
    model_config = ConfigDict(extra="forbid", validate_assignment=True, defer_build=True)


class HouseRules(Model):
    """A ruleset's house-rule settings (its ``settings_model``).

    ``retired`` names keys an older version stored that mean nothing now (a house rule that became the
    campaign's play-by-post setting, say): a campaign saved with one still loads, without it, and setting
    one is refused like any unknown key.
    """

    retired: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="before")
    @classmethod
    def _drop_retired(cls, data: Any) -> Any:
        if cls.retired and isinstance(data, dict) and any(key in data for key in cls.retired):
            return {key: value for key, value in data.items() if key not in cls.retired}
        return data


class Upload:
    """Marks a text option that Discord takes as an attached file: ``Annotated[str | None, Upload()]``.

    The command arrives with the file's text (UTF-8), so a rule reads it like any string; the console
    takes a path. ``max_bytes`` bounds what is read.
    """

    def __init__(self, max_bytes: int = 512_000, too_large: str = "Split it into parts.") -> None:
        self.max_bytes = max_bytes
        self.too_large = too_large  # what to do about a file over the limit, in the refusal


def pasted_or_file(text: str | None, file: str | None, what: str) -> str:
    """The one source of an import: pasted into ``text``, or attached as ``file``."""
    if (text is None) == (file is None):
        raise RuleError(f"Give {what} either pasted in `text:` or attached as `file:`, not both and not neither.")
    return text if text is not None else file  # type: ignore[return-value]


# ---------------------------------------------------------------- presentation


Tone = Literal["neutral", "success", "failure", "critical_success", "critical_failure", "warning", "secret"]


class CardField(Model):
    name: str
    value: str
    inline: bool = False


class Card(Model):
    """What a person reads: rendered as an embed, console text or JSON in the same words."""

    title: str
    description: str = ""
    fields: list[CardField] = Field(default_factory=list)
    footer: str = ""
    tone: Tone = "neutral"

    def add(self, name: str, value: str, inline: bool = False) -> "Card":
        self.fields.append(CardField(name=name, value=value, inline=inline))
        return self


NOTHING = "—"  # a field with nothing to show says so
BLANK = "\u200b"  # a field name or value Discord would refuse as empty: a zero-width space, as the renderer gives it
DESCRIPTION_FLOOR = 200  # fitting a card shortens the description no further than this...
VALUE_FLOOR = 100  # ...and a field's value no further than this, before it drops trailing fields


def card_size(card: Card) -> int:
    """What Discord counts toward an embed's 6,000 characters."""
    return (
        len(card.title)
        + len(card.description)
        + len(card.footer)
        + sum(len(f.name) + len(f.value) for f in card.fields)
    )


def add_field(card: Card, name: str, value: str | Iterable[str], inline: bool = False) -> Card:
    """Add a field within Discord's limits: lines listed with "… and N more", name and value clipped (a blank one
    reads "—"); past the 25th field the rest is folded into the last one."""
    text = value if isinstance(value, str) else listing(value)
    if len(card.fields) >= FIELDS:
        last = card.fields[-1]
        last.value = clip(f"{last.value}\n**{name}**: {text}".strip() or NOTHING)
        return card
    return card.add(clip(name.strip() or NOTHING, FIELD_NAME), clip(text.strip() or NOTHING), inline)


def fit(card: Card, total: int = EMBED_TOTAL) -> Card:
    """The card within Discord's embed limits, whatever went into it; every cut ends in "…".

    Each part is clipped to its own limit and fields past the 25th are folded into the 25th. Then, while the
    whole is over ``total``, the longest text (the description or a field's value) gives way, down to its floor;
    if everything is at its floor, trailing fields go, and last the description.
    """
    card.title = clip(card.title.strip(), TITLE)
    card.description = clip(card.description.strip(), DESCRIPTION)
    card.footer = clip(card.footer.strip(), FOOTER)
    if len(card.fields) > FIELDS:
        card.fields[FIELDS - 1].value += "".join(f"\n**{f.name}**: {f.value}" for f in card.fields[FIELDS:])
        del card.fields[FIELDS:]
    for item in card.fields:
        item.name = clip(item.name.strip() or BLANK, FIELD_NAME)
        item.value = clip(item.value.strip() or BLANK, FIELD_VALUE)
    while (excess := card_size(card) - total) > 0:
        room, longest = max(
            [
                (len(card.description) - DESCRIPTION_FLOOR, None),
                *((len(f.value) - VALUE_FLOOR, f) for f in card.fields),
            ],
            key=lambda pair: pair[0],
        )
        if room <= 0:
            break
        if longest is None:
            card.description = clip(card.description, max(DESCRIPTION_FLOOR, len(card.description) - excess))
        else:
            longest.value = clip(longest.value, max(VALUE_FLOOR, len(longest.value) - excess))
    while card_size(card) > total and card.fields:
        card.fields.pop()
    if (excess := card_size(card) - total) > 0:
        card.description = clip(card.description, max(1, len(card.description) - excess))
    return card


class Chart(Model):
    """A bar chart of chances for the bot to draw beside a card: rules say what to show, never how to draw it."""

    title: str
    bars: list[tuple[str, float]]  # (label, chance from 0 to 1), in the order to show them
    highlight: list[str] = Field(default_factory=list)  # labels drawn in the warning color (a Calamity's worst)
    x_label: str = ""


class Outcome(Model):
    """The result of one action.

    ``summary`` is the one-line log entry every member may read; ``data`` is the
    structured result the actor sees (the console prints it under ``--json``; keys
    in docs/console.md). What only the GM may know goes in the ``secret`` fields:
    ``secret`` is the card sent to the GM (GM channel or DM), and ``secret_summary``
    and ``secret_data`` are the GM's side of the log entry. They never reach the
    channel, the actor, or a player's view of the log. A ``"gm"`` key at any depth
    of ``data`` is GM-only too: it is moved to ``secret_data`` at the same path.

    What only the character's owner and the GMs may know goes in the ``private`` fields (see "Secrecy"
    below): ``private`` is the card the actor sees, ephemerally, beside the public one; ``private_summary``
    and ``private_data`` are the owner's side of the log entry. A ``"private"`` key at any depth of ``data``
    is moved to ``private_data`` the same way. The service keeps what an action declares private or
    secret out of the public ``card``, ``summary`` and ``data`` (``bot/table/secrecy.py``).
    """

    card: Card
    summary: str
    data: dict[str, Any] = Field(default_factory=dict)
    secret: Card | None = None
    secret_summary: str | None = None
    secret_data: dict[str, Any] = Field(default_factory=dict)
    private: Card | None = None  # the owner's and GMs' card: the actor sees it, ephemerally
    private_summary: str | None = None
    private_data: dict[str, Any] = Field(default_factory=dict)
    ephemeral: bool = False
    chart: Chart | None = None  # drawn as a PNG beside the card, off the event loop

    @model_validator(mode="after")
    def _gm_keys_are_secret(self) -> "Outcome":
        gm, private = _pop_marked(self.data)
        if gm:
            _merge(self.secret_data, gm)
        if private:
            _merge(self.private_data, private)
        if self.private_data:
            moved = _pop_gm_keys(self.private_data)
            if moved:
                _merge(self.secret_data, moved)
        return self

    @property
    def has_secret(self) -> bool:
        return self.secret is not None or self.secret_summary is not None or bool(self.secret_data)

    @property
    def has_private(self) -> bool:
        return self.private is not None or self.private_summary is not None or bool(self.private_data)

    def logged_result(self, readers: Iterable[int] = ()) -> dict[str, Any]:
        """What the event log stores: the public data, the GM's side under ``"secret"``, and the owner's side
        under ``"private"`` with the ``readers`` (user ids) who may read it besides the campaign's GMs."""
        logged = self.data
        if self.secret_summary or self.secret_data:
            logged = {**logged, "secret": {"summary": self.secret_summary, "data": self.secret_data}}
        if self.private_summary or self.private_data:
            private = {"summary": self.private_summary, "data": self.private_data, "readers": sorted(set(readers))}
            logged = {**logged, "private": private}
        return logged

    def kept_secret(self, what: str) -> "Outcome":
        """This result made secret as a whole: the channel learns only that ``what`` was made, and by whom."""
        return Outcome(
            card=Card(title=f"Secret {what}", tone="secret"),
            summary=f"made a secret {what}",
            data={"secret": True},
            secret=self.card.model_copy(update={"tone": "secret", "title": f"Secret: {self.card.title}"}),
            secret_summary=self.summary,
            secret_data=self.data,
            ephemeral=True,
        )


def _pop_gm_keys(value: Any, name: str = "gm") -> Any:
    """Remove every ``name`` entry below ``value``; return them nested at their paths (list indexes as keys)."""
    found: dict[str, Any] = {}
    if isinstance(value, dict):
        if name in value:
            found[name] = value.pop(name)
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return found
    for key, child in items:
        if isinstance(child, dict | list):
            inner = _pop_gm_keys(child, name)
            if inner:
                found[str(key)] = inner
    return found


def _pop_marked(value: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`_pop_gm_keys` for ``"gm"`` and then ``"private"`` in one walk (every result is walked: keep it one):
    a ``"private"`` inside a ``"gm"`` stays in the GM's part, a ``"gm"`` inside a ``"private"`` goes with it."""
    gm: dict[str, Any] = {}
    private: dict[str, Any] = {}
    if isinstance(value, dict):
        if "gm" in value:
            gm["gm"] = value.pop("gm")
        if "private" in value:
            private["private"] = value.pop("private")
        items: Iterable[tuple[Any, Any]] = value.items()
    else:  # a list: the caller only descends into dicts and lists
        items = enumerate(value)
    for key, child in items:
        if isinstance(child, dict | list):
            inner_gm, inner_private = _pop_marked(child)
            if inner_gm:
                gm[str(key)] = inner_gm
            if inner_private:
                private[str(key)] = inner_private
    return gm, private


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


# ---------------------------------------------------------------- lookup


class LookupEntry(Model):
    """One entry of ``/lookup``: a table row, a rule or a glossary term."""

    ruleset: str | None  # None for tables shared by every ruleset (dice)
    category: str  # "calamity", "word", "glossary", ...
    key: str  # "17", "Tym", "Pierce"
    title: str
    body: str  # Markdown; long bodies are paginated by the renderer
    aliases: list[str] = Field(default_factory=list)

    @property
    def search_text(self) -> str:
        return f"{self.category} {self.key}"


# ---------------------------------------------------------------- the table an action sees


class Actor(Model):
    """Who acts. Frozen: the table service hands one Actor to every action of the same caller (issue 23)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    user_id: int
    name: str
    is_gm: bool = False


class CharacterRecord(Model):
    """A character as the table service stores it; ``sheet`` is the ruleset's own model."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)

    id: int | None = None
    owner_id: int
    name: str
    sheet: Any  # validated by the ruleset's sheet model
    pronouns: str = "they"  # how player text speaks of the character (stored beside the sheet: see SHEET_PRONOUNS)


@dataclass
class Table:
    """Everything one action may read and change. The service persists what changed.

    Mutate ``state`` and the characters in place, or call :meth:`add_character`
    and :meth:`remove_character`; the service saves it all in one transaction,
    or nothing if the action raises.
    """

    ruleset_id: str
    campaign_name: str
    actor: Actor
    rng: Random
    book: Any
    settings: Any
    state: Any
    characters: dict[str, CharacterRecord]  # keyed by casefolded name
    now: str = ""  # UTC ISO time of the action, from the service: rules never read a clock themselves
    added: list[CharacterRecord] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    # -- permissions -------------------------------------------------------
    def require_gm(self, what: str = "This") -> None:
        if not self.actor.is_gm:
            raise NeedsGMError(what)

    # -- characters --------------------------------------------------------
    def find_character(self, name: str) -> CharacterRecord:
        name = " ".join(name.split())
        record = self.characters.get(name.casefold())
        if record is None:
            known = ", ".join(sorted(c.name for c in self.characters.values())) or "none yet"
            raise RuleError(f"There is no character named {quoted(name)} in this campaign. Characters here: {known}.")
        return record

    def own_character(self, name: str) -> CharacterRecord:
        """A character the actor may change: their own, or any if they are a GM."""
        record = self.find_character(name)
        if record.owner_id != self.actor.user_id and not self.actor.is_gm:
            raise RuleError(f"{record.name} belongs to another player. You can only act through your own characters.")
        return record

    def characters_of(self, user_id: int) -> list[CharacterRecord]:
        return [c for c in self.characters.values() if c.owner_id == user_id]

    def default_character(self, name: str | None) -> CharacterRecord:
        """The named character, or the actor's only one when no name is given."""
        if name:
            return self.own_character(name)
        mine = self.characters_of(self.actor.user_id)
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise NoCharacterNamedError("You have no character in this campaign yet. Create one first.")
        names = ", ".join(sorted(c.name for c in mine))
        raise NoCharacterNamedError(f"You have several characters ({names}); name the one to use.")

    def add_character(self, owner_id: int, name: str, sheet: Any) -> CharacterRecord:
        name = " ".join(name.split())
        if not name:
            raise RuleError("A character needs a name.")
        if name.casefold() in self.characters:
            raise RuleError(f"A character named {quoted(name)} already exists here. Pick another name.")
        record = CharacterRecord(owner_id=owner_id, name=name, sheet=sheet)
        self.characters[name.casefold()] = record
        self.added.append(record)
        return record

    def remove_character(self, name: str) -> CharacterRecord:
        record = self.own_character(name)
        del self.characters[record.name.casefold()]
        self.removed.append(record.name)
        return record

    # -- how player text speaks of a character (its pronouns: see Pronouns) ---------------------------
    # ``who`` is a character, or a name (a monster, a native: not a character here, so "they"/"them"/"their");
    # ``capital`` for a sentence's start. Verbs after "they" agree with ``pronouns_of(who).plural``.
    def pronouns_of(self, who: CharacterRecord | str) -> "Pronouns":
        record = who if isinstance(who, CharacterRecord) else self.characters.get(" ".join(who.split()).casefold())
        return Pronouns.of(record.pronouns if record is not None else None)

    def they(self, who: CharacterRecord | str, *, capital: bool = False) -> str:
        """The subject: "they", "she", "he", "it", "xe"."""
        return _capital(self.pronouns_of(who).subject, capital)

    def them(self, who: CharacterRecord | str, *, capital: bool = False) -> str:
        """The object: "them", "her", "him", "it", "xem"."""
        return _capital(self.pronouns_of(who).object, capital)

    def their(self, who: CharacterRecord | str, *, capital: bool = False) -> str:
        """The possessive: "their", "her", "his", "its"; a set without one reads "<name>'s"."""
        name = who.name if isinstance(who, CharacterRecord) else who
        return _capital(self.pronouns_of(who).possessive or f"{name}'s", capital)


def _capital(word: str, capital: bool) -> str:
    return word[:1].upper() + word[1:] if capital else word


# ---------------------------------------------------------------- secrecy: who may know what
#
# Two audiences besides everyone: "private" (the character's owner and the campaign's GMs) and "secret" (the
# GMs alone). A ruleset declares what is private or secret once; the table service (bot/table/secrecy.py)
# enforces it on every result and every read path, so an action that forgets cannot publish it:
#
# - an Action's ``secrecy`` names the options whose values are private or secret, or says when the whole result
#   is (a predicate on the options). The service keeps each such value out of the public card, summary and data:
#   if one is there anyway, the whole result is kept private (or secret) rather than published.
# - a Ruleset's ``private_fields`` name the parts of a character sheet that are private or secret. Other players
#   never see them (``/character show`` and the ruleset's own views are filtered by the reader); a value an
#   action adds to one of them is kept out of that action's public parts as a declared option's is.
# - the log stores the private side beside the GM's side, readable by the owner and the GMs of the moment (a GM
#   removed from the campaign reads only what any player reads).

Audience = Literal["private", "secret"]


def always(_: Any) -> bool:
    """A ``private_when``/``secret_when`` that always holds: every result of the action is private (or secret)."""
    return True


@dataclass(frozen=True)
class Secrecy:
    """What of one action's result only the owner and the GMs (private), or only the GMs (secret), may know.

    ``private_options``/``secret_options``: options whose values never reach the public side (a comma-separated
    list counts item by item). ``private_when``/``secret_when``: when true of the validated options, the whole
    result is private (or secret): the channel and the log's public side learn only that the actor did it.
    """

    private_options: frozenset[str] = frozenset()
    secret_options: frozenset[str] = frozenset()
    private_when: Callable[[Any], bool] | None = None
    secret_when: Callable[[Any], bool] | None = None

    def whole(self, options: Any) -> Audience | None:
        """The audience the whole result is kept for with these options, if the declaration says so."""
        if self.secret_when is not None and self.secret_when(options):
            return "secret"
        if self.private_when is not None and self.private_when(options):
            return "private"
        return None

    def words(self, options: Any, audience: Audience) -> set[str]:
        """The declared options' values, as words that must not reach a less trusted audience."""
        names = self.private_options if audience == "private" else self.secret_options
        found: set[str] = set()
        for name in names:
            found |= option_words(getattr(options, name, None))
        return found

    def __bool__(self) -> bool:
        return bool(self.private_options or self.secret_options or self.private_when or self.secret_when)


NO_SECRECY = Secrecy()


def option_words(value: Any) -> set[str]:
    """The words an option's value stands for: itself, and each item of a comma-separated list."""
    if isinstance(value, str):
        items = [value, *value.split(",")]
    elif isinstance(value, list | tuple | set | frozenset):
        items = [item for item in value if isinstance(item, str)]
    else:
        return set()
    return {" ".join(item.split()) for item in items if len(item.strip()) >= MIN_WORD}


MIN_WORD = 2  # shorter values are not searched for: they would match everywhere


@dataclass(frozen=True)
class PrivateField:
    """A part of a character sheet that only its owner and the GMs (``private``), or only the GMs (``secret``),
    may see. ``path`` is dotted into the sheet as JSON, ``*`` standing for every item of a list or every value
    of a dict: ``"connections"``, ``"stones.*.holder"``, ``"contingency"``. ``words`` says where the telling
    text is below each value found (searched for in public text): ``""`` the value itself (a dict's keys, a
    list's strings), or a sub-path such as ``"name"``; numbers and flags have none and are only hidden."""

    path: str
    words: str = ""
    audience: Audience = "private"


def field_values(node: Any, path: str) -> list[Any]:
    """The values found at a dotted ``path`` (``*``: every item or value) below ``node``."""
    found = [node]
    for part in path.split(".") if path else []:
        step: list[Any] = []
        for value in found:
            if part == "*":
                step.extend(value.values() if isinstance(value, dict) else value if isinstance(value, list) else [])
            elif isinstance(value, dict) and part in value:
                step.append(value[part])
        found = step
    return found


def field_words(sheet: dict[str, Any], fields: Iterable[PrivateField]) -> dict[str, str]:
    """Each telling word of these fields in a sheet (as JSON), casefolded, with a fingerprint of what it names:
    a word whose fingerprint changed was touched by the action."""
    words: dict[str, str] = {}
    for spec in fields:
        for value in field_values(sheet, spec.path):
            if spec.words:
                for word in field_values(value, spec.words):
                    if isinstance(word, str):
                        words[word.casefold()] = json.dumps(value, sort_keys=True, default=str)
            elif isinstance(value, str):
                words[value.casefold()] = value
            elif isinstance(value, dict):
                for key, inner in value.items():
                    words[str(key).casefold()] = json.dumps(inner, sort_keys=True, default=str)
            elif isinstance(value, list):
                words.update((item.casefold(), item) for item in value if isinstance(item, str))
    return {word: mark for word, mark in words.items() if len(word.strip()) >= MIN_WORD}


def hide_fields(sheet: dict[str, Any], fields: Iterable[PrivateField]) -> dict[str, Any]:
    """A copy of a sheet (as JSON) with these fields set to null, as a reader who may not see them gets it."""
    hidden = json.loads(json.dumps(sheet, default=str))
    for spec in fields:
        *parents, last = spec.path.split(".")
        for parent in field_values(hidden, ".".join(parents)):
            if last == "*":
                keys = (
                    list(parent) if isinstance(parent, dict) else range(len(parent)) if isinstance(parent, list) else []
                )
                for key in keys:
                    parent[key] = None
            elif isinstance(parent, dict) and last in parent:
                parent[last] = None
    return hidden


@dataclass(frozen=True)
class SecretsCase:
    """A script for the secrets sweep (``tests/contract/test_secrets.py``): every action with a private or
    secret part, played at a fresh table. ``setup`` is played first (a player's steps as the player, ``as_gm``
    ones as the GM); then ``steps``. ``markers`` are the distinctive strings the steps make private or secret
    (each a value of a declared option or field): the sweep reads every view as another player, a
    non-member and a removed GM, and finds none of them. ``unmarked`` says why a declared value the steps type is
    no marker, when it is public in itself and only its place is secret (a prepared spell's title is on the Codex
    everyone reads); the service still keeps it off the action's public side."""

    setup: "tuple[BenchStep, ...]"
    steps: "tuple[BenchStep, ...]"
    markers: tuple[str, ...]
    unmarked: str = ""


# ---------------------------------------------------------------- rulesets


@dataclass(frozen=True)
class Action:
    """One thing a player or GM can do. ``run(table, options) -> Outcome``."""

    name: str
    run: Callable[[Table, Any], Outcome]
    options: type[BaseModel]
    gm_only: bool = False
    secrecy: Secrecy = NO_SECRECY  # what of its result is private or secret (see "Secrecy")
    description: str = ""
    undo: bool = False  # the service's exact undo of the newest change, which must be this ruleset's (run unused)
    logged: bool = True  # False for pure reads (show, board): they reach the log only if they changed something
    example: str = ""  # /help's example options when the required ones alone would be refused: "item:<item>"
    # A question to answer before the action runs, in this state with these options (None: run it). Pure: it reads
    # the table, and says in a player's words what the action would do that its caller may not expect ("This ends
    # round 2 for White and Black, who still have actions."). The options model then has ``confirm: bool = False``
    # (``Confirmable``): the service refuses to run while the question stands and ``confirm`` is false, the adapter
    # shows the question with Confirm and Cancel, and Confirm runs the same command with ``confirm:true`` (typing
    # ``confirm:true`` answers it in advance).
    confirm: Callable[[Table, Any], str | None] | None = None


class Confirmable(Model):
    """Options of an action that may ask first (:attr:`Action.confirm`): ``confirm:true`` answers the question."""

    confirm: bool = Field(default=False, description="Go ahead without asking first")


class OnDeadline(Model):
    """What the table does when a wait's deadline passes: a ruleset action, run as the GM."""

    action: str  # e.g. "battle close-window"
    options: dict[str, Any] = Field(default_factory=dict)
    says: str = ""  # why, in a player's words: "nobody responded in time, so the window closed as a pass"


class Wait(Model):
    """Someone the table now waits on, and for what: play-by-post pings, reminders and deadlines come from these.

    ``key`` names the wait across actions ("window 12: White"), so a wait that goes on is not a new one and
    pings nobody again. ``user_id`` is None when the table waits on the GMs. ``kind`` picks the campaign's
    deadline setting (``response_window`` for "response", ``turn_deadline`` for "turn"; "gm" has none).
    """

    key: str
    user_id: int | None
    who: str  # a character's name, or "GM"
    what: str  # "respond to Purge the Light, or pass"
    commands: list[str] = Field(default_factory=list)  # what would satisfy it: ["/serpent respond", "/serpent pass"]
    kind: Literal["response", "turn", "gm"] = "turn"
    on_deadline: OnDeadline | None = None  # None: the service applies the campaign's own rule for its kind


# ---------------------------------------------------------------- standing orders (play-by-post)


@dataclass(frozen=True)
class OrderOffer:
    """A standing order a ruleset offers its players: what to do, as them, when a deadline passes while they are away.

    ``option`` names the one free-text option the order takes ("cards", "chit"), "" for none; ``option_help`` says
    in plain words what to write there; with ``option_required`` the order cannot be set without it.
    """

    name: str  # "pass", "end-turns"
    description: str  # "Pass every response window left waiting on me at its deadline"
    option: str = ""
    option_help: str = ""
    option_required: bool = False


class StandingOrder(Model):
    """One player's standing order in one campaign, as stored: the offer's name and the option's text."""

    order: str
    option: str = ""


class OrderRun(Model):
    """What a standing order does at a wait's deadline: ``action`` run as the player, with ``options``.

    ``action`` None means the order is to let the wait go by (let spells lapse): nothing runs, the wait ends for
    now without the GM deciding, and ``says`` tells the player so. ``says`` is in a player's words, without the
    name of the order: "White passes", "Merlin keeps Shield up".
    """

    action: str | None
    options: dict[str, Any] = Field(default_factory=dict)
    says: str = ""


@dataclass(frozen=True)
class BenchStep:
    """One command of a benchmark case, as the GM or as a player would send it."""

    action: str
    options: dict[str, Any] = field(default_factory=dict)
    as_gm: bool = False


@dataclass(frozen=True)
class BenchCase:
    """A ruleset's heaviest action and the table it needs, for ``python -m bot.bench``.

    The bench plays ``setup`` once, then times ``measured`` through the real table
    service again and again, undoing it between runs so every run meets the same table.
    """

    title: str
    setup: tuple[BenchStep, ...]
    measured: BenchStep


# ================================================================ the contract's declarations
#
# What a ruleset contributes besides its actions, each declared on the Ruleset (``Contributions`` below) and only
# read by the rest of Magister: the buttons and selects a reply carries, the live board and its picture, the
# option that names a character, help examples and a first session, and how player text speaks of a character.
# All of it is pure data: the Discord adapter (bot/adapter/views.py) turns reply items into lasting components,
# bot/adapter/charts.py draws a picture, the table service keeps pronouns beside the sheet.


@dataclass(frozen=True)
class Pronouns:
    """How player text speaks of one character. ``of("she/her")``; free text reads ``subject/object[/possessive]``.

    Known sets: they/them/their (plural verbs), she/her/her, he/him/his, it/it/its. Anything else is the
    player's own ("xe/xem/xyr"); without a possessive, :meth:`Table.their` says "<name>'s".
    """

    subject: str
    object: str
    possessive: str | None
    plural: bool = False

    KNOWN: ClassVar[dict[str, tuple[str, str, str, bool]]] = {
        "they": ("they", "them", "their", True),
        "she": ("she", "her", "her", False),
        "he": ("he", "him", "his", False),
        "it": ("it", "it", "its", False),
    }
    DEFAULT: ClassVar[str] = "they"

    @classmethod
    def of(cls, text: str | None) -> "Pronouns":
        parts = [part.strip() for part in (text or cls.DEFAULT).casefold().split("/") if part.strip()]
        if not parts:
            parts = [cls.DEFAULT]
        if parts[0] in cls.KNOWN:
            return cls(*cls.KNOWN[parts[0]])
        return cls(parts[0], parts[1] if len(parts) > 1 else parts[0], parts[2] if len(parts) > 2 else None)

    @classmethod
    def parse(cls, text: str) -> str:
        """A player's pronouns as stored: "they", "she", "he", "it", or free text checked ("xe/xem/xyr")."""
        words = "/".join(part.strip() for part in " ".join(text.split()).casefold().split("/") if part.strip())
        if not words or len(words) > 30 or len(words.split("/")) > 3:
            raise RuleError('Give pronouns as "they", "she", "he", "it", or your own as "xe/xem/xyr" (30 letters).')
        if not all(part.replace("'", "").replace("-", "").isalpha() for part in words.split("/")):
            raise RuleError(f"Pronouns are words and slashes, like they/them or xe/xem/xyr; not {quoted(text)}.")
        first = words.split("/")[0]
        return first if first in cls.KNOWN else words

    @property
    def shown(self) -> str:
        """As a player would write them: "they/them", "she/her", "he/him", "it/its", "xe/xem/xyr"."""
        if self.subject in self.KNOWN:
            return f"{self.subject}/{self.possessive if self.subject == 'it' else self.object}"
        return "/".join(part for part in (self.subject, self.object, self.possessive) if part)


SHEET_PRONOUNS = "_pronouns"  # the reserved key beside a sheet's own fields in its stored JSON (no field starts "_")


def sheet_parts(stored: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A stored sheet's JSON split into the ruleset's own sheet and the character's pronouns."""
    if SHEET_PRONOUNS not in stored:
        return stored, Pronouns.DEFAULT
    sheet = dict(stored)
    return sheet, str(sheet.pop(SHEET_PRONOUNS) or Pronouns.DEFAULT)


def stored_sheet(sheet: dict[str, Any], pronouns: str) -> dict[str, Any]:
    """The JSON to store: the ruleset's sheet, and the pronouns when they are not the default."""
    return sheet if pronouns == Pronouns.DEFAULT else {**sheet, SHEET_PRONOUNS: pronouns}


@dataclass(frozen=True)
class Replied:
    """What a reply answers, for :meth:`Contributions.reply_items`: the outcome, who ran it (0: a message nobody asked
    for, such as a timer's, or a button anyone may press) and whether they are a GM of the campaign."""

    outcome: Outcome
    user_id: int = 0
    is_gm: bool = False

    @property
    def data(self) -> dict[str, Any]:
        return self.outcome.data


@dataclass(frozen=True)
class RunButton:
    """A button that runs ``action`` with no options, as whoever presses it (saga's **Next step**).

    Only whoever ran the command may press it (anyone, on a message nobody asked for); with ``anyone``, anyone
    may (serpent's **Pass**: the rules then act for the presser, and refuse who has no part in the wait).
    """

    action: str
    label: str
    anyone: bool = False


@dataclass(frozen=True)
class OfferButton:
    """A button that shows whoever presses it, only to them, their own choices for ``option`` of ``action`` (the
    ruleset's :meth:`suggest`); with ``then``, a pick offers a second list for that option (a spell, then a target)."""

    action: str
    option: str
    label: str
    then: str | None = None


@dataclass(frozen=True)
class RespondButton:
    """**Respond** to response window ``window``: the presser's own Responses (``respond spell:``), only to them."""

    window: int


@dataclass(frozen=True)
class PictureButton:
    """**Picture**: the board drawn as a PNG (:meth:`Contributions.picture`), for whoever asks. Not on timer posts."""


@dataclass(frozen=True)
class OptionSelect:
    """A list for whoever ran the command (owner-only; dropped when nobody asked): picking one runs ``action`` with
    ``option`` set to it, and ``fixed`` (an option kept as it was: ``("mage", "Merlin")``). At most 25 choices."""

    action: str
    option: str
    choices: tuple[str, ...]
    placeholder: str = "Pick…"
    fixed: tuple[str, str] | None = None


@dataclass(frozen=True)
class RunOptionsButton:
    """A button that runs ``steps`` in order, each an action with exactly these options (text, as typed), as
    whoever presses it: the rules then refuse anyone they would refuse typing it (the planner's **Cast plan 1**
    names the mage, so only its owner or a GM casts). Dropped when its id would be too long for Discord."""

    label: str
    steps: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


ReplyItem = RunButton | OfferButton | RespondButton | PictureButton | OptionSelect | RunOptionsButton


@dataclass
class Combatant:
    """One side's being as everyone at the table may see it: no card a player holds is named."""

    name: str
    team: str
    essence: int  # life
    max_essence: int
    resonance: int  # energy
    hand: int | None  # prepared spells: how many, never which (None: not a Magus)
    actions: str = ""  # "1/2 Full Actions"
    extra: str = ""  # Will, Voice, Harmony...
    status: str = ""  # "TURN", "passed", "down"


@dataclass
class BattlePicture:
    """The board as a picture (:meth:`Contributions.picture`): rules say what to show, bot/adapter/charts.py draws."""

    title: str
    subtitle: str = ""
    beings: list[Combatant] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    manifesting: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PageList:
    """One of a ruleset's own lists on the campaign's web page (:meth:`Contributions.page_lists`): the spells in
    effect, a Codex, the cards, the rotes. Plain data: a title, the columns' headings and the rows (each row a
    cell per column, as text a person reads). ``empty`` is what the page says when there are no rows."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...] = ()
    empty: str = "None yet."
    note: str = ""


SHARED_ROLLS = ("check", "pool")  # the system rolls an inline action may stand for (``/check``, ``/pool``)


@dataclass(frozen=True)
class InlineAction:
    """A word a player may roll inside a post (``/say``): ``[[check 12]]`` stands for ``/check skill:12``.

    ``command`` is the shared system roll it stands for (one of :data:`SHARED_ROLLS`); ``options`` name that
    command's options, filled in order by the whole numbers after the word (``[[check 12 -2]]``: skill 12, modifier
    -2). The roll is made, shown, logged and kept secret exactly as that command's. ``example`` is what a player
    types, shown in help and in errors."""

    word: str
    command: str
    options: tuple[str, ...]
    example: str

    def __post_init__(self) -> None:
        if self.command not in SHARED_ROLLS:
            raise ValueError(f"an inline action stands for one of {SHARED_ROLLS}, not {self.command!r}")
        if not self.word.isalpha() or self.word != self.word.lower() or self.word in ("secret", "roll"):
            raise ValueError(f"an inline word is lower-case letters other than secret and roll, not {self.word!r}")


class Contributions:
    """What a ruleset declares besides its models and actions; :class:`Ruleset` inherits it. Read-only elsewhere."""

    # the read-only action whose card is the live board (``/campaign board``) and the table timers answer;
    # None: the ruleset's :meth:`Ruleset.board` hook, or no board
    board_action: ClassVar[str | None] = None
    # the option that names the acting character ("mage", "magi"): pickers offer your characters for it, and a
    # command left without one offers them in a list; None: the ruleset has no characters (saga: solo play)
    character_option: ClassVar[str | None] = "character"
    # action name -> the example a user would type, shown by ``/help command:"<id> <action>"`` instead of one
    # generated from the options (which may not run: a made-up name)
    help_examples: ClassVar[dict[str, str]] = {}
    # a first session as a console script (docs/console.md): ``@as NAME``, ``@gm``, slash commands, ``@press LABEL``,
    # ``@wait 2h``; every line runs in a fresh campaign, and it holds every help example. Empty: none written yet
    first_session: ClassVar[tuple[str, ...]] = ()
    # the ruleset's own rolls inside a post (``/say``): ``[[check 12]]`` for 3d6 systems, ``[[pool 6]]`` for d10
    # pools. Dice expressions (``[[3d6+2]]``) work in every ruleset; empty: only those
    inline_actions: ClassVar[tuple[InlineAction, ...]] = ()

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """The buttons and selects a reply carries (what the table now waits for, one press away). Pure.

        The adapter makes each a lasting component; it drops :class:`OptionSelect` when nobody asked
        (``replied.user_id == 0``) and :class:`PictureButton` from timer posts. The default: none.
        """
        return []

    def page_lists(self, table: Table) -> list[PageList]:
        """The ruleset's own lists for the campaign's web page (docs/web.md), read from the table as ``table.actor``
        (the page's reader: a player, or a GM with ``is_gm``) may see it. Pure. The page passes them through the
        same secrecy as every view (``private_fields``), so a list may name what the sheets hold. Default: none.
        """
        return []

    def picture(self, table: Table) -> BattlePicture | None:
        """The board as a picture, from the table as any player may see it; None: this ruleset draws none.

        Raise :class:`RuleError` when there is nothing to draw now (no battle).
        """
        return None

    @property
    def draws_picture(self) -> bool:
        """Whether this ruleset draws its board (it overrides :meth:`picture`): its board carries **Picture**."""
        return type(self).picture is not Contributions.picture


class Ruleset(Contributions):
    """What a ruleset declares. Subclass it in ``rules/<id>/__init__.py`` as ``RULESET``.

    ``book_model`` validates the merged contents of ``data/<id>/*.toml``, one
    top-level key per file stem; the loaded book is handed to every action.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    sheet_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[BaseModel]]
    settings_model: ClassVar[type[BaseModel]]
    book_model: ClassVar[type[BaseModel] | None] = None
    actions: ClassVar[dict[str, Action]] = {}
    # the first commands of a campaign, for /help and its start: each command a step shows (in backticks) is a line
    # of ``first_session``, with the same options, in the session's order, so the card runs as written
    getting_started: ClassVar[tuple[str, ...]] = ()
    private_fields: ClassVar[tuple[PrivateField, ...]] = ()  # sheet parts only the owner (and GMs) see: "Secrecy"

    def waits(self, table: Table) -> list[Wait]:
        """Who the table waits on now, and for what, read from the state after an action. Pure: no I/O.

        The service compares these with the waits before the action, stores them with their deadlines in
        the same transaction, and pings exactly the users of the new ones. The default: nobody.
        """
        return []

    # the standing orders a player may leave for when a deadline passes while they are away (``/orders set``)
    orders: ClassVar[tuple[OrderOffer, ...]] = ()

    def order_choices(self, table: Table, order: str, current: str) -> list[str]:
        """Autocomplete for the option of standing order ``order`` (the cards in hand, the chits), for
        ``table.actor``. Pure. The default: none."""
        return []

    def check_order(self, table: Table, order: StandingOrder) -> StandingOrder:
        """Refuse (:class:`RuleError`, saying what would work) an order ``table.actor`` cannot give in this campaign,
        or return it tidied (names as the book spells them). The service has already checked that the order is
        offered and that a required option is given. Pure. The default accepts it."""
        return order

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """What ``order`` does now that ``wait``'s deadline passed, as its player (``table.actor``). Pure.

        None: the order does not cover this kind of wait (the deadline acts as it would with no order). Raise
        :class:`RuleError` saying why when it covers the wait but cannot run now (a card it names left the hand):
        the deadline then acts as it would with no order, and the post says why. The action it names runs through
        the same checks as if the player had typed it, so a refusal there falls back the same way.
        """
        return None

    def board(self, table: Table) -> Card | None:
        """The live board's card (``/campaign board``), as every member may see it; None: no board."""
        return None

    def bench_case(self) -> BenchCase | None:
        """The heaviest action, set up, for the CPU-per-action figures of ``python -m bot.bench``."""
        return None

    def secrets_case(self) -> SecretsCase | None:
        """Every action with a private or secret part, with marker values, for the secrets sweep ("Secrecy")."""
        return None

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        """Every table row and rule ``/lookup`` should find for this ruleset."""
        return ()

    def check_settings(self, settings: Any, book: Any) -> None:
        """Refuse house rules the settings model cannot judge alone (they name book entries, say).

        Raise :class:`RuleError` saying what would work; the default accepts everything.
        """

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        """Autocomplete for a free-text option; override to add spells, Words, targets...

        By default the ruleset's :attr:`character_option` offers the actor's own
        characters (a GM's: everyone's), and ``target`` offers all.
        """
        if option == self.character_option:
            mine = [c.name for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id]
            return sorted(mine)
        if option == "target":
            return sorted(c.name for c in table.characters.values())
        return []

    def character_summary(self, record: CharacterRecord) -> str:
        """One line for ``/character list``."""
        return record.name

    def show_character(self, table: Table, record: CharacterRecord) -> Outcome:
        """``/character show``: the sheet as ``table.actor`` may see it (override to hide GM-only values)."""
        sheet = record.sheet.model_dump(mode="json") if isinstance(record.sheet, BaseModel) else dict(record.sheet)
        return Outcome(
            card=self.character_card(record),
            summary=f"showed {record.name}",
            data={"name": record.name, "owner_id": record.owner_id, "sheet": sheet},
        )

    def character_card(self, record: CharacterRecord) -> Card:
        """The full sheet for ``/character show``."""
        sheet = record.sheet.model_dump() if isinstance(record.sheet, BaseModel) else record.sheet
        card = Card(title=record.name)
        for key, value in sheet.items():
            card.add(key.replace("_", " "), str(value), inline=True)
        return card


def plain_error(error: Any) -> str:
    """One of pydantic's error dicts in plain words (no library text reaches a player): "must be at most 99"."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    plain = {
        "missing": "is needed",
        "extra_forbidden": "is not an option here",
        "bool_parsing": "takes true or false",
        "bool_type": "takes true or false",
        "int_parsing": "takes a whole number",
        "int_type": "takes a whole number",
        "int_from_float": "takes a whole number",
        "float_parsing": "takes a number",
        "string_type": "takes text",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "greater_than": f"must be more than {ctx.get('gt')}",
        "less_than_equal": f"must be at most {ctx.get('le')}",
        "less_than": f"must be less than {ctx.get('lt')}",
        "string_too_short": f"needs at least {ctx.get('min_length')} character(s)",
        "string_too_long": f"takes at most {ctx.get('max_length')} characters",
        "too_long": f"takes at most {ctx.get('max_length')} items",
        "literal_error": f"must be one of: {ctx.get('expected', '').replace(chr(39), '')}",
        "enum": f"must be one of: {ctx.get('expected', '').replace(chr(39), '')}",
    }.get(kind)
    if plain is not None:
        return plain
    message = str(error.get("msg", "is not valid"))
    if message.startswith("Value error, "):  # a rule's own validator already speaks plainly
        return message.removeprefix("Value error, ")
    return f"is not valid ({message[:1].lower()}{message[1:]})"
