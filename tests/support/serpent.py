"""A Serpent's Tongue duel set up at the console, shared by the tests that play one: two Magi, both joined."""

from __future__ import annotations

DUEL = (
    "@gm",
    "/campaign start ruleset:serpent name:Duel",
    "@as White",
    '/serpent magi create name:White codex:"Pillar of Earth, Acidic Matter x2, Air Essence, Karmic Debt"',
    "@as Black",
    '/serpent magi create name:Black codex:"Fireball x2, Dissolve Tissue x2, Beast Form"',
    "@gm",
    "/serpent battle start",
    "@as White",
    "/serpent battle join",
    "@as Black",
    "/serpent battle join",
    "@gm",
)
