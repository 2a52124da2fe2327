"""What serpent contributes besides its actions: the buttons a battle's replies carry, and the battle's picture.

A response window carries Respond (the presser's own Responses, shown only to them) and Pass; a Magi's turn
carries Cast (the presser's own prepared spells, then the target, each a list shown only to them) and End turn.
The board asked for (``/serpent battle board``) adds Picture: the battle drawn as a PNG (:func:`battle_picture`).

Anyone may press them: the rules then act for the presser's own Magi, and refuse whoever has no part in the wait
(a window that does not wait on them, a turn that is not theirs). Pure: the Discord adapter makes the buttons.
"""

from __future__ import annotations

from typing import Any

from rules.base import (
    BattlePicture,
    Combatant,
    OfferButton,
    PictureButton,
    Replied,
    ReplyItem,
    RespondButton,
    RuleError,
    RunButton,
    Table,
)
from rules.serpent.runner import state_of


def reply_items(replied: Replied) -> list[ReplyItem]:
    battle = replied.data.get("battle")
    if not isinstance(battle, dict):
        return []
    items = _wait_buttons(battle)
    if replied.data.get("action") == "battle board":
        items.append(PictureButton())
    return items


def _wait_buttons(battle: dict[str, Any]) -> list[ReplyItem]:
    if battle.get("phase") == "over":
        return []
    window = battle.get("window")
    if window:
        return [RespondButton(window["id"]), RunButton("pass", "Pass", anyone=True)]
    turn = battle.get("turn")
    being = (battle.get("beings") or {}).get(turn) if turn else None
    if battle.get("phase") == "actions" and being and being.get("kind") in ("magi", "koishaka"):
        return [OfferButton("cast", "spell", "Cast", then="target"), RunButton("end-turn", "End turn", anyone=True)]
    return []


def battle_picture(table: Table) -> BattlePicture:
    """The battle as everyone may see it, for the picture: life, energy, how many spells each Magus holds
    prepared (never which), actions, the spells in play and what is manifesting."""
    battle = state_of(table).battle
    if battle is None:
        raise RuleError("There is no battle in this channel. A GM starts one with /serpent battle start.")

    def name(key: str | None) -> str:
        return battle.beings[key].name if key in battle.beings else (key or "?")

    phase = battle.phase.replace("_", " ")
    current = battle.current()
    title = f"Round {battle.round} · {phase} phase" if battle.round else "Battle setup"
    subtitle = ("Initiative: " + " → ".join(name(k) for k in battle.order)) if battle.order else ""
    beings = []
    for being in battle.beings.values():
        status = "down" if being.incapacitated else ""
        if current is not None and being.key == current.key:
            status = "TURN"
        elif being.passed and battle.phase == "actions" and not status:
            status = "passed"
        extra = f"Will {being.will} · Voice {being.voice}" if being.kind != "encounter" else being.kind
        beings.append(
            Combatant(
                name=being.name,
                team=being.team,
                essence=being.essence,
                max_essence=max(being.starting_essence, being.essence),
                resonance=being.resonance,
                hand=len(battle.cards_in("prepared", being.key)) if being.is_magi else None,
                actions=f"{being.full_actions}/{being.actions_per_round} actions",
                extra=extra,
                status=status,
            )
        )
    in_play = []
    for card in battle.in_play():
        where = card.zone or "beside the team zone"
        bits = [f"#{card.id} {card.title}", f"{where} ({card.team})"]
        if card.bearer:
            bits.append(f"on {name(card.bearer)}")
        if card.duration is not None:
            bits.append(f"duration {card.duration}")
        if card.durability is not None:
            bits.append(f"durability {card.durability}")
        in_play.append(" · ".join(bits))
    manifesting = [f"#{e.id} {e.title} by {name(e.caster)}" for e in battle.stack]
    return BattlePicture(title, subtitle, beings, in_play, manifesting)
