"""The live board (issue 13): one message per campaign, edited after each change, coalesced, re-posted if deleted."""

from __future__ import annotations

from bot.adapter.posting import RecordingPoster
from tests.conftest import Console

SERPENT = (
    "@as Gwen",
    "/campaign start ruleset:serpent name:Serpents",
    "@as Pat",
    '/serpent magi create name:White codex:"Pillar of Earth, Acidic Matter x2, Air Essence, Judgement"',
    "@as Oz",
    '/serpent magi create name:Black codex:"Fireball x2, Dissolve Tissue x2, Beast Form"',
    "@as Gwen",
)


def _poster(console: Console) -> RecordingPoster:
    poster = console.table.bot.poster
    assert isinstance(poster, RecordingPoster)
    return poster


async def test_the_board_follows_each_change_and_comes_back_if_deleted(console: Console) -> None:
    for line in SERPENT:
        await console.ok(line)
    posted = await console.ok("/campaign board")
    assert posted["ephemeral"] and not posted["data"]["moved"]
    poster = _poster(console)
    first = posted["data"]["message_id"]
    assert poster.board_log == [("post", first)] and "Live board" in poster.boards[first].footer
    await console.ok("/serpent battle start essence:7")
    assert poster.board_log[-1] == ("edit", first)
    before = poster.boards[first]
    await console.ok("@as Pat")
    await console.ok("/serpent battle join")
    assert poster.boards[first] != before and "White" in str(poster.boards[first])
    await console.ok("/campaign status")  # a read changes nothing: no edit
    assert len(poster.board_log) == 3

    del poster.boards[first]  # someone deleted the message
    await console.ok("@as Oz")
    await console.ok("/serpent battle join")
    ((kind, second),) = poster.board_log[-1:]
    assert kind == "post" and second != first
    await console.ok("@as Gwen")
    moved = await console.ok("/campaign board")
    assert moved["data"]["moved"] and poster.board_log[-2:] == [
        ("delete", second),
        ("post", moved["data"]["message_id"]),
    ]


async def test_a_burst_of_changes_makes_one_edit(console: Console) -> None:
    for line in SERPENT:
        await console.ok(line)
    await console.ok("/campaign board")
    keeper = console.table.bot.boards
    campaign = await console.table.bot.service.campaign(console.table._place())
    edits = keeper.edits
    for _ in range(5):
        keeper.touch(campaign.row.id, console.table._place())
    await keeper.flush()
    assert keeper.edits == edits + 1


async def test_only_a_gm_posts_it_and_a_ruleset_without_one_says_so(console: Console) -> None:
    for line in SERPENT:
        await console.ok(line)
    await console.ok("@as Pat")
    assert "needs the GM" in (await console.fails("/campaign board"))["text"]
    await console.ok("@channel 2010")
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Counting")  # the tests' ruleset has no board
    assert "no live board yet" in (await console.fails("/campaign board"))["text"]


async def test_the_runic_board_shows_the_party(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:runic name:Camelot")
    await console.ok("@as Pat")
    await console.ok("/runic mage create name:Merlin magery:3 iq:15 thaumatology:15")
    await console.ok("@as Gwen")
    posted = await console.ok("/campaign board")
    poster = _poster(console)
    board = poster.boards[posted["data"]["message_id"]]
    assert "MP 60/60 · FP 10/10 · HP 10/10" in str(board) and "Merlin" in str(board)
    await console.ok("/runic adjust character:Merlin field:mp value:40 reason:spent")
    assert "MP 40/60" in str(poster.boards[posted["data"]["message_id"]])  # edited after the change


async def test_the_awakened_board_shows_the_scene_and_each_mage(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:awakened name:Boston")
    await console.ok("@as Pat")
    await console.ok(
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
        'gnosis:3 arcana:"Forces 3, Life 3, Spirit 3" mana_max:15 willpower:5 health:7'
    )
    await console.ok("@as Gwen")
    posted = await console.ok("/campaign board")
    board = str(_poster(console).boards[posted["data"]["message_id"]])
    assert "Day 1, scene 1, round 1" in board and "Ash" in board and "Gnosis 3" in board
    await console.ok("@as Pat")
    await console.ok("/awakened spell cast spell:Veil arcana:Life aspect:covert")
    assert "Veil" in str(_poster(console).boards[posted["data"]["message_id"]])
