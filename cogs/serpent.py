"""/serpent: every action of the serpent ruleset, generated from its options models (see cogs/_ruleset.py).

Play-by-post needs little of its own here: the ruleset says whom a battle waits on
(``rules.serpent.waits``), and the core's schedule (``bot/table/schedule.py``) pings, reminds and,
at a response window's deadline, passes for the Magi who did not answer. What this adds is the
buttons that answer a wait, on the reply that starts it (``serpent_buttons``); they last across
restarts (``bot.adapter.views``).
"""

from __future__ import annotations

from typing import Any

from bot.adapter.charts import BattlePicture, Combatant
from bot.adapter.client import MagisterBot
from bot.adapter.pickers import OfferButton
from bot.adapter.views import PICTURES, ActionButton, PictureButton, ReplyItem, RespondButton
from bot.table.service import Reply
from cogs._ruleset import build_group
from rules.base import RuleError, Table
from rules.serpent import RULESET
from rules.serpent.runner import state_of


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


def serpent_buttons(reply: Reply) -> list[ReplyItem]:
    """A response window: Respond (your own Responses, shown only to you) and Pass; a Magi's turn: Cast (your own
    prepared spells, then the target, each a list shown only to you) and End turn.
    The board asked for (``/serpent battle board``) adds Picture: the battle drawn as a PNG.

    Anyone may press them: the rules then act for the presser's own Magi, and refuse whoever has no part
    in the wait (a window that does not wait on them, a turn that is not theirs).
    """
    data: Any = reply.outcome.data
    battle = data.get("battle") if isinstance(data, dict) else None
    if not isinstance(battle, dict) or reply.campaign is None:
        return []
    items = _wait_buttons(battle, reply.campaign.id)
    if data.get("action") == "battle board":
        items.append(PictureButton(RULESET.id, reply.campaign.id))
    return items


def _wait_buttons(battle: dict[str, Any], campaign_id: int) -> list[ReplyItem]:
    if battle.get("phase") == "over":
        return []
    window = battle.get("window")
    if window:
        return [RespondButton(RULESET.id, campaign_id, window["id"]), ActionButton(RULESET.id, "pass", "Pass")]
    turn = battle.get("turn")
    being = (battle.get("beings") or {}).get(turn) if turn else None
    if battle.get("phase") == "actions" and being and being.get("kind") in ("magi", "koishaka"):
        cast = OfferButton(RULESET.id, campaign_id, "cast", "spell", "Cast", then="target")
        return [cast, ActionButton(RULESET.id, "end-turn", "End turn")]
    return []


async def setup(bot: MagisterBot) -> None:
    PICTURES[RULESET.id] = battle_picture
    bot.tree.add_command(build_group(RULESET, reply_buttons=serpent_buttons))


async def teardown(bot: MagisterBot) -> None:
    bot.tree.remove_command(RULESET.id)
