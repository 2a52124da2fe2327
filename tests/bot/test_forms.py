"""Modals and the components that open them, through the real tree and discord.py's view store."""

from __future__ import annotations

import pytest

from bot.cli.virtual import VirtualUser, modal_problems, submission_problems
from bot.table.registry import discover_rulesets
from tests.conftest import Console


async def test_gm_picks_a_house_rule_from_a_select_and_submits_its_form(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    listed = await console.ok("/campaign settings")
    assert "[select: Change a house rule… step | response_window" in listed["text"]
    form = await console.ok("@pick step")
    assert form["form"] == {"title": "House rule: step", "fields": {"value": "1"}}
    changed = await console.ok("@form value:3")
    assert changed["data"] == {"key": "step", "old": 1, "new": 3}
    assert (await console.ok("/campaign settings key:step"))["data"]["settings"] == {"step": 3}
    undone = await console.ok("/campaign undo")
    assert "settings" in undone["text"]
    assert (await console.ok("/campaign settings key:step"))["data"]["settings"] == {"step": 1}


async def test_edit_button_prefills_and_the_commands_own_errors_come_back(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign settings key:nudge")
    form = await console.ok("@press Edit")
    assert form["form"]["fields"] == {"value": "0.5"}
    refused = await console.fails("@form value:2")
    assert "nudge" in refused["text"]
    await console.ok("@press Edit")
    assert (await console.ok("/campaign settings key:nudge"))["data"]["pbp"] == {"nudge": 0.5}
    changed = await console.ok("@form value:0.25")
    assert changed["data"]["new"] == 0.25


async def test_only_the_gm_gets_the_editors_and_only_their_owner_may_use_them(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign settings")
    await console.ok("@as Bob")
    mine = await console.ok("/campaign settings")
    assert "[select" not in mine["text"]  # a player sees the rules, not the editor
    refused = await console.fails("@pick step")  # the GM's select, still the last one with a select
    assert "belongs to whoever ran the command" in refused["text"]
    assert "form" not in refused


async def test_a_submitted_form_by_someone_else_is_refused(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("/campaign settings key:step")
    await console.ok("@press Edit")
    table = console.table
    interaction, sent = await table.virtual.submit(VirtualUser("Mallory"), table.last_form, {"value": "9"})
    assert "belongs to whoever ran the command" in (sent[0].content or "")
    assert (await console.ok("/campaign settings key:step"))["data"]["settings"] == {"step": 1}


async def test_create_a_character_with_a_form(console: Console) -> None:
    await console.ok("/campaign start ruleset:tally name:Crows")
    await console.ok("@as Pat")
    form = await console.ok("/character create")
    assert form["form"] == {"title": "New character (tally)", "fields": {"name": ""}}
    empty = await console.fails("@form")
    assert "`name` is required" in empty["text"]
    made = await console.ok("@form name:Pip")
    assert "Pip" in made["text"]
    characters = (await console.ok("/character list"))["data"]["characters"]
    assert characters == [{"name": "Pip", "owner_id": console.table.user_id("Pat")}]
    await console.ok("/character create")
    duplicate = await console.fails("@form name:Pip")
    assert "Pip" in duplicate["text"]  # the command's own refusal


async def test_runic_mage_form_carries_every_option(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Tower")
    form = await console.ok("/character create")
    fields = form["form"]["fields"]
    assert list(fields) == ["name", "magery", "iq", "ht", "more"]
    assert "thaumatology: 10" in fields["more"]  # a default that works: a mage with Magery needs the skill
    made = await console.ok('@form name:Merlin magery:3 iq:15 more:"thaumatology: 14\\nage: 40"')
    assert "Merlin" in made["text"]
    sheet = await console.ok("/character show name:Merlin")
    assert "Thaumatology 14" in sheet["text"] and "age 40" in sheet["text"]
    await console.ok("/character create")
    wrong = await console.fails('@form name:Nimue more:"wings: 2"')
    assert "`wings: 2` is not an `option: value` line" in wrong["text"]
    await console.ok("/character create")  # a form that failed is closed, as in Discord: open another
    bad = await console.fails("@form name:Nimue iq:lots")
    assert "iq" in bad["text"]


def test_modal_checks_follow_discords_limits() -> None:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": f"f{i}", "label": "x"}]} for i in range(6)]
    assert any("6 components" in p for p in modal_problems({"title": "t" * 46, "components": rows}))
    assert any("title" in p for p in modal_problems({"title": "t" * 46, "components": rows[:1]}))
    form = {"components": [{"type": 1, "components": [{"type": 4, "custom_id": "a", "max_length": 3}]}]}
    assert submission_problems(form, {"a": "four"}) == ["`a` takes at most 3 characters"]
    assert "no field `b`" in submission_problems(form, {"a": "x", "b": "y"})[0]


async def test_form_directive_needs_an_open_form(console: Console) -> None:
    assert "There is no open form" in (await console.fails("@form value:1"))["text"]
    assert "no message with a select" in (await console.fails("@pick step"))["text"]
    with pytest.raises(ValueError):
        await console.table.virtual.context_menu(VirtualUser("Al"), "Roll again")


@pytest.mark.parametrize("ruleset", [r.id for r in discover_rulesets()])
async def test_every_rulesets_character_form_fits_discord(console: Console, ruleset: str) -> None:
    await console.ok(f"/campaign start ruleset:{ruleset} name:Table")
    result = await console("/character create")
    actions = console.table.bot.service.registry.get(ruleset).ruleset.actions
    if not any(name == "create" or name.endswith(" create") for name in actions):
        # solo play (saga): no create action, and the bot says where to look
        assert not result["ok"] and f"/{ruleset}" in result["text"]
        return
    assert result["ok"] and "incident" not in result, result["text"]
    fields = result["form"]["fields"]
    assert 1 <= len(fields) <= 5 and "name" in fields


async def test_a_spell_defined_by_form_is_the_spell_the_command_defines(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Tower")
    await console.ok("/runic mage create name:Morgan magery:3 iq:14 thaumatology:14")
    typed = await console.ok(
        '/runic spell define name:Firebolt words:In-Flam type:missile parameters:"damage: 2d burning" known:true'
    )
    form = await console.ok('/form action:"spell define"')
    assert form["form"]["title"] == "/runic spell define"
    filled = await console.ok(
        '@form name:Firebolt2 words:In-Flam type:missile more:"parameters: damage: 2d burning\\nknown: true"'
    )
    assert filled["data"]["spell"] == {**typed["data"]["spell"], "name": "Firebolt2"}
    assert filled["data"]["energy_lines"] == typed["data"]["energy_lines"]
    assert "Firebolt2" in (await console.ok("/runic spell show spell:Firebolt2"))["text"]
    await console.ok('/form action:"spell define"')
    refused = await console.fails("@form name:Bad words:Nope-Zzz")
    assert "Nope" in refused["text"] or "Zzz" in refused["text"]


async def test_form_names_the_actions_it_can_fill(console: Console) -> None:
    await console.ok("/campaign start ruleset:runic name:Tower")
    refused = await console.fails("/form action:nope")
    assert "Actions: mage create" in refused["text"] and "spell define" in refused["text"]
    choices = await console.table.autocomplete(["form"], {"action": "spell d"}, "action")
    assert [c["value"] for c in choices] == ["spell define"]
