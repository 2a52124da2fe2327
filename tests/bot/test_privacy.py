"""A member's data (issue 21, item 6): a copy of it (``/privacy export``), erasing it (``/privacy forget``, and the
operator's ``python -m bot forget``), a GM removing a departed player from one campaign (``/campaign player
forget``), and giving their characters to someone (``/character owner``). Through the real command tree, on
both backends: the story and its numbering stay, the member's id and name go, and undo cannot bring them back."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from bot.cli.console import ConsoleTable
from bot.storage.protocol import Store
from tests.conftest import Console
from tests.support.db import target

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("campaigns", "characters", "events", "macros", "waits", "timers", "members", "boards", "web_access")


async def everything(store: Store) -> str:
    """Every row of every table, as text: where a member's id or name would show if anything kept it."""

    def read() -> str:
        with store.snapshot() as query:
            return "\n".join(repr(row) for table in TABLES for row in query(f"SELECT * FROM {table}", ()))

    return await asyncio.to_thread(read)


def exported(result: dict) -> dict:
    """The JSON file a ``/privacy export`` reply attached."""
    (path,) = result["files"]
    return json.loads(Path(path).read_text(encoding="utf-8"))


async def numbers(console: Console) -> list[int]:
    """The log's numbers, oldest first, as the GM reads them."""
    return [event["id"] for event in reversed((await console.ok("/campaign log"))["data"]["events"])]


async def pat_plays_two_campaigns(console: Console) -> int:
    """Alice's Crows (Pat plays Pip and is a co-GM) and, in channel 2003, Oz's Ravens (Pat plays Pod). Pat's id."""
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm add member:Pat")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally add name:Pip")
    await console.ok("/tally whisper")
    await console.ok("/roll expression:1d20 secret:true")
    await console.ok('/macro save name:hit expression:"1d20+3 # sword"')
    await console.ok("/macro save name:volley expression:3d6 scope:campaign")
    await console.ok("/remind timezone zone:Europe/Paris")
    await console.ok('/remind set when:2h text:"bring snacks"')
    await console.ok("@channel 2003")
    await console.ok("@as Oz")
    await console.ok("/campaign start ruleset:tally name:Ravens")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pod")
    await console.ok("/tally confide")  # a private entry (Pat is no GM here): the log keeps its readers by id
    await console.ok("@as Oz")
    await console.ok('/remind set when:1d text:"Pat: your turn" who:Pat')
    await console.ok("@channel 2002")
    await console.ok("@as Alice")
    return console.table.user_id("Pat")


async def test_a_member_forgets_themselves_everywhere_and_the_story_stays(console: Console) -> None:
    pat = await pat_plays_two_campaigns(console)
    before = await numbers(console)
    assert str(pat) in await everything(console.table.bot.service.store)

    await console.ok("@as Pat")
    prompt = await console.ok("/privacy forget")
    assert prompt["ephemeral"] and prompt["buttons"] == ["Confirm", "Cancel"]
    assert "cannot be undone" in prompt["text"]
    await console.ok("@as Oz")
    assert "belong to whoever ran the command" in (await console("@press Confirm"))["text"]
    await console.ok("@as Pat")
    done = await console.ok("@press Confirm")
    assert done["ephemeral"] and "Magister has forgotten you" in done["text"]
    assert len(done["data"]["campaigns"]) == 2 and done["data"]["macros"] == 1 and done["data"]["timezone"]

    # nothing anywhere holds Pat's id or name: every table, every JSON column (state, results, undo snapshots)
    stored = await everything(console.table.bot.service.store)
    assert str(pat) not in stored
    assert not re.search(r"\bPat\b", stored), [line for line in stored.splitlines() if re.search(r"\bPat\b", line)]

    # the story stays: every entry, with its number, now told of a former member
    await console.ok("@as Alice")
    assert await numbers(console) == before
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert [e["actor"] for e in log if e["command"] in ("tally create", "tally add", "roll")] == ["a former member"] * 3
    assert any(e["summary"] == "added GM a former member" for e in log)
    assert any(e.get("secret") == "whispered the password swordfish" for e in log)  # the GM's side stays the GM's
    status = await console.ok("/campaign status")
    assert status["data"]["gm_ids"] == [console.table.user_id("Alice")]
    assert status["data"]["characters"] == ["Pip"]
    listed = await console.ok("/character list")
    assert "**Pip** (no owner): 1 points" in listed["text"]
    assert (await console.ok("/macro list"))["data"]["campaign"] == ["volley"]  # the table's shared macro stays
    assert (await console.ok("/remind list"))["data"]["reminders"] == []
    await console.ok("@channel 2003")
    assert (await console.ok("/remind list"))["data"]["reminders"] == []  # Oz's reminder was for Pat alone

    # Pat is a stranger now: nothing to export, nothing to act with
    await console.ok("@as Pat")
    mine = exported(await console.ok("/privacy export"))
    assert (mine["characters"], mine["events"], mine["macros"], mine["reminders"]) == ([], [], [], [])
    assert mine["time_zone"] is None and mine["gm_of"] == []
    await console.ok("@channel 2002")
    assert "belongs to another player" in (await console.fails("/tally add name:Pip"))["text"]


async def test_undo_after_forgetting_never_brings_the_member_back(console: Console) -> None:
    """Undo snapshots hold owners and GM lists: undoing a change made before the erasure puts back the change, never
    the erased id."""
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign gm add member:Pat")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("/tally add name:Pip")  # its snapshot: Pip as it was, owned by Pat
    await console.ok("@as Alice")
    await console.ok("/campaign gmchannel channel:gm-only")  # its snapshot: the GMs as they were, Pat among them
    await console.ok("@as Pat")
    await console.ok("/privacy forget")
    await console.ok("@press Confirm")
    await console.ok("@as Alice")
    pat = console.table.user_id("Pat")

    undone = await console.ok("/campaign undo")  # the GM channel: the GMs come back without Pat
    assert undone["data"]["command"] == "campaign gmchannel"
    assert (await console.ok("/campaign status"))["data"]["gm_ids"] == [console.table.user_id("Alice")]
    await console.ok("/campaign undo")  # Pip's point: Pip comes back as it was, with no owner
    listed = await console.ok("/character list")
    assert listed["data"]["characters"] == [{"name": "Pip", "owner_id": 0}]
    await console.ok("/campaign undo")  # Pip's creation
    await console.ok("/campaign undo")  # adding Pat as GM: undone to before it, and still no Pat
    assert (await console.ok("/campaign status"))["data"]["gm_ids"] == [console.table.user_id("Alice")]
    assert str(pat) not in await everything(console.table.bot.service.store)


async def test_a_gm_forgets_a_departed_player_in_this_campaign_only(console: Console) -> None:
    pat = await pat_plays_two_campaigns(console)
    await console.ok("/tally ask names:Pip")  # the table waits on Pip's player
    before = await numbers(console)

    await console.ok("@as Oz")
    assert "needs the GM" in (await console.fails("/campaign player forget member:Pat"))["text"]
    await console.ok("@as Alice")
    prompt = await console.ok("/campaign player forget member:Pat")
    assert prompt["ephemeral"] and prompt["buttons"] == ["Confirm", "Cancel"]
    assert prompt["data"]["characters"] == ["Pip"]
    await console.ok("@as Pat")
    assert "belong to whoever ran the command" in (await console("@press Confirm"))["text"]
    await console.ok("@as Alice")
    done = await console.ok("@press Confirm")
    assert done["data"]["characters"] == 1 and done["data"]["was_gm"] and done["data"]["reminders"] == 1

    # the log keeps every number, adds the forgetting (naming no one), and cannot undo it
    log = (await console.ok("/campaign log"))["data"]["events"]
    assert [e["id"] for e in reversed(log)] == [*before, before[-1] + 1]
    assert log[0]["summary"].startswith("forgot a departed member: 1 character now without an owner")
    assert not any("Pat" in e["summary"] or e["actor"] == "Pat" for e in log)
    assert (await console.ok("/campaign status"))["data"]["gm_ids"] == [console.table.user_id("Alice")]
    # a wait on Pip now waits on no player: the GMs are pinged, never the forgotten player
    await console.ok("/tally pass name:Pip")
    asked = await console.ok("/tally ask names:Pip")
    assert asked["pings"] == ["Alice"]

    # only this campaign: Ravens, Pat's own macro and time zone are untouched
    await console.ok("@channel 2003")
    assert (await console.ok("/character list"))["data"]["characters"] == [{"name": "Pod", "owner_id": pat}]
    await console.ok("@as Pat")
    mine = exported(await console.ok("/privacy export"))
    assert [c["name"] for c in mine["characters"]] == ["Pod"]
    assert [m["name"] for m in mine["macros"]] == ["hit"] and mine["time_zone"] == "Europe/Paris"


async def test_a_gm_gives_a_forgotten_players_character_to_another(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok("@as Alice")
    assert "only GM" in (await console.fails("/campaign player forget member:Alice"))["text"]
    await console.ok("/campaign player forget member:Pat")
    await console.ok("@press Confirm")
    await console.ok("@as Quinn")
    assert "needs the GM" in (await console.fails("/character owner name:Pip member:Quinn"))["text"]
    await console.ok("@as Alice")
    given = await console.ok("/character owner name:Pip member:Quinn")
    assert given["data"] == {"name": "Pip", "owner_id": console.table.user_id("Quinn")}
    await console.ok("@as Quinn")
    assert (await console.ok("/tally add name:Pip"))["data"]["points"] == 1
    await console.ok("@as Alice")
    await console.undo()  # Quinn's add: another's change, so it asks first
    await console.undo()  # the gift: Pip has no owner again
    assert (await console.ok("/character list"))["data"]["characters"] == [{"name": "Pip", "owner_id": 0}]


async def test_the_export_is_the_members_own_and_never_another_members_secret(console: Console) -> None:
    await pat_plays_two_campaigns(console)
    await console.ok("@as Oz")
    await console.ok("/tally create name:Ox")
    await console.ok("/tally whisper")

    await console.ok("@as Pat")
    result = await console.ok("/privacy export")
    assert result["ephemeral"] and result["files"][0].endswith("magister-my-data.json")
    mine = exported(result)
    text = json.dumps(mine)
    assert mine["format"] == "magister-member/1" and mine["user_id"] == console.table.user_id("Pat")
    assert sorted(c["name"] for c in mine["characters"]) == ["Pip", "Pod"]
    pip = next(c for c in mine["characters"] if c["name"] == "Pip")
    assert pip["campaign"] == "Crows" and pip["sheet"]["sheet"] == {"points": 1}
    commands = [e["command"] for e in mine["events"]]
    assert commands == ["tally create", "tally add", "tally whisper", "roll", "tally create", "tally confide"]
    confided = next(e for e in mine["events"] if e["command"] == "tally confide")
    assert confided.get("private") == "confided the plan: the north gate"  # their own private side is theirs
    assert "Ox" not in text and "Oz" not in text  # no other member's data
    # Pat is a GM of Crows: the GM's side of their own entries there is theirs to read
    secrets = {e["summary"]: e.get("secret") for e in mine["events"]}
    assert secrets["whispered"] == "whispered the password swordfish"
    assert {m["name"]: m["campaign"] for m in mine["macros"]} == {"hit": None, "volley": "Crows"}
    assert [r["text"] for r in mine["reminders"]] == ["bring snacks"]
    assert mine["time_zone"] == "Europe/Paris" and [g["campaign"] for g in mine["gm_of"]] == ["Crows"]

    # a player who is no GM reads only the public side, even of their own secret entries
    await console.ok("@as Alice")
    await console.ok("/campaign gm remove member:Pat")
    await console.ok("@as Pat")
    again = json.dumps(exported(await console.ok("/privacy export")))
    assert "swordfish" not in again and "1d20 =" not in again


async def test_the_operator_forgets_a_user_everywhere_from_the_command_line(tmp_path: Path, registry) -> None:
    db = tmp_path / "cli.sqlite3"
    table = await ConsoleTable.open(db, seed=7, files_dir=tmp_path / "files", registry=registry)
    console = Console(table)
    try:
        pat = await pat_plays_two_campaigns(console)
        before = await numbers(console)
    finally:
        await table.close()

    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MAGISTER_"))}
    environment |= {"MAGISTER_DB": str(target(db)), "PYTHONPATH": str(ROOT)}

    def forget(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "bot", "forget", *args],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = forget("--user", str(pat))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"forgot user {pat} in 2 campaigns:"
    assert any(
        "'Crows'" in line and "1 character now without an owner" in line and "removed as GM" in line for line in lines
    )
    assert any("'Ravens'" in line and "channel 2003" in line for line in lines)
    assert lines[-1].strip() == "1 own macro deleted, 0 reminders outside campaigns deleted, time zone deleted"
    again = forget("--user", str(pat))
    assert again.returncode == 0 and again.stdout.strip() == f"nothing to forget: Magister keeps no data of user {pat}"
    refused = forget("--user", "Pat")
    assert refused.returncode == 2 and "--user" in refused.stderr

    table = await ConsoleTable.open(db, seed=7, files_dir=tmp_path / "files", registry=registry)
    try:
        console = Console(table)
        assert str(pat) not in await everything(table.bot.service.store)
        assert await numbers(console) == before
    finally:
        await table.close()
