"""The one place an exception becomes words for a user, for commands, buttons, selects and modals alike.

A user error (:class:`rules.base.RuleError`, a failed check, a bad option value) is
shown as it is. A database that cannot be reached now
(:class:`bot.storage.rows.DatabaseUnavailableError`) is not a bug: one line says so, and
one line (no traceback) goes to the log. Anything else is a bug: it is logged with an
incident id, and the user sees the id and that nothing was changed (the service rolled
the action back).
"""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands

from bot.adapter.limits import MAX_CONTENT
from bot.storage.rows import DatabaseUnavailableError
from rules.base import RuleError
from rules.text import clip

log = logging.getLogger("magister")

UNREACHABLE = "The campaign database cannot be reached right now, so nothing was changed. Please try again in a minute."
MAYBE_SAVED = (
    "The connection to the campaign database broke while this was being saved, so it may or may not have been "
    "saved: look at `/campaign log` before trying again."
)


async def send_text(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    text = clip(text, MAX_CONTENT)  # Discord refuses a longer message, and the user would see nothing at all
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


def where(interaction: discord.Interaction) -> str:
    """The command, or the button's command, for the log."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = (interaction.data or {}).get("custom_id", "?")  # type: ignore[union-attr]
    return f"component {custom_id}"


def user_message(interaction: discord.Interaction, error: BaseException) -> str:
    """What the user reads; a bug is logged here with the incident id it shows."""
    if isinstance(error, RuleError):
        return str(error)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"`{error.value}` is not a valid value for this option."
    if isinstance(error, DatabaseUnavailableError):  # the server is down or restarting: the next command retries
        log.warning("database unreachable in %s: %s", where(interaction), error.reason)
        return MAYBE_SAVED if error.maybe_saved else UNREACHABLE
    incident = uuid.uuid4().hex[:8]
    interaction.extras["incident"] = incident
    log.error("incident %s in %s", incident, where(interaction), exc_info=error)
    return (
        f"Something went wrong on our side (incident `{incident}`). Nothing was changed. "
        "Please tell the bot's owner the incident id."
    )


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user, ephemerally; if even that fails (the interaction expired), the log still says why."""
    message = user_message(interaction, error)
    interaction.extras["error"] = message
    try:
        await send_text(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not show an error to the user in %s: %s", where(interaction), message)
