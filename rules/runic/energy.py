"""MP from outside the mage's own recovery: "Paut and other items can restore MP, and magic can transfer MP from
one Mage to another" (the seed's MP Recovery).

``/runic energy give`` moves MP from one mage to another, point for point: the giver loses it as any MP loss
(strain past -1 × maximum, a Calamity check if it takes him below zero); the receiver gains up to his maximum.
``/runic energy paut`` restores MP by the dose; the seed never says how much a dose restores, so the GM sets
it once (``mp_per_dose``) and the campaign keeps that ruling.
"""

from pydantic import Field

from rules.base import Card, Model, Outcome, RuleError, Table, add_field, fit
from rules.runic.cards import calamity_data, calamity_fields, gm_calamity_card
from rules.runic.sheet import MageSheet
from rules.runic.upkeep import drain

PAUT_KEY = "paut_mp_per_dose"  # also set with /runic ruling


def _gain(sheet: MageSheet, amount: int) -> int:
    """MP up to the maximum (what is past it is lost)."""
    gained = max(0, min(amount, sheet.mp_max - sheet.mp))
    sheet.mp += gained
    return gained


class EnergyGiveOptions(Model):
    to: str = Field(min_length=1, max_length=60, description="The mage who receives the MP")
    amount: int = Field(ge=1, le=1000, description="MP to transfer")
    mage: str | None = Field(default=None, max_length=60, description="The giver (yours)")


def energy_give(table: Table, options: EnergyGiveOptions) -> Outcome:
    """Transfer MP, mage to mage; the spell that does it is cast with /runic cast."""
    giver = table.default_character(options.mage)
    receiver = table.find_character(options.to)
    if receiver.name == giver.name:
        raise RuleError(f"{giver.name} cannot give MP to {table.them(giver)}self; name another mage as `to`.")
    for record in (giver, receiver):
        if record.sheet.magery < 1:
            raise RuleError(f"{record.name} has no Magery: magic moves MP only from one Mage to another.")
    result = drain(table, giver, options.amount, payment=False)
    gained = _gain(receiver.sheet, options.amount)
    lost: int | None = options.amount - gained
    if receiver.sheet.hides_mp_max:  # Calamity 16/18: how much was lost would tell the hidden maximum
        lost = None
    card = Card(title=f"{giver.name} gives {options.amount} MP to {receiver.name}")
    lines = [f"{giver.name}: MP {result.mp_before} → {result.mp_paid}"]
    if result.mp_paid != result.mp_after and result.calamity:
        lines[0] += f" → {result.mp_after} ({result.calamity.summary()})"
    if result.strain_fp:
        lines.append(f"Strain: {result.strain_fp} FP (MP lost at or below -1 × maximum MP)")
    lines.append(f"{receiver.name}: +{gained} MP, now {receiver.sheet.mp}" + (f" ({lost} past the maximum, lost)"
                                                                                if lost else ""))  # fmt: skip
    add_field(card, "MP", lines)
    if result.calamity is not None:
        for name, value in calamity_fields(result.calamity, reveal=False):
            add_field(card, name, value)
    data = {
        "mage": giver.name, "to": receiver.name, "amount": options.amount, "mp_before": result.mp_before,
        "mp_after": result.mp_after, "strain_fp": result.strain_fp, "gained": gained, "lost": lost,
        "to_mp_after": receiver.sheet.mp, "calamity": calamity_data(result.calamity),
    }  # fmt: skip
    summary = f"{card.title}: {giver.name} MP {result.mp_after}, {receiver.name} MP {receiver.sheet.mp}"
    if result.calamity:
        summary += f", {result.calamity.summary()}"
    return Outcome(card=fit(card), summary=summary, data=data, secret=gm_calamity_card(result.calamity))


class EnergyPautOptions(Model):
    doses: int = Field(default=1, ge=1, le=20, description="How many doses of Paut")
    mage: str | None = Field(default=None, max_length=60, description="Your mage")
    mp_per_dose: int | None = Field(default=None, ge=1, le=1000, description="GM: MP per dose (kept)")


def energy_paut(table: Table, options: EnergyPautOptions) -> Outcome:
    """Paut restores MP, up to the maximum, at the GM's recorded rate."""
    record = table.default_character(options.mage)
    sheet: MageSheet = record.sheet
    ruled = None
    if options.mp_per_dose is not None:
        table.require_gm("Setting how much MP Paut restores")
        ruled = table.state.gm_values.get(PAUT_KEY)
        table.state.gm_values[PAUT_KEY] = options.mp_per_dose
    per_dose = table.state.gm_values.get(PAUT_KEY)
    if per_dose is None:
        raise RuleError(
            "The book does not say how much MP a dose of Paut restores. The GM rules it once, with "
            "`mp_per_dose` on this command, and the campaign keeps it."
        )
    before = sheet.mp
    gained = _gain(sheet, per_dose * options.doses)
    card = Card(title=f"{record.name} takes {options.doses} dose(s) of Paut", tone="success")
    add_field(card, "MP", f"{per_dose} MP per dose (the GM's ruling): MP {before} → {sheet.mp}")
    if options.mp_per_dose is not None:
        card.description = f"The GM rules: a dose of Paut restores {per_dose} MP" + (
            f" (it was {ruled})." if ruled is not None and ruled != per_dose else "."
        )
    data = {"mage": record.name, "doses": options.doses, "mp_per_dose": per_dose, "mp_before": before,
            "mp_after": sheet.mp, "gained": gained}  # fmt: skip
    return Outcome(card=fit(card), summary=f"{card.title}: MP {before} → {sheet.mp}", data=data)
