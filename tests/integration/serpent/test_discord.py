"""/serpent through real discord.Interaction objects and the bot's CommandTree, replies recorded (issue 5).

``/serpent battle round``, ``/serpent cast`` with a response window (one Magi
responds with ``/serpent respond``, the other passes, the window closes and the
chain resolves) and ``/serpent battle board``, every embed checked against
Discord's limits and read for what it says.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.adapter.render import embed_problems
from bot.cli.virtual import Sent, VirtualUser, command_data, find_command
from bot.table.service import Caller, Place
from cogs._ruleset import command_path
from rules.base import Card, Outcome, Table
from rules.serpent import RULESET
from rules.serpent.state import Battle, Being, CardState, SerpentState
from tests.conftest import Console

NOW = "2030-01-01T12:00:00+00:00"
GM = VirtualUser("Gwen")


class Reply:
    """What one interaction sent back: a single embed, read by field name (and, after it, maybe the caller's
    private card: an ephemeral follow-up, ``private``)."""

    def __init__(self, interaction: discord.Interaction, sent: list[Sent]) -> None:
        messages = [s for s in sent if s.kind != "defer"]
        self.private = [s for s in messages[1:] if s.kind == "followup" and s.ephemeral]
        messages = [s for s in messages if s not in self.private]
        assert len(messages) == 1, messages
        self.interaction = interaction
        self.message = messages[0]
        for embed in self.message.embeds:
            assert embed_problems(discord.Embed.from_dict(embed)) == [], embed
        (self.embed,) = self.message.embeds
        self.fields = {f["name"]: f["value"] for f in self.embed.get("fields", [])}
        self.error = interaction.extras.get("error")
        outcome = interaction.extras.get("outcome")
        self.data: dict[str, Any] = outcome.data if outcome is not None else {}

    @property
    def title(self) -> str:
        return self.embed["title"]

    @property
    def description(self) -> str:
        return self.embed.get("description", "")


async def slash(console: Console, user: VirtualUser, line: str, **options: Any) -> Reply:
    """``/serpent <line>`` as ``user`` clicks it in Discord: a real interaction through the real tree."""
    table = console.table
    path = ["serpent", *line.split()]
    data = command_data(table.virtual.tree, path, options, guild_id=table.virtual.guild_id)
    interaction, sent = await table.virtual.command(user, data)
    assert type(interaction) is discord.Interaction
    assert interaction.command is not None and interaction.command.qualified_name == " ".join(path)
    reply = Reply(interaction, sent)
    assert reply.error is None, reply.error
    assert "incident" not in interaction.extras
    return reply


async def choices(console: Console, user: VirtualUser, line: str, option: str, **options: Any) -> list[str]:
    table = console.table
    data = command_data(
        table.virtual.tree, ["serpent", *line.split()], options, focused=option, guild_id=table.virtual.guild_id
    )
    return [c["value"] for c in await table.virtual.autocomplete(user, data)]


@pytest.fixture
async def three_magi(console: Console) -> Console:
    """White (team Sun) against Black and Grey (team Moon), who each hold Universum Negation, in preparation."""
    console.table.bot.service.clock = lambda: NOW
    await console.ok("@as Gwen")
    await console.ok('/campaign start ruleset:serpent name:"Three Magi"')
    await console.ok('/serpent spell define name:"Universum Negation" dispel_to:discard')  # RULING 12: the GM's
    await console.ok("@as White")
    await console.ok('/serpent magi create name:White codex:"Fireball x2"')
    await console.ok("@as Black")
    await console.ok('/serpent magi create name:Black codex:"Universum Negation, Dissolve Tissue"')
    await console.ok("@as Grey")
    await console.ok('/serpent magi create name:Grey codex:"Universum Negation"')
    await console.ok("@as Gwen")
    await console.ok("/serpent battle start mode:teams")
    for name, team in (("White", "Sun"), ("Black", "Moon"), ("Grey", "Moon")):
        await console.ok(f"@as {name}")
        await console.ok(f"/serpent battle join team:{team}")
    return console


async def test_battle_round_runs_initiative_and_maintenance(three_magi: Console) -> None:
    refused = await three_magi.table.virtual.command(
        VirtualUser("White"),
        command_data(three_magi.table.virtual.tree, ["serpent", "battle", "round"], {}, guild_id=1001),
    )
    assert "needs the GM" in refused[0].extras["error"] and refused[1][0].ephemeral

    reply = await slash(three_magi, GM, "battle round", resonance=10, rolloff="White, Black, Grey")
    assert not reply.message.ephemeral
    assert reply.title == "Round 1"
    assert "🎲 Resonance roll: **10** (GM-supplied) → 5 Resonance each — **Resonance Overload**." in reply.description
    assert "White loses 1 Harmony to the Overload → -1." in reply.description
    assert "Initiative: White → Black → Grey." in reply.description
    assert "**Maintenance phase**: nothing in play to resolve." in reply.description
    assert reply.fields["Now"] == (
        "Round 1, spell preparation: White, Black, Grey may /serpent reattune, then prepare (3 max)."
    )
    assert reply.embed["footer"]["text"] == "Round 1 · preparation phase"
    battle = reply.data["battle"]
    assert (battle["round"], battle["phase"], battle["order"]) == (1, "preparation", ["White", "Black", "Grey"])
    assert {name: (b["resonance"], b["harmony"]) for name, b in battle["beings"].items()} == {
        "White": (5, -1),
        "Black": (5, -1),
        "Grey": (5, -1),
    }


async def test_cast_opens_a_window_one_responds_the_other_passes_and_the_chain_resolves(
    three_magi: Console,
) -> None:
    console = three_magi
    await slash(console, GM, "battle round", resonance=10, rolloff="White, Black, Grey")
    await slash(console, VirtualUser("White"), "prepare", spells="Fireball")
    await slash(console, VirtualUser("Black"), "prepare")
    started = await slash(console, VirtualUser("Grey"), "prepare")
    assert "**White**'s turn" in started.fields["Now"]

    cast = await slash(console, VirtualUser("White"), "cast", spell="Fireball", target="Black")
    assert cast.title == "White casts Fireball"
    assert "🔮 White casts **Fireball** at Black." in cast.description
    assert "White pays 5 Resonance. Now: Resonance 0, Essence 12." in cast.description
    window = cast.data["battle"]["window"]
    assert (window["effect"], window["caster"]) == ("Fireball", "White")
    assert window["opened_at"] == NOW
    assert cast.fields["Now"] == (
        f"Response window on **Fireball** (#{window['id']}, by White): Black, Grey may /serpent respond "
        '("Fasul!") or /serpent pass. In play-by-post each Magi asked has until the campaign\'s response_window '
        "deadline (/campaign waiting)."
    )
    assert cast.data["battle"]["beings"]["Black"]["essence"] == 12  # manifesting, not yet impacting

    passed = await slash(console, VirtualUser("Grey"), "pass")
    assert passed.title == "Grey passes on Fireball"
    assert "Black may /serpent respond" in passed.fields["Now"] and "Grey" not in passed.fields["Now"]

    # what Black's client offers for target: the manifesting Fireball first, as "#id Title"
    offered = await choices(console, VirtualUser("Black"), "respond", "target", target="")
    assert offered[0] == f"#{window['id']} Fireball"
    responded = await slash(console, VirtualUser("Black"), "respond", spell="Universum Negation", target=offered[0])
    assert responded.title == "Black responds with Universum Negation (Fasul!)"
    assert "Black pays 3 Resonance" in responded.description
    assert "Black takes an interrupt stone (1 held)." in responded.description
    chain = responded.data["battle"]["window"]
    assert (chain["effect"], chain["caster"]) == ("Universum Negation", "Black")
    assert "Grey may /serpent respond" in responded.fields["Now"]  # Responses chain: a window on the Response

    closed = await slash(console, VirtualUser("Grey"), "respond")  # no spell: pass this window
    assert closed.title == "Grey passes on Universum Negation"
    text = closed.description
    assert text.index("✨ Universum Negation activates.") < text.index("Universum Negation Dispels White's manifesting")
    assert "Refund to White: 5 Resonance." in text
    battle = closed.data["battle"]
    assert battle["window"] is None
    assert battle["in_play"] == []
    assert battle["beings"]["Black"]["essence"] == 12  # the Fireball never impacted
    assert battle["beings"]["White"]["resonance"] == 5  # refunded
    assert (battle["beings"]["Black"]["resonance"], battle["beings"]["Black"]["stones"]) == (2, 1)
    assert battle["turn"] == "Black"
    assert "**Black**'s turn" in closed.fields["Now"] and "interrupt stone" in closed.fields["Now"]

    board = await slash(console, VirtualUser("Grey"), "battle board")
    assert board.title == "Serpent's Tongue — round 1, actions phase"
    assert board.description.startswith("Round 1, action phase: **Black**'s turn.")
    assert "Initiative: White → Black → Grey" in board.description
    assert set(board.fields) == {"White — team Sun", "Black — team Moon", "Grey — team Moon"}
    assert board.fields["Black — team Moon"].startswith(
        "Essence 12, Resonance 2, Harmony -1, Will 3, Voice 0, stones 1"
    )
    assert "Full Actions 1/2" in board.fields["White — team Sun"]
    assert board.embed["footer"]["text"].startswith("Last: ")
    assert board.data["battle"] == battle


async def test_autopass_pass_and_end_turn_are_separate_commands_in_discord(three_magi: Console) -> None:
    """Issue 13 through the real tree: Grey auto-passes her allies' spells, a second pass never ends a turn."""
    console = three_magi
    offered = await choices(console, VirtualUser("Grey"), "autopass", "magi", magi="")
    assert offered == ["Grey"]
    set_ = await slash(console, VirtualUser("Grey"), "autopass", mode="always")
    assert set_.title == "Grey: auto-pass always" and set_.data["mode"] == "always"
    await slash(console, GM, "battle round", resonance=10, rolloff="White, Black, Grey")
    await slash(console, VirtualUser("White"), "prepare", spells="Fireball")
    await slash(console, VirtualUser("Black"), "prepare")
    await slash(console, VirtualUser("Grey"), "prepare")
    cast = await slash(console, VirtualUser("White"), "cast", spell="Fireball", target="Black")
    assert "Grey auto-passes on Fireball" in cast.description and "(auto-pass: always)" in cast.description
    assert "Black may /serpent respond" in cast.fields["Now"] and "Grey" not in cast.fields["Now"]
    await slash(console, VirtualUser("Black"), "pass")
    data = command_data(console.table.virtual.tree, ["serpent", "pass"], {}, guild_id=console.table.virtual.guild_id)
    interaction, sent = await console.table.virtual.command(VirtualUser("Black"), data)
    assert "use /serpent end-turn" in interaction.extras["error"] and sent[-1].ephemeral
    ended = await slash(console, VirtualUser("Black"), "end-turn")
    assert ended.title == "Black passes" and ended.data["battle"]["beings"]["Black"]["passed"]


async def test_battle_board_stays_within_embed_limits_for_a_crowded_battle(console: Console) -> None:
    """Eight Magi with 64-character names, six spells each in play with counters and charges, a long log."""
    await console.ok("@as Gwen")
    await console.ok('/campaign start ruleset:serpent name:"Crowded"')
    titles = [
        ("Materia Binding of Mal-kuth", "defense"),
        ("Pillar of Earth", "defense"),
        ("Acidic Matter", "attack"),
        ("Karmic Debt", "curse"),
        ("Cellular Augmentation", "enhance"),
        ("Beast Form", "enhance"),
    ]
    battle = Battle(mode="teams", round=12, phase="actions", turn=3)
    names = [f"Magi {i} " + "of the Endless Spiral of Very Long Names"[: 64 - 7] for i in range(8)]
    for i, name in enumerate(names):
        key = name.casefold()
        battle.beings[key] = Being(
            key=key, name=name, kind="magi", team=f"Team {'Sun' if i % 2 else 'Moon'}", harmony=-i, stones=i % 3
        )
        battle.order.append(key)
    for i, name in enumerate(names):
        for title, zone in titles:
            card_id = battle.new_id()
            battle.cards[card_id] = CardState(
                id=card_id,
                title=title,
                owner=name.casefold(),
                controller=names[(i + 1) % 8].casefold(),
                location="play",
                zone=zone,  # type: ignore[arg-type]
                bearer=name.casefold(),
                duration=3,
                durability=2 if zone == "defense" else None,
                charges={"Karma": 9} if title == "Karmic Debt" else {},
                order=card_id,
            )
    battle.log = ["A very long line of story " * 40]

    def place(table: Table) -> Outcome:
        table.state = SerpentState(battle=battle)
        return Outcome(card=Card(title="Set up"), summary="crowded battle")

    await console.table.bot.service.act(Place(1001, 2002), Caller(GM.id, "Gwen"), "test setup", place, gm_only=True)
    board = await slash(console, VirtualUser("Anyone"), "battle board")  # board checks embed_problems
    assert len(board.fields) == 8
    assert [name.split(" — ")[0] for name in board.fields] == names  # nobody is dropped
    assert all("Karmic Debt" in value for value in board.fields.values())
    assert f"**{names[3]}**'s turn" in board.description
    size = len(board.title) + len(board.description) + len(board.embed["footer"]["text"])
    size += sum(len(name) + len(value) for name, value in board.fields.items())
    assert 4000 < size <= 6000  # filled, not over


def test_every_registered_option_shows_its_description(console: Console) -> None:
    """What Discord lists under each /serpent option is the options model's description, not its bare name."""
    tree = console.table.virtual.tree
    checked = 0
    for action in RULESET.actions.values():
        group, name = command_path(action.name)
        command = find_command(tree, ["serpent", *([group] if group else []), name])
        assert command.description.startswith(action.description)
        for parameter in command.parameters:
            assert parameter.description == action.options.model_fields[parameter.name].description
            checked += 1
    assert checked > 80
    assert find_command(tree, ["serpent", "battle", "encounter-add"]).parameters[0].name == "name"
