"""How to begin at an awakened table: examples for ``/help`` and a first session (``rules.base.Contributions``).

The getting-started card shows commands of the first session, in its order; every help example is a line of it
too, and the contract suite (``tests/contract/test_examples_run.py``) plays the session in a fresh campaign, so
each one runs. Pure data."""

from __future__ import annotations

GETTING_STARTED: tuple[str, ...] = (
    (
        'Each player creates a mage: `/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" '
        'inferior:Matter resistance:composure gnosis:3 arcana:"Life 3, Spirit 2"`.'
    ),
    (
        "See a spell's cost, then cast it: `/awakened spell cast mode:cost spell:Mend arcana:Life aspect:covert`, "
        "then `/awakened spell cast spell:Mend arcana:Life aspect:covert`."
    ),
    "Keep it going: `/awakened spell sustain spell:Mend`; see your sheet: `/awakened mage show`.",
    "The GM ends rounds with `/awakened time round` (the paradox roll); `time scene` and `time day` end the rest.",
)

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
