"""The spell-list import: TOML or CSV, validated, every error reported by its line, all or nothing."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from tests.rules.realm.helpers import Realm

GOOD_CSV = "name,type,color,target_type,duration\nPeace,I,white,clearing,day\nFog,II,grey,clearing,day"


def test_csv_with_newlines_or_semicolons() -> None:
    realm = Realm()
    data = realm.act("gm", "spell import", format="csv", text=GOOD_CSV).data
    assert data == {"imported": ["Peace", "Fog"], "replaced": [], "incomplete": []}
    one_line = 'name,type,color,duration,text; Fiery Blast,VIII,gold,attack,"Fire; and smoke"'
    data = realm.act("gm", "spell import", format="csv", text=one_line).data
    assert data["replaced"] == ["Fiery Blast"] and realm.state.spells["fiery blast"].text == "Fire; and smoke"


def test_toml_inline_and_tables() -> None:
    realm = Realm()
    inline = 'spell = [{name = "Peace", type = "I", color = "white"}, {name = "Fog", duration = "day"}]'
    data = realm.act("gm", "spell import", format="toml", text=inline).data
    assert data["imported"] == ["Peace", "Fog"] and data["incomplete"] == ["Peace", "Fog"]
    tables = '[[spell]]\nname = "Hop"\ntype = "III"\ncolor = "gold"\nduration = "move"\n'
    assert realm.act("gm", "spell import", format="toml", text=tables).data["imported"] == ["Hop"]


def test_every_csv_error_is_reported_by_line_and_nothing_is_imported() -> None:
    realm = Realm()
    before = realm.dump()
    text = "name,type,color,duration,power\nPeace,IX,white,day,\n,I,white,day,\nFog,II,blue,forever,\nFog,II,grey,day,x"
    with pytest.raises(RuleError) as refused:
        realm.act("gm", "spell import", format="csv", text=text)
    message = str(refused.value)
    for expected in (
        "line 2: type 'IX' is not I-VIII",
        "line 3: a spell needs a name",
        "line 4: color 'blue' is not one of white, grey, gold, purple, black",
        "line 4: duration 'forever' is not one of instant, attack, combat, move, phase, day, permanent",
        "line 5: unknown column 'power'",
    ):
        assert expected in message, message
    assert message.startswith("Nothing imported.")
    assert realm.dump() == before


def test_toml_errors_name_the_line() -> None:
    realm = Realm()
    text = '[[spell]]\nname = "Hop"\ntype = "III"\n\n[[spell]]\nname = "Skip"\ncolor = 3\n'
    with pytest.raises(RuleError, match=r"line 5, spell 2: color must be text, not 3"):
        realm.act("gm", "spell import", format="toml", text=text)
    with pytest.raises(RuleError, match="not valid TOML"):
        realm.act("gm", "spell import", format="toml", text="spell = [")
    with pytest.raises(RuleError, match="unknown key 'spells'"):
        realm.act("gm", "spell import", format="toml", text='spells = [{name = "X"}]')
    with pytest.raises(RuleError, match="line 3: fog is already on line 2"):
        realm.act("gm", "spell import", format="csv", text="name\nFog\nfog")
