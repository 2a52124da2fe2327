"""The registry finds rulesets, built in (``rules/<id>/``) and installed (entry points), and refuses two with one id."""

from __future__ import annotations

import pytest

from bot.table import registry as registry_module
from bot.table.books import BookError
from bot.table.registry import Registry, RulesetError, book_folder, discover_rulesets, is_built_in
from tests.support.tally import TallyRuleset


def test_the_built_in_rulesets_are_found_and_read_data_of_their_id() -> None:
    found = {ruleset.id: ruleset for ruleset in discover_rulesets()}
    assert {"runic", "serpent", "awakened", "realm", "saga"} <= set(found)
    assert is_built_in(found["runic"]) and book_folder(found["runic"]).parts[-2:] == ("data", "runic")
    assert not is_built_in(TallyRuleset())


def test_two_rulesets_with_one_id_stop_start_up_naming_both() -> None:
    class Other(TallyRuleset):
        pass

    with pytest.raises(RulesetError, match="Two rulesets have the id 'tally'") as refused:
        Registry.build([TallyRuleset(), Other()])
    assert "TallyRuleset" in str(refused.value) and "Other" in str(refused.value)
    assert isinstance(refused.value, BookError)  # bot/__main__.py stops with the message, exit code 2


def test_an_id_that_cannot_be_a_command_is_refused() -> None:
    class Spaced(TallyRuleset):
        id = "Hedge Magic"

    with pytest.raises(RulesetError, match="1 to 20 lower-case letters"):
        Registry.build([Spaced()])


def test_an_entry_point_that_loads_no_ruleset_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Entry:
        name, value = "broken", "nowhere:RULESET"

        def load(self):
            raise ImportError("No module named 'nowhere'")

    class NotOne(Entry):
        name, value = "odd", "math:pi"

        def load(self):
            return 3.14

    monkeypatch.setattr(registry_module.importlib.metadata, "entry_points", lambda group: [Entry()])
    with pytest.raises(RulesetError, match=r"broken = nowhere:RULESET .* does not load"):
        discover_rulesets()
    monkeypatch.setattr(registry_module.importlib.metadata, "entry_points", lambda group: [NotOne()])
    with pytest.raises(RulesetError, match="is not a Ruleset instance or class"):
        discover_rulesets()


def test_the_lookup_index_is_built_on_its_first_use_not_at_start_up() -> None:
    """Splitting every book entry's words cost more than the rest of start-up's own work (issue 23)."""
    registry = Registry.build(discover_rulesets())
    assert "lookup" not in vars(registry)
    assert registry.lookup.exact("Flam", "runic") is not None
    assert registry.lookup is registry.lookup  # built once
