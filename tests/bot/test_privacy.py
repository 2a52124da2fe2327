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
from tests.support.db import fetch, target

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
    assert "2 characters, 6 log entries, 2 macros, 1 reminder, 0 standing orders" in result["text"]

    # a player who is no GM reads only the public side, even of their own secret entries
    await console.ok("@as Alice")
    await console.ok("/campaign gm remove member:Pat")
    await console.ok("@as Pat")
    again = json.dumps(exported(await console.ok("/privacy export")))
    assert "swordfish" not in again and "1d20 =" not in again


async def test_the_export_card_counts_in_plain_words(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    result = await console.ok("/privacy export")
    assert "1 character, 1 log entry, 0 macros, 0 reminders, 0 standing orders." in result["text"]


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


async def standing_orders(console: Console) -> None:
    """Pat orders "add" in Crows (Alice's, turns due in 4h) and in Oz's Ravens (channel 2003); Kim orders after Pat
    in Crows, so Kim's change keeps Pat's order in its undo snapshot."""
    for line in (
        "/campaign start ruleset:tally name:Crows",
        "/campaign settings key:turn_deadline value:4h",
        "@as Pat",
        "/tally create name:Pip",
        "/orders set order:add",
        "@as Kim",
        "/tally create name:Kit",
        "/orders set order:add",
        "@channel 2003",
        "@as Oz",
        "/campaign start ruleset:tally name:Ravens",
        "@as Pat",
        "/tally create name:Pod",
        "/orders set order:add",
        "@channel 2002",
        "@as Alice",
    ):
        await console.ok(line)


def orders_in(pbp_text: str) -> list[dict]:
    return json.loads(pbp_text).get("orders", [])


async def test_the_export_lists_the_members_standing_orders_and_only_theirs(console: Console) -> None:
    await standing_orders(console)
    await console.ok("@as Pat")
    result = await console.ok("/privacy export")
    mine = exported(result)
    assert [(o["campaign"], o["order"], o["option"]) for o in mine["orders"]] == [
        ("Crows", "add", None),
        ("Ravens", "add", None),
    ]
    assert mine["orders"][0]["means"].startswith("When a turn waits on my character")
    assert mine["orders"][0]["ruleset"] == "tally" and mine["orders"][0]["ended"] is False
    assert "2 standing orders" in result["text"] and result["data"]["orders"] == 2
    # an ended campaign's order is still theirs; another member's never is
    await console.ok("@channel 2003")
    await console.ok("@as Oz")
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    await console.ok("@as Kim")
    kims = exported(await console.ok("/privacy export"))["orders"]
    assert [o["campaign"] for o in kims] == ["Crows"]
    await console.ok("@as Pat")
    again = exported(await console.ok("/privacy export"))["orders"]
    assert [(o["campaign"], o["ended"]) for o in again] == [("Crows", False), ("Ravens", True)]
    await console.ok("@as Oz")
    assert exported(await console.ok("/privacy export"))["orders"] == []


async def test_forgetting_a_member_drops_their_orders_and_no_deadline_runs_one(console: Console) -> None:
    await standing_orders(console)
    pat = console.table.user_id("Pat")
    kim = console.table.user_id("Kim")
    await console.ok("@as Pat")
    await console.ok("/privacy forget")
    await console.ok("@press Confirm")
    store = console.table.bot.service.store
    for (pbp,) in await fetch(store, "SELECT pbp FROM campaigns ORDER BY id"):
        assert all(order["user_id"] not in (pat, 0) for order in orders_in(pbp))
    assert str(pat) not in await everything(store)

    await console.ok("@as Alice")
    assert list((await console.ok("/orders show all:true"))["data"]["orders"]) == [str(kim)]
    # undoing Kim's order puts back the orders as they were before it: Pat's is not among them, not even as no one's
    kims = next(e for e in (await console.ok("/campaign log"))["data"]["events"] if e["command"] == "orders set")
    await console.undo(f"/campaign undo event:{kims['id']}")
    ((pbp,),) = await fetch(store, "SELECT pbp FROM campaigns WHERE name = 'Crows'")
    assert orders_in(pbp) == []

    await console.ok("/tally ask names:Pip")  # Pat's character, now no one's: its deadline is the GMs' again
    await console.ok("@wait 4h")
    fired = [f for f in console.timers() if f["data"].get("timer") == "deadline"]
    assert fired and all(f["data"].get("ran") != "add" and "by_order" not in f["data"] for f in fired)
    assert "Pip adds" not in json.dumps(fired)


async def test_a_gm_forgetting_a_player_here_drops_their_order_here_only(console: Console) -> None:
    await standing_orders(console)
    pat = console.table.user_id("Pat")
    await console.ok("/campaign player forget member:Pat")
    await console.ok("@press Confirm")
    store = console.table.bot.service.store
    left = {name: orders_in(pbp) for name, pbp in await fetch(store, "SELECT name, pbp FROM campaigns")}
    assert [o["user_id"] for o in left["Crows"]] == [console.table.user_id("Kim")]
    assert [o["user_id"] for o in left["Ravens"]] == [pat]  # Oz's campaign: not this GM's to forget


async def test_the_export_shows_a_sealed_entrys_commitment_and_its_content_only_once_revealed(
    console: Console,
) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    await console.ok('/roll expression:1d20 label:"XqSealMark" secret:true')  # #3
    await console.ok("/tally whisper")  # #4, a sealed change: its GM's side says "swordfish"
    entries = {e["number"]: e for e in exported(await console.ok("/privacy export"))["events"]}
    rolled, whispered = entries[3]["sealed"], entries[4]["sealed"]
    events = {e.seq: e for e in await console.table.bot.service.store.events(1, limit=10)}
    assert rolled == {"sha256": events[3].result["sealed"]["sha256"], "status": "sealed"}
    assert whispered["status"] == "sealed" and set(whispered) == {"sha256", "status"}
    text = json.dumps(exported(await console.ok("/privacy export")))
    assert "XqSealMark" not in text and "swordfish" not in text and "1d20 =" not in text
    salts = {seq: e.result["secret"]["seal"]["salt"] for seq, e in events.items() if "sealed" in e.result}
    assert sorted(salts) == [3, 4] and not any(salt in text for salt in salts.values())

    await console.ok("@as Alice")
    await console.ok("/campaign reveal event:3")  # #5: now posted for all to read
    await console.undo("/campaign undo event:4")  # the whisper's seal is withdrawn
    await console.ok("@as Pat")
    mine = exported(await console.ok("/privacy export"))
    entries = {e["number"]: e for e in mine["events"]}
    assert entries[3]["sealed"]["status"] == "revealed" and entries[3]["sealed"]["revealed_by"] == 5
    assert "XqSealMark" in entries[3]["sealed"]["text"] and entries[3]["sealed"]["salt"] == salts[3]
    assert entries[4]["sealed"]["status"] == "withdrawn" and "swordfish" not in json.dumps(mine)
