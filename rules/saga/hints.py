"""The command that carries out a card rule's effect (spec S4): the bot cannot run free text, so a post that shows
a bonus or a spell-song's rules names the `/saga` command for each search or move the text describes.

The cards the text points at are named from the table (the top of a luck stack, the place being left); the
card the player chooses stays a placeholder. Text the bot does not recognise gets no command, never a wrong one.
"""

from __future__ import annotations

import re

from rules.saga.area import Ctx, source_limit
from rules.saga.book import CARD_TYPES
from rules.saga.state import HeroState
from rules.text import fold

SUBTYPES = ("room", "wanted", "folk-hero", "folk-enemy")
NUMBER = r"\(?(\d+)\)?"
SEARCH_TOP = re.compile(
    rf"search (?:the )?top {NUMBER} cards? (?:of|from) (?:the |your )?deck(?: for (?:any |a |an )?(?:{NUMBER} )?"
    r"([a-z-]+))?",
    re.IGNORECASE,
)
IN_GAME = re.compile(r"search (?:in game|every card of the game|all cards in game)", re.IGNORECASE)
LUCK_TOP = re.compile(r"top card of (?:your |the |a |their |its )?(?:hero's )?luck (?:stack|pile)", re.IGNORECASE)
TOKEN = re.compile(r"(?:move|moves) (?:your |the )?hero token", re.IGNORECASE)
PLACE_LEFT = re.compile(r"(?:current )?place (?:you are )?leaving", re.IGNORECASE)
DRAW = re.compile(
    rf"\bdraws? (?:(?P<one>an?|one) card|{NUMBER} cards?|(?:an amount of )?cards? equal to (?:your |the )?"
    r"(?P<limit>source limit|hand size))"
    r"(?: (?:into|to|onto) (?:your |the |a |their )?(?P<to>hand|action pile|luck (?:pile|stack)|story pile))?",
    re.IGNORECASE,
)
DRAW_TO = {"hand": "hand", "action pile": "action", "luck pile": "luck", "luck stack": "luck", "story pile": "story"}
CYCLE_SELF = re.compile(r"cycle this card", re.IGNORECASE)
ATTACH_SONG = re.compile(r"attach .*spell-song", re.IGNORECASE)
MOVE = re.compile(r"\b(?:move|put)\b", re.IGNORECASE)
AREAS = (
    ("hero pile", "hero-pile"),
    ("luck", "luck"),
    ("story", "story"),
    ("place pile", "place"),
    ("action pile", "action"),
    ("hand", "hand"),
)


def _type(word: str | None) -> str | None:
    """The card type a search names, if it is one (plural or not): `spell-songs` → `spell-song`."""
    if not word:
        return None
    word = word.casefold()
    for candidate in (word, word.removesuffix("s")):
        if candidate in CARD_TYPES or candidate in SUBTYPES:
            return candidate
    return None


def _destination(text: str) -> str:
    """Where the text moves a card to (the last area it names after "into" or "to"); hand if it names none."""
    found = re.findall(r"\b(?:into|to|onto)\s+(?:your |the |a )?([a-z -]+)", text.casefold())
    for phrase in reversed(found):
        for words, area in AREAS:
            if phrase.startswith(words):
                return area
    return "hand"


def _q(name: str) -> str:
    return f'"{name}"'


def commands(ctx: Ctx, text: str, reason: str, *, card: str, hero: HeroState | None = None) -> list[str]:
    """The commands that carry out ``text`` (a bonus or a card's rules), each with ``reason`` to log.

    ``card`` is the card whose rule it is (for "cycle this card"), ``hero`` the hero it is claimed for.
    """
    game = ctx.game
    why = f"reason:{_q(reason)}"
    out: list[str] = []
    search = SEARCH_TOP.search(text)
    if search:
        top, kind = search.group(1), _type(search.group(3))
        dest = _destination(text[search.end() :])
        take = "`/saga search take:<card>`" + (f" to:{dest}" if dest != "hand" else "")
        out.append(f"`/saga search top:{top}" + (f" type:{kind}" if kind else "") + f"`, then {take}")
    elif IN_GAME.search(text):
        out.append(f"`/saga search in_game:true take:<card> to:{_destination(text)}`")
    if LUCK_TOP.search(text):
        owner = hero or (game.heroes[0] if len(game.heroes) == 1 else None)
        if owner is not None and owner.luck:
            out.append(f"`/saga put card:{_q(owner.luck[0])} to:{_destination(text)} {why}`")
        elif owner is not None:
            out.append(f"nothing to move: {owner.name}'s luck stack is empty")
        else:
            out.append(f"`/saga put card:<the top card of that hero's luck stack> to:{_destination(text)} {why}`")
    if TOKEN.search(text):
        out.append(f"`/saga put card:<place> to:token {why}`")
        if PLACE_LEFT.search(text) and game.visiting:
            out.append(f"then `/saga put card:{_q(game.visiting)} to:hand {why}` (the place left)")
    drawn = DRAW.search(text)
    if drawn:
        out.append(_draw(ctx, drawn, why, hero))
    if CYCLE_SELF.search(text) and fold(card) != fold(game.visiting):  # the visited place stays (put refuses it)
        out.append(f"`/saga put card:{_q(card)} to:cycle {why}`")
    if ATTACH_SONG.search(text):
        out.append(f"`/saga attach song:<spell-song> item:{_q(card)}`")
    if not out and MOVE.search(text):
        out.append(f"`/saga put card:<card> to:{_destination(text)} {why}`")
    return out


def _draw(ctx: Ctx, found: re.Match[str], why: str, hero: HeroState | None) -> str:
    """`/saga draw` for "draw (2) cards", "draw a card" or "draw cards equal to your source limit" (the limit as
    the table has it now), into the area the text names right after (the hand when it names none)."""
    count = source_limit(ctx) if found["limit"] else 1 if found["one"] else int(found.group(2))
    if count == 0:
        return "nothing to draw: the source limit is 0"
    to = DRAW_TO[found["to"].casefold()] if found["to"] else "hand"
    line = f"`/saga draw count:{count} {why}"
    if to != "hand":
        line += f" to:{to}"
        if len(ctx.game.heroes) > 1 and to in ("luck", "action"):
            line += f" hero:{_q(hero.name) if hero else '<hero>'}"
    if ctx.game.draws == "reported":
        line += ' cards:"<the cards you drew>"'
    return line + "`"


def how_to(ctx: Ctx, text: str, reason: str, *, card: str, hero: HeroState | None = None) -> list[str]:
    """The post's line naming the commands, or nothing when the text names no search or move the bot knows."""
    found = commands(ctx, text, reason, card=card, hero=hero)
    return [f"To do it: {'; '.join(found)}."] if found else []
