"""The campaign state of a serpent table: its spell book, its settings and the battle in progress.

Everything a battle needs between two actions lives here as plain pydantic data,
so a play-by-post battle can pause for hours (a response window, a preparation
phase) and resume exactly where it stopped. ``battle undo`` is the table
service's exact undo of the newest change, so the state keeps no history itself.
"""

from typing import Literal

from pydantic import Field

from rules.base import HouseRules, Model
from rules.serpent.book import Amount, Boost, Dispel, Energy, Spell, SpellLoss, Sphere

Zone = Literal["attack", "defense", "curse", "enhance"]
Location = Literal["codex", "prepared", "rite", "manifesting", "play", "discard", "banished"]
Phase = Literal["setup", "maintenance", "preparation", "actions", "round_end", "over"]
# issue 13: the response windows a Magi passes without being asked: none, their own team's effects, or all
AutoPass = Literal["never", "allies", "always"]
ZONE_ORDER: tuple[Zone, ...] = ("attack", "defense", "curse", "enhance")


class SerpentSettings(HouseRules):
    """House rules: defaults follow docs/rulings.md (8-13); a GM may change them per campaign."""

    basic_play: bool = (
        False  # Act I: Meditate gives no Harmony, Overload costs none, initiative by Resonance then Essence
    )
    discord_event_essence: int = Field(default=3, ge=0)  # RULING 8, "unless the scenario says otherwise"
    auto_pass: bool = True  # a Magi out of Full Actions with no Free Action left passes by itself
    # RULING 13: values the Sentient Shadow's card scan garbles, supplied by the GM (None: not supplied)
    shadow_spectral_claw_dmg: int | None = Field(default=None, ge=0)
    shadow_gain_resonance: int | None = Field(default=None, ge=0)

    # an older version's house rule, now the campaign's play-by-post `response_window` (bot/table/pbp.py)
    retired = ("response_window_minutes",)


class Pledge(Model):
    """Ritual path tiers a human Ally will pay on a Magi's next spell with a ritual path (glossary "Ritual Path")."""

    to: str
    tiers: int
    will: bool = False  # 1 Will for 3 tiers instead of 1 Harmony each


class ChargePaid(Model):
    card: int
    kind: str
    amount: int


class Payment(Model):
    """What a casting cost, kept so a Dispel of the manifesting spell can refund it."""

    energies: dict[Energy, int] = Field(default_factory=dict)  # costs paid (orbs, requirements, upgrades, tiers)
    gained: dict[Energy, int] = Field(default_factory=dict)  # positive orbs collected (never paid back)
    sacrificed: "list[CardState]" = Field(default_factory=list)  # Components etc. as they were before discarding
    charges: list[ChargePaid] = Field(default_factory=list)
    allies: dict[str, dict[Energy, int]] = Field(default_factory=dict)  # ritual tiers paid by Allies, by being key


class CardState(Model):
    """One physical spell card of a Magi's Codex, wherever it is now."""

    id: int
    title: str
    owner: str
    caster: str | None = None
    controller: str | None = None
    location: Location = "codex"
    zone: Zone | None = None
    bearer: str | None = None  # the being whose zone holds it (None for team/global Area spells)
    team: str | None = None  # an Area spell sits in this team's zone
    global_area: bool = False
    duration: int | None = None  # Duration (or Curse Duration) counters
    persistent: bool = False
    focus: str | None = None  # whose Focus holds a Duration F spell
    durability: int | None = None
    charges: dict[str, int] = Field(default_factory=dict)
    boost: Boost = Field(default_factory=Boost)  # upgrades, ritual tiers and Spec boosts bought at casting
    upgrades: list[str] = Field(default_factory=list)
    tiers: int = 0
    paid: Payment = Field(default_factory=Payment)
    let_go: bool = False  # pre-declared: do not sustain at the next maintenance
    affected: list[str] = Field(default_factory=list)  # an Area Curse: the beings it hit
    order: int = 0  # placement sequence: zone owners resolve and stack shields in this order
    ability_uses: dict[str, int] = Field(default_factory=dict)  # this round
    fluency: int | None = None  # this card's printed fluency, when the Codex names a variant ("Fireball@3")
    combined_with: int | None = None  # a Transmute: the spell it is combined with (glossary "Combination")
    rite_actions: int = 0  # Full Actions invested while it waits in the Rite zone ("# Actions")
    steps_done: int = 0  # a Nam-Shub: steps its team has completed
    stepped_round: int = 0  # a Nam-Shub: the round of its last step (one a round per team)
    dormant: bool = False  # glossary "Dormant": in play, counting down, but without effect
    rite_spoken: bool | None = None  # Intoned ("Alum!") when it was Spoken into the Rite zone


Payment.model_rebuild()


class EncounterState(Model):
    name: str
    out: dict[str, int] = Field(default_factory=dict)  # tokens out of the draw bag
    scaled_for: int = 0  # extra Magi whose scaling is applied now (0 in easy mode)


class Being(Model):
    """A participant: a Magi (a player's character) or an Encounter run by the rules."""

    key: str
    name: str
    kind: Literal["magi", "encounter", "koishaka"]
    owner_id: int | None = None
    team: str
    resonance: int = 0
    harmony: int | None = 0  # None: no Harmony stat (counts as 0 for initiative)
    essence: int = 12
    starting_essence: int = 12
    will: int = 0
    voice: int = 0
    focus_total: int = 1
    stones: int = 0
    full_actions: int = 2  # left this round
    actions_per_round: int = 2
    exchanged: bool = False
    spec_upgraded: bool = False
    passed: bool = False
    ready: bool = False  # finished preparing this round
    reattuned_other: bool = False  # the one non-Bonded re-attune this round
    incapacitated: bool = False
    miscast_titles: list[str] = Field(default_factory=list)  # may not cast these again this turn
    spec: str | None = None
    spec_tiers: list[str] = Field(default_factory=list)  # "A1", "A2", "B1", "B2"
    spec_active: bool = False
    artifact: str | None = None
    artifact_active: bool = False
    encounter: EncounterState | None = None
    resistance: int | None = None  # an Encounter's Resistance (glossary "Potency"), supplied by the GM
    burned_focus: int = 0  # Foci burned (glossary "Burn Focus"), re-attuned in preparation for 1 Resonance each
    stoned_round: int = 0  # the round an offensive effect last gave this being an interrupt stone
    spell_loss: SpellLoss | None = None  # a Spell Loss waiting for this Magi to choose the spells
    pledge: Pledge | None = None  # ritual tiers this Magi will pay on an Ally's next spell
    controller: str | None = None  # a Koishaka: the Magi who summoned it and acts for it
    autopass: AutoPass = "never"  # a Magi's play-by-post auto-pass (``/serpent autopass``, kept on the sheet)
    summoned_by: int | None = None  # a Koishaka: the Ally spell card that keeps it in the battle

    @property
    def is_magi(self) -> bool:
        return self.kind == "magi"

    @property
    def discord(self) -> int:
        return max(0, -(self.harmony or 0))


class Impact(Model):
    """The aspects an effect impacts with; spells derive it at activation, Encounters carry it."""

    sphere: Sphere | None = None
    physical: bool = False
    descriptors: list[str] = Field(default_factory=list)
    dmg: Amount | None = None
    infusion: Amount | None = None
    siphon: Amount | None = None
    disrupt: bool = False
    focus_loss_harmony: int = 0
    dispel: Dispel | None = None
    clears_charges: str | None = None
    subtle: bool = False
    pierce: int = 0
    shatter: int = 0
    area: Literal["team", "global"] | None = None
    unblockable: bool = False
    curse: bool = False
    gain_resonance: int | None = None
    obliterate: bool = False
    shed_discord: int = 0
    slow: bool = False
    spell_loss: SpellLoss | None = None
    unknown: list[str] = Field(default_factory=list)  # values a GM must still supply, shown on the card


class Effect(Model):
    """A manifesting spell or ability on the stack, with its response window."""

    id: int
    title: str
    kind: Literal["spell", "ability", "encounter", "maintenance"]
    card: int | None = None
    ability: str | None = None
    caster: str
    target_kind: Literal["being", "team", "card", "effect", "global", "none"] = "none"
    target: str | None = None
    is_spell: bool = False  # Abjurations may target it; it adds Karma charges
    offensive: bool = False
    response: bool = False
    free_action: bool = False
    impact: Impact | None = None  # Encounter and ability effects; spells read their card
    passed: list[str] = Field(default_factory=list)  # beings who passed this window
    priority_over: bool = False  # its caster has passed the first Response (glossary "Priority")
    veiled: bool = False  # glossary "Veiled": it has no Response phase
    encounters_answered: bool = False  # Encounters' Response abilities (the Shadow's Evade) have had their go
    evaded: list[str] = Field(default_factory=list)  # beings who dodged it
    replace: str | None = None  # Enhancement to drop for a fifth one
    opened_at: str | None = None  # UTC ISO time its response window (last) started waiting, from ``Table.now``
    waited: bool = False  # its window (last) waited on someone; if not, the card says it activated at once


class QueuedDie(Model):
    """A GM-supplied value waiting for the next automatic roll of its kind."""

    kind: Literal["d10", "token", "2d10"]
    value: str


class Battle(Model):
    mode: Literal["duel", "teams", "encounter"] = "duel"
    easy: bool = False
    start_essence: int | None = None
    round: int = 0
    phase: Phase = "setup"
    beings: dict[str, Being] = Field(default_factory=dict)
    cards: dict[int, CardState] = Field(default_factory=dict)
    next_id: int = 1
    placed: int = 0
    order: list[str] = Field(default_factory=list)  # initiative order this round
    turn: int | None = None  # index into ``order`` during the action phase
    turn_count: int = 0  # turns handed on so far: names a turn for play-by-post waits ("round 2 turn 7")
    stack: list[Effect] = Field(default_factory=list)
    queue: list[int] = Field(default_factory=list)  # maintenance: cards still to resolve
    dice: list[QueuedDie] = Field(default_factory=list)
    last_resonance: int | None = None
    winner: str | None = None
    log: list[str] = Field(default_factory=list)  # the recent story, for the board

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def current(self) -> Being | None:
        if self.phase != "actions" or self.turn is None or not self.order:
            return None
        return self.beings[self.order[self.turn]]

    def magi(self) -> list[Being]:
        return [b for b in self.beings.values() if b.is_magi]

    def teams(self) -> list[str]:
        seen: list[str] = []
        for being in self.beings.values():
            if being.team not in seen:
                seen.append(being.team)
        return seen

    def team_members(self, team: str) -> list[Being]:
        members = [b for b in self.beings.values() if b.team == team]
        rank = {key: i for i, key in enumerate(self.order)}
        return sorted(members, key=lambda b: rank.get(b.key, len(rank)))

    def cards_in(self, location: str, owner: str | None = None) -> list[CardState]:
        return [c for c in self.cards.values() if c.location == location and (owner is None or c.owner == owner)]

    def in_play(self) -> list[CardState]:
        return sorted((c for c in self.cards.values() if c.location == "play"), key=lambda c: c.order)

    def active(self) -> list[CardState]:
        """Spells in play that are not Dormant: they "cause no effect and cannot be used to meet requirements"."""
        return [c for c in self.in_play() if not c.dormant]


class SerpentState(Model):
    """The campaign's state: GM-defined spells (overriding the book's) and the battle, if any."""

    spellbook: dict[str, Spell] = Field(default_factory=dict)  # keyed by folded title
    battle: Battle | None = None
