"""`/runic preview`: a casting's exact odds before anyone commits to it, changing nothing.

The preview runs the real casting procedure (``casting.cast``) on a scratch copy of the
table once for each 3d6 total, so it can never disagree with `/runic cast`: the same
skill, modifiers, cost, payment, unstable casting and Rule of 16. From those sixteen
runs it weighs, exactly (fractions), each outcome, what it costs, the MP it leaves, the
Calamity check it owes with the chance of every row of the Calamity Table and of the
29+ Will roll, and, for a resisted spell, the chance each subject resists.
"""

from fractions import Fraction
from random import Random
from typing import Any

from pydantic import create_model

from rules.base import Card, Chart, Model, Outcome, Table
from rules.dice import resisted_roll
from rules.dice.odds import SumBand, check_odds, sum_band_odds, sum_distribution
from rules.planning import scratch
from rules.runic import mana
from rules.runic.book import RunicBook
from rules.runic.casting import CastOptions, CastResult, cast
from rules.runic.sheet import MageSheet
from rules.text import clip

OUTCOMES = ("critical_success", "success", "failure", "critical_failure")
# The cast's own options (so the two never drift apart), those that most often change the odds: the command
# must fit Discord's 8,000 characters beside the rest of /runic. The others take the cast's defaults.
PREVIEWED = ("spell", "mage", "parameters", "save_energy", "boost", "target", "resistance", "modifier")
PreviewOptions: type[Model] = create_model(
    "PreviewOptions",
    __base__=Model,
    **{name: (CastOptions.model_fields[name].annotation, CastOptions.model_fields[name]) for name in PREVIEWED},
)


def faces_for(total: int) -> list[int]:
    """Three faces that sum to ``total`` (3..18): which ones does not matter to a success roll."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}%".replace(".00%", "%")


def preview(table: Table, options: Model) -> Outcome:
    """Every outcome of this casting with its exact chance, cost, MP and Calamity odds."""
    cast_options = CastOptions.model_validate(options.model_dump())
    book: RunicBook = table.book
    # First as the actor, with random dice: every permission and every refusal is the cast's own.
    first = cast(scratch(table, as_gm=False), cast_options)
    by_total: dict[int, CastResult] = {}
    for total in range(3, 19):
        with_dice = cast_options.model_copy(update={"dice": " ".join(map(str, faces_for(total)))})
        by_total[total] = cast(scratch(table, as_gm=True), with_dice)

    chances = sum_distribution(3, 6)
    will = first_sheet_will(table, first.mage)
    rows = [SumBand(low=row.low, high=row.high, label=row.label) for row in book.calamity.row]
    outcome_p: dict[str, Fraction] = dict.fromkeys(OUTCOMES, Fraction(0))
    cost_of: dict[str, int] = {}
    mp_of: dict[str, int] = {}
    calamity_p = Fraction(0)
    row_p: dict[str, Fraction] = {}
    fails_29 = Fraction(0)
    resist_p: dict[str, Fraction] = {}  # the casting works, and the subject resists it
    overcome_p: dict[str, Fraction] = {}
    for total, result in by_total.items():
        p = chances[total]
        outcome_p[result.outcome] += p
        cost_of[result.outcome] = result.paid.due
        mp_of[result.outcome] = result.paid.mp_after
        if mana.calamity_owed(result.paid.mp_before, result.paid.mp_after):
            bonus = mana.calamity_bonus(result.paid.mp_after, book)
            calamity_p += p
            bands = sum_band_odds(3, 6, rows, bonus=bonus)
            for band in bands.bands:
                row_p[band.band.label] = row_p.get(band.band.label, Fraction(0)) + p * band.probability
            reach = sum_band_odds(3, 6, [(book.calamity.spell_fails_from, None)], bonus=bonus).bands[0].probability
            will_fails = 1 - check_odds(will - bonus).success if will - bonus >= 3 else Fraction(1)
            fails_29 += p * reach * will_fails
        for contest in result.contests:  # a critical success overcomes every subject; a success must beat each
            resisting = Fraction(0)
            if result.outcome == "success":
                living = cast_options.living_subject and result.spell.resisted != "spell"
                resisting = _resists(result.effective, contest.resistance, living, total)
            overcome_p[contest.subject] = overcome_p.get(contest.subject, Fraction(0)) + p * (1 - resisting)
            resist_p[contest.subject] = resist_p.get(contest.subject, Fraction(0)) + p * resisting

    card = Card(title=f"Preview: {first.mage} casts {first.spell.name}", tone="neutral")
    skill_lines = [f"{m.label}: {m.value:+d}" for m in first.modifiers]
    card.add("Effective skill", clip("\n".join([f"Base {first.base.skill}", *skill_lines, f"**{first.effective}**"])))
    full = next((r for r in by_total.values() if r.paid.due == first.cost), first)  # a run that paid in full
    card.add("Energy", f"Cost {first.cost}, paid in full from {full.paid.sources()}")
    lines = []
    for name in OUTCOMES:
        if outcome_p[name]:
            lines.append(
                f"{name.replace('_', ' ').capitalize()}: {_percent(outcome_p[name])} ({outcome_p[name]}), "
                f"pays {cost_of[name]}, MP {mp_of[name]}"
            )
    card.add("Outcomes (exact)", "\n".join(lines))
    if overcome_p:
        subjects = [
            f"{who}: overcome {_percent(overcome_p[who])} ({overcome_p[who]}), resists {_percent(resist_p[who])}"
            for who in overcome_p
        ]
        card.add("Against each subject (exact; the rest of the time the casting fails)", clip("\n".join(subjects)))
    if calamity_p:
        shown = [f"{label}: {_percent(p)}" for label, p in row_p.items() if p]
        card.add(f"Calamity check owed: {_percent(calamity_p)}", clip("\n".join(shown)))
        card.add("The 29+ Will roll fails and the spell with it", f"{_percent(fails_29)} ({fails_29})")
    card.footer = "Nothing was cast or paid. Every chance is exact: each 3d6 total run through the real casting."
    data: dict[str, Any] = {
        "mage": first.mage,
        "spell": first.spell.name,
        "effective": first.effective,
        "cost": first.cost,
        "outcomes": {
            name: {"chance": str(outcome_p[name]), "pays": cost_of.get(name), "mp_after": mp_of.get(name)}
            for name in OUTCOMES
        },
        "subjects": {who: {"overcome": str(overcome_p[who]), "resists": str(resist_p[who])} for who in overcome_p},
        "calamity": {
            "owed": str(calamity_p),
            "rows": {label: str(p) for label, p in row_p.items() if p},
            "fails_29": str(fails_29),
        },
    }
    fails_from = book.calamity.spell_fails_from
    if calamity_p:  # the richer distribution: which Calamity, and how likely the spell is lost at 29+
        chart = Chart(
            title=f"{first.spell.name}: the Calamity check ({_percent(calamity_p)} owed)",
            bars=[(label, float(p / calamity_p)) for label, p in row_p.items() if p],
            highlight=[row.label for row in rows if (row.low or 0) >= fails_from],
            x_label="Calamity Table row, if the check is owed",
        )
    else:
        chart = Chart(
            title=f"{first.mage} casts {first.spell.name} at skill {first.effective}",
            bars=[(name.replace("_", " "), float(outcome_p[name])) for name in OUTCOMES],
            highlight=["critical failure"],
        )
    return Outcome(card=card, summary=f"previewed {first.spell.name}", data=data, ephemeral=True, chart=chart)


def first_sheet_will(table: Table, mage: str) -> int:
    sheet: MageSheet = table.characters[mage.casefold()].sheet
    return sheet.will


def _resists(effective: int, resistance: int, living: bool, caster_total: int) -> Fraction:
    """The chance the subject resists a caster who rolled ``caster_total`` and succeeded."""
    resisted = Fraction(0)
    for subject_total, p in sum_distribution(3, 6).items():
        contest = resisted_roll(
            Random(0),
            effective,
            resistance,
            living=living,
            caster_dice=faces_for(caster_total),
            subject_dice=faces_for(subject_total),
        )
        if not contest.caster_wins:
            resisted += p
    return resisted
