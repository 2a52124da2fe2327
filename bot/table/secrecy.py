"""What is private or secret, enforced for every ruleset: on each result, and on each read path by its reader.

A ruleset declares secrecy once (``rules/base.py``, "Secrecy"): which options of an action, which parts of a
character sheet, are private (the owner's and the GMs') or secret (the GMs'). This module is where the table
service makes that hold, whatever the action wrote:

- :func:`enforce` runs on every result before it is logged or shown. A declared value (an option's, or one the
  action added to a private field of a sheet) found in the public card, summary or data keeps the whole result
  private (or secret): the channel and the log's public side learn only that the actor did something private.
  It also says who besides the GMs may read the private side (:func:`readers`).
- :class:`Reader` and :func:`hidden_words` say what one reader may not see; :func:`guard_outcome` and
  :func:`guard_suggestions` take it out of a view (a sheet, a list, the board, autocomplete).
- :func:`may_read_private` is the log's rule for an entry's private side: its readers, and the GMs of the moment.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rules.base import Audience, Card, Outcome, PrivateField, Ruleset, Secrecy, Table, field_words, hide_fields

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


def guard_view(outcome: Outcome, fields: tuple[PrivateField, ...], sheets: Iterable[Sheet], reader: Reader) -> Outcome:
    """A view (a sheet, the board, a list) as its reader may see it. An ephemeral one is the reader's; a public one
    is everyone's, unless the reader may see more of it (their own character, a GM): then it becomes theirs alone,
    ephemeral, rather than showing the channel what only they may see."""
    if not fields:
        return outcome
    sheets = list(sheets)
    if outcome.ephemeral:
        return _guarded(outcome, fields, sheets, reader)
    public = _guarded(outcome, fields, sheets, EVERYONE)
    if reader == EVERYONE:
        return public
    theirs = _guarded(outcome, fields, sheets, reader)
    return public if theirs == public else theirs.model_copy(update={"ephemeral": True})


def _guarded(outcome: Outcome, fields: tuple[PrivateField, ...], sheets: list[Sheet], reader: Reader) -> Outcome:
    data = outcome.data
    sheet, owner = data.get("sheet"), data.get("owner_id")
    if isinstance(sheet, dict) and isinstance(owner, int):  # a sheet shown as data: its hidden parts are null
        data = {**data, "sheet": hidden_sheet(fields, Sheet("", owner, sheet), reader)}
    outcome = outcome.model_copy(update={"data": data}) if data is not outcome.data else outcome
    return guard_outcome(outcome, hidden_words(fields, sheets, reader))


def public_card(card: Card, fields: tuple[PrivateField, ...], sheets: Iterable[Sheet]) -> Card:
    """A card everyone reads (the live board): without any character's private or secret words."""
    found = pattern(hidden_words(fields, sheets, EVERYONE)) if fields else None
    return card if found is None else redact(card, found)


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
    """Autocomplete without anything the reader may not see (a suggestion naming a hidden word goes)."""
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
    """A ruleset's autocomplete for ``table.actor``, without what they may not see (another's connections...)."""
    offered = ruleset.suggest(table, action, option, current)
    if not ruleset.private_fields:
        return offered
    reader = Reader(table.actor.user_id, table.actor.is_gm)
    return guard_suggestions(offered, hidden_words(ruleset.private_fields, sheets_of(table), reader))
