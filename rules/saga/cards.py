"""What the channel reads: the table, the kismet card, the battle board and a catalog card.

The deck appears only as a count: its order is the table's secret (the GM may
look with ``/saga deck``). Everything else on a Spell Saga table lies face-up.
"""

from __future__ import annotations

from typing import Any

from rules.base import Card, RuleError, fit
from rules.saga.area import Ctx, acknowledged, kismet, kismet_labels, location, place_view, source_limit, view
from rules.saga.book import COLORS, CardDef
from rules.saga.harmony import LUCK_WORDS, View, card_order
from rules.saga.state import Game
from rules.saga.steps import expects
from rules.text import fold

TONE = {"good": "success", "bad": "failure", "none": "neutral"}


def _colors(colors) -> str:
    """Harmonic letters in the cycle's order (B/V/R/Y/G), whatever order a card lists them in."""
    return "/".join(c[0].upper() for c in COLORS if c in colors) or "—"


def _partners(ctx: Ctx, name: str) -> tuple[View, list[str]] | None:
    """A place card as the checks read it (F-R6): a stack top with its attachments, a room with its host.

    The kismet card, the place pile's order and every post's lines read ``place_view``, so the colors a post
    shows are the colors the checks use.
    """
    where = location(ctx.game, name) or ""
    if not where.startswith(("place:", "attached:")):
        return None
    index = int(where.split(":")[1]) - 1
    spot = ctx.game.places[index]
    if where.startswith("place:"):
        if not spot.stack or fold(spot.stack[0]) != fold(name):
            return None  # buried: not read by any check
        return place_view(ctx, index), list(spot.attached)
    if ctx.card(name).type != "place":
        return None  # a folk card: one of its stack's group, not a place read on its own
    return place_view(ctx, index, room=name), spot.stack[:1]


def short(ctx: Ctx, name: str) -> str:
    """A card with its glyph and harmonics; a place also names the colors it carries from the cards attached
    to it (F-R6), as the kismet card and the place pile's order read them."""
    card = ctx.state.card(name)
    if card is None:
        return name
    text = f"{card.name} [{card.glyph or 'no glyph'} · {_colors(card.harmonics)}"
    try:
        shared = _partners(ctx, card.name)
    except RuleError:  # an attached card missing from the catalog: show the card's own colors
        shared = None
    if shared is not None:
        view, partners = shared
        extra = set(view.harmonics) - set(card.harmonics)
        givers = [p for p in partners if ctx.state.card(p) and extra & set(ctx.state.card(p).harmonics)]
        if extra:
            text += f", with {_colors(extra)} from {', '.join(givers)}"
    return text + "]"


def _list(ctx: Ctx, names: list[str]) -> str:
    return ", ".join(short(ctx, n) for n in names) or "empty"


def _hand(ctx: Ctx) -> str:
    """The hand, each acknowledged card marked (L356): its rules are in force and it may be purchased."""
    marked = []
    for name in ctx.game.hand:
        card = ctx.state.card(name)
        marked.append(short(ctx, name) + (" (acknowledged)" if card is not None and acknowledged(ctx, card) else ""))
    return ", ".join(marked) or "empty"


def table_card(ctx: Ctx, title: str, notes: list[str]) -> Card:
    """The whole table after an action: what happened, then every pile (the deck as a count)."""
    game = ctx.game
    card = Card(title=title, description="\n".join(notes), tone=_tone(game))
    card.add(
        "Turn",
        f"{game.turn} · step {game.step}" + (f" · {game.outcome.upper()}" if game.outcome != "playing" else ""),
        inline=True,
    )
    card.add("Visiting", short(ctx, game.visiting) if game.visiting else "—", inline=True)
    card.add("Deck", f"{len(game.deck)} card(s)" + (" (reported)" if game.draws == "reported" else ""), inline=True)
    card.add(f"Hand ({len(game.hand)}, source limit {source_limit(ctx)})", _hand(ctx))
    card.add(f"Story pile ({len(game.story)})", _list(ctx, game.story))
    heroes = []
    for hero in game.heroes:
        items = ", ".join(
            f"{i.name}{'' if i.face_up else ' (face-down)'}" + (f" + {', '.join(i.songs)}" if i.songs else "")
            for i in hero.items
        )
        heroes.append(
            f"{short(ctx, hero.name)}: items {items or 'none'}; luck stack {_list(ctx, hero.luck[:1])}"
            + (f" (+{len(hero.luck) - 1} below)" if len(hero.luck) > 1 else "")
        )
    card.add("Hero & luck piles", "\n".join(heroes) or "empty")
    spots = []
    for i, spot in enumerate(game.places):
        if not spot.stack:
            if spot.attached:  # a card rule took the stack away: its attachments wait for a new place
                spots.append(f"{i + 1}. (empty); attached: {', '.join(spot.attached)}")
            continue
        token = " ◀ token" if i == game.token_spot and not game.token_room else ""
        below = f" (+{len(spot.stack) - 1} below)" if len(spot.stack) > 1 else ""
        attached = ""
        if spot.attached:
            marks = [f"{a}{' ◀ token' if game.token_room == a else ''}" for a in spot.attached]
            attached = f"; attached: {', '.join(marks)}"
        spots.append(f"{i + 1}. {short(ctx, spot.stack[0])}{below}{token}{attached}")
    card.add("Place pile", "\n".join(spots) or "empty")
    if game.action:
        rows = [
            f"{short(ctx, a.name)} ({a.hero}"
            + ("" if a.acknowledged is None else f", {'acknowledged' if a.acknowledged else 'ignored'}")
            + ")"
            for a in game.action
        ]
        card.add("Action pile", "\n".join(rows))
    if game.battle:
        card.add("Battle", battle_text(game))
    card.footer = f"Next: {_next(ctx)}"
    return fit(card)


def _tone(game: Game) -> str:
    if game.outcome == "won":
        return "success"
    if game.outcome == "lost":
        return "failure"
    return "warning" if game.battle else "neutral"


def _next(ctx: Ctx) -> str:
    if ctx.game.outcome != "playing":
        return "the game is over; `/saga start` begins another"
    return expects(ctx)


def battle_text(game: Game) -> str:
    battle = game.battle
    if battle is None:
        return ""
    lines = [f"Round {battle.round} of {battle.rounds_total}; damage waiting: {battle.pending_damage}"]
    for enemy in battle.enemies:
        state = "defeated" if enemy.defeated else f"{enemy.hits} vs armor {enemy.armor}"
        lines.append(f"{enemy.name}: armor {enemy.armor}, attack {enemy.attack}, rounds {enemy.rounds} · {state}")
    return "\n".join(lines)


def kismet_fields(ctx: Ctx, card: Card) -> None:
    """Steps 6-7 for each hero: the three cards as checked, with glyphs and harmonics, the match and the luck."""
    labels = kismet_labels(ctx.settings)
    for hero in ctx.game.heroes:
        record = ctx.game.luck.get(hero.name)
        if record is None:
            continue
        live = kismet(ctx, hero)
        lines = []
        views = []
        for label, name, now in zip(labels, record.kismet, live, strict=True):
            if name is None:
                lines.append(f"{label}: missing")
                continue
            seen = _partners(ctx, name) if now is None or now.name != name else None
            views.append(now if now is not None and now.name == name else seen[0] if seen else view(ctx, name))
            lines.append(f"{label}: {short(ctx, name)}")
        shared = ", ".join(record.shared) or "none"
        if len(views) == 3:
            order = card_order(views)
            order_text = ("harmonic" if order.harmonic else "discordant") + f" ({order.reason})"
        else:
            order_text = "incomplete"
        lines.append(f"Harmonics shared by all three: {shared} · order: {order_text}")
        lines.append(f"**{LUCK_WORDS[record.result].upper()}**: {record.reason}")
        card.add(f"Kismet: {hero.name}", "\n".join(lines))
    fit(card)


def catalog_card(card: CardDef) -> Card:
    out = Card(title=card.name + (" (sample)" if card.sample else ""), description=card.line())
    stats = {
        "source bonus": card.source_bonus,
        "hero limit": card.hero_limit,
        "item limit": card.item_limit,
        "armor": card.armor,
        "attack": card.attack,
        "battle rounds": card.rounds,
    }
    shown = ", ".join(f"{k} {v}" for k, v in stats.items() if v is not None)
    if shown:
        out.add("Warning bar", shown)
    for label, rules in (("~ Mandatory", card.mandatory), ("(&) Optional", card.optional)):
        if rules:
            out.add(label, "\n".join(rules))
    if card.good_luck_bonus:
        out.add("Good luck bonus", card.good_luck_bonus)
    for label, bonus in (("Harmonic bonus", card.harmonic_bonus), ("Discordant bonus", card.discordant_bonus)):
        if bonus is not None:
            cost = (
                "all hand cards share a harmonic"
                if bonus.hand_same_harmonic
                else ", ".join(c.upper() for c in bonus.cost)
            )
            out.add(label, f"({cost}) {bonus.text}")
    for label, text in (("Prize", card.prize), ("Penalty", card.penalty)):
        if text:
            out.add(label, text)
    if card.end_of_demo:
        out.add("End of Demo", "Following this card's rules wins the game.")
    return fit(out)


def public_data(ctx: Ctx) -> dict[str, Any]:
    """The table as JSON, without the deck's order (a count only)."""
    game = ctx.game
    return {
        "turn": game.turn,
        "step": game.step,
        "outcome": game.outcome,
        "draws": game.draws,
        "visiting": game.visiting,
        "deck_count": len(game.deck),
        "hand": list(game.hand),
        "hand_acknowledged": [n for n in game.hand if (c := ctx.state.card(n)) is not None and acknowledged(ctx, c)],
        "story": list(game.story),
        "source_limit": source_limit(ctx),
        "heroes": [
            {"name": h.name, "items": [i.model_dump() for i in h.items], "luck": list(h.luck)} for h in game.heroes
        ],
        "places": [s.model_dump() for s in game.places],
        "action": [a.model_dump() for a in game.action],
        "luck": {k: v.model_dump() for k, v in game.luck.items()},
        "battle": game.battle.model_dump() if game.battle else None,
    }
