"""How to begin at a runic table: examples for ``/help`` and a first session (``rules.base.Contributions``).

The getting-started card shows commands of the first session, in its order; every help example is a line of it
too, and the contract suite (``tests/contract/test_examples_run.py``) plays the session in a fresh campaign, so
each one runs. Pure data."""

from __future__ import annotations

GETTING_STARTED: tuple[str, ...] = (
    "Each player creates a mage: `/runic mage create name:Merlin magery:3 iq:15 thaumatology:15`.",
    "Train Words: `/runic mage word word:Flam skill:13`, `/runic mage word word:In skill:14`.",
    "Define a spell from Words: `/runic spell define name:Fireball words:In-Flam type:missile`.",
    "See the exact odds first: `/runic preview spell:Fireball`; then `/runic cast spell:Fireball`.",
    "Your mage's sheet, with MP and Words: `/runic mage show`.",
    'The GM runs `/runic sunrise` each morning; `/lookup term:"calamity 17"` reads any table.',
)

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
    '/lookup term:"calamity 17"',
)
