"""How to begin at a serpent table: examples for ``/help`` and a first session (``rules.base.Contributions``).

Every example is a line of the first session, and ``tests/bot/test_first_sessions.py`` plays the session through
the console, so each one runs. Pure data."""

from __future__ import annotations

HELP_EXAMPLES: dict[str, str] = {
    "magi create": '/serpent magi create name:White codex:"Fireball x2, Dissolve Tissue x2"',
    "battle start": "/serpent battle start",
    "battle join": "/serpent battle join",
    "battle round": "/serpent battle round resonance:7 rolloff:Black",
    "prepare": '/serpent prepare spells:"Dissolve Tissue"',
    "cast": '/serpent cast spell:"Dissolve Tissue" target:Black',
    "battle board": "/serpent battle board",
}

FIRST_SESSION: tuple[str, ...] = (
    "@as Gwen",
    "/campaign start ruleset:serpent name:Duel",
    "@as White",
    '/serpent magi create name:White codex:"Fireball x2, Dissolve Tissue x2"',
    "@as Black",
    '/serpent magi create name:Black codex:"Fireball x2, Dissolve Tissue x2"',
    "@gm",
    "/serpent battle start",
    "@as White",
    "/serpent battle join",
    "@as Black",
    "/serpent battle join",
    "@gm",
    "/serpent battle round resonance:7 rolloff:Black",
    "@as Black",
    '/serpent prepare spells:"Dissolve Tissue"',
    "@as White",
    '/serpent prepare spells:"Dissolve Tissue"',
    "@as Black",
    '/serpent cast spell:"Dissolve Tissue" target:White',
    "@as White",
    '/serpent cast spell:"Dissolve Tissue" target:Black',
    "@as Black",
    "@press End turn",
    "/serpent battle board",
)
