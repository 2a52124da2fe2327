"""Slash commands generated from a ruleset's actions, so Discord and the rules never disagree.

Each :class:`rules.base.Action` becomes ``/<ruleset> <path>``: its options model's
fields become the command's options (type, bounds, Literal choices, description,
default), and the callback hands them to the table service unchanged. Discord
allows one level of groups, so ``battle encounter add`` registers as
``/serpent battle encounter-add``.
"""

from __future__ import annotations

import inspect
import types
import typing
from typing import Any, Literal

import discord
from discord import app_commands
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.help import command_path
from bot.adapter.pickers import character_choice
from bot.adapter.views import ask_first, buttons_for
from bot.table.secrecy import suggestions
from bot.table.service import ConfirmFirstError
from cogs._common import MAX_CHOICES, matching
from rules.base import Action, NoCharacterNamedError, RuleError, Ruleset, Upload
from rules.text import clip

DISCORD_INT_LIMIT = 2**53
DESCRIBED = 100  # Discord's limit on a command's or an option's description


def build_group(ruleset: Ruleset) -> app_commands.Group:
    """The ``/<ruleset id>`` command tree for every action the ruleset declares.

    A reply carries the lasting buttons and selects the ruleset declares for it (``Ruleset.reply_items``).
    """
    root = app_commands.Group(name=ruleset.id, description=clip(ruleset.name, DESCRIBED))
    groups: dict[str, app_commands.Group] = {}
    for action in ruleset.actions.values():
        group_name, command_name = command_path(action.name)
        parent = root
        if group_name is not None:
            parent = groups.get(group_name) or app_commands.Group(
                name=group_name, description=clip(f"{group_name.title()} commands", DESCRIBED), parent=root
            )
            groups[group_name] = parent
        command = app_commands.Command(
            name=command_name,
            description=clip((action.description or action.name) + (" (GM)" if action.gm_only else ""), DESCRIBED),
            callback=_callback(ruleset, action),
            parent=parent,
            extras={"example": action.example},  # /help shows it, when the action declares one
        )
        for field_name in _free_text_fields(action.options):
            command.autocomplete(field_name)(_suggester(ruleset, action, field_name))
        parent.add_command(command)
    return root


def _callback(ruleset: Ruleset, action: Action):
    """An async function whose signature is the options model, as discord.py reads it."""

    uploads = _upload_fields(action.options)

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        for name, upload in uploads.items():
            if options.get(name) is not None:
                options[name] = await read_upload(options[name], upload)
        service = service_of(interaction)
        try:
            reply = await service.run(place_of(interaction), caller_of(interaction), ruleset.id, action.name, options)
        except ConfirmFirstError as ask:  # it asks first in this state: the question, with Confirm and Cancel
            await ask_first(interaction, ask)
            return
        except NoCharacterNamedError as error:  # no character named: offer the list, when re-running loses nothing
            choice = await character_choice(interaction, ruleset.id, action.name, options)
            if choice is None:
                raise
            text = f"{error} {choice[0]}"
            interaction.extras["error"] = text
            await interaction.response.send_message(text, view=choice[1], ephemeral=True)
            choice[1].stop()
            return
        await send_reply(interaction, reply, view=buttons_for(service.registry, ruleset.id, reply, interaction.user.id))

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    descriptions = {}
    for name, field in action.options.model_fields.items():
        annotation, default = _option_type(name, field)
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
        )
        descriptions[name] = clip(field.description or name.replace("_", " ").capitalize(), DESCRIBED)
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    # discord.py treats a callback whose qualname differs from its name as a method (and skips "self")
    callback.__name__ = callback.__qualname__ = f"{ruleset.id}_{action.name.replace(' ', '_').replace('-', '_')}"
    callback.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    return callback


def _option_type(name: str, field: FieldInfo) -> tuple[Any, Any]:
    """The discord.py annotation and default for one options field."""
    if _upload_of(field) is not None:
        if field.is_required():
            return discord.Attachment, inspect.Parameter.empty
        return discord.Attachment | None, None
    annotation = field.annotation
    optional = False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        if len(members) != 1:
            raise TypeError(f"option {name!r}: a slash-command option has one type, not {annotation!r}")
        annotation = members[0]
    low, high = _bounds(field)
    if typing.get_origin(annotation) is Literal:
        values = typing.get_args(annotation)
        if len(values) > MAX_CHOICES:
            raise TypeError(f"option {name!r}: {len(values)} choices; Discord allows {MAX_CHOICES}")
        resolved: Any = annotation
    elif annotation is bool:
        resolved = bool
    elif annotation is int:
        resolved = app_commands.Range[int, max(low, -DISCORD_INT_LIMIT), min(high, DISCORD_INT_LIMIT)]
    elif annotation is float:
        resolved = (
            app_commands.Range[float, low, high] if (low, high) != (-DISCORD_INT_LIMIT, DISCORD_INT_LIMIT) else float
        )
    elif annotation is str:
        resolved = app_commands.Range[str, max(low, 0), min(high, 6000) if high < DISCORD_INT_LIMIT else 6000]
    else:
        raise TypeError(f"option {name!r}: {annotation!r} cannot be a slash-command option")
    if field.is_required():
        default = inspect.Parameter.empty
    else:
        default = None  # leave it out: the model's own default applies
        optional = True
    return (resolved | None if optional else resolved), default


def _bounds(field: FieldInfo) -> tuple[int, int]:
    low, high = -DISCORD_INT_LIMIT, DISCORD_INT_LIMIT
    for item in field.metadata:
        for attribute, kind in (("ge", "low"), ("gt", "low+"), ("min_length", "low"), ("le", "high"), ("lt", "high-")):
            value = getattr(item, attribute, None)
            if value is None:
                continue
            if kind.startswith("low"):
                low = max(low, int(value) + (1 if kind == "low+" else 0))
            else:
                high = min(high, int(value) - (1 if kind == "high-" else 0))
        max_length = getattr(item, "max_length", None)
        if max_length is not None:
            high = min(high, int(max_length))
    return low, high


def _upload_of(field: FieldInfo) -> Upload | None:
    return next((item for item in field.metadata if isinstance(item, Upload)), None)


def _upload_fields(model: type[BaseModel]) -> dict[str, Upload]:
    return {name: upload for name, field in model.model_fields.items() if (upload := _upload_of(field)) is not None}


async def read_upload(attachment: discord.Attachment, upload: Upload) -> str:
    """An attached file's text, refused plainly when too large or not text."""
    if attachment.size > upload.max_bytes:
        raise RuleError(
            f"{attachment.filename} is {attachment.size:,} bytes; the limit is {upload.max_bytes:,}. {upload.too_large}"
        )
    try:
        body = await attachment.read()
    except discord.HTTPException:
        raise RuleError(f"Could not download {attachment.filename} from Discord; attach it again.") from None
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError(
            f"{attachment.filename} is not UTF-8 text. Save it as UTF-8 (plain text) and attach it again."
        ) from None


def _free_text_fields(model: type[BaseModel]) -> list[str]:
    """String options without fixed choices: the ones autocomplete can help with."""
    names = []
    for name, field in model.model_fields.items():
        if _upload_of(field) is not None:
            continue
        annotation = field.annotation
        args = typing.get_args(annotation) if typing.get_origin(annotation) in (typing.Union, types.UnionType) else ()
        if annotation is str or str in args:
            names.append(name)
    return names


def _suggester(ruleset: Ruleset, action: Action, field_name: str):
    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        service = service_of(interaction)
        campaign = await service.campaign(place_of(interaction))
        if campaign is None or campaign.row.ruleset != ruleset.id:
            return []
        table = service.table_for(campaign, caller_of(interaction))
        names = suggestions(ruleset, table, action.name, field_name, current)  # nothing the caller may not see
        return matching(list(dict.fromkeys(names)), current)

    return suggest
