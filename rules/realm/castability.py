"""Can I cast this? Every check of the spell's lifecycle (spec section 2), each with its reason.

``castable`` reads only; ``cast`` runs the same checks and, if all pass, plays the ritual: the chit is
committed (L55), a color chit reverts and fatigues (L41), a book counts as used today (L39), and the
action and the effort are recorded (L37, L43).
"""

from dataclasses import dataclass, field

from pydantic import Field

from rules.base import Card, CharacterRecord, Model, Outcome, RuleError, Table, add_field, fit, quoted
from rules.realm.board import when
from rules.realm.book import Color, SpellDef
from rules.realm.core import (
    book_of,
    combat_of,
    effort_refusal,
    find_spell,
    phase_text,
    play,
    settings_of,
    sheet_of,
    speed_limit,
    standing_colors,
    state_of,
)
from rules.realm.state import Casting, Chit, Combat, ItemState
from rules.text import fold

CharacterOption = Field(default=None, max_length=60, description="Your character, if you have several")


class Check(Model):
    check: str  # the check's name, for scripts (`data`); a player reads only its detail
    ok: bool
    detail: str


@dataclass
class Ritual:
    """What is played as the ritual: a Magic chit, or an Artifact or Spell Book held by the caster."""

    name: str
    kind: str  # chit | book | artifact
    chit: Chit | None = None
    item: ItemState | None = None

    @property
    def speed(self) -> int:
        if self.chit is not None:
            return 0 if self.chit.state == "prepared" else self.chit.speed
        return 0  # L53: Artifact and Spell Book spells have speed 0

    @property
    def asterisks(self) -> int:
        return self.chit.asterisks if self.chit is not None else 0


@dataclass
class Verdict:
    caster: CharacterRecord
    spell: SpellDef
    ritual: Ritual
    color_chit: Chit | None
    combat: Combat | None
    checks: list[Check] = field(default_factory=list)
    colors: list[tuple[Color, str]] = field(default_factory=list)

    @property
    def castable(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def speed(self) -> int:
        return self.ritual.speed

    def data(self) -> dict:
        return {
            "caster": self.caster.name,
            "spell": self.spell.name,
            "ritual": self.ritual.name,
            "castable": self.castable,
            "speed": self.speed,
            "checks": [c.model_dump() for c in self.checks],
            "colors_present": [{"color": c, "source": s} for c, s in self.colors],
        }


def find_ritual(table: Table, caster: CharacterRecord, name: str) -> Ritual:
    chit = sheet_of(caster).chit(name) or sheet_of(caster).chit(" ".join(name.split()).upper())
    if chit is not None:
        return Ritual(chit.label, "chit", chit=chit)
    item = state_of(table).items.get(fold(name))
    if item is not None and item.kind in ("book", "artifact"):
        return Ritual(item.name, item.kind, item=item)
    shipped = book_of(table).item(name)
    if shipped is not None:  # in the data, not yet in play (L39)
        raise RuleError(
            f"Nobody holds {shipped.name} yet. A GM gives it first: "
            f'`/realm item give item:"{shipped.name}" holder:{caster.name}`.'
        )
    chits = ", ".join(c.label for c in sheet_of(caster).chits if c.kind == "magic") or "none"
    books = ", ".join(i.name for i in state_of(table).items.values() if i.kind != "item") or "none"
    raise RuleError(
        f"{quoted(name.strip())} is neither one of {caster.name}'s chits nor an Artifact or Spell Book. "
        f"Magic chits: {chits}. Artifacts and books: {books}."
    )


def assess(table: Table, caster: CharacterRecord, spell_name: str, ritual_name: str, color_chit: str | None) -> Verdict:
    """Every check, each judged on its own, so each can fail alone (issue 10)."""
    spell = find_spell(table, spell_name)
    ritual = find_ritual(table, caster, ritual_name)
    sheet = sheet_of(caster)
    own_color = None
    if color_chit:
        own_color = sheet.chit(color_chit) or sheet.chit(" ".join(color_chit.split()).upper())
        if own_color is None:
            labels = ", ".join(c.label for c in sheet.chits if c.state == "color") or "none"
            raise RuleError(
                # cites L41
                f"{caster.name} has no chit {quoted(color_chit.strip())}: a character can use only their own color "
                "chits. "
                f"{table.their(caster, capital=True)} color chits: {labels}."
            )
    combat = combat_of(table, caster.name)
    verdict = Verdict(caster, spell, ritual, own_color, combat)
    verdict.checks = [
        _in_combat(table, caster, combat),
        _not_charged(caster, combat),
        _no_action(caster, combat),
        _spell_set(spell),
        _spell_known(caster, spell, ritual),
        _not_in_effect(table, caster, spell, ritual),
        _ritual_type(spell, ritual),
        _ritual_free(table, caster, ritual),
        *_color(table, caster, spell, own_color, combat, verdict),
        _speed(table, caster, ritual, combat),
        _effort(table, caster, ritual, combat),
    ]
    return verdict


def _check(name: str, ok: bool, detail: str) -> Check:
    return Check(check=name, ok=ok, detail=detail)


def _in_combat(table: Table, caster: CharacterRecord, combat: Combat | None) -> Check:
    if sheet_of(caster).dead:
        return _check("in_combat", False, f"{caster.name} is dead.")
    if combat is None:
        return _check(
            "in_combat",
            False,
            # cites L9
            f"Spells are cast only in rounds of combat; {caster.name} is in no combat, and it is {phase_text(table)}.",
        )
    if combat.step != "encounter":
        return _check(
            "in_combat",
            False,
            # cites L37
            f"Spells are cast in the Encounter Step; combat in {combat.clearing} is in round {combat.round}'s "
            f"{combat.step} step.",
        )
    return _check("in_combat", True, f"Encounter Step of round {combat.round} in {combat.clearing}.")


def _not_charged(caster: CharacterRecord, combat: Combat | None) -> Check:
    fighter = combat.fighter(caster.name) if combat else None
    if fighter is not None and fighter.charged:
        return _check(
            # cites L37
            "not_charged",
            False,
            f"{caster.name} charged {fighter.charged_at}: no action after a charge.",
        )
    return _check("not_charged", True, "Did not charge.")


def _no_action(caster: CharacterRecord, combat: Combat | None) -> Check:
    fighter = combat.fighter(caster.name) if combat else None
    if fighter is not None and fighter.action != "none":
        did = {"run": "ran away", "alert": "alerted a weapon", "cast": "already cast a spell"}[fighter.action]
        # cites L37, G-R30
        return _check("no_action", False, f"{caster.name} {did} this round: one action per round.")
    return _check("no_action", True, "No action yet this round.")


def _spell_set(spell: SpellDef) -> Check:
    missing = spell.missing()
    if missing:
        return _check(
            "spell_defined",
            False,
            f"{spell.name} has no {' and no '.join(missing)} yet, so it cannot be cast until the GM sets "
            f"{'it' if len(missing) == 1 else 'them'} with `/realm spell define`.",
        )
    return _check("spell_defined", True, f"{spell.name}: type {spell.type}, {spell.color}, {spell.duration}.")


def _spell_known(caster: CharacterRecord, spell: SpellDef, ritual: Ritual) -> Check:
    if ritual.item is not None:
        if fold(spell.name) in {fold(s) for s in ritual.item.spells}:
            return _check("spell_known", True, f"{spell.name} is in {ritual.item.name}.")
        # cites G-R24
        return _check("spell_known", False, f"{ritual.item.name} does not hold {spell.name}.")
    if fold(spell.name) in {fold(s) for s in sheet_of(caster).spells}:
        return _check("spell_known", True, f"{spell.name} is recorded on {caster.name}'s sheet.")
    return _check(
        # cites G-R24
        "spell_known",
        False,
        f"{caster.name} does not know {spell.name}; cast it from a book that holds it.",
    )


def _not_in_effect(table: Table, caster: CharacterRecord, spell: SpellDef, ritual: Ritual) -> Check:
    """L55, G-R31: this caster's copy (or the book's) is held until the spell expires; say when that is."""
    others = []
    for casting in state_of(table).castings:
        if fold(casting.spell) != fold(spell.name):
            continue
        same_copy = (ritual.item is not None and fold(casting.ritual) == fold(ritual.item.name)) or (
            ritual.item is None and casting.ritual_kind == "chit" and fold(casting.caster) == fold(caster.name)
        )
        if same_copy:
            return _check(
                "not_in_effect",
                False,
                f"This copy of {spell.name} is already cast: #{casting.id} {casting.spell}, {when(table, casting)}. "
                # cites L55, L69, G-R31
                + (
                    "It cannot be cast again until that spell ends, and a permanent spell ends only when it is "
                    "broken or its caster or target is killed."
                    if casting.duration == "permanent"
                    else "It cannot be cast again until that spell expires."
                ),
            )
        others.append(f" {casting.caster}'s #{casting.id} {casting.spell}: {when(table, casting)}.")
    return _check("not_in_effect", True, f"{spell.name} is not already in effect from this copy." + "".join(others))


def _ritual_type(spell: SpellDef, ritual: Ritual) -> Check:
    if ritual.chit is not None and ritual.chit.kind != "magic":
        return _check(
            "ritual_type",
            False,
            f"{ritual.chit.label} is a {ritual.chit.kind.title()} chit; the ritual is a Magic chit or an Artifact or "
            # cites L39
            "Spell Book.",
        )
    kind = "Magic chit" if ritual.chit is not None else ritual.kind.title()
    own = ritual.chit.type if ritual.chit is not None else ritual.item.type  # type: ignore[union-attr]
    if spell.type is None:
        return _check("ritual_type", False, f"{spell.name} has no type yet to match the {kind}'s.")
    if own != spell.type:
        why = f"the {kind} {ritual.name} is type {own or 'unset'}; {spell.name} is type {spell.type}"
        if ritual.item is not None:
            # cites L39, G-R14
            why += " (a book casts only spells of its own type)"
        return _check("ritual_type", False, why[0].upper() + why[1:] + ".")
    return _check("ritual_type", True, f"{kind} {ritual.name} is type {own}, as {spell.name} needs.")


def _ritual_free(table: Table, caster: CharacterRecord, ritual: Ritual) -> Check:
    day = state_of(table).day
    if ritual.chit is not None:
        chit = ritual.chit
        if chit.state in ("active", "prepared"):
            # cites L53
            how = "prepared: speed 0" if chit.state == "prepared" else "ready"
            return _check("ritual_free", True, f"{chit.label} is {how}.")
        why = {
            "fatigued": "is fatigued",
            # cites L55
            "committed": f"is committed to spell #{chit.committed_to} until it expires",
            # cites G-R25
            "color": f"is enchanted into {chit.color} color magic, which is not a ritual",
        }[chit.state]
        return _check("ritual_free", False, f"{chit.label} {why}.")
    item = ritual.item
    assert item is not None
    if not item.holder or fold(item.holder) != fold(caster.name):
        return _check("ritual_free", False, f"{caster.name} does not hold {item.name}.")
    if item.committed_to is not None:
        return _check(
            "ritual_free",
            False,
            # cites L55, G-R13
            f"{item.name} is committed to spell #{item.committed_to} until it expires.",
        )
    if item.used_on_day == day:
        # cites L39
        return _check("ritual_free", False, f"{item.name} already cast a spell today: one spell per day.")
    # cites L53
    return _check("ritual_free", True, f"{item.name} is free and unused today: speed 0.")


def _color(
    table: Table, caster: CharacterRecord, spell: SpellDef, own: Chit | None, combat: Combat | None, verdict: Verdict
) -> list[Check]:
    clearing = combat.clearing if combat else sheet_of(caster).location
    present = standing_colors(table, clearing)  # the day's colors count wherever the caster stands (G-R8)
    checks = []
    if own is not None:
        if own.state != "color" or own.color is None:
            checks.append(_check("color_chit", False, f"{own.label} is not a color chit (it is {own.state})."))
        else:
            checks.append(
                # cites L41
                _check(
                    "color_chit", True, f"{own.label} is {own.color} color magic, for {table.their(caster)} own spell."
                )
            )
            present.append((own.color, "your color chit"))
    verdict.colors = present
    if spell.color is None:
        checks.append(_check("color", False, f"{spell.name} has no color yet."))
        return checks
    sources = [source for color, source in present if color == spell.color]
    if sources:
        checks.append(_check("color", True, f"{spell.color.capitalize()} magic here: {', '.join(sources)}."))
    else:
        have = ", ".join(f"{c} ({s})" for c, s in present) or "none"
        # cites L39
        checks.append(_check("color", False, f"No {spell.color} magic here. Colors present: {have}."))
    return checks


def _speed(table: Table, caster: CharacterRecord, ritual: Ritual, combat: Combat | None) -> Check:
    limit = speed_limit(combat, caster.name)
    them, their = table.them(caster), table.their(caster)
    if limit is None:
        return _check("speed", True, f"Speed {ritual.speed}; nothing charges {them} or sits on {their} sheet.")
    if ritual.speed <= limit:
        # cites L43
        return _check("speed", True, f"Speed {ritual.speed} ≤ {limit}, the fastest on {their} sheet.")
    return _check(
        "speed",
        False,
        f"Speed {ritual.speed} is slower than {limit}, the fastest charging Move chit or move time on {their} sheet; "
        # cites L43
        "the Magic chit must be as fast or faster.",
    )


def _effort(table: Table, caster: CharacterRecord, ritual: Ritual, combat: Combat | None) -> Check:
    """L43: the ritual's asterisks count with every chit played this round (charge, run, alert; G-R20)."""
    limit = settings_of(table).effort_limit
    fighter = combat.fighter(caster.name) if combat else None
    # cites L43
    refused = effort_refusal(table, caster.name, fighter, ritual.name, ritual.asterisks)
    if refused is not None:
        return _check("effort", False, refused)
    total = (fighter.asterisks if fighter else 0) + ritual.asterisks
    return _check("effort", True, f"Effort: {ritual.name} makes {total} of the round's {limit} asterisks.")


# ---------------------------------------------------------------- castable and cast


class CastableOptions(Model):
    spell: str = Field(min_length=1, max_length=60, description="The spell")
    ritual: str = Field(min_length=1, max_length=60, description="A Magic chit (MAGIC IV3*) or an Artifact/Spell Book")
    color_chit: str | None = Field(default=None, max_length=60, description="One of your color chits to play")
    character: str | None = CharacterOption


def verdict_card(verdict: Verdict, title: str) -> Card:
    card = Card(title=title, tone="success" if verdict.castable else "failure")
    yes = "**Castable**" if verdict.castable else "**Not castable**"
    card.description = (
        f"{yes}: {verdict.spell.name} by {verdict.caster.name} with {verdict.ritual.name}, speed {verdict.speed}."
    )
    add_field(card, "Checks", [f"{'✅' if c.ok else '❌'} {c.detail}" for c in verdict.checks])
    add_field(card, "Colors present", [f"{c}: {s}" for c, s in verdict.colors] or ["none"])
    return fit(card)


def castable(table: Table, options: CastableOptions) -> Outcome:
    """Reads only: every check listed, nothing changed (not even the log)."""
    caster = (
        table.default_character(options.character)
        if options.character is None
        else table.find_character(options.character)
    )
    verdict = assess(table, caster, options.spell, options.ritual, options.color_chit)
    return Outcome(
        card=verdict_card(verdict, f"Can {caster.name} cast {verdict.spell.name}?"),
        summary=f"castable {verdict.spell.name}: {verdict.castable}",
        data=verdict.data(),
        ephemeral=True,
    )


class CastOptions(CastableOptions):
    pass


def cast(table: Table, options: CastOptions) -> Outcome:
    caster = table.default_character(options.character)
    verdict = assess(table, caster, options.spell, options.ritual, options.color_chit)
    if not verdict.castable:
        failed = " ".join(c.detail for c in verdict.checks if not c.ok)
        raise RuleError(f"{caster.name} cannot cast {verdict.spell.name}. {failed}")
    checked = verdict.data()  # before the ritual is played: a prepared chit's speed is 0
    state = state_of(table)
    combat = verdict.combat
    assert combat is not None
    fighter = combat.fighter(caster.name)
    assert fighter is not None
    spell, ritual = verdict.spell, verdict.ritual
    casting = Casting(
        id=state.next_id,
        spell=spell.name,
        caster=caster.name,
        type=spell.type,
        color=spell.color,  # type: ignore[arg-type]
        duration=spell.duration,
        target_type=spell.target_type,
        ritual=ritual.name,  # type: ignore[arg-type]
        ritual_kind=ritual.kind,
        prepared=bool(ritual.chit and ritual.chit.state == "prepared"),  # type: ignore[arg-type]
        color_chit=verdict.color_chit.label if verdict.color_chit else None,
        speed=ritual.speed,
        clearing=combat.clearing,
        day=state.day,
        round=combat.round,
        target_clearing=combat.clearing,
    )
    state.next_id += 1
    state.castings.append(casting)
    fighter.action = "cast"
    if ritual.chit is not None:  # L43: Magic chits count, color magic does not; a book has no asterisks
        play(fighter, ritual.chit, "cast")
    lines = []
    if ritual.chit is not None:
        ritual.chit.state = "committed"
        ritual.chit.committed_to = casting.id
        lines.append(f"{ritual.chit.label} played" + (" (prepared: speed 0)" if casting.prepared else "") + ".")
    else:
        assert ritual.item is not None
        ritual.item.used_on_day = state.day
        ritual.item.committed_to = casting.id
        lines.append(
            # cites L39
            f"{ritual.item.name} used for today (one spell per day): speed 0. It stays committed until the "
            # cites L55, G-R13
            "spell expires."
        )
    if verdict.color_chit is not None:
        # cites L41
        lines.append(f"{verdict.color_chit.label} reverts to a Magic chit and fatigues.")
        verdict.color_chit.state = "fatigued"
        verdict.color_chit.color = None
    source = next((s for c, s in verdict.colors if c == spell.color), "")
    card = Card(title=f"{caster.name} casts {spell.name}", tone="success")
    card.description = (
        f"🔮 #{casting.id} **{spell.name}** (type {spell.type}, {spell.color} from {source}, {spell.duration}) "
        f"at speed {casting.speed}. "
        + " ".join(lines)
        # cites L45, E4
        + " The clearing sees the cast; the target is named in the Melee Step."
    )
    if fighter.asterisks:
        card.footer = f"Effort this round: {fighter.asterisks} of {settings_of(table).effort_limit} asterisks."
    data = {**checked, "casting": casting.model_dump(exclude={"direction"})}
    return Outcome(card=card, summary=f"{caster.name} cast {spell.name} (#{casting.id}) with {ritual.name}", data=data)
