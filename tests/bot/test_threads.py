"""Threads and forum posts (issue 13): they play in their parent channel's campaign, and the log says which."""

from __future__ import annotations

from tests.conftest import Console


async def _campaign(console: Console) -> None:
    for line in ("@as Gwen", "/campaign start ruleset:tally name:Crows", "@as Pat", "/tally create name:Pip"):
        await console.ok(line)


async def test_a_thread_plays_in_its_parents_campaign_and_the_log_says_which_thread(console: Console) -> None:
    await _campaign(console)
    await console.ok("@thread 3001")
    added = await console.ok("/tally add name:Pip")
    assert added["data"]["count"] == 1
    await console.ok("@thread off")
    assert (await console.ok("/tally add name:Pip"))["data"]["count"] == 2
    await console.ok("@as Gwen")
    events = (await console.ok("/campaign log"))["data"]["events"]
    assert [e.get("thread_id") for e in events[:2]] == [None, 3001]
    assert "in <#3001>" in (await console.ok("/campaign log"))["text"]


async def test_start_in_a_thread_says_it_uses_the_parents_campaign(console: Console) -> None:
    await _campaign(console)
    await console.ok("@as Gwen")
    await console.ok("@thread 3001")
    refused = await console.fails("/campaign start ruleset:tally name:Side")
    assert "parent channel's campaign 'Crows'" in refused["text"] and "thread_only:true" in refused["text"]


async def test_a_thread_only_campaign_is_the_threads_alone(console: Console) -> None:
    await _campaign(console)
    await console.ok("@as Gwen")
    await console.ok("@thread 3001")
    started = await console.ok("/campaign start ruleset:tally name:Side thread_only:true")
    assert "this thread only" in started["text"]
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Side"
    await console.ok("@thread 3002")
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Crows"
    await console.ok("@thread off")
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Crows"
    assert "is for a thread" in (await console.fails("/campaign start ruleset:tally name:X thread_only:true"))["text"]


async def test_a_campaign_started_in_a_thread_of_a_quiet_channel_is_the_parents(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("@thread 3001")
    started = await console.ok("/campaign start ruleset:tally name:Crows")
    assert "the parent channel <#2002> and all its threads" in started["text"]
    await console.ok("@thread off")
    assert (await console.ok("/campaign status"))["data"]["campaign"] == "Crows"
