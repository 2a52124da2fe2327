"""/character: the characters of this channel's campaign, whatever its ruleset."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.forms import character_form
from bot.adapter.pickers import sheet_picker
from bot.table import campaigns, privacy, say
from cogs._common import character_names, gm_only, matching, own_character_names
from rules.base import RuleError


class CharacterCog(commands.GroupCog, group_name="character", group_description="Characters in this campaign"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    @app_commands.command(name="list", description="Every character in this campaign")
    async def list_(self, interaction: discord.Interaction):
        service, place = service_of(interaction), place_of(interaction)
        reply = await campaigns.character_list(service, place)
        campaign = await service.require_campaign(place)
        await send_reply(interaction, reply, view=sheet_picker(interaction.user.id, campaign))

    @app_commands.command(name="create", description="Create a character for this campaign's ruleset with a form")
    async def create(self, interaction: discord.Interaction):
        await interaction.response.send_modal(await character_form(interaction))

    @app_commands.command(name="show", description="A character's sheet")
    @app_commands.autocomplete(name=character_names)
    async def show(self, interaction: discord.Interaction, name: str):
        reply = await campaigns.character_show(
            service_of(interaction), place_of(interaction), caller_of(interaction), name
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="pronouns", description="How the bot speaks of a character: they/them, she/her, he/him…")
    @app_commands.describe(
        name="One of your characters (GMs: any)",
        pronouns="they/them, she/her, he/him, it/its, or your own as xe/xem/xyr",
    )
    @app_commands.autocomplete(name=own_character_names)
    async def pronouns(
        self, interaction: discord.Interaction, name: str, pronouns: app_commands.Range[str, 1, 40]
    ) -> None:
        reply = await campaigns.character_pronouns(
            service_of(interaction), place_of(interaction), caller_of(interaction), name, pronouns
        )
        await send_reply(interaction, reply)

    @pronouns.autocomplete("pronouns")
    async def _pronoun_choices(self, interaction: discord.Interaction, current: str):
        return matching(list(campaigns.PRONOUN_CHOICES), current)

    @app_commands.command(
        name="avatar", description="A character's picture for its posts (`/say as`): attach one or link one"
    )
    @app_commands.describe(
        name="One of your characters (GMs: any)",
        image="The picture, uploaded (PNG, JPEG, GIF or WebP)",
        url="Or a link to the picture: https://…",
        clear="Remove the picture: posts show the default one",
    )
    @app_commands.autocomplete(name=own_character_names)
    async def avatar(
        self,
        interaction: discord.Interaction,
        name: str,
        image: discord.Attachment | None = None,
        url: app_commands.Range[str, 1, say.MAX_URL] | None = None,
        clear: bool = False,
    ) -> None:
        if sum((image is not None, url is not None, clear)) != 1:
            raise RuleError("Give the picture one way: `image:` (upload it), `url:` (a https:// link) or `clear:true`.")
        if image is not None and not (image.content_type or "").startswith("image/"):
            raise RuleError(f"`{image.filename}` is not a picture: upload a PNG, JPEG, GIF or WebP.")
        chosen = None if clear else say.check_avatar_url(image.url if image is not None else url or "")
        reply = await say.set_avatar(
            service_of(interaction), place_of(interaction), caller_of(interaction), name, chosen
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="owner", description="Give a character to a player, e.g. a departed one's (GM)")
    @app_commands.describe(name="The character", member="Who plays it from now on")
    @app_commands.autocomplete(name=character_names)
    @gm_only()
    async def owner(self, interaction: discord.Interaction, name: str, member: discord.User):
        reply = await privacy.character_owner(
            service_of(interaction), place_of(interaction), caller_of(interaction), name, member.id, member.display_name
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="delete", description="Delete one of your characters (GMs: any); undo can restore it")
    @app_commands.autocomplete(name=own_character_names)
    async def delete(self, interaction: discord.Interaction, name: str):
        reply = await campaigns.character_delete(
            service_of(interaction), place_of(interaction), caller_of(interaction), name
        )
        await send_reply(interaction, reply)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(CharacterCog(bot))
