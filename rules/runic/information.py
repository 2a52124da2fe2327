"""Information spells asked a question: "Most Information spells will simply return the same information given
previously if used more than once per day" (the seed's Information Spells).

``/runic info ask`` casts the spell as ``/runic cast`` does (secret roll, full cost) and names the question;
the GM records what was said with ``/runic info answer``. Asked again on the same day (between two sunrises),
the GM's card carries the answer already given, to give again. Answers stay on the GM's side of the log.
"""

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table
from rules.runic.casting import CastOptions, Source, cast, find_spell
from rules.runic.report import cast_outcome
from rules.runic.sheet import InfoAnswer, MageSheet
from rules.text import fold

Question = Field(min_length=1, max_length=300, description="The question asked")


def question_key(mage: str, spell: str, question: str) -> str:
    """One question of one mage's spell: case and spacing do not make a new question."""
    return "|".join(fold(part) for part in (mage, spell, question))


class InfoAskOptions(Model):
    spell: str = Field(min_length=1, max_length=200, description="The Information spell")
    question: str = Question
    mage: str | None = Field(default=None, max_length=60, description="Your mage")
    parameters: str | None = Field(default=None, max_length=1000, description="Parameters")
    source: Source = Field(default="memory", description="Memory, grimoire or scroll")
    ignored: int = Field(default=0, ge=0, le=50, description="Known items ignored (-1 each)")
    modifier: int = Field(default=0, ge=-50, le=50, description="Other modifiers (distance...)")
    dice: str | None = Field(default=None, max_length=40, description="GM: the 3d6")
    calamity_dice: str | None = Field(default=None, max_length=40, description="GM: Calamity 3d6")


def info_ask(table: Table, options: InfoAskOptions) -> Outcome:
    """Cast an Information spell at a question; the GM sees any answer already given today."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    found = find_spell(table, sheet, options.spell)
    spell_type = found[0].type if found else None
    if found is not None and spell_type != "information":
        raise RuleError(f"{found[0].name} is a {spell_type} spell; ask questions with an Information spell.")
    if options.modifier - options.ignored < -50:
        raise RuleError("The modifier and the ignored items together come to less than -50; the roll is hopeless.")
    cast_options = CastOptions(
        spell=options.spell,
        mage=record.name,
        parameters=options.parameters,
        source=options.source,
        type=None if found else "information",
        modifier=options.modifier - options.ignored,
        dice=options.dice,
        calamity_dice=options.calamity_dice,
    )
    result = cast(table, cast_options)
    outcome = cast_outcome(result)
    question = " ".join(options.question.split())
    key = question_key(record.name, result.spell.name, question)
    earlier = table.state.answers.get(key)
    if earlier is not None and earlier.day != table.state.day:
        earlier = None
    if earlier is None:
        entry = InfoAnswer(day=table.state.day, mage=record.name, spell=result.spell.name, question=question)
        table.state.answers[key] = entry
    else:
        earlier.asked += 1
        entry = earlier
    if entry.answer is not None:
        say = (
            f"Asked again today ({entry.asked} times): the spell returns the same information. "
            f"Give the same answer: “{entry.answer}”."
        )
    else:
        say = f"Record what you tell the player: `/runic info answer mage:{record.name} spell:{result.spell.name}`."
    secret = outcome.secret or Card(title=f"Secret roll: {outcome.card.title}", tone="secret")
    secret = secret.model_copy(update={"description": f"**Question:** {question}\n{say}\n{secret.description}"})
    public = outcome.card.model_copy(update={"description": f"**Asks:** {question}\n{outcome.card.description}"})
    data = {**outcome.data, "question": question, "asked": entry.asked, "gm": {"answer": entry.answer}}
    return Outcome(
        card=public,
        summary=f"{outcome.summary} (asks: {question})",
        data=data,
        secret=secret,
        secret_summary=f"{outcome.secret_summary or outcome.summary} (asks: {question}"
        + (f"; answer given today: {entry.answer})" if entry.answer is not None else ")"),
        secret_data=dict(outcome.secret_data),
        ephemeral=outcome.ephemeral,
    )


class InfoAnswerOptions(Model):
    spell: str = Field(min_length=1, max_length=200, description="The Information spell")
    question: str = Question
    answer: str = Field(min_length=1, max_length=1000, description="What you told the player")
    mage: str = Field(min_length=1, max_length=60, description="Who asked")


def info_answer(table: Table, options: InfoAnswerOptions) -> Outcome:
    """GM: record today's answer, so the same question today gets the same answer."""
    table.require_gm("Recording an Information spell's answer")
    record = table.find_character(options.mage)
    key = question_key(record.name, options.spell, options.question)
    entry = table.state.answers.get(key)
    if entry is None or entry.day != table.state.day:
        asked = sorted(
            f"{a.spell}: {a.question}"
            for a in table.state.answers.values()
            if a.mage == record.name and a.day == table.state.day
        )
        raise RuleError(
            f"{record.name} has not asked {options.spell!r} that question today. "
            f"Asked today: {'; '.join(asked) or 'nothing'}."
        )
    replaced = entry.answer
    entry.answer = " ".join(options.answer.split())
    card = Card(title=f"Answer recorded for {record.name}", description="Kept for the GM until sunrise.", tone="secret")
    secret = Card(
        title=f"{record.name} · {entry.spell}",
        description=f"**Question:** {entry.question}\n**Answer:** {entry.answer}",
        tone="secret",
    )
    return Outcome(
        card=card,
        summary=f"The GM recorded an answer for {record.name}'s {entry.spell}.",
        data={"mage": record.name, "spell": entry.spell, "question": entry.question,
              "gm": {"answer": entry.answer, "replaced": replaced}},
        secret=secret,
        ephemeral=True,
    )  # fmt: skip
