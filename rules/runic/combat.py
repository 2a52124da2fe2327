"""Spells in combat: Melee and Missile spells held in hand, combat turns (one Blocking spell per turn), and
what distraction, injury and stun do to a casting in progress, to spells concentrated on and to a held missile.

The seed's "Melee Spells", "Missile Spells", "Blocking Spells" and "Distraction, Duration, and Maintenance".
Casting refuses another spell while one is held (``casting.check_hands_and_turn``); here it is launched,
dropped, or goes off in the mage's hand.
"""

from random import Random
from typing import Any, Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, fit
from rules.dice import CannotAttemptError, SuccessRoll, roll_success
from rules.dice.gurps_damage import DamageNotationError, DamageRoll, minimum_for, roll_damage
from rules.runic.rolls import parse_faces
from rules.runic.sheet import HeldSpell, MageSheet
from rules.text import fold

MageName = Field(default=None, max_length=60, description="Your mage")
DISTRACTION_PENALTY = -3  # "make a Will roll at -3 to continue casting your spell" (and to keep concentrating)
SHOCK_CAP = 4  # Basic Set p. B419 (the seed points there): -1 per HP of injury, at most -4


class Rolls:
    """Dice for a run of 3d6 rolls: the GM's faces first (three per roll), then the table's RNG."""

    def __init__(self, rng: Random, faces: list[int] | None) -> None:
        self.rng = rng
        self.faces = list(faces or [])

    def take(self, count: int) -> list[int] | None:
        if len(self.faces) < count:
            return None
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken

    def success(self, skill: int) -> SuccessRoll | None:
        """A 3d6 roll; None when the target is below 3 (it cannot be made, so it fails)."""
        dice = self.take(3)
        try:
            return roll_success(self.rng, skill, dice=dice)
        except CannotAttemptError:
            return None

    def damage(self, held: HeldSpell) -> DamageRoll | None:
        if not held.damage_dice:
            return None
        try:
            spec_count = int(held.damage_dice.split("d")[0] or 1)
            return roll_damage(
                self.rng, held.damage_dice, minimum=minimum_for(held.damage_type), dice=self.take(spec_count)
            )
        except DamageNotationError as exc:
            raise RuleError(str(exc)) from None


def _gm_faces(table: Table, text: str | None, what: str, most: int) -> list[int] | None:
    if text is None:
        return None
    table.require_gm("Supplying the dice")
    return parse_faces(text, what, per_roll=1, most=most)


def _roll_text(label: str, roll: SuccessRoll | None, target: int) -> str:
    if roll is None:
        return f"{label} {target}: below 3, cannot be made → failed"
    dice = "+".join(map(str, roll.dice))
    return f"{label} {target}: 3d [{dice}] = {roll.total}, {roll.outcome.replace('_', ' ')}"


def _damage_data(roll: DamageRoll | None, held: HeldSpell) -> dict[str, Any] | None:
    return {**roll.model_dump(), "type": held.damage_type} if roll else None


# ---------------------------------------------------------------- held spells


class HeldLaunchOptions(Model):
    mage: str | None = MageName
    attack_skill: int | None = Field(default=None, ge=3, le=40, description="Innate Attack (or melee skill)")
    modifier: int = Field(default=0, ge=-50, le=50, description="To-hit modifiers")
    missed: bool = Field(default=False, description="Missed (rolled at the table)")
    defended: bool = Field(default=False, description="The target defended")
    dice: str | None = Field(default=None, max_length=200, description="GM: to-hit 3d6, then damage dice")


def held_launch(table: Table, options: HeldLaunchOptions) -> Outcome:
    """Launch a held missile, or strike with a charged hand or staff: to hit, the defense, then the damage."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    held = _held(sheet, record.name)
    rolls = Rolls(table.rng, _gm_faces(table, options.dice, "dice", 103))
    lines: list[str] = []
    hit = not options.missed
    to_hit = None
    if options.attack_skill is not None:
        if options.missed:
            raise RuleError("Give either `attack_skill` (the bot rolls to hit) or `missed` (rolled at the table).")
        target = options.attack_skill + options.modifier
        to_hit = rolls.success(target)
        hit = to_hit is not None and to_hit.succeeded
        lines.append(_roll_text("To hit", to_hit, target))
    damage = None
    if not hit:
        verdict = "It misses."
    elif options.defended:
        verdict = "The target defends: the spell is not triggered."
    else:
        damage = rolls.damage(held)
        verdict = "It hits: the spell affects the target."
    stays = held.type == "melee" and (not hit or options.defended)
    if stays:
        verdict += " The hand or staff stays charged; you may try again next turn."
    else:
        sheet.held = None
        if held.type == "missile" and not damage:
            verdict += " The missile is spent."
    if damage is not None:
        lines.append(f"Damage: {damage.text} {held.damage_type or ''}".strip())
    verb = "strikes with" if held.type == "melee" else "launches"
    tone = "success" if hit and not options.defended else "failure"
    card = Card(title=f"{record.name} {verb} {held.name}", description=verdict, tone=tone)
    if lines:
        add_field(card, "Attack", lines)
    data = {
        "mage": record.name,
        "spell": held.name,
        "type": held.type,
        "to_hit": to_hit.model_dump() if to_hit else None,
        "hit": hit,
        "defended": options.defended,
        "damage": _damage_data(damage, held),
        "held": sheet.held.model_dump() if sheet.held else None,
    }
    summary = f"{card.title}: {'hit' if hit and not options.defended else 'no effect'}"
    if damage:
        summary += f", {damage.total} damage"
    return Outcome(card=fit(card), summary=summary, data=data)


class HeldDropOptions(Model):
    mage: str | None = MageName
    at_feet: bool = Field(default=False, description="Drop a missile at your feet")


def held_drop(table: Table, options: HeldDropOptions) -> Outcome:
    """Dissipate a held spell (a free action), or drop a missile at your feet: explosive ones hurt you too."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    held = _held(sheet, record.name)
    if options.at_feet and held.type != "missile":
        raise RuleError("Only a Missile spell can be dropped at your feet; a Melee spell is dissipated.")
    sheet.held = None
    damage = None
    lines = []
    if options.at_feet:
        damage = Rolls(table.rng, None).damage(held)
        if damage is not None:
            lines.append(f"Damage to what you stand on: {damage.text} {held.damage_type or ''}".strip())
            if held.explosive:
                sheet.hp -= damage.total
                lines.append(f"Explosive: {record.name} takes it too, HP {sheet.hp + damage.total} → {sheet.hp}")
        text = f"{held.name} is dropped at {record.name}'s feet."
        if held.damage_type and "burning" in held.damage_type:
            text += " Burning missiles are liable to set fires!"
    else:
        text = f"{held.name} evaporates harmlessly."
    card = Card(title=f"{record.name} lets go of {held.name}", description=text)
    if lines:
        add_field(card, "Damage", lines)
    data = {"mage": record.name, "spell": held.name, "at_feet": options.at_feet, "damage": _damage_data(damage, held),
            "hp": sheet.hp}  # fmt: skip
    return Outcome(card=fit(card), summary=f"{record.name} let go of {held.name}.", data=data)


def _held(sheet: MageSheet, name: str) -> HeldSpell:
    if sheet.held is None:
        raise RuleError(f"{name} holds no Melee or Missile spell; cast one first.")
    return sheet.held


# ---------------------------------------------------------------- combat turns


class TurnOptions(Model):
    end: bool = Field(default=False, description="End the combat")


def turn(table: Table, options: TurnOptions) -> Outcome:
    """GM: the next combat turn (each mage may cast one Blocking spell per turn), or the end of the combat."""
    if options.end:
        if table.state.turn is None:
            raise RuleError("No combat is being counted; `/runic turn` starts one.")
        last = table.state.turn
        table.state.turn = None
        for record in table.characters.values():
            record.sheet.blocked_on_turn = None
        card = Card(title="Combat over", description=f"Turns are no longer counted (it ended on turn {last}).")
        return Outcome(card=card, summary=f"Combat ended on turn {last}.", data={"turn": None, "ended": last})
    table.state.turn = (table.state.turn or 0) + 1
    card = Card(
        title=f"Turn {table.state.turn}",
        description="Each mage may cast one Blocking spell this turn, and none against a critical hit.",
    )
    return Outcome(card=card, summary=f"Turn {table.state.turn}.", data={"turn": table.state.turn, "ended": None})


# ---------------------------------------------------------------- distraction, injury, stun


Event = Literal["distracted", "injured", "stunned", "resume"]


class ConcentrationOptions(Model):
    event: Event = Field(description="What happened (resume: frozen spells)")
    mage: str | None = MageName
    injury: int = Field(default=0, ge=0, le=1000, description="HP of injury")
    casting: bool = Field(default=False, description="A casting was in progress")
    dice: str | None = Field(default=None, max_length=200, description="GM: Will 3d6s, in order")


def concentration(table: Table, options: ConcentrationOptions) -> Outcome:
    """Will-3 to keep a casting or a concentrated spell; a stun spoils a casting; a held missile may go off."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    if options.injury and options.event != "injured":
        raise RuleError("`injury` goes with `event: injured`.")
    if options.event == "resume":
        frozen = [on.name for on in sheet.spells_on if on.frozen]
        if not frozen:
            raise RuleError(f"{record.name} has no spell frozen by a distraction.")
        for on in sheet.spells_on:
            on.frozen = False
        card = Card(title=f"{record.name} concentrates again", description=f"Responding again: {', '.join(frozen)}.")
        return Outcome(card=card, summary=card.title, data={"mage": record.name, "resumed": frozen})
    rolls = Rolls(table.rng, _gm_faces(table, options.dice, "dice", 3 * 30 + 100))
    will = sheet.will + DISTRACTION_PENALTY
    lines: list[str] = []
    data: dict[str, Any] = {"mage": record.name, "event": options.event, "injury": options.injury}
    if options.injury:
        sheet.hp -= options.injury
        lines.append(f"Injury {options.injury}: HP {sheet.hp + options.injury} → {sheet.hp}")
    data["hp"] = sheet.hp
    shock = min(SHOCK_CAP, options.injury)

    casting = None
    if options.casting:
        if options.event == "stunned":
            casting = {"roll": None, "spoiled": True}
            lines.append("Casting: stunned while concentrating, the spell is spoiled; start over.")
        else:
            roll = rolls.success(will)
            spoiled = roll is None or not roll.succeeded
            casting = {"roll": roll.model_dump() if roll else None, "spoiled": spoiled}
            text = _roll_text("Casting: Will-3", roll, will)
            if spoiled:
                text += " → the spell is spoiled; start over."
            else:
                text += " → you may cast it" + (f", with shock -{shock} (`shock:{shock}`)." if shock else ".")
            lines.append(text)
    data["casting"] = casting

    kept = []
    for on in [on for on in sheet.spells_on if on.concentrating]:
        roll = rolls.success(will)
        result = "kept" if roll is not None and roll.succeeded else "frozen"
        if roll is not None and roll.outcome == "critical_failure":
            result = "ended"
            sheet.end_spells([on.name])
        elif result == "frozen":
            on.frozen = True
        text = (
            _roll_text(f"{on.name}: Will-3", roll, will)
            + {
                "kept": " → still under control.",
                "frozen": " → it stays exactly as it is and does not respond until you concentrate again.",
                "ended": " → a critical failure: the spell ends.",
            }[result]
        )
        lines.append(text)
        kept.append({"spell": on.name, "roll": roll.model_dump() if roll else None, "result": result})
    data["concentrating"] = kept

    missile = None
    if options.event == "injured" and options.injury and sheet.held is not None and sheet.held.type == "missile":
        held = sheet.held
        roll = rolls.success(sheet.will)
        goes_off = roll is None or not roll.succeeded
        damage = None
        text = _roll_text(f"Holding {held.name}: Will", roll, sheet.will)
        if goes_off:
            sheet.held = None
            damage = rolls.damage(held)
            text += " → the missile immediately affects you!"
            if damage is not None:
                sheet.hp -= damage.total
                text += f" {damage.text}: HP {sheet.hp + damage.total} → {sheet.hp}"
        else:
            text += " → still held."
        lines.append(text)
        missile = {"spell": held.name, "roll": roll.model_dump() if roll else None, "went_off": goes_off,
                   "damage": _damage_data(damage, held)}  # fmt: skip
    data["missile"] = missile
    data["hp"] = sheet.hp
    if not lines:
        lines.append("Nothing to keep: no casting in progress, no spell concentrated on, no missile in hand.")
    card = Card(title=f"{record.name} is {options.event}", description="\n".join(lines))
    return Outcome(card=fit(card), summary=f"{record.name} is {options.event}: " + "; ".join(lines)[:300], data=data)


# ---------------------------------------------------------------- recognizing a spell by its ritual


class RecognizeOptions(Model):
    ritual: Literal["normal", "no_gesture", "no_words", "none", "precise"] = Field(
        default="normal", description="The ritual the caster uses"
    )
    spell: str | None = Field(default=None, max_length=200, description="The spell, if you know it (+2)")
    mage: str | None = MageName
    dice: str | None = Field(default=None, max_length=40, description="GM: the 3d6")


def recognize(table: Table, options: RecognizeOptions) -> Outcome:
    """A Thaumatology roll to recognize a spell by its ritual: -2 with one ritual, none at all without one."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    numbers = table.book.casting.recognize
    if sheet.thaumatology is None:
        raise RuleError(f"Recognizing a spell takes Thaumatology, and {record.name} has none.")
    title = f"{record.name} watches a ritual"
    if options.ritual == "none":
        card = Card(title=title, description="No ritual at all: the observer is out of luck.", tone="failure")
        data = {"mage": record.name, "ritual": "none", "skill": None, "roll": None, "recognized": False}
        return Outcome(card=card, summary=f"{title}: no ritual, nothing to recognize", data=data)
    lines = [f"Thaumatology {sheet.thaumatology}"]
    skill = sheet.thaumatology
    if options.ritual in ("no_gesture", "no_words"):
        skill += numbers.one_ritual
        lines.append(f"Only one of the rituals: {numbers.one_ritual:+d}")
    known = options.spell is not None and fold(options.spell) in sheet.known
    if known and sheet.magery > 0:
        skill += numbers.knows_spell
        lines.append(f"A Mage who knows the spell: {numbers.knows_spell:+d}")
    roll = Rolls(table.rng, _gm_faces(table, options.dice, "dice", 3)).success(skill)
    recognized = roll is not None and roll.succeeded
    lines.append(_roll_text("Roll", roll, skill) + (" → recognized" if recognized else " → not recognized"))
    card = Card(title=title, description="\n".join(lines), tone="success" if recognized else "failure")
    data = {"mage": record.name, "ritual": options.ritual, "skill": skill,
            "roll": roll.model_dump() if roll else None, "recognized": recognized}  # fmt: skip
    return Outcome(card=card, summary=f"{title}: {'recognized' if recognized else 'not recognized'}", data=data)
