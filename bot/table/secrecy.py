"""What is private or secret, enforced for every ruleset: on each result, and on each read path by its reader.

A ruleset declares secrecy once (``rules/base.py``, "Secrecy"): which options of an action, which parts of a
character sheet, are private (the owner's and the GMs') or secret (the GMs'). This module is where the table
service makes that hold, whatever the action wrote:

- :func:`enforce` runs on every result before it is logged or shown. A declared value (an option's, or one the
  action added to a private field of a sheet) found in the public card, summary or data keeps the whole result
  private (or secret): the channel and the log's public side learn only that the actor did something private.
  It also says who besides the GMs may read the private side (:func:`readers`).
- :class:`Reader` and :func:`hidden_words` say what one reader may not see; :func:`guard_view` (a sheet, a list,
  a read-only action), :func:`public_card` (the board) and :func:`suggestions` (autocomplete, the choices buttons
  offer) take it out of a view, comparing it with the same view drawn from sheets with the hidden parts emptied.
- :func:`may_read_private` is the log's rule for an entry's private side: its readers, and the GMs of the moment.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.base import (
    Audience,
    Card,
    Outcome,
    PrivateField,
    Ruleset,
    Secrecy,
    Table,
    field_values,
    field_words,
    hide_fields,
)

HIDDEN = "(hidden)"


@dataclass(frozen=True)
class Sheet:
    """A character as secrecy sees it: its owner and its sheet as JSON."""

    name: str
    owner_id: int
    sheet: dict[str, Any]


def sheets_of(table: Table) -> list[Sheet]:
    """The table's characters as secrecy reads them (owner, sheet as JSON)."""
    return [Sheet(r.name, r.owner_id, _sheet_json(r.sheet)) for r in table.characters.values()]


def _sheet_json(sheet: Any) -> dict[str, Any]:
    return sheet.model_dump(mode="json") if isinstance(sheet, BaseModel) else dict(sheet)


# ---------------------------------------------------------------------- results


def enforce(
    outcome: Outcome,
    *,
    command: str,
    secrecy: Secrecy | None,
    options: Any,
    fields: tuple[PrivateField, ...],
    before: Mapping[str, Sheet],
    after: Mapping[str, Sheet],
) -> Outcome:
    """The result with nothing declared private or secret on its public side (nor anything secret on its
    private side): kept private, or secret, as a whole when the action put a declared value there."""
    secrecy = secrecy or Secrecy()
    whole = secrecy.whole(options) if options is not None else None
    secret = secrecy.words(options, "secret") | touched_words(before, after, fields, "secret")
    private = secrecy.words(options, "private") | touched_words(before, after, fields, "private")
    if whole != "secret" and secret and mentions([*public_texts(outcome), *private_texts(outcome)], secret):
        whole = "secret"
    if whole is None and private and mentions(public_texts(outcome), private):
        whole = "private"
    if whole == "secret":
        return keep_secret(outcome, command)
    if whole == "private":
        return keep_private(outcome, command)
    return outcome


def readers(actor_id: int, actor_is_gm: bool, before: Mapping[str, Sheet], after: Mapping[str, Sheet]) -> list[int]:
    """Who besides the GMs reads a result's private side: the player who acted (players act only through their
    own characters); when a GM acted, the owners of the characters the action changed."""
    if not actor_is_gm:
        return [actor_id]
    return sorted(
        {sheet.owner_id for key, sheet in after.items() if key not in before or before[key].sheet != sheet.sheet}
    )


def touched_words(
    before: Mapping[str, Sheet], after: Mapping[str, Sheet], fields: Iterable[PrivateField], audience: Audience
) -> set[str]:
    """The words of the sheets' private (or secret) fields that the action added or changed."""
    chosen = [spec for spec in fields if spec.audience == audience]
    if not chosen:
        return set()
    found: set[str] = set()
    for key, sheet in after.items():
        now = field_words(sheet.sheet, chosen)
        then = field_words(before[key].sheet, chosen) if key in before else {}
        found |= {word for word, mark in now.items() if then.get(word) != mark}
    return found


def keep_private(outcome: Outcome, command: str) -> Outcome:
    """The whole result for the owner and the GMs: the actor sees it (ephemerally), the log's public side and the
    channel only that a private action was taken."""
    full = outcome.private or outcome.card
    return outcome.model_copy(
        update={
            "card": Card(
                title=f"Private: /{command}",
                description="Only the character's owner and the GMs can see what this did.",
                tone="secret",
            ),
            "summary": "did something private (only the owner and the GMs read it)",
            "data": {"kept": "private"},
            "private": full.model_copy(update={"tone": "secret"}),
            "private_summary": _joined(outcome.summary, outcome.private_summary),
            "private_data": {**outcome.data, **outcome.private_data},
            "ephemeral": True,
        }
    )


def keep_secret(outcome: Outcome, command: str) -> Outcome:
    """The whole result for the GMs: it goes to them as a secret card; the actor and the channel learn only that
    a secret action was taken."""
    full = outcome.secret or outcome.private or outcome.card
    return outcome.model_copy(
        update={
            "card": Card(title=f"Secret: /{command}", description="Its result went to the GMs.", tone="secret"),
            "summary": "did something secret (only the GMs read it)",
            "data": {"secret": True},
            "secret": full.model_copy(update={"tone": "secret"}),
            "secret_summary": _joined(outcome.summary, outcome.private_summary, outcome.secret_summary),
            "secret_data": {**outcome.data, **outcome.private_data, **outcome.secret_data},
            "private": None,
            "private_summary": None,
            "private_data": {},
            "ephemeral": True,
        }
    )


def _joined(*parts: str | None) -> str:
    return " · ".join(dict.fromkeys(part for part in parts if part))


def public_texts(outcome: Outcome) -> list[str]:
    """What the channel or the log's public side may show of a result."""
    texts = [outcome.summary, _json(outcome.data)]
    if not outcome.ephemeral:
        texts.append(card_text(outcome.card))
        if outcome.chart is not None:
            texts.append(_json(outcome.chart.model_dump()))
    return texts


def private_texts(outcome: Outcome) -> list[str]:
    texts = [outcome.private_summary or "", _json(outcome.private_data)]
    if outcome.private is not None:
        texts.append(card_text(outcome.private))
    if outcome.ephemeral:  # the card goes to the actor alone
        texts.append(card_text(outcome.card))
    return texts


def card_text(card: Card) -> str:
    return "\n".join([card.title, card.description, card.footer, *(f"{f.name}\n{f.value}" for f in card.fields)])


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One search for any of these words, whole, in any case."""
    chosen = sorted({" ".join(w.split()) for w in words if w and w.strip()}, key=len, reverse=True)
    if not chosen:
        return None
    alternatives = "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in chosen)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def mentions(texts: Iterable[str], words: Iterable[str]) -> bool:
    found = pattern(words)
    return found is not None and any(found.search(text) for text in texts if text)


# ---------------------------------------------------------------------- readers and views


@dataclass(frozen=True)
class Reader:
    """Who reads a view: a member (``user_id``), a GM of the moment, or everyone (a message in the channel)."""

    user_id: int | None = None
    is_gm: bool = False

    def hides(self, owner_id: int) -> tuple[Audience, ...]:
        """Which audiences' parts of a character this reader may not see."""
        if self.is_gm:
            return ()
        if self.user_id is not None and self.user_id == owner_id:
            return ("secret",)
        return ("private", "secret")


EVERYONE = Reader()


def hidden_words(fields: tuple[PrivateField, ...], sheets: Iterable[Sheet], reader: Reader) -> set[str]:
    """The telling words of every part of these characters the reader may not see; never a character's name
    (names are public: a stone held by another character still shows that character everywhere else)."""
    sheets = list(sheets)
    names = {sheet.name.casefold() for sheet in sheets}
    words: set[str] = set()
    for sheet in sheets:
        hidden = reader.hides(sheet.owner_id)
        chosen = [spec for spec in fields if spec.audience in hidden]
        if chosen:
            words |= set(field_words(sheet.sheet, chosen))
    return words - names


def hidden_sheet(fields: tuple[PrivateField, ...], sheet: Sheet, reader: Reader) -> dict[str, Any]:
    """A sheet (as JSON) as the reader may see it: the parts they may not see set to null."""
    hidden = reader.hides(sheet.owner_id)
    chosen = [spec for spec in fields if spec.audience in hidden]
    return hide_fields(sheet.sheet, chosen) if chosen else sheet.sheet


Render = Callable[[Table], Outcome]


def guard_view(
    render: Render, table: Table, ruleset: Ruleset, reader: Reader, outcome: Outcome | None = None
) -> Outcome:
    """A view (a sheet, the board, a list, a read-only action) as its reader may see it: ``render`` draws it from a
    table (``outcome``: already drawn from this one). An ephemeral view is the reader's; a public one is
    everyone's, unless the reader may see more of it (their own character, a GM): then it is theirs alone,
    ephemeral, rather than showing the channel what only they may see.

    What the reader may not see: in a sheet shown as data, its hidden parts are null; in the text, a hidden part's
    word is "(hidden)" where the view shows it more often than the same view drawn from sheets with those parts
    emptied, so a word that is in the view for another reason (a spell's name, a place) stays, and its being
    hidden tells nothing."""
    real = outcome if outcome is not None else render(table)
    if not ruleset.private_fields:
        return real
    if real.ephemeral:
        return _guarded(real, render, table, ruleset, reader)
    public = _guarded(real, render, table, ruleset, EVERYONE)
    if reader == EVERYONE:
        return public
    theirs = _guarded(real, render, table, ruleset, reader)
    return public if theirs == public else theirs.model_copy(update={"ephemeral": True})


def _guarded(real: Outcome, render: Render, table: Table, ruleset: Ruleset, reader: Reader) -> Outcome:
    fields = ruleset.private_fields
    real = _hide_sheet_data(real, fields, reader)
    words = hidden_words(fields, sheets_of(table), reader)
    if not words:
        return real
    blank = _drawn_blank(render, table, ruleset, reader)
    if blank is None:  # cannot draw it without the hidden parts: every hidden word goes
        return guard_outcome(real, words)
    shown, without = _view_text(real), _view_text(_hide_sheet_data(blank, fields, reader))
    return guard_outcome(real, {word for word in words if _count(word, shown) > _count(word, without)})


def _hide_sheet_data(outcome: Outcome, fields: tuple[PrivateField, ...], reader: Reader) -> Outcome:
    data = outcome.data
    sheet, owner = data.get("sheet"), data.get("owner_id")
    if not (isinstance(sheet, dict) and isinstance(owner, int)):
        return outcome
    return outcome.model_copy(update={"data": {**data, "sheet": hidden_sheet(fields, Sheet("", owner, sheet), reader)}})


def _drawn_blank(render: Render, table: Table, ruleset: Ruleset, reader: Reader) -> Outcome | None:
    """The view drawn again from sheets whose parts hidden from the reader are emptied; None if it cannot be."""
    blank = blank_table(table, ruleset, reader)
    if blank is None:
        return None
    luck = table.rng.getstate()  # a view drawn twice must not use up the table's dice
    try:
        return render(blank)
    except Exception:  # any failure only means: nothing to compare with, so every hidden word is hidden
        return None
    finally:
        table.rng.setstate(luck)


def blank_table(table: Table, ruleset: Ruleset, reader: Reader) -> Table | None:
    """A copy of the table whose characters have the parts the reader may not see emptied."""
    characters = {}
    for key, record in table.characters.items():
        hidden = reader.hides(record.owner_id)
        chosen = [spec for spec in ruleset.private_fields if spec.audience in hidden]
        if not chosen:
            characters[key] = record
            continue
        try:
            sheet = ruleset.sheet_model.model_validate(empty_fields(_sheet_json(record.sheet), chosen))
        except ValueError:
            return None
        characters[key] = record.model_copy(update={"sheet": sheet})
    state = table.state.model_copy(deep=True) if isinstance(table.state, BaseModel) else table.state
    return dataclasses.replace(table, characters=characters, state=state, added=[], removed=[])


def empty_fields(sheet: dict[str, Any], fields: Iterable[PrivateField]) -> dict[str, Any]:
    """A copy of a sheet (as JSON) with these fields emptied, each to an empty value of its own kind."""
    emptied = json.loads(json.dumps(sheet, default=str))
    for spec in fields:
        *parents, last = spec.path.split(".")
        for parent in field_values(emptied, ".".join(parents)):
            if isinstance(parent, dict) and last in parent:
                parent[last] = _empty(parent[last])
            elif last == "*" and isinstance(parent, list):
                parent[:] = [_empty(item) for item in parent]
    return emptied


def _empty(value: Any) -> Any:
    if isinstance(value, bool):
        return False
    if isinstance(value, dict | list | str | int | float):
        return type(value)()
    return None


def _view_text(outcome: Outcome) -> str:
    parts = [card_text(outcome.card), outcome.summary, _json(outcome.data)]
    if outcome.private is not None:
        parts += [card_text(outcome.private), _json(outcome.private_data)]
    return "\n".join(parts)


def _count(word: str, text: str) -> int:
    found = pattern([word])
    return len(found.findall(text)) if found is not None else 0


def public_card(render: Callable[[Table], Card], table: Table, ruleset: Ruleset, card: Card) -> Card:
    """A card everyone reads (the live board: ``card``, drawn by ``render`` from ``table``), as
    :func:`guard_view` shows a public view."""

    def drawn(view: Table) -> Outcome:
        return Outcome(card=render(view), summary="")

    return guard_view(drawn, table, ruleset, EVERYONE, Outcome(card=card, summary="")).card


def guard_outcome(outcome: Outcome, words: Iterable[str]) -> Outcome:
    """A view with every word the reader may not see replaced by "(hidden)": its card, data and private card."""
    found = pattern(words)
    if found is None:
        return outcome
    update: dict[str, Any] = {"card": redact(outcome.card, found), "data": redact(outcome.data, found)}
    if outcome.private is not None:
        update["private"] = redact(outcome.private, found)
    if outcome.private_data:
        update["private_data"] = redact(outcome.private_data, found)
    update["summary"] = redact(outcome.summary, found)
    return outcome.model_copy(update=update)


def redact(value: Any, found: re.Pattern[str]) -> Any:
    if isinstance(value, str):
        return found.sub(HIDDEN, value)
    if isinstance(value, Card):
        return Card.model_validate(redact(value.model_dump(), found))
    if isinstance(value, dict):
        return {redact(key, found) if isinstance(key, str) else key: redact(item, found) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact(item, found) for item in value]
    return value


def guard_suggestions(suggestions: list[str], words: Iterable[str]) -> list[str]:
    """Autocomplete without anything naming a hidden word (when it cannot be drawn without the hidden parts)."""
    found = pattern(words)
    if found is None:
        return suggestions
    return [choice for choice in suggestions if not found.search(choice)]


def may_read_private(result: Mapping[str, Any], reader_id: int | None, is_gm: bool) -> bool:
    """A log entry's private side: its readers (the owner) and the campaign's GMs of the moment."""
    private = result.get("private")
    if not isinstance(private, dict):
        return False
    if is_gm:
        return True
    readers = private.get("readers")
    return reader_id is not None and isinstance(readers, list) and reader_id in readers


def private_summary(result: Mapping[str, Any]) -> str | None:
    private = result.get("private")
    return private.get("summary") if isinstance(private, dict) else None


def suggestions(ruleset: Ruleset, table: Table, action: str, option: str, current: str) -> list[str]:
    """A ruleset's autocomplete for ``table.actor``, without what they may not see (another's connections...):
    a choice that is gone when the hidden parts of the sheets are emptied came from them."""
    offered = ruleset.suggest(table, action, option, current)
    if not ruleset.private_fields:
        return offered
    reader = Reader(table.actor.user_id, table.actor.is_gm)
    words = hidden_words(ruleset.private_fields, sheets_of(table), reader)
    if not words:
        return offered
    blank = blank_table(table, ruleset, reader)
    if blank is None:
        return guard_suggestions(offered, words)
    kept = set(ruleset.suggest(blank, action, option, current))
    return [choice for choice in offered if choice in kept]
