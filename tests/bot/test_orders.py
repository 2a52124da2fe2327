"""Standing orders (issue 25, part 3): a player away from the table leaves an order; at a deadline that waits on them
Magister runs it as them, through the same checks as if they had typed it, logged "by standing order", and pings
them with what was done. An order that cannot run leaves the deadline as it is today, and the post says why.

Time moves only on the console's virtual clock (``@wait``). The Discord half goes through real interactions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.console import ConsoleTable
from bot.cli.virtual import VirtualUser
from bot.table.registry import Registry
from tests.conftest import Console
from tests.support.db import fetch
from tests.support.discord_harness import choices, ok, refused

START = "2030-01-01T12:00:00+00:00"

SERPENT = (
    "@as Gwen",
    '/campaign start ruleset:serpent name:"Play by post"',
    "/campaign settings key:response_window value:2h",
    "/campaign settings key:turn_deadline value:1d",
    "/campaign settings key:nudge value:0",
    '/serpent spell define name:"Universum Negation" dispel_to:discard',
    "@as White",
    '/serpent magi create name:White codex:"Fireball x2, Universum Negation"',
    "@as Grey",
    '/serpent magi create name:Grey codex:"Universum Negation, Dissolve Tissue"',
    "@as Black",
    '/serpent magi create name:Black codex:"Fireball, Dissolve Tissue"',
)
BATTLE = (
    "@as Gwen",
    "/serpent battle start mode:teams",
    "@as White",
    "/serpent battle join team:Sun",
    "@as Grey",
    "/serpent battle join team:Sun",
    "@as Black",
    "/serpent battle join team:Moon",
    "@as Gwen",
    '/serpent battle round resonance:10 rolloff:"White, Black, Grey"',
    "@as White",
    "/serpent prepare spells:Fireball",
    "@as Grey",
    '/serpent prepare spells:"Dissolve Tissue"',
    "@as Black",
    "/serpent prepare spells:Fireball",
    "@as White",
    "/serpent cast spell:Fireball target:Black",  # White holds priority: her window's deadline is in 2h
)


async def _open(path: Path, registry: Registry) -> Console:
    return Console(await ConsoleTable.open(path, seed=7, registry=registry, clock=START))


@pytest.fixture
async def serpent(tmp_path: Path, registry: Registry):
    console = await _open(tmp_path / "orders.sqlite3", registry)
    for line in SERPENT:
        await console.ok(line)
    yield console
    await console.table.close()


async def _battle(console: Console) -> None:
    for line in BATTLE:
        await console.ok(line)


async def test_set_show_and_clear_are_the_players_own_and_refuse_what_would_not_work(serpent: Console) -> None:
    await serpent.ok("@as Grey")
    shown = await serpent.ok("/orders show")
    assert shown["ephemeral"] and shown["data"] == {"order": None, "offers": ["pass", "end-turns"]}
    assert "end their turns for the round" in shown["text"]
    bad = await serpent.fails("/orders set order:fly")
    assert "no standing order 'fly'" in bad["text"] and "`pass`, `end-turns`" in bad["text"]
    extra = await serpent.fails("/orders set order:pass option:Fireball")
    assert "takes no option" in extra["text"]
    made = await serpent.ok("/orders set order:PASS")  # any case
    assert made["ephemeral"] and made["data"] == {"order": "pass"}
    assert (await serpent.ok("/orders show"))["data"]["order"] == {"order": "pass", "option": ""}
    replaced = await serpent.ok("/orders set order:end-turns")
    assert "It replaces: **pass**" in replaced["text"]
    await serpent.ok("/orders clear")
    assert (await serpent.ok("/orders show"))["data"]["order"] is None
    assert "no standing order" in (await serpent.fails("/orders clear"))["text"]
    await serpent.ok("@as Nobody")  # no character here: nothing an order could act for
    assert "create one first" in (await serpent.fails("/orders set order:pass"))["text"]


async def test_orders_are_secret_from_other_players_and_every_one_is_shown_to_the_gm(serpent: Console) -> None:
    await serpent.ok("@as Grey")
    await serpent.ok("/orders set order:end-turns")
    await serpent.ok("@as White")
    await serpent.ok("/orders set order:pass")
    assert "Only a GM" in (await serpent.fails("/orders show all:true"))["text"]
    await serpent.ok("@as Black")
    log = await serpent.ok("/campaign log")
    assert "changed a standing order" in log["text"]
    assert "end-turns" not in log["text"] and "set standing order" not in log["text"]
    await serpent.ok("@as Grey")  # the player reads their own in the log
    assert "set standing order: end-turns" in (await serpent.ok("/campaign log"))["text"]
    await serpent.ok("@as Gwen")
    everyone = await serpent.ok("/orders show all:true")
    assert everyone["ephemeral"]
    assert {order["order"] for order in everyone["data"]["orders"].values()} == {"pass", "end-turns"}
    assert "Grey" in everyone["text"] and "White" in everyone["text"]


async def test_a_window_passes_and_a_turn_ends_as_the_player_by_standing_order(serpent: Console) -> None:
    await serpent.ok("@as Grey")
    await serpent.ok("/orders set order:end-turns")
    await _battle(serpent)
    await serpent.ok("@wait 2h")  # White's own window: no order, so the ruleset's rule passes it as the GM
    (white,) = serpent.timers()
    assert white["data"]["ran"] == "battle close-window" and "by_order" not in white["data"]
    await serpent.ok("@wait 2h")  # Grey's window: her order passes it, as her
    (grey,) = serpent.timers()
    assert grey["data"]["ran"] == "pass" and grey["data"]["by_order"] == "end-turns"
    assert "by Grey's standing order, Grey passes" in grey["text"]
    assert "Grey" in grey["pings"]  # the player hears what was done for them
    log = (await serpent.ok("/campaign log"))["data"]["events"]
    assert log[0]["command"] == "serpent pass" and log[0]["summary"].endswith("(by standing order)")
    assert log[0]["actor"] == "Grey (by standing order)"
    await serpent.ok("@as Black")
    await serpent.ok("/serpent end-turn")  # Grey's turn now
    await serpent.ok("@wait 1d")
    (turn,) = serpent.timers()
    assert turn["data"]["ran"] == "end-turn" and "Grey's turns end for the round" in turn["text"]
    await serpent.ok("@as Gwen")
    undone = await serpent.undo()  # undoable like anything Grey typed; the undo says it was by standing order
    assert "by standing order" in undone["text"]
    waiting = (await serpent.ok("/campaign waiting"))["data"]["waits"]
    assert [w["who"] for w in waiting] == ["Grey"]


async def test_an_order_that_does_not_cover_a_wait_leaves_its_deadline_as_today(serpent: Console) -> None:
    await serpent.ok("@as White")
    await serpent.ok("/orders set order:pass")  # pass covers windows, not turns
    await _battle(serpent)
    await serpent.ok("@wait 2h")  # her own window: passed by her order this time
    (window,) = serpent.timers()
    assert window["data"]["by_order"] == "pass"
    await serpent.ok("@wait 2h")  # Grey's window: no order of hers, so the GM's rule passes it
    assert [fired["data"]["ran"] for fired in serpent.timers()] == ["battle close-window"]
    await serpent.ok("@as Black")
    await serpent.ok("/serpent end-turn")
    await serpent.ok("@as Grey")
    await serpent.ok("/serpent end-turn")  # White's turn
    await serpent.ok("@wait 1d")
    (turn,) = serpent.timers()
    assert turn["data"]["rule"] == "gm" and "order" not in turn["text"].casefold()


async def test_setting_an_order_is_undone_by_the_gm_and_kept_across_a_restart(tmp_path: Path, registry) -> None:
    db = tmp_path / "restart.sqlite3"
    console = await _open(db, registry)
    for line in SERPENT:
        await console.ok(line)
    await console.ok("@as Grey")
    await console.ok("/orders set order:pass")
    await console.ok("/orders set order:end-turns")
    await console.ok("@as Gwen")
    undone = await console.undo()
    assert "changed a standing order" in undone["text"] and "end-turns" not in undone["text"]
    await console.table.close()
    again = await _open(db, registry)
    await again.ok("@as Grey")
    assert (await again.ok("/orders show"))["data"]["order"]["order"] == "pass"
    await again.table.close()


async def test_awakened_sustains_by_order_and_an_impossible_order_falls_back_saying_why(
    tmp_path: Path, registry: Registry
) -> None:
    console = await _open(tmp_path / "awakened.sqlite3", registry)
    for line in (
        "@as Gwen",
        "/campaign start ruleset:awakened name:Boston",
        "/campaign settings key:turn_deadline value:1d",
        "/campaign settings key:nudge value:0",
        "@as Pat",
        '/awakened mage create name:Ash path:Thyrsus ruling:"Life, Spirit" inferior:Matter resistance:composure '
        'gnosis:1 arcana:"Life 3, Spirit 2"',
        "/orders set order:sustain",
        "/awakened spell cast spell:Mend arcana:Life aspect:covert",
        "/awakened spell cast spell:Heal arcana:Life aspect:covert",
        "@as Gwen",
        "/awakened time round",  # both expire: each waits on Pat to sustain it, or it lapses
    ):
        await console.ok(line)
    await console.ok("@wait 1d")
    sustained, refused_ = sorted(console.timers(), key=lambda fired: "order_refused" in fired["data"])
    assert sustained["data"]["ran"] == "spell sustain" and "#1 Mend is sustained" in sustained["text"]
    # Gnosis 1 holds one sustained Mana: the second sustain is refused by the rules, so the GM decides, and says why
    assert refused_["data"]["rule"] == "gm" and "Gnosis 1 leaves room for 0" in refused_["data"]["order_refused"]
    assert "could not run" in refused_["text"] and "Pat" in refused_["pings"] and "Gwen" in refused_["pings"]
    await console.ok("@as Pat")
    shown = await console.ok("/awakened mage show")
    assert "#1 Mend: covert, cost 1, P2/T2, sustained" in shown["text"] and "#2 Heal" in shown["text"]
    await console.ok("/orders set order:lapse")
    await console.ok("/awakened spell refresh spell:Heal")
    await console.ok("@as Gwen")
    await console.ok("/awakened time round")
    await console.ok("@wait 1d")
    (lapse,) = console.timers()
    assert lapse["data"]["rule"] == "order" and "left to lapse" in lapse["text"] and lapse["pings"] == ["Pat"]
    await console.table.close()


async def test_orders_through_discord_autocomplete_and_refuse_plainly(console: Console) -> None:
    table = console.table
    await ok(table, "Gwen", "campaign start", ruleset="serpent", name="Orders")
    await ok(table, "Pat", "serpent magi create", name="White", codex="Fireball x2")
    assert await choices(table, "Pat", "orders set", "order", "") == ["pass", "end-turns"]
    assert await choices(table, "Pat", "orders set", "order", "end") == ["end-turns"]
    made = await ok(table, "Pat", "orders set", order="end-turns")
    assert made.ephemeral and made.data == {"order": "end-turns"}
    bad = await refused(table, "Pat", "orders set", order="fly")
    assert "Its orders: `pass`, `end-turns`" in bad.error
    assert (await refused(table, "Pat", "orders show", all=True)).error.startswith("Only a GM")
    everyone = await ok(table, "Gwen", "orders show", all=True)
    assert everyone.ephemeral and str(VirtualUser("Pat").id) in everyone.data["orders"]
    assert (await ok(table, "Pat", "orders clear")).data == {"order": None}


async def test_orders_are_exported_and_imported_with_the_campaign(console: Console) -> None:
    for line in SERPENT[:2] + SERPENT[6:8]:
        await console.ok(line)
    await console.ok("/orders set order:end-turns")
    await console.ok("@as Gwen")
    exported = await console.ok("/campaign export")
    path = next(Path(p) for p in exported["files"] if p.endswith(".json"))
    assert '"orders"' in path.read_text()
    await console.ok("@channel 2003")
    await console.ok(f"/campaign import file:{path}")
    await console.ok("@as White")
    assert (await console.ok("/orders show"))["data"]["order"] == {"order": "end-turns", "option": ""}
    broken = re.sub(r'"order":\s*"end-turns"', '"order": {"no": 1}', path.read_text())
    (path.parent / "broken.json").write_text(broken)
    await console.ok("@as Gwen")
    await console.ok("@channel 2004")
    refused_ = await console.fails(f"/campaign import file:{path.parent / 'broken.json'}")
    assert "standing order" in refused_["text"]


async def _play(console: Console, lines: tuple[str, ...] | list[str]) -> None:
    for line in lines:
        await console.ok(line)


SAGA_TO_STEP_10 = (
    "@as Pat",
    "/saga start deck:sample seed:168",
    '/saga move to:"Sample Cellar"',
    "@press Next step",
    '/saga bonus card:"Sample Sling" kind:good-luck',
    "/saga search top:5 type:spell-song",
    '/saga search take:"Sample Song of Dawn"',
    "/saga continue",  # step 10: the hand is two over the source limit
)


async def test_saga_ends_the_turn_cycling_the_named_cards_or_says_which_are_missing(
    tmp_path: Path, registry: Registry
) -> None:
    console = await _open(tmp_path / "saga.sqlite3", registry)
    opening = ("@as Gwen", "/campaign start ruleset:saga name:Stars", "/campaign settings key:turn_deadline value:1d")
    await _play(console, opening)
    await console.ok("@as Pat")
    assert (
        "once" in (await console.fails('/orders set order:end-turn option:"Sample Old Mill, sample old mill"'))["text"]
    )
    await console.ok('/orders set order:end-turn option:"Sample Prologue, Sample Old Mill"')
    await _play(console, SAGA_TO_STEP_10)
    await console.ok("@wait 1d")  # two to cycle, and only one named card is in hand: the GM decides, and why
    (missing,) = console.timers()
    assert missing["data"]["rule"] == "gm" and "only Sample Old Mill is in hand" in missing["data"]["order_refused"]
    assert "step 10 cycles 2 hand card(s)" in missing["text"] and "Pat" in missing["pings"]
    await console.ok('/orders set order:end-turn option:"Sample Sling, Sample Old Mill, Sample Quiet Ford"')
    await console.ok("@as Gwen")
    posts = (await console.ok('/campaign log command:"saga continue"'))["data"]["events"]
    await console.undo(f"/campaign undo event:{posts[0]['id']}")  # Pat's last post again: step 10 begins anew
    await console.ok("@as Pat")
    await console.ok("/saga continue")
    await console.ok("@wait 1d")
    (ended,) = console.timers()
    assert ended["data"]["ran"] == "end" and "cycling Sample Sling, Sample Old Mill" in ended["text"]
    table = await console.ok("/saga table")
    assert "Turn: 2" in table["text"] and "Sample Quiet Ford" in table["text"]  # the third stays in hand
    await console.table.close()


async def test_realm_plays_the_ordered_move_chit_against_an_attack_spell(tmp_path: Path, registry: Registry) -> None:
    console = await _open(tmp_path / "realm.sqlite3", registry)
    await _play(
        console,
        (
            "@as Gwen",
            "/campaign start ruleset:realm name:Realm",
            "/campaign settings key:turn_deadline value:1d",
            '/realm spell define name:"Fiery Blast" type:IV color:purple target_type:individuals',
            "/realm day set day:13",
            '/realm clearing set name:"Cave 1" tile:Cave colors:"purple, black"',
            "@as Pat",
            '/realm character create name:Wizard location:"Cave 1" spells:"Fiery Blast" '
            'chits:"MAGIC IV4, MAGIC IV3**, MOVE M4*, FIGHT L4"',
            "@as Oz",
            '/realm character create name:Witch location:"Cave 1" chits:"MAGIC V3*, MOVE L3, MOVE M4**"',
        ),
    )
    assert "MOVE L3, MOVE M4**" in (await console.fails('/orders set order:maneuver option:"MOVE M9"'))["text"]
    assert "not FIGHT" in (await console.fails('/orders set order:maneuver option:"FIGHT L4"'))["text"]
    assert "needs `option:`" in (await console.fails("/orders set order:maneuver"))["text"]
    made = await console.ok('/orders set order:maneuver option:"duck move m4**"')
    assert "duck MOVE M4**" in made["text"]  # as the book writes chits
    await _play(
        console,
        (
            "@as Gwen",
            '/realm combat start clearing:"Cave 1" order:"Wizard, Witch"',
            "@as Pat",
            '/realm cast spell:"Fiery Blast" ritual:"MAGIC IV3**"',
            "@as Gwen",
            "/realm combat melee",
            "@as Pat",
            "/realm target targets:Witch",
            "@as Gwen",
            "/realm resolve",
            "@as Pat",
            "/realm attack direction:thrust",
        ),
    )
    await console.ok("@wait 1d")
    (fired,) = console.timers()
    assert fired["data"]["ran"] == "combat maneuver" and "Witch ducks with MOVE M4**" in fired["text"]
    assert "thrust" not in fired["text"]  # the direction stays secret
    waiting = (await console.ok("/campaign waiting"))["data"]["waits"]
    assert [w["who"] for w in waiting] == ["GM"]
    await console.table.close()


async def test_the_option_autocompletes_from_the_rulesets_offers_through_discord(console: Console) -> None:
    table = console.table
    await ok(table, "Gwen", "campaign start", ruleset="saga", name="Stars")
    await ok(table, "Pat", "saga start", deck="sample", seed=168)
    hand = (await ok(table, "Pat", "saga table")).text
    offered = await choices(table, "Pat", "orders set", "option", "", order="end-turn")
    assert offered and all(card in hand for card in offered)
    first = offered[0]
    after = await choices(table, "Pat", "orders set", "option", f"{first}, ", order="end-turn")
    assert after and all(choice.startswith(f"{first}, ") for choice in after) and f"{first}, {first}" not in after
    assert await choices(table, "Pat", "orders set", "option", "", order="nonsense") == []
    made = await ok(table, "Pat", "orders set", order="end-turn", option=f"{first}, {after[0].split(', ')[1]}")
    assert made.ephemeral and "cards:" in made.text


async def test_a_forgotten_members_order_goes_with_them(serpent: Console) -> None:
    await serpent.ok("@as Grey")
    await serpent.ok("/orders set order:end-turns")
    await serpent.ok("@as White")
    await serpent.ok("/orders set order:pass")
    grey = VirtualUser("Grey").id
    await serpent.ok("@as Grey")
    await serpent.ok("/privacy forget")
    await serpent.ok("@press Confirm")
    await serpent.ok("@as Gwen")
    left = (await serpent.ok("/orders show all:true"))["data"]["orders"]
    assert list(left) == [str(VirtualUser("White").id)]
    store = serpent.table.bot.service.store
    ((pbp,),) = await fetch(store, "SELECT pbp FROM campaigns WHERE archived_at IS NULL")
    assert str(grey) not in pbp and "end-turns" not in pbp


async def test_runic_keeps_spells_up_at_the_gms_upkeep_call_but_never_into_negative_mp(
    tmp_path: Path, registry: Registry
) -> None:
    console = await _open(tmp_path / "runic.sqlite3", registry)
    await _play(
        console,
        (
            "@as Gwen",
            "/campaign start ruleset:runic name:Camelot",
            "/campaign settings key:turn_deadline value:1d",
            "/campaign settings key:nudge value:0",
            '/runic spell define name:"Ward of Flame" words:Sanct-Flam parameters:"duration: 1 minute; bonus: +2 '
            'moderate" where:campaign effect:"+2 to resist fire."',
            "@as Pat",
            "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
            '/runic mage learn spell:"Ward of Flame"',
            "/runic mage word word:Sanct skill:14",
            "/runic mage word word:Flam skill:13",
            "/orders set order:maintain",
            "@as Gwen",
            '/runic cast mage:Merlin spell:"Ward of Flame" dice:"2 5 5"',  # the GM rolls it at the table
        ),
    )
    assert "nothing is owed" not in (await console.ok("/runic upkeep"))["text"]
    await console.ok("@wait 1d")
    (paid,) = console.timers()
    assert paid["data"]["ran"] == "maintain" and "keeps Ward of Flame up, paying 1 MP" in paid["text"]
    assert paid["data"]["mp_before"] - paid["data"]["mp_after"] == 1
    assert (await console.ok("/campaign waiting"))["data"]["waits"] == []
    await console.ok('/runic adjust character:Merlin field:mp value:0 reason:"drained by a ward"')
    await console.ok("/runic upkeep")
    await console.ok("@wait 1d")
    (refused_,) = console.timers()
    assert refused_["data"]["rule"] == "gm" and "never does" in refused_["data"]["order_refused"]
    assert "Merlin has 0 MP" in refused_["text"]
    await console.ok("@as Pat")
    await console.ok("/runic maintain spell:due")  # the player may still choose to pay into negative MP
    assert (await console.ok("/campaign waiting"))["data"]["waits"] == []
    await console.table.close()


async def test_a_ruleset_outside_magister_adds_orders_through_the_contract_alone(console: Console) -> None:
    """tests/support/tally.py is no part of Magister: its order runs like the built-in rulesets'."""
    await _play(
        console,
        (
            "@as Gwen",
            "/campaign start ruleset:tally name:Crows",
            "/campaign settings key:turn_deadline value:4h",
            "@as Pat",
            "/tally create name:Pip",
            "/orders set order:add",
            "@as Gwen",
            "/tally ask names:Pip",
        ),
    )
    await console.ok("@wait 4h")
    fired = [f for f in console.timers() if f["data"].get("timer") == "deadline"]
    assert fired[0]["data"]["ran"] == "add" and fired[0]["data"]["points"] == 1 and "Pip adds" in fired[0]["text"]
