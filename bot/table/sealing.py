"""Sealed secret results: a commitment anyone can check later against the result the GM reveals.

Every result with a GM's side (``Outcome.has_secret``: a ``/roll secret:true``, an Information spell, any
ruleset's secret result) is sealed by the table service as it is logged, with no per-ruleset code:

- its **canonical text** (:func:`canonical_text`) is the GM's side as one line of text;
- a **salt** of 128 bits from :mod:`secrets` (never the game's dice) makes the hash impossible to guess from a
  short text ("rolled 1d20 = 7");
- the **commitment** is ``sha256(TEXT + "|" + SALT)`` over UTF-8, in hex: ``printf '%s' 'TEXT|SALT' | sha256sum``.

The commitment is public: the log's public side (``"sealed"``), the channel, the export. The text and the salt
stay on the secret side (``"secret" → "seal"``) until a GM reveals them (``bot/table/sealed.py``). Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.base import Card, Outcome

SEPARATOR = "|"
SALT_BYTES = 16  # 128 bits
SHORT = 12  # hex digits of a commitment a log line shows


@dataclass(frozen=True)
class Seal:
    """What sealing a result made: the text and salt (the GM's) and their commitment (everyone's)."""

    text: str
    salt: str
    sha256: str


@dataclass(frozen=True)
class Posted:
    """A commitment as the channel reads it: the event's number, its hash and when it was logged (UTC, ISO)."""

    number: int
    sha256: str
    at: str


def one_line(text: str) -> str:
    """Every run of spaces and line breaks made one space, no space at either end."""
    return " ".join(text.split())


def card_line(card: Card) -> str:
    """A card as one line: its title, its text and each field as ``name: value``, joined by `` · ``."""
    parts = [card.title, card.description, *(f"{field.name}: {field.value}" for field in card.fields)]
    return " · ".join(line for line in (one_line(part) for part in parts) if line)


def canonical_text(outcome: Outcome) -> str:
    """The GM's side of a result as the GM was shown it: the GM's card as one line (its footer, which only says
    who acted, left out); with no card, the GM's summary; with neither, the GM's data as JSON."""
    if outcome.secret is not None:
        text = card_line(outcome.secret)
        if text:
            return text
    if outcome.secret_summary and one_line(outcome.secret_summary):
        return one_line(outcome.secret_summary)
    return json.dumps(outcome.secret_data, ensure_ascii=False, sort_keys=True, default=str)


def digest(text: str, salt: str) -> str:
    """The commitment: SHA-256 of ``TEXT|SALT`` in UTF-8, as 64 hex digits (what ``sha256sum`` prints)."""
    return hashlib.sha256(f"{text}{SEPARATOR}{salt}".encode()).hexdigest()


def seal(outcome: Outcome) -> Seal | None:
    """Seal a result that has a GM's side; None for one that has not."""
    if not outcome.has_secret:
        return None
    text = canonical_text(outcome)
    salt = secrets.token_hex(SALT_BYTES)
    return Seal(text, salt, digest(text, salt))


def sealed_result(result: Mapping[str, Any], made: Seal) -> dict[str, Any]:
    """A logged result with its seal: the commitment on the public side, the text and salt on the GM's."""
    secret = result.get("secret")
    side = dict(secret) if isinstance(secret, dict) else {"summary": None, "data": {}}
    side["seal"] = {"text": made.text, "salt": made.salt}
    return {**result, "sealed": {"sha256": made.sha256}, "secret": side}


def commitment(result: Mapping[str, Any]) -> str | None:
    """A logged result's commitment (public), if it was sealed."""
    sealed = result.get("sealed")
    value = sealed.get("sha256") if isinstance(sealed, dict) else None
    return value if isinstance(value, str) else None


def kept(result: Mapping[str, Any]) -> tuple[str, str] | None:
    """A sealed result's text and salt, from its GM's side: for the GM's reveal only."""
    secret = result.get("secret")
    side = secret.get("seal") if isinstance(secret, dict) else None
    if not isinstance(side, dict):
        return None
    text, salt = side.get("text"), side.get("salt")
    return (text, salt) if isinstance(text, str) and isinstance(salt, str) else None


def when(at: str) -> str:
    """A logged time as the log shows it: ``2026-11-26 10:24 UTC``."""
    return f"{at[:16].replace('T', ' ')} UTC"


def commitment_card(posted: Posted) -> Card:
    """What the channel reads when a secret result is sealed: its number and its hash, nothing of the result."""
    return Card(
        title=f"Sealed #{posted.number}",
        description=(
            f"A secret result was sealed at {when(posted.at)}. Its commitment (SHA-256):\n`{posted.sha256}`\n"
            f"When a GM reveals it (`/campaign reveal event:{posted.number}`), anyone can check it with "
            f"`/verify event:{posted.number}`."
        ),
        tone="secret",
    )


def hand_check(text: str, salt: str) -> str:
    """The shell command that recomputes a commitment by hand (a ``'`` in the text written ``'\\''``)."""
    quoted = f"{text}{SEPARATOR}{salt}".replace("'", "'\\''")
    return f"printf '%s' '{quoted}' | sha256sum"
