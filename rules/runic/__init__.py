"""Runic magic: Words of Power, Parameters, MP and Calamity (the runic source text).

Rules and their rulings are in docs/runic.md. Modules, in the order a casting
meets them: ``book`` (the tables), ``spells`` and ``parameters`` (energy and
time), ``skill`` (ruling 5), ``casting`` (the procedure), ``mana`` (payment,
ruling 4), ``calamity`` (ruling 3), ``report`` (the card), ``upkeep``
(maintain, drop, sunrise), ``mages`` and ``spellbook`` (sheets and saved
spells), ``lookup`` (``/lookup``), ``suggest`` (autocomplete), ``waits`` (who the table
waits on, for play-by-post).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

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
    PrivateField,
    Replied,
    ReplyItem,
    RuleError,
    Ruleset,
    Secrecy,
    SecretsCase,
    StandingOrder,
    Table,
    Wait,
)
from rules.runic import (
    combat,
    energy,
    gcs_import,
    gm_rulings,
    information,
    lasting,
    learning,
    lookup,
    mages,
    plan,
    preview,
    replies,
    spellbook,
    upkeep,
    web,
)
from rules.runic.book import RunicBook
from rules.runic.cards import sheet_card
from rules.runic.casting import CastOptions, cast
from rules.runic.guide import FIRST_SESSION, GETTING_STARTED, HELP_EXAMPLES
from rules.runic.report import cast_outcome
from rules.runic.sheet import MageSheet, RunicSettings, RunicState
from rules.runic.suggest import suggestions
from rules.runic.waits import ORDERS, run_order, runic_waits
from rules.text import clip


def run_cast(table: Table, options: CastOptions) -> Outcome:
    """`/runic cast`: the whole "Performing Magic" procedure, then its card."""
    return cast_outcome(cast(table, options))


def _actions(*items: Action) -> dict[str, Action]:
    return {item.name: item for item in items}


class RunicRuleset(Ruleset):
    id = "runic"
    page_lists = web.page_lists  # the campaign's web page: rules/runic/web.py
    name = "Runic magic (GURPS Words of Power)"
    sheet_model = MageSheet
    state_model = RunicState
    settings_model = RunicSettings
    book_model = RunicBook
    getting_started = GETTING_STARTED
    help_examples = HELP_EXAMPLES
    first_session = FIRST_SESSION
    inline_actions = (InlineAction("check", "check", ("skill", "modifier"), "[[check 12]]"),)  # 3d6 roll-under
    actions: ClassVar[dict[str, Action]] = _actions(
        Action(
            "mage create",
            mages.mage_create,
            mages.MageCreateOptions,
            description="Create a mage",
            example="name:<name> magery:3 iq:15 thaumatology:15",
        ),
        Action(
            "mage import",
            gcs_import.mage_import,
            gcs_import.MageImportOptions,
            description="Mage from a GCS file",
            confirm=gcs_import.import_question,
            example="file:<a file>",
        ),
        Action("mage show", mages.mage_show, mages.MageShowOptions, logged=False, description="Show a mage's sheet"),
        Action("mage set", mages.mage_set, mages.MageSetOptions, description="Change a value on your mage"),
        Action(
            "mage word",
            mages.mage_word,
            mages.MageWordOptions,
            description="Train a Word or set Cheaper Casting",
            example="word:<word> skill:13",
        ),
        Action("mage learn", mages.mage_learn, mages.MageLearnOptions, description="Mark a saved spell as bought"),
        Action("mage grimoire", mages.mage_grimoire, mages.MageGrimoireOptions, description="Inscribe in a grimoire"),
        Action("mage implement", mages.mage_implement, mages.MageImplementOptions, description="Bond an implement"),
        Action("mage item", mages.mage_item, mages.MageItemOptions, description="Add or use a magic item"),
        Action("mage points", learning.mage_points, learning.MagePointsOptions, description="Check Word points"),
        Action("spell define", spellbook.spell_define, spellbook.SpellDefineOptions, description="Define a spell"),
        Action(
            "spell show",
            spellbook.spell_show,
            spellbook.SpellShowOptions,
            logged=False,
            description="Show a saved spell",
        ),
        Action("spell forget", spellbook.spell_forget, spellbook.SpellForgetOptions, description="Erase a spell"),
        Action("cast", run_cast, CastOptions, description="Cast a spell"),
        Action(
            "preview",
            preview.preview,
            preview.PreviewOptions,
            logged=False,
            description="Odds, cost and Calamity rows of a cast",
        ),
        Action(
            "plan",
            plan.plan,
            plan.PlanOptions,
            logged=False,
            description="Best castings, exact odds",
        ),
        Action("maintain", upkeep.maintain, upkeep.MaintainOptions, description="Pay maintenance for spells on"),
        Action("drop", upkeep.drop, upkeep.DropOptions, description="End a spell you have on"),
        Action(
            "upkeep",
            upkeep.upkeep,
            upkeep.UpkeepOptions,
            gm_only=True,
            description="Call for maintenance",
        ),
        Action("sunrise", upkeep.sunrise, upkeep.SunriseOptions, gm_only=True, description="Recover MP at sunrise"),
        Action("adjust", mages.adjust, mages.AdjustOptions, gm_only=True, description="Change any value"),
        Action(
            "ruling",
            gm_rulings.ruling,
            gm_rulings.RulingOptions,
            gm_only=True,
            description="A value the book leaves to the GM",
        ),
        Action("held launch", combat.held_launch, combat.HeldLaunchOptions, description="Launch a held spell"),
        Action("held drop", combat.held_drop, combat.HeldDropOptions, description="Dissipate or drop a held spell"),
        Action("turn", combat.turn, combat.TurnOptions, gm_only=True, description="Next combat turn, or end it"),
        Action(
            "concentration",
            combat.concentration,
            combat.ConcentrationOptions,
            description="Will rolls: distracted, injured, stunned",
        ),
        Action("recognize", combat.recognize, combat.RecognizeOptions, description="Recognize a spell by its ritual"),
        Action("info ask", information.info_ask, information.InfoAskOptions, description="Ask an Information spell"),
        Action(
            "info answer",
            information.info_answer,
            information.InfoAnswerOptions,
            gm_only=True,
            secrecy=Secrecy(secret_options=frozenset({"answer"})),  # what the GM told the player stays the GM's
            description="Record today's answer to a question",
        ),
        Action("energy give", energy.energy_give, energy.EnergyGiveOptions, description="Give MP to another mage"),
        Action("energy paut", energy.energy_paut, energy.EnergyPautOptions, description="Restore MP with Paut"),
        Action(
            "lasting inscribe",
            lasting.lasting_inscribe,
            lasting.LastingInscribeOptions,
            description="Inscribe a ward, sigil or lasting spell",
        ),
        Action("lasting trigger", lasting.lasting_trigger, lasting.LastingTriggerOptions, description="Set one off"),
        Action("lasting end", lasting.lasting_end, lasting.LastingEndOptions, description="Dispel or destroy one"),
    )

    character_option = "mage"

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """On a mage's sheet, for its player or a GM: Cast a spell…"""
        return replies.reply_items(replied)

    def waits(self, table: Table) -> list[Wait]:
        """A held Melee or Missile spell awaiting launch or drop; an Information answer the GM owes today."""
        return runic_waits(table)

    orders: ClassVar[tuple[OrderOffer, ...]] = ORDERS

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """The maintenance the GM called for, paid from MP."""
        return run_order(table, wait, order)

    def bench_case(self) -> BenchCase:
        """A resisted spell cast by a trained mage: skill, energy, payment and the Rule of 16."""
        return BenchCase(
            title="runic cast (a resisted Sleep)",
            setup=(
                BenchStep("mage create", {"name": "Merlin", "magery": 3, "iq": 15, "thaumatology": 15}),
                BenchStep("mage create", {"name": "Nimue", "magery": 2, "iq": 14, "thaumatology": 12}),
                BenchStep("mage word", {"mage": "Merlin", "word": "Ort", "skill": 14}),
                BenchStep("mage word", {"mage": "Merlin", "word": "Sanct", "skill": 14}),
                BenchStep(
                    "spell define",
                    {"mage": "Merlin", "name": "Sleep", "words": "Ort-Sanct", "resisted": "HT", "known": True},
                ),
            ),
            measured=BenchStep("cast", {"mage": "Merlin", "spell": "Sleep", "target": "Nimue", "resistance": 12}),
        )

    # How much maximum MP a Calamity took is the GM's alone (docs/runic.md "Secrets kept from the table")
    private_fields = (
        PrivateField("mp_lost_temporary", audience="secret"),
        PrivateField("mp_lost_permanent", audience="secret"),
    )

    def secrets_case(self) -> SecretsCase:
        """An Information spell asked by a player, answered by the GM: the answer stays the GM's."""
        ask = {"spell": "Seek", "question": "Where is the well?"}
        return SecretsCase(
            setup=(
                BenchStep("mage create", {"name": "Merlin", "magery": 3, "iq": 15, "thaumatology": 15}),
                BenchStep("mage word", {"word": "Gal", "skill": 14}),
                BenchStep("mage word", {"word": "Aq", "skill": 14}),
                BenchStep("spell define", {"name": "Seek", "words": "Gal-Aq", "type": "information", "known": True}),
            ),
            steps=(
                BenchStep("info ask", ask),
                BenchStep("info answer", {**ask, "mage": "Merlin", "answer": "XqAnswerMark"}, as_gm=True),
            ),
            markers=("XqAnswerMark",),
        )

    def board(self, table: Table) -> Card:
        """The party at a glance for the live board: MP (a hidden maximum stays hidden), FP, HP and spells on."""
        card = Card(title=f"The party: {table.campaign_name}")
        for record in sorted(table.characters.values(), key=lambda r: r.name.casefold())[:25]:
            sheet: MageSheet = record.sheet
            mp = f"MP {sheet.mp}" if sheet.hides_mp_max else f"MP {sheet.mp}/{sheet.mp_max}"
            lines = [f"{mp} · FP {sheet.fp}/{sheet.fp_max} · HP {sheet.hp}/{sheet.hp_max}"]
            lines += [f"on: {on.name} ({on.maintenance} MP per {on.interval})" for on in sheet.spells_on]
            if sheet.held is not None:
                lines.append(f"held: {sheet.held.name} ({sheet.held.type})")
            card.add(record.name, clip("\n".join(lines)), inline=True)
        if not card.fields:
            card.description = "No mages yet: `/runic mage create`."
        return card

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        return list(lookup.entries(book))

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        """Autocomplete: saved spells, spells on, Words, characters, the mage's grimoires and items."""
        return suggestions(table, action, option, current)

    def character_summary(self, record: CharacterRecord) -> str:
        sheet: MageSheet = record.sheet
        return (
            f"{record.name}: Magery {sheet.magery}, MP {sheet.mp}, "
            f"HP {sheet.hp}/{sheet.hp_max}, FP {sheet.fp}/{sheet.fp_max}"
        )

    def character_card(self, record: CharacterRecord) -> Card:
        return sheet_card(record, None, reveal=False)

    def check_settings(self, settings: RunicSettings, book: RunicBook) -> None:
        """``word_times`` must name Words exactly as the table does, or it would silently never apply."""
        for name in settings.word_times:
            word = book.word(name)  # an unknown name raises, listing every Word
            if word.name != name:
                raise RuleError(f"Write the Word as {word.name!r}, not {name!r}, in word_times.")

    def show_character(self, table: Table, record: CharacterRecord) -> Outcome:
        """The same view as `/runic mage show`: a Calamity's hidden MP loss stays hidden from players."""
        shown = mages.mage_show(table, mages.MageShowOptions(mage=record.name))
        return shown.model_copy(update={"data": {"name": record.name, **shown.data}})


RULESET = RunicRuleset()
