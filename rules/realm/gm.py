"""The GM's hand: breaking a spell, killing a character (L69, G-R15), and entering the results of tables
the primer does not print (the Missile Table, hide rolls; G-R17). The bot never makes up a table.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, quoted
from rules.realm.core import Ended, combat_of, end_casting, find_casting, settings_of, sheet_of, state_of
from rules.realm.state import Record
from rules.text import fold


class BreakOptions(Model):
    spell: str = Field(min_length=1, max_length=70, description="The spell (#id) broken by a spell-breaking spell")


def break_spell(table: Table, options: BreakOptions) -> Outcome:
    casting = find_casting(table, options.spell)
    # cites L69
    ended = end_casting(table, casting, "broken by a spell-breaking spell")
    return Outcome(
        card=Card(title=f"#{casting.id} {casting.spell} is broken", description=ended.text()),
        summary=ended.text(),
        data={"ended": [ended.data()], "fatigued": ended.fatigued},
    )


class KillOptions(Model):
    character: str = Field(min_length=1, max_length=60, description="The character killed")


def kill(table: Table, options: KillOptions) -> Outcome:
    """L69 and G-R15: every spell he cast and every spell on him ends (house rule death_ends)."""
    record = table.find_character(options.character)
    sheet = sheet_of(record)
    if sheet.dead:
        raise RuleError(f"{record.name} is already dead.")
    sheet.dead = True
    sheet.hidden = False
    only_permanent = settings_of(table).death_ends == "permanent_only"
    ended: list[Ended] = []
    for casting in list(state_of(table).castings):
        his = fold(casting.caster) == fold(record.name)
        on_him = fold(record.name) in {fold(t) for t in casting.targets} or fold(casting.holder or "") == fold(
            record.name
        )
        if (his or on_him) and (not only_permanent or casting.duration == "permanent"):
            why = "its caster was killed" if his else "its target was killed"
            # cites L69, G-R15
            ended.append(end_casting(table, casting, f"ended: {why}"))
    combat = combat_of(table, record.name)
    if combat is not None:
        fighter = combat.fighter(record.name)
        if fighter is not None:
            fighter.present = False
    card = Card(title=f"{record.name} is killed", tone="failure")
    if ended:
        add_field(card, "Spells ended", [e.text() for e in ended])
    return Outcome(
        card=card,
        summary=f"{record.name} killed",
        data={
            "character": record.name,
            "ended": [e.data() for e in ended],
            "fatigued": [f for e in ended for f in e.fatigued],
        },
    )


class RecordOptions(Model):
    kind: Literal["missile", "hide", "other"] = Field(description="Which table the result comes from")
    who: str = Field(min_length=1, max_length=60, description="The target (missile) or the character (hide)")
    result: str = Field(min_length=1, max_length=300, description='The result: "pass"/"fail" for hide; harm text')
    spell: str | None = Field(default=None, max_length=70, description="Missile: the attack spell's #id")


def record(table: Table, options: RecordOptions) -> Outcome:
    state = state_of(table)
    combat = None
    notes = []
    who = " ".join(options.who.split())
    if options.kind == "hide":
        result = fold(options.result)
        if result not in ("pass", "fail"):
            raise RuleError("A hide roll's result is `pass` or `fail`.")
        character = table.find_character(who)
        if result == "fail":
            sheet_of(character).hidden = False
        notes.append(f"{character.name} {'stays hidden' if result == 'pass' else 'is unhidden'}.")
        who = character.name
    elif options.kind == "missile":
        for candidate in state.combats.values():
            for due in candidate.missile_due:
                if (
                    due.result is None
                    and fold(due.target) == fold(who)
                    and (options.spell is None or options.spell.strip().lstrip("#") == str(due.casting))
                ):
                    due.result = options.result
                    combat = candidate
                    notes.append(f"Missile Table for #{due.casting} {due.spell} on {due.target}: {options.result}.")
                    break
            if combat is not None:
                break
        if combat is None:
            # cites L63
            raise RuleError(f"No Missile Table roll is due for {quoted(who)}; it is due after an attack spell hits.")
    else:
        notes.append(options.result)
    state.records.append(
        Record(
            day=state.day,
            kind=options.kind,
            who=who,
            result=options.result,
            spell=options.spell,
            clearing=combat.clearing if combat else None,
            round=combat.round if combat else None,
        )
    )
    state.records = state.records[-200:]
    card = Card(title=f"GM records: {options.kind}", description=" ".join(notes))
    hide = options.kind == "hide"  # hidden status is the owner's and the GM's to know
    return Outcome(
        card=card,
        ephemeral=hide,
        summary=f"hide roll for {who} recorded" if hide else f"{options.kind} for {who}: {options.result}",
        data={"kind": options.kind, "who": who, "result": options.result},
    )
