"""How to begin at a runic table: examples for ``/help`` and a first session (``rules.base.Contributions``).

Every example is a line of the first session, and ``tests/bot/test_first_sessions.py`` plays the session through
the console, so each one runs. Pure data."""

from __future__ import annotations

HELP_EXAMPLES: dict[str, str] = {
    "mage create": "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "mage word": "/runic mage word word:Flam skill:13",
    "spell define": "/runic spell define name:Fireball words:In-Flam type:missile",
    "preview": "/runic preview spell:Fireball",
    "cast": "/runic cast spell:Fireball",
    "mage show": "/runic mage show",
    "sunrise": "/runic sunrise",
}

FIRST_SESSION: tuple[str, ...] = (
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
    "/runic mage word word:Flam skill:13",
    "/runic mage word word:In skill:14",
    "/runic spell define name:Fireball words:In-Flam type:missile",
    "/runic preview spell:Fireball",
    "/runic cast spell:Fireball",
    "/runic mage show",
    "@gm",
    "/runic sunrise",
)
