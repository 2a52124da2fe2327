"""Standing orders: what a player away from the table has Magister do, as them, when a deadline passes.

Each ruleset offers its own (:attr:`rules.base.Ruleset.orders`) and says what one runs for a wait whose deadline
passed (:meth:`rules.base.Ruleset.run_order`); this module keeps them and answers ``/orders``. An order is kept per
player per campaign in the campaign's ``pbp`` column (``{"orders": [{"user_id", "order", "option"}]}``: the id under
``user_id``, where erasing a member finds it, bot/storage/members.py), so it
lasts across restarts, is exported and imported with the campaign, and setting or clearing one is a campaign change
the GM can undo. Orders say what a player plans: only that player and the GMs read them (the replies are ephemeral,
and the log keeps what was set on its private side, for the player and the GMs).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.storage.rows import CampaignRow
from bot.table.service import Caller, Campaign, Place, Reply, TableService
from rules.base import Card, OrderOffer, Outcome, RuleError, Ruleset, StandingOrder, quoted

MAX_OPTION = 200  # characters of an order's option: a few card names, a chit


def orders_of(row: CampaignRow) -> dict[int, StandingOrder]:
    """Every player's standing order in this campaign, by user id (an entry that no longer reads is skipped)."""
    found: dict[int, StandingOrder] = {}
    stored = row.pbp.get("orders")
    if not isinstance(stored, list):
        return found
    for entry in stored:
        if not isinstance(entry, dict) or type(entry.get("user_id")) is not int or not entry["user_id"]:
            continue  # 0: a forgotten member's
        try:
            found[entry["user_id"]] = StandingOrder.model_validate({k: v for k, v in entry.items() if k != "user_id"})
        except ValidationError:
            continue
    return found


def order_of(row: CampaignRow, user_id: int | None) -> StandingOrder | None:
    return orders_of(row).get(user_id) if user_id else None


def _stored(orders: dict[int, StandingOrder]) -> list[dict[str, Any]]:
    return [{"user_id": user, **order.model_dump()} for user, order in sorted(orders.items())]


def _with_orders(row: CampaignRow, orders: dict[int, StandingOrder]) -> dict[str, Any]:
    """The row's pbp with these orders (none: no ``orders`` key at all)."""
    rest = {k: v for k, v in row.pbp.items() if k != "orders"}
    return {**rest, "orders": _stored(orders)} if orders else rest


def valid_orders(value: Any) -> list[dict[str, Any]]:
    """An imported campaign's orders as stored, or a RuleError saying what is wrong (imports refuse plainly)."""
    if not isinstance(value, list):
        raise RuleError("its standing orders are not a list of players' orders")
    out = []
    for entry in value:
        user = entry.get("user_id") if isinstance(entry, dict) else None
        if type(user) is not int or user < 0:
            raise RuleError("a standing order belongs to no member's id")
        try:
            parsed = StandingOrder.model_validate({k: v for k, v in entry.items() if k != "user_id"})
        except ValidationError:
            raise RuleError(f"the standing order of member {user} is not an order and an option") from None
        if len(parsed.option) > MAX_OPTION or len(parsed.order) > 60:
            raise RuleError(f"the standing order of member {user} is too long")
        out.append({"user_id": user, **parsed.model_dump()})
    return out


def offer_named(ruleset: Ruleset, name: str) -> OrderOffer:
    """The ruleset's offer called ``name`` (any case), or a RuleError listing those it has."""
    for offer in ruleset.orders:
        if offer.name.casefold() == name.strip().casefold():
            return offer
    if not ruleset.orders:
        raise RuleError(f"{ruleset.name} offers no standing orders yet.")
    names = ", ".join(f"`{offer.name}`" for offer in ruleset.orders)
    raise RuleError(f"{ruleset.name} has no standing order {quoted(name)}. Its orders: {names}.")


def describe(offer: OrderOffer, order: StandingOrder) -> str:
    """An order in a player's words: "**pass**: Pass every response window… (cards: Fire Bolt)"."""
    text = f"**{offer.name}**: {offer.description}"
    if order.option:
        text += f" ({offer.option}: {order.option})"
    return text


def _described(ruleset: Ruleset, order: StandingOrder) -> str:
    try:
        return describe(offer_named(ruleset, order.order), order)
    except RuleError:  # an order the ruleset no longer offers: shown as stored, and never run
        return f"**{order.order}** (no longer offered){f' ({order.option})' if order.option else ''}"


def offers_card(ruleset: Ruleset) -> str:
    """Every order the ruleset offers, one line each, for a reply that says what would work."""
    lines = []
    for offer in ruleset.orders:
        option = f" `{offer.option}:` {offer.option_help}" if offer.option else ""
        lines.append(f"`{offer.name}`: {offer.description}.{option}")
    return "\n".join(lines) or f"{ruleset.name} offers no standing orders yet."


def _characters_of(campaign: Campaign, user_id: int) -> list[str]:
    return sorted(c.name for c in campaign.characters.values() if c.owner_id == user_id)


def _player(campaign: Campaign, user_id: int) -> str:
    names = _characters_of(campaign, user_id)
    return f"<@{user_id}>" + (f" ({', '.join(names)})" if names else "")


# ---------------------------------------------------------------------- the commands


async def order_set(service: TableService, place: Place, caller: Caller, order: str, option: str = "") -> Reply:
    """``/orders set``: the caller's standing order for this campaign, replacing any they had."""
    option = " ".join((option or "").split())

    async def change(draft: Campaign, _: object) -> Outcome:
        ruleset = service.registry.get(draft.row.ruleset).ruleset
        offer = offer_named(ruleset, order)
        if ruleset.character_option is not None and not _characters_of(draft, caller.user_id):
            raise RuleError(
                "A standing order acts for your characters, and you have none in this campaign yet: create one first."
            )
        if offer.option_required and not option:
            raise RuleError(f"`{offer.name}` needs `option:` ({offer.option}): {offer.option_help}.")
        if option and not offer.option:
            raise RuleError(f"`{offer.name}` takes no option: set it with `/orders set order:{offer.name}` alone.")
        if len(option) > MAX_OPTION:
            raise RuleError(f"The option takes at most {MAX_OPTION} characters.")
        wanted = StandingOrder(order=offer.name, option=option)
        checked = ruleset.check_order(service.table_for(draft, caller), wanted)
        orders = orders_of(draft.row)
        before = orders.get(caller.user_id)
        orders[caller.user_id] = checked
        draft.row.pbp = _with_orders(draft.row, orders)
        text = describe(offer, checked)
        was = f"\nIt replaces: {_described(ruleset, before)}." if before is not None else ""
        card = Card(
            title="Standing order set",
            description=f"When a deadline passes while you are away, Magister acts for you: {text}.{was}\n"
            "Only you and the GMs see it. `/orders clear` takes it back.",
            tone="success",
        )
        return Outcome(
            card=card,
            summary="changed a standing order",  # what others may read; the order itself is the player's and GMs'
            private_summary=f"set standing order: {offer.name}" + (f" ({checked.option})" if checked.option else ""),
            private_data={"order": checked.model_dump()},
            data={"order": checked.order},
            ephemeral=True,
        )

    return await service.change_campaign(place, caller, "orders set", change, gm_only=False, readers=(caller.user_id,))


async def order_clear(service: TableService, place: Place, caller: Caller) -> Reply:
    """``/orders clear``: the caller's deadlines act again as the campaign says, with no order of theirs."""

    async def change(draft: Campaign, _: object) -> Outcome:
        orders = orders_of(draft.row)
        if orders.pop(caller.user_id, None) is None:
            raise RuleError("You have no standing order in this campaign. Set one with `/orders set`.")
        draft.row.pbp = _with_orders(draft.row, orders)
        return Outcome(
            card=Card(
                title="Standing order cleared",
                description="Your deadlines act again as the campaign's rules say (`/campaign settings`).",
            ),
            summary="cleared a standing order",
            data={"order": None},
            ephemeral=True,
        )

    return await service.change_campaign(place, caller, "orders clear", change, gm_only=False)


async def order_show(service: TableService, place: Place, caller: Caller, everyone: bool = False) -> Reply:
    """``/orders show``: the caller's own order and what the ruleset offers; ``all`` (GM): every player's."""
    campaign = await service.require_campaign(place)
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    orders = orders_of(campaign.row)
    if everyone:
        if not campaign.is_gm(caller):
            raise RuleError(
                "Only a GM sees every player's standing order (they say what players plan). "
                "`/orders show` shows your own."
            )
        lines = [f"{_player(campaign, user)}: {_described(ruleset, order)}" for user, order in sorted(orders.items())]
        card = Card(
            title="Standing orders",
            description="\n".join(lines) or "Nobody has a standing order: every deadline acts as the campaign says.",
        )
        data = {"orders": {str(user): order.model_dump() for user, order in orders.items()}}
        return Reply(Outcome(card=card, summary="standing orders", data=data, ephemeral=True), campaign.row)
    mine = orders.get(caller.user_id)
    card = Card(
        title="Your standing order",
        description=(
            f"{_described(ruleset, mine)}." if mine is not None else "None: your deadlines act as the campaign says."
        ),
    )
    card.add("What you can order", offers_card(ruleset))
    data = {"order": mine.model_dump() if mine is not None else None, "offers": [o.name for o in ruleset.orders]}
    return Reply(Outcome(card=card, summary="standing order", data=data, ephemeral=True), campaign.row)


async def order_names(service: TableService, place: Place, current: str) -> list[tuple[str, str]]:
    """Autocomplete for ``order:``: (label, value) for each offer of the channel's ruleset."""
    campaign = await service.campaign(place)
    if campaign is None:
        return []
    typed = current.strip().casefold()
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    return [(f"{o.name}: {o.description}", o.name) for o in ruleset.orders if typed in o.name.casefold()]


async def option_choices(service: TableService, place: Place, caller: Caller, order: str, current: str) -> list[str]:
    """Autocomplete for ``option:``: what the ruleset suggests for that order, as the caller may see it."""
    campaign = await service.campaign(place)
    if campaign is None:
        return []
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    try:
        offer = offer_named(ruleset, order or "")
    except RuleError:
        return []
    if not offer.option:
        return []
    return ruleset.order_choices(service.table_for(campaign, caller), offer.name, current)
