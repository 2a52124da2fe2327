"""L53 with G-R4 to G-R6: speed order, equal speeds, chains of cancellation, speed 0 (issue 10)."""

from __future__ import annotations

import pytest

from rules.base import RuleError
from rules.realm.melee import speed_order
from rules.realm.state import Casting
from tests.rules.realm.helpers import duel


def spell(casting_id: int, caster: str, speed: int, *targets: str) -> Casting:
    return Casting(
        id=casting_id, spell=f"S{casting_id}", caster=caster, type="I", color="white", duration="combat",
        ritual="MAGIC I1", ritual_kind="chit", speed=speed, clearing="Cave", day=1, round=1, status="targeted",
        targets=list(targets),
    )  # fmt: skip


def test_ascending_speed_and_cancellation_e8() -> None:
    a, b = spell(1, "A", 4, "B"), spell(2, "B", 2, "A")
    result = speed_order([a, b], [])
    assert [c.id for c in result.order] == [2, 1]
    assert result.canceled == {1: 2} and [c.id for c in result.in_effect] == [2]


def test_equal_speeds_go_together_g_r4() -> None:
    a, b = spell(1, "A", 3, "B"), spell(2, "B", 3, "A")
    result = speed_order([a, b], ["B", "A"])
    assert result.canceled == {} and {c.id for c in result.in_effect} == {1, 2}
    assert [c.id for c in result.order] == [2, 1]  # among equals, the attention order


@pytest.mark.parametrize(
    ("cancel_by", "canceled"),
    [("effective", {2: 1}), ("declared", {2: 1, 3: 2})],
)
def test_a_chain_of_cancellation_g_r5(cancel_by: str, canceled: dict[int, int]) -> None:
    """A (2) targets B, B (3) targets C, C (4) targets D: B is canceled; C only if canceled spells count."""
    chain = [spell(1, "A", 2, "B"), spell(2, "B", 3, "C"), spell(3, "C", 4, "D")]
    result = speed_order(chain, [], cancel_by)
    assert result.canceled == canceled


def test_prepared_and_book_spells_at_speed_zero_go_first() -> None:
    book, prepared, chit = spell(1, "A", 0, "C"), spell(2, "B", 0, "A"), spell(3, "C", 1, "A")
    result = speed_order([chit, book, prepared], ["C", "B", "A"])
    assert [c.id for c in result.order] == [2, 1, 3]
    assert result.canceled == {3: 1}  # C is the target of A's speed-0 book spell
    assert {c.id for c in result.in_effect} == {1, 2}  # 0 against 0: together, neither cancels the other


def test_resolve_in_play_canceled_chit_fatigues_g_r6() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("oz", "target", targets="Wizard")
    data = realm.act("gm", "resolve").data
    assert [o["id"] for o in data["order"]] == [2, 1] and data["canceled"] == [{"id": 1, "by": 2}]
    assert data["in_effect"] == [2]
    assert realm.chit("Wizard", "MAGIC IV4").state == "fatigued"
    assert realm.chit("Witch", "MAGIC V3*").state == "committed"


def test_canceled_chit_unused_house_rule() -> None:
    realm = duel(canceled_chit="unused")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("oz", "cast", spell="Curse", ritual="MAGIC V3*")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("oz", "target", targets="Wizard")
    realm.act("gm", "resolve")
    assert realm.chit("Wizard", "MAGIC IV4").state == "active"


def test_a_prepared_chit_casts_at_speed_zero_and_wins() -> None:
    realm = duel()
    realm.act("pat", "prepare", chit="MAGIC IV4")
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch")
    realm.act("pat", "cast", spell="Blind", ritual="MAGIC IV4")
    realm.act("oz", "cast", spell="Blind", ritual="MAGIC IV2")
    realm.act("gm", "combat melee")
    realm.act("pat", "target", targets="Witch")
    realm.act("oz", "target", targets="Wizard")
    data = realm.act("gm", "resolve").data
    assert [(o["caster"], o["speed"]) for o in data["order"]] == [("Wizard", 0), ("Witch", 2)]
    assert data["canceled"] == [{"id": 2, "by": 1}]


def test_the_gm_may_give_the_attention_order_drawn_at_the_table() -> None:
    realm = duel()
    realm.act("gm", "combat start", clearing="Cave 1", order="Wizard, Witch", others="Goblin")
    with pytest.raises(RuleError, match="names everyone in the clearing once: Wizard, Witch, Goblin"):
        realm.act("gm", "combat melee", attention="Wizard, Witch")
    data = realm.act("gm", "combat melee", attention="goblin, Witch, Wizard").data
    assert data["attention"] == ["Goblin", "Witch", "Wizard"]
