"""How to begin at a realm table: examples for ``/help`` and a first session (``rules.base.Contributions``).

Every example is a line of the first session, and ``tests/bot/test_first_sessions.py`` plays the session through
the console, so each one runs. Pure data."""

from __future__ import annotations

HELP_EXAMPLES: dict[str, str] = {
    "spell import": (
        '/realm spell import format:csv text:"name,type,color,target_type,duration,text; '
        "Curse,V,black,individual,permanent,A lasting curse; "
        'Blind,IV,purple,individual,combat,Cannot see"'
    ),
    "day set": "/realm day set day:13",
    "character create": (
        '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV4, MOVE M4*" spells:Blind location:"Ruins 5"'
    ),
    "castable": '/realm castable spell:Blind ritual:"MAGIC IV4"',
    "spells": "/realm spells",
    "day next": "/realm day next",
}

FIRST_SESSION: tuple[str, ...] = (
    "@as Gwen",
    "/campaign start ruleset:realm name:Valley",
    (
        '/realm spell import format:csv text:"name,type,color,target_type,duration,text; '
        "Curse,V,black,individual,permanent,A lasting curse; "
        'Blind,IV,purple,individual,combat,Cannot see"'
    ),
    "/realm day set day:13",
    "@as Pat",
    '/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV4, MOVE M4*" spells:Blind location:"Ruins 5"',
    '/realm castable spell:Blind ritual:"MAGIC IV4"',
    "/realm spells",
    "@gm",
    "/realm day next",
)
