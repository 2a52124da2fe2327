"""A character's pronouns: stored beside its sheet, set with /character pronouns, shown on the sheet, used by the
rules' player text (``Table.they``/``them``/``their``), and undone like any character change."""

from __future__ import annotations

import pytest

from rules.base import CharacterRecord, Pronouns, RuleError, sheet_parts, stored_sheet
from tests.conftest import Console


def test_pronoun_sets_and_free_text() -> None:
    assert Pronouns.of(None) == Pronouns("they", "them", "their", True)
    assert [Pronouns.of(Pronouns.parse(text)).shown for text in ("They/Them", "she/her", "HE", "it/its")] == [
        "they/them",
        "she/her",
        "he/him",
        "it/its",
    ]
    assert Pronouns.parse(" xe / xem / xyr ") == "xe/xem/xyr"
    assert Pronouns.of("xe/xem").possessive is None  # Table.their then says "<name>'s"
    for bad in ("", "x1", "a/b/c/d", "x" * 31):
        with pytest.raises(RuleError):
            Pronouns.parse(bad)


def test_stored_beside_the_sheet_under_a_reserved_key() -> None:
    assert stored_sheet({"points": 1}, "they") == {"points": 1}  # the default is not stored
    stored = stored_sheet({"points": 1}, "she")
    assert stored == {"points": 1, "_pronouns": "she"}
    assert sheet_parts(stored) == ({"points": 1}, "she")
    record = CharacterRecord(owner_id=1, name="Wren", sheet={}, pronouns="xe/xem")
    assert record.pronouns == "xe/xem"


async def test_set_shown_used_by_the_rules_and_undone(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:realm name:Valley")
    await console.ok("@as Pat")
    await console.ok('/realm character create name:Wizard chits:"MAGIC IV4, MOVE M4*"')
    shown = await console.ok("/character show name:Wizard")
    assert shown["data"]["pronouns"] == "they/them" and "Pronouns: they/them" in shown["text"]
    castable = '/realm castable spell:"Fiery Blast" ritual:"MAGIC IV4" color_chit:PURPLE'
    assert "Their color chits: none" in (await console.fails(castable))["text"]
    changed = await console.ok("/character pronouns name:Wizard pronouns:she/her")
    assert changed["data"] == {"name": "Wizard", "pronouns": "she/her", "old": "they/them"}
    assert (await console.ok("/character show name:Wizard"))["data"]["pronouns"] == "she/her"
    assert "Her color chits: none" in (await console.fails(castable))["text"]
    await console.ok("@as Oz")
    assert "belongs to another player" in (await console.fails("/character pronouns name:Wizard pronouns:he"))["text"]
    await console.ok("@gm")
    undone = await console.undo()  # the player's change: the GM confirms
    assert "character pronouns" in undone["text"]
    assert (await console.ok("/character show name:Wizard"))["data"]["pronouns"] == "they/them"


async def test_the_rules_speak_of_a_character_by_their_pronouns(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:runic name:Tower")
    await console.ok("@as Pat")
    await console.ok("/runic mage create name:Merlin magery:3 iq:15 thaumatology:15")
    assert "Merlin cannot give MP to themself" in (await console.fails("/runic energy give to:Merlin amount:1"))["text"]
    await console.ok("/character pronouns name:Merlin pronouns:he/him")
    assert "Merlin cannot give MP to himself" in (await console.fails("/runic energy give to:Merlin amount:1"))["text"]
    await console.ok('/character pronouns name:Merlin pronouns:"xe/xem/xyr"')
    assert "Merlin cannot give MP to xemself" in (await console.fails("/runic energy give to:Merlin amount:1"))["text"]
