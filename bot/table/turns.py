"""/turn: a turn tracker any ruleset can use (runic combat, awakened scenes...), through the same waits.

The order lives in the campaign's ``pbp`` column, beside the deadline settings, so it works whatever the
ruleset. The current turn is a wait like any ruleset's (:func:`turn_waits`): its player is pinged, reminded and
given the turn deadline; a name that is no character's (an NPC) is the GMs' turn. Each turn has its own key, so
each new turn pings; the same turn going on pings nobody.
"""

from __future__ import annotations

from typing import Any

from bot.storage.rows import CampaignRow, CharacterRow
from rules.base import Card, Outcome, RuleError, Wait, quoted

MAX_NAMES = 40


def tracker(row: CampaignRow) -> dict[str, Any] | None:
    turns = row.pbp.get("turns")
    return turns if isinstance(turns, dict) and turns.get("order") else None


def _owner(characters: dict[str, CharacterRow], name: str) -> int | None:
    record = characters.get(name.casefold())
    return record.owner_id if record is not None else None


def turn_waits(row: CampaignRow, characters: dict[str, Any]) -> list[Wait]:
    turns = tracker(row)
    if turns is None:
        return []
    name = turns["order"][turns["current"]]
    owner = _owner(characters, name)
    return [
        Wait(
            key=f"turn {turns['round']}.{turns['current']} {name}",
            user_id=owner,
            who=name if owner is not None else f"GM ({name})",
            what=f"take {name}'s turn (round {turns['round']})",
            commands=["/turn next"],
            kind="turn",
        )
    ]


def _card(row: CampaignRow, title: str, note: str = "") -> Card:
    turns = tracker(row)
    if turns is None:
        return Card(title=title, description=note)
    lines = [("▶ " if i == turns["current"] else "· ") + name for i, name in enumerate(turns["order"])]
    card = Card(title=title, description=(note + "\n" if note else "") + "\n".join(lines))
    card.footer = f"Round {turns['round']} · /turn next when done"
    return card


def _data(row: CampaignRow) -> dict[str, Any]:
    turns = tracker(row)
    if turns is None:
        return {"active": False}
    return {
        "active": True,
        "order": list(turns["order"]),
        "current": turns["order"][turns["current"]],
        "round": turns["round"],
    }


def start(row: CampaignRow, characters: dict[str, Any], order: str) -> Outcome:
    names = [" ".join(part.split()) for part in order.split(",") if part.strip()]
    if not names:
        raise RuleError('Give the order as names separated by commas: `order:"Alice, Goblin, Bob"`.')
    if len(names) > MAX_NAMES:
        raise RuleError(f"A turn order holds at most {MAX_NAMES} names.")
    if len({n.casefold() for n in names}) != len(names):
        raise RuleError("Each name may appear once in the order.")
    for name in names:
        if len(name) > 60:
            raise RuleError(f"{quoted(name)} is too long for a name (60 characters at most).")
    names = [characters[n.casefold()].name if n.casefold() in characters else n for n in names]
    row.pbp = {**row.pbp, "turns": {"order": names, "current": 0, "round": 1}}
    return Outcome(
        card=_card(row, "Turn order", "Names that are no character's are the GM's turns."),
        summary="started turns: " + ", ".join(names),
        data=_data(row),
    )


def advance(row: CampaignRow, *, skipped: bool = False, why: str = "") -> Outcome:
    turns = tracker(row)
    if turns is None:
        raise RuleError('No turn order is running. A GM starts one with `/turn start order:"Alice, Bob"`.')
    done = turns["order"][turns["current"]]
    current, round_ = turns["current"] + 1, turns["round"]
    if current >= len(turns["order"]):
        current, round_ = 0, round_ + 1
    row.pbp = {**row.pbp, "turns": {**turns, "current": current, "round": round_}}
    verb = "skipped" if skipped else "ended"
    note = f"{done}'s turn {verb}{': ' + why if why else ''}. Now: **{turns['order'][current]}**."
    return Outcome(card=_card(row, f"Round {round_}", note), summary=f"{done}'s turn {verb}", data=_data(row))


def end(row: CampaignRow) -> Outcome:
    if tracker(row) is None:
        raise RuleError("No turn order is running.")
    row.pbp = {k: v for k, v in row.pbp.items() if k != "turns"}
    return Outcome(card=Card(title="Turns ended"), summary="ended turns", data={"active": False})


def may_end_turn(row: CampaignRow, characters: dict[str, Any], user_id: int) -> bool:
    """The player whose character's turn it is may pass it on; anyone else needs the GM."""
    turns = tracker(row)
    return turns is not None and _owner(characters, turns["order"][turns["current"]]) == user_id


# ---------------------------------------------------------------------- the commands, through the service


async def turn_start(service: Any, place: Any, caller: Any, order: str) -> Any:
    async def change(draft: Any, _: Any) -> Outcome:
        return start(draft.row, draft.characters, order)

    return await service.change_campaign(place, caller, "turn start", change)


async def turn_next(service: Any, place: Any, caller: Any) -> Any:
    """The current player (or a GM) ends the turn; the next one is pinged."""

    async def change(draft: Any, _: Any) -> Outcome:
        if not draft.is_gm(caller) and not may_end_turn(draft.row, draft.characters, caller.user_id):
            turns = tracker(draft.row)
            whose = turns["order"][turns["current"]] if turns else "nobody"
            raise RuleError(f"It is {whose}'s turn: only their player or a GM can end it.")
        return advance(draft.row)

    return await service.change_campaign(place, caller, "turn next", change, gm_only=False)


async def turn_skip(service: Any, place: Any, caller: Any) -> Any:
    async def change(draft: Any, _: Any) -> Outcome:
        return advance(draft.row, skipped=True, why="the GM skipped it")

    return await service.change_campaign(place, caller, "turn skip", change)


async def turn_end(service: Any, place: Any, caller: Any) -> Any:
    async def change(draft: Any, _: Any) -> Outcome:
        return end(draft.row)

    return await service.change_campaign(place, caller, "turn end", change)
