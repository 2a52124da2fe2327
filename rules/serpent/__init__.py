"""Serpent's Tongue (The Magi's Handbook, Crucible Update rules; RULINGS 8-13).

Magi battle in rounds of initiative, maintenance, preparation and actions,
casting spells into zones and answering each other's spells with Responses;
or fight an Encounter that runs itself from a draw bag and its charts.

Modules, in reading order: ``book`` (the data), ``magi`` (sheets and the Codex),
``state`` (the battle), ``rounds``, ``casting``, ``responses``, ``defenses``,
``impact``, ``encounter``, ``engine``, then ``actions``/``play`` (the commands)
and ``cards`` (what the channel reads).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import BaseModel

from rules.base import (
    Action,
    BattlePicture,
    BenchCase,
    BenchStep,
    Card,
    CharacterRecord,
    LookupEntry,
    OrderOffer,
    OrderRun,
    Replied,
    ReplyItem,
    Ruleset,
    SecretsCase,
    StandingOrder,
    Table,
    Wait,
)
from rules.serpent import web
from rules.serpent.actions import ACTIONS
from rules.serpent.book import SerpentBook, lookup_entries
from rules.serpent.guide import FIRST_SESSION, GETTING_STARTED, HELP_EXAMPLES
from rules.serpent.magi import MagiSheet, codex_summary
from rules.serpent.replies import battle_picture, reply_items
from rules.serpent.state import SerpentSettings, SerpentState
from rules.serpent.suggest import suggestions
from rules.serpent.waits import ORDERS, run_order, table_waits


class SerpentRuleset(Ruleset):
    id: ClassVar[str] = "serpent"
    page_lists = web.page_lists  # the campaign's web page: rules/serpent/web.py
    name: ClassVar[str] = "Serpent's Tongue"
    sheet_model: ClassVar[type[BaseModel]] = MagiSheet
    state_model: ClassVar[type[BaseModel]] = SerpentState
    settings_model: ClassVar[type[BaseModel]] = SerpentSettings
    book_model: ClassVar[type[BaseModel] | None] = SerpentBook
    getting_started = GETTING_STARTED
    help_examples = HELP_EXAMPLES
    first_session = FIRST_SESSION
    actions: ClassVar[dict[str, Action]] = ACTIONS
    board_action = "battle board"
    character_option = "magi"

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """A window: Respond and Pass; a Magi's turn: Cast and End turn; the board asked for: Picture."""
        return reply_items(replied)

    def picture(self, table: Table) -> BattlePicture:
        return battle_picture(table)

    def secrets_case(self) -> SecretsCase:
        """Two Magi in a team battle; the player prepares a spell in secret (docs/serpent.md, round step 3)."""
        gm = {"as_gm": True}
        return SecretsCase(
            setup=(
                BenchStep("magi create", {"name": "White", "codex": "Fireball x2, Dissolve Tissue"}),
                BenchStep("magi create", {"name": "Black", "codex": "Fireball, Dissolve Tissue"}, **gm),
                BenchStep("battle start", {"mode": "teams"}, **gm),
                BenchStep("battle join", {"team": "Sun"}),
                BenchStep("battle join", {"magi": "Black", "team": "Moon"}, **gm),
                BenchStep("battle round", {"resonance": 10, "rolloff": "White, Black"}, **gm),
            ),
            steps=(BenchStep("prepare", {"spells": "Dissolve Tissue"}),),
            markers=(),
            unmarked="a prepared spell's title is on the Codex everyone reads: which ones are prepared is the secret",
        )

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        return lookup_entries(book)

    def waits(self, table: Table) -> list[Wait]:
        """Who the battle waits on: response windows, the turn, spell preparation, a Spell Loss, or the GM."""
        return table_waits(table)

    orders: ClassVar[tuple[OrderOffer, ...]] = ORDERS

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """A response window passes (``pass``, ``end-turns``); a turn ends for the round (``end-turns``)."""
        return run_order(table, wait, order)

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        """Autocomplete from the channel's battle: the spells and targets that make sense for this action."""
        return suggestions(table, action, option, current)

    def character_summary(self, record: CharacterRecord) -> str:
        sheet = record.sheet if isinstance(record.sheet, MagiSheet) else MagiSheet.model_validate(record.sheet)
        spec = f", {sheet.specialization}" if sheet.specialization else ""
        return f"{record.name} (Magi, {len(sheet.codex)} spells{spec})"

    def character_card(self, record: CharacterRecord) -> Card:
        sheet = record.sheet if isinstance(record.sheet, MagiSheet) else MagiSheet.model_validate(record.sheet)
        card = Card(title=f"{record.name}, Magi", description=f"Codex: {codex_summary(sheet)}")
        card.add("Specialization", sheet.specialization or "none", inline=True)
        card.add("Artifact", sheet.artifact or "none", inline=True)
        if sheet.autopass != "never":
            card.add("Auto-pass", sheet.autopass, inline=True)
        return card

    def bench_case(self) -> BenchCase:
        """A Fireball in a two-Magi duel's action phase: payment, the response window, activation and damage."""
        codex = "Fireball x2, Dissolve Tissue x2, Pillar of Earth, Acidic Matter, Air Essence"
        prepared = "Fireball, Dissolve Tissue"
        return BenchCase(
            title="serpent cast (a Fireball in a duel)",
            setup=(
                BenchStep("magi create", {"name": "White", "codex": codex}),
                BenchStep("magi create", {"name": "Black", "codex": codex}),
                BenchStep("battle start", as_gm=True),
                BenchStep("battle join", {"magi": "White"}),
                BenchStep("battle join", {"magi": "Black"}),
                BenchStep("battle round", {"resonance": 10, "rolloff": "White"}, as_gm=True),
                BenchStep("prepare", {"magi": "White", "spells": prepared}),
                BenchStep("prepare", {"magi": "Black", "spells": prepared}),
            ),
            measured=BenchStep("cast", {"magi": "White", "spell": "Fireball", "target": "Black"}),
        )


RULESET = SerpentRuleset()
