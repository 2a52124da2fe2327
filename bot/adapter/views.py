"""Buttons that last: paging, confirmation and ruleset actions, alive after a restart and never timing out.

Every button is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries all it
needs (what it does, whose it is, which page, which campaign), so a button pressed a
week later, by a fresh process, does the right thing or says clearly why it no
longer can. Only the person a button is for may press it (an owner of 0 means
anyone); anyone else is told so. An error in a button goes through the same
handler as a command's (``bot.adapter.errors``).
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

import rules.base as contract
from bot.adapter import charts
from bot.adapter.context import caller_of, place_of, release, send_reply, service_of
from bot.adapter.errors import report_error, send_text
from bot.adapter.render import to_embed
from bot.table import campaigns, turns
from bot.table.board import BOARD_VIEWER
from bot.table.registry import Registry
from bot.table.secrecy import suggestions
from bot.table.service import ConfirmFirstError, Reply
from rules.base import Card, Outcome, RuleError

NOT_YOURS = "These buttons belong to whoever ran the command. Run it yourself to get your own."
ITEM_NOT_YOURS = "This belongs to whoever ran the command. Run it yourself to get your own."

# What a page button shows: (interaction, argument, page) -> (card, page count)
PageRenderer = Callable[[discord.Interaction, str, int], Awaitable[tuple[Card, int]]]
PAGE_RENDERERS: dict[str, PageRenderer] = {}
# Pages that seek (the filtered log): (interaction, argument, page, older than, newer than) -> (card, page, page
# count, the page's ends: the keys its Previous and Next seek from, or None to go by page number)
SeekRenderer = Callable[
    [discord.Interaction, str, int, int | None, int | None], Awaitable[tuple[Card, int, int, tuple[int, int] | None]]
]
SEEK_RENDERERS: dict[str, SeekRenderer] = {}
CUSTOM_ID_MAX = 100  # Discord's limit on a component's custom_id


def page_renderer(kind: str) -> Callable[[PageRenderer], PageRenderer]:
    """Register what the page buttons of ``kind`` show; the cog that sends them declares it at import."""

    def register(render: PageRenderer) -> PageRenderer:
        PAGE_RENDERERS[kind] = render
        return render

    return register


def seek_renderer(kind: str) -> Callable[[SeekRenderer], SeekRenderer]:
    """Register pages of ``kind`` whose buttons carry where to seek from (:func:`pager`'s ``ends``)."""

    def register(render: SeekRenderer) -> SeekRenderer:
        SEEK_RENDERERS[kind] = render
        return render

    return register


class LastingButton(discord.ui.DynamicItem[discord.ui.Button], template=r"m:never"):
    """The common part: the owner check, and errors routed to the one handler."""

    owner_id: int = 0

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.owner_id in (0, interaction.user.id):
            return True
        await send_text(interaction, NOT_YOURS)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.press(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def press(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------- pages


class PageButton(
    LastingButton,
    template=r"m:pg:(?P<kind>[a-z]+):(?P<owner>\d+):(?P<page>\d+)(?:\.(?P<at>[0-9a-z]{1,13}))?:(?P<side>[pn]):"
    r"(?P<arg>[^\n]{0,62})",
):
    """Previous or Next: re-renders page ``page`` of ``kind`` in place. ``at`` (base 36, optional): the key the
    page seeks from, the number of the event the pressed page began (Previous) or ended (Next) at."""

    def __init__(
        self, kind: str, owner_id: int, page: int, side: str, arg: str, *, at: int | None = None, disabled: bool = False
    ) -> None:
        label = "Previous" if side == "p" else "Next"
        seek = f".{campaigns.base36(at)}" if at is not None else ""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"m:pg:{kind}:{owner_id}:{page}{seek}:{side}:{arg}",
                disabled=disabled,
            )
        )
        self.kind, self.owner_id, self.page, self.side, self.arg, self.at = kind, owner_id, page, side, arg, at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PageButton:
        at = int(match["at"], 36) if match["at"] else None
        return cls(match["kind"], int(match["owner"]), int(match["page"]), match["side"], match["arg"], at=at)

    async def press(self, interaction: discord.Interaction) -> None:
        seek = SEEK_RENDERERS.get(self.kind)
        ends = None
        if seek is not None:
            older = self.at if self.side == "n" else None
            newer = self.at if self.side == "p" else None
            card, page, pages, ends = await seek(interaction, self.arg, self.page, older, newer)
        else:
            render = PAGE_RENDERERS.get(self.kind)
            if render is None:
                raise RuleError("These pages can no longer be turned. Run the command again.")
            card, pages = await render(interaction, self.arg, self.page)
            page = max(1, min(self.page, pages))
        view = pager(self.kind, self.owner_id, page, pages, self.arg, ends)
        await interaction.response.edit_message(embed=to_embed(card), view=view)
        release(view)


def pager(
    kind: str, owner_id: int, page: int, pages: int, arg: str = "", ends: tuple[int, int] | None = None
) -> discord.ui.View | None:
    """Previous/Next for a paged card; None when there is one page. ``ends``: the keys of the page's first and
    last entries, for Previous and Next to seek from; a button whose custom_id would be too long without them
    goes by page number alone (slower on a deep page, never wrong)."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for side, to, at, disabled in (
        ("p", max(page - 1, 1), ends[0] if ends else None, page <= 1),
        ("n", min(page + 1, pages), ends[1] if ends else None, page >= pages),
    ):
        button = PageButton(kind, owner_id, to, side, arg, at=at, disabled=disabled)
        if len(button.item.custom_id or "") > CUSTOM_ID_MAX:
            button = PageButton(kind, owner_id, to, side, arg, disabled=disabled)
        view.add_item(button)
    return view


# ---------------------------------------------------------------------- confirmation

# What Confirm does, by kind: (interaction, reference, second reference) -> the card that replaces the prompt;
# None when the confirmation posts its own answer (a public one: the prompt only loses its buttons)
Confirmation = Callable[[discord.Interaction, int, int | None], Awaitable[Card | None]]


async def _end_campaign(interaction: discord.Interaction, campaign_id: int, _: int | None) -> Card:
    service, place = service_of(interaction), place_of(interaction)
    campaign = await service.campaign(place)
    if campaign is None or campaign.row.id != campaign_id:
        raise RuleError("That campaign has already ended here; nothing was changed.")
    reply = await campaigns.end(service, place, caller_of(interaction))
    interaction.extras["outcome"] = reply.outcome
    return reply.outcome.card


async def _undo_event(interaction: discord.Interaction, campaign_id: int, number: int | None) -> None:
    """Undo exactly the change the question named (``/campaign undo event:N``'s checks apply), then post it."""
    service, place = service_of(interaction), place_of(interaction)
    campaign = await service.campaign(place)
    if campaign is None or campaign.row.id != campaign_id or number is None:
        raise RuleError("That campaign has ended here; nothing was changed.")
    reply, _ = await service.undo(place, caller_of(interaction), number)
    await answered(interaction, Card(title=f"Undoing #{number}: confirmed", description="Posted below."))
    await send_reply(interaction, reply)


async def answered(interaction: discord.Interaction, card: Card) -> None:
    """The question is answered: its buttons go, so it cannot be answered twice."""
    await interaction.response.edit_message(embed=to_embed(card), view=None)


class ConfirmButton(
    LastingButton,
    template=r"m:cf:(?P<kind>[a-z]+):(?P<owner>\d+):(?P<ref>\d+)(?:\.(?P<sub>\d+))?:(?P<choice>[yn])",
):
    """Confirm or Cancel for a step that is hard to take back; ``ref`` (and ``sub``) name what it is about."""

    CONFIRMATIONS: ClassVar[dict[str, Confirmation]] = {"end": _end_campaign, "undo": _undo_event}

    def __init__(self, kind: str, owner_id: int, ref: int, choice: str, sub: int | None = None) -> None:
        confirm = choice == "y"
        second = f".{sub}" if sub is not None else ""
        super().__init__(
            discord.ui.Button(
                label="Confirm" if confirm else "Cancel",
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                custom_id=f"m:cf:{kind}:{owner_id}:{ref}{second}:{choice}",
            )
        )
        self.kind, self.owner_id, self.ref, self.sub, self.confirm = kind, owner_id, ref, sub, confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ConfirmButton:
        sub = int(match["sub"]) if match["sub"] else None
        return cls(match["kind"], int(match["owner"]), int(match["ref"]), match["choice"], sub)

    async def press(self, interaction: discord.Interaction) -> None:
        if not self.confirm:
            card: Card | None = Card(title="Cancelled", description="Nothing was changed.")
        else:
            card = await self.CONFIRMATIONS[self.kind](interaction, self.ref, self.sub)
        if card is not None:
            await interaction.response.edit_message(embed=to_embed(card), view=None)


def confirm(kind: str, owner_id: int, ref: int, sub: int | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(kind, owner_id, ref, "y", sub))
    view.add_item(ConfirmButton(kind, owner_id, ref, "n", sub))
    return view


class ConfirmAction(
    LastingButton,
    template=r"m:cfa:(?P<r>[a-z]+):(?P<owner>\d+):(?P<c>\d+):(?P<v>\d+):(?P<action>[a-z0-9.-]+):(?P<choice>[yn])"
    r":(?P<options>[\s\S]*)",
):
    """Confirm or Cancel for a ruleset action that asked first (``Action.confirm``): Confirm runs it as it was
    asked, options and all (carried as JSON), with ``confirm:true``, as whoever asked; only while the campaign is
    as it was when asked (its version), so an old question never answers a newer state."""

    def __init__(
        self, ruleset: str, owner_id: int, campaign_id: int, version: int, action: str, choice: str, options: str
    ) -> None:
        yes = choice == "y"
        super().__init__(
            discord.ui.Button(
                label="Confirm" if yes else "Cancel",
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=ConfirmAction.make_id(ruleset, owner_id, campaign_id, version, action, choice, options),
            )
        )
        self.ruleset, self.owner_id, self.campaign_id, self.version = ruleset, owner_id, campaign_id, version
        self.action, self.yes, self.options = action, yes, options

    @staticmethod
    def make_id(ruleset: str, owner: int, campaign: int, version: int, action: str, choice: str, options: str) -> str:
        return f"m:cfa:{ruleset}:{owner}:{campaign}:{version}:{action.replace(' ', '.')}:{choice}:{options}"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ConfirmAction:
        action = match["action"].replace(".", " ")
        owner, campaign, version = int(match["owner"]), int(match["c"]), int(match["v"])
        return cls(match["r"], owner, campaign, version, action, match["choice"], match["options"])

    async def press(self, interaction: discord.Interaction) -> None:
        if not self.yes:
            await answered(interaction, Card(title="Cancelled", description="Nothing was changed."))
            return
        service, place = service_of(interaction), place_of(interaction)
        campaign = await service.campaign(place)
        if campaign is None or campaign.row.id != self.campaign_id:
            raise RuleError("That campaign has ended here; nothing was changed.")
        if campaign.row.version != self.version:
            raise RuleError(
                f"The table has changed since you were asked, so this answer no longer fits; nothing was changed. "
                f"Run `/{self.ruleset} {self.action}` again to be asked as it stands now."
            )
        try:
            options = json.loads(self.options)
        except ValueError:
            options = None
        if not isinstance(options, dict):
            raise RuleError(f"This button lost its options; run `/{self.ruleset} {self.action}` again.")
        reply = await service.run(
            place, caller_of(interaction), self.ruleset, self.action, {**options, "confirm": True}
        )
        await answered(interaction, Card(title="Confirmed", description="Posted below."))
        await send_reply(interaction, reply, view=buttons_for(service.registry, self.ruleset, reply, self.owner_id))


def asking(ask: ConfirmFirstError, owner_id: int) -> tuple[Outcome, discord.ui.View | None]:
    """The question a ruleset action asks first, shown to whoever ran it alone, with Confirm and Cancel; when its
    options are too long for a button's id, no buttons: the words say to type it again with ``confirm:true``."""
    options = json.dumps(ask.options, ensure_ascii=False, separators=(",", ":"), default=str)
    ids = [
        ConfirmAction.make_id(ask.ruleset, owner_id, ask.campaign.id, ask.campaign.version, ask.action, c, options)
        for c in "yn"
    ]
    fits = all(len(custom_id) <= CUSTOM_ID_MAX for custom_id in ids)
    how = (
        "Press **Confirm** to go ahead, or **Cancel**."
        if fits
        else "Its options are too long for a button: run it again with `confirm:true` to go ahead."
    )
    card = Card(title="Confirm first", description=f"{ask.question}\n\n{how}", tone="warning")
    data = {"confirm": True, "question": ask.question, "command": f"{ask.ruleset} {ask.action}"}
    outcome = Outcome(card=card, summary="asked to confirm", data=data, ephemeral=True)
    if not fits:
        return outcome, None
    view = discord.ui.View(timeout=None)
    for choice in "yn":
        view.add_item(
            ConfirmAction(ask.ruleset, owner_id, ask.campaign.id, ask.campaign.version, ask.action, choice, options)
        )
    return outcome, view


CUSTOM_ID_MAX = 100  # Discord's limit on a component's custom_id


async def run_or_ask(
    interaction: discord.Interaction, ruleset: str, action: str, options: dict[str, Any], owner_id: int
) -> None:
    """Run a ruleset action and show its reply with the items it declares; if it asks first, show the question."""
    service = service_of(interaction)
    try:
        reply = await service.run(place_of(interaction), caller_of(interaction), ruleset, action, options)
    except ConfirmFirstError as ask:
        await ask_first(interaction, ask)
        return
    await send_reply(interaction, reply, view=buttons_for(service.registry, ruleset, reply, owner_id))


async def ask_first(interaction: discord.Interaction, ask: ConfirmFirstError) -> None:
    outcome, view = asking(ask, interaction.user.id)
    await send_reply(interaction, Reply(outcome, ask.campaign), view=view)


# ---------------------------------------------------------------------- ruleset actions


class ActionButton(
    LastingButton, template=r"m:act:(?P<ruleset>[a-z]+):(?P<owner>\d+):(?P<action>[a-z0-9.-]+)(?::(?P<label>.{1,40}))?"
):
    """Runs a ruleset action with no options (``/saga next``, ``/serpent pass``) as whoever presses it."""

    def __init__(self, ruleset: str, action: str, label: str, owner_id: int = 0) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"m:act:{ruleset}:{owner_id}:{action.replace(' ', '.')}:{label[:30]}",
            )
        )
        self.ruleset, self.action, self.label, self.owner_id = ruleset, action, label, owner_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        action = match["action"].replace(".", " ")
        return cls(match["ruleset"], action, match["label"] or item.label or action, int(match["owner"]))

    async def press(self, interaction: discord.Interaction) -> None:
        await run_or_ask(interaction, self.ruleset, self.action, {}, self.owner_id)


# ---------------------------------------------------------------------- responding to a window


class RespondSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"m:rsp:(?P<ruleset>[a-z]+):(?P<campaign>\d+):(?P<window>\d+)",
):
    """Respond to an open response window: the eligible Responses, one pick away.

    Picking one runs the ruleset's ``respond`` with ``spell:<it> target:#<window>`` as whoever picks,
    so the rules check that it is theirs to cast, as for the command. A pick after the window closed,
    or in another campaign than the one the message was for, changes nothing and says why.
    """

    def __init__(self, ruleset: str, campaign_id: int, window: int, spells: list[str]) -> None:
        options = [discord.SelectOption(label=spell[:100], value=spell[:100]) for spell in spells[:25]]
        super().__init__(
            discord.ui.Select(
                custom_id=f"m:rsp:{ruleset}:{campaign_id}:{window}",
                placeholder="Respond with…",
                options=options or [discord.SelectOption(label="(none)", value="")],
                disabled=not options,
            )
        )
        self.ruleset, self.campaign_id, self.window = ruleset, campaign_id, window

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> RespondSelect:
        spells = [option.value for option in item.options]
        return cls(match["ruleset"], int(match["campaign"]), int(match["window"]), spells)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.pick(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def pick(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # what was picked: discord.py fills it in from the interaction
        if not values or not values[0]:
            raise RuleError("Pick a Response from the list, or pass.")
        service, place = service_of(interaction), place_of(interaction)
        campaign = await service.campaign(place)
        if campaign is None or campaign.row.id != self.campaign_id:
            raise RuleError("That campaign has ended here, so this window can no longer be answered.")
        options = {"spell": values[0], "target": f"#{self.window}"}
        reply = await service.run(place, caller_of(interaction), self.ruleset, "respond", options)
        await send_reply(interaction, reply, view=buttons_for(service.registry, self.ruleset, reply))


class RespondButton(LastingButton, template=r"m:rspb:(?P<ruleset>[a-z]+):(?P<campaign>\d+):(?P<window>\d+)"):
    """Respond: shows whoever presses it, only to them, the Responses they could make to the window.

    Which Responses a player holds can be secret (prepared spells), so the public message carries this
    button and the list is the presser's own (the ruleset's autocomplete for ``respond spell:``).
    """

    def __init__(self, ruleset: str, campaign_id: int, window: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Respond",
                style=discord.ButtonStyle.success,
                custom_id=f"m:rspb:{ruleset}:{campaign_id}:{window}",
            )
        )
        self.ruleset, self.campaign_id, self.window = ruleset, campaign_id, window

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> RespondButton:
        return cls(match["ruleset"], int(match["campaign"]), int(match["window"]))

    async def press(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        campaign = await service.campaign(place_of(interaction))
        if campaign is None or campaign.row.id != self.campaign_id:
            raise RuleError("That campaign has ended here, so this window can no longer be answered.")
        table = service.table_for(campaign, caller_of(interaction))
        ruleset = service.registry.get(self.ruleset).ruleset
        spells = suggestions(ruleset, table, "respond", "spell", "")
        if not spells:
            raise RuleError(
                f"You have no Response you could make now to window #{self.window} "
                f"(it may have closed). `/{self.ruleset} pass` passes."
            )
        view = discord.ui.View(timeout=None)
        view.add_item(RespondSelect(self.ruleset, self.campaign_id, self.window, spells))
        await interaction.response.send_message("Respond with one of your Responses:", view=view, ephemeral=True)
        release(view)


# ---------------------------------------------------------------------- lists on a reply, and choices offered


class Owned:
    """The owner check and error routing every lasting select shares with the lasting buttons."""

    owner_id: int = 0

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.owner_id in (0, interaction.user.id):
            return True
        interaction.extras["error"] = ITEM_NOT_YOURS
        await send_text(interaction, ITEM_NOT_YOURS)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.choose(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def choose(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


async def _same_campaign(interaction: discord.Interaction, campaign_id: int) -> None:
    campaign = await service_of(interaction).campaign(place_of(interaction))
    if campaign is None or campaign.row.id != campaign_id:
        raise RuleError("That campaign has ended here; nothing was changed. Run the command again.")


class OptionSelect(
    Owned,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"m:opt:(?P<r>[a-z]+):(?P<owner>\d+):(?P<c>\d+):(?P<action>[a-z0-9.-]+):(?P<option>[a-z_]+)"
    r"(?:>(?P<then>[a-z_]+))?(?::(?P<key>[a-z_]+)=(?P<value>[^:]{1,30}))?",
):
    """A list of known things (spells, targets, characters) for one option of a ruleset action: picking one runs
    that action with it, as the command would (``/runic cast spell:<picked> mage:<fixed>``), for its owner only.

    The choices are in the message; the ``custom_id`` says which action and option, and at most one option that
    stays fixed, so the pick works after a restart, and is refused plainly once the campaign has ended. With
    ``then``, a pick does not run yet: it offers (only to the picker) a second list, for the option ``then``, the
    first pick kept fixed (a spell, then its target); that list starts with "No target" (``NONE``).
    """

    def __init__(
        self,
        ruleset: str,
        owner_id: int,
        campaign_id: int,
        action: str,
        option: str,
        choices: list[str],
        placeholder: str = "Pick…",
        fixed: tuple[str, str] | None = None,
        then: str | None = None,
    ) -> None:
        custom_id = f"m:opt:{ruleset}:{owner_id}:{campaign_id}:{action.replace(' ', '.')}:{option}"
        if then is not None:
            custom_id += f">{then}"
        if fixed is not None:
            custom_id += f":{fixed[0]}={fixed[1]}"
        options = [discord.SelectOption(label=name[:100], value=name[:100]) for name in choices[:25]]
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder[:150],
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.ruleset, self.owner_id, self.campaign_id = ruleset, owner_id, campaign_id
        self.action, self.option, self.fixed, self.then = action, option, fixed, then

    @staticmethod
    def fits(ruleset: str, action: str, option: str, fixed: tuple[str, str] | None = None) -> bool:
        """Whether a custom_id for these stays inside Discord's 100 characters with any owner (a name may not)."""
        room = len(f"m:opt:{ruleset}:{'9' * 20}:{'9' * 8}:{action}:{option}")
        if fixed is not None:
            room += 2 + len(fixed[0]) + len(fixed[1])
            if len(fixed[1]) > 30 or ":" in fixed[1]:
                return False
        return room <= 100

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> OptionSelect:
        fixed = (match["key"], match["value"]) if match["key"] else None
        action = match["action"].replace(".", " ")
        owner, campaign = int(match["owner"]), int(match["c"])
        return cls(match["r"], owner, campaign, action, match["option"], [], fixed=fixed, then=match["then"])

    async def choose(self, interaction: discord.Interaction) -> None:

        await _same_campaign(interaction, self.campaign_id)
        (value,) = self.item.values
        if self.then is not None:
            await offer(interaction, self.ruleset, self.action, self.then, fixed=(self.option, value))
            return
        options = dict([self.fixed] if self.fixed else [])
        if value != NONE:
            options[self.option] = value
        await run_or_ask(interaction, self.ruleset, self.action, options, interaction.user.id)


NONE = "-"  # the value of "No target": the option is left out


async def offer(
    interaction: discord.Interaction,
    ruleset: str,
    action: str,
    option: str,
    *,
    fixed: tuple[str, str] | None = None,
    then: str | None = None,
) -> None:
    """Show whoever acts, only to them, the choices they have for ``option`` of ``action`` now (the ruleset's
    own suggestions, as autocomplete lists them: their own prepared spells, the beings in the battle)."""
    service = service_of(interaction)
    campaign = await service.require_campaign(place_of(interaction))
    ruleset_ = service.registry.get(ruleset).ruleset
    choices = suggestions(ruleset_, service.table_for(campaign, caller_of(interaction)), action, option, "")
    verb = action.split()[-1]
    if fixed is not None:
        if not OptionSelect.fits(ruleset, action, option, fixed):
            raise RuleError(f'Type this one: `/{ruleset} {action} {fixed[0]}:"{fixed[1]}" {option}:…`.')
        choices = [NONE, *choices[:24]]
    if not choices:
        raise RuleError(f"You have nothing to {verb} now. `/{ruleset} {action}` says why when you type it.")
    select = OptionSelect(
        ruleset,
        interaction.user.id,
        campaign.row.id,
        action,
        option,
        choices,
        f"{fixed[1]}: {option}…" if fixed else f"{verb.capitalize()}…",
        fixed=fixed,
        then=then,
    )
    if fixed is not None:  # "No target" reads better than its value
        select.item.options[0].label = f"No {option}"
    view = discord.ui.View(timeout=None)
    view.add_item(select)
    what = f"{fixed[1]}: pick the {option}" if fixed else f"Pick what to {verb}"
    await interaction.response.send_message(f"{what} (only you can see this list).", view=view, ephemeral=True)
    view.stop()


class OfferButton(
    LastingButton,
    template=r"m:ofr:(?P<r>[a-z]+):(?P<c>\d+):(?P<action>[a-z0-9.-]+):(?P<option>[a-z_]+)(?:>(?P<then>[a-z_]+))?",
):
    """A button on a public message (a turn: **Cast**) that shows whoever presses it their own choices, only to them.

    What a player could pick may be secret (a Magus's prepared spells), so the public message carries this
    button and the list is the presser's own.
    """

    def __init__(self, ruleset: str, campaign_id: int, action: str, option: str, label: str, then: str | None = None):
        custom_id = f"m:ofr:{ruleset}:{campaign_id}:{action.replace(' ', '.')}:{option}" + (f">{then}" if then else "")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=custom_id))
        self.ruleset, self.campaign_id, self.action, self.option, self.then = ruleset, campaign_id, action, option, then

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> OfferButton:
        action = match["action"].replace(".", " ")
        label = item.label or action.capitalize()
        return cls(match["r"], int(match["c"]), action, match["option"], label, match["then"])

    async def press(self, interaction: discord.Interaction) -> None:
        await _same_campaign(interaction, self.campaign_id)
        await offer(interaction, self.ruleset, self.action, self.option, then=self.then)


# ---------------------------------------------------------------------- the board as a picture

PICTURE_FILE = "battle.png"


class PictureButton(LastingButton, template=r"m:pic:(?P<ruleset>[a-z]+):(?P<campaign>\d+)"):
    """Picture: the board drawn as a PNG (bars for life and energy), shown only to whoever asks.

    It is drawn when pressed, from the table as it stands then and as any player may see it (the ruleset's
    ``picture``), in a worker thread so the bot keeps answering meanwhile.
    """

    def __init__(self, ruleset: str, campaign_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Picture", style=discord.ButtonStyle.secondary, custom_id=f"m:pic:{ruleset}:{campaign_id}"
            )
        )
        self.ruleset, self.campaign_id = ruleset, campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PictureButton:
        return cls(match["ruleset"], int(match["campaign"]))

    async def press(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        campaign = await service.campaign(place_of(interaction))
        if campaign is None or campaign.row.id != self.campaign_id or self.ruleset not in service.registry:
            raise RuleError("That campaign has ended here, so there is no board to draw.")
        ruleset = service.registry.get(self.ruleset).ruleset
        picture = ruleset.picture(service.table_for(campaign, BOARD_VIEWER))  # a RuleError (no battle): said plainly
        if picture is None:
            raise RuleError("That campaign has ended here, so there is no board to draw.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(charts.render_battle, picture)
        embed = to_embed(Card(title=picture.title, description=picture.subtitle))
        embed.set_image(url=f"attachment://{PICTURE_FILE}")
        file = discord.File(io.BytesIO(png), filename=PICTURE_FILE)
        interaction.extras["outcome"] = Outcome(
            card=Card(title=picture.title), summary="battle picture", data={"picture": PICTURE_FILE}, ephemeral=True
        )
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)


# ---------------------------------------------------------------------- what a reply carries

# An entry of action_buttons: (action, label) for an ActionButton, or a lasting item made ready
ButtonEntry = tuple[str, str] | discord.ui.Item[Any]
MAX_SELECTS = 4  # a view holds 5 rows; a select fills one


def action_buttons(ruleset: str, actions: list[ButtonEntry], owner_id: int = 0) -> discord.ui.View | None:
    """A row of lasting items: each (action, label) runs that action of ``ruleset``; None for no actions."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for entry in actions:
        if isinstance(entry, discord.ui.Item):
            view.add_item(entry)
        else:
            action, label = entry
            view.add_item(ActionButton(ruleset, action, label, owner_id))
    return view


def lasting_item(
    ruleset: str, campaign_id: int, item: contract.ReplyItem, owner_id: int
) -> discord.ui.Item[Any] | None:
    """The lasting component a ruleset's reply item describes (None: it cannot be made: a custom_id too long)."""
    if isinstance(item, contract.RunButton):
        return ActionButton(ruleset, item.action, item.label, 0 if item.anyone else owner_id)
    if isinstance(item, contract.OfferButton):
        return OfferButton(ruleset, campaign_id, item.action, item.option, item.label, then=item.then)
    if isinstance(item, contract.RespondButton):
        return RespondButton(ruleset, campaign_id, item.window)
    if isinstance(item, contract.PictureButton):
        return PictureButton(ruleset, campaign_id)
    if isinstance(item, contract.OptionSelect):
        if not owner_id or not item.choices or not OptionSelect.fits(ruleset, item.action, item.option, item.fixed):
            return None  # owner-only: nobody asked, nobody owns it
        return OptionSelect(
            ruleset, owner_id, campaign_id, item.action, item.option, list(item.choices), item.placeholder, item.fixed
        )
    raise TypeError(f"not a reply item: {item!r}")


def reply_items(
    registry: Registry, ruleset: str, reply: Reply, owner_id: int = 0, *, timer: bool = False
) -> list[discord.ui.Item[Any]]:
    """The lasting items ``ruleset`` declares for ``reply`` (``Ruleset.reply_items``), made for Discord.

    ``owner_id`` ran the command (0: nobody asked, or anyone may press), and owns the selects; a timer's post
    (``timer``) carries no Picture, which is for whoever asks for the board.
    """
    if reply.campaign is None or ruleset not in registry:
        return []
    replied = contract.Replied(reply.outcome, owner_id, owner_id in reply.campaign.gm_ids)
    items: list[discord.ui.Item[Any]] = []
    selects = 0
    for item in registry.get(ruleset).ruleset.reply_items(replied):
        if timer and isinstance(item, contract.PictureButton):
            continue
        if isinstance(item, contract.OptionSelect):
            if selects >= MAX_SELECTS:
                continue
            selects += 1
        made = lasting_item(ruleset, reply.campaign.id, item, owner_id)
        if made is not None:
            items.append(made)
    return items


def buttons_for(registry: Registry, ruleset: str, reply: Reply, owner_id: int = 0) -> discord.ui.View | None:
    """The view a reply to ``owner_id`` carries: the ruleset's reply items, as lasting components."""
    return action_buttons(ruleset, reply_items(registry, ruleset, reply, owner_id))


# ---------------------------------------------------------------------- the /turn tracker


class TurnButton(LastingButton, template=r"m:turn:(?P<campaign>\d+)"):
    """End turn on a /turn prompt: runs ``/turn next`` for whoever presses (its player or a GM, as the command)."""

    def __init__(self, campaign_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="End turn", style=discord.ButtonStyle.primary, custom_id=f"m:turn:{campaign_id}")
        )
        self.campaign_id = campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TurnButton:
        return cls(int(match["campaign"]))

    async def press(self, interaction: discord.Interaction) -> None:
        service, place = service_of(interaction), place_of(interaction)
        campaign = await service.campaign(place)
        if campaign is None or campaign.row.id != self.campaign_id:
            raise RuleError("That campaign has ended here, so this turn can no longer be ended.")
        reply = await turns.turn_next(service, place, caller_of(interaction))
        await send_reply(interaction, reply, view=answer_view(service.registry, reply))


def answer_view(registry: Registry, reply: Reply | None) -> discord.ui.View | None:
    """The buttons of a message nobody asked for (a timer's): those a command's reply would carry now.

    ``reply`` shows the table after the timer (what the deadline ran, or the table as it stands); the
    buttons are anyone's to press, since the rules (or ``/turn next``) check who may answer.
    """
    if reply is None or reply.campaign is None:
        return None
    items: list[ButtonEntry] = list(reply_items(registry, reply.campaign.ruleset, reply, timer=True))
    labels = {getattr(entry.item, "label", None) for entry in items if isinstance(entry, discord.ui.Item)}
    if turns.tracker(reply.campaign) is not None and "End turn" not in labels:
        items.append(TurnButton(reply.campaign.id))
    return action_buttons(reply.campaign.ruleset, items)


LASTING_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PageButton,
    ConfirmButton,
    ConfirmAction,
    ActionButton,
    RespondButton,
    RespondSelect,
    TurnButton,
    PictureButton,
    OptionSelect,
    OfferButton,
)
