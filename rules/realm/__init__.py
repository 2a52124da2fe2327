"""Magic Realm's magic (Steve McKnight's Magic Primer), with RULINGS 16-17.

Rules and rulings are in docs/realm.md. Modules, in the order a spell meets them:

- ``book``: the color table and the named spells; ``state``: sheets, spells in effect, combats;
- ``core``: lookups, colors present, how a spell ends; ``characters`` and ``library``: sheets, the GM's
  spells and items, the import;
- ``days``: the day and its boundaries; ``phases``: enchanting, preparing, energizing;
- ``castability``: castable and cast; ``rounds``: combat start, rounds, end; ``fighting``: charge, run,
  alert, maneuver, special chits; ``melee``: targets, speed order, attack spells;
- ``board``: ``/realm spells``; ``gm``: break, kill, GM-entered table results; ``lookup``, ``suggest``;
  ``waits``: who the table waits on (play-by-post).
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
    LookupEntry,
    OrderOffer,
    OrderRun,
    Outcome,
    PrivateField,
    Replied,
    ReplyItem,
    Ruleset,
    Secrecy,
    SecretsCase,
    StandingOrder,
    Table,
    Wait,
)
from rules.realm import (
    board,
    castability,
    characters,
    days,
    fighting,
    gm,
    library,
    lookup,
    melee,
    phases,
    replies,
    rounds,
    web,
)
from rules.realm import waits as realm_orders
from rules.realm.book import RealmBook
from rules.realm.core import sheet_of
from rules.realm.guide import FIRST_SESSION, GETTING_STARTED, HELP_EXAMPLES
from rules.realm.state import RealmSettings, RealmSheet, RealmState
from rules.realm.suggest import suggestions
from rules.realm.waits import realm_waits


def _actions(*items: Action) -> dict[str, Action]:
    return {item.name: item for item in items}


class RealmRuleset(Ruleset):
    id = "realm"
    page_lists = web.page_lists  # the campaign's web page: rules/realm/web.py
    name = "Magic Realm (the Magic Primer)"
    sheet_model = RealmSheet
    state_model = RealmState
    settings_model = RealmSettings
    book_model = RealmBook
    getting_started = GETTING_STARTED
    help_examples = HELP_EXAMPLES
    first_session = FIRST_SESSION
    actions: ClassVar[dict[str, Action]] = _actions(
        # characters
        Action(
            "character create",
            characters.character_create,
            characters.CharacterCreateOptions,
            description="Create a character with their chits and spells",
        ),
        Action(
            "character show",
            characters.character_show,
            characters.CharacterShowOptions,
            logged=False,
            description="Show a character's sheet",
        ),
        Action(
            "character chit",
            characters.character_chit,
            characters.CharacterChitOptions,
            description="Add, remove, fatigue or rest a chit",
        ),
        Action(
            "character learn",
            characters.character_learn,
            characters.CharacterLearnOptions,
            description="Record a spell on your sheet (or forget it)",
        ),
        Action(
            "character set",
            characters.character_set,
            characters.CharacterSetOptions,
            description="Set a character's clearing, or (GM) hidden status",
        ),
        # the campaign's spells and items
        Action(
            "spell define",
            library.spell_define,
            library.SpellDefineOptions,
            gm_only=True,
            description="Define a spell or set its type, color, target type, duration",
        ),
        Action(
            "spell import",
            library.spell_import,
            library.SpellImportOptions,
            gm_only=True,
            description="Import a spell list from TOML or CSV text",
            example="format:csv file:<a file>",
        ),
        Action("spell show", library.spell_show, library.SpellShowOptions, logged=False, description="Show a spell"),
        Action(
            "spell list",
            library.spell_list,
            library.SpellListOptions,
            logged=False,
            description="List the campaign's spells",
        ),
        Action(
            "item define",
            library.item_define,
            library.ItemDefineOptions,
            gm_only=True,
            description="Define an Artifact, Spell Book or colored item",
            example="name:<name> kind:item",
        ),
        Action(
            "item give",
            library.item_give,
            library.ItemGiveOptions,
            gm_only=True,
            description="Give an item to a character or leave it in a clearing",
        ),
        # the day
        Action(
            "day next",
            days.day_next,
            days.DayNextOptions,
            gm_only=True,
            description="Advance to the next day (sunset and midnight first if skipped)",
        ),
        Action("day set", days.day_set, days.DaySetOptions, gm_only=True, description="Jump forward to a day"),
        Action(
            "day colors",
            days.day_colors_set,
            days.DayColorsOptions,
            gm_only=True,
            description="Override a day's colors",
        ),
        Action(
            "day sunset",
            days.run_sunset,
            days.SunsetOptions,
            gm_only=True,
            description="Sunset: day spells of earlier days expire",
        ),
        Action(
            "day midnight",
            days.run_midnight,
            days.MidnightOptions,
            gm_only=True,
            description="Midnight: permanent spells fall inert",
        ),
        Action(
            "clearing set",
            days.clearing_set,
            days.ClearingSetOptions,
            gm_only=True,
            description="Set a clearing's tile and colors",
        ),
        Action(
            "enchant",
            phases.enchant,
            phases.EnchantOptions,
            description="Spell phase: enchant a Magic chit (or GM: a tile)",
            example="chit:<chit>",
        ),
        Action(
            "prepare", phases.prepare, phases.PrepareOptions, description="Alert phase: prepare a Magic chit (speed 0)"
        ),
        Action(
            "phase", phases.phase, phases.PhaseOptions, description="Start another daylight phase (move, hide, ...)"
        ),
        Action(
            "energize",
            phases.energize_spell,
            phases.EnergizeOptions,
            description="Energize an inert permanent spell with a color chit",
            example="spell:<spell> chit:<chit>",
        ),
        # combat
        Action(
            "combat start",
            rounds.combat_start,
            rounds.CombatStartOptions,
            gm_only=True,
            description="Start combat in a clearing with the day's order",
        ),
        Action(
            "combat sheet",
            rounds.combat_sheet,
            rounds.CombatSheetOptions,
            gm_only=True,
            description="Set the move times on a character's melee sheet",
        ),
        Action(
            "combat charge", fighting.charge, fighting.ChargeOptions, description="Charge a character with a Move chit"
        ),
        Action("combat action", fighting.action, fighting.ActionOptions, description="Run away or alert a weapon"),
        Action(
            "combat melee",
            rounds.melee,
            rounds.MeleeOptions,
            gm_only=True,
            description="Go to the Melee Step: draw attention order",
        ),
        Action(
            "combat maneuver",
            fighting.maneuver,
            fighting.ManeuverOptions,
            description="Place a maneuver: a Move chit (a monster: its move time)",
        ),
        Action(
            "combat weapon", fighting.weapon, fighting.WeaponOptions, description="Attack with a weapon (a Fight chit)"
        ),
        Action(
            "combat attacks",
            melee.attacks,
            melee.AttacksOptions,
            gm_only=True,
            description="Resolve attack spells: hits, and Missile Table rolls due",
        ),
        Action(
            "combat round",
            rounds.next_round,
            rounds.RoundOptions,
            gm_only=True,
            description="Fatigue Step, then the next round",
        ),
        Action(
            "combat end",
            rounds.combat_end,
            rounds.CombatEndOptions,
            gm_only=True,
            description="End combat: combat spells expire, prepared chits fatigue",
        ),
        Action(
            "castable",
            castability.castable,
            castability.CastableOptions,
            logged=False,
            description="Can I cast this? Every check, nothing changed",
        ),
        Action("cast", castability.cast, castability.CastOptions, description="Cast a spell in the Encounter Step"),
        Action("target", melee.target, melee.TargetOptions, description="Name your spell's target in the Melee Step"),
        Action(
            "resolve",
            melee.resolve,
            melee.ResolveOptions,
            gm_only=True,
            description="Spells go into effect in speed order",
        ),
        Action(
            "attack",
            melee.attack,
            melee.AttackOptions,
            secrecy=Secrecy(secret_options=frozenset({"direction"})),  # the GM's until attacks resolve (L63)
            description="Place an attack spell's direction (secret)",
        ),
        Action(
            "play", fighting.play_special, fighting.PlayOptions, description="Play a move or phase spell's special chit"
        ),
        Action(
            "spells",
            board.spells_board,
            board.SpellsOptions,
            logged=False,
            description="Every spell in effect and when it ends or wakes",
        ),
        Action("break", gm.break_spell, gm.BreakOptions, gm_only=True, description="A spell is broken"),
        Action("kill", gm.kill, gm.KillOptions, gm_only=True, description="A character is killed: their spells end"),
        Action(
            "record", gm.record, gm.RecordOptions, gm_only=True, description="Enter a Missile Table or hide roll result"
        ),
    )

    board_action = "spells"

    def reply_items(self, replied: Replied) -> list[ReplyItem]:
        """Under the spell list: Show a spell…"""
        return replies.reply_items(replied)

    def waits(self, table: Table) -> list[Wait]:
        """Each combat's next step (a character, or the GM), then the GM between combats (rules/realm/waits.py)."""
        return realm_waits(table)

    orders: ClassVar[tuple[OrderOffer, ...]] = realm_orders.ORDERS

    def check_order(self, table: Table, order: StandingOrder) -> StandingOrder:
        return realm_orders.check_order(table, order)

    def order_choices(self, table: Table, order: str, current: str) -> list[str]:
        """Each maneuver with each of the player's Move chits."""
        return realm_orders.order_choices(table, current)

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        """A maneuver against attack spells, with the order's Move chit."""
        return realm_orders.run_order(table, wait, order)

    private_fields = (PrivateField("hidden"),)  # hidden status: the owner's and the GM's (docs/realm.md "Secrets")

    def secrets_case(self) -> SecretsCase:
        """An attack spell aimed in secret; the GM's hide roll makes the caster hidden."""
        gm = {"as_gm": True}
        return SecretsCase(
            setup=(
                BenchStep(
                    "spell define",
                    {"name": "Fiery Blast", "type": "IV", "color": "purple", "target_type": "individuals"},
                    **gm,
                ),
                BenchStep("day set", {"day": 13}, **gm),
                BenchStep("clearing set", {"name": "Cave 1", "tile": "Cave", "colors": "purple, black"}, **gm),
                BenchStep(
                    "character create",
                    {"name": "Wizard", "location": "Cave 1", "chits": "MAGIC IV3**, MOVE M4*, FIGHT L4"},
                ),
                BenchStep("character learn", {"spell": "Fiery Blast"}),
                BenchStep("combat start", {"clearing": "Cave 1", "order": "Wizard", "others": "Goblin"}, **gm),
                BenchStep("cast", {"spell": "Fiery Blast", "ritual": "MAGIC IV3**"}),
                BenchStep("combat melee", {}, **gm),
                BenchStep("target", {"targets": "Goblin"}),
                BenchStep("resolve", {}, **gm),
            ),
            steps=(
                BenchStep("attack", {"direction": "smash"}),
                BenchStep("character set", {"character": "Wizard", "hidden": True}, **gm),
            ),
            markers=("smash",),  # a choice, not a free text: nothing else in the script says it
        )

    def bench_case(self) -> BenchCase:
        """Six casters in one clearing, each targeting the next: speed order with cancellations."""
        names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
        setup: list[BenchStep] = [
            BenchStep(
                "spell define",
                {"name": "Hex", "type": "II", "color": "grey", "target_type": "individual", "duration": "combat"},
                as_gm=True,
            ),
            BenchStep("day set", {"day": 14}, as_gm=True),
        ]
        for index, name in enumerate(names):
            chits = ", ".join(f"MAGIC II{(index % 4) + 2}*" for _ in range(3)) + ", MOVE M4*, FIGHT H5"
            setup.append(BenchStep("character create", {"name": name, "chits": chits, "spells": "Hex"}))
        setup.append(BenchStep("combat start", {"clearing": "Cave 1", "order": ", ".join(names)}, as_gm=True))
        for index, name in enumerate(names):
            ritual = f"MAGIC II{(index % 4) + 2}*"
            setup.append(BenchStep("cast", {"character": name, "spell": "Hex", "ritual": ritual}))
        setup.append(BenchStep("combat melee", {}, as_gm=True))
        for index, name in enumerate(names):
            setup.append(BenchStep("target", {"character": name, "targets": names[(index + 1) % len(names)]}))
        return BenchCase(
            title="realm resolve (six spells, speed order and cancellations)",
            setup=tuple(setup),
            measured=BenchStep("resolve", {}, as_gm=True),
        )

    def lookup_entries(self, book: Any) -> Iterable[LookupEntry]:
        return list(lookup.entries(book))

    def suggest(self, table: Table, action: str, option: str, current: str) -> list[str]:
        return suggestions(table, action, option, current)

    def character_summary(self, record: CharacterRecord) -> str:
        sheet: RealmSheet = record.sheet
        ready = sum(1 for c in sheet.chits if c.state in ("active", "prepared"))
        return f"{record.name}: {ready}/{len(sheet.chits)} chits ready, in {sheet.location or '—'}" + (
            " (dead)" if sheet.dead else ""
        )

    def character_card(self, record: CharacterRecord) -> Card:
        return Card(title=record.name, description=f"In {sheet_of(record).location or '—'}.")

    def show_character(self, table: Table, record: CharacterRecord) -> Outcome:
        """The same view as `/realm character show`: hidden status only for the owner and the GM."""
        return characters.character_show(table, characters.CharacterShowOptions(character=record.name))


RULESET = RealmRuleset()
