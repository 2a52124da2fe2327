"""/say: speak as your character, with rolls inside (``[[3d6+2]]``); edit or delete the post after.

Discord does not let a command also be a group, so speaking is ``/say as``, beside ``/say edit`` and
``/say delete``. The words and rolls are the table's (bot/table/say.py, bot/table/inline.py); where the post goes
is the speaker's (bot/adapter/speaking.py). Right-click a post for "Edit post" and "Delete post" (cogs/menus.py).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import Host, caller_of, place_of, send_reply, send_seal, send_secret, service_of
from bot.adapter.forms import OwnedModal
from bot.adapter.speaking import Voice
from bot.table import say
from bot.table.service import Place
from cogs._common import own_character_names
from rules.base import RuleError

Text = app_commands.Range[str, 1, say.MAX_TEXT]
Number = app_commands.Range[int, 1, 1_000_000_000]
NOT_POSTED = (
    "I could not post in this channel: check that Magister may send messages here (and has Manage Webhooks, to "
    "post as the character). The rolls were made and logged; the post was not."
)


async def speak(interaction: discord.Interaction, character: str | None, text: str) -> None:
    """Roll the post's inline rolls (each logged as its command; a secret one to the GM), post it, log it."""
    bot: Host = interaction.client  # type: ignore[assignment]
    service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
    post = await say.draft(service, place, caller, character, text)  # refused here: nothing rolled, nothing posted
    await interaction.response.defer(ephemeral=True, thinking=True)
    rolls = await say.log_rolls(service, place, caller, post)
    for roll in rolls:
        await send_secret(interaction, roll)
    voice = Voice(
        post.character,
        post.avatar,
        say.content(post.character, caller.name, post.body, as_bot=False),
        say.content(post.character, caller.name, post.body, as_bot=True),
    )
    try:
        spoken = await bot.speaker.say(bot, place, voice, webhooks=interaction.app_permissions.manage_webhooks)
    except discord.HTTPException:
        raise RuleError(NOT_POSTED) from None
    reply = await say.log_post(service, place, caller, post, rolls, message_id=spoken.message_id, as_bot=spoken.as_bot)
    await send_reply(interaction, reply)
    for roll in rolls:  # a secret inline roll is sealed like any secret roll: its commitment goes to the channel
        await send_seal(interaction, roll)


def _where(interaction: discord.Interaction, post: say.Post) -> Place:
    here = place_of(interaction)
    return Place(here.guild_id, int(post.data["channel_id"]), post.data.get("thread_id"))


async def edit_post(interaction: discord.Interaction, post: say.Post, text: str) -> None:
    """New words for a post; its rolls stay as rolled. Refused before the message changes."""
    bot: Host = interaction.client  # type: ignore[assignment]
    service, caller = service_of(interaction), caller_of(interaction)
    body = say.edited_body(post, text)
    as_bot = bool(post.data.get("as_bot"))
    new = say.content(post.character, post.event.actor_name, body, as_bot=as_bot)
    if not await bot.speaker.edit(bot, _where(interaction, post), post.message_id, new, as_bot=as_bot):
        raise RuleError(f"Post #{post.number}'s message is gone from the channel, so there is nothing to edit.")
    reply = await say.log_edit(service, place_of(interaction), caller, post, text, body)
    await send_reply(interaction, reply)


async def delete_post(interaction: discord.Interaction, post: say.Post) -> None:
    """Take a post down; the log keeps it, and its rolls."""
    bot: Host = interaction.client  # type: ignore[assignment]
    as_bot = bool(post.data.get("as_bot"))
    await bot.speaker.delete(bot, _where(interaction, post), post.message_id, as_bot=as_bot)  # gone already: fine
    reply = await say.log_delete(service_of(interaction), place_of(interaction), caller_of(interaction), post)
    await send_reply(interaction, reply)


# ---------------------------------------------------------------------- right-click a post


class EditPostForm(OwnedModal):
    """The post's words prefilled; submitting edits it as ``/say edit post:`` would."""

    def __init__(self, post: say.Post, owner_id: int) -> None:
        super().__init__(title=f"Edit post #{post.number} ({post.character})", owner_id=owner_id)
        self.number = post.number
        self.words: discord.ui.TextInput = discord.ui.TextInput(
            label="Its words (write a roll as it was to keep it)",
            style=discord.TextStyle.paragraph,
            default=post.text,
            max_length=say.MAX_TEXT,
            custom_id="text",
        )
        self.add_item(self.words)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        found = await say.find(
            service_of(interaction), place_of(interaction), caller_of(interaction), number=self.number
        )
        await edit_post(interaction, found, self.words.value)


@app_commands.context_menu(name="Edit post")
async def edit_menu(interaction: discord.Interaction, message: discord.Message) -> None:
    """A form with the post's words; its author and the GMs may change them (the rolls stay as rolled)."""
    found = await say.find(
        service_of(interaction), place_of(interaction), caller_of(interaction), message_id=message.id
    )
    await interaction.response.send_modal(EditPostForm(found, interaction.user.id))


@app_commands.context_menu(name="Delete post")
async def delete_menu(interaction: discord.Interaction, message: discord.Message) -> None:
    """Take the post down, as ``/say delete post:`` would."""
    found = await say.find(
        service_of(interaction), place_of(interaction), caller_of(interaction), message_id=message.id
    )
    await delete_post(interaction, found)


MENUS = (edit_menu, delete_menu)


class SayCog(commands.GroupCog, group_name="say", group_description="Speak as your character, with rolls inside"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="as", description="Post as your character; [[3d6+2]] or [[check 12]] rolls inside")
    @app_commands.describe(
        text="What your character says or does, with rolls in [[ ]]: I strike! [[1d20+5 # to hit]]",
        character="Your character (GMs: any); leave it out if you have one",
    )
    @app_commands.autocomplete(character=own_character_names)
    async def as_(self, interaction: discord.Interaction, text: Text, character: str | None = None) -> None:
        await speak(interaction, character, text)

    @app_commands.command(name="edit", description="Change a post's words (yours; GMs: any). Its rolls stay as rolled")
    @app_commands.describe(
        text="The new words; write a roll as it was ([[3d6+2]]) to keep it in its place",
        post="The post's number in the log (the reply to `/say as` names it); default: your newest post here",
    )
    async def edit(self, interaction: discord.Interaction, text: Text, post: Number | None = None) -> None:
        found = await say.find(service_of(interaction), place_of(interaction), caller_of(interaction), number=post)
        await edit_post(interaction, found, text)

    @app_commands.command(name="delete", description="Take a post down (yours; GMs: any). The log keeps its rolls")
    @app_commands.describe(post="The post's number in the log; default: your newest post here")
    async def delete(self, interaction: discord.Interaction, post: Number | None = None) -> None:
        found = await say.find(service_of(interaction), place_of(interaction), caller_of(interaction), number=post)
        await delete_post(interaction, found)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(SayCog(bot))
    for menu in MENUS:  # context menus cannot live in a cog
        bot.tree.add_command(menu)


async def teardown(bot: MagisterBot) -> None:
    for menu in MENUS:
        bot.tree.remove_command(menu.name, type=menu.type)
