"""Hand-built realm tables: the real book, a GM and two players, actions run exactly as the service runs them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.table.books import load_book
from rules.base import Actor, Outcome, Table
from rules.realm import RULESET
from rules.realm.book import RealmBook
from rules.realm.state import RealmSettings, RealmState

ROOT = Path(__file__).resolve().parents[3]
BOOK: RealmBook = load_book(RealmBook, ROOT / "data" / "realm")
GM_ID, PAT_ID, OZ_ID = 1, 2, 3
USERS = {"gm": (GM_ID, True), "pat": (PAT_ID, False), "oz": (OZ_ID, False)}


class Realm:
    """A campaign in memory; ``act`` runs one action as one user, on a copy, committing only if it succeeds."""

    def __init__(self, seed: int = 1, **settings: Any) -> None:
        self.table = Table(
            ruleset_id="realm", campaign_name="Test", actor=Actor(user_id=GM_ID, name="gm", is_gm=True),
            rng=random.Random(seed), book=BOOK, settings=RealmSettings(**settings), state=RealmState(), characters={},
        )  # fmt: skip

    def act(self, who: str, action: str, /, **options: Any) -> Outcome:
        user_id, is_gm = USERS[who]
        self.table.actor = Actor(user_id=user_id, name=who, is_gm=is_gm)
        spec = RULESET.actions[action]
        if spec.gm_only:
            self.table.require_gm(action)
        snapshot = self.snapshot()
        try:
            return spec.run(self.table, spec.options.model_validate(options))
        except Exception:
            self.restore(snapshot)
            raise

    def snapshot(self) -> tuple:
        chars = {k: (c.owner_id, c.name, c.sheet.model_copy(deep=True)) for k, c in self.table.characters.items()}
        return self.table.state.model_copy(deep=True), chars

    def restore(self, snapshot: tuple) -> None:
        state, chars = snapshot
        self.table.state = state
        for key, (_, _, sheet) in chars.items():
            self.table.characters[key].sheet = sheet
        for key in [k for k in self.table.characters if k not in chars]:
            del self.table.characters[key]

    def dump(self) -> tuple:
        return self.table.state.model_dump(), {k: c.sheet.model_dump() for k, c in self.table.characters.items()}

    @property
    def state(self) -> RealmState:
        return self.table.state

    def sheet(self, name: str):
        return self.table.characters[name.casefold()].sheet

    def chit(self, name: str, label: str):
        return self.sheet(name).chit(label)


def duel(**settings: Any) -> Realm:
    """Two casters in Cave 1 on day 13: Wizard (Pat) and Witch (Oz), spells defined, combat not yet started."""
    realm = Realm(**settings)
    gm = "gm"
    realm.act(gm, "spell define", name="Blind", type="IV", color="purple", target_type="individual", duration="combat")
    realm.act(gm, "spell define", name="Curse", type="V", color="black", target_type="individual", duration="permanent")
    realm.act(gm, "spell define", name="Haste", type="II", color="grey", target_type="self", duration="day")
    realm.act(gm, "spell define", name="Flash", type="IV", color="purple", target_type="clearing", duration="instant")
    realm.act(gm, "day set", day=13)
    realm.act(gm, "clearing set", name="Cave 1", tile="Cave", colors="purple, black")
    realm.act("pat", "character create", name="Wizard", location="Cave 1", spells="Blind, Flash, Curse",
              chits="MAGIC IV4, MAGIC IV4*, MAGIC V5, MAGIC IV3**, MOVE M4*, FIGHT L4, FIGHT M3*, MOVE L5")  # fmt: skip
    realm.act("oz", "character create", name="Witch", location="Cave 1", spells="Curse, Haste, Blind",
              chits="MAGIC V3*, MAGIC V4*, MAGIC IV2, MAGIC II2, MOVE L3, MOVE M4**")  # fmt: skip
    return realm
