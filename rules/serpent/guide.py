"""How to begin at a serpent table: examples for ``/help`` and a first session (``rules.base.Contributions``).

The getting-started card shows commands of the first session, in its order; every help example is a line of it
too, and the contract suite (``tests/contract/test_examples_run.py``) plays the session in a fresh campaign, so
each one runs. Pure data."""

from __future__ import annotations

GETTING_STARTED: tuple[str, ...] = (
    'Each player creates a Magi and Codex: `/serpent magi create name:White codex:"Fireball x2, Dissolve Tissue x2"`.',
    "The GM starts a battle: `/serpent battle start`; each player joins with `/serpent battle join`.",
    "The GM runs each round: `/serpent battle round resonance:7 rolloff:Black` (leave both out and the bot rolls).",
    'Prepare your spells for the round: `/serpent prepare spells:"Dissolve Tissue"`.',
    'On your turn, cast: `/serpent cast spell:"Dissolve Tissue" target:White`, or press Cast; End turn when done.',
    "A spell cast at you may open a window: its Respond and Pass buttons answer it.",
    "See it all with `/serpent battle board`.",
)

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
