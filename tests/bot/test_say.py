"""/say: speaking as a character, with rolls inside; at the console and through real Discord interactions.

The Discord tests run the real :class:`DiscordSpeaker` (a channel webhook found or made once, ``thread=`` in a
thread, the bot itself without Manage Webhooks) against the in-process Discord API, which checks each webhook
message against Discord's limits (a name of 1 to 80 characters without "discord" or "clyde", 2000 characters).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.adapter.speaking import DiscordSpeaker, RecordingSpeaker, webhook_name
from bot.cli.console import ConsoleTable
from bot.cli.virtual import BOT_PERMISSIONS, ChannelPosts, VirtualUser
from bot.table.registry import Registry
from tests.conftest import Console
from tests.support.discord_harness import ok, refused, slash

SETUP = (
    "@as Gwen",
    "/campaign start ruleset:runic name:Camelot",
    "@as Pat",
    "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
)


async def _setup(console: Console, *lines: str) -> None:
    for line in (*SETUP, *lines):
        await console.ok(line)


async def _events(console: Console) -> int:
    campaign = await console.table.bot.service.campaign(console.table._place())
    assert campaign is not None
    return await console.table.bot.service.store.count_events(campaign.row.id)


def _json(path: str) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _speaker(console: Console) -> RecordingSpeaker:
    speaker = console.table.bot.speaker
    assert isinstance(speaker, RecordingSpeaker)
    return speaker


# ---------------------------------------------------------------------- the console


async def test_a_post_is_printed_as_the_character_with_every_roll_logged_as_its_command(console: Console) -> None:
    await _setup(console)
    before = await _events(console)
    result = await console.ok('/say as text:"I strike! [[3d6+2]] then [[1d20+5 # to hit]] and [[check 12]]"')
    assert result["ephemeral"]  # the author's note; the post itself is the channel's
    post = result["post"]["text"]
    assert post.startswith("Merlin\nI strike! [🎲 3d6 (")
    assert "to hit: 1d20 (" in post and "vs 12:" in post
    assert post.endswith("-# played by Pat")
    assert "[[" not in post
    data = result["data"]
    assert data["character"] == "Merlin" and [r["command"] for r in data["rolls"]] == ["roll", "roll", "check"]
    assert await _events(console) == before + 4  # three rolls as /roll, /roll, /check, then the post
    log = await console.ok("/campaign log")
    assert "/roll: rolled 3d6+2 = " in log["text"] and "/check: 3d6 vs 12: " in log["text"]
    assert "/say: Merlin: I strike!" in log["text"]


def _words(text: str) -> str:
    """A reply without what holds digits by chance: hashes, times, event numbers."""
    for chance in (r"`[0-9a-f]{64}`", r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", r"#\d+", r"(event|post):\d+"):
        text = re.sub(chance, "", text)
    return text


async def test_a_secret_inline_roll_goes_to_the_gm_like_a_secret_roll(console: Console) -> None:
    await _setup(console)
    result = await console.ok('/say as text:"I listen at the door [[secret 1d20+3 # Perception]]"')
    courier = console.table.courier.sent
    assert len(courier) == 1 and courier[0].card.title.startswith("Secret: Perception: ")
    rolled = courier[0].card.title.removeprefix("Secret: Perception: ")
    post = result["post"]["text"]
    assert "secret roll, sent to the GM" in post and "Perception" not in post  # not even what it was for
    # sealed like any secret roll: the channel reads the roll's commitment (#3), and nothing of its result
    assert "Sealed #3" in result["text"] and rolled not in _words(result["text"])
    verified = await console.ok("/verify event:3")
    assert "sealed" in verified["text"].casefold() and rolled not in _words(verified["text"]), verified["text"]
    form = await console.ok("@menu Edit post")  # its author still sees the roll as written
    assert form["form"]["fields"]["text"] == "I listen at the door [[secret 1d20+3 # Perception]]"
    kept = await console.ok('@form text:"I listen hard [[SECRET 1d20+3 #Perception]]"')
    assert kept["post"]["text"].startswith("Merlin\nI listen hard [🎲 secret roll, sent to the GM]")
    await console.ok("@as Vic")
    log = await console.ok("/campaign log")
    assert "Perception" not in log["text"]
    assert rolled not in _words(result["text"])  # the total reaches nobody but the GM
    assert all(rolled not in str(r) for r in result["data"]["rolls"])
    log = await console.ok("/campaign log")  # a player's log: made, by whom; the result on the GM's side only
    assert "/roll: made a secret roll" in log["text"]


async def test_the_ruleset_declares_its_own_inline_rolls(console: Console) -> None:
    for line in (
        "@as Gwen",
        "/campaign start ruleset:awakened name:Boston",
        "@as Pat",
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter '
        'resistance:composure gnosis:3 arcana:"Life 3, Spirit 2"',
    ):
        await console.ok(line)
    result = await console.ok('/say as text:"Life, answer me! [[pool 6]]"')
    assert "pool 6 " in result["post"]["text"] and "success" in result["post"]["text"]
    assert result["data"]["rolls"][0]["command"] == "pool"
    refusal = await console.fails('/say as text:"[[check 12]]"')  # a 3d6 word is not this ruleset's
    assert "`[[pool 6]]`" in refusal["text"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("I roll [[3d6", "never closed"),
        ("[[1d1000000]]", "1000000 sides is too large"),
        (" ".join(["[[1d6]]"] * 11), "at most 10"),
        ("[[]]", "Put dice between"),
        ("[[fireball 3]]", "not a roll I know here"),
        ("[[check 200]]", "skill must be from -50 to 100"),
        ("[[check twelve]]", "needs whole numbers after `check`"),
        ("[[200d6]]", "too many dice"),
        ("[[1d6 [[1d8]]]]", "cannot hold another"),
    ],
)
async def test_bad_input_is_refused_plainly_and_posts_and_logs_nothing(console: Console, text: str, says: str) -> None:
    await _setup(console)
    before = await _events(console)
    result = await console.fails(f'/say as text:"{text}"')
    assert says in result["text"], result["text"]
    assert await _events(console) == before and not _speaker(console).posts


async def test_only_its_owner_and_the_gms_speak_as_a_character(console: Console) -> None:
    await _setup(console, "@as Vic", "/runic mage create name:Nimue magery:2 iq:14 thaumatology:14")
    refusal = await console.fails('/say as character:Merlin text:"I am Merlin now"')
    assert "belongs to another player" in refusal["text"]
    await console.ok("@gm")
    result = await console.ok('/say as character:Merlin text:"The GM speaks for Merlin"')
    assert result["post"]["text"].startswith("Merlin\n")
    many = await console.fails('/say as text:"Who am I?"')  # a GM with no character of their own
    assert "no character" in many["text"]


async def test_an_edit_changes_the_words_and_never_the_rolls(console: Console) -> None:
    await _setup(console)
    posted = await console.ok('/say as text:"I strike [[3d6+2]] and dodge [[1d20]]"')
    number = posted["data"]["number"]
    first, second = (r["shown"] for r in posted["data"]["rolls"])
    edited = await console.ok(f'/say edit post:{number} text:"I strike hard [[3d6 + 2]]"')
    text = edited["post"]["text"]
    assert f"I strike hard {first}" in text  # kept in its place: the same roll, as rolled
    assert text.count("[🎲") == 2 and second in text  # the one left out stays, at the end
    new_roll = await console.fails(f'/say edit post:{number} text:"Now [[1d100]]"')
    assert "cannot roll" in new_roll["text"]
    assert _speaker(console).posts[posted["post"]["message_id"]].content == text.split("\n", 1)[1]
    again = await console.ok('/say edit text:"Plain words"')  # no number: my newest post here
    assert again["data"]["post"] == number and first in again["post"]["text"]


async def test_who_may_edit_or_delete_a_post_and_what_the_log_keeps(console: Console) -> None:
    await _setup(console)
    posted = await console.ok('/say as text:"Hello [[1d6]]"')
    number = posted["data"]["number"]
    await console.ok("@as Vic")
    refusal = await console.fails(f'/say edit post:{number} text:"Vic was here"')
    assert "Pat's" in refusal["text"]
    await console.fails(f"/say delete post:{number}")
    assert (await console.fails("/say delete post:1"))["text"].startswith("#1 is not a post")
    await console.ok("@gm")
    await console.ok(f'/say edit post:{number} text:"Hello, said the GM"')
    await console.ok(f"/say delete post:{number}")
    assert not _speaker(console).posts
    gone = await console.fails(f"/say delete post:{number}")
    assert "deleted already" in gone["text"]
    log = await console.ok("/campaign log")
    assert "/say delete: deleted post" in log["text"] and "/roll: rolled 1d6" in log["text"]


async def test_undo_passes_over_a_post_and_its_rolls(console: Console) -> None:
    await _setup(console)
    await console.ok('/say as text:"Before the undo [[1d6]]"')
    await console.ok("@gm")
    undone = await console.undo()
    assert undone["data"]["command"] == "runic mage create"  # the newest change; the post changed nothing
    assert len(_speaker(console).posts) == 1


async def test_a_characters_avatar_is_set_checked_and_undone(console: Console, tmp_path: Path) -> None:
    await _setup(console)
    await console.ok("/character avatar name:Merlin url:https://example.com/merlin.png")
    result = await console.ok('/say as text:"Behold my face"')
    post = _speaker(console).posts[result["post"]["message_id"]]
    assert post.avatar == "https://example.com/merlin.png"
    for bad in ("url:http://example.com/x.png", "url:javascript:alert(1)", "url:x clear:true"):
        refusal = await console.fails(f"/character avatar name:Merlin {bad}")
        assert "https://" in refusal["text"] or "one way" in refusal["text"]
    text = tmp_path / "notes.txt"
    text.write_text("not a picture")
    assert "not a picture" in (await console.fails(f"/character avatar name:Merlin image:{text}"))["text"]
    picture = tmp_path / "merlin.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n")
    await console.ok(f"/character avatar name:Merlin image:{picture}")
    await console.ok("@gm")
    await console.undo()
    await console.ok("@as Pat")
    result = await console.ok('/say as text:"Back to my link"')
    assert _speaker(console).posts[result["post"]["message_id"]].avatar == "https://example.com/merlin.png"


# ---------------------------------------------------------------------- Discord


@pytest.fixture
async def discord_table(tmp_path: Path, registry: Registry) -> AsyncIterator[tuple[ConsoleTable, ChannelPosts]]:
    table = await ConsoleTable.open(tmp_path / "say.sqlite3", seed=3, registry=registry)
    try:
        for line in (*SETUP, "/character avatar name:Merlin url:https://example.com/m.png"):
            result = await table.execute(line)
            assert result is not None and result.ok, (line, result and result.text)
        table.bot.speaker = DiscordSpeaker()
        yield table, table.virtual.record_posts()
    finally:
        await table.close()


async def test_discord_posts_through_one_channel_webhook_as_the_character(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, posts = discord_table
    reply = await ok(table, "Pat", "say as", text="I strike! [[3d6+2]] <@123> @everyone")
    assert reply.ephemeral and "post #" in reply.text
    await ok(table, "Pat", "say as", text="And again [[1d20 # to hit]]")
    (hook,) = posts.hooks[table.virtual.channel_id]  # made once, then remembered
    assert hook["name"] == "Magister"
    first, second = table.virtual.adapter.webhooks
    assert first.kind == second.kind == "webhook" and first.username == "Merlin"
    assert first.avatar_url == "https://example.com/m.png"
    assert first.content is not None and first.content.startswith("I strike! [🎲 3d6 (")
    assert first.content.endswith("\n-# played by Pat")
    assert first.allowed_mentions == {"parse": []}  # words that look like pings ping nobody
    assert not posts.sent  # the bot posted nothing as itself

    edited = await ok(table, "Pat", "say edit", text="I aim true! [[1d20 #to hit]]")
    assert "edited" in edited.text
    change = table.virtual.adapter.webhooks[-1]
    assert change.kind == "webhook edit" and change.id == second.id  # my newest post
    assert change.content is not None and change.content.startswith("I aim true! [🎲 to hit: 1d20 (")
    await ok(table, "Pat", "say delete", post=reply.data["number"])
    assert table.virtual.adapter.webhooks[-1].kind == "webhook delete"
    assert table.virtual.adapter.webhooks[-1].id == first.id


async def test_discord_in_a_thread_uses_the_parents_webhook(discord_table: tuple[ConsoleTable, ChannelPosts]) -> None:
    table, posts = discord_table
    table.virtual.thread_id = 3001
    await ok(table, "Pat", "say as", text="In the scene [[1d6]]")
    (sent,) = table.virtual.adapter.webhooks
    assert sent.thread_id == 3001 and list(posts.hooks) == [table.virtual.channel_id]
    await ok(table, "Pat", "say delete")
    assert table.virtual.adapter.webhooks[-1].thread_id == 3001


async def test_discord_finds_its_webhook_again_after_a_restart(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, posts = discord_table
    posts.hook(table.virtual.channel_id, "Magister", mine=False)  # someone else's of the same name: not ours
    mine = posts.hook(table.virtual.channel_id, "Magister")
    await ok(table, "Pat", "say as", text="Hello again")
    assert len(posts.hooks[table.virtual.channel_id]) == 2  # found, not made
    route_ids = {str(s.id) for s in table.virtual.adapter.webhooks}
    assert route_ids and mine["token"].startswith("hook-")


async def test_discord_without_manage_webhooks_posts_as_itself_and_says_what_it_needs(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, posts = discord_table
    table.virtual.app_permissions = BOT_PERMISSIONS & ~discord.Permissions(manage_webhooks=True).value
    reply = await ok(table, "Pat", "say as", text="Quietly [[1d6]]")
    assert "Manage Webhooks" in reply.text
    (message,) = posts.sent
    assert message.content is not None and message.content.startswith("**Merlin**\nQuietly [🎲 1d6 (")
    assert message.content.endswith("-# Merlin, played by Pat")
    assert not table.virtual.adapter.webhooks
    await ok(table, "Pat", "say edit", text="Loudly [[1d6]]")
    assert posts.changed[-1].kind == "edit" and posts.changed[-1].id == message.id
    await ok(table, "Pat", "say delete")
    assert posts.changed[-1].kind == "delete" and posts.changed[-1].id == message.id


async def test_discord_refusing_the_webhook_falls_back_to_the_bot(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, posts = discord_table
    posts.refuse_webhooks = True  # the permission says yes, the channel's overwrites say no
    await ok(table, "Pat", "say as", text="Through the bot")
    (message,) = posts.sent
    assert message.content is not None and message.content.startswith("**Merlin**")


async def test_discord_refuses_bad_input_with_nothing_sent(discord_table: tuple[ConsoleTable, ChannelPosts]) -> None:
    table, posts = discord_table
    reply = await refused(table, "Pat", "say as", text="[[3d6")
    assert "never closed" in reply.error  # type: ignore[operator]
    reply = await slash(table, "Vic", "say as", character="Merlin", text="Not mine")
    assert reply.error is not None and "belongs to another player" in reply.error
    assert not table.virtual.adapter.webhooks and not posts.sent


@pytest.mark.parametrize("name", ["Clyde", "The DISCORD Knight", "x" * 100, "  spaced   out  "])
def test_webhook_names_keep_within_discords_rules(name: str) -> None:
    from bot.adapter.limits import webhook_problems

    shown = webhook_name(name)
    assert webhook_problems({"username": shown}) == []
    assert shown.replace("\u200b", "").casefold().startswith(" ".join(name.split())[:10].casefold())


async def test_right_click_a_post_to_edit_or_delete_it(console: Console) -> None:
    await _setup(console)
    posted = await console.ok('/say as text:"Hello [[1d6]]"')
    form = await console.ok("@menu Edit post")
    assert form["form"]["fields"] == {"text": "Hello [[1d6]]"}  # its words as typed
    edited = await console.ok('@form text:"Hello there [[1d6]]"')
    assert edited["post"]["text"].startswith("Merlin\nHello there " + posted["data"]["rolls"][0]["shown"])
    await console.ok("@as Vic")
    refusal = await console.fails("@menu Delete post")
    assert "Pat's" in refusal["text"]
    await console.ok("@gm")
    await console.ok("@menu Delete post")
    assert not _speaker(console).posts


async def test_discord_right_click_on_the_webhook_message(discord_table: tuple[ConsoleTable, ChannelPosts]) -> None:
    table, _ = discord_table
    await ok(table, "Pat", "say as", text="Right-click me")
    (message,) = table.virtual.adapter.webhooks
    interaction, sent = await table.virtual.context_menu(VirtualUser("Pat"), "Delete post", message=message)
    assert interaction.extras.get("error") is None and "deleted" in sent[-1].embeds[0]["title"]
    assert table.virtual.adapter.webhooks[-1].kind == "webhook delete"


async def test_a_post_and_its_rolls_are_in_the_export(console: Console) -> None:
    await _setup(console)
    posted = await console.ok('/say as text:"For the record [[2d6]] and [[secret 1d20 # ambush]]"')
    await console.ok('/say edit text:"For the log [[2d6]]"')
    await console.ok("@gm")
    result = await console.ok("/campaign export")
    document = _json(next(p for p in result["files"] if p.endswith(".json")))
    commands = [event["command"] for event in document["events"]]
    assert commands[-4:] == ["roll", "roll", "say", "say edit"]
    say_event = document["events"][-2]
    public = {key: value for key, value in say_event["result"].items() if key != "secret"}
    assert public["text"] == "For the record [[2d6]] and [[secret roll]]"  # what it was for is the GM's
    assert "ambush" not in json.dumps(public)
    assert say_event["result"]["secret"]["data"]["text"] == "For the record [[2d6]] and [[secret 1d20 # ambush]]"
    assert say_event["result"]["message_id"] == posted["post"]["message_id"]
    secret = document["events"][-3]["result"]  # the GM's export holds the secret side, as for /roll secret:true
    assert secret["secret"]["data"]["label"] == "ambush"


async def test_a_post_too_long_with_its_rolls_shown_is_refused(console: Console) -> None:
    await _setup(console)
    before = await _events(console)
    refusal = await console.fails(f'/say as text:"{"a" * 1700} [[100d6]]"')
    assert "Discord allows 2000" in refusal["text"] and "Nothing was posted" in refusal["text"]
    assert await _events(console) == before and not _speaker(console).posts


async def test_discord_a_name_discord_refuses_for_a_webhook_is_carried_so_it_reads_the_same(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, _ = discord_table
    result = await table.execute('/runic mage create name:"Clyde the Discord Knight" magery:1 iq:12 thaumatology:12')
    assert result is not None and result.ok, result and result.text
    await ok(table, "Pat", "say as", character="Clyde the Discord Knight", text="Hail!")
    (sent,) = table.virtual.adapter.webhooks  # the virtual Discord refuses "clyde" or "discord" in a name with a 400
    assert sent.username is not None and sent.username.replace("\u200b", "") == "Clyde the Discord Knight"


async def test_discord_makes_a_new_webhook_when_someone_deleted_its_own(
    discord_table: tuple[ConsoleTable, ChannelPosts],
) -> None:
    table, posts = discord_table
    await ok(table, "Pat", "say as", text="First")
    (old,) = posts.hooks.pop(table.virtual.channel_id)  # a moderator deletes the webhook in Discord
    table.virtual.adapter.gone_hooks.add(int(old["id"]))
    await ok(table, "Pat", "say as", text="Second")
    (new,) = posts.hooks[table.virtual.channel_id]
    assert new["id"] != old["id"]
    assert [s.content.split("\n")[0] for s in table.virtual.adapter.webhooks if s.content] == ["First", "Second"]
