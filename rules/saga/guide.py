"""How to begin at a saga table: examples for ``/help`` and a first session (``rules.base.Contributions``).

The getting-started card shows commands of the first session, in its order; every help example is a line of it
too, and the contract suite (``tests/contract/test_examples_run.py``) plays the session in a fresh campaign, so
each one runs. Pure data."""

from __future__ import annotations

GETTING_STARTED: tuple[str, ...] = (
    "Play the sample deck (or import yours): `/saga start deck:sample seed:168`; the odds of a draw: `/saga odds`.",
    'Each turn, move: `/saga move to:"Sample Cellar"`, then take each step with the Next step button.',
    'Use a bonus: `/saga bonus card:"Sample Sling" kind:good-luck`; search: `/saga search top:5 type:spell-song`.',
    'Go on: `/saga continue`; cycle your hand at the end: `/saga end cycle:"Sample Song of Dusk, Sample Old Mill"`.',
    'Fight what you meet: `/saga attack item:"Sample Iron Spear" enemy:"Sample Marsh Wisp"`; all of it: `/saga table`.',
)

HELP_EXAMPLES: dict[str, str] = {
    "start": "/saga start deck:sample seed:168",
    "odds": "/saga odds",
    "move": '/saga move to:"Sample Cellar"',
    "continue": "/saga continue",
    "bonus": '/saga bonus card:"Sample Sling" kind:good-luck',
    "search": "/saga search top:5 type:spell-song",
    "put": '/saga put card:"Sample Iron Spear" to:hand reason:"Sample Chapter Three\'s harmonic bonus"',
    "buy": '/saga buy card:"Sample Iron Spear" pay:"Sample Epilogue"',
    "end": '/saga end cycle:"Sample Song of Dusk, Sample Old Mill"',
    "attack": '/saga attack item:"Sample Iron Spear" enemy:"Sample Marsh Wisp"',
    "table": "/saga table",
}

FIRST_SESSION: tuple[str, ...] = (
    "@as Gwen",
    "/campaign start ruleset:saga name:Stars",
    "@as Pat",
    "/saga start deck:sample seed:168",
    "/saga odds",
    '/saga move to:"Sample Cellar"',
    "@press Next step",
    '/saga bonus card:"Sample Sling" kind:good-luck',
    "/saga search top:5 type:spell-song",
    '/saga search take:"Sample Song of Dawn"',
    "/saga continue",
    '/saga end cycle:"Sample Song of Dusk, Sample Old Mill"',
    '/saga move to:"Sample Crossroads"',
    '/saga bonus card:"Sample Chapter Three"',
    '/saga put card:"Sample Iron Spear" to:hand reason:"Sample Chapter Three\'s harmonic bonus"',
    '/saga buy card:"Sample Iron Spear" pay:"Sample Epilogue"',
    "/saga continue",
    "/saga end",
    '/saga move to:"Sample Cellar"',
    "/saga continue",
    "/saga continue",
    '/saga end cycle:"Sample Quiet Ford"',
    '/saga move to:"Sample Crossroads"',
    "/saga continue",
    '/saga attack item:"Sample Iron Spear" enemy:"Sample Marsh Wisp"',
    "/saga table",
)
