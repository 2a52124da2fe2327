"""The round: initiative, maintenance, spell preparation, then actions (glossary "Round").

Initiative: one Resonance roll for the table (RULING 9) with Encounter bonuses,
the initiative order (RULING 10), then Discord and Harmony checks (RULING 8).
Maintenance resolves Attack, Defense, Curse and Enhancement zones in that order
(global spells first, then team spells, then each Magi's own in initiative
order), paying sustain costs or letting spells go, impacting and counting down;
the victory check follows. Preparation readies up to three spells and
re-attunes discards.
"""

from __future__ import annotations

from rules.base import RuleError
from rules.serpent.context import Ctx
from rules.serpent.control import haste_bonus
from rules.serpent.energy import after_change, discard, energy_line, gain, lose, shortfall
from rules.serpent.impact import tick
from rules.serpent.magi import split_variant
from rules.serpent.requirements import sustain_problem
from rules.serpent.state import ZONE_ORDER, Being, CardState, Effect
from rules.text import fold


def start_round(ctx: Ctx, resonance: int | None, rolloff: list[str]) -> None:
    b = ctx.battle
    if b.round:
        end_round(ctx)
    b.round += 1
    ctx.j.say(f"**Round {b.round}: Initiative phase**", "round", round=b.round)
    resonance_phase(ctx, resonance)
    b.order = initiative(ctx, rolloff)
    ctx.j.say(
        "Initiative: " + " → ".join(ctx.name(k) for k in b.order) + ".",
        "initiative",
        order=[ctx.name(k) for k in b.order],
    )
    threshold_events(ctx)
    b.phase = "maintenance"
    b.queue = maintenance_queue(ctx)
    ctx.j.say(
        f"**Maintenance phase**: {len(b.queue)} spell(s) to resolve."
        if b.queue
        else "**Maintenance phase**: nothing in play to resolve."
    )


def unprepare_leftovers(ctx: Ctx) -> None:
    """At the round's end, prepared spells never cast go back to the Codex (which ones stays secret)."""
    for being in ctx.battle.beings.values():
        left = ctx.battle.cards_in("prepared", being.key)
        for card in left:
            card.location = "codex"
        if left:
            ctx.j.say(
                f"{being.name}'s {len(left)} prepared spell(s) never cast return to the Codex.",
                "unprepare",
                magi=being.name,
                count=len(left),
            )


def end_round(ctx: Ctx) -> None:
    """Unprepare what was not cast and reset every per-round allowance."""
    b = ctx.battle
    unprepare_leftovers(ctx)
    for card in b.cards.values():
        card.ability_uses = {}
    for being in b.beings.values():
        being.full_actions = being.actions_per_round + haste_bonus(ctx, being)
        being.exchanged = False
        being.spec_upgraded = False
        being.passed = being.incapacitated
        being.ready = False
        being.reattuned_other = False
        being.miscast_titles = []
    b.turn = None


def resonance_phase(ctx: Ctx, value: int | None) -> None:
    b = ctx.battle
    roll = ctx.resonance_roll(value)
    b.last_resonance = roll.die
    supplied = " (GM-supplied)" if value is not None else ""
    overload = " — **Resonance Overload**" if roll.overload else ""
    ctx.j.say(
        f"🎲 Resonance roll: **{roll.die}**{supplied} → {roll.gain} Resonance each{overload}.",
        "resonance",
        die=roll.die,
        gain=roll.gain,
        overload=roll.overload,
        supplied=value is not None,
    )
    for being in b.beings.values():
        if being.incapacitated:
            continue
        amount = roll.gain
        bonus = ""
        if being.encounter:
            extra = encounter_bonus(ctx, being)
            amount += extra
            bonus = f" (+{extra} Encounter bonus)"
        got = gain(ctx, being, "Resonance", amount, "Resonance roll")
        ctx.j.say(f"{being.name} gains {got} Resonance{bonus} → {being.resonance}.")
        if roll.overload and being.harmony is not None and not ctx.settings.basic_play:
            lose(ctx, being, "Harmony", 1, "Resonance Overload", check=False)
            ctx.j.say(f"{being.name} loses 1 Harmony to the Overload → {being.harmony}.")
            after_change(ctx, being, "Resonance Overload")
    if roll.overload and ctx.settings.basic_play:
        ctx.j.say("Basic play: the Overload costs no Harmony.")


def encounter_bonus(ctx: Ctx, being: Being) -> int:
    enc = ctx.book.encounter(being.encounter.name) if being.encounter else None
    if enc is None:
        return 0
    return enc.resonance_bonus + enc.resonance_bonus_per_extra * (being.encounter.scaled_for if being.encounter else 0)


def initiative(ctx: Ctx, rolloff: list[str]) -> list[str]:
    """RULING 10: Harmony, then Resonance, Will, Essence, then a roll-off; basic play: Resonance, then Essence."""
    b = ctx.battle
    able = [x for x in b.beings.values() if not x.incapacitated]

    def key(x: Being) -> tuple[int, ...]:
        if ctx.settings.basic_play:
            return (x.resonance, x.essence)
        return (x.harmony or 0, x.resonance, x.will, x.essence)

    groups: dict[tuple[int, ...], list[Being]] = {}
    for being in able:
        groups.setdefault(key(being), []).append(being)
    order: list[str] = []
    for k in sorted(groups, reverse=True):
        order.extend(x.key for x in roll_off(ctx, groups[k], rolloff))
    return order


def roll_off(ctx: Ctx, tied: list[Being], rolloff: list[str]) -> list[Being]:
    """Ties: the GM's stated roll-off winners first, in order; the rest roll d10s (again on a tie)."""
    if len(tied) == 1:
        return tied
    named = [x for name in rolloff for x in tied if x.name.casefold() == name.casefold()]
    rest = [x for x in tied if x not in named]
    if named:
        ctx.j.say("Roll-off (GM-supplied): " + " before ".join(x.name for x in named) + ".")
    return named + dice_off(ctx, rest, "initiative roll-off")


def dice_off(ctx: Ctx, tied: list[Being], why: str) -> list[Being]:
    if len(tied) <= 1:
        return tied
    rolls = {x.key: ctx.d10(f"{why}: {x.name}") for x in tied}
    ctx.j.say(
        f"🎲 {why.capitalize()}: " + ", ".join(f"{x.name} {rolls[x.key]}" for x in tied) + ".",
        "rolloff",
        rolls={x.name: rolls[x.key] for x in tied},
    )
    ordered: list[Being] = []
    for value in sorted(set(rolls.values()), reverse=True):
        same = [x for x in tied if rolls[x.key] == value]
        ordered.extend(dice_off(ctx, same, why) if len(same) > 1 else same)
    return ordered


def threshold_events(ctx: Ctx) -> None:
    """RULING 8: each Magi at 7+ Discord or 7+ Harmony rolls 2d10; under the level is an event."""
    for key in ctx.battle.order:
        being = ctx.being(key)
        if being.harmony is None or being.incapacitated:
            continue
        roll = ctx.threshold_roll(being)
        if not roll.owed:
            continue
        name = roll.kind.capitalize()
        dice = " + ".join(str(d) for d in roll.dice)
        verdict = "less" if roll.event else "not less"
        line = f"🎲 {name} check for {being.name} ({roll.level} {name}): {dice} = {roll.total}, "
        line += f"{verdict} than {roll.level}"
        if roll.event and roll.kind == "discord":
            ctx.j.say(
                line + f" → **Discord Event**: {ctx.settings.discord_event_essence} unblockable Essence Dmg.",
                "discord",
                being=being.name,
                dice=roll.dice,
                total=roll.total,
                event=True,
            )
            lose(ctx, being, "Essence", ctx.settings.discord_event_essence, "Discord Event", check=False)
            ctx.j.say(f"{being.name}'s Essence is now {being.essence}.")
            after_change(ctx, being, "a Discord Event")
        elif roll.event:
            ctx.j.say(
                line + " → **Harmony Event**: gains 1 Will.",
                "harmony",
                being=being.name,
                dice=roll.dice,
                total=roll.total,
                event=True,
            )
            gain(ctx, being, "Will", 1, "Harmony Event")
        else:
            ctx.j.say(line + ": no event.", roll.kind, being=being.name, dice=roll.dice, total=roll.total, event=False)


# ---------------------------------------------------------------- maintenance


def maintenance_queue(ctx: Ctx) -> list[int]:
    """Zone by zone; within a zone global spells, then team spells, then each being's own, in initiative order."""
    b = ctx.battle
    rank = {key: i for i, key in enumerate(b.order)}
    team_rank = {team: min((rank.get(m.key, 99) for m in b.team_members(team)), default=99) for team in b.teams()}
    out: list[int] = []
    for zone in ZONE_ORDER:
        cards = [c for c in b.in_play() if c.zone == zone]

        def order(card: CardState) -> tuple[int, int, int]:
            if card.global_area:
                return (0, 0, card.order)
            if card.team is not None:
                return (1, team_rank.get(card.team, 99), card.order)
            return (2, rank.get(card.bearer or "", 99), card.order)

        out.extend(c.id for c in sorted(cards, key=order))
    return out


def resolve_step(ctx: Ctx, card_id: int) -> None:
    """Resolve one spell: sustain (or let go), impact (through a response window), count down."""
    card = ctx.battle.cards.get(card_id)
    if card is None or card.location != "play":
        return
    spell = ctx.spell(card.title)
    controller = ctx.being(card.controller or card.owner)
    where = f"{card.zone} zone of {ctx.name(card.bearer) if card.bearer else 'team ' + (card.team or '?')}"
    if card.let_go:
        discard(ctx, card, f"{controller.name} chose not to sustain it")
        return
    if spell.sustain:
        problem = "incapacitated" if controller.incapacitated else shortfall(controller, spell.sustain)
        if problem:
            discard(ctx, card, f"{controller.name} cannot pay its sustain cost ({problem})")
            return
        for energy, amount in spell.sustain.items():
            lose(ctx, controller, energy, amount, f"sustaining {card.title}")
        cost = ", ".join(f"{v} {k}" for k, v in spell.sustain.items())
        ctx.j.say(f"{controller.name} pays {cost} to sustain {card.title} ({where}).", "sustain", card=card.id)
    problem = sustain_problem(ctx, card, spell)
    if problem:
        discard(ctx, card, f"its sustain requirement fails: {problem}")
        return
    if impacts_in_maintenance(ctx, card) and not card.dormant:  # a Dormant spell pays, counts down, does nothing
        ctx.battle.stack.append(
            Effect(
                id=ctx.battle.new_id(),
                title=card.title,
                kind="maintenance",
                card=card.id,
                caster=controller.key,
                target_kind="being" if card.bearer else "global" if card.global_area else "team",
                target=card.bearer or card.team or ("all" if card.global_area else None),
                is_spell=False,
                offensive=card.zone == "attack",
                veiled=spell.veiled,
            )
        )
        ctx.j.say(f"{card.title} resolves in the {where}.", "resolve", card=card.id)
        return
    tick(ctx, card)


def impacts_in_maintenance(ctx: Ctx, card: CardState) -> bool:
    """Directives impact again each maintenance; passive spells only count down."""
    spell = ctx.spell(card.title)
    if card.zone == "defense":
        return False
    return bool(spell.dmg or spell.infusion or spell.siphon or spell.disrupt or spell.shed_discord or spell.slow)


def finish_maintenance(ctx: Ctx) -> None:
    """After every zone: the victory check, then spell preparation."""
    b = ctx.battle
    # RULING: a Koishaka alone does not keep its team in the battle (it acts for its controller)
    standing = [t for t in b.teams() if any(not x.incapacitated and x.kind != "koishaka" for x in b.team_members(t))]
    if len(standing) <= 1:
        b.phase = "over"
        b.winner = standing[0] if standing else "draw"
        result = f"team **{b.winner}** wins" if standing else "a draw: every team is incapacitated"
        ctx.j.say(f"🏁 Victory check: {result}.", "victory", winner=b.winner)
        return
    b.phase = "preparation"
    for being in b.beings.values():
        being.ready = being.kind != "magi" or being.incapacitated
    waiting = ", ".join(x.name for x in b.beings.values() if not x.ready)
    ctx.j.say(
        f"Victory check: the battle goes on. **Spell preparation**: {waiting} "
        f"prepare up to {ctx.book.rules.max_prepared} spells.",
        "preparation",
    )


def start_actions(ctx: Ctx) -> None:
    b = ctx.battle
    b.phase = "actions"
    b.turn = 0 if b.order else None
    summary = "; ".join(f"{x.name}: {energy_line(x)}" for x in (ctx.being(k) for k in b.order))
    ctx.j.say(f"**Action phase** in initiative order. {summary}.", "actions")


# ---------------------------------------------------------------- preparation


def prepare(ctx: Ctx, magi: Being, titles: list[str]) -> list[str]:
    b = ctx.battle
    if b.phase != "preparation":
        raise RuleError(f"Spells are prepared in the spell preparation phase; the battle is in the {b.phase} phase.")
    if magi.incapacitated:
        raise RuleError(f"{magi.name} is incapacitated and prepares nothing.")
    limit = ctx.book.rules.max_prepared
    if len(titles) > limit:
        raise RuleError(f"A Magi prepares at most {limit} spells; you named {len(titles)}.")
    for card in b.cards_in("prepared", magi.key):
        card.location = "codex"
    chosen: list[str] = []
    for entry in titles:
        title, fluency = split_variant(entry)  # "Fireball@3": that copy (glossary "Fluency Level")
        spell = ctx.spell(title)
        card = next(
            (
                c
                for c in b.cards_in("codex", magi.key)
                if c.title == spell.title and (fluency is None or (c.fluency or spell.fluency) == fluency)
            ),
            None,
        )
        if card is None:
            where = (
                "discard pile (re-attune it first)"
                if b.cards_in("discard", magi.key)
                and any(c.title == spell.title for c in b.cards_in("discard", magi.key))
                else "Codex"
            )
            raise RuleError(
                f"{magi.name} has no {spell.title} left in their Codex to prepare; it is not in the {where}."
            )
        if spell.role == "Nam-Shub":
            raise RuleError(f"{spell.title} is a Nam-Shub: begin it with /serpent nam-shub; it is not prepared.")
        card.location = "prepared"
        chosen.append(f"{spell.title}@{card.fluency}" if card.fluency else spell.title)
    magi.ready = True
    return chosen


def reattune(ctx: Ctx, magi: Being, titles: list[str]) -> int:
    """Bonded spells cost 1 Resonance each without limit; one other spell a round costs 1 + fluency."""
    b = ctx.battle
    if b.phase != "preparation":
        raise RuleError(f"Spells are re-attuned only during spell preparation; the battle is in the {b.phase} phase.")
    total = 0
    picked: list[CardState] = []
    other = magi.reattuned_other
    foci = 0
    for title in titles:
        if fold(title) in ("focus", "burned focus"):
            # glossary "Burn Focus": "An unlimited number of Burned Foci may be re-attuned ... 1 Resonance for each"
            foci += 1
            if foci > magi.burned_focus:
                raise RuleError(f"{magi.name} has {magi.burned_focus} burned Focus to re-attune.")
            total += 1
            continue
        spell = ctx.spell(title)
        card = next((c for c in b.cards_in("discard", magi.key) if c.title == spell.title and c not in picked), None)
        if card is None:
            raise RuleError(f"{magi.name} has no {spell.title} in their discard pile to re-attune.")
        if spell.bonded:
            total += ctx.book.rules.reattune_bonded_cost
        else:
            if other:
                raise RuleError(f"Only one non-Bonded spell may be re-attuned per round; {spell.title} is not Bonded.")
            fluency = card.fluency or spell.fluency
            if fluency is None:
                raise RuleError(
                    f"The book does not give {spell.title}'s fluency; a GM sets it with /serpent spell define."
                )
            total += 1 + fluency
            other = True
        picked.append(card)
    if magi.resonance < total:
        raise RuleError(
            f"Re-attuning {', '.join(c.title for c in picked)} costs {total} Resonance; "
            f"{magi.name} has {magi.resonance}."
        )
    magi.resonance -= total
    magi.reattuned_other = other
    magi.burned_focus -= foci
    magi.focus_total += foci
    for card in picked:
        card.location = "codex"
    return total
