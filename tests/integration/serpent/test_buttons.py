"""The messages that wait on someone carry the buttons that answer them (issue 13), through the real tree.

A response window's reply has **Respond** (the presser's own eligible Responses, shown only to them as a
lasting select) and **Pass**; a Magi's turn has **End turn**. Each lasts: a fresh process on the same
database (a restart) answers a press on a message an earlier one sent.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from discord.webhook.async_ import async_context

from bot.cli.console import ConsoleTable, Result
from bot.cli.virtual import Sent, VirtualUser, message_payload
from bot.table.registry import Registry

SETUP = (
    "@as Gwen",
    "/campaign start ruleset:serpent name:Buttons",
    '/serpent spell define name:"Universum Negation" dispel_to:discard',
    "@as Wanda",
    '/serpent magi create name:White codex:"Fireball x2, Universum Negation"',
    "/serpent autopass mode:allies",
    "@as Gail",
    '/serpent magi create name:Grey codex:"Universum Negation, Dissolve Tissue"',
    "@as Bert",
    '/serpent magi create name:Black codex:"Fireball, Dissolve Tissue"',
    "@as Gwen",
    "/serpent battle start mode:teams",
    "@as Wanda",
    "/serpent battle join team:Sun",
    "@as Gail",
    "/serpent battle join team:Sun",
    "@as Bert",
    "/serpent battle join team:Moon",
    "@as Gwen",
    '/serpent battle round resonance:10 rolloff:"White, Black, Grey"',
    "@as Wanda",
    "/serpent prepare spells:Fireball",
    "@as Gail",
    '/serpent prepare spells:"Dissolve Tissue"',
    "@as Bert",
    "/serpent prepare spells:Fireball",
)


# White's turn: her Fireball at Black, which Grey passes; then it is Black's turn
BLACKS_TURN = ("@as Wanda", "/serpent cast spell:Fireball target:Black", "@as Gail", "/serpent pass")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "buttons.sqlite3"


async def run(table: ConsoleTable, *lines: str) -> Result:
    result = None
    for line in lines:
        result = await table.execute(line)
        assert result is not None and result.ok, (line, result and result.text)
    assert result is not None
    return result


async def battle(db: Path, registry: Registry) -> ConsoleTable:
    """Round 1 with every spell prepared: White's turn. ``table.prepared`` is the last preparation's reply."""
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    table.prepared = await run(table, *SETUP)  # type: ignore[attr-defined]
    return table


async def press(db: Path, registry: Registry, message: Sent, label: str, user: str) -> Result:
    """A fresh process (a restart) on the same file presses ``label`` on a message an earlier one sent."""
    table = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        button = next(b for b in message.buttons() if b["label"] == label)
        interaction, sent = await table.virtual.press(VirtualUser(user), message, button)
        result = table._result(f"@press {label}", interaction, sent)
        result.extra["sent"] = sent
        return result
    finally:
        await table.close()


def offer_components(offer: Result) -> list[dict]:
    """The components of the message a press answered with (the Respond select)."""
    (message,) = [m for m in offer.extra["sent"] if m.components]
    return message.components


async def pick(table: ConsoleTable, user: str, message: Sent, value: str) -> Result:
    """Choose ``value`` in the select of ``message``, as Discord sends it (component type 3, with values)."""
    (select,) = [c for row in message.components for c in row["components"] if c["type"] == 3]
    virtual = table.virtual
    async_context.set(virtual.adapter)
    data = {"custom_id": select["custom_id"], "component_type": 3, "values": [value]}
    payload = virtual.interaction_payload(
        VirtualUser(user), 3, data, message=message_payload(message, channel_id=virtual.channel_id)
    )
    virtual.adapter.originals[payload["token"]] = message.id
    before, tasks = len(virtual.adapter.sent), asyncio.all_tasks()
    captured = []

    async def grab(interaction: object) -> None:
        captured.append(interaction)

    table.bot.add_listener(grab, "on_interaction")
    try:
        table.bot._connection.parse_interaction_create(payload)
        for _ in range(50):
            pending = [t for t in asyncio.all_tasks() - tasks if not t.done() and "discord" in t.get_name()]
            if not pending:
                break
            await asyncio.gather(*pending, return_exceptions=True)
    finally:
        table.bot.remove_listener(grab, "on_interaction")
    return table._result(f"@pick {value}", captured[0], virtual.adapter.sent[before:])


async def test_a_window_carries_respond_and_pass_and_a_turn_end_turn(db: Path, registry: Registry) -> None:
    table = await battle(db, registry)
    try:
        prepared: Result = table.prepared  # type: ignore[attr-defined]
        assert prepared.extra["buttons"] == ["Cast", "End turn"]  # White's turn begins
        cast = await run(table, "@as Wanda", "/serpent cast spell:Fireball target:Black")
        assert cast.extra["buttons"] == ["Respond", "Pass"]  # the window waits on Grey
        refused = await table.execute("@press Pass")  # White has no part in this window
        assert refused is not None and not refused.ok and "is not waiting for White" in refused.text
        await run(table, "@as Gail")
        passed = await run(table, "@press Pass")
        assert passed.data["action"] == "pass" and passed.data["battle"]["window"] is None
        assert passed.extra["buttons"] == ["Cast", "End turn"]  # Black's turn now
        await run(table, "@as Bert")
        ended = await run(table, "@press End turn")
        assert ended.data["action"] == "end-turn"
    finally:
        await table.close()


async def test_respond_shows_the_presser_their_own_responses_and_picking_one_responds(
    db: Path, registry: Registry
) -> None:
    table = await battle(db, registry)
    try:
        await run(table, *BLACKS_TURN, "@as Bert", "/serpent cast spell:Fireball target:White")  # asks White and Grey
        await run(table, "@as Gail")
        offer = await run(table, "@press Respond")
        assert offer.ephemeral and "Respond with one of your Responses" in offer.text
        message = table.virtual.adapter.sent[-1]
        (select,) = [c for row in message.components for c in row["components"] if c["type"] == 3]
        assert [o["value"] for o in select["options"]] == ["Universum Negation"]  # Grey's own, nothing of White's
        responded = await pick(table, "Gail", message, "Universum Negation")
        assert responded.ok, responded.text
        assert responded.data["action"] == "respond"
        assert "Universum Negation Dispels Black's manifesting Fireball" in responded.text
        assert responded.data["battle"]["window"] is None  # nobody could answer the Response: it activated
        assert responded.extra["buttons"] == ["Cast", "End turn"]  # Grey's turn
        assert responded.extra["pings"] == ["Gail"]
        late = await pick(table, "Gail", message, "Universum Negation")  # the Fireball window is no longer open
        assert not late.ok and "nothing manifesting to respond to" in late.text
    finally:
        await table.close()


async def test_respond_works_after_a_restart(db: Path, registry: Registry) -> None:
    table = await battle(db, registry)
    await run(table, *BLACKS_TURN, "@as Bert", "/serpent cast spell:Fireball target:White")
    window_message = table.last_with_buttons
    await table.close()
    assert window_message is not None

    offer = await press(db, registry, window_message, "Respond", "Bert")  # Black cast it and holds no Response
    assert not offer.ok and "no Response you could make now" in offer.text
    offer = await press(db, registry, window_message, "Respond", "Gail")
    assert offer.ok and offer.ephemeral
    table = await ConsoleTable.open(db, seed=3, registry=registry)  # another restart before she picks
    try:
        ready = await run(table, "@as Gail", "/campaign waiting")  # the window still waits on both
        assert sorted(w["who"] for w in ready.data["waits"]) == ["Grey", "White"]
        select_message = Sent(kind="message", id=1_300_000_000_000_000_001, components=offer_components(offer))
        picked = await pick(table, "Gail", select_message, "Universum Negation")
        assert picked.ok and picked.data["action"] == "respond"
    finally:
        await table.close()


async def test_pass_works_after_a_restart(db: Path, registry: Registry) -> None:
    table = await battle(db, registry)
    await run(table, *BLACKS_TURN, "@as Bert", "/serpent cast spell:Fireball target:White")
    window_message = table.last_with_buttons
    await table.close()
    assert window_message is not None
    passed = await press(db, registry, window_message, "Pass", "Wanda")  # a fresh process answers it
    assert passed.ok and passed.data["action"] == "pass"
    again = await press(db, registry, window_message, "Pass", "Wanda")  # the same press twice: refused, unchanged
    assert not again.ok and "is not waiting for White" in again.text
    closes = await press(db, registry, window_message, "Pass", "Gail")
    assert closes.ok and closes.data["battle"]["window"] is None
    stale = await press(db, registry, window_message, "Pass", "Gail")  # the window closed: says so
    assert not stale.ok and "No response window is open" in stale.text


async def test_cast_offers_the_pressers_prepared_spells_then_the_target(db: Path, registry: Registry) -> None:
    table = await battle(db, registry)
    try:
        await run(table, "@as Bert")
        bert = await table.execute("@press Cast")  # anyone may press it: the list is the presser's own
        assert bert is not None and bert.ok and bert.ephemeral and "[select: Cast… Fireball]" in bert.text
        await run(table, "@as Wanda")
        offer = await run(table, "@press Cast")
        assert offer.ephemeral and "[select: Cast… Fireball]" in offer.text  # White's own prepared spell only
        target = await run(table, "@pick Fireball")
        assert target.ephemeral and "Fireball: pick the target" in target.text
        message = table.last_with_select
        assert message is not None
        labels = [o["label"] for o in message.selects()[0]["options"]]
        assert labels[0] == "No target" and {"White", "Black", "Grey"} <= set(labels)
        await run(table, "@as Bert")
        stolen = await table.execute("@pick Black")  # White's list: not Bert's to use
        assert stolen is not None and not stolen.ok and "belongs to whoever ran the command" in stolen.text
        await run(table, "@as Wanda")
        cast = await run(table, "@pick Black")
        assert cast.data["action"] == "cast" and cast.data["battle"]["window"]["effect"] == "Fireball"
        assert cast.extra["buttons"] == ["Respond", "Pass"]
    finally:
        await table.close()


async def test_the_target_list_works_after_a_restart(db: Path, registry: Registry) -> None:
    table = await battle(db, registry)
    await run(table, "@as Wanda", "@press Cast", "@pick Fireball")
    message = table.last_with_select
    await table.close()
    assert message is not None
    fresh = await ConsoleTable.open(db, seed=3, registry=registry)
    try:
        (menu,) = message.selects()
        interaction, sent = await fresh.virtual.select(VirtualUser("Wanda"), message, menu, ["Black"])
        cast = fresh._result("@pick Black", interaction, sent)
        assert cast.ok and cast.data["action"] == "cast" and cast.data["battle"]["window"]["effect"] == "Fireball"
    finally:
        await fresh.close()
