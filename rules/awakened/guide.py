"""How to begin at a awakened table: examples for ``/help`` and a first session (``rules.base.Contributions``).

Every example is a line of the first session, and ``tests/bot/test_first_sessions.py`` plays the session through
the console, so each one runs. Pure data."""

from __future__ import annotations

HELP_EXAMPLES: dict[str, str] = {
    "mage create": (
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter '
        'resistance:composure gnosis:3 arcana:"Life 3, Spirit 2"'
    ),
    "spell cast": "/awakened spell cast spell:Mend arcana:Life aspect:covert",
    "spell sustain": "/awakened spell sustain spell:Mend",
    "mage show": "/awakened mage show",
    "time round": "/awakened time round",
}

FIRST_SESSION: tuple[str, ...] = (
    "@as Gwen",
    "/campaign start ruleset:awakened name:Boston",
    "@as Pat",
    (
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter '
        'resistance:composure gnosis:3 arcana:"Life 3, Spirit 2"'
    ),
    "/awakened spell cast mode:cost spell:Mend arcana:Life aspect:covert",
    "/awakened spell cast spell:Mend arcana:Life aspect:covert",
    "/awakened spell sustain spell:Mend",
    "/awakened mage show",
    "@gm",
    "/awakened time round",
)
