"""Issue 23's per-action shortcuts keep their meaning: the cached clock text, the kept locks, the copied row, the
shared actors, the models stored without model_dump's Python layer."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from pydantic import BaseModel, ValidationError

from bot.storage import rows
from bot.table.registry import Registry
from bot.table.service import Caller, Campaign, TableService, _copy_row, _dump
from tests.conftest import GM, HERE, PLAYER


def test_the_clock_text_is_made_once_a_second_and_is_always_that_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_700_000_000.2]
    monkeypatch.setattr(rows.time, "time", lambda: now[0])
    assert rows.utcnow() == "2023-11-14T22:13:20+00:00"
    now[0] = 1_700_000_000.9  # the same second: the same text
    assert rows.utcnow() == "2023-11-14T22:13:20+00:00"
    now[0] = 1_700_000_001.0  # the next one: new text at once
    assert rows.utcnow() == "2023-11-14T22:13:21+00:00"
    now[0] = 1_600_000_000.0  # a clock set back is followed too
    assert rows.utcnow() == datetime.fromtimestamp(1_600_000_000, UTC).isoformat(timespec="seconds")


def test_the_clock_text_matches_the_standard_librarys() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    text = rows.utcnow()
    after = datetime.now(UTC)
    assert before <= datetime.fromisoformat(text) <= after


def test_a_copied_row_equals_one_made_by_its_dataclass_and_shares_no_list_or_dict_to_change() -> None:
    row = rows.CampaignRow(
        7, 1, 2, "runic", "Ashes", [10, 11], None, {"a": 1}, {"b": [1]}, 3, "2026-01-01", None, {"turns": {}}
    )
    copied = _copy_row(row, state={"b": [2]}, version=4)
    assert copied == rows.CampaignRow(**{**dataclasses.asdict(row), "state": {"b": [2]}, "version": 4})
    assert type(copied) is rows.CampaignRow
    copied.gm_ids.append(12)
    copied.pbp["paused_at"] = "now"
    assert row.gm_ids == [10, 11] and row.pbp == {"turns": {}}  # the cached row is left as it was
    assert _copy_row(row) == row and _copy_row(row) is not row


async def test_one_actor_serves_a_callers_actions_and_none_can_be_changed_by_one(tally: TableService) -> None:
    campaign = await tally.require_campaign(HERE)
    player = tally.table_for(campaign, PLAYER).actor
    assert player is tally.table_for(campaign, PLAYER).actor
    assert (player.user_id, player.name, player.is_gm) == (22, "Pat", False)
    gm = tally.table_for(campaign, GM).actor
    assert (gm.user_id, gm.is_gm) == (11, True)
    with pytest.raises(ValidationError):
        player.is_gm = True  # a shared actor that one action could make a GM would make every later one so
    renamed = tally.table_for(campaign, Caller(22, "Patricia")).actor
    assert renamed.name == "Patricia"  # a new display name is a new actor
    promoted = Caller(22, "Pat", manages_guild=True)
    assert tally.table_for(campaign, promoted).actor.is_gm  # and so is a player made GM
    assert not tally.table_for(campaign, PLAYER).actor.is_gm


def test_a_model_is_stored_as_model_dump_would_store_it(registry: Registry) -> None:
    """``_dump`` skips ``model_dump``'s Python layer: every ruleset's models come out the same as through it."""
    for ruleset_id in registry.ids():
        ruleset = registry.get(ruleset_id).ruleset
        for model in (ruleset.state_model, ruleset.settings_model, ruleset.sheet_model):
            try:
                value = model()
            except ValidationError:
                continue  # a sheet with required fields: the aliased and nested one below covers its kind
            assert _dump(value) == value.model_dump(mode="json"), (ruleset_id, model)
    dumped = _dump(_Sample(when=datetime(2026, 1, 2, 3, 4, tzinfo=UTC), tags={"b"}, pair=(1, 2), inner=_Inner()))
    assert dumped == {"when": "2026-01-02T03:04:00Z", "tags": ["b"], "pair": [1, 2], "inner": {"note": "x"}}
    assert dumped == _Sample.model_validate(dumped).model_dump(mode="json")


class _Inner(BaseModel):
    note: str = "x"


class _Sample(BaseModel):
    when: datetime
    tags: set[str]
    pair: tuple[int, int]
    inner: _Inner


async def test_a_campaign_read_earlier_keeps_what_it_said_while_later_actions_share_what_they_left_alone(
    tally: TableService,
) -> None:
    """An action that leaves the characters or the waits alone hands the next cached campaign the same dicts
    (no copy per action): so no action may change them in place, and an earlier read keeps its own view."""

    def seen(campaign: Campaign) -> tuple:
        return {key: (row.id, row.owner_id, dict(row.sheet)) for key, row in campaign.characters.items()}, sorted(
            campaign.waits
        )

    first = await tally.require_campaign(HERE)
    first_seen = seen(first)
    await tally.run(HERE, GM, "tally", "reset", {})  # state only
    second = await tally.require_campaign(HERE)
    assert second.row.state["count"] == 0 and seen(second) == first_seen
    await tally.run(HERE, GM, "tally", "ask", {"names": "Pip"})  # state and a new wait
    third = await tally.require_campaign(HERE)
    assert sorted(third.waits) != sorted(second.waits)
    await tally.run(HERE, PLAYER, "tally", "add", {"name": "Pip"})  # a sheet, the state, and the wait ended
    fourth = await tally.require_campaign(HERE)
    with pytest.raises(RuntimeError):
        await tally.run(HERE, PLAYER, "tally", "boom", {})  # changes every sheet, then fails
    assert seen(first) == seen(second) == first_seen  # what was read before is as it was
    assert seen(third)[0] == first_seen[0] and seen(third)[1] != first_seen[1]
    assert seen(fourth)[1] == first_seen[1]
    now = await tally.require_campaign(HERE)
    stored = await tally.store.characters(now.row.id)
    assert seen(now)[0] == {c.name.casefold(): (c.id, c.owner_id, c.sheet) for c in stored} == seen(fourth)[0]
    assert now.row.state == (await tally.store.campaign(HERE.guild_id, HERE.channel_id)).state
    assert now.waits.keys() == {w.key for w in await tally.store.waits(now.row.id)} == fourth.waits.keys()
