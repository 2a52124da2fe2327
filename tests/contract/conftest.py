"""The contract suite: what every ruleset owes its players, checked over every ruleset it can find.

``EVERY_RULESET`` is the discovered rulesets (the five built in) and the sixth, hedge magic, that
docs/new-ruleset.md builds: a new ruleset is checked by every test here the moment it exists, without a line of
setup (its ``first_session`` sets its table up). ``EVERY_OWNER`` adds ``shared``, the commands and texts that belong
to no ruleset.

Everything here goes through ``tests/contract/support.py`` (the suite's one door into ``bot/``), computed once per
session where it can be, on stores of its own: SQLite files in temporary folders, or on the PostgreSQL pass
(``MAGISTER_TEST_DB``) the PostgreSQL databases they map to, so the suite runs on both stores.

A new check over every ruleset (the secrets sweep, say) parametrizes with ``EVERY_RULESET`` and opens a fresh table
that knows all six with the ``contract_console`` fixture; ``support.first_session(id)`` is each ruleset's first
session as it ran.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conftest import Console
from tests.contract.support import RULESET_IDS, SHARED, Tree, command_tree, open_console

EVERY_RULESET = pytest.mark.parametrize("ruleset", RULESET_IDS)
EVERY_OWNER = pytest.mark.parametrize("owner", [*RULESET_IDS, SHARED])


@pytest.fixture(scope="session")
def tree() -> Tree:
    return command_tree()


@pytest.fixture
async def contract_console(tmp_path: Path) -> AsyncIterator[Console]:
    """A console table on a fresh store whose registry holds every ruleset the suite checks, the guide's too."""
    console = Console(await open_console(tmp_path))
    yield console
    await console.table.close()
