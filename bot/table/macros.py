"""Dice macros: a roll saved under a name, a member's own (everywhere) or a campaign's (shared at its table).

``/macro save name:attack expression:"1d20+5; 2d6+3 # longsword"``, then ``/macro roll name:attack``.
A macro is checked by rolling it once when saved, so a broken one is refused then, not mid-fight.
"""

from __future__ import annotations

import random
from typing import Literal

from bot.storage.rows import MacroRow
from bot.table.expressions import roll_text
from bot.table.service import Caller, Place, Reply, TableService
from rules.base import Card, Outcome, RuleError, quoted

Scope = Literal["mine", "campaign"]
MAX_MACROS = 50


async def _campaign_id(service: TableService, place: Place) -> int | None:
    campaign = await service.campaign(place)
    return campaign.row.id if campaign else None


def _clean(name: str) -> str:
    name = " ".join(name.split())
    if not 1 <= len(name) <= 32:
        raise RuleError("A macro's name needs 1 to 32 characters.")
    return name


async def save(service: TableService, place: Place, caller: Caller, name: str, expression: str, scope: Scope) -> Reply:
    name = _clean(name)
    roll_text(expression, random.Random(0))  # a broken expression is refused now, with the dice parser's reason
    campaign_id = await _campaign_id(service, place)
    if scope == "campaign" and campaign_id is None:
        raise RuleError("There is no campaign here to share the macro with; save it as `scope:mine`.")
    owned = await service.store.macros(caller.user_id, None)
    if scope == "mine" and len(owned) >= MAX_MACROS and name.casefold() not in {m.name.casefold() for m in owned}:
        raise RuleError(f"You have {MAX_MACROS} macros already; delete one with `/macro delete` first.")
    where = None if scope == "mine" else campaign_id
    replaced = await service.store.write(lambda tx: tx.save_macro(caller.user_id, where, name, expression))
    card = Card(
        title=f"Macro {'replaced' if replaced else 'saved'}: {name}",
        description=f"`{expression}`, "
        + ("yours, everywhere" if where is None else "shared at this campaign's table")
        + f". Roll it with `/macro roll name:{name}`.",
    )
    data = {"name": name, "expression": expression, "scope": scope, "replaced": replaced}
    return Reply(Outcome(card=card, summary=f"saved macro {name}", data=data, ephemeral=True))


async def find(service: TableService, place: Place, caller: Caller, name: str) -> MacroRow:
    """The member's own macro of that name first, then the campaign's."""
    macros = await service.store.macros(caller.user_id, await _campaign_id(service, place))
    key = " ".join(name.split()).casefold()
    for macro in macros:
        if macro.name.casefold() == key:
            return macro
    known = ", ".join(m.name for m in macros) or "none yet (save one with `/macro save`)"
    raise RuleError(f"There is no macro named {quoted(name)}. Your macros here: {known}.")


async def roll(service: TableService, place: Place, caller: Caller, name: str, secret: bool) -> Reply:
    macro = await find(service, place, caller, name)
    outcome = roll_text(macro.expression, service.rng, label=None)
    if "label" in outcome.data and not outcome.data["label"]:
        outcome.data["label"] = macro.name
    outcome.card.title = f"{macro.name}: {outcome.card.title.split(': ', 1)[-1]}"[:256]
    outcome.data["macro"] = macro.name
    outcome.card.footer = f'/roll expression:"{macro.expression}"'  # what "Roll again" and "Odds of this" read
    return await service.record(place, caller, "macro roll", outcome, secret=secret)


async def listing(service: TableService, place: Place, caller: Caller) -> Reply:
    macros = await service.store.macros(caller.user_id, await _campaign_id(service, place))
    mine = [f"`{m.name}`: {m.expression}" for m in macros if m.campaign_id is None]
    shared = [f"`{m.name}`: {m.expression}" for m in macros if m.campaign_id is not None]
    card = Card(title="Macros")
    card.add("Yours, everywhere", "\n".join(mine)[:1024] or "none")
    card.add("This campaign's", "\n".join(shared)[:1024] or "none")
    data = {
        "mine": [m.name for m in macros if m.campaign_id is None],
        "campaign": [m.name for m in macros if m.campaign_id],
    }
    return Reply(Outcome(card=card, summary="listed macros", data=data, ephemeral=True))


async def delete(service: TableService, place: Place, caller: Caller, name: str) -> Reply:
    macro = await find(service, place, caller, name)
    if macro.owner_id != caller.user_id:
        campaign = await service.campaign(place)
        if campaign is None or not campaign.is_gm(caller):
            raise RuleError(f"`{macro.name}` was saved by another member: they or a GM may delete it.")
    await service.store.write(lambda tx: tx.delete_macro(macro.id))
    card = Card(title=f"Macro deleted: {macro.name}", description=f"It was `{macro.expression}`.")
    return Reply(
        Outcome(card=card, summary=f"deleted macro {macro.name}", data={"deleted": macro.name}, ephemeral=True)
    )


async def names(service: TableService, place: Place, caller: Caller) -> list[str]:
    return [m.name for m in await service.store.macros(caller.user_id, await _campaign_id(service, place))]
