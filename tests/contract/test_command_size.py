"""Check 4: every command group leaves room under Discord's 8,000 characters.

Discord refuses to register a top-level command whose names, descriptions, choice names and values add up to
more than 8,000 characters. Each stays under 7,200, so a new option or a clearer description does not break a
sync. Counted as Discord counts: every name and description at every depth, each choice's name and value.
"""

from __future__ import annotations

from tests.contract.conftest import EVERY_OWNER
from tests.contract.support import RULESET_IDS, SHARED, Tree, discord_size

ROOM = 7200  # of Discord's 8,000


@EVERY_OWNER
def test_each_command_group_fits_with_room_to_spare(owner: str, tree: Tree) -> None:
    names = [owner] if owner != SHARED else [name for name in tree.payloads if name not in RULESET_IDS]
    sizes = {f"/{name}": discord_size(tree.payloads[name]) for name in names}
    assert all(size <= ROOM for size in sizes.values()), sizes


def test_the_count_is_discords() -> None:
    payload = {
        "name": "cast",
        "description": "Cast",
        "options": [
            {
                "name": "mode",
                "description": "How",
                "choices": [{"name": "Fast", "value": "fast"}, {"name": "Two", "value": 2}],
            }
        ],
    }
    assert discord_size(payload) == len("castCastmodeHowFastfastTwo2")
