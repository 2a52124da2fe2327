"""Every ``/serpent`` action: Magi sheets, the campaign spell book, battle setup and GM controls.

The Magi's turn actions live in ``play.py``; ``ACTIONS`` at the bottom lists
them all under their command paths (spaces between words).
"""

from __future__ import annotations

import re

from rules.base import Action, Card, Confirmable, Outcome, RuleError, Secrecy, Table, fit
from rules.serpent import play
from rules.serpent.artifacts import join_artifact
from rules.serpent.book import spell_body
from rules.serpent.cards import battle_status, board
from rules.serpent.context import Ctx
from rules.serpent.encounter import join_encounter, rescale
from rules.serpent.energy import after_change, energy_line
from rules.serpent.engine import close_window
from rules.serpent.magi import (
    MagiSheet,
    build_sheet,
    check_codex,
    check_specialization,
    codex_entries,
    codex_summary,
    parse_spell_list,
    split_variant,
)
from rules.serpent.options import (
    AutoPassOptions,
    BattleAdjustOptions,
    BattleDiceOptions,
    BattleJoinOptions,
    BattleModeOptions,
    BattleRoundOptions,
    BattleStartOptions,
    CastOptions,
    CloseWindowOptions,
    DismissOptions,
    EncounterAddOptions,
    ExchangeOptions,
    FocusOptions,
    LoseOptions,
    MagiCreateOptions,
    MagiEditOptions,
    MagiOnlyOptions,
    MagiShowOptions,
    NamShubOptions,
    NoOptions,
    OrderOptions,
    PledgeOptions,
    PrepareOptions,
    ReattuneOptions,
    RespondOptions,
    SpecOptions,
    SpellDefineOptions,
    SustainOptions,
    UseOptions,
)
from rules.serpent.rounds import start_round
from rules.serpent.runner import book_of, make_ctx, outcome, sheet_of, state_of, with_battle
from rules.serpent.spelldef import define
from rules.serpent.state import Battle, Being, CardState, QueuedDie
from rules.serpent.turns import window_waiting
from rules.text import fold

# ---------------------------------------------------------------- Magi sheets


def run_magi_create(table: Table, opts: MagiCreateOptions) -> Outcome:
    state = state_of(table)
    sheet = build_sheet(book_of(table), state.spellbook, opts.codex, opts.specialization, opts.artifact)
    record = table.add_character(table.actor.user_id, opts.name.strip(), sheet)
    return Outcome(
        card=fit(magi_card(record.name, sheet)),
        summary=f"{record.name} is created",
        data={"action": "magi create", "magi": record.name, "sheet": sheet.model_dump()},
    )


def magi_card(name: str, sheet: MagiSheet) -> Card:
    """A Magi's Codex, Specialization and Artifact, as create and show both present them."""
    card = Card(title=f"{name}, Magi", description=f"Codex ({len(sheet.codex)} spells): {codex_summary(sheet)}")
    card.add("Specialization", sheet.specialization or "none", inline=True)
    card.add("Artifact", sheet.artifact or "none", inline=True)
    if sheet.autopass != "never":
        card.add("Auto-pass", sheet.autopass, inline=True)
    return card


def run_magi_edit(table: Table, opts: MagiEditOptions) -> Outcome:
    state = state_of(table)
    record = table.default_character(opts.name)
    sheet = sheet_of(record).model_copy(deep=True)
    if opts.codex is not None:
        sheet.codex = codex_entries(book_of(table), state.spellbook, parse_spell_list(opts.codex))
    if opts.specialization is not None:
        sheet.specialization = (
            check_specialization(book_of(table), opts.specialization) if opts.specialization.strip() else None
        )
    if opts.artifact is not None:
        sheet.artifact = opts.artifact.strip() or None
    record.sheet = sheet
    card = Card(title=f"{record.name}'s sheet is updated", description=f"Codex: {codex_summary(sheet)}")
    return Outcome(
        card=fit(card),
        summary=f"{record.name}'s sheet is updated",
        data={"action": "magi edit", "magi": record.name, "sheet": sheet.model_dump()},
    )


AUTOPASS_TEXT = {
    "always": "passes every response window by themselves",
    "allies": "passes response windows on their own team's spells and abilities (their own included) by themselves",
    "never": "is asked about every response window they could answer",
}


def run_autopass(table: Table, opts: AutoPassOptions) -> Outcome:
    """Issue 13: a per-Magi auto-pass, kept on the sheet and applied whenever a window would wait on them."""
    record = table.default_character(opts.magi)
    sheet = sheet_of(record).model_copy(deep=True)
    sheet.autopass = opts.mode
    record.sheet = sheet
    text = f"{record.name} {AUTOPASS_TEXT[opts.mode]}."
    title = f"{record.name}: auto-pass {opts.mode}"
    data = {"action": "autopass", "magi": record.name, "mode": opts.mode}
    battle = state_of(table).battle
    if battle is None or record.name.casefold() not in battle.beings:
        return Outcome(card=Card(title=title, description=text), summary=title, data=data)

    def run(ctx: Ctx) -> str:
        ctx.battle.beings[record.name.casefold()].autopass = opts.mode
        ctx.j.say(text, "autopass", magi=record.name, mode=opts.mode)
        return title

    return with_battle(table, "autopass", run, extra=lambda ctx: {"magi": record.name, "mode": opts.mode})


def run_magi_show(table: Table, opts: MagiShowOptions) -> Outcome:
    state = state_of(table)
    record = table.default_character(opts.name)
    sheet = sheet_of(record)
    card = magi_card(record.name, sheet)
    data: dict[str, object] = {"action": "magi show", "magi": record.name, "sheet": sheet.model_dump()}
    battle = state.battle
    if battle and record.name.casefold() in battle.beings:
        key = record.name.casefold()
        being = battle.beings[key]
        places = {"prepared": [], "codex": [], "discard": [], "banished": []}  # type: dict[str, list[str]]
        for c in battle.cards.values():
            if c.owner == key and c.location in places:
                places[c.location].append(c.title)
        card.add("In battle", energy_line(being))
        for where, titles in places.items():
            card.add(where.title(), ", ".join(titles) or "none")
        data["cards"] = places
    return Outcome(card=fit(card), summary=f"{record.name}'s sheet", data=data, ephemeral=True)


# ---------------------------------------------------------------- the campaign spell book


def run_spell_define(table: Table, opts: SpellDefineOptions) -> Outcome:
    table.require_gm("Defining spells")
    state = state_of(table)
    book = book_of(table)
    key = fold(opts.name)
    base = state.spellbook.get(key) or book.spell(opts.name)
    if opts.remove:
        if base is None or base.key not in state.spellbook:
            raise RuleError(f"This campaign has no definition of {opts.name!r} to remove.")
        del state.spellbook[base.key]
        card = Card(title=f"{base.title}: back to the book", description="The campaign's definition is removed.")
        return Outcome(
            card=fit(card),
            summary=f"{base.title} definition removed",
            data={"action": "spell define", "spell": base.title, "removed": True},
        )
    fields = opts.model_dump(exclude={"name", "remove"})
    spell = define(base, opts.name, fields)
    state.spellbook[spell.key] = spell
    verb = "overrides the book's" if book.spell(spell.title) else "adds"
    card = Card(title=f"{spell.title} (campaign spell book)", description=spell_body(spell))
    card.footer = f"This campaign {verb} {spell.title}."
    return Outcome(
        card=fit(card),
        summary=f"{spell.title} defined",
        data={"action": "spell define", "spell": spell.model_dump(mode="json")},
    )


def run_spell_list(table: Table, opts: NoOptions) -> Outcome:
    state = state_of(table)
    book = book_of(table)
    lines = []
    for spell in sorted(book.spells.spell, key=lambda s: s.title):
        override = state.spellbook.get(spell.key)
        mark = (
            " (campaign override)" if override else (f" — needs: {', '.join(spell.missing)}" if spell.missing else "")
        )
        lines.append(f"{spell.title}{mark}")
    for spell in sorted(state.spellbook.values(), key=lambda s: s.title):
        if book.spell(spell.title) is None:
            lines.append(f"{spell.title} (campaign spell)")
    card = Card(title="Serpent's Tongue spells", description="\n".join(lines))
    return Outcome(card=fit(card), summary="spell list", data={"action": "spell list", "spells": lines}, ephemeral=True)


# ---------------------------------------------------------------- battle setup


def run_battle_start(table: Table, opts: BattleStartOptions) -> Outcome:
    table.require_gm("Starting a battle")
    state = state_of(table)
    if state.battle is not None and state.battle.phase != "over":
        raise RuleError("A battle is already running here. A GM ends it first with /serpent battle end.")
    state.battle = Battle(mode=opts.mode, easy=opts.easy, start_essence=opts.essence)
    ctx = make_ctx(table, state)
    mode = {
        "duel": "a duel (each Magi their own team)",
        "teams": "a team battle",
        "encounter": "Magi against an Encounter",
    }[opts.mode]
    extras = []
    if opts.easy:
        extras.append("easy mode (no per-extra-Magi scaling, no Encounter Response)")
    if opts.essence:
        extras.append(f"Magi start at {opts.essence} Essence")
    if ctx.settings.basic_play:
        extras.append("basic play (Act I rules)")
    ctx.j.say(
        f"⚔ A battle begins: {mode}" + (f"; {'; '.join(extras)}" if extras else "") + ".",
        "battle_start",
        mode=opts.mode,
    )
    return outcome(ctx, "battle start", "A battle begins")


def run_battle_join(table: Table, opts: BattleJoinOptions) -> Outcome:
    record = table.default_character(opts.magi)
    sheet = sheet_of(record)

    def run(ctx: Ctx) -> str:
        b = ctx.battle
        if b.phase != "setup":
            raise RuleError("Magi join a battle before its first round.")
        key = record.name.casefold()
        if key in b.beings:
            raise RuleError(f"{record.name} is already in this battle.")
        team = (opts.team or "").strip()
        if b.mode == "teams" and not team:
            raise RuleError("This is a team battle: give team:<name>.")
        if b.mode == "duel":
            team = team or record.name
        if b.mode == "encounter":
            team = team or "Magi"
        if any(x.kind == "encounter" and fold(x.team) == fold(team) for x in b.beings.values()):
            raise RuleError(f"{team!r} is the Encounter's side; pick another team name.")
        check_codex(ctx.book, ctx.state.spellbook, sheet.codex)
        start = ctx.book.rules.starting
        being = Being(
            key=key,
            name=record.name,
            kind="magi",
            owner_id=record.owner_id,
            team=team,
            resonance=start["Resonance"],
            harmony=start["Harmony"],
            essence=b.start_essence or sheet.starting_essence,
            starting_essence=sheet.starting_essence,
            will=start["Will"],
            voice=start["Voice"],
            focus_total=ctx.book.rules.focus,
            full_actions=ctx.book.rules.full_actions,
            actions_per_round=ctx.book.rules.full_actions,
            spec=sheet.specialization,
            spec_active=sheet.specialization is not None,
            artifact=sheet.artifact,
            artifact_active=sheet.artifact is not None,
            autopass=sheet.autopass,
        )
        b.beings[key] = being
        for entry in sheet.codex:
            title, fluency = split_variant(entry)
            card_id = b.new_id()
            b.cards[card_id] = CardState(id=card_id, title=title, owner=key, fluency=fluency)
        join_artifact(ctx, being)
        extra = [f"Spec {sheet.specialization}"] if sheet.specialization else []
        if sheet.artifact:
            extra.append(f"Artifact {sheet.artifact}")
        ctx.j.say(
            f"{record.name} joins team {team}: {energy_line(being)}, {being.focus_total} Focus, "
            f"{ctx.book.rules.enhancement_slots} Enhancement slots{'; ' + ', '.join(extra) if extra else ''}. "
            f"Codex of {len(sheet.codex)} spells.",
            "join",
            magi=record.name,
            team=team,
        )
        return f"{record.name} joins the battle"

    return with_battle(table, "battle join", run)


def run_encounter_add(table: Table, opts: EncounterAddOptions) -> Outcome:
    table.require_gm("Adding an Encounter")

    def run(ctx: Ctx) -> str:
        b = ctx.battle
        if b.phase != "setup":
            raise RuleError("Encounters join a battle before its first round.")
        if b.mode != "encounter":
            raise RuleError(
                "This battle was not started against an Encounter: start it with /serpent battle start mode:encounter."
            )
        enc = ctx.book.encounter(opts.name)
        if enc is None:
            known = ", ".join(e.name for e in ctx.book.encounters.encounter)
            raise RuleError(f"There is no Encounter {opts.name!r} in the book. Known: {known}.")
        if enc.name.casefold() in b.beings:
            raise RuleError(f"{enc.name} is already in this battle.")
        being = join_encounter(ctx, enc)
        ctx.j.say(
            f"🌑 {enc.name} enters the battle: {energy_line(being)}, {being.actions_per_round} actions.",
            "encounter_add",
            encounter=enc.name,
        )
        return f"{enc.name} joins the battle"

    return with_battle(table, "battle encounter add", run)


def run_battle_round(table: Table, opts: BattleRoundOptions) -> Outcome:
    table.require_gm("Running the round")
    rolloff = [n.strip() for n in re.split(r"[,;]", opts.rolloff or "") if n.strip()]

    def run(ctx: Ctx) -> str:
        b = ctx.battle
        if b.phase == "over":
            raise RuleError("The battle is over. A GM ends it with /serpent battle end.")
        if b.stack:
            raise RuleError(
                f"A response window is open on {b.stack[-1].title}; it must close first (/serpent battle close-window)."
            )
        if b.phase == "maintenance":
            raise RuleError("Maintenance is still resolving.")
        if b.phase == "preparation":
            late = [x.name for x in b.beings.values() if not x.ready]
            for being in b.beings.values():
                being.ready = True
            ctx.j.say(
                "The GM closes spell preparation" + (f" ({', '.join(late)} prepared nothing new)." if late else "."),
                "preparation_closed",
            )
            return f"Round {b.round}: actions begin"
        if b.phase == "setup" and len(b.teams()) < 2:
            raise RuleError("A battle needs at least two sides: more Magi must join, or add an Encounter.")
        if b.phase == "actions":
            still = [x.name for x in b.beings.values() if not x.passed and not x.incapacitated]
            for being in b.beings.values():
                being.passed = True
            if still:
                ctx.j.say(f"The GM ends round {b.round}; {', '.join(still)} pass.", "round_forced")
        for being in b.beings.values():
            if being.encounter:
                rescale(ctx, being)
        start_round(ctx, opts.resonance, rolloff)
        return f"Round {b.round}"

    return with_battle(table, "battle round", run)


def round_question(table: Table, opts: BattleRoundOptions) -> str | None:
    """Mid-actions, running the round ends it for every Magus at once: the GM is asked first (``Action.confirm``)."""
    battle = state_of(table).battle
    if battle is None or battle.phase != "actions" or battle.stack:
        return None
    still = [x.name for x in battle.beings.values() if x.kind != "encounter" and not x.passed and not x.incapacitated]
    if not still:
        return None
    who = ", ".join(still)
    return (
        f"Round {battle.round}'s action phase is still on: {who} still "
        f"{'has' if len(still) == 1 else 'have'} actions. Running the round now ends round {battle.round} for every "
        f"Magus at once ({who} pass) and starts round {battle.round + 1}."
    )


def run_battle_board(table: Table, opts: NoOptions) -> Outcome:
    state = state_of(table)
    if state.battle is None:
        raise RuleError("There is no battle in this channel. A GM starts one with /serpent battle start.")
    ctx = make_ctx(table, state)
    return Outcome(
        card=board(ctx),
        summary="battle board",
        data={"action": "battle board", "battle": battle_status(state.battle, ctx.settings)},
    )


def run_battle_undo(table: Table, opts: Confirmable) -> Outcome:
    """Never reached through the service: ``Action(undo=True)`` has it restore the state before the newest change."""
    table.require_gm("Undoing")
    raise RuleError("Undo is done by the table service; run /serpent battle undo.")


def run_battle_end(table: Table, opts: NoOptions) -> Outcome:
    table.require_gm("Ending the battle")
    state = state_of(table)
    if state.battle is None:
        raise RuleError("There is no battle to end.")
    ctx = make_ctx(table, state)
    winner = state.battle.winner
    ctx.j.say("The battle is ended by the GM" + (f"; winner: {winner}." if winner else "."), "battle_end")
    out = outcome(ctx, "battle end", "The battle ends")
    state.battle = None
    return out


def run_battle_dice(table: Table, opts: BattleDiceOptions) -> Outcome:
    table.require_gm("Supplying dice")

    def run(ctx: Ctx) -> str:
        added = []
        for item in opts.values.replace(",", " ").split():
            kind, _, value = item.partition("=")
            kind = kind.strip().casefold()
            if kind not in ("d10", "token", "2d10") or not value:
                raise RuleError(f"Cannot read {item!r}: write d10=7, token=red or 2d10=3+4.")
            if kind == "d10" and not (value.isdigit() and 0 <= int(value) <= 10):
                raise RuleError(f"{item!r}: a d10 shows 0 to 10.")
            if kind == "2d10":
                faces = [p for p in value.split("+") if p]
                if len(faces) != 2 or not all(p.isdigit() and 0 <= int(p) <= 10 for p in faces):
                    raise RuleError(f"{item!r}: give both dice, e.g. 2d10=3+4.")
            ctx.battle.dice.append(QueuedDie.model_validate({"kind": kind, "value": value}))
            added.append(f"{kind}={value}")
        ctx.j.say(f"The GM supplies the next automatic rolls: {', '.join(added)}.", "dice", values=added)
        return "GM dice queued"

    return with_battle(table, "battle dice", run)


def run_battle_adjust(table: Table, opts: BattleAdjustOptions) -> Outcome:
    table.require_gm("Adjusting energies")

    def run(ctx: Ctx) -> str:
        being = ctx.battle.beings.get(fold(opts.being))
        if being is None:
            raise RuleError(f"No one named {opts.being!r} is in this battle.")
        changes = []
        for field in ("essence", "resonance", "harmony", "will", "voice", "stones"):
            delta = getattr(opts, field)
            if not delta:
                continue
            if field == "harmony" and being.harmony is None:
                raise RuleError(f"{being.name} has no Harmony.")
            old = getattr(being, field)
            new = old + delta
            if field == "essence":
                new = max(0, min(new, being.starting_essence))
            elif field != "harmony":
                new = max(0, new)
            setattr(being, field, new)
            changes.append(f"{field} {old}→{new}")
        if opts.resistance is not None:
            # glossary "Potency": the Encounter's Resistance is the GM's to give (RULING 12: never invented)
            changes.append(f"Resistance {being.resistance}→{opts.resistance}")
            being.resistance = opts.resistance or None
        if not changes:
            raise RuleError("Give at least one change, e.g. essence:-2.")
        why = f" ({opts.reason})" if opts.reason else ""
        ctx.j.say(
            f"The GM adjusts {being.name}: {', '.join(changes)}{why}.", "adjust", being=being.name, changes=changes
        )
        after_change(ctx, being, "a GM adjustment")
        return f"GM adjusts {being.name}"

    return with_battle(table, "battle adjust", run)


def run_close_window(table: Table, opts: CloseWindowOptions) -> Outcome:
    table.require_gm("Closing a response window")

    def run(ctx: Ctx) -> str:
        if not ctx.battle.stack:
            raise RuleError("No response window is open.")
        top = ctx.battle.stack[-1]
        if opts.window is not None and top.id != opts.window:
            raise RuleError(
                f"Window #{opts.window} is not open (it closed already); the open window is on {top.title} (#{top.id})."
            )
        title = top.title
        if opts.magi:
            being = ctx.battle.beings.get(fold(opts.magi))
            if being is None or being.key not in window_waiting(ctx, top):
                waiting_names = ", ".join(ctx.name(k) for k in window_waiting(ctx, top))
                raise RuleError(
                    f"The window on {title} (#{top.id}) is not waiting for {opts.magi!r}; it waits for {waiting_names}."
                )
            ctx.j.say(f"⏰ The GM (or a play-by-post deadline) closes {title}'s window for {being.name}.")
            play.pass_window(ctx, being.key)
            return f"{being.name} passes on {title}"
        waiting = close_window(ctx)
        ctx.j.say(
            f"The response window on {title} closes"
            + (f": {', '.join(ctx.name(k) for k in waiting)} pass." if waiting else "."),
            "window_closed",
        )
        return f"Window on {title} closed"

    return with_battle(table, "battle close-window", run)


def run_battle_mode(table: Table, opts: BattleModeOptions) -> Outcome:
    table.require_gm("Changing the battle mode")

    def run(ctx: Ctx) -> str:
        ctx.battle.easy = opts.easy
        ctx.j.say(
            f"Easy mode is now {'on' if opts.easy else 'off'}; Encounters rescale when the next round starts.",
            "mode",
            easy=opts.easy,
        )
        return f"Easy mode {'on' if opts.easy else 'off'}"

    return with_battle(table, "battle mode", run)


ACTIONS: dict[str, Action] = {
    "magi create": Action("magi create", run_magi_create, MagiCreateOptions, description="Create a Magi with a Codex"),
    "magi edit": Action(
        "magi edit", run_magi_edit, MagiEditOptions, description="Change a Magi's Codex, Spec or Artifact"
    ),
    "autopass": Action(
        "autopass",
        run_autopass,
        AutoPassOptions,
        description="Pass response windows by yourself",
    ),
    "magi show": Action(
        "magi show", run_magi_show, MagiShowOptions, logged=False, description="Show a Magi's sheet and cards"
    ),
    "spell define": Action(
        "spell define", run_spell_define, SpellDefineOptions, gm_only=True, description="Define or override a spell"
    ),
    "spell list": Action(
        "spell list", run_spell_list, NoOptions, logged=False, description="List the book's and campaign's spells"
    ),
    "battle start": Action(
        "battle start", run_battle_start, BattleStartOptions, gm_only=True, description="Start a battle"
    ),
    "battle join": Action(
        "battle join", run_battle_join, BattleJoinOptions, description="Join the battle with your Magi"
    ),
    "battle encounter add": Action(
        "battle encounter add", run_encounter_add, EncounterAddOptions, gm_only=True, description="Add an Encounter"
    ),
    "battle round": Action(
        "battle round",
        run_battle_round,
        BattleRoundOptions,
        gm_only=True,
        description="Run the next phase or round",
        confirm=round_question,
    ),
    "battle board": Action("battle board", run_battle_board, NoOptions, logged=False, description="Show the battle"),
    "battle undo": Action(
        "battle undo",
        run_battle_undo,
        Confirmable,
        gm_only=True,
        undo=True,
        description="Undo the last battle action, exactly",
    ),
    "battle end": Action("battle end", run_battle_end, NoOptions, gm_only=True, description="End the battle"),
    "battle dice": Action(
        "battle dice", run_battle_dice, BattleDiceOptions, gm_only=True, description="Supply physical dice or tokens"
    ),
    "battle adjust": Action(
        "battle adjust", run_battle_adjust, BattleAdjustOptions, gm_only=True, description="Change a being's energies"
    ),
    "battle close-window": Action(
        "battle close-window",
        run_close_window,
        CloseWindowOptions,
        gm_only=True,
        description="Close the response window: all still eligible pass",
    ),
    "battle mode": Action(
        "battle mode", run_battle_mode, BattleModeOptions, gm_only=True, description="Turn easy mode on or off"
    ),
    "prepare": Action(
        "prepare",
        play.run_prepare,
        PrepareOptions,
        secrecy=Secrecy(private_options=frozenset({"spells"})),  # which spells are prepared: the player's and GM's
        description="Prepare up to 3 spells",
    ),
    "reattune": Action("reattune", play.run_reattune, ReattuneOptions, description="Re-attune discarded spells"),
    "cast": Action("cast", play.run_cast, CastOptions, description="Cast a prepared spell"),
    "respond": Action("respond", play.run_respond, RespondOptions, description="Fasul! Respond, or pass the window"),
    "meditate": Action("meditate", play.run_meditate, MagiOnlyOptions, description="Full Action: gain Resonance"),
    "exchange": Action(
        "exchange", play.run_exchange, ExchangeOptions, description="Once per round: trade Will or Voice"
    ),
    "dismiss": Action(
        "dismiss", play.run_dismiss, DismissOptions, description="Free Action: discard a spell you control"
    ),
    "focus": Action(
        "focus", play.run_focus, FocusOptions, description="Swap Focus onto an ally's spell, or release it"
    ),
    "shed-stone": Action(
        "shed-stone", play.run_shed_stone, MagiOnlyOptions, description="Full Action: discard an interrupt stone"
    ),
    "spec": Action("spec", play.run_spec, SpecOptions, description="Free Action: unlock a Specialization tier"),
    "pass": Action("pass", play.run_pass, MagiOnlyOptions, description="Pass the open response window (only that)"),
    "end-turn": Action(
        "end-turn", play.run_end_turn, MagiOnlyOptions, description="Pass for the round: take no more turns"
    ),
    "lose": Action("lose", play.run_lose, LoseOptions, description="Choose the spells a Spell Loss takes from you"),
    "pledge": Action(
        "pledge", play.run_pledge, PledgeOptions, description="Pay ritual path tiers of an ally's next spell"
    ),
    "nam-shub": Action(
        "nam-shub", play.run_namshub, NamShubOptions, description="Begin a Nam-Shub, or (GM) record its step"
    ),
    "order": Action(
        "order", play.run_order, OrderOptions, description="Order your Shields or a zone's spells (you own the zone)"
    ),
    "use": Action("use", play.run_use, UseOptions, description="Use an ability (e.g. Beast Form's attack)"),
    "sustain": Action(
        "sustain", play.run_sustain, SustainOptions, description="Sustain or let go a spell at maintenance"
    ),
}
