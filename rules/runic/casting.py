"""Casting a spell: the seed's "Performing Magic", start to finish.

Everything that can be refused is checked before the dice roll, and the sheet
is only changed after it, so a RuleError never leaves half a casting behind.
Order: effective skill → 3d6 (ruling 1) → Quick Contest (ruling 2) → payment
(ruling 4) → Calamity check (ruling 3) → Critical Spell Failure Table.
"""

import math
import re
from collections.abc import Callable
from typing import Literal

from pydantic import Field

from rules.base import CharacterRecord, Model, RuleError, Table
from rules.dice import ResistedRoll, RollOutcome, SuccessRoll, resisted_roll, roll_success
from rules.dice.gurps_damage import DamageRoll, minimum_for, roll_damage
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.calamity import Applied, CalamityResult, apply_effects, calamity_check, companions
from rules.runic.rolls import parse_faces
from rules.runic.sheet import HeldSpell, MageSheet, RunicSettings, SpellDef, SpellOn, SpellType
from rules.runic.skill import BaseSkill, base_skill
from rules.runic.spells import EnergyLine, SpellPlan, inline_spell, plan_spell, spell_words
from rules.text import fold

Source = Literal["memory", "grimoire", "scroll"]
Ritual = Literal["normal", "no_gesture", "no_words", "none", "precise"]


class CastOptions(Model):
    """`/runic cast`: the spell, then every modifier the seed names. All optional but the spell."""

    spell: str = Field(min_length=1, max_length=200, description="A saved spell, or Words: Vas-Jux-Flam")
    mage: str | None = Field(default=None, max_length=60, description="Your mage, if several")
    parameters: str | None = Field(default=None, max_length=1000, description="Parameters")
    type: SpellType | None = Field(default=None, description="Type, for Words cast inline")
    source: Source = Field(default="memory", description="Memory, grimoire or scroll")
    distance: int = Field(default=0, ge=0, le=100_000, description="Yards to the subject (0: touching)")
    unseen: bool = Field(default=False, description="Subject neither seen nor touched (-5)")
    halvings: int = Field(default=0, ge=0, le=20, description="Casting time halvings (-2 each)")
    instant: bool = Field(default=False, description="Blocking, Melee or Missile: cast instantly")
    ritual: Ritual = Field(default="normal", description="Omit gestures/words, or precise (+1)")
    save_energy: int = Field(default=0, ge=0, le=1000, description="Energy saved, -4 skill each")
    boost: int = Field(default=0, ge=0, le=100, description="+1 skill per 2 extra energy")
    sacrifice: Literal["fp", "hp", "ritual"] | None = Field(
        default=None, description="FP or HP (own: -4), or ritual (2× its HP)"
    )
    sacrifice_energy: int = Field(default=0, ge=0, le=1000, description="Energy the sacrifice pays")
    donor: str | None = Field(default=None, max_length=80, description="Volunteer (no -4); ritual: e.g. goat 8 HP")
    item_energy: int | None = Field(default=None, ge=0, le=10_000, description="Energy from your implement")
    shock: int = Field(default=0, ge=0, le=4, description="Shock penalty from injury")
    modifier: int = Field(default=0, ge=-50, le=50, description="Other modifiers the GM rules")
    target: str | None = Field(default=None, max_length=300, description="Who resists (names, commas)")
    resistance: int | None = Field(default=None, ge=0, le=100, description="The subject's resistance")
    magic_resistance: int = Field(default=0, ge=0, le=50, description="The subject's Magic Resistance")
    living_subject: bool = Field(default=True, description="Living or sapient (Rule of 16)")
    dice: str | None = Field(default=None, max_length=40, description="GM: table 3d6, e.g. 3 4 5")
    calamity_dice: str | None = Field(default=None, max_length=40, description="GM: table 3d6 for the Calamity check")
    critical_hit: bool = Field(default=False, description="Blocking a critical hit (not allowed)")


class SkillModifier(Model):
    label: str
    value: int


class Contest(Model):
    """One subject's resistance: a Quick Contest, or automatic on a critical success."""

    subject: str
    resistance: int
    outcome: Literal["overcome", "resisted", "automatic"]
    roll: ResistedRoll | None = None


class CriticalResult(Model):
    dice: list[int]
    total: int
    row: str
    text: str
    applied: Applied


class MPStep(Model):
    """One thing the casting did to MP, in order: the payment, a Calamity's free recovery."""

    label: str
    mp: int  # MP after this step


class CastResult(Model):
    """Everything a casting did, for the card and the log."""

    mage: str
    spell: SpellDef
    saved: Literal["mage", "campaign", "inline"]
    plan: SpellPlan
    source: Source
    unit: Literal["second", "minute"]
    time: int
    time_lines: list[str]
    base: BaseSkill
    modifiers: list[SkillModifier]
    effective: int
    cost_lines: list[EnergyLine]
    cost: int
    payment: mana.PaymentPlan
    roll: SuccessRoll
    outcome: RollOutcome
    contests: list[Contest]
    paid: mana.Paid
    mp_steps: list[MPStep]
    mp_after: int  # after everything the casting did (a Calamity 3-4 recovers MP after paying)
    calamity: CalamityResult | None
    critical: CriticalResult | None
    damage: DamageRoll | None = None  # a worked Regular or Area spell's damage; Melee and Missile roll on the hit
    damage_type: str | None = None
    held: HeldSpell | None = None  # a worked Melee or Missile spell, charged in hand
    worked: bool
    verdict: str
    spell_on: SpellOn | None
    ended: list[str]
    secret: bool
    notes: list[str]


# ---------------------------------------------------------------- finding the spell


def find_spell(table: Table, sheet: MageSheet, name: str) -> tuple[SpellDef, Literal["mage", "campaign"]] | None:
    key = fold(name)
    if key in sheet.spells:
        return sheet.spells[key], "mage"
    if key in table.state.spells:
        return table.state.spells[key], "campaign"
    return None


def resolve_spell(
    table: Table, sheet: MageSheet, options: CastOptions
) -> tuple[SpellDef, Literal["mage", "campaign", "inline"]]:
    found = find_spell(table, sheet, options.spell)
    if found is not None:
        if options.type is not None and options.type != found[0].type:
            raise RuleError(f"{found[0].name} is a {found[0].type} spell; `type` is only for Words cast inline.")
        return found
    try:
        return inline_spell(options.spell, table.book, type=options.type or "regular"), "inline"
    except RuleError as exc:
        saved = sorted({s.name for s in sheet.spells.values()} | {s.name for s in table.state.spells.values()})
        listing = ", ".join(saved) or "none yet"
        raise RuleError(f"{options.spell!r} is neither a saved spell ({listing}) nor Words: {exc}") from None


# ---------------------------------------------------------------- skill, time and energy


def _time(
    plan: SpellPlan, spell: SpellDef, options: CastOptions, sheet: MageSheet, book: RunicBook
) -> tuple[int, list[str], list[SkillModifier]]:
    """Casting time and its skill modifiers: hurrying, instant casting, Faster Casting, a precise ritual."""
    m = book.casting.modifiers
    exact = plan.base_time
    lines = list(plan.time_lines)
    mods: list[SkillModifier] = []
    if options.ritual == "precise":
        if options.halvings or options.instant:
            raise RuleError("A precise ritual doubles the casting time; it cannot also be hurried.")
        exact *= m.precise_time_factor
        lines.append(f"precise ritual: ×{m.precise_time_factor} = {exact:g}")
    penalty = 0
    if options.instant:
        if options.halvings:
            raise RuleError("Instant casting already halves the time down to 1; drop `halvings`.")
        if spell.type not in ("blocking", "melee", "missile"):
            raise RuleError(f"Only Blocking, Melee and Missile spells can be cast instantly; this is {spell.type}.")
        if options.source != "memory":
            raise RuleError("You cannot instantly cast a spell from a grimoire (or a scroll).")
        halvings = max(0, math.ceil(math.log2(exact) - 1e-9)) if exact > 1 else 0
        penalty = halvings * m.hurry_per_halving + m.instant
        lines.append(f"instant: {halvings} halving(s) to 1, then {m.instant:+d}")
        exact = 1
    elif options.halvings:
        for step in range(1, options.halvings + 1):
            if math.ceil(exact / 2 ** (step - 1) - 1e-9) <= 1:
                raise RuleError(f"The casting time is already 1 after {step - 1} halving(s); hurry less.")
        penalty = options.halvings * m.hurry_per_halving
        exact = exact / 2**options.halvings
        lines.append(f"hurried: ÷{2**options.halvings} = {exact:g}")
    time = max(1, math.ceil(exact - 1e-9))
    if penalty:
        label = "Instant casting" if options.instant else f"Hurried ({options.halvings} halving(s))"
        mods.append(SkillModifier(label=label, value=penalty))
        if sheet.faster_casting:
            relief = min(-penalty, sheet.faster_casting * m.faster_casting_per_level)
            mods.append(SkillModifier(label=f"Faster Casting {sheet.faster_casting}", value=relief))
    return time, lines, mods


def _skill_modifiers(
    table: Table, sheet: MageSheet, spell: SpellDef, plan: SpellPlan, options: CastOptions
) -> tuple[list[SkillModifier], list[str]]:
    """Every modifier except time: memory, distance, ritual, trades, spells on, targets, pain, shock, GM."""
    book: RunicBook = table.book
    settings: RunicSettings = table.settings
    m = book.casting.modifiers
    mods: list[SkillModifier] = []
    notes: list[str] = []
    key = spell.name.casefold()
    if options.source == "grimoire":
        bonuses = [g.spells[key] for g in sheet.grimoires.values() if key in g.spells]
        if not bonuses:
            raise RuleError(f"{spell.name} is in none of this mage's grimoires; add it with `/runic mage grimoire`.")
        if max(bonuses):
            mods.append(SkillModifier(label="Grimoire bonus", value=max(bonuses)))
    elif options.source == "memory" and not spell.inscription and key not in sheet.known:
        mods.append(SkillModifier(label="Unknown spell (not bought)", value=m.unknown_spell))

    if spell.type in ("melee", "missile"):
        if options.distance or options.unseen:
            notes.append(f"{spell.type.title()} spells take no distance modifier; distance ignored.")
    else:
        mode = plan.range_mode or "per_yard"
        if mode == "per_yard" and options.distance:
            mods.append(SkillModifier(label=f"Distance {options.distance} yd", value=options.distance * m.per_yard))
        elif mode == "table" and plan.max_range_yards is not None and options.distance > plan.max_range_yards:
            raise RuleError(f"The subject is {options.distance} yd away; this spell reaches {plan.max_range_yards:g}.")
        elif mode == "melee" and options.distance > 1:
            raise RuleError("This spell has melee range: the subject must be within reach (distance 0 or 1).")
        elif mode in ("speed_range", "long_distance") and options.distance:
            notes.append("Apply the Speed/Range or long-distance penalty as `modifier` (the book does not print it).")
        if options.unseen:
            mods.append(SkillModifier(label="Cannot see or touch the subject", value=m.unseen))

    ritual = {
        "no_gesture": ("No gesture", m.omit_one_ritual),
        "no_words": ("Words not spoken", m.omit_one_ritual),
        "none": ("No ritual at all", m.omit_both_rituals),
        "precise": ("Precise ritual (double time)", m.precise_ritual),
    }
    if options.ritual in ritual:
        label, value = ritual[options.ritual]
        mods.append(SkillModifier(label=label, value=value))
    if options.boost:
        mods.append(SkillModifier(label=f"Extra energy ({options.boost * m.energy_per_skill})", value=options.boost))
    if options.save_energy:
        mods.append(
            SkillModifier(
                label=f"Energy saved ({options.save_energy})", value=options.save_energy * m.skill_per_energy_saved
            )
        )
    for on in sheet.spells_on:
        free = on.maintenance == 0 and settings.free_spell_on_penalty == "reduced"
        if on.concentrating:
            value, label = m.per_spell_concentrating, f"Concentrating on {on.name}"
        else:
            value, label = (m.free_spell_on if free else m.per_spell_on), f"{on.name} on"
        mods.append(SkillModifier(label=label, value=value))
    if plan.skill_from_parameters:
        mods.append(SkillModifier(label="Multiple targets", value=plan.skill_from_parameters))
    if options.sacrifice in ("fp", "hp") and options.donor is None:  # "Sacrificing from yourself is painful"
        mods.append(
            SkillModifier(label=f"Sacrificing own {options.sacrifice.upper()}", value=book.casting.mana.sacrifice_skill)
        )
    if options.shock:
        mods.append(SkillModifier(label="Shock", value=-options.shock))
    if options.magic_resistance and spell.resisted and spell.type != "area":
        mods.append(SkillModifier(label="Subject's Magic Resistance", value=-options.magic_resistance))
    if options.modifier:
        mods.append(SkillModifier(label="GM modifier", value=options.modifier))
    return mods, notes


def _cost(sheet: MageSheet, plan: SpellPlan, options: CastOptions, book: RunicBook) -> tuple[int, list[EnergyLine]]:
    """Ruling 7: +2 energy per +1 skill, -1 energy per -4 skill, Cheaper Casting; 0 at least, after them all.

    "The minimum energy cost is 0" closes the Energy Cost paragraph, after the boost and Cheaper Casting,
    so the adjustments start from the spell's raw energy (Des-Uus is -1, and a boost of 2 makes it 1).
    """
    m = book.casting.modifiers
    lines = [EnergyLine(label="Spell", energy=plan.raw_energy)]
    cost = plan.raw_energy
    if options.boost:
        lines.append(EnergyLine(label=f"+{options.boost} skill bought", energy=options.boost * m.energy_per_skill))
        cost += options.boost * m.energy_per_skill
    levels = {w: sheet.cheaper_casting[w] for w in plan.words if sheet.cheaper_casting.get(w)}
    if levels:
        cut = sum(levels.values()) * m.cheaper_casting_per_level
        shown = ", ".join(f"{w} {n}" for w, n in levels.items())
        lines.append(EnergyLine(label=f"Cheaper Casting ({shown})", energy=-cut))
        cost -= cut
    if options.save_energy:
        if options.save_energy > max(0, cost):
            raise RuleError(f"Only {max(0, cost)} energy is left to save; save at most that.")
        lines.append(EnergyLine(label="Energy saved", energy=-options.save_energy))
        cost -= options.save_energy
    cost = max(m.minimum_energy, cost)
    multiplier = max((c.spell_cost_multiplier for c in sheet.conditions), default=1)
    if multiplier > 1:
        lines.append(EnergyLine(label=f"Mana-Scar: ×{multiplier}", energy=cost * (multiplier - 1)))
        cost *= multiplier
    return cost, lines


RITUAL_VICTIM = re.compile(r"^(?P<name>.*?)[\s,:(]*(?P<hp>\d+)\s*hp\)?$", re.IGNORECASE)


def sacrifice_donor(table: Table, caster: str, options: CastOptions) -> tuple[CharacterRecord | None, str | None, int]:
    """Who gives the sacrificed energy: the caster (None), a willing character, or a ritual's victim.

    Returns the volunteer's record, the donor's name, and a ritual's whole yield (2 × the victim's HP).
    """
    if options.donor is None:
        if options.sacrifice == "ritual":
            raise RuleError("A ritual sacrifice needs its victim and HP as `donor`, e.g. `donor: goat 8 HP`.")
        return None, None, 0
    if options.sacrifice is None:
        raise RuleError("`donor` gives energy for a sacrifice: add `sacrifice` (fp, hp or ritual).")
    if options.sacrifice == "ritual":
        match = RITUAL_VICTIM.match(options.donor.strip())
        if not match or not match.group("name").strip() or int(match.group("hp")) < 1:
            raise RuleError(f"Give the ritual's victim and its HP, like `goat 8 HP`; not {options.donor!r}.")
        name = match.group("name").strip()
        if name.casefold() in table.characters:
            raise RuleError(
                f"{name} is a character of this campaign: the bot does not kill characters. "
                "The GM rules such a death; give an NPC victim and its HP, like `goat 8 HP`."
            )
        per_hp = table.book.casting.mana.ritual_energy_per_hp
        return None, name, per_hp * int(match.group("hp"))
    record = table.find_character(options.donor)
    if record.name.casefold() == caster.casefold():
        return None, None, 0
    if record.owner_id != table.actor.user_id and not table.actor.is_gm:
        raise RuleError(
            f"{record.name} belongs to another player: only the GM can commit their FP or HP "
            "(the GM may cast for you with them as `donor`)."
        )
    return record, record.name, 0


def check_hands_and_turn(table: Table, sheet: MageSheet, spell: SpellDef, options: CastOptions) -> None:
    """A held Melee or Missile spell bars other castings; Blocking spells: one per turn, none on a critical hit."""
    if options.critical_hit and spell.type != "blocking":
        raise RuleError("`critical_hit` is for Blocking spells (you cannot attempt one against a critical hit).")
    if spell.type == "blocking":
        if options.critical_hit:
            raise RuleError("You cannot attempt a Blocking spell against a critical hit (the book's Blocking Spells).")
        turn = table.state.turn
        if turn is not None and sheet.blocked_on_turn == turn:
            raise RuleError(
                f"You may cast only one Blocking spell per turn, and this mage already did on turn {turn}. "
                "The GM moves on with `/runic turn`."
            )
        return  # "If you are holding (not casting) a Melee or Missile spell, it is unaffected."
    if sheet.held is not None:
        raise RuleError(
            f"{sheet.held.name} is held in hand ({sheet.held.type}): you cannot cast another spell. "
            "Launch it with `/runic held launch`, or dissipate it with `/runic held drop`."
        )


def check_missile_energy(spell: SpellDef, plan: SpellPlan, sheet: MageSheet) -> None:
    """Missile spells: "invest one or more points of energy … to a maximum of … your Magery level"."""
    if spell.type != "missile" or spell.inscription:  # an inscription's energy includes its trigger's
        return
    if not 1 <= plan.energy <= sheet.magery:
        raise RuleError(
            f"A missile holds 1 to Magery ({sheet.magery}) energy; this one is {plan.energy}. "
            "Give less damage in `parameters` (e.g. `damage: 1d burning`), or cast it as a Regular spell."
        )


def _subjects(table: Table, spell: SpellDef, options: CastOptions) -> list[tuple[str, int]]:
    """Who resists, and with what (trait + Magic Resistance, doubled in an area)."""
    if not spell.resisted:
        if options.target or options.resistance is not None:
            raise RuleError(f"{spell.name} is not a resisted spell; drop `target` and `resistance`.")
        return []
    mr = options.magic_resistance * (2 if spell.type == "area" else 1)
    if options.resistance is not None:
        return [("the subject", options.resistance + mr)]
    if not options.target:
        raise RuleError(f"{spell.name} is resisted by {spell.resisted}: name the `target`, or give its `resistance`.")
    if spell.resisted == "spell":
        raise RuleError("A spell resists with its caster's effective skill: give it as `resistance`.")
    names = [n.strip() for n in options.target.split(",") if n.strip()]
    if len(names) > 10:
        raise RuleError("At most 10 named subjects per casting.")
    trait = {"HT": "ht", "Will": "will", "IQ": "iq"}[spell.resisted]
    subjects = []
    for name in names:
        record = table.find_character(name)
        subjects.append((record.name, getattr(record.sheet, trait) + mr))
    return subjects


# ---------------------------------------------------------------- the procedure


def gm_dice(table: Table, dice: str | None, calamity: str | None) -> tuple[list[int] | None, list[int] | None]:
    """Dice a GM rolled at the table: 3d6 for the casting roll and for the Calamity check. GMs only."""
    if dice is None and calamity is None:
        return None, None
    table.require_gm("Supplying the dice")
    return (
        parse_faces(dice, "dice") if dice is not None else None,
        parse_faces(calamity, "calamity_dice") if calamity is not None else None,
    )


def cast(table: Table, options: CastOptions, *, spell_as: Callable[[SpellDef], SpellDef] | None = None) -> CastResult:
    """Run one casting and change the sheets; raise RuleError (changing nothing) for anything impossible.

    ``spell_as`` lets a caller cast the found spell in another form (a Runic Inscription of it).
    """
    book: RunicBook = table.book
    settings: RunicSettings = table.settings
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    roll_dice, calamity_dice = gm_dice(table, options.dice, options.calamity_dice)
    spell, saved = resolve_spell(table, sheet, options)
    if spell_as is not None:
        spell = spell_as(spell)
    plan = plan_spell(spell, book, settings, overrides=options.parameters)
    if spell.type == "area" and not plan.area:
        raise RuleError("An Area spell needs its area: add `area: radius 5 yd` (or cone, wall) to the Parameters.")
    check_missile_energy(spell, plan, sheet)
    check_hands_and_turn(table, sheet, spell, options)
    base = base_skill(sheet, spell_words(spell, book), book, inscription=spell.inscription)
    time, time_lines, time_mods = _time(plan, spell, options, sheet, book)
    mods, notes = _skill_modifiers(table, sheet, spell, plan, options)
    mods = time_mods + mods
    effective = base.skill + sum(mod.value for mod in mods)
    cost, cost_lines = _cost(sheet, plan, options, book)
    volunteer, donor, ritual_energy = sacrifice_donor(table, record.name, options)
    payment = mana.plan_payment(
        sheet, book, cost, sacrifice=options.sacrifice, sacrifice_energy=options.sacrifice_energy,
        item_energy=options.item_energy, donor=donor, ritual_energy=ritual_energy,
    )  # fmt: skip
    subjects = _subjects(table, spell, options)
    below = book.casting.modifiers.elaborate_ritual_below
    if base.skill < below:
        notes.append(f"Unmodified skill below {below}: both hands free and the Words in a firm, clear voice.")
    secret = spell.type == "information" and settings.secret_information
    if spell.type == "blocking":
        notes.append("A Blocking spell interrupts your concentration: any spell you were preparing is lost.")

    roll = roll_success(table.rng, effective, dice=roll_dice)  # below 3: CannotAttemptError, nothing changes
    outcome: RollOutcome = roll.outcome
    if roll_dice is not None:
        notes.append("The GM rolled these dice at the table.")
    if outcome == "failure" and any(c.failures_critical for c in sheet.conditions):
        outcome = "critical_failure"
        notes.append("Unstable casting (Calamity 15): this failure is a critical failure.")

    contests: list[Contest] = []
    for name, resistance in subjects:
        if outcome == "critical_success":
            contests.append(Contest(subject=name, resistance=resistance, outcome="automatic"))
        elif outcome == "success":
            living = options.living_subject and spell.resisted != "spell"
            contest = resisted_roll(table.rng, effective, resistance, living=living, caster_dice=roll.dice)
            won = "overcome" if contest.caster_wins else "resisted"
            contests.append(Contest(subject=name, resistance=resistance, outcome=won, roll=contest))

    m = book.casting.modifiers
    if spell.type == "information" or outcome in ("success", "critical_failure"):
        due = cost
    elif outcome == "critical_success":
        due = 0
    else:
        due = min(cost, m.failure_cost)
    previous_on = [on.name for on in sheet.spells_on]
    paid = mana.pay(sheet, book, payment, due, donor=volunteer.sheet if volunteer else None)

    calamity = None
    if mana.calamity_owed(paid.mp_before, sheet.mp):
        others = companions(table, record.name)
        calamity = calamity_check(table.rng, book, sheet, who=record.name, companions=others, dice=calamity_dice)
    elif calamity_dice is not None:
        notes.append("No Calamity check was owed: the Calamity dice were not used.")

    mp_steps = [MPStep(label=f"paid {paid.mp}" if paid.mp else "nothing from MP", mp=paid.mp_after)]
    if calamity is not None and sheet.mp != paid.mp_after:
        change = sheet.mp - paid.mp_after
        mp_steps.append(MPStep(label=f"{calamity.summary()}: {change:+d}", mp=sheet.mp))

    critical = None
    if outcome == "critical_failure" and not secret:
        dice = [table.rng.randint(1, 6) for _ in range(3)]
        row = book.critical_failure.row_for(sum(dice))
        applied, _ = apply_effects(
            table.rng, book, book.critical_failure, row, sheet, source=f"Critical failure {sum(dice)}"
        )
        critical = CriticalResult(dice=dice, total=sum(dice), row=row.label, text=row.text, applied=applied)

    worked = outcome in ("success", "critical_success")
    verdict = {
        "critical_success": "Critical success: the spell works especially well, and costs nothing.",
        "success": "Success: the spell works.",
        "failure": "Failure: the spell does not work.",
        "critical_failure": "Critical failure: the spell fails badly.",
    }[outcome]
    if calamity and calamity.spell_fails and worked:
        worked = False
        verdict += " But the Calamity (29+) makes it fail: the Will roll was missed."
    if worked and contests and all(c.outcome == "resisted" for c in contests):
        worked = False
        verdict += " It is resisted and has no effect (the full cost is still paid)."

    ended: list[str] = []
    if calamity and calamity.applied.harmful and settings.calamity_ends_spells and previous_on:
        ended = previous_on
        sheet.end_spells(ended)
        notes.append("The Calamity makes the mage's connection too turbulent: the spells on end.")

    spell_on = None
    # A secret Information spell goes on whatever the roll: the mage cannot tell, so neither may his sheet.
    # Only a failure the mage saw (a missed 29+ Will roll) keeps it off.
    seemed_to_work = worked or (secret and not (calamity and calamity.spell_fails))
    if seemed_to_work and plan.maintenance is not None:
        names = {on.name for on in sheet.spells_on}
        label, n = spell.name, 2
        while label in names:
            label, n = f"{spell.name} ({n})", n + 1
        spell_on = SpellOn(
            name=label,
            words=plan.words,
            cost=cost,
            maintenance=min(plan.maintenance, cost),
            interval=plan.interval or "",
            concentrating=spell.concentration,
        )
        sheet.spells_on.append(spell_on)

    if spell.type == "blocking" and table.state.turn is not None:
        sheet.blocked_on_turn = table.state.turn
    damage = None
    held = None
    if worked and spell.type in ("melee", "missile") and not spell.inscription:
        held = HeldSpell(
            name=spell.name, type=spell.type, energy=plan.energy, damage_dice=plan.damage_dice,
            damage_type=plan.damage_type, effect=spell.effect,
        )  # fmt: skip
        sheet.held = held
    elif worked and plan.damage_dice and not spell.inscription:  # an inscription's damage waits for its trigger
        damage = roll_damage(table.rng, plan.damage_dice, minimum=minimum_for(plan.damage_type))

    return CastResult(
        damage=damage, damage_type=plan.damage_type, held=held,
        mage=record.name, spell=spell, saved=saved, plan=plan, source=options.source,
        unit="minute" if options.source != "memory" else "second", time=time, time_lines=time_lines,
        base=base, modifiers=mods, effective=effective, cost_lines=cost_lines, cost=cost, payment=payment,
        roll=roll, outcome=outcome, contests=contests, paid=paid, mp_steps=mp_steps, mp_after=sheet.mp,
        calamity=calamity, critical=critical,
        worked=worked, verdict=verdict, spell_on=spell_on, ended=ended, secret=secret, notes=notes,
    )  # fmt: skip
