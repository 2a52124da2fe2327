"""Battles round by round (section 13, spec S20, F-R11, F-R12, F-R17, F-R24, F-R25).

The advantage comes from the luck of the hero whose spot the enemy was drawn
into: bad luck, the enemy attacks before the heroes; no luck, after. Each hero
uses one item per round (the item lock); attacks on one enemy add up and must be
greater than its armor. Damage is fixed when the enemy attacks and cycled at the
end of the round: hand cards picked by the table's RNG and named.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.saga.area import Ctx, ack_text, acknowledged, cycle, exact, find_hero
from rules.saga.book import CardDef
from rules.saga.state import ActionCard, Battle, EnemyState, HeroState, ItemState
from rules.saga.steps import end_prompt, expects
from rules.text import fold


def open_battle(ctx: Ctx, enemies: list[ActionCard]) -> list[str]:
    """Step 9 begins: item lock on, every enemy shares the highest battle round number (L642)."""
    states = []
    for action in enemies:
        card = ctx.card(action.name)
        missing = [f for f in ("armor", "attack", "rounds") if getattr(card, f) is None]
        if missing:
            raise RuleError(
                f"{card.name} can't be battled: its card prints no {', '.join(missing)} in the catalog. "
                "Define it with `/saga card define`, then `/saga continue`."
            )
        states.append(
            EnemyState(name=card.name, armor=card.armor, attack=card.attack, rounds=card.rounds, hero=action.hero)
        )  # type: ignore[arg-type]
    battle = Battle(rounds_total=max(e.rounds for e in states), enemies=states)
    ctx.game.battle = battle
    ctx.game.step = 9
    first = ", ".join(f"{e.name} ({'enemies' if advantage(ctx, e) == 'enemies' else 'heroes'} first)" for e in states)
    notes = [
        f"Step 9: battle! Item lock on: each hero uses one item per round. {battle.rounds_total} round(s). {first}."
    ]
    notes.extend(start_round(ctx))
    return notes


def advantage(ctx: Ctx, enemy: EnemyState) -> str:
    """F-R17: bad luck for the enemy's hero means the enemy attacks first; otherwise the heroes do."""
    luck = ctx.game.luck.get(enemy.hero)
    return "enemies" if luck is not None and luck.result == "bad" else "heroes"


def start_round(ctx: Ctx) -> list[str]:
    battle = ctx.game.battle
    assert battle is not None
    notes = [f"Round {battle.round} of {battle.rounds_total}."]
    for enemy in battle.enemies:
        if not enemy.defeated and advantage(ctx, enemy) == "enemies":
            notes.extend(enemy_attacks(ctx, enemy))
    notes.append("Heroes: `/saga attack item:<item> enemy:<enemy>` or `/saga pass`.")
    return notes


def enemy_attacks(ctx: Ctx, enemy: EnemyState) -> list[str]:
    """The enemy's attack number becomes damage to the hand (F-R11: cycled at the end of the round by default)."""
    battle = ctx.game.battle
    assert battle is not None
    enemy.acted = True
    if ctx.settings.damage_timing == "immediate":
        return [f"{enemy.name} attacks for {enemy.attack}: " + damage(ctx, enemy.attack)]
    battle.pending_damage += enemy.attack
    return [f"{enemy.name} attacks for {enemy.attack}: {enemy.attack} card(s) of damage at the end of the round."]


def damage(ctx: Ctx, amount: int) -> str:
    """L616: cycle that many hand cards chosen at random (the table's RNG), named; F-R12: no more than the hand."""
    hand = ctx.game.hand
    count = min(amount, len(hand))
    ctx.damage_drawn = True
    if ctx.gm_damage is not None:
        picked = [exact(hand, name) for name in ctx.gm_damage]
        if None in picked or len(set(picked)) != len(picked) or len(picked) != count:
            raise RuleError(
                f"The damage takes {count} hand card(s): name exactly {count} different ones from the "
                f"hand ({', '.join(hand) or 'empty'}), or leave damage out for a random pick."
            )
        how = "cycled, as the GM drew them"
    else:
        picked = ctx.table.rng.sample(hand, count) if count else []
        how = "cycled at random"
    cycle(ctx.game, picked)  # type: ignore[arg-type]
    # cites F-R12
    lost = f" ({amount - count} more than the hand holds; the excess is lost)" if amount > count else ""
    return f"{how}: {', '.join(picked)}{lost}." if picked else f"the hand is empty{lost}."  # type: ignore[arg-type]


def _enemy(battle: Battle, name: str | None) -> EnemyState:
    alive = [e for e in battle.enemies if not e.defeated]
    if not name:
        if len(alive) == 1:
            return alive[0]
        raise RuleError(f"Name the enemy: {', '.join(e.name for e in alive)}.")
    found = next((e for e in alive if fold(e.name) == fold(name)), None)
    if found is None:
        raise RuleError(f"{name!r} is not an undefeated enemy in this battle: {', '.join(e.name for e in alive)}.")
    return found


def _in_battle(ctx: Ctx):
    battle = ctx.game.battle
    if ctx.game.step != 9 or battle is None:
        raise RuleError(
            f"There is no battle. Turn {ctx.game.turn} is at step {ctx.game.step}; it expects {expects(ctx)}."
        )
    return battle


def _hero_can_act(ctx: Ctx, battle: Battle, hero_name: str | None):
    hero = find_hero(ctx, hero_name)
    if hero.name in battle.used:
        raise RuleError(
            f"{hero.name} already used {battle.used[hero.name]} this round: one item per hero per "
            "battle round (item lock)."
        )
    if hero.name in battle.passed:
        raise RuleError(f"{hero.name} already passed this round.")
    return hero


def attack(
    ctx: Ctx,
    hero_name: str | None,
    item_name: str | None,
    enemy_name: str | None,
    value: int | None,
    song_name: str | None = None,
) -> list[str]:
    """One hero uses one attached, face-up item (or a spell-song) on one enemy; attacks add up (L622)."""
    battle = _in_battle(ctx)
    hero = _hero_can_act(ctx, battle, hero_name)
    if not item_name and not song_name:
        raise RuleError("Name the item (item:<item>) or the spell-song (song:<song>) the hero attacks with.")
    item = None
    if item_name:
        item = next((i for i in hero.items if fold(i.name) == fold(item_name)), None)
        if item is None:
            held = ", ".join(i.name for i in hero.items) or "none"
            raise RuleError(f"{item_name!r} is not attached to {hero.name}. Items: {held}.")
    song = _song(ctx, hero, item, song_name) if song_name else None
    if song is not None and item is None:
        item = next((i for i in hero.items if song.name in i.songs), None)
    if item is not None and not item.face_up:
        raise RuleError(f"{item.name} is face-down (already used); it resets at the end of the round.")
    card = song or ctx.card(item.name)  # type: ignore[union-attr]
    if card.attack is not None and value is not None and value != card.attack:
        raise RuleError(f"{card.name} prints attack {card.attack}; leave value out (a GM corrects the catalog).")
    number = card.attack if card.attack is not None else value
    if number is None:
        # cites F-R25
        raise RuleError(f"{card.name} prints no attack number: declare it with value:<n>; a GM may correct it.")
    enemy = _enemy(battle, enemy_name)
    used = card.name
    if item is not None:
        item.face_up = False
        used = item.name + (f" with {song.name}" if song else "")
    battle.used[hero.name] = used
    enemy.hits += number
    # cites F-R25
    declared = "" if card.attack is not None else " (declared)"
    note = (
        f"{hero.name} uses {used}: attack {number}{declared} on {enemy.name}, total {enemy.hits} vs armor {enemy.armor}"
    )
    if enemy.hits > enemy.armor:
        enemy.defeated = True
        note += f": {enemy.name} is DEFEATED."
    else:
        note += ": not greater than the armor."
    if song is not None and item is None:  # played for free from hand or action pile, then cycled (F-R16)
        cycle(ctx.game, [song.name])
        note += f" {song.name} is cycled."
    battle.history.append(note)
    return [note, *_after_hero(ctx)]


def _song(ctx: Ctx, hero: HeroState, item: ItemState | None, name: str) -> CardDef:
    """A spell-song attached to one of the hero's items, or acknowledged in hand or the action pile (F-R16)."""
    card = ctx.card(name)
    if card.type != "spell-song":
        raise RuleError(f"{card.name} is a {card.type}, not a spell-song.")
    holders = [i for i in hero.items if card.name in i.songs]
    if item is not None:
        if item not in holders:
            raise RuleError(f"{card.name} is not attached to {item.name}.")
        return card
    if holders:
        return card
    in_reach = exact(ctx.game.hand, card.name) or any(fold(a.name) == fold(card.name) for a in ctx.game.action)
    if not in_reach:
        raise RuleError(f"{card.name} is not in hand, the action pile, or attached to {hero.name}'s items.")
    if not acknowledged(ctx, card):
        raise RuleError(f"{card.name} is ignored ({ack_text(ctx, card)}): a spell-song must be acknowledged.")
    return card


def pass_round(ctx: Ctx, hero_name: str | None) -> list[str]:
    battle = _in_battle(ctx)
    hero = _hero_can_act(ctx, battle, hero_name)
    battle.passed.append(hero.name)
    return [f"{hero.name} passes this round.", *_after_hero(ctx)]


def _after_hero(ctx: Ctx) -> list[str]:
    battle = ctx.game.battle
    assert battle is not None
    if all(e.defeated for e in battle.enemies):
        return end_round(ctx)
    if all(h.name in battle.used or h.name in battle.passed for h in ctx.game.heroes):
        notes = []
        for enemy in battle.enemies:
            if not enemy.defeated and not enemy.acted:
                notes.extend(enemy_attacks(ctx, enemy))
        return notes + end_round(ctx)
    waiting = [h.name for h in ctx.game.heroes if h.name not in battle.used and h.name not in battle.passed]
    return [f"Waiting for: {', '.join(waiting)}."]


def end_round(ctx: Ctx) -> list[str]:
    """L630-638: damage cycled, face-down items reset, armor reset; then the next round or prize & penalty."""
    game = ctx.game
    battle = game.battle
    assert battle is not None
    notes = [f"End of round {battle.round}."]
    if battle.pending_damage:
        notes.append(f"Damage {battle.pending_damage}: " + damage(ctx, battle.pending_damage))
        battle.pending_damage = 0
    for hero in game.heroes:
        for item in hero.items:
            item.face_up = True
    for enemy in battle.enemies:
        enemy.hits, enemy.acted = 0, False
    battle.used, battle.passed = {}, []
    if all(e.defeated for e in battle.enemies) or battle.round >= battle.rounds_total:
        return notes + prize_and_penalty(ctx)
    battle.round += 1
    return notes + start_round(ctx)


def prize_and_penalty(ctx: Ctx) -> list[str]:
    """L644-649: defeated enemies move to hand, undefeated ones are cycled; printed prizes/penalties are shown."""
    game = ctx.game
    battle = game.battle
    assert battle is not None
    notes = ["Prize & penalty:"]
    for enemy in battle.enemies:
        card = ctx.card(enemy.name)
        action = next((a for a in game.action if fold(a.name) == fold(enemy.name)), None)
        if action is not None:
            game.action.remove(action)
        if enemy.defeated:
            game.hand.append(enemy.name)
            notes.append(
                f"{enemy.name} was defeated: it moves to hand." + (f" Prize: {card.prize}" if card.prize else "")
            )
        else:
            game.deck.append(enemy.name)
            notes.append(
                f"{enemy.name} was not defeated: it is cycled." + (f" Penalty: {card.penalty}" if card.penalty else "")
            )
    game.battle = None
    game.step = 10
    notes.append(end_prompt(ctx))
    return notes
