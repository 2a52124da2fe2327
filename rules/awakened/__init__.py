"""Awakened mages: Mana, Gnosis, factors, Shaping, paradox, sustaining, soul stones (the Aether rules).

Rules and rulings are in docs/awakened.md. Modules, in the order a spell meets
them: ``book`` (the tables), ``sheet`` (the stored models), ``spells`` (the
declaration and its cost, ruling 14), ``payment`` (the Gnosis limit and free
Mana), ``casting`` (cast and contingencies), ``life`` (sustain, refresh, reduce,
dismiss, ceremonies), ``shaping`` (the Shaping roll), ``calendar`` (rounds and
the paradox roll, scenes, days), ``upkeep`` (oblation, sacrifice, soul loss,
Willpower dots, soul stones), ``insight`` (scrutiny, resonance, crisis, Mage
Sight, paradox records), ``mages`` (sheets and the GM's tools), ``odds``,
``cards``, ``lookup`` and ``suggest``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rules.awakened import calendar, casting, contests, insight, life, mages, odds, plan, shaping, upkeep, web
from rules.awakened.book import AwakenedBook
from rules.awakened.common import spell_label
from rules.awakened.guide import FIRST_SESSION, GETTING_STARTED, HELP_EXAMPLES
from rules.awakened.lookup import entries
from rules.awakened.shaping import paradox_total
from rules.awakened.sheet import PRIVATE_FIELDS, AwakenedSettings, AwakenedSheet, AwakenedState
from rules.awakened.suggest import suggestions
from rules.awakened.waits import ORDERS, awakened_waits, run_order
from rules.awakened.words import quantity
from rules.base import (
    Action,
    BenchCase,
    BenchStep,
    Card,
    CharacterRecord,
    InlineAction,
    LookupEntry,
    OrderOffer,
    OrderRun,
    Outcome,
    Replied,
    ReplyItem,
    Ruleset,
    Secrecy,
    SecretsCase,
    StandingOrder,
    Table,
    Wait,
    always,
)
from rules.planning import cast_buttons
from rules.text import clip


def _actions(*items: Action) -> dict[str, Action]:
    return {item.name: item for item in items}


def _preparing(options: casting.CastOptions) -> bool:
    return options.mode == "contingency"


def _discarding(options: casting.ContingencyOptions) -> bool:
    return options.mode == "discard"


class AwakenedRuleset(Ruleset):
    id = "awakened"
    page_lists = web.page_lists  # the campaign's web page: rules/awakened/web.py
    name = "Awakened mages (Aether)"
    sheet_model = AwakenedSheet
    state_model = AwakenedState
    settings_model = AwakenedSettings
    book_model = AwakenedBook
    getting_started = GETTING_STARTED
    help_examples = HELP_EXAMPLES
    first_session = FIRST_SESSION
    inline_actions = (InlineAction("pool", "pool", ("dice",), "[[pool 6]]"),)  # a d10 pool, 10-again
    actions: ClassVar[dict[str, Action]] = _actions(
        Action("mage create", mages.mage_create, mages.MageCreateOptions, description="Create a mage"),
        Action("mage show", mages.mage_show, mages.MageShowOptions, logged=False, description="Show a mage's sheet"),
        Action("mage set", mages.mage_set, mages.MageSetOptions, description="Change a trait of your mage"),
        Action("mage legacy", mages.mage_legacy, mages.LegacyOptions, description="Set your mage's Legacy"),
        Action(
            "spell cast",
            casting.cast_spell,
            casting.CastOptions,
            logged=False,  # a preview changes nothing and is not logged; a cast changes the sheet and is
            secrecy=Secrecy(private_options=frozenset({"connection"}), private_when=_preparing),
            description="Cast a spell (or see cost, save a rote)",
        ),
        Action("spell shape", shaping.shape, shaping.ShapeOptions, description="Shape a spell: the Shaping roll"),
        Action("spell sustain", life.sustain, life.SustainOptions, description="Sustain a spell to the scene's end"),
        Action("spell refresh", life.refresh, life.RefreshOptions, description="Refresh a spell: repay its cost"),
        Action("spell reduce", life.reduce, life.ReduceOptions, description="Reduce a spell's factors or strength"),
        Action("spell dismiss", life.dismiss, life.DismissOptions, description="Dismiss a spell, or all"),
        Action("spell ceremony", life.ceremony, life.CeremonyOptions, description="Hours of a ritual's ceremony"),
        Action(
            "spell contingency",
            casting.contingency,
            casting.ContingencyOptions,
            secrecy=Secrecy(private_when=_discarding),  # a trigger casts it: the spell is then in effect, public
            description="Trigger or discard your contingency",
        ),
        Action("oblation", upkeep.oblation, upkeep.OblationOptions, description="The daily oblation: regain Mana"),
        Action("sacrifice", upkeep.sacrifice, upkeep.SacrificeOptions, description="A blood sacrifice for Mana"),
        Action(
            "soulstone",
            upkeep.soulstone,
            upkeep.SoulstoneOptions,
            secrecy=Secrecy(private_options=frozenset({"holder"})),
            description="Soul stones",
        ),
        Action(
            "scrutinize",
            insight.scrutinize,
            insight.ScrutinizeOptions,
            secrecy=Secrecy(private_options=frozenset({"subject"})),
            description="Arcane scrutiny (GM sees the result)",
        ),
        Action(
            "resonance",
            insight.resonance_age,
            insight.ResonanceOptions,
            logged=False,
            description="Aftereffect resonance",
        ),
        Action("crisis", insight.crisis, insight.CrisisOptions, description="Wisdom crisis"),
        Action("sight", insight.sight, insight.SightOptions, description="Suppress or reactivate Mage Sight"),
        Action(
            "sympathy",
            mages.sympathy,
            mages.SympathyOptions,
            secrecy=Secrecy(private_options=frozenset({"subject"}), private_when=always),
            description="Record a sympathetic connection",
        ),
        Action(
            "attainment", mages.attainment, mages.AttainmentOptions, description="Define, use or Shape an Attainment"
        ),
        Action("roll", contests.spell_roll, contests.RollOptions, description="A roll a spell boosts, or against it"),
        Action("odds", odds.odds, odds.OddsOptions, logged=False, description="Exact odds of a roll"),
        Action(
            "plan",
            plan.plan,
            plan.PlanOptions,
            logged=False,
            description="Plan a cast: best odds",
        ),
        Action(
            "time round",
            calendar.end_round,
            calendar.RoundOptions,
            gm_only=True,
            description="End the round: paradox roll",
        ),
        Action("time scene", calendar.end_scene, calendar.SceneOptions, gm_only=True, description="End the scene"),
        Action(
            "time day",
            calendar.end_day,
            calendar.DayOptions,
            gm_only=True,
            description="End the day",
        ),
        Action("gm adjust", mages.adjust, mages.AdjustOptions, gm_only=True, description="Change any value"),
        Action("gm damage", mages.damage, mages.DamageOptions, gm_only=True, description="Wounds, with the Damage Cap"),
        Action(
            "gm hallow",
            mages.hallow,
            mages.HallowOptions,
            gm_only=True,
            description="Add or change a Hallow",
            example="name:<name> rating:3",
        ),
        Action(
            "gm paradox",
            insight.paradox,
            insight.ParadoxOptions,
            gm_only=True,
            description="Paradox records",
        ),
        Action(
            "gm roll",
            upkeep.upkeep_roll,
            upkeep.UpkeepRollOptions,
            gm_only=True,
            description="Which roll",
        ),
    )

    character_option = "mage"
    private_fields = PRIVATE_FIELDS

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """On a plan (`/awakened plan`): Cast plan 1…, each casting and Shaping that plan."""
        return list(cast_buttons(replied.data))

    def waits(self, table: Table) -> list[Wait]:
        """The GM with a paradox pool to roll; mages with an open Shaping window or a crisis roll owed."""
        return awakened_waits(table)

    orders: ClassVar[tuple[OrderOffer, ...]] = ORDERS

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """An expiring spell is sustained (``sustain``) or left to lapse (``lapse``)."""
        return run_order(table, wait, order)

    def bench_case(self) -> BenchCase:
        """A vulgar improvised cast paid with free Mana: cost, Gnosis limit, payment, paradox and the card."""
        return BenchCase(
            title="awakened spell cast (vulgar, free Mana)",
            setup=(
                BenchStep("gm hallow", {"name": "Grove", "rating": 3}, as_gm=True),
                BenchStep(
                    "mage create",
                    {
                        "name": "Ash",
                        "path": "Thyrsus",
                        "ruling": "Life, Spirit",
                        "inferior": "Matter",
                        "resistance": "composure",
                        "gnosis": 3,
                        "arcana": "Forces 3, Life 3, Spirit 2, Prime 2",
                        "mana_max": 15,
                        "high_speech": True,
                        "health": 8,
                    },
                ),
            ),
            measured=BenchStep(
                "spell cast",
                {
                    "mage": "Ash",
                    "spell": "Firestorm",
                    "arcana": "Forces, Prime",
                    "aspect": "vulgar",
                    "targets": 3,
                    "damage": "aggravated",
                    "words_of_power": 1,
                    "scour": 1,
                    "hallow": "Grove",
                },
            ),
        )

    def secrets_case(self) -> SecretsCase:
        """A mage with every secret: a connection cast through, a stone given, contingencies, scrutinies."""
        mage = {
            "name": "Ash",
            "path": "Thyrsus",
            "ruling": "Life, Spirit",
            "inferior": "Matter",
            "resistance": "composure",
            "gnosis": 5,
            "arcana": "Forces 3, Life 3, Time 2, Space 4",
            "mana_max": 20,
            "skills": "Occult 3",
        }
        cast = {"spell": "Reach", "arcana": "Forces", "aspect": "covert", "conjunctional": "Space"}
        return SecretsCase(
            setup=(BenchStep("mage create", mage),),
            steps=(
                BenchStep("sympathy", {"subject": "XqConnMark", "level": "known"}),
                BenchStep("spell cast", {**cast, "connection": "XqConnMark", "unwilling": True}),
                BenchStep("spell refresh", {"spell": "Reach", "out_of_sight": 1}),
                BenchStep("soulstone", {"mode": "create"}),
                BenchStep("soulstone", {"mode": "give", "stone": 1, "holder": "XqHolderMark"}),
                BenchStep(
                    "spell cast", {"mode": "contingency", "spell": "XqDropMark", "arcana": "Forces", "aspect": "covert"}
                ),
                BenchStep("spell contingency", {"mode": "discard"}),
                BenchStep(
                    "spell cast", {"mode": "contingency", "spell": "XqContMark", "arcana": "Forces", "aspect": "covert"}
                ),
                BenchStep("scrutinize", {"subject": "XqSubjMark"}),
                BenchStep("scrutinize", {"subject": "XqGlanceMark", "via": "Reach", "minor": True}),
                BenchStep("time day", {"days": 3}, as_gm=True),
            ),
            markers=("XqConnMark", "XqHolderMark", "XqDropMark", "XqContMark", "XqSubjMark", "XqGlanceMark"),
        )

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        return list(entries(book))

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        return suggestions(table, action, option, current)

    def board(self, table: Table) -> Card:
        """The scene at a glance for the live board: the clock, the round's paradox, each mage's pools and spells."""
        state = table.state
        card = Card(title=f"Day {state.day}, scene {state.scene}, round {state.round}: {table.campaign_name}")
        pool = paradox_total(state)
        if pool or state.paradoxes:
            standing = ", ".join(f"{p.kind}" for p in state.paradoxes) or "none"
            card.description = f"Paradox pool this round: {quantity(pool, 'die')}. Standing paradoxes: {standing}."
        for record in sorted(table.characters.values(), key=lambda r: r.name.casefold())[:25]:
            sheet: AwakenedSheet = record.sheet
            lines = [
                f"Gnosis {sheet.gnosis} · Mana {sheet.mana} · Willpower {sheet.willpower}/{sheet.willpower_dots}"
                f" · Health {sheet.health_max - len(sheet.wounds)}/{sheet.health_max}"
            ]
            lines += [f"{spell_label(spell)}: {spell.status}" for spell in sheet.spells]
            card.add(record.name, clip("\n".join(lines)), inline=True)
        if not card.fields:
            card.description = (card.description + "\n" if card.description else "") + "No mages yet."
        return card

    def character_summary(self, record: CharacterRecord) -> str:
        sheet: AwakenedSheet = record.sheet
        return f"{record.name}: {sheet.path}, Gnosis {sheet.gnosis}, Mana {sheet.mana}, Wisdom {sheet.wisdom}"

    def show_character(self, table: Table, record: CharacterRecord) -> Outcome:
        """The same view as `/awakened mage show`: a mage's secrets stay with its owner and the GM."""
        shown = mages.mage_show(table, mages.MageShowOptions(mage=record.name))
        return shown.model_copy(update={"data": {"name": record.name, **shown.data}})


RULESET = AwakenedRuleset()
