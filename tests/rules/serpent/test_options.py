"""Every /serpent option says what it is for: Discord shows the description under the option's name."""

from __future__ import annotations

import pytest

from rules.serpent import RULESET

FIELDS = [
    (action.name, name, field)
    for action in RULESET.actions.values()
    for name, field in action.options.model_fields.items()
]


def test_every_action_has_options_to_check() -> None:
    assert len(FIELDS) > 80
    assert {name for _, name, _ in FIELDS} >= {"spell", "target", "magi", "resonance", "window", "values"}


@pytest.mark.parametrize(("action", "name", "field"), FIELDS, ids=[f"{a}:{n}" for a, n, _ in FIELDS])
def test_every_option_has_a_short_description(action: str, name: str, field) -> None:
    description = field.description
    assert description, f"/serpent {action} {name}: no description"
    assert 1 <= len(description) <= 100, (action, name, len(description))
    assert description.strip() == description and not description.endswith(".")
    assert description.casefold() != name.replace("_", " ").casefold()  # more than the bare name


def test_every_action_has_a_description() -> None:
    for action in RULESET.actions.values():
        assert action.description and len(action.description) <= 95, action.name  # the cog may add " (GM)"
