"""Options of every ``/serpent`` action: primitive fields a slash command can fill.

Names are the option names the cog registers; ``magi`` picks which of the
actor's characters acts when they have several (a GM may name anyone's).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.base import Model


class MagiCreateOptions(Model):
    name: str = Field(min_length=1, max_length=64)
    codex: str  # "Fireball x2, Dissolve Tissue x2, Beast Form"
    specialization: str | None = None
    artifact: str | None = None


class MagiEditOptions(Model):
    name: str | None = None
    codex: str | None = None
    specialization: str | None = None
    artifact: str | None = None


class MagiShowOptions(Model):
    name: str | None = None


class SpellDefineOptions(Model):
    name: str = Field(min_length=1, max_length=80)
    role: str | None = None
    sphere: str | None = None
    fluency: int | None = Field(default=None, ge=1, le=4)
    resonance: int | None = None  # the orb: -3 costs 3, +1 generates 1
    harmony: int | None = None
    dmg: str | None = None  # "2", "Harmony 5", "Physical 1"
    infusion: str | None = None
    siphon: str | None = None
    duration: str | None = None  # "3", "P", "F"
    curse_duration: str | None = None  # makes it a Curse
    durability: int | None = Field(default=None, ge=1)
    shields: str | None = None  # "Bio, Matter, Forces": makes it a Shield
    aspects: str | None = None  # "Subtle, Pierce 2, Area, Free Action, Response, Bonded, ..."
    requirements: str | None = None  # "Discard Matter Component; Pay 1 Essence"
    sustain: str | None = None  # "1 Resonance"
    upgrades: str | None = None  # "Refined = 3 Resonance or 1 Will"
    ritual_path: str | None = None  # "N/A; N/A; +1 Duration; Subtle"
    dispel: str | None = None  # "manifesting to discard"
    dispel_to: Literal["discard", "banish", "codex"] | None = None
    descriptors: str | None = None  # "Heat, Cellular"
    cast_phrase: str | None = None
    text: str | None = None
    remove: bool = False  # drop the campaign's definition, back to the book's


class NoOptions(Model):
    pass


class BattleStartOptions(Model):
    mode: Literal["duel", "teams", "encounter"] = "duel"
    easy: bool = False
    essence: int | None = Field(default=None, ge=1, le=99)  # the walkthrough's Act I starts at 7


class BattleJoinOptions(Model):
    magi: str | None = None
    team: str | None = Field(default=None, max_length=40)


class EncounterAddOptions(Model):
    name: str


class BattleRoundOptions(Model):
    resonance: int | None = Field(default=None, ge=0, le=10)  # a physical d10 (0 reads as 10)
    rolloff: str | None = None  # "Black, White": who won the initiative roll-off, in order


class BattleDiceOptions(Model):
    values: str  # "token=red d10=7 2d10=3+4": used by the next automatic rolls of that kind


class BattleAdjustOptions(Model):
    being: str
    essence: int | None = None  # changes, not new values: essence:-2
    resonance: int | None = None
    harmony: int | None = None
    will: int | None = None
    voice: int | None = None
    stones: int | None = None
    reason: str | None = None


class BattleModeOptions(Model):
    easy: bool


class PrepareOptions(Model):
    spells: str = ""  # "Fireball, Dissolve Tissue"; empty prepares nothing
    magi: str | None = None


class ReattuneOptions(Model):
    spells: str
    magi: str | None = None


class CastOptions(Model):
    spell: str
    target: str | None = None  # a Magi or team; a spell's title or #number for Abjurations
    upgrade: str | None = None  # "refined" (comma-separated for several)
    upgrade_with: str | None = None  # which price: "Will" or "Resonance"
    tiers: int = Field(default=0, ge=0, le=4)  # ritual path tiers
    tiers_with: Literal["harmony", "will"] = "harmony"  # 1 Harmony a tier, or 1 Will for 3
    component: str | None = None  # which Component to discard, by title or #number
    intone: str | None = None  # the cast phrase, typed: judged "Alum!" or "Kotukh!"
    replace: str | None = None  # which Enhancement a fifth one pushes out
    magi: str | None = None


class RespondOptions(Model):
    spell: str | None = None  # none: pass on this window
    target: str | None = None
    upgrade: str | None = None
    upgrade_with: str | None = None
    intone: str | None = None
    magi: str | None = None


class MagiOnlyOptions(Model):
    magi: str | None = None


class ExchangeOptions(Model):
    gain: Literal["Resonance", "Harmony", "Essence", "Will"]
    give: Literal["Will", "Voice"] = "Will"
    magi: str | None = None


class DismissOptions(Model):
    spell: str  # title or #number; "specialization" or "artifact"
    magi: str | None = None


class FocusOptions(Model):
    spell: str
    release: bool = False  # take your Focus off it (the spell is discarded)
    magi: str | None = None


class SpecOptions(Model):
    tree: Literal["A", "B"]
    voice: int = Field(default=0, ge=0)  # Voice to spend in place of Resonance
    magi: str | None = None


class UseOptions(Model):
    ability: str
    target: str | None = None
    magi: str | None = None


class SustainOptions(Model):
    spell: str
    keep: bool = True
    magi: str | None = None
