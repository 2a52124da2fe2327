"""Discord-native forms: modals for long inputs, and the lasting components that open them.

A form never decides anything itself: what it collects goes through the same table
service call as the slash command it stands for, so validation, permissions, undo and
errors are the command's own. Modals are live objects (Discord sends the answer back
to this process); the button and select that open them are lasting ``DynamicItem``s
whose ``custom_id`` carries whose they are and which campaign they belong to. Only
the person a component is for may use it, and every error reaches ``report_error``.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from pydantic.fields import FieldInfo

from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.errors import report_error, send_text
from bot.adapter.views import LastingButton, Owned, run_or_ask
from bot.table import campaigns
from bot.table.pbp import PBP_KEYS, pbp_settings
from rules.base import Action, RuleError, Ruleset, Upload
from rules.text import clip

NOT_YOURS = "This belongs to whoever ran the command. Run it yourself to get your own."
FORM_MINUTES = 30  # a form left open this long is dropped; the command that opened it opens another
MAX_LABEL, MAX_TITLE, MAX_PLACEHOLDER, MAX_VALUE = 45, 45, 100, 4000
MAX_INPUTS = 5
MORE = "more"  # the custom_id of the paragraph that holds the options beyond the first four
MORE_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=]\s*(.*?)\s*$")


class OwnedModal(discord.ui.Modal):
    """A modal only its owner may submit; errors go to the one handler."""

    def __init__(self, *, title: str, owner_id: int) -> None:
        super().__init__(title=clip(title, MAX_TITLE), timeout=FORM_MINUTES * 60)
        self.owner_id = owner_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        interaction.extras["error"] = NOT_YOURS
        await send_text(interaction, NOT_YOURS)
        return False

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await report_error(interaction, error)


# ---------------------------------------------------------------------- house rules


class SettingModal(OwnedModal):
    """One house rule, its current value prefilled; submitting runs ``/campaign settings key: value:``."""

    def __init__(self, key: str, current: str, owner_id: int) -> None:
        super().__init__(title=f"House rule: {key}", owner_id=owner_id)
        self.key = key
        long = len(current) > 60 or current.startswith(("[", "{"))
        self.value: discord.ui.TextInput = discord.ui.TextInput(
            label=clip(key, MAX_LABEL),
            custom_id="value",
            default=clip(current, MAX_VALUE),
            style=discord.TextStyle.paragraph if long else discord.TextStyle.short,
            max_length=MAX_VALUE,
        )
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        reply = await campaigns.settings(
            service_of(interaction), place_of(interaction), caller_of(interaction), self.key, self.value.value
        )
        await send_reply(interaction, reply)


async def setting_form(interaction: discord.Interaction, campaign_id: int, key: str) -> SettingModal:
    """The form for ``key`` of the channel's campaign, if it is still the campaign the component was made for."""
    service, caller = service_of(interaction), caller_of(interaction)
    campaign = await service.campaign(place_of(interaction))
    if campaign is None or campaign.row.id != campaign_id:
        raise RuleError("That campaign has ended here; run `/campaign settings` again.")
    if not campaign.is_gm(caller):
        raise RuleError("Changing a house rule needs the GM.")
    fields = campaigns.settings_fields(service, campaign.row.ruleset)
    if key in fields:
        current: Any = campaign.row.settings.get(key, fields[key].get_default(call_default_factory=True))
    elif key in PBP_KEYS:
        current = getattr(pbp_settings(campaign.row), key)
    else:
        raise RuleError(f"There is no setting {key!r} any more. Run `/campaign settings` again.")
    shown = current if isinstance(current, str) else campaigns.shown(current)
    return SettingModal(key, shown, interaction.user.id)


class EditSettingButton(LastingButton, template=r"m:set:(?P<owner>\d+):(?P<campaign>\d+):(?P<key>[A-Za-z0-9_]{1,60})"):
    """ "Edit" under one house rule: opens its form."""

    def __init__(self, owner_id: int, campaign_id: int, key: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Edit", style=discord.ButtonStyle.primary, custom_id=f"m:set:{owner_id}:{campaign_id}:{key}"
            )
        )
        self.owner_id, self.campaign_id, self.key = owner_id, campaign_id, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> EditSettingButton:
        return cls(int(match["owner"]), int(match["campaign"]), match["key"])

    async def press(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(await setting_form(interaction, self.campaign_id, self.key))


class SettingSelect(Owned, discord.ui.DynamicItem[discord.ui.Select], template=r"m:setk:(?P<owner>\d+):(?P<c>\d+)"):
    """ "Change a house rule…": pick one, and its form opens."""

    def __init__(self, owner_id: int, campaign_id: int, keys: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=clip(key, 100), value=key) for key in (keys or [])[:25]]
        super().__init__(
            discord.ui.Select(
                placeholder="Change a house rule…",
                custom_id=f"m:setk:{owner_id}:{campaign_id}",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.owner_id, self.campaign_id = owner_id, campaign_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> SettingSelect:
        return cls(int(match["owner"]), int(match["c"]))

    async def choose(self, interaction: discord.Interaction) -> None:
        (key,) = self.item.values
        await interaction.response.send_modal(await setting_form(interaction, self.campaign_id, key))


async def settings_view(interaction: discord.Interaction, key: str | None, value: str | None) -> discord.ui.View | None:
    """For a GM looking at house rules: a select of every key, or Edit for the one shown."""
    if value is not None:
        return None
    service = service_of(interaction)
    campaign = await service.campaign(place_of(interaction))
    if campaign is None or not campaign.is_gm(caller_of(interaction)):
        return None
    view = discord.ui.View(timeout=None)
    if key is None:
        keys = [*campaigns.settings_fields(service, campaign.row.ruleset), *PBP_KEYS]
        view.add_item(SettingSelect(interaction.user.id, campaign.row.id, list(dict.fromkeys(keys))))
    else:
        view.add_item(EditSettingButton(interaction.user.id, campaign.row.id, key))
    return view


# ---------------------------------------------------------------------- creating a character


def create_action(ruleset: Ruleset) -> Action:
    """The ruleset's character-creating action: ``create`` or ``<something> create``."""
    for name, action in ruleset.actions.items():
        if name == "create" or name.endswith(" create"):
            return action
    raise RuleError(f"The {ruleset.name} ruleset has no create action; its commands are under `/{ruleset.id}`.")


def _upload_fields(model: Any) -> list[str]:
    return [n for n, f in model.model_fields.items() if any(isinstance(m, Upload) for m in f.metadata)]


def _label(name: str, field: FieldInfo) -> str:
    """The option's description when it fits a label (``IQ``), else its name (``symbol drawing``)."""
    description = field.description or ""
    return description if 0 < len(description) <= MAX_LABEL else clip(name.replace("_", " ").capitalize(), MAX_LABEL)


def _default_text(field: FieldInfo) -> str:
    default = field.get_default(call_default_factory=True) if not field.is_required() else None
    if default is None:
        return ""
    return str(default).lower() if isinstance(default, bool) else str(default)


class ActionModal(OwnedModal):
    """A ruleset action as a form: its first four options as fields, the rest as ``option: value`` lines."""

    def __init__(self, ruleset: Ruleset, action: Action, owner_id: int, title: str | None = None) -> None:
        super().__init__(title=title or f"/{ruleset.id} {action.name}", owner_id=owner_id)
        self.ruleset_id, self.action_name = ruleset.id, action.name
        fields = list(action.options.model_fields.items())
        single = fields if len(fields) <= MAX_INPUTS else fields[: MAX_INPUTS - 1]
        self.more = [name for name, _ in fields[len(single) :]]
        for name, field in single:
            self.add_item(
                discord.ui.TextInput(
                    label=_label(name, field),
                    custom_id=name,
                    placeholder=clip(field.description or name, MAX_PLACEHOLDER),
                    default=_default_text(field) or None,
                    required=field.is_required(),
                    max_length=MAX_VALUE,
                )
            )
        if self.more:
            lines = [f"{name}: {_default_text(action.options.model_fields[name])}" for name in self.more]
            self.add_item(
                discord.ui.TextInput(
                    label="More options (one option: value a line)",
                    custom_id=MORE,
                    style=discord.TextStyle.paragraph,
                    default=clip("\n".join(lines), MAX_VALUE),
                    required=False,
                    max_length=MAX_VALUE,
                )
            )

    def options(self) -> dict[str, str]:
        """What was typed, by option; a blank leaves the option out so the command's default applies."""
        typed: dict[str, str] = {}
        for item in self.children:
            if not isinstance(item, discord.ui.TextInput):
                continue
            if item.custom_id != MORE:
                if item.value.strip():
                    typed[item.custom_id] = item.value.strip()
                continue
            for line in item.value.splitlines():
                if not line.strip():
                    continue
                match = MORE_LINE.match(line)
                if match is None or match[1] not in self.more:
                    raise RuleError(
                        f"`{clip(line.strip(), 60)}` is not an `option: value` line. Options here: "
                        + ", ".join(self.more)
                        + "."
                    )
                if match[2]:
                    typed[match[1]] = match[2]
        return typed

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await run_or_ask(interaction, self.ruleset_id, self.action_name, self.options(), interaction.user.id)


async def character_form(interaction: discord.Interaction) -> ActionModal:
    service = service_of(interaction)
    campaign = await service.require_campaign(place_of(interaction))
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    return ActionModal(ruleset, create_action(ruleset), interaction.user.id, f"New character ({ruleset.id})")


def _form_actions(ruleset: Ruleset) -> list[str]:
    """Actions a form can carry: with options, and none of them a file to upload."""
    return [
        name
        for name, action in ruleset.actions.items()
        if action.options.model_fields and not _upload_fields(action.options) and not action.undo
    ]


async def action_names(interaction: discord.Interaction) -> list[str]:
    service = service_of(interaction)
    campaign = await service.campaign(place_of(interaction))
    if campaign is None:
        return []
    return _form_actions(service.registry.get(campaign.row.ruleset).ruleset)


async def action_form(interaction: discord.Interaction, name: str) -> ActionModal:
    """Any action of the channel's ruleset as a form: long option lists (a spell's) are easier to fill in."""
    service = service_of(interaction)
    campaign = await service.require_campaign(place_of(interaction))
    ruleset = service.registry.get(campaign.row.ruleset).ruleset
    wanted = " ".join(name.replace("-", " ").split()).casefold().removeprefix(f"{ruleset.id} ")
    forms = _form_actions(ruleset)
    match = next((a for a in forms if a.casefold() == wanted or a.replace("-", " ").casefold() == wanted), None)
    if match is None:
        listed = ", ".join(forms) or "none"
        raise RuleError(f"/{ruleset.id} has no action {name!r} to fill in as a form. Actions: {listed}."[:1900])
    return ActionModal(ruleset, ruleset.actions[match], interaction.user.id)


FORM_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (EditSettingButton, SettingSelect)
