"""The table the bot keeps for a solo Spell Saga game (spec section 3), as plain pydantic data.

A play-by-post game pauses for days between posts, so every pile, stack, the hero
token and the step pointer live here. Card names are the identities (a deck holds
each card once). The deck order is the table's secret: only the GM may see it.
"""

from typing import Literal

from pydantic import Field

from rules.base import HouseRules, Model
from rules.saga.book import CardDef
from rules.text import fold

Draws = Literal["bot", "reported"]
Outcome = Literal["playing", "won", "lost"]
PLACE_SPOTS = 5
STACK_LIMIT = 5


class SagaSettings(HouseRules):
    """House rules, each with the spec's default (F-R3, F-R6, F-R7, F-R11, F-R15)."""

    kismet_order: Literal["place-action-luck", "place-luck-action"] = "place-action-luck"
    story_adjacency: Literal["row", "all"] = "row"
    attached_sharing: bool = True
    damage_timing: Literal["end_of_round", "immediate"] = "end_of_round"
    source_limit: Literal["story_plus_bonus", "fixed"] = "story_plus_bonus"

    # an older version's house rule, now the campaign's play-by-post `nudge` and `turn_deadline` (bot/table/pbp.py)
    retired = ("nudge_hours",)


class SagaSheet(Model):
    """The player's character is the hero pile; the table itself is in the campaign state."""

    hero: str = ""


class ItemState(Model):
    name: str
    face_up: bool = True
    songs: list[str] = Field(default_factory=list)  # attached spell-songs


class HeroState(Model):
    name: str
    items: list[ItemState] = Field(default_factory=list)
    luck: list[str] = Field(default_factory=list)  # the hero's luck stack, top first


class Spot(Model):
    """One of the five spots of the place pile: a stack (top first) and the folk and rooms attached to it."""

    stack: list[str] = Field(default_factory=list)
    attached: list[str] = Field(default_factory=list)


class ActionCard(Model):
    name: str
    hero: str  # the hero whose spot it fills (kismetic order)
    acknowledged: bool | None = None  # set at step 8


class LuckRecord(Model):
    result: Literal["good", "bad", "none"]
    reason: str
    kismet: list[str | None]
    shared: list[str] = Field(default_factory=list)


class EnemyState(Model):
    name: str
    armor: int
    attack: int
    rounds: int
    hero: str  # whose spot it was drawn into (its advantage, F-R17)
    hits: int = 0  # attacks against it this round
    acted: bool = False  # attacked this round
    defeated: bool = False


class Battle(Model):
    round: int = 1
    rounds_total: int = 1
    enemies: list[EnemyState] = Field(default_factory=list)
    used: dict[str, str] = Field(default_factory=dict)  # hero -> item used this round (item lock)
    passed: list[str] = Field(default_factory=list)
    pending_damage: int = 0
    history: list[str] = Field(default_factory=list)


class Game(Model):
    draws: Draws = "bot"
    seed: int | None = None
    player_id: int
    character: str
    deck: list[str] = Field(default_factory=list)  # top first; with draws:reported, an unordered set
    hand: list[str] = Field(default_factory=list)
    story: list[str] = Field(default_factory=list)
    heroes: list[HeroState] = Field(default_factory=list)
    places: list[Spot] = Field(default_factory=lambda: [Spot() for _ in range(PLACE_SPOTS)])
    token_spot: int = 0
    token_room: str | None = None  # visiting a room attached to ``token_spot``
    action: list[ActionCard] = Field(default_factory=list)
    turn: int = 1
    step: int = 1  # the next mandatory step to perform
    moved: bool = False  # step 1 done this turn
    luck: dict[str, LuckRecord] = Field(default_factory=dict)
    battle: Battle | None = None
    outcome: Outcome = "playing"
    fixed_limit: int | None = None  # the source limit at setup (house rule source_limit: fixed)
    last_search: list[str] = Field(default_factory=list)  # cards revealed by the last search, this turn
    acknowledged_blank: list[str] = Field(default_factory=list)  # blank-cost cards a card rule acknowledged
    wanted_draw: Literal["hand", "action", "luck"] | None = None  # draws:reported: what the next report fills
    pending_reports: int = 0  # draws:reported: how many cards the current draw still needs
    pending: str | None = None  # kismetic order: the drawn card waiting for a hero's spot
    waiting_since: str = ""  # Table.now of the last turn post: when the table started waiting for the player
    nudged: bool = False  # the reminder for this wait went out

    def waits_for_player(self) -> bool:
        """A battle round or step 10 waiting for the player: what a GM's nudge reminds them of."""
        return self.outcome == "playing" and self.step in (9, 10)

    def hero(self, name: str) -> HeroState | None:
        return next((h for h in self.heroes if fold(h.name) == fold(name)), None)

    @property
    def visiting(self) -> str:
        return self.token_room or (self.places[self.token_spot].stack[0] if self.places[self.token_spot].stack else "")


class SagaState(Model):
    catalog: dict[str, CardDef] = Field(default_factory=dict)  # keyed by folded name
    game: Game | None = None

    def card(self, name: str) -> CardDef | None:
        return self.catalog.get(fold(name))
