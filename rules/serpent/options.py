"""Options of every ``/serpent`` action: primitive fields a slash command can fill.

Names are the option names the cog registers; ``magi`` picks which of the
actor's characters acts when they have several (a GM may name anyone's).
Every field has a description (at most 100 characters): it is what Discord shows
under the option's name.
"""

from typing import Any, Literal

from pydantic import Field

from rules.base import Confirmable, Model

MAGI = "Your Magi, if several (a GM: anyone's)"


def magi_field() -> Any:
    return Field(default=None, description=MAGI)


class MagiCreateOptions(Model):
    name: str = Field(min_length=1, max_length=64, description="The Magi's name")
    codex: str = Field(description='Spells, comma-separated, e.g. "Fireball x2, Dissolve Tissue"')
    specialization: str | None = Field(default=None, description="A Specialization, e.g. Void Speaker")
    artifact: str | None = Field(default=None, description="An Artifact, by name (it takes an Enhancement slot)")


class MagiEditOptions(Model):
    name: str | None = Field(default=None, description="Which of your Magi to change")
    codex: str | None = Field(default=None, description='The new Codex, e.g. "Fireball x2, Dissolve Tissue"')
    specialization: str | None = Field(default=None, description="The new Specialization; empty removes it")
    artifact: str | None = Field(default=None, description="The new Artifact; empty removes it")


class MagiShowOptions(Model):
    name: str | None = Field(default=None, description="Which Magi to show (default: yours)")


class SpellDefineOptions(Model):
    name: str = Field(
        min_length=1, max_length=80, description="The spell's title (a book spell to override, or a new one)"
    )
    role: str | None = Field(default=None, description="Attack, Defense, Enhance, Component or Abjuration")
    sphere: str | None = Field(default=None, description="The sphere, e.g. Forces, Matter, Bio, Soul, Mind")
    fluency: int | None = Field(default=None, ge=1, le=4, description="Fluency level, 1 to 4")
    resonance: int | None = Field(default=None, description="The Resonance orb: -3 costs 3, +1 generates 1")
    harmony: int | None = Field(default=None, description="The Harmony orb: -1 costs 1, +1 generates 1")
    dmg: str | None = Field(default=None, description='Dmg directive: "2", "Harmony 5" or "Physical 1"')
    infusion: str | None = Field(default=None, description='Infusion directive: "1" or "Will 1"')
    siphon: str | None = Field(default=None, description='Siphon directive: "1" or "Resonance 2"')
    duration: str | None = Field(
        default=None, description='Duration: a number of counters, "P" (Persistent) or "F" (Focus)'
    )
    curse_duration: str | None = Field(default=None, description='Curse Duration ("3" or "P"): makes the spell a Curse')
    durability: int | None = Field(default=None, ge=1, description="Durability counters (a Shield)")
    shields: str | None = Field(
        default=None, description='Spheres it blocks, e.g. "Bio, Matter, Forces": makes it a Shield'
    )
    aspects: str | None = Field(
        default=None, description='Empowerments, e.g. "Subtle, Pierce 2, Area, Free Action"; "no X" removes one'
    )
    requirements: str | None = Field(
        default=None, description='Requirements, e.g. "Discard Matter Component; Pay 1 Essence"'
    )
    sustain: str | None = Field(default=None, description='Sustain cost paid each maintenance, e.g. "1 Resonance"')
    upgrades: str | None = Field(default=None, description='Upgrades, e.g. "Refined = 3 Resonance or 1 Will"')
    ritual_path: str | None = Field(default=None, description='Ritual path tiers, e.g. "N/A; N/A; +1 Duration; Subtle"')
    dispel: str | None = Field(default=None, description='What it Dispels, e.g. "manifesting to discard"')
    dispel_to: Literal["discard", "banish", "codex"] | None = Field(
        default=None, description="Where a spell it Dispels goes"
    )
    descriptors: str | None = Field(default=None, description='Descriptors, e.g. "Heat, Cellular"')
    cast_phrase: str | None = Field(default=None, description="The cast phrase, for Intoning")
    text: str | None = Field(default=None, description="Rules text shown on the spell's card")
    remove: bool = Field(default=False, description="Drop the campaign's definition, back to the book's")


class NoOptions(Model):
    pass


class BattleStartOptions(Model):
    mode: Literal["duel", "teams", "encounter"] = Field(
        default="duel", description="duel (each Magi alone), teams, or Magi against an Encounter"
    )
    easy: bool = Field(default=False, description="Easy mode: no extra-Magi scaling, no Encounter Evade")
    essence: int | None = Field(
        default=None, ge=1, le=99, description="Starting Essence for every Magi (Act I uses 7; default 12)"
    )


class BattleJoinOptions(Model):
    magi: str | None = magi_field()
    team: str | None = Field(default=None, max_length=40, description="Your team's name (required in a team battle)")


class EncounterAddOptions(Model):
    name: str = Field(description="The Encounter, e.g. Sentient Shadow")


class BattleRoundOptions(Confirmable):
    resonance: int | None = Field(
        default=None, ge=0, le=10, description="A physical d10 for the Resonance roll (0 reads as 10)"
    )
    rolloff: str | None = Field(default=None, description='Initiative roll-off winners, in order, e.g. "Black, White"')


class BattleDiceOptions(Model):
    values: str = Field(description='Next automatic rolls, e.g. "token=red d10=7 2d10=3+4"')


class BattleAdjustOptions(Model):
    being: str = Field(description="Who to adjust: a Magi or an Encounter")
    essence: int | None = Field(default=None, description="Change to Essence, e.g. -2")
    resonance: int | None = Field(default=None, description="Change to Resonance, e.g. +3")
    harmony: int | None = Field(default=None, description="Change to Harmony (negative is Discord)")
    will: int | None = Field(default=None, description="Change to Will")
    voice: int | None = Field(default=None, description="Change to Voice")
    stones: int | None = Field(default=None, description="Change to interrupt stones held")
    reason: str | None = Field(default=None, description="Why, for the log (e.g. Ability Chart A)")
    resistance: int | None = Field(
        default=None, ge=0, description="An Encounter's Resistance: lower Potency cannot affect it"
    )


class CloseWindowOptions(Model):
    window: int | None = Field(
        default=None, ge=1, description="Close only window #n (on the board); refused if another is open"
    )
    magi: str | None = Field(
        default=None, max_length=100, description="Only this Magi passes (a play-by-post deadline)"
    )


class BattleModeOptions(Model):
    easy: bool = Field(description="Easy mode on (true) or off (false)")


class PrepareOptions(Model):
    spells: str = Field(default="", description='Up to 3 Codex spells, e.g. "Fireball, Dissolve Tissue"')
    magi: str | None = magi_field()


class ReattuneOptions(Model):
    spells: str = Field(description='Discarded spells to re-attune, e.g. "Air Essence"')
    magi: str | None = magi_field()


class CastOptions(Model):
    spell: str = Field(description="A prepared spell (Free Action spells too)")
    target: str | None = Field(default=None, description="A Magi or team; a spell's title or #number for Abjurations")
    upgrade: str | None = Field(default=None, description='Upgrades to buy, e.g. "refined", with commas')
    upgrade_with: str | None = Field(default=None, description='Which price pays the upgrade, e.g. "Will"')
    tiers: int = Field(default=0, ge=0, le=4, description="Ritual path tiers to buy (0 to 4)")
    tiers_with: Literal["harmony", "will"] = Field(
        default="harmony", description="Pay tiers with 1 Harmony each, or 1 Will for 3"
    )
    component: str | None = Field(default=None, description="Which Component to discard, by title or #number")
    intone: str | None = Field(default=None, description='The cast phrase as typed ("Alum!" or "Kotukh!")')
    replace: str | None = Field(default=None, description="Which Enhancement a fifth one pushes out")
    magi: str | None = magi_field()


class RespondOptions(Model):
    spell: str | None = Field(default=None, description="A Response spell from your Codex; leave out to pass")
    target: str | None = Field(default=None, description="The manifesting spell, by title or #number")
    upgrade: str | None = Field(default=None, description='Upgrades to buy, e.g. "refined", with commas')
    upgrade_with: str | None = Field(default=None, description='Which price pays the upgrade, e.g. "Will"')
    intone: str | None = Field(default=None, description='The cast phrase as typed ("Alum!" or "Kotukh!")')
    magi: str | None = magi_field()


class AutoPassOptions(Model):
    mode: Literal["always", "allies", "never"] = Field(description="When: always, on your team's spells, or never")
    magi: str | None = magi_field()


class MagiOnlyOptions(Model):
    magi: str | None = magi_field()


class ExchangeOptions(Model):
    gain: Literal["Resonance", "Harmony", "Essence", "Will"] = Field(description="The energy to gain")
    give: Literal["Will", "Voice"] = Field(default="Will", description="What you give: 1 Will, or 10 Voice")
    magi: str | None = magi_field()


class DismissOptions(Model):
    spell: str = Field(description='A spell you control (title or #number), "specialization" or "artifact"')
    magi: str | None = magi_field()


class FocusOptions(Model):
    spell: str = Field(description="An ally's Duration F spell (title or #number)")
    release: bool = Field(default=False, description="Take your Focus off it (the spell is discarded)")
    magi: str | None = magi_field()


class SpecOptions(Model):
    tree: Literal["A", "B"] = Field(description="The Specialization tree to advance")
    voice: int = Field(default=0, ge=0, description="Voice to spend in place of Resonance, 1 for 1")
    magi: str | None = magi_field()


class UseOptions(Model):
    ability: str = Field(description="An ability your spells grant (Beast Form attack)")
    target: str | None = Field(default=None, description="Who it targets (needed with several opponents)")
    magi: str | None = magi_field()


class SustainOptions(Model):
    spell: str = Field(description="A spell you control (title or #number)")
    keep: bool = Field(default=True, description="true: sustain it at next maintenance; false: let go")
    magi: str | None = magi_field()


class OrderOptions(Model):
    spells: str = Field(description='Your zone\'s spells in order, e.g. "#4, #2" (Shields: outermost first)')
    magi: str | None = magi_field()


class LoseOptions(Model):
    spells: str = Field(description='Spells your Spell Loss takes, e.g. "Fireball, Dissolve Tissue"')
    magi: str | None = magi_field()


class PledgeOptions(Model):
    to: str = Field(description="The ally whose next ritual-path spell you upgrade")
    tiers: int = Field(default=1, ge=0, le=4, description="Ritual path tiers you pay (0 withdraws your pledge)")
    tiers_with: Literal["harmony", "will"] = Field(
        default="harmony", description="Pay tiers with 1 Harmony each, or 1 Will for 3"
    )
    magi: str | None = magi_field()


class NamShubOptions(Model):
    name: str | None = Field(default=None, description="Begin this Nam-Shub from your Codex (a Free Action)")
    step: bool = Field(default=False, description="GM: record that the team completed this round's step")
    team: str | None = Field(default=None, description="GM: whose Nam-Shub takes the step (default: the only one)")
    magi: str | None = magi_field()
