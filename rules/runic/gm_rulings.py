"""The GM's calls where the seed leaves a value open, recorded for the campaign (``state.gm_values``).

The code asks for these where it needs them (Paut's MP per dose in ``/runic energy paut``; a grimoire's "TP"
in ``/runic mage grimoire``); ``/runic ruling`` sets, changes or lists them, and the log keeps each change.
"""

from typing import Literal

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table

Topic = Literal["paut_mp_per_dose", "grimoire_tp"]
TOPICS: dict[str, str] = {
    "paut_mp_per_dose": 'MP one dose of Paut restores (MP Recovery: "Paut and other items can restore MP")',
    "grimoire_tp": "the grimoire's TP cost: inscribing time is the spell's casting time × TP (Grimoires and Scrolls)",
}


class RulingOptions(Model):
    topic: Topic | None = Field(default=None, description="What the book leaves to you")
    value: int | None = Field(default=None, ge=1, le=100_000, description="Your ruling")
    clear: bool = Field(default=False, description="Forget the ruling (the bot asks again)")


def ruling(table: Table, options: RulingOptions) -> Outcome:
    """GM: record a value the seed leaves open; without a topic, list them all."""
    table.require_gm("A ruling")
    values: dict[str, int] = table.state.gm_values
    if options.topic is None:
        if options.value is not None or options.clear:
            raise RuleError(f"Name the `topic` to rule on: {', '.join(TOPICS)}.")
        lines = [f"**{t}** = {values.get(t, 'not ruled yet')}: {why}" for t, why in TOPICS.items()]
        card = Card(title="The GM's rulings", description="\n".join(lines))
        return Outcome(card=card, summary="Listed the GM's rulings.", data={"rulings": dict(values)}, ephemeral=True)
    before = values.get(options.topic)
    if options.clear:
        if options.value is not None:
            raise RuleError("Give a `value`, or `clear`, not both.")
        values.pop(options.topic, None)
        after = None
    elif options.value is None:
        raise RuleError(f"Give the `value` for {options.topic} ({TOPICS[options.topic]}), or `clear`.")
    else:
        values[options.topic] = after = options.value
    card = Card(title=f"Ruling: {options.topic}", description=f"{TOPICS[options.topic]}: {before} → {after}.")
    data = {"topic": options.topic, "before": before, "after": after}
    return Outcome(card=card, summary=f"The GM ruled {options.topic}: {before} → {after}.", data=data)
