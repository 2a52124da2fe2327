"""Every ruleset's settings are HouseRules (rules/base.py): keys an older version stored load away, one way."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rules.awakened import RULESET as AWAKENED
from rules.base import HouseRules, Ruleset
from rules.realm import RULESET as REALM
from rules.runic import RULESET as RUNIC
from rules.saga import RULESET as SAGA
from rules.serpent import RULESET as SERPENT

RULESETS = [AWAKENED, REALM, RUNIC, SAGA, SERPENT]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_every_ruleset_keeps_its_house_rules_in_one_shape(ruleset: Ruleset) -> None:
    assert issubclass(ruleset.settings_model, HouseRules)
    assert "retired" not in ruleset.settings_model.model_fields  # never a setting a GM sees or sets


@pytest.mark.parametrize(("ruleset", "key"), [(SAGA, "nudge_hours"), (SERPENT, "response_window_minutes")])
def test_a_retired_key_loads_away(ruleset: Ruleset, key: str) -> None:
    model = ruleset.settings_model
    assert issubclass(model, HouseRules)
    assert key in model.retired
    assert model.model_validate({key: 12}) == model()


class Example(HouseRules):
    kept: int = 1
    retired = ("old", "older")


def test_only_the_retired_keys_go_and_others_are_still_refused() -> None:
    assert Example.model_validate({"old": 1, "older": 2, "kept": 3}) == Example(kept=3)
    with pytest.raises(ValidationError):
        Example.model_validate({"unknown": 1})
    with pytest.raises(ValidationError):
        HouseRules.model_validate({"old": 1})  # retired only where a ruleset says so
