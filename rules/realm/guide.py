"""How to begin at a realm table: examples for ``/help`` and a first session (``rules.base.Contributions``).

The getting-started card shows commands of the first session, in its order; every help example is a line of it
too, and the contract suite (``tests/contract/test_examples_run.py``) plays the session in a fresh campaign, so
each one runs. Pure data."""

from __future__ import annotations

GETTING_STARTED: tuple[str, ...] = (
    (
        'The GM brings the spell list (pasted, or as a file): `/realm spell import format:csv text:"name,type,color,'
        "target_type,duration,text; Curse,V,black,individual,permanent,A lasting curse; "
        'Blind,IV,purple,individual,combat,Cannot see"`; then the day: `/realm day set day:13`.'
    ),
    (
        "Each player creates a character: "
        '`/realm character create name:Wizard chits:"MAGIC IV4, MAGIC IV4, MOVE M4*" spells:Blind location:"Ruins 5"`.'
    ),
    'An item brings its color: `/realm item define name:"Purple Amulet" kind:item color:purple holder:Wizard`.',
    'The GM starts combat: `/realm combat start clearing:"Ruins 5" order:Wizard others:Goblin`.',
    'Ask first: `/realm castable spell:Blind ritual:"MAGIC IV4"`; then `/realm cast spell:Blind ritual:"MAGIC IV4"`.',
    "The GM runs `/realm combat melee`; name a target: `/realm target targets:Goblin`; the GM runs `/realm resolve`.",
    "Every spell in effect and when it ends: `/realm spells`; the GM ends with `/realm combat end`, `/realm day next`.",
)

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
    "item define": '/realm item define name:"Purple Amulet" kind:item color:purple holder:Wizard',
    "item give": '/realm item give item:"The Good Book" holder:Wizard',
    "combat start": '/realm combat start clearing:"Ruins 5" order:Wizard others:Goblin',
    "castable": '/realm castable spell:Blind ritual:"MAGIC IV4"',
    "cast": '/realm cast spell:Blind ritual:"MAGIC IV4"',
    "target": "/realm target targets:Goblin",
    "resolve": "/realm resolve",
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
    "@gm",
    '/realm item define name:"Purple Amulet" kind:item color:purple holder:Wizard',
    '/realm item give item:"The Good Book" holder:Wizard',
    '/realm combat start clearing:"Ruins 5" order:Wizard others:Goblin',
    "@as Pat",
    '/realm castable spell:Blind ritual:"MAGIC IV4"',
    '/realm cast spell:Blind ritual:"MAGIC IV4"',
    "@gm",
    "/realm combat melee",
    "@as Pat",
    "/realm target targets:Goblin",
    "@gm",
    "/realm resolve",
    "/realm spells",
    "/realm combat end",
    "/realm day next",
)
