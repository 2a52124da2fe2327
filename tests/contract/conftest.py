"""The contract suite: what every ruleset owes its players, checked over every discovered ruleset.

Everything here is computed once per session by ``tests/contract/support.py`` (the suite's one door into
``bot/``), on its own SQLite files, so the suite does not depend on the database a run is testing.
"""

from __future__ import annotations

import pytest

from tests.contract.support import RULESET_IDS, SHARED, Tree, command_tree

EVERY_RULESET = pytest.mark.parametrize("ruleset", RULESET_IDS)
EVERY_OWNER = pytest.mark.parametrize("owner", [*RULESET_IDS, SHARED])


@pytest.fixture(scope="session")
def tree() -> Tree:
    return command_tree()
