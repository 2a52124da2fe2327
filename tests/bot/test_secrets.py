"""Secret results reach GMs only, in every place that shows history (issue 12, defect 1).

A player makes secret rolls and a ruleset action with a secret; then every role reads
every view of the history. Only GMs may find a result; everyone may see that a secret
roll was made, and by whom.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import ClassVar

import pytest

from bot.table import campaigns, importer, secrecy
from bot.table.registry import Registry
from bot.table.service import Caller, Place, TableService
from rules.base import Action, Card, Model, Outcome, PrivateField, Ruleset, Secrecy, Table
from tests.conftest import GM, HERE, OTHER, PLAYER, Console, open_store
from tests.support.scenario import without_seals

SECRET_ROLLS = [
    ("/roll expression:1d20+1000 label:stealth secret:true", "roll", "stealth"),
    ("/check skill:12 modifier:1 label:perception secret:true", "check", "perception"),
    ("/pool dice:4 label:sneak secret:true", "pool", "sneak"),
    ("/contest skill:14 against:9 label:bluff secret:true", "contest", "bluff"),
]
RESULTS = ("stealth", "perception", "sneak", "bluff", "1d20", "3d6", "pool of", "Quick Contest", "swordfish")


async def _campaign_with_secrets(console: Console) -> list[dict]:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Whispers")
    await console.ok("@as Pat")
    made = [await console.ok(line) for line, _, _ in SECRET_ROLLS]
    made.append(await console.ok("/tally whisper"))
    return made


def _read_all(names: list[str]) -> str:
    return "".join(Path(name).read_text() for name in names)


def _leaks(text: str) -> list[str]:
    """The results' words in ``text``, its seals' hashes blanked first: a random hash may hold "3d6" or "1d20"."""
    text = without_seals(text)
    return [word for word in RESULTS if word in text]


async def test_the_roller_sees_only_where_the_result_went(console: Console) -> None:
    made = await _campaign_with_secrets(console)
    for result, (_, _, label) in zip(made, SECRET_ROLLS, strict=False):
        assert result["ephemeral"]
        assert "went to the GM" in result["text"]
        assert _leaks(result["text"]) == [], result["text"]
        assert result["data"] == {"secret": True}  # the roller's --json holds nothing of the result
        assert label in result["secret"]["text"]  # the GM's card has it all
    whisper = made[-1]
    assert "gm" not in whisper["data"] and whisper["data"] == {"count": 1}
    assert whisper["secret"]["data"] == {"gm": {"password": "swordfish"}}


@pytest.mark.parametrize("reader", ["Pat", "Oz"])
async def test_players_read_no_secret_result_in_the_log(console: Console, reader: str) -> None:
    await _campaign_with_secrets(console)
    await console.ok(f"@as {reader}")
    log = await console.ok("/campaign log")
    assert _leaks(log["text"]) == [], log["text"]
    assert _leaks(json.dumps(log["data"])) == []
    lines = log["text"]
    for _, command, _ in SECRET_ROLLS:
        assert f"/{command}: made a secret" in lines  # the channel sees that it was made, and by whom
    assert "**Pat**" in lines


async def test_the_gm_reads_every_secret_in_the_log(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@gm")
    log = await console.ok("/campaign log")
    for word in ("stealth", "perception", "sneak", "bluff", "swordfish"):
        assert word in log["text"], word
    secrets = [event["secret"] for event in log["data"]["events"] if "secret" in event]
    assert len(secrets) == 5


async def test_undo_messages_show_only_the_public_summary(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@gm")
    undone = await console.undo()
    assert "whispered" in undone["text"] and _leaks(undone["text"]) == []
    await console.ok("@as Pat")
    log = await console.ok("/campaign log")
    assert _leaks(log["text"]) == []


async def test_export_is_the_gms_and_keeps_the_secrets(console: Console) -> None:
    await _campaign_with_secrets(console)
    await console.ok("@as Pat")
    refused = await console.fails("/campaign export")
    assert _leaks(refused["text"]) == []
    await console.ok("@gm")
    exported = await console.ok("/campaign export")
    body = _read_all(exported["files"])
    assert "swordfish" in body and "perception" in body


async def test_a_secret_roll_with_no_campaign_is_shown_to_the_roller_alone(console: Console) -> None:
    result = await console.ok("/roll expression:1d6 label:alone secret:true")
    assert result["ephemeral"] and "only you see it" in result["text"] and "alone" in result["text"]


async def test_recap_shows_what_happened_since_my_last_action(console: Console) -> None:
    await _campaign_with_secrets(console)  # Pat's last action is the whisper
    await console.ok("@as Oz")
    await console.ok("/tally create name:Owl")
    await console.ok("/tally add name:Owl")
    await console.ok("@as Pat")
    mine = await console.ok("/campaign recap")
    assert mine["ephemeral"] and mine["data"]["since_count"] == 2
    assert [e["command"] for e in mine["data"]["events"]] == ["tally create", "tally add"]  # oldest first
    await console.ok("@as Oz")
    theirs = await console.ok("/campaign recap")
    assert theirs["data"]["since_count"] == 0 and "Nothing has happened" in theirs["text"]
    await console.ok("@as Newcomer")
    everything = await console.ok("/campaign recap")
    assert everything["data"]["since_count"] == 8  # the start, four secret rolls, the whisper and Oz's two
    assert _leaks(everything["text"]) == [] and _leaks(json.dumps(everything["data"])) == []


async def test_recap_looks_back_a_bounded_distance(console: Console) -> None:
    """A member who never acted, or acted long ago, gets the newest events and "that many or more"."""
    await console.ok("/campaign start ruleset:tally name:Long")
    await console.ok("@as Pat")
    await console.ok("/tally create name:Pip")
    for _ in range(12):
        await console.ok("/tally add name:Pip")
    store = console.table.bot.service.store
    campaign = await console.table.bot.service.campaign(console.table._place())
    events, total = await store.events_since_last_by(campaign.row.id, 999, limit=5, look_back=10)
    assert total == 10 and len(events) == 5 and events[0].command == "tally add"
    pat = console.table.user.id
    events, total = await store.events_since_last_by(campaign.row.id, pat, limit=5, look_back=10)
    assert (events, total) == ([], 0)  # Pat's own add is the newest event


async def test_an_ended_campaign_is_listed_exported_and_reopened(console: Console) -> None:
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/tally create name:Pip")
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    listed = await console.ok("/campaign archive list")
    (ended,) = listed["data"]["campaigns"]
    assert ended["name"] == "Crows"
    exported = await console.ok(f"/campaign export archived:{ended['id']}")
    assert '"name": "Pip"' in _read_all(exported["files"]).replace('"name":"Pip"', '"name": "Pip"')
    await console.ok("@as Oz")
    assert "needs one of its GMs" in (await console.fails(f"/campaign archive reopen id:{ended['id']}"))["text"]
    await console.ok("@as Gwen")
    await console.ok("/campaign start ruleset:tally name:Ravens")
    busy = await console.fails(f"/campaign archive reopen id:{ended['id']}")
    assert "runs 'Ravens' now" in busy["text"]
    await console.ok("/campaign end")
    await console.ok("@press Confirm")
    reopened = await console.ok(f"/campaign archive reopen id:{ended['id']}")
    assert reopened["data"]["campaign"] == "Crows"
    status = await console.ok("/campaign status")
    assert status["data"]["campaign"] == "Crows" and status["data"]["characters"] == ["Pip"]
    assert "no ended campaign #999" in (await console.fails("/campaign export archived:999"))["text"]


# ---------------------------------------------------------------------- declared secrecy, enforced by the service
#
# A ruleset that forgets: each of its actions writes what it declares private (or secret) onto its public card,
# summary and data, as a careless ruleset would. The service must keep every such result off the public side.


class KeeperSheet(Model):
    hoard: dict[str, int] = {}  # private: what the keeper hides, by name
    grudge: str | None = None  # secret: the GM's alone
    coins: int = 0
    motto: str = ""  # public


class KeeperState(Model):
    pass


class SubjectOptions(Model):
    subject: str
    name: str = "Kit"


class NameOnly(Model):
    name: str = "Kit"


def _keeper_create(table: Table, options: NameOnly) -> Outcome:
    table.add_character(table.actor.user_id, options.name, KeeperSheet())
    return Outcome(card=Card(title=f"Created {options.name}"), summary=f"created {options.name}")


def _hide(table: Table, options: SubjectOptions) -> Outcome:
    """Declares ``subject`` private, then prints it everywhere."""
    record = table.own_character(options.name)
    record.sheet.hoard = {**record.sheet.hoard, options.subject: 1}
    text = f"{record.name} hides {options.subject}"
    return Outcome(card=Card(title=text), summary=text, data={"subject": options.subject})


def _stash(table: Table, options: SubjectOptions) -> Outcome:
    """Declares nothing, but puts its option in a private field of the sheet, and then on the public card."""
    record = table.own_character(options.name)
    record.sheet.hoard = {**record.sheet.hoard, options.subject: 2}
    return Outcome(card=Card(title=f"{record.name} stashes {options.subject}"), summary=f"{record.name} stashes")


def _mutter(table: Table, options: SubjectOptions) -> Outcome:
    """Declares ``subject`` secret (the GM's), then prints it."""
    record = table.own_character(options.name)
    record.sheet.coins += 1
    return Outcome(card=Card(title=f"{record.name} mutters {options.subject}"), summary="muttered")


def _motto(table: Table, options: SubjectOptions) -> Outcome:
    record = table.own_character(options.name)
    record.sheet.motto = options.subject
    return Outcome(card=Card(title=f"{record.name}: {options.subject}"), summary=f"{record.name}'s motto")


def _count(table: Table, options: NameOnly) -> Outcome:
    record = table.own_character(options.name)
    record.sheet.coins += 1
    return Outcome(card=Card(title=f"{record.name} counts"), summary=f"{record.name} counts")


class KeeperRuleset(Ruleset):
    id = "keeper"
    name = "Keeper (tests)"
    sheet_model = KeeperSheet
    state_model = KeeperState
    settings_model = KeeperState
    private_fields = (PrivateField("hoard"), PrivateField("grudge", audience="secret"))
    actions: ClassVar[dict[str, Action]] = {
        "create": Action("create", _keeper_create, NameOnly),
        "hide": Action("hide", _hide, SubjectOptions, secrecy=Secrecy(private_options=frozenset({"subject"}))),
        "stash": Action("stash", _stash, SubjectOptions),
        "mutter": Action("mutter", _mutter, SubjectOptions, secrecy=Secrecy(secret_options=frozenset({"subject"}))),
        "count": Action("count", _count, NameOnly),
        "motto": Action("motto", _motto, SubjectOptions),
    }
    show_hoards = False  # a careless board shows every hoard

    def board(self, table: Table) -> Card:
        card = Card(title="Keepers")
        for record in table.characters.values():
            hoard = f" {record.sheet.hoard}" if self.show_hoards else ""
            card.add(record.name, f"{record.sheet.motto}{hoard}")
        return card

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        """Careless: everyone's hoard, whoever asks."""
        return sorted(key for c in table.characters.values() for key in c.sheet.hoard)


@pytest.fixture
async def keeper(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await open_store(tmp_path / "keeper.sqlite3")
    service = TableService(store, Registry.build([KeeperRuleset()]), random.Random(1))
    await service.start_campaign(HERE, GM, "keeper", "Hoards")
    await service.run(HERE, PLAYER, "keeper", "create", {"name": "Kit"})
    yield service
    await store.close()


def _public(outcome: Outcome) -> str:
    return json.dumps([outcome.card.model_dump(), outcome.summary, outcome.data])


async def test_a_declared_private_option_on_the_public_side_keeps_the_whole_result_private(
    keeper: TableService,
) -> None:
    reply = await keeper.run(HERE, PLAYER, "keeper", "hide", {"subject": "Emerald"})
    outcome = reply.outcome
    assert "Emerald" not in _public(outcome) and outcome.ephemeral
    assert outcome.private is not None and "Emerald" in outcome.private.title  # the actor sees it all
    assert outcome.private_data == {"subject": "Emerald"}
    (event,) = await keeper.store.events((await keeper.campaign(HERE)).row.id, limit=1)
    assert "Emerald" not in event.summary and event.result["private"]["readers"] == [PLAYER.user_id]


async def test_a_value_added_to_a_private_field_is_kept_off_the_public_side_undeclared(keeper: TableService) -> None:
    outcome = (await keeper.run(HERE, PLAYER, "keeper", "stash", {"subject": "Ruby"})).outcome
    assert "Ruby" not in _public(outcome) and "Ruby" in outcome.private.title  # type: ignore[union-attr]
    counted = (await keeper.run(HERE, PLAYER, "keeper", "count", {})).outcome  # nothing private touched: public
    assert counted.private is None and not counted.ephemeral and counted.summary == "Kit counts"


async def test_a_declared_secret_option_keeps_the_whole_result_for_the_gms(keeper: TableService) -> None:
    outcome = (await keeper.run(HERE, PLAYER, "keeper", "mutter", {"subject": "Saltpeter"})).outcome
    assert "Saltpeter" not in _public(outcome) and outcome.private is None
    assert outcome.secret is not None and "Saltpeter" in outcome.secret.title and outcome.data == {"secret": True}


async def test_the_private_side_of_the_log_is_the_owners_and_the_gms_of_the_moment(keeper: TableService) -> None:
    await campaigns.gm_add(keeper, HERE, GM, 44, "Rex")
    rex = Caller(44, "Rex")
    await keeper.run(HERE, PLAYER, "keeper", "hide", {"subject": "Emerald"})

    async def reads(caller: Caller) -> str:
        page, _ = await campaigns.log_page(keeper, HERE, 1, caller)
        recap = await campaigns.recap(keeper, HERE, caller)
        return json.dumps([page.outcome.model_dump(), recap.outcome.model_dump()])

    assert "Emerald" in await reads(PLAYER) and "Emerald" in await reads(GM) and "Emerald" in await reads(rex)
    assert "Emerald" not in await reads(OTHER)
    await campaigns.gm_remove(keeper, HERE, GM, 44, "Rex")
    assert "Emerald" not in await reads(rex)  # a removed GM reads what any player reads
    found, _ = await campaigns.log_page(keeper, HERE, 1, GM, campaigns.LogFilter(text="Emerald"))
    assert found.outcome.data["filters"]["matches"] == 1  # a GM's search reads the private side
    hidden, _ = await campaigns.log_page(keeper, HERE, 1, OTHER, campaigns.LogFilter(text="Emerald"))
    assert hidden.outcome.data["filters"]["matches"] == 0
    listed, _ = await campaigns.log_page(keeper, HERE, 1, GM, campaigns.LogFilter(secrets=True))
    assert listed.outcome.data["filters"]["matches"] == 1  # the GM's secrets:true lists private entries too


async def test_a_gm_acting_on_a_players_character_shares_the_private_side_with_its_owner(
    keeper: TableService,
) -> None:
    await keeper.run(HERE, GM, "keeper", "hide", {"subject": "Opal", "name": "Kit"})
    page, _ = await campaigns.log_page(keeper, HERE, 1, PLAYER)
    assert "Opal" in page.outcome.card.description
    other, _ = await campaigns.log_page(keeper, HERE, 1, OTHER)
    assert "Opal" not in other.outcome.card.description


async def test_sheets_lists_and_autocomplete_show_each_reader_only_what_they_may_see(keeper: TableService) -> None:
    await keeper.run(HERE, PLAYER, "keeper", "stash", {"subject": "Ruby"})
    campaign = await keeper.campaign(HERE)
    assert campaign is not None

    async def shown(caller: Caller) -> Outcome:
        return (await campaigns.character_show(keeper, HERE, caller, "Kit")).outcome

    mine, theirs, gms = await shown(PLAYER), await shown(OTHER), await shown(GM)
    assert "Ruby" in _public(mine) and mine.ephemeral  # the owner sees it, alone: not posted to the channel
    assert "Ruby" in _public(gms) and gms.ephemeral
    assert "Ruby" not in _public(theirs) and theirs.data["sheet"]["hoard"] is None
    listed = (await campaigns.character_list(keeper, HERE)).outcome
    assert "Ruby" not in _public(listed)
    ruleset = keeper.registry.get("keeper").ruleset
    assert secrecy.suggestions(ruleset, keeper.table_for(campaign, OTHER), "hide", "subject", "") == []
    assert secrecy.suggestions(ruleset, keeper.table_for(campaign, PLAYER), "hide", "subject", "") == ["Ruby"]


async def test_an_imported_export_keeps_the_private_side_private(keeper: TableService, tmp_path: Path) -> None:
    await keeper.run(HERE, PLAYER, "keeper", "hide", {"subject": "Emerald"})
    _, batches = await campaigns.export(keeper, HERE, GM, tmp_path, limit=25_000_000)
    exported = next(path for batch in batches for path in batch if path.name.endswith(".json"))
    assert "Emerald" in exported.read_text()  # the export is the GMs': the private side comes along
    there = Place(HERE.guild_id, HERE.channel_id + 1)
    await importer.import_campaign(keeper, there, GM, await importer.prepare(keeper, there, GM, exported.read_bytes()))
    for caller, sees in ((OTHER, False), (PLAYER, True), (GM, True)):
        page, _ = await campaigns.log_page(keeper, there, 1, caller)
        assert ("Emerald" in page.outcome.card.description) is sees, caller


async def test_serpent_prepare_keeps_the_prepared_titles_off_the_public_side(console: Console) -> None:
    """Which spells a Magi prepared is the player's and the GM's (docs/serpent.md): the channel learns how many."""
    from tests.integration.serpent.test_buttons import SETUP

    *before, last = SETUP
    for line in before:
        await console.ok(line)
    prepared = await console.ok(last)
    assert "Fireball" not in json.dumps(prepared["data"])
    assert prepared["private"]["data"] == {"private": {"prepared": ["Fireball"]}}
    assert "Fireball" in prepared["private"]["text"] and "Fireball" in prepared["secret"]["text"]
    service = console.table.bot.service
    campaign = await service.campaign(console.table._place())
    (event,) = await service.store.events(campaign.row.id, limit=1)
    public = {k: v for k, v in event.result.items() if k not in ("secret", "private")}
    assert "Fireball" not in event.summary + json.dumps(public)


async def test_a_view_hides_what_comes_from_a_hidden_part_and_only_that(keeper: TableService) -> None:
    """The board shows the motto "Ruby forever" and, when careless, the hoard that holds a Ruby: only the hoard's
    Ruby is a secret, and hiding the motto's would tell the table that some hoard holds one."""
    from bot.table.board import board_card

    await keeper.run(HERE, PLAYER, "keeper", "motto", {"subject": "Ruby forever"})
    await keeper.run(HERE, PLAYER, "keeper", "stash", {"subject": "Ruby"})
    campaign = await keeper.campaign(HERE)
    assert campaign is not None
    ruleset = keeper.registry.get("keeper").ruleset
    assert "Ruby forever" in str(board_card(keeper, campaign))
    ruleset.show_hoards = True  # type: ignore[attr-defined]
    try:
        careless = str(board_card(keeper, campaign))
    finally:
        ruleset.show_hoards = False  # type: ignore[attr-defined]
    assert "Ruby" not in careless and "(hidden)" in careless
