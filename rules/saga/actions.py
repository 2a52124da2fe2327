"""Every `/saga` command: the registry the slash commands are generated from (cogs/_ruleset.py).

The commands live by topic: ``catalog_actions`` (the card catalog), ``turn_actions`` (setup, the steps,
battles), ``optional_actions`` (the optional steps and card-rule primitives), ``checks`` (on-demand checks).
Turn actions belong to the game's player (through their hero pile, the campaign character) or a GM.
"""

from __future__ import annotations

from rules.base import Action
from rules.saga.catalog_actions import (
    CardDefineOptions,
    CardImportOptions,
    CardListOptions,
    CardRemoveOptions,
    CardShowOptions,
    card_define,
    card_import,
    card_list,
    card_remove,
    card_show,
)
from rules.saga.checks import (
    DeckOptions,
    HarmonicOptions,
    LuckOptions,
    NudgeOptions,
    OddsOptions,
    TableOptions,
    deck,
    harmonic,
    luck,
    nudge,
    odds,
    show_table,
)
from rules.saga.optional_actions import (
    AttachOptions,
    BonusOptions,
    BuyOptions,
    DrawOptions,
    PutOptions,
    SearchOptions,
    SwitchOptions,
    UseOptions,
    attach,
    bonus,
    buy,
    draw,
    put,
    search,
    switch,
    use,
)
from rules.saga.turn_actions import (
    AttackOptions,
    ContinueOptions,
    EndOptions,
    MoveOptions,
    PassOptions,
    ReportOptions,
    StartOptions,
    WinOptions,
    attack,
    continue_turn,
    end,
    end_question,
    move,
    pass_round,
    report,
    start,
    win,
)


def _a(name: str, run, options, description: str, **kw) -> Action:
    return Action(name, run, options, description=description, **kw)


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        _a("card define", card_define, CardDefineOptions, "Define one card of your deck"),
        _a("card import", card_import, CardImportOptions, "Import a deck from TOML or JSON text"),
        _a("card show", card_show, CardShowOptions, "Show a catalog card", logged=False),
        _a("card list", card_list, CardListOptions, "List the card catalog", logged=False),
        _a("card remove", card_remove, CardRemoveOptions, "Remove a card from the catalog"),
        _a(
            "start",
            start,
            StartOptions,
            "Start a game: starting cards, shuffle, luck card, hand",
            example="deck:sample",
        ),
        _a("move", move, MoveOptions, "Step 1: move the hero token (steps 2-3 follow)", example="to:<place>"),
        _a("continue", continue_turn, ContinueOptions, "Go on to the next mandatory step"),
        _a("report", report, ReportOptions, "Physical deck: report the card(s) you drew"),
        _a(
            "end",
            end,
            EndOptions,
            "Step 10: cycle the hand to the source limit and end the turn",
            confirm=end_question,
        ),
        _a("attack", attack, AttackOptions, "Battle: a hero uses one item against an enemy", example="item:<item>"),
        _a("pass", pass_round, PassOptions, "Battle: a hero uses no item this round"),
        _a(
            "buy",
            buy,
            BuyOptions,
            "Purchase an acknowledged card by cycling hand cards",
            example="card:<card> pay:<cards>",
        ),
        _a("use", use, UseOptions, "Use an item (flip it face-down)"),
        _a("switch", switch, SwitchOptions, "Switch an item to another hero"),
        _a("attach", attach, AttachOptions, "Attach a spell-song to an item"),
        _a(
            "bonus",
            bonus,
            BonusOptions,
            "Check or claim a harmonic, discordant or good luck bonus",
            example="card:<card>",
        ),
        _a("search", search, SearchOptions, "Search the deck (a card rule)", example="top:5"),
        _a(
            "draw",
            draw,
            DrawOptions,
            "Draw cards as a card rule says",
            example='count:2 reason:"<the card rule>"',
        ),
        _a("put", put, PutOptions, "Move a card as a card rule says"),
        _a("win", win, WinOptions, "Claim victory by the End of Demo card"),
        _a("harmonic", harmonic, HarmonicOptions, "Harmonic or discordant order, and why", logged=False),
        _a("luck", luck, LuckOptions, "The luck result for three cards, or the table's again", logged=False),
        _a("odds", odds, OddsOptions, "Exact odds of good luck and harmonic order for the next draw", logged=False),
        _a("table", show_table, TableOptions, "Show the table", logged=False),
        _a("deck", deck, DeckOptions, "GM: the deck's order (secret)", gm_only=True, logged=False),
        _a("nudge", nudge, NudgeOptions, "GM: remind the player that the table waits", gm_only=True),
    )
}
