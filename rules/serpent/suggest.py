"""Autocomplete for ``/serpent`` options, read from the channel's battle and book (at most 25 choices)."""

from __future__ import annotations

from rules.base import Table
from rules.serpent.book import SerpentBook
from rules.serpent.responses import response_options
from rules.serpent.runner import make_ctx
from rules.serpent.state import Battle, SerpentState
from rules.serpent.turns import window_waiting

MAX_CHOICES = 25


def suggestions(table: Table, action: str, option: str, current: str) -> list[str]:
    state = table.state if isinstance(table.state, SerpentState) else None
    book = table.book if isinstance(table.book, SerpentBook) else None
    battle = state.battle if state else None
    found = _choices(table, state, book, battle, action, option)
    text = current.casefold().strip()
    unique = list(dict.fromkeys(found))
    return [c for c in unique if text in c.casefold()][:MAX_CHOICES]


def _mine(table: Table, battle: Battle) -> list[str]:
    keys = [
        c.name.casefold() for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id
    ]
    return [k for k in keys if k in battle.beings]


def _choices(
    table: Table, state: SerpentState | None, book: SerpentBook | None, battle: Battle | None, action: str, option: str
) -> list[str]:
    if option in ("magi", "name") and (action.startswith("magi") or action == "autopass"):
        return sorted(
            c.name for c in table.characters.values() if table.actor.is_gm or c.owner_id == table.actor.user_id
        )
    if action == "battle encounter add" and option == "name" and book:
        return [e.name for e in book.encounters.encounter]
    if action == "spell define" and option == "name" and book and state:
        return sorted({s.title for s in book.spells.spell} | {s.title for s in state.spellbook.values()})
    if action == "magi create" and option == "specialization" and book:
        return [s.name for s in book.specializations.specialization]
    if battle is None:
        return []
    mine = _mine(table, battle)
    cards = battle.cards.values()
    if option == "spell" and action == "respond" and battle.stack and state is not None and book is not None:
        return own_responses(table, state, battle, mine)
    if option == "spell":
        places = {
            "cast": ("prepared",),
            "prepare": ("codex", "prepared"),
            "reattune": ("discard",),
            "respond": ("codex", "prepared"),
        }.get(action)
        if places:
            return sorted({c.title for c in cards if c.owner in mine and c.location in places})
        if action in ("dismiss", "sustain", "focus"):
            return [f"#{c.id} {c.title}" for c in battle.in_play() if action == "focus" or c.controller in mine]
    if option == "spells" and action in ("prepare", "reattune"):
        where = "discard" if action == "reattune" else "codex"
        return sorted({c.title for c in cards if c.owner in mine and c.location in (where, "prepared")})
    if option == "magi" and action == "battle close-window":
        return [battle.beings[k].name for k in window_magi(table, state, book, battle)]
    if option == "magi":
        # your Magi in the battle, and the Koishaka they control (they act for it)
        names = [battle.beings[k].name for k in mine]
        names += [b.name for b in battle.beings.values() if b.kind == "koishaka" and b.controller in mine]
        return names
    if option == "name" and action == "nam-shub" and book and state:
        found = []
        for card in cards:
            spell = state.spellbook.get(card.title.casefold()) or book.spell(card.title)
            if card.owner in mine and card.location == "codex" and spell is not None and spell.role == "Nam-Shub":
                found.append(card.title)
        return sorted(set(found))
    if option == "spells" and action == "lose":
        return sorted({c.title for c in cards if c.owner in mine and c.location in ("codex", "prepared")})
    if option == "spells" and action == "order":
        teams = {battle.beings[k].team for k in mine}
        owned = [c for c in battle.in_play() if c.bearer in mine or (c.team is not None and c.team in teams)]
        return [f"#{c.id} {c.title}" for c in owned]
    if option == "target":
        beings = [b.name for b in battle.beings.values() if not b.incapacitated]
        spells = [f"#{e.id} {e.title}" for e in reversed(battle.stack)] + [
            f"#{c.id} {c.title}" for c in battle.in_play()
        ]
        return (spells + beings) if action == "respond" else (beings + spells)
    if option in ("component", "replace") and book and state:
        # cast component: your Components in play; cast replace: your Enhancements (a fifth one pushes one out)
        role, zone = ("Component", "defense") if option == "component" else ("Enhance", "enhance")
        found = []
        for card in battle.in_play():
            spell = state.spellbook.get(card.title.casefold()) or book.spell(card.title)
            if card.controller in mine and card.zone == zone and spell is not None and spell.role == role:
                found.append(f"#{card.id} {card.title}" if option == "component" else card.title)
        return found
    if option == "being":
        return [b.name for b in battle.beings.values()]
    if option == "to" and action == "pledge":
        teams = {battle.beings[k].team for k in mine}
        return [b.name for b in battle.beings.values() if b.is_magi and b.team in teams and b.key not in mine]
    if option == "team":
        return battle.teams()
    if option == "ability" and book and state:
        names = []
        for card in battle.in_play():
            spell = state.spellbook.get(card.title.casefold()) or book.spell(card.title)
            if spell and (card.bearer in mine or card.team in {battle.beings[k].team for k in mine}):
                names.extend(a.name for a in spell.abilities)
            if spell and spell.role == "Artifact" and card.controller in mine:
                names.append(card.title)
        return names
    return []


def window_magi(table: Table, state: SerpentState | None, book: SerpentBook | None, battle: Battle) -> list[str]:
    """The Magi the open window waits on: whom ``battle close-window magi:`` may pass."""
    if not battle.stack or state is None or book is None:
        return []
    return window_waiting(make_ctx(table, state, battle), battle.stack[-1])


def own_responses(table: Table, state: SerpentState, battle: Battle, mine: list[str]) -> list[str]:
    """The Responses the caller's Magi could make now to the open window (what the Respond button offers)."""
    ctx = make_ctx(table, state, battle)
    top = battle.stack[-1]
    waiting = window_waiting(ctx, top)
    return sorted({title for key in mine if key in waiting for title in response_options(ctx, ctx.being(key), top)})
