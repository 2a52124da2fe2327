"""/campaign: start, inspect and run a channel's campaign."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.client import MagisterBot
from bot.adapter.context import caller_of, place_of, send_reply, service_of
from bot.adapter.forms import settings_view
from bot.adapter.gm_channel import check_gm_channel, with_warning
from bot.adapter.pickers import gm_card, gm_pickers
from bot.adapter.posting import post_board
from bot.adapter.privacy import forget_player_view
from bot.adapter.views import confirm, pager, seek_renderer
from bot.table import campaigns, importer, privacy, sealed, weblinks
from bot.table.service import Reply
from cogs._common import gm_only, matching
from rules.base import Card, RuleError

QUICK = 2.0  # seconds an import may take to check before it defers: Discord waits 3 for the first answer


def upload_limit(interaction: discord.Interaction) -> int:
    """Bytes a file may have here: what Discord says this interaction may attach (25 MiB for a bot by default;
    a server's boosts raise it), else the guild's limit, else Discord's default."""
    if interaction.filesize_limit:
        return interaction.filesize_limit
    return interaction.guild.filesize_limit if interaction.guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES


class CampaignCog(commands.GroupCog, group_name="campaign", group_description="Start and run this channel's campaign"):
    def __init__(self, bot: MagisterBot) -> None:
        self.bot = bot

    gm = app_commands.Group(name="gm", description="Add or remove the campaign's GMs")
    player = app_commands.Group(name="player", description="The campaign's players")
    archive = app_commands.Group(name="archive", description="Campaigns that ended in this channel: nothing is lost")
    web = app_commands.Group(name="web", description="The campaign's pages in a browser, read-only (docs/web.md)")

    @web.command(name="link", description="A private link to this campaign's pages, for you alone (only you see it)")
    @app_commands.describe(
        days="How many days the link opens for (default 30)",
        archived="An ended campaign of this channel instead, by its # in /campaign archive list",
    )
    async def web_link(
        self,
        interaction: discord.Interaction,
        days: app_commands.Range[int, 1, weblinks.MAX_DAYS] | None = None,
        archived: app_commands.Range[int, 1, 2**53] | None = None,
    ):
        reply = await weblinks.issue(
            service_of(interaction),
            self.bot.web_links,
            place_of(interaction),
            caller_of(interaction),
            archived=archived,
            days=days,
        )
        await send_reply(interaction, reply)

    @web.command(name="revoke", description="Close every web link of the campaign (GM), or of one member")
    @app_commands.describe(
        member="Only this member's links (a GM, or the member themself)",
        archived="An ended campaign of this channel instead, by its # in /campaign archive list",
    )
    async def web_revoke(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        archived: app_commands.Range[int, 1, 2**53] | None = None,
    ):
        chosen = (member.id, member.display_name) if member is not None else None
        reply = await weblinks.revoke(
            service_of(interaction), place_of(interaction), caller_of(interaction), chosen, archived=archived
        )
        await send_reply(interaction, reply)

    @archive.command(name="list", description="This channel's ended campaigns, to export or reopen")
    async def archive_list(self, interaction: discord.Interaction):
        await send_reply(interaction, await campaigns.archive_list(service_of(interaction), place_of(interaction)))

    @archive.command(name="reopen", description="Run an ended campaign here again, as it was (its GM)")
    @app_commands.describe(id="The campaign's # in /campaign archive list")
    async def archive_reopen(self, interaction: discord.Interaction, id: app_commands.Range[int, 1, 2**53]):
        reply = await campaigns.reopen(service_of(interaction), place_of(interaction), caller_of(interaction), id)
        await send_reply(interaction, reply)

    @app_commands.command(name="start", description="Start a campaign in this channel; you become its GM")
    @app_commands.describe(
        ruleset="The magic system to play",
        name="The campaign's name",
        thread_only="In a thread: a campaign for this thread alone, not its parent channel's",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        name: app_commands.Range[str, 1, 100],
        thread_only: bool = False,
    ):
        reply = await service_of(interaction).start_campaign(
            place_of(interaction), caller_of(interaction), ruleset, name, thread_only=thread_only
        )
        await send_reply(interaction, reply)

    @start.autocomplete("ruleset")
    async def _ruleset_choices(self, interaction: discord.Interaction, current: str):
        registry = service_of(interaction).registry
        names = {item.id: f"{item.id}: {item.ruleset.name}" for item in registry}
        return [app_commands.Choice(name=names[c.value][:100], value=c.value) for c in matching(sorted(names), current)]

    @app_commands.command(name="status", description="The campaign in this channel: ruleset, GMs, characters")
    async def status(self, interaction: discord.Interaction):
        await send_reply(interaction, await campaigns.status(service_of(interaction), place_of(interaction)))

    @app_commands.command(name="settings", description="View the house rules, or set one (GM)")
    @app_commands.describe(key="The house rule to view or change", value="Its new value (GM only)")
    async def settings(self, interaction: discord.Interaction, key: str | None = None, value: str | None = None):
        reply = await campaigns.settings(
            service_of(interaction), place_of(interaction), caller_of(interaction), key, value
        )
        await send_reply(interaction, reply, view=await settings_view(interaction, key, value))

    @settings.autocomplete("key")
    async def _setting_keys(self, interaction: discord.Interaction, current: str):
        campaign = await service_of(interaction).campaign(place_of(interaction))
        if campaign is None:
            return []
        fields = campaigns.settings_fields(service_of(interaction), campaign.row.ruleset)
        return matching(sorted({*fields, *campaigns.PBP_KEYS}), current)

    @gm.command(name="add", description="Make a member a GM of this campaign (GM)")
    @gm_only()
    async def gm_add(self, interaction: discord.Interaction, member: discord.User):
        reply = await campaigns.gm_add(
            service_of(interaction), place_of(interaction), caller_of(interaction), member.id, member.display_name
        )
        await send_reply(interaction, reply)

    @gm.command(name="remove", description="Remove a GM from this campaign (GM)")
    @gm_only()
    async def gm_remove(self, interaction: discord.Interaction, member: discord.User):
        reply = await campaigns.gm_remove(
            service_of(interaction), place_of(interaction), caller_of(interaction), member.id, member.display_name
        )
        await send_reply(interaction, reply)

    @gm.command(name="pick", description="Pick co-GMs and the GM channel from lists (GM)")
    @gm_only()
    async def gm_pick(self, interaction: discord.Interaction):
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
        campaign = await service.require_campaign(place)
        await send_reply(interaction, gm_card(campaign), view=gm_pickers(caller.user_id, campaign.row.id))

    @app_commands.command(name="gmchannel", description="Where secret results go; leave empty for GM DMs (GM)")
    @app_commands.describe(channel="A channel only the GMs can read")
    @gm_only()
    async def gmchannel(self, interaction: discord.Interaction, channel: app_commands.AppCommandChannel | None = None):
        if channel is not None and channel.type not in (discord.ChannelType.text, discord.ChannelType.private_thread):
            raise app_commands.CheckFailure("Pick a text channel (or a private thread) that only the GMs can read.")
        service, place = service_of(interaction), place_of(interaction)
        warning = ""
        if channel is not None:  # who can read it: refused if the players can (bot/adapter/gm_channel.py)
            campaign = await service.require_campaign(place)
            warning = await check_gm_channel(interaction, channel, campaign.row.gm_ids)
        reply = await campaigns.gm_channel(service, place, caller_of(interaction), channel.id if channel else None)
        await send_reply(interaction, with_warning(reply, warning))

    @player.command(name="forget", description="Remove a departed player's data from this campaign (GM)")
    @app_commands.describe(member="The member to forget here: their characters stay, with no owner")
    @gm_only()
    async def player_forget(self, interaction: discord.Interaction, member: discord.User):
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
        reply = await privacy.forget_player_prompt(service, place, caller, member.id, member.display_name)
        assert reply.campaign is not None
        await send_reply(interaction, reply, view=forget_player_view(caller.user_id, reply.campaign.id, member.id))

    @app_commands.command(name="log", description="Events in this campaign, newest first, maybe filtered")
    @app_commands.describe(
        page="Page number, 1 is the newest (any page the log has)",
        player="Only this member's events",
        command="Only this command's events",
        secrets="Only the secret events (GM)",
        text="Only events whose summary has this text",
    )
    async def log(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, 2**53] = 1,
        player: discord.User | None = None,
        command: str | None = None,
        secrets: bool = False,
        text: app_commands.Range[str, 1, campaigns.LOG_TEXT_MAX] | None = None,
    ):
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
        filters = campaigns.clean_filter(
            player.id if player else None, player.display_name if player else None, command, secrets, text
        )
        reply, pages = await campaigns.log_page(service, place, page, caller, filters)
        arg, ends = filters.arg() if filters else "", campaigns.page_ends(reply)
        view = pager("log", interaction.user.id, reply.outcome.data["page"], pages, arg, ends)
        await send_reply(interaction, reply, view=view)

    @log.autocomplete("command")
    async def _log_commands(self, interaction: discord.Interaction, current: str):
        campaign = await service_of(interaction).campaign(place_of(interaction))
        if campaign is None:
            return []
        return matching(await campaigns.commands_seen(service_of(interaction), campaign), current.lstrip("/"))

    @app_commands.command(name="waiting", description="Who this table waits on, for what, and until when")
    @app_commands.describe(mine="List every channel of this server that waits on you instead")
    async def waiting(self, interaction: discord.Interaction, mine: bool = False):
        reply = await campaigns.waiting(
            service_of(interaction), place_of(interaction), caller_of(interaction), mine=mine
        )
        await send_reply(interaction, reply)

    @app_commands.command(name="board", description="Post the live board here, or move it to the bottom (GM)")
    @gm_only()
    async def board(self, interaction: discord.Interaction):
        reply = await post_board(self.bot, place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(name="pause", description="Hold every reminder and deadline, e.g. for a holiday (GM)")
    @gm_only()
    async def pause(self, interaction: discord.Interaction):
        reply = await campaigns.pause(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(name="resume", description="Start the timers again; deadlines move on by the pause (GM)")
    @gm_only()
    async def resume(self, interaction: discord.Interaction):
        reply = await campaigns.resume(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(name="recap", description="What happened here since you last acted (only you see it)")
    async def recap(self, interaction: discord.Interaction):
        reply = await campaigns.recap(service_of(interaction), place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(
        name="export", description="Download the campaign, or an ended one, as JSON and Markdown (GM)"
    )
    @app_commands.describe(archived="An ended campaign of this channel, by its # in /campaign archive list")
    async def export(self, interaction: discord.Interaction, archived: app_commands.Range[int, 1, 2**53] | None = None):
        # a long campaign takes longer than Discord's 3 seconds to answer in: defer first
        await interaction.response.defer(ephemeral=True, thinking=True)
        limit = upload_limit(interaction)
        with tempfile.TemporaryDirectory(prefix="magister-export-") as folder:
            reply, batches = await campaigns.export(
                service_of(interaction),
                place_of(interaction),
                caller_of(interaction),
                Path(folder),
                limit=limit,
                archived=archived,
            )
            first, *rest = batches
            await send_reply(interaction, reply, files=[discord.File(path) for path in first])
            for number, batch in enumerate(rest, start=2):
                files = [discord.File(path) for path in batch]
                await interaction.followup.send(
                    f"Export, message {number} of {len(batches)}", files=files, ephemeral=True
                )

    @app_commands.command(name="import", description="Start a campaign here from a /campaign export file (its GM)")
    @app_commands.describe(file="The .json or .json.gz that /campaign export made")
    async def import_campaign(self, interaction: discord.Interaction, file: discord.Attachment):
        limit = upload_limit(interaction)
        if file.size > limit:
            raise RuleError(importer.too_large(file.size, limit))
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)

        async def checked() -> importer.Prepared:
            try:
                body = await file.read()
            except discord.HTTPException:
                raise RuleError(f"Could not download {file.filename} from Discord; attach it again.") from None
            return await importer.prepare(service, place, caller, body, limit=limit)

        # A refusal is the first answer, to the importer alone. A long log takes longer to check than Discord waits
        # for that answer: then it defers, ephemerally, so a refusal still reaches no one else.
        checking = asyncio.ensure_future(checked())
        await asyncio.wait({checking}, timeout=QUICK)
        slow = not checking.done()
        if slow:
            await interaction.response.defer(ephemeral=True, thinking=True)
        prepared = await checking
        try:
            if not slow:
                await interaction.response.defer(thinking=True)  # writing a long log takes more than 3 seconds
        except BaseException:
            await prepared.aclose()
            raise
        reply = await importer.import_campaign(service, place, caller, prepared)
        if slow:  # the deferred answer is the importer's alone: say so there, and post the card for everyone
            await interaction.edit_original_response(content="Imported: the card below tells the channel.")
        await send_reply(interaction, reply)

    @app_commands.command(name="undo", description="Revert the latest change, or a chosen one nothing depends on (GM)")
    @app_commands.describe(event="The change to revert, by its # in the log (default: the latest)")
    @gm_only()
    async def undo(self, interaction: discord.Interaction, event: app_commands.Range[int, 1, 2**53] | None = None):
        caller = caller_of(interaction)
        reply, asked = await campaigns.undo(service_of(interaction), place_of(interaction), caller, event)
        if asked is None or reply.campaign is None:  # the caller's own newest change: reverted at once
            await send_reply(interaction, reply)
            return
        await send_reply(interaction, reply, view=confirm("undo", caller.user_id, reply.campaign.id, asked))

    @app_commands.command(name="reveal", description="Post a sealed secret result and its salt, for all to check (GM)")
    @app_commands.describe(event="The sealed result, by its # in the log (🔐)")
    @gm_only()
    async def reveal(self, interaction: discord.Interaction, event: app_commands.Range[int, 1, 2**53]):
        reply = await sealed.reveal(service_of(interaction), place_of(interaction), caller_of(interaction), event)
        await send_reply(interaction, reply)

    @reveal.autocomplete("event")
    async def _sealed_to_reveal(self, interaction: discord.Interaction, current: str):
        found = await sealed.choices(
            service_of(interaction), place_of(interaction), caller_of(interaction), current, to_reveal=True
        )
        return [app_commands.Choice(name=label, value=number) for label, number in found]

    @app_commands.command(name="redo", description="Bring back what the latest undo reverted, if nothing changed (GM)")
    @gm_only()
    async def redo(self, interaction: discord.Interaction):
        reply = await service_of(interaction).redo(place_of(interaction), caller_of(interaction))
        await send_reply(interaction, reply)

    @app_commands.command(name="end", description="Archive this campaign after confirming; nothing is deleted (GM)")
    @gm_only()
    async def end(self, interaction: discord.Interaction):
        service, place, caller = service_of(interaction), place_of(interaction), caller_of(interaction)
        campaign = await service.require_campaign(place)  # @gm_only() has checked the caller
        reply = campaigns.end_prompt(campaign)
        view = confirm("end", caller.user_id, campaign.row.id)
        await send_reply(interaction, Reply(reply, campaign.row), view=view)


@seek_renderer("log")
async def _log_page(
    interaction: discord.Interaction, arg: str, page: int, older_than: int | None, newer_than: int | None
) -> tuple[Card, int, int, tuple[int, int] | None]:
    """A page of the log as its reader (the button's owner) may see it, with the filters it was asked with; a
    filtered page seeks from the event its button names."""
    service, place = service_of(interaction), place_of(interaction)
    filters = await campaigns.filter_from_arg(service, place, arg)
    reply, pages = await campaigns.log_page(
        service, place, page, caller_of(interaction), filters, older_than=older_than, newer_than=newer_than
    )
    return reply.outcome.card, reply.outcome.data["page"], pages, campaigns.page_ends(reply)


async def setup(bot: MagisterBot) -> None:
    await bot.add_cog(CampaignCog(bot))
