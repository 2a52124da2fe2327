"""Mana: maximum MP, paying for a casting (ruling 4), strain below -1 × max MP, recovery.

Payment is split before the roll, because choosing to bleed for a spell gives
-4 to the roll: so much from FP or HP, so much from the bonded implement, the
rest from MP. What the roll actually costs is then drawn MP first, then the
implement, then FP or HP, so a failure's single point never comes out of blood
while MP could pay it.
"""

from typing import Literal

from rules.base import Model, RuleError
from rules.runic.book import RunicBook
from rules.runic.sheet import MageSheet

Sacrifice = Literal["fp", "hp", "ritual"]


def refresh_mp_max(sheet: MageSheet, book: RunicBook) -> None:
    """20 × Magery less Calamity losses; current MP never stays above it."""
    sheet.mp_max = max(
        0, book.casting.mana.mp_per_magery * sheet.magery - sheet.mp_lost_temporary - sheet.mp_lost_permanent
    )
    sheet.mp = min(sheet.mp, sheet.mp_max)


def spell_limit(sheet: MageSheet, book: RunicBook) -> int:
    """The most MP (own or stored) one spell may take: 5 × Magery; the rest must be FP or HP."""
    return book.casting.mana.spell_limit_per_magery * sheet.magery


class PaymentPlan(Model):
    """How the full cost would be paid, decided before the roll."""

    cost: int
    mp: int
    item: int
    sacrifice: int
    sacrifice_kind: Sacrifice | None
    donor: str | None = None  # a willing volunteer in contact, or the ritual's victim; None: the caster
    ritual_energy: int = 0  # a ritual sacrifice's whole yield: twice the victim's HP


class Paid(Model):
    """What was actually paid, and what it did to the mage."""

    due: int
    mp: int = 0
    item: int = 0
    sacrifice: int = 0  # energy from FP or HP
    fp: int = 0  # FP spent on sacrifice
    hp: int = 0  # HP spent on sacrifice
    donor: str | None = None  # whose FP or HP it was (None: the caster's own)
    ritual: str | None = None  # the victim killed for a ritual sacrifice
    strain_fp: int = 0  # FP for MP lost at or below -1 × max MP
    mp_before: int
    mp_after: int
    item_before: int | None = None
    item_after: int | None = None

    def sources(self) -> str:
        parts = []
        if self.mp:
            parts.append(f"MP {self.mp}")
        if self.item:
            parts.append(f"implement {self.item}")
        whose = f"{self.donor}'s " if self.donor else ""
        if self.fp:
            parts.append(f"{whose}{self.fp} FP ({self.sacrifice} energy)")
        if self.hp:
            parts.append(f"{whose}{self.hp} HP ({self.sacrifice} energy)")
        if self.ritual:
            parts.append(f"the ritual sacrifice of {self.ritual} ({self.sacrifice} energy)")
        return ", ".join(parts) or "nothing"


def plan_payment(
    sheet: MageSheet,
    book: RunicBook,
    cost: int,
    *,
    sacrifice: Sacrifice | None,
    sacrifice_energy: int,
    item_energy: int | None,
    donor: str | None = None,
    ritual_energy: int = 0,
) -> PaymentPlan:
    """Split the full cost; refuse what the 5 × Magery limit or the implement cannot cover.

    A ritual sacrifice yields ``ritual_energy`` (twice the victim's HP): the spell takes what it needs,
    up to ``sacrifice_energy`` when given, and the rest is lost with the victim.
    """
    if sacrifice == "ritual":
        if not sacrifice_energy:
            sacrifice_energy = min(cost, ritual_energy)
        if sacrifice_energy > ritual_energy:
            raise RuleError(f"The ritual sacrifice yields {ritual_energy} energy; you asked for {sacrifice_energy}.")
    elif (sacrifice is None) != (sacrifice_energy == 0):
        raise RuleError("To sacrifice, give both `sacrifice` (fp or hp) and `sacrifice_energy` (how much energy).")
    if sacrifice_energy > cost:
        raise RuleError(f"The spell costs {cost}; you cannot sacrifice {sacrifice_energy} energy for it.")
    mana = cost - sacrifice_energy
    limit = spell_limit(sheet, book)
    if mana > limit:
        raise RuleError(
            f"One spell may take at most {limit} MP (5 × Magery {sheet.magery}); this one costs {cost}. "
            f"Sacrifice at least {mana - limit + sacrifice_energy} energy from FP or HP "
            f"({book.casting.mana.fp_per_energy} FP or {book.casting.mana.hp_per_energy} HP each)."
        )
    stored = sheet.implement.mp if sheet.implement else 0
    if item_energy is None:  # MP down to zero first, then the implement, then MP below zero
        item = min(stored, max(0, mana - max(0, sheet.mp)))
    else:
        if item_energy and sheet.implement is None:
            raise RuleError("This mage has no bonded implement to draw from; bond one with `/runic mage implement`.")
        if item_energy > stored:
            raise RuleError(f"The implement holds {stored} MP; you asked for {item_energy}.")
        if item_energy > mana:
            raise RuleError(f"Only {mana} of the cost is paid in mana; draw at most that from the implement.")
        item = item_energy
    return PaymentPlan(
        cost=cost,
        mp=mana - item,
        item=item,
        sacrifice=sacrifice_energy,
        sacrifice_kind=sacrifice,
        donor=donor,
        ritual_energy=ritual_energy,
    )


def strain_fp(mp_before: int, lost: int, mp_max: int, per_mp: int) -> int:
    """FP owed for MP lost while at or below -1 × max MP: only the points lost past that line count."""
    if lost <= 0:
        return 0
    already_past = mp_before + mp_max  # MP left before reaching -max
    return max(0, lost - max(0, already_past)) * per_mp


def lose_mp(sheet: MageSheet, book: RunicBook, amount: int) -> int:
    """Take MP for any reason, charging the strain FP; returns that FP."""
    fp = strain_fp(sheet.mp, amount, sheet.mp_max, book.casting.mana.strain_fp_per_mp)
    sheet.mp -= amount
    sheet.fp -= fp
    return fp


def pay(sheet: MageSheet, book: RunicBook, plan: PaymentPlan, due: int, donor: MageSheet | None = None) -> Paid:
    """Draw ``due`` energy: MP share first, then the implement, then FP or HP (``donor``'s, when a volunteer's).

    A ritual's victim is killed during the ritual, before the roll, so it is spent whatever the roll.
    """
    mp = min(due, plan.mp)
    item = min(due - mp, plan.item)
    sacrifice = due - mp - item
    paid = Paid(due=due, mp=mp, item=item, sacrifice=sacrifice, mp_before=sheet.mp, mp_after=sheet.mp)
    if plan.sacrifice_kind == "ritual":
        paid.ritual = plan.donor
        return _pay_mana(sheet, book, paid)
    paid.donor = plan.donor
    giver = donor if donor is not None else sheet
    _pay_mana(sheet, book, paid)
    if sacrifice and plan.sacrifice_kind == "fp":
        paid.fp = sacrifice * book.casting.mana.fp_per_energy
        giver.fp -= paid.fp
    elif sacrifice:
        paid.hp = sacrifice * book.casting.mana.hp_per_energy
        giver.hp -= paid.hp
    return paid


def _pay_mana(sheet: MageSheet, book: RunicBook, paid: Paid) -> Paid:
    """The implement's share and the MP share (with its strain FP)."""
    if sheet.implement is not None:
        paid.item_before = sheet.implement.mp
        sheet.implement.mp -= paid.item
        paid.item_after = sheet.implement.mp
    paid.strain_fp = lose_mp(sheet, book, paid.mp)
    paid.mp_after = sheet.mp
    return paid


def recovery(sheet: MageSheet, book: RunicBook) -> int:
    """Daily recovery: 5 × Magery, minimum 5."""
    mana = book.casting.mana
    return max(mana.recovery_minimum, mana.recovery_per_magery * sheet.magery)


def calamity_owed(mp_before: int, mp_after: int) -> bool:
    """Ruling 3: a check whenever this turn leaves MP below zero or began below zero."""
    return mp_before < 0 or mp_after < 0


def calamity_bonus(mp: int, book: RunicBook) -> int:
    """Ruling 3: +1 per full 5 MP below zero."""
    return max(0, -mp) // book.calamity.bonus_per
