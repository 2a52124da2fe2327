"""A tiny ruleset that exists only for tests: it counts, and it can fail on purpose.

Its `/tally` commands are generated like every ruleset's (cogs/rulesets.py), from the registry it is built into.
"""

from __future__ import annotations

from typing import Literal

from pydantic import model_serializer

from rules.base import (
    Action,
    Card,
    CharacterRecord,
    Model,
    OnDeadline,
    OrderOffer,
    OrderRun,
    Outcome,
    RuleError,
    Ruleset,
    Secrecy,
    StandingOrder,
    Table,
    Wait,
    always,
)


class TallySheet(Model):
    points: int = 0


class TallyState(Model):
    count: int = 0
    asked: list[str] = []  # characters the table waits on to add (play-by-post tests)
    asked_kind: Literal["turn", "response", "gm"] = "turn"

    @model_serializer(mode="wrap")
    def _quiet_when_nobody_is_asked(self, handler):  # older tests compare the whole state with {"count": n}
        dumped = handler(self)
        if not self.asked:
            dumped.pop("asked", None)
            dumped.pop("asked_kind", None)
        return dumped


class TallySettings(Model):
    step: int = 1


class NoOptions(Model):
    pass


class NameOptions(Model):
    name: str


class AskOptions(Model):
    names: str  # comma-separated
    kind: Literal["turn", "response", "gm"] = "turn"


def _create(table: Table, options: NameOptions) -> Outcome:
    table.add_character(table.actor.user_id, options.name, TallySheet())
    return Outcome(card=Card(title=f"Created {options.name}"), summary=f"created {options.name}")


def _add(table: Table, options: NameOptions) -> Outcome:
    record = table.own_character(options.name)
    record.sheet.points += table.settings.step
    table.state.count += 1
    table.state.asked = [n for n in table.state.asked if n.casefold() != record.name.casefold()]
    roll = table.rng.randint(1, 6)
    return Outcome(
        card=Card(title=f"{record.name}: {record.sheet.points}", description=f"rolled {roll}"),
        summary=f"{record.name} +{table.settings.step}",
        data={"points": record.sheet.points, "count": table.state.count, "roll": roll},
    )


def _boom(table: Table, options: NoOptions) -> Outcome:
    table.state.count += 1000
    for record in table.characters.values():
        record.sheet.points = -1
    raise RuntimeError("a bug in a ruleset")


def _refuse(table: Table, options: NoOptions) -> Outcome:
    table.state.count += 1000
    raise RuleError("Not like that: try /tally add instead.")


def _ask(table: Table, options: AskOptions) -> Outcome:
    """The GM asks characters to add: the table now waits on each of them."""
    names = [table.find_character(n.strip()).name for n in options.names.split(",") if n.strip()]
    table.state.asked = names
    table.state.asked_kind = options.kind
    return Outcome(card=Card(title="Asked " + ", ".join(names)), summary="asked " + ", ".join(names))


def _pass(table: Table, options: NameOptions) -> Outcome:
    record = table.own_character(options.name)
    if record.name not in table.state.asked:
        raise RuleError(f"Nobody is waiting on {record.name}.")
    table.state.asked = [n for n in table.state.asked if n != record.name]
    return Outcome(card=Card(title=f"{record.name} passes"), summary=f"{record.name} passed")


def _reset(table: Table, options: NoOptions) -> Outcome:
    table.state.count = 0
    return Outcome(card=Card(title="Reset"), summary="reset")


def _whisper(table: Table, options: NoOptions) -> Outcome:
    """A change with a secret in every place a ruleset can put one: card, summary and ``gm`` data."""
    table.state.count += 1
    return Outcome(
        card=Card(title="You whispered"),
        summary="whispered",
        data={"count": table.state.count, "gm": {"password": "swordfish"}},
        secret=Card(title="The whisper", description="only the GM reads this: swordfish"),
        secret_summary="whispered the password swordfish",
    )


def _confide(table: Table, options: NoOptions) -> Outcome:
    """A private result: its owner and the GMs read it (the log keeps who may, by id)."""
    return Outcome(card=Card(title="You confided"), summary="confided the plan: the north gate")


class TallyRuleset(Ruleset):
    id = "tally"
    name = "Tally (tests only)"
    sheet_model = TallySheet
    state_model = TallyState
    settings_model = TallySettings
    actions = {
        "create": Action("create", _create, NameOptions),
        "add": Action("add", _add, NameOptions),
        "boom": Action("boom", _boom, NoOptions),
        "refuse": Action("refuse", _refuse, NoOptions),
        "reset": Action("reset", _reset, NoOptions, gm_only=True),
        "whisper": Action("whisper", _whisper, NoOptions),
        "confide": Action("confide", _confide, NoOptions, secrecy=Secrecy(private_when=always)),
        "ask": Action("ask", _ask, AskOptions, gm_only=True),
        "pass": Action("pass", _pass, NameOptions),
    }

    def waits(self, table: Table) -> list[Wait]:
        """One wait per asked character; a response's deadline passes for them, a turn's follows the campaign."""
        found = []
        for name in table.state.asked:
            record = table.characters.get(name.casefold())
            if record is None:
                continue
            kind = table.state.asked_kind
            found.append(
                Wait(
                    key=f"ask {name}",
                    user_id=None if kind == "gm" else record.owner_id,
                    who="GM" if kind == "gm" else name,
                    what=f"add a point to {name}" + (f" (count {table.state.count})" if kind == "turn" else ""),
                    commands=["/tally add", "/tally pass"],
                    kind=kind,
                    on_deadline=(
                        OnDeadline(action="pass", options={"name": name}, says=f"{name} did not add in time, so passed")
                        if kind == "response"
                        else None
                    ),
                )
            )
        return found

    # a ruleset outside Magister adds standing orders through the contract alone (rules/base.py), nothing in bot/
    orders = (OrderOffer("add", "When a turn waits on my character at its deadline, add a point for them"),)

    def run_order(self, table: Table, wait: Wait, order: StandingOrder) -> OrderRun | None:
        return (
            OrderRun(action="add", options={"name": wait.who}, says=f"{wait.who} adds") if wait.kind == "turn" else None
        )

    def character_summary(self, record: CharacterRecord) -> str:
        return f"{record.sheet.points} points"

    def check_settings(self, settings: TallySettings, book: object) -> None:
        if settings.step == 13:
            raise RuleError("13 is unlucky at this table; pick another step.")
