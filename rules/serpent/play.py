"""The Magi's own actions: prepare, re-attune, cast, respond and the innate actions.

Each runner checks who may act and when, then changes the battle through the
rules modules; ``with_battle`` commits only if nothing was refused.
"""

from __future__ import annotations

from rules.base import Card, Outcome, RuleError, Table
from rules.serpent import namshub
from rules.serpent.artifacts import artifact_card
from rules.serpent.aspects import bearers
from rules.serpent.casting import CastRequest, cast, find_being, find_card_in_play, respond, tier_costs, use_ability
from rules.serpent.context import Ctx
from rules.serpent.energy import LEAVING, discard, energy_line, gain, lose
from rules.serpent.magi import parse_spell_list
from rules.serpent.options import (
    CastOptions,
    DismissOptions,
    ExchangeOptions,
    FocusOptions,
    LoseOptions,
    MagiOnlyOptions,
    NamShubOptions,
    OrderOptions,
    PledgeOptions,
    PrepareOptions,
    ReattuneOptions,
    RespondOptions,
    SpecOptions,
    SustainOptions,
    UseOptions,
)
from rules.serpent.rounds import prepare, reattune
from rules.serpent.runner import magi_in_battle, with_battle
from rules.serpent.state import Being, CardState, Pledge
from rules.serpent.turns import next_turn, require_full_action, require_turn, spend_full_action, window_waiting
from rules.serpent.zones import order_zone
from rules.text import fold


def _upgrades(text: str | None) -> tuple[str, ...]:
    return tuple(u.strip() for u in (text or "").split(",") if u.strip())


def run_prepare(table: Table, opts: PrepareOptions) -> Outcome:
    titles: list[str] = []

    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        titles.extend(prepare(ctx, magi, parse_spell_list(opts.spells)))
        ctx.j.say(f"{magi.name} has prepared {len(titles)} spell(s).", "prepare", magi=magi.name, count=len(titles))
        return f"{magi.name} prepares {len(titles)} spell(s)"

    out = with_battle(table, "prepare", run, extra=lambda ctx: {"private": {"prepared": titles}})
    listed = Card(title="Prepared spells", description=", ".join(titles) or "nothing", tone="secret")
    out.secret = listed  # to the GM; the player sees the same list, ephemerally: the channel only how many
    out.private = listed
    out.private_summary = f"prepared {', '.join(titles) or 'nothing'}"
    return out


def run_reattune(table: Table, opts: ReattuneOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        names = parse_spell_list(opts.spells)
        cost = reattune(ctx, magi, names)
        ctx.j.say(
            f"{magi.name} re-attunes {', '.join(names)} for {cost} Resonance (Resonance {magi.resonance}).",
            "reattune",
            magi=magi.name,
            spells=names,
            cost=cost,
        )
        return f"{magi.name} re-attunes {', '.join(names)}"

    return with_battle(table, "reattune", run)


def _request(opts: CastOptions | RespondOptions) -> CastRequest:
    return CastRequest(
        spell=opts.spell or "",
        target=opts.target,
        upgrades=_upgrades(opts.upgrade),
        upgrade_with=opts.upgrade_with,
        tiers=getattr(opts, "tiers", 0),
        tiers_with_will=getattr(opts, "tiers_with", "harmony") == "will",
        component=getattr(opts, "component", None),
        intone=opts.intone,
        replace=getattr(opts, "replace", None),
    )


def run_cast(table: Table, opts: CastOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        cast(ctx, magi, _request(opts))
        return f"{magi.name} casts {ctx.spell(opts.spell).title}"

    return with_battle(table, "cast", run)


def run_respond(table: Table, opts: RespondOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        if not opts.spell:
            return pass_window(ctx, magi.key)
        respond(ctx, magi, _request(opts))
        return f"{magi.name} responds with {ctx.spell(opts.spell).title} (Fasul!)"

    return with_battle(table, "respond", run)


def pass_window(ctx: Ctx, key: str) -> str:
    b = ctx.battle
    if not b.stack:
        raise RuleError("No response window is open.")
    top = b.stack[-1]
    if key not in window_waiting(ctx, top):
        raise RuleError(f"{ctx.name(key)} has no Response to make to {top.title}; the window is not waiting for them.")
    top.passed.append(key)
    if key == top.caster and not top.priority_over:
        top.priority_over = True
        top.opened_at = None  # the others' race starts now, with the full time (ruling 19)
    ctx.j.say(f"{ctx.name(key)} passes on {top.title}'s response window.", "window_pass", magi=ctx.name(key))
    return f"{ctx.name(key)} passes on {top.title}"


def run_meditate(table: Table, opts: MagiOnlyOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = acting_being(ctx, table, opts.magi)
        require_turn(ctx, magi, "Meditating")
        require_full_action(magi)
        gains = ctx.book.rules.meditate
        got = gain(ctx, magi, "Resonance", gains.get("Resonance", 0), "Meditate")
        harmony = 0
        if not ctx.settings.basic_play:
            harmony = gain(ctx, magi, "Harmony", gains.get("Harmony", 0), "Meditate")
        spend_full_action(ctx, magi)
        extra = (
            f" and {harmony} Harmony" if harmony else (" (basic play: no Harmony)" if ctx.settings.basic_play else "")
        )
        ctx.j.say(
            f"🧘 {magi.name} meditates: gains {got} Resonance{extra}. Now {energy_line(magi)}.",
            "meditate",
            magi=magi.name,
        )
        next_turn(ctx)
        return f"{magi.name} meditates"

    return with_battle(table, "meditate", run)


def run_exchange(table: Table, opts: ExchangeOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        b = ctx.battle
        if b.phase in ("setup", "over"):
            raise RuleError("Energy exchanges happen during a battle round.")
        if magi.incapacitated:
            raise RuleError(f"{magi.name} is incapacitated and cannot exchange energy.")
        if magi.exchanged:
            raise RuleError(f"{magi.name} has already made this round's energy exchange (one per round).")
        option = next((o for o in ctx.book.rules.exchanges if o.give == opts.give), None)
        if option is None or opts.gain not in option.gains:
            offers = "; ".join(
                f"{o.amount} {o.give} for " + " or ".join(f"{v} {k}" for k, v in o.gains.items())
                for o in ctx.book.rules.exchanges
            )
            raise RuleError(f"That exchange is not allowed. Exchanges: {offers}.")
        held = magi.will if opts.give == "Will" else magi.voice
        if held < option.amount:
            raise RuleError(f"Exchanging needs {option.amount} {opts.give}; {magi.name} has {held}.")
        if opts.give == "Will":
            magi.will -= option.amount
        else:
            magi.voice -= option.amount
        got = gain(ctx, magi, opts.gain, option.gains[opts.gain], "energy exchange")
        magi.exchanged = True
        ctx.j.say(
            f"🔄 {magi.name} exchanges {option.amount} {opts.give} for {got} {opts.gain}. Now {energy_line(magi)}.",
            "exchange",
            magi=magi.name,
        )
        return f"{magi.name} exchanges {opts.give} for {opts.gain}"

    return with_battle(table, "exchange", run)


def run_shed_stone(table: Table, opts: MagiOnlyOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        require_turn(ctx, magi, "Shedding an interrupt stone")
        if not magi.stones:
            raise RuleError(f"{magi.name} holds no interrupt stone.")
        if magi.full_actions <= 0:
            raise RuleError(f"Shedding a stone takes a Full Action and {magi.name} has none left this round.")
        magi.stones -= 1
        spend_full_action(ctx, magi)
        ctx.j.say(
            f"{magi.name} spends a Full Action to shed an interrupt stone ({magi.stones} left).", "shed", magi=magi.name
        )
        next_turn(ctx)
        return f"{magi.name} sheds an interrupt stone"

    return with_battle(table, "shed-stone", run)


def run_dismiss(table: Table, opts: DismissOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        require_turn(ctx, magi, "Dismissing")
        what = opts.spell.strip().casefold()
        if what in ("specialization", "spec") and magi.spec_active:
            magi.spec_active = False
            ctx.j.say(f"{magi.name} dismisses their Specialization {magi.spec} (a Free Action).", "dismiss")
        elif what == "artifact" and magi.artifact_active:
            card = artifact_card(ctx, magi, magi.artifact or "")
            if card is not None and ctx.spell(card.title).vowed:
                raise RuleError(f'{card.title} is Vowed: its controller cannot dismiss it (glossary "Vowed").')
            magi.artifact_active = False
            if card is not None:
                discard(ctx, card, f"{magi.name} dismisses their Artifact")
            ctx.j.say(f"{magi.name} dismisses their Artifact {magi.artifact} (a Free Action).", "dismiss")
        else:
            dismiss_spell(ctx, magi, opts.spell)
        next_turn(ctx)
        return f"{magi.name} dismisses {opts.spell}"

    return with_battle(table, "dismiss", run)


def run_focus(table: Table, opts: FocusOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        focused = [c for c in ctx.battle.in_play() if c.focus is not None]
        card = find_card_in_play(ctx, opts.spell, focused)
        if opts.release:
            if card.focus != magi.key:
                raise RuleError(f"{magi.name}'s Focus is not on {card.title}.")
            card.focus = None
            discard(ctx, card, f"{magi.name} removes their Focus")
            return f"{magi.name} releases Focus on {card.title}"
        require_turn(ctx, magi, "Swapping Focus")
        holder = ctx.being(card.focus or "")
        if holder.key == magi.key:
            raise RuleError(f"{magi.name}'s Focus is already on {card.title}.")
        if holder.team != magi.team:
            raise RuleError("You may only swap your Focus onto an ally's spell.")
        for other in ctx.battle.in_play():
            if other.focus == magi.key:
                other.focus = None
                discard(ctx, other, f"{magi.name}'s Focus moves to {card.title}")
        card.focus = magi.key
        card.controller = magi.key
        ctx.j.say(
            f"{magi.name} swaps Focus onto {card.title}, freeing {holder.name}'s, and now controls it (a Free Action).",
            "focus",
        )
        next_turn(ctx)
        return f"{magi.name} swaps Focus onto {card.title}"

    return with_battle(table, "focus", run)


def run_spec(table: Table, opts: SpecOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        require_turn(ctx, magi, "Upgrading a Specialization")
        spec = ctx.book.specialization(magi.spec or "")
        if spec is None or not magi.spec_active:
            raise RuleError(f"{magi.name} has no active Specialization.")
        if magi.spec_upgraded:
            raise RuleError("A Specialization may be upgraded by one tier per round.")
        level = 2 if f"{opts.tree}1" in magi.spec_tiers else 1
        if f"{opts.tree}{level}" in magi.spec_tiers:
            raise RuleError(f"Tree {opts.tree} is fully unlocked.")
        tier = spec.tier(opts.tree, level)
        if tier is None or tier.cost is None:
            raise RuleError(
                f"The book does not describe {spec.name}'s tree {opts.tree} tier {level}, "
                "so it cannot be unlocked here."
            )
        voice = min(opts.voice, tier.cost)
        if magi.voice < voice:
            raise RuleError(f"{magi.name} has {magi.voice} Voice, not {voice}.")
        if magi.resonance < tier.cost - voice:
            raise RuleError(
                f"{tier.name} costs {tier.cost} (Resonance, or Voice 1-for-1); "
                f"{magi.name} has {magi.resonance} Resonance and offers {voice} Voice."
            )
        magi.voice -= voice
        magi.resonance -= tier.cost - voice
        magi.spec_tiers.append(f"{opts.tree}{level}")
        magi.spec_upgraded = True
        ctx.j.say(
            f"📜 {magi.name} unlocks {spec.name} tree {opts.tree} tier {level}, **{tier.name}** "
            f"({tier.cost - voice} Resonance, {voice} Voice): {tier.text}",
            "spec",
            magi=magi.name,
            tier=f"{opts.tree}{level}",
        )
        next_turn(ctx)
        return f"{magi.name} unlocks {tier.name}"

    return with_battle(table, "spec", run)


def run_pass(table: Table, opts: MagiOnlyOptions) -> Outcome:
    """Pass a response window, and only that: a second /serpent pass can never end a turn by accident."""

    def run(ctx: Ctx) -> str:
        magi = acting_being(ctx, table, opts.magi)
        b = ctx.battle
        if not b.stack:
            raise RuleError(
                f"No response window is open, so there is nothing for {magi.name} to pass. "
                "To end your turns for this round, use /serpent end-turn."
            )
        if magi.key not in window_waiting(ctx, b.stack[-1]):
            raise RuleError(
                f"The window on {b.stack[-1].title} is not waiting for {magi.name} (no Response to make, or "
                "already passed). To end your turns for this round, use /serpent end-turn once it closes."
            )
        return pass_window(ctx, magi.key)

    return with_battle(table, "pass", run)


def run_end_turn(table: Table, opts: MagiOnlyOptions) -> Outcome:
    """The book's Pass in the action phase: this being takes no more turns this round."""

    def run(ctx: Ctx) -> str:
        magi = acting_being(ctx, table, opts.magi)
        require_turn(ctx, magi, "Ending your turns")
        magi.passed = True
        ctx.j.say(f"{magi.name} passes for the rest of the round.", "pass", being=magi.name, auto=False)
        next_turn(ctx)
        return f"{magi.name} passes"

    return with_battle(table, "end-turn", run)


def run_use(table: Table, opts: UseOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = acting_being(ctx, table, opts.magi)
        use_ability(ctx, magi, opts.ability, opts.target)
        return f"{magi.name} uses {opts.ability}"

    return with_battle(table, "use", run)


def run_sustain(table: Table, opts: SustainOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        mine = [c for c in ctx.battle.in_play() if c.controller == magi.key]
        card = find_card_in_play(ctx, opts.spell, mine)
        card.let_go = not opts.keep
        verb = "will sustain" if opts.keep else "will let go of"
        ctx.j.say(f"{magi.name} {verb} {card.title} at the next maintenance.", "sustain", card=card.id, keep=opts.keep)
        return f"{magi.name} {verb} {card.title}"

    return with_battle(table, "sustain", run)


def run_order(table: Table, opts: OrderOptions) -> Outcome:
    """The zone's owner orders its spells: Shields before each impact, resolution within a zone."""

    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        return order_zone(ctx, magi, opts.spells)

    return with_battle(table, "order", run)


def dismiss_spell(ctx: Ctx, magi: Being, name: str) -> CardState:
    """Dismiss a spell you control (not a Vowed one), or exercise a spell's Will break as its bearer."""
    breakable = [
        c
        for c in ctx.battle.in_play()
        if ctx.spell(c.title).will_break is not None and magi.key in bearers(ctx, c) + c.affected
    ]
    mine = [c for c in ctx.battle.in_play() if c.controller == magi.key]
    card = find_card_in_play(ctx, name, mine + [c for c in breakable if c not in mine])
    spell = ctx.spell(card.title)
    if card in breakable and (card.controller != magi.key or spell.vowed):
        cost = spell.will_break or 0
        if magi.will < cost:
            raise RuleError(f"{card.title}'s Will break costs {cost} Will; {magi.name} has {magi.will}.")
        lose(ctx, magi, "Will", cost, f"the Will break of {card.title}")
        discard(ctx, card, f'{magi.name} breaks it with {cost} Will (glossary "Will Breaks", a Free Action)')
        return card
    if spell.vowed:
        raise RuleError(f'{card.title} is Vowed: its controller cannot dismiss it (glossary "Vowed").')
    discard(ctx, card, f"{magi.name} dismisses it (a Free Action)")
    return card


def run_lose(table: Table, opts: LoseOptions) -> Outcome:
    """Glossary "Spell Loss" and "Sacrifice": the Magi who owns the Codex chooses which spells it loses."""

    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        return choose_spell_loss(ctx, magi, parse_spell_list(opts.spells))

    return with_battle(table, "lose", run)


def choose_spell_loss(ctx: Ctx, magi: Being, titles: list[str]) -> str:
    loss = magi.spell_loss
    if loss is None:
        raise RuleError(f"{magi.name} has no Spell Loss to choose.")
    where = ("prepared",) if loss.how == "codex" else ("codex", "prepared")
    pool = [c for c in ctx.battle.cards.values() if c.owner == magi.key and c.location in where]
    need = min(loss.amount, len(pool))
    if len(titles) != need:
        offered = ", ".join(sorted({c.title for c in pool})) or "none"
        raise RuleError(f"{loss.describe()}: name {need} spell(s). {magi.name} could lose: {offered}.")
    picked: list[CardState] = []
    for title in titles:
        spell = ctx.spell(title)
        card = next((c for c in pool if c.title == spell.title and c not in picked), None)
        if card is None:
            raise RuleError(f"{magi.name} has no {spell.title} left to lose ({loss.describe()}).")
        picked.append(card)
    to = LEAVING[{"sacrifice": "discard", "banish": "banish", "codex": "codex"}[loss.how]]
    for card in picked:
        card.location = to
    magi.spell_loss = None
    names = ", ".join(c.title for c in picked)
    verb = {"sacrifice": "sacrifices", "banish": "banishes", "codex": "returns unprepared"}[loss.how]
    ctx.j.say(f"📜 {magi.name} {verb} {names} ({loss.describe()}).", "spell_loss", magi=magi.name, cards=names)
    return f"{magi.name} {verb} {names}"


def acting_being(ctx: Ctx, table: Table, name: str | None) -> Being:
    """The actor's Magi, or a Koishaka they control (glossary "Ally Spell": its controller acts for it)."""
    if name:
        koishaka = ctx.battle.beings.get(fold(name))
        if koishaka is not None and koishaka.kind == "koishaka":
            controller = ctx.battle.beings.get(koishaka.controller or "")
            record = table.characters.get(controller.name.casefold()) if controller else None
            if not table.actor.is_gm and (record is None or record.owner_id != table.actor.user_id):
                raise RuleError(f"{koishaka.name} is controlled by {ctx.name(koishaka.controller or '')}'s player.")
            return koishaka
    return magi_in_battle(ctx, table, name)


def run_pledge(table: Table, opts: PledgeOptions) -> Outcome:
    """Glossary "Ritual Path": "Human Allies may help to upgrade your Ritual Path at the same price."

    The Ally's own player pledges (only they may spend their energy); the tiers are paid
    with the other casting costs of that Magi's next spell with a ritual path.
    """

    def run(ctx: Ctx) -> str:
        magi = magi_in_battle(ctx, table, opts.magi)
        if ctx.battle.phase == "over":
            raise RuleError("The battle is over.")
        ally = find_being(ctx, magi, opts.to)
        if ally.key == magi.key or ally.team != magi.team or not ally.is_magi:
            raise RuleError("Pledge ritual tiers to another human Magi of your team (an Ally).")
        if not opts.tiers:
            magi.pledge = None
            ctx.j.say(f"{magi.name} withdraws their ritual pledge.", "pledge", tiers=0)
            return f"{magi.name} withdraws their pledge"
        with_will = opts.tiers_with == "will"
        magi.pledge = Pledge(to=ally.key, tiers=opts.tiers, will=with_will)
        price = ", ".join(f"{v} {k}" for k, v in tier_costs(opts.tiers, with_will).items())
        ctx.j.say(
            f"🤝 {magi.name} pledges {opts.tiers} ritual tier(s) ({price}) to {ally.name}'s next spell with a "
            "ritual path.",
            "pledge",
            to=ally.name,
            tiers=opts.tiers,
        )
        return f"{magi.name} pledges {opts.tiers} tier(s) to {ally.name}"

    return with_battle(table, "pledge", run)


def run_namshub(table: Table, opts: NamShubOptions) -> Outcome:
    def run(ctx: Ctx) -> str:
        if opts.step:
            table.require_gm("Recording a Nam-Shub step")
            return namshub.step(ctx, opts.team)
        if not opts.name:
            raise RuleError("Give name: to begin a Nam-Shub from your Codex, or (GM) step:true to record a step.")
        return namshub.begin(ctx, magi_in_battle(ctx, table, opts.magi), opts.name)

    return with_battle(table, "nam-shub", run)
