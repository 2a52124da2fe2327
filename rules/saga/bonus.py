"""Harmonic, discordant and good luck bonuses (S15, S19; RULINGS 19, F-R6, F-R9, F-R31), and pile order (F-R32).

A cost is looked for where the book says it may be met: adjacent cards (the story row, the luck stacks, the
place circle), attached groups (a hero and their items, a stack and its attachments) and the kismet cards.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.saga.area import (
    Ctx,
    find_hero,
    hero_group,
    kismet,
    location,
    luck_row,
    occupied,
    place_row,
    stack_group,
    story_row,
    view,
)
from rules.saga.harmony import LUCK_WORDS, Cost, Match, Order, card_order, group_match, run_match, same_harmonic
from rules.saga.hints import how_to
from rules.saga.optional import optional_window
from rules.saga.steps import in_force

# ---------------------------------------------------------------- bonuses (S15, S19)


SOURCES = ("story", "luck", "place", "kismet", "hero", "stack")


def cost_met(ctx: Ctx, cost: Cost, where: str, hero_name: str | None) -> Match:
    """Where a cost is met: the named source, or (``auto``) the first source that meets it."""
    sharing = ctx.settings.attached_sharing
    tried: list[Match] = []
    sources = SOURCES if where == "auto" else (where,)
    for source in sources:
        for match in _source_matches(ctx, cost, source, hero_name, sharing):
            if match.met:
                return match
            tried.append(match)
    reasons = "; ".join(f"{m.where}: {m.reason}" for m in tried) or "no cards to search"
    return Match(False, where, [], "none", reasons)


def _source_matches(ctx: Ctx, cost: Cost, source: str, hero_name: str | None, sharing: bool) -> list[Match]:
    game = ctx.game
    if source == "story":
        if ctx.settings.story_adjacency == "all":
            return [group_match(cost, story_row(ctx), "story pile", sharing=False)]
        return [run_match(cost, story_row(ctx), "story pile")]
    if source == "luck":
        return [run_match(cost, luck_row(ctx), "luck pile")]
    if source == "place":
        return [run_match(cost, place_row(ctx), "place pile", circle=True)]
    heroes = [find_hero(ctx, hero_name)] if hero_name else game.heroes
    if source == "kismet":
        out = []
        for hero in heroes:
            cards = kismet(ctx, hero)
            if any(c is None for c in cards):
                # cites F-R18
                out.append(Match(False, f"{hero.name}'s kismet cards", reason="a kismet card is missing"))
            else:
                out.append(run_match(cost, [c for c in cards if c], f"{hero.name}'s kismet cards"))
        return out
    if source == "hero":
        return [group_match(cost, hero_group(ctx, h), f"{h.name} and their items", sharing=sharing) for h in heroes]
    return [
        group_match(cost, stack_group(ctx, i), f"the stack topped by {game.places[i].stack[0]}", sharing=sharing)
        for i in occupied(game)
    ]


def bonus(
    ctx: Ctx, card_name: str | None, kind: str, cost: Cost | None, where: str, hero: str | None
) -> tuple[list[str], dict]:
    """Check (and, for a card, claim) a bonus: good luck, a harmonic/discordant cost, or a same-harmonic hand."""
    game = ctx.game
    card = ctx.card(card_name) if card_name else None
    if card is not None:
        optional_window(ctx, "claiming a bonus")
        if not in_force(ctx, card):
            raise RuleError(
                f"{card.name}'s rules are not in force: it must be in the play area, or acknowledged in "
                f"hand or the action pile (it is {location(game, card.name) or 'not in this game'})."
            )
    if kind == "good-luck":
        if card is not None and not card.good_luck_bonus:
            raise RuleError(f"{card.name} has no good luck bonus in the catalog.")
        owner = find_hero(ctx, hero)
        luck = game.luck.get(owner.name)
        if luck is None or luck.result != "good":
            said = f"luck is {LUCK_WORDS[luck.result]} ({luck.reason})" if luck else "no luck check yet this turn"
            raise RuleError(f"The good luck bonus needs good luck; {owner.name}'s {said}.")
        text = card.good_luck_bonus if card else ""
        notes = [f"Good luck bonus of {card.name if card else 'a card'} claimed for {owner.name}: {text}"]
        if card is not None:
            notes += how_to(ctx, text, f"{card.name}'s good luck bonus", card=card.name, hero=owner)
        return notes, {
            "met": True,
            "kind": kind,
            "where": f"{owner.name}'s luck",
            "cards": [],
            "text": text,
        }
    printed = None
    if card is not None:
        printed = card.harmonic_bonus if kind == "harmonic" else card.discordant_bonus
        if printed is None and not cost:
            raise RuleError(f"{card.name} has no {kind} bonus in the catalog; give its cost with cost:<colors>.")
    if printed is not None and printed.hand_same_harmonic:
        common = same_harmonic([view(ctx, name) for name in game.hand])
        if not common:
            # cites F-R31
            raise RuleError("Not met: the hand's cards do not all carry one harmonic color.")
        colors = ", ".join(sorted(common))
        notes = [f"{card.name}'s {kind} bonus: every hand card carries {colors}. {printed.text}"]  # type: ignore[union-attr]
        notes += how_to(ctx, printed.text, f"{card.name}'s {kind} bonus", card=card.name)  # type: ignore[union-attr]
        return notes, {
            "met": True,
            "kind": kind,
            "where": "hand",
            "cards": list(game.hand),
            "text": printed.text,
        }
    wanted = list(cost) if cost else list(printed.cost if printed else [])
    if not wanted:
        raise RuleError('Give the bonus cost: cost:"B, V, R" (colors or any).')
    match = cost_met(ctx, wanted, where, hero)
    shown = ", ".join(str(t).upper() for t in wanted)
    if not match.met:
        raise RuleError(f"Cost ({shown}) is not met: {match.reason}.")
    text = printed.text if printed else ""
    label = f"{card.name}'s {kind} bonus" if card else f"Cost ({shown})"
    notes = [f"{label}: met on {match.where} by {', '.join(match.cards)} ({match.reason}). {text}".strip()]
    if card is not None:
        owner = find_hero(ctx, hero) if hero else None
        notes += how_to(ctx, text, f"{card.name}'s {kind} bonus", card=card.name, hero=owner)
    return notes, {
        "met": True,
        "kind": kind,
        "where": match.where,
        "cards": match.cards,
        "direction": match.direction,
        "text": text,
    }


def pile_order(ctx: Ctx, pile: str, hero_name: str | None) -> tuple[list[str], Order]:
    """A pile's order (S16): the story row, the luck tops, a hero's kismet cards, or the place circle (F-R32)."""
    if pile == "story":
        views = story_row(ctx)
    elif pile == "luck":
        views = luck_row(ctx)
    elif pile == "kismet":
        cards = kismet(ctx, find_hero(ctx, hero_name))
        if any(c is None for c in cards):
            # cites F-R18
            raise RuleError("A kismet card is missing this turn: there is no order to read.")
        views = [c for c in cards if c is not None]
    else:
        return place_circle_order(ctx)
    return [v.name for v in views], card_order(views)


def place_circle_order(ctx: Ctx) -> tuple[list[str], Order]:
    """F-R32: the stack tops read around the circle from any occupied spot, either way; harmonic if any reading is."""
    tops = place_row(ctx)
    best: tuple[list[str], Order] | None = None
    for start in range(len(tops)):
        for step in (1, -1):
            reading = [tops[(start + step * i) % len(tops)] for i in range(len(tops))]
            order = card_order(reading)
            if order.harmonic:
                return [v.name for v in reading], order
            best = best or ([v.name for v in reading], order)
    return best or ([], card_order([]))
