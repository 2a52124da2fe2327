"""Real discord.Interaction objects through the real CommandTree, replies recorded."""

from __future__ import annotations

import discord

from bot.adapter.render import embed_problems
from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser, command_data
from tests.conftest import Console
from tests.support.db import fetch


def assert_embeds_fit(sent) -> None:
    for message in sent:
        for embed in message.embeds:
            assert embed_problems(discord.Embed.from_dict(embed)) == [], embed


async def test_commands_arrive_as_real_interactions(console: Console) -> None:
    table: ConsoleTable = console.table
    data = command_data(table.virtual.tree, ["roll"], {"expression": "2d6"}, guild_id=table.virtual.guild_id)
    interaction, sent = await table.virtual.command(VirtualUser("Alice"), data)
    assert type(interaction) is discord.Interaction
    assert interaction.command is not None and interaction.command.qualified_name == "roll"
    assert interaction.user.display_name == "Alice"
    assert interaction.guild_id == table.virtual.guild_id
    (message,) = sent
    assert message.kind == "message" and not message.ephemeral
    assert message.embeds[0]["title"].startswith("Roll: ")
    assert_embeds_fit(sent)


async def test_campaign_lifecycle_through_the_tree(console: Console) -> None:
    started = await console.ok("/campaign start ruleset:tally name:Crows")
    assert started["data"]["ruleset"] == "tally" and not started["ephemeral"]
    await console.ok("/tally create name:Pip")
    await console.ok("/tally add name:Pip")
    status = await console.ok("/campaign status")
    assert status["data"]["characters"] == ["Pip"] and status["data"]["events"] == 3
    log = await console.ok("/campaign log")
    assert [e["command"] for e in log["data"]["events"]] == ["tally add", "tally create", "campaign start"]
    shown = await console.ok("/character show name:Pip")
    assert shown["data"]["sheet"] == {"points": 1}
    listed = await console.ok("/character list")
    assert "1 points" in listed["text"]


async def test_end_asks_then_archives_on_confirm(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    prompt = await console.ok("/campaign end")
    assert prompt["buttons"] == ["Confirm", "Cancel"] and prompt["ephemeral"]
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Crows"  # not yet
    await console.ok("@press Confirm")
    gone = await console.fails("/campaign status")
    assert "no campaign" in gone["text"]
    # archived, not deleted: a new campaign may start and the old row is still there
    await console.ok("/campaign start ruleset:tally name:Ravens")
    store = console.table.bot.service.store
    rows = await fetch(store, "SELECT name, archived_at IS NOT NULL FROM campaigns ORDER BY id")
    assert rows == [("Crows", 1), ("Ravens", 0)]


async def test_cancel_changes_nothing(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign end")
    cancelled = await console.ok("@press Cancel")
    assert "Nothing was changed" in cancelled["text"]
    await console.ok("/campaign status")


async def test_only_the_gm_may_end_or_press(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign end")
    await console.ok("@as Mallory")
    refused = await console("@press Confirm")
    assert "belong to whoever ran the command" in refused["text"]
    await console.ok("@gm")
    await console.ok("/campaign status")  # still running
    await console.ok("@as Mallory")
    assert "needs the GM" in (await console.fails("/campaign end"))["text"]


async def test_player_cannot_run_gm_commands_or_touch_others(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("@as Oz")
    for line in ("/tally reset", "/campaign settings key:step value:2", "/campaign gm add member:Oz", "/campaign undo"):
        assert "needs the GM" in (await console.fails(line))["text"], line
    assert "belongs to another player" in (await console.fails("/tally add name:Pip"))["text"]
    assert "belongs to another player" in (await console.fails("/character delete name:Pip"))["text"]
    await console.ok("@gm")
    await console.ok("/campaign gm add member:Oz")
    await console.ok("@as Oz")
    await console.ok("/tally reset")


async def test_settings_view_and_set(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    view = await console.ok("/campaign settings")
    assert view["data"]["settings"] == {"step": 1} and view["ephemeral"]
    assert view["data"]["pbp"]["turn_timeout"] == "gm"
    changed = await console.ok("/campaign settings key:step value:3")
    assert changed["data"] == {"key": "step", "old": 1, "new": 3}
    bad = await console.fails("/campaign settings key:step value:lots")
    assert "`step` takes a whole number" in bad["text"]
    unlucky = await console.fails("/campaign settings key:step value:13")
    assert "unlucky" in unlucky["text"]
    unknown = await console.fails("/campaign settings key:colour value:red")
    assert "step" in unknown["text"] and "turn_deadline" in unknown["text"]
    await console.ok("/tally create name:Pip")
    assert (await console.ok("/tally add name:Pip"))["data"]["points"] == 3


async def test_secret_roll_goes_to_the_gm(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    result = await console.ok("/roll expression:1d20 label:stealth secret:true")
    assert result["ephemeral"]
    assert "went to the GM by direct message" in result["text"]
    assert result["secret"]["to"] == "the GM by direct message"
    assert "stealth" in result["secret"]["text"]
    (sent,) = console.table.courier.sent
    assert sent.destination == "gm dm"
    await console.ok("@gm")
    await console.ok("/campaign gmchannel channel:gm-only")
    await console.ok("@as Pat")
    result = await console.ok("/roll expression:1d20 secret:true")
    assert result["secret"]["to"] == "the GM channel"
    assert console.table.courier.sent[-1].destination.startswith("gm channel ")


async def test_ruleset_secret_reaches_the_gm_and_not_the_channel(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    result = await console.ok("/tally whisper")
    assert "only the GM reads this" not in result["text"]
    assert "only the GM reads this" in result["secret"]["text"]


async def test_bug_shows_incident_and_rolls_back(console: Console, caplog) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    result = await console("/tally boom")
    assert not result["ok"] and result["ephemeral"]
    incident = result["incident"]
    assert f"incident `{incident}`" in result["text"] and "Traceback" not in result["text"]
    assert any(incident in record.getMessage() for record in caplog.records)
    status = await console.ok("/campaign status")
    assert status["data"]["events"] == 2  # start + create: the failed action logged nothing
    assert (await console.ok("/character show name:Pip"))["data"]["sheet"] == {"points": 0}


async def test_export_attaches_json_and_markdown(console: Console, tmp_path) -> None:
    import json

    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    result = await console.ok("/campaign export")
    assert sorted(p.rsplit("/", 1)[-1] for p in result["files"]) == ["crows-log.md", "crows.json"]
    document = json.loads((tmp_path / "exports" / "crows.json").read_text())
    assert document["campaign"]["name"] == "Crows" and document["characters"][0]["name"] == "Pip"
    assert "tally create" in (tmp_path / "exports" / "crows-log.md").read_text()


async def test_log_pages_with_buttons(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    for _ in range(12):
        await console.ok("/tally add name:Pip")
    first = await console.ok("/campaign log")
    assert first["data"]["pages"] == 2 and first["buttons"] == ["Next"]
    second = await console.ok("@press Next")
    assert "Page 2 of 2" in second["text"]
    assert (await console.ok("/campaign log page:2"))["data"]["events"][-1]["command"] == "campaign start"


async def test_autocomplete_answers_from_the_channel(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    for name in ("Pip", "Pippa", "Quill"):
        await console.ok(f"/tally create name:{name}")
    table = console.table
    data = command_data(table.virtual.tree, ["character", "show"], {"name": "pi"}, focused="name", guild_id=1001)
    choices = await table.virtual.autocomplete(VirtualUser("Alice"), data)
    assert [c["name"] for c in choices] == ["Pip", "Pippa"]
    data = command_data(table.virtual.tree, ["campaign", "start"], {"ruleset": ""}, focused="ruleset", guild_id=1001)
    rulesets = await table.virtual.autocomplete(VirtualUser("Alice"), data)
    assert "tally" in [c["value"] for c in rulesets] and len(rulesets) <= 25


async def test_console_errors_say_what_would_work(console: Console) -> None:
    assert "Options: expression, label, secret" in (await console.fails("/roll dice:3d6"))["text"]
    assert "needs `expression:`" in (await console.fails("/roll"))["text"]
    assert "takes true or false" in (await console.fails("/roll expression:1d6 secret:maybe"))["text"]
    assert "Unknown command" in (await console.fails("/fly"))["text"]
    assert "Directives" in (await console.fails("@dance"))["text"]
    assert "double quotes" in (await console.fails('/roll expression:"1d6'))["text"]


async def test_dice_work_where_a_user_installed_the_app_and_campaigns_stay_in_servers(console: Console) -> None:
    payloads = {c.name: c.to_dict(console.table.virtual.tree) for c in console.table.virtual.tree.get_commands()}
    for name in ("roll", "check", "contest", "pool", "odds", "lookup", "help", "macro"):
        assert payloads[name]["contexts"] == [0, 1, 2] and payloads[name]["integration_types"] == [0, 1], name
    for name in ("campaign", "character", "runic", "serpent", "awakened", "realm", "saga"):
        assert payloads[name]["contexts"] == [0] and payloads[name]["integration_types"] == [0], name
    await console.ok("@guild 0")  # a DM with the user-installed app
    rolled = await console.ok("/roll expression:2d6")
    assert len(rolled["data"]["dice"]) == 2
    assert (await console.ok("/lookup term:Pierce"))["ok"]
    refused = await console.fails("/campaign status")
    assert "works in a server's channel" in refused["text"]
